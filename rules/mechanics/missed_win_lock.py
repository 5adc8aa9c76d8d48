"""The 漏胡 lock: a seat that lets a win on another seat's tile pass may not win on a
discard again before its own next draw (of that tile, or of any tile in the strict form).
Composed by the Hunan games; the legal moves (:mod:`paipu.rules.legal`) ask it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from paipu.rules.events import Draw, Event, Win
from paipu.rules.tiles import Tile

if TYPE_CHECKING:
    from paipu.rules.replay import Table

#: A lock on every tile (漏胡 in its strict form).
ANY_TILE = -1


class MissedWinLock:
    """The seats locked out of discard wins, and the wins on offer right now."""

    def __init__(self, table: Table, *, any_tile: bool) -> None:
        self.table = table
        self.any_tile = any_tile
        self.locks: list[set[Tile]] = [set() for _ in range(table.players)]
        #: (seat, tile): legal wins on the tile(s) just offered, not taken yet.
        self.chances: list[tuple[int, Tile]] = []

    def offer(self, from_seat: int, tiles: Iterable[Tile]) -> None:
        """Remember who may win on the tile(s) just offered (a discard, an added kong, the
        tiles of a kong reveal): a seat that lets the chance pass is locked."""
        table = self.table
        for tile in dict.fromkeys(tiles):
            for k in range(1, table.players):
                seat = (from_seat + k) % table.players
                s = table.seats[seat]
                if s.won or tile not in s.waits:
                    continue
                if table.would_win(seat, tile, from_seat) is not None:
                    self.chances.append((seat, tile))

    def before(self, event: Event) -> None:
        """Any event but a win closes the chances: their seats are locked."""
        if self.chances and type(event) is not Win:
            for seat, tile in self.chances:
                self.locks[seat].add(ANY_TILE if self.any_tile else tile)
                self.table.notes.append("missed_win_lock")
            self.chances = []

    def after(self, event: Event) -> None:
        """A seat's own draw lifts its lock; a win takes its seat's chances."""
        if type(event) is Draw:
            self.locks[event.seat].clear()  # type: ignore[attr-defined]
        elif type(event) is Win:
            self.won(event.seat)  # type: ignore[attr-defined]

    def won(self, seat: int) -> None:
        self.chances = [c for c in self.chances if c[0] != seat]

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        locks = self.locks[seat]
        if from_seat is not None and (ANY_TILE in locks or tile in locks):
            return (
                f"seat {seat} passed a win on a discard and may not win on one before its next "
                "draw (漏胡)"
            )
        return None
