"""A tile turned up after the win (翻牌): the next tile of the wall is shown once the hand is
won, and the rules read it (翻鸡: the kind after it scores). The ``turn_up`` table event and
its place on the table (:class:`TurnedTile`), written without naming any variant.

>>> from paipu.rules.events import decode
>>> decode(["turn_up", None, "4s"])
TurnUp(tile=21)
>>> decode(["turn_up", None, "4s"]).to_array()
['turn_up', None, '4s']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from paipu.rules.events import Event, _tile, event_kind
from paipu.rules.replay import Phase
from paipu.rules.tiles import Tile, tile_name

if TYPE_CHECKING:
    from paipu.rules.replay import Table


@event_kind
@dataclass(frozen=True, slots=True)
class TurnUp(Event):
    """Table event: the tile turned up from the wall after the win (翻牌)."""

    kind: ClassVar[str] = "turn_up"
    table_event: ClassVar[bool] = True
    tile: Tile

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        return cls(_tile(payload, cls.kind))

    def to_array(self) -> list[Any]:
        return [self.kind, None, tile_name(self.tile)]


def next_rank(tile: Tile) -> Tile:
    """The kind after ``tile`` in its suit, 9 wrapping to 1 (翻鸡: the turned tile's next).

    >>> next_rank(21), next_rank(26), next_rank(8)  # 4s → 5s, 9s → 1s, 9m → 1m
    (22, 18, 0)
    """
    return tile - tile % 9 + (tile % 9 + 1) % 9


class TurnedTile:
    """The turned-up tile on the table: after the win, once, the wall's next tile (the 海底
    tile when the wall is empty); ``required`` makes a won hand without it incomplete."""

    def __init__(self, table: Table, required: bool) -> None:
        self.table = table
        self.required = required
        #: The tile turned up, once it is.
        self.tile: Tile | None = None

    def turn_up(self, event: TurnUp) -> None:
        """The handler of the ``turn_up`` event."""
        table = self.table
        if not table.wins or table.phase is not Phase.ENDED:
            raise table.fail(event, "a tile is turned up (翻牌) only after the win")
        if self.tile is not None:
            raise table.fail(event, "the tile of this hand is already turned up")
        if not self.required:
            raise table.fail(event, "this room turns no tile up after the win")
        if event.tile not in table.tile_kinds:
            raise table.fail(event, f"{tile_name(event.tile)} is not a tile of {table.variant.id}")
        if not table.wall.left():
            last = table.last_wall_tile
            if last is not None and event.tile != last:
                raise table.fail(
                    event, f"with the wall empty the tile turned up is the 海底 {tile_name(last)}"
                )
        elif table.wall.known_tiles():
            expected = table.wall.remaining()[0]
            if expected != event.tile:
                raise table.fail(event, f"the wall's next tile is {tile_name(expected)}")
        else:
            table._see(event.tile, event)
        self.tile = event.tile
        table.notes.append("turn_up")

    def check_settled(self) -> None:
        """A won hand whose room turns a tile up has its ``turn_up`` event."""
        table = self.table
        if table.wins and self.required and self.tile is None:
            raise table.fail(None, "the tile turned up after the win (翻牌) is missing")
