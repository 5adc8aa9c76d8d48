"""Event kinds of the regional mahjong variants beyond paipu log v1 (``docs/regional.md``).

Changsha's 开杠 (kong reveal): after declaring a kong while ready, the player turns up two
tiles from the end of the wall instead of drawing one replacement. If either completes his
hand he wins on it (杠上开花, a ``win`` without ``from``); otherwise both tiles lie on the
table and any other player may win on either (杠上炮, a ``win`` with ``from`` the konger).

>>> from paipu.rules.events import decode
>>> decode(["kong_reveal", 2, ["3m", "7p"]])
KongReveal(seat=2, tiles=(2, 15))
>>> decode(["kong_reveal", 2, ["3m", "7p"]]).to_array()
['kong_reveal', 2, ['3m', '7p']]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_names

#: Tiles a Changsha 开杠 turns up.
REVEAL_TILES = 2


@event_kind
@dataclass(frozen=True, slots=True)
class KongReveal(Event):
    """长沙 开杠: the seat turns up two tiles from the end of the wall after its kong."""

    kind: ClassVar[str] = "kong_reveal"
    seat: int
    tiles: tuple[Tile, ...]

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or not isinstance(payload, list) or len(payload) != REVEAL_TILES:
            raise EventError(
                f"kong_reveal: a seat and the {REVEAL_TILES} tiles turned up are required, "
                f"not {payload!r}"
            )
        tiles = []
        for name in payload:
            if not isinstance(name, str):
                raise EventError(f"kong_reveal: {name!r} is not a tile")
            try:
                tiles.append(parse_tile(name))
            except TileError as exc:
                raise EventError(f"kong_reveal: {exc}") from None
        return cls(seat, tuple(tiles))

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, tile_names(self.tiles)]
