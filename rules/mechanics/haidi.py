"""海底 (the last tile of the wall): 要海底, where the last tile is offered to the seats in
turn and may be declined by all (the hand is then drawn), and the rule that the 海底 tile,
once taken, is discarded if it does not win (海底炮). The table itself records who took it
(``Table.haidi_taker``, ``Table.last_wall_tile``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paipu.rules.events import Draw, Event
from paipu.rules.replay import Phase
from paipu.rules.tiles import Tile, tile_name

if TYPE_CHECKING:
    from paipu.rules.replay import Table


class Haidi:
    """要海底 (with ``choose``) and the discard of the 海底 tile."""

    def __init__(self, table: Table, *, choose: bool) -> None:
        self.table = table
        self.choose = choose
        #: 要海底: the seat taking the last tile (the seats before it passed).
        self.taker: int | None = None

    def _offered(self) -> bool:
        table = self.table
        return self.choose and table.phase is Phase.CLAIM and table.wall.left() == 1

    def before(self, event: Event) -> None:
        if type(event) is Draw and self._offered():
            seat: int = event.seat  # type: ignore[attr-defined]
            if not self.table.seats[seat].won:
                self.taker = seat

    def after(self, event: Event) -> None:
        if type(event) is Draw:
            self.taker = None

    def next_seat(self) -> int | None:
        return self.taker

    def exhausted(self) -> bool | None:
        """Nobody wanted 海底 (要海底 is declined without an event): the hand is drawn."""
        return True if self._offered() else None

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        table = self.table
        drawn = table.drawn
        shown = table.wall.left() == 0 and table.haidi_taker == seat and drawn is not None
        if shown and drawn is not None and tile != drawn:
            return (
                f"the 海底 tile {tile_name(drawn)} is shown: if it does not win it is "
                f"discarded (海底炮), not {tile_name(tile)}"
            )
        return None
