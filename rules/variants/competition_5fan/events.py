"""The 5-fan competition rules' own event: a false win (诈和, 胡错牌) declared at the table.

``["false_win", seat, tile, {"from": seat}]`` (``from`` left out for a self-draw): the seat
declared a win on ``tile`` that the rules refuse (not a complete hand, or under the 5-番
minimum). The replay checks that the win is indeed not legal, and the claimant pays the
penalty (``penalty``, 10 to each other seat); play goes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind
from paipu.rules.tiles import TileError, parse_tile, tile_name


@event_kind
@dataclass(frozen=True, slots=True)
class FalseWin(Event):
    """The seat declares a win (和牌) the rules refuse (诈和): it pays the penalty."""

    kind: ClassVar[str] = "false_win"
    seat: int
    tile: int
    from_seat: int | None = None

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or not isinstance(payload, str):
            raise EventError("false_win: a seat and the tile declared are required")
        from_seat = extra.get("from")
        if from_seat is not None and (
            not isinstance(from_seat, int) or isinstance(from_seat, bool) or from_seat < 0
        ):
            raise EventError(f"false_win: 'from' must be a seat number, not {from_seat!r}")
        try:
            tile = parse_tile(payload)
        except TileError as exc:
            raise EventError(f"false_win: {exc}") from None
        return cls(seat, tile, from_seat)

    def to_array(self) -> list[Any]:
        out: list[Any] = [self.kind, self.seat, tile_name(self.tile)]
        if self.from_seat is not None:
            out.append({"from": self.from_seat})
        return out
