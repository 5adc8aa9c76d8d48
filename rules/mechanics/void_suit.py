"""Void suits (定缺): before play each seat declares one suit it will not keep. Its tiles
are discarded before any other, never claimed or konged, and a hand still holding one
cannot win (the scorer is told the void: ``extra["void"]``). Composed by the 血战 games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paipu.rules.events import Draw, Event, Void
from paipu.rules.tiles import Tile, tile_name

if TYPE_CHECKING:
    from paipu.rules.replay import Table

#: The suit letters, in suit order (万 筒 条).
SUIT_LETTERS = "mps"
#: Ranks in a suit.
SUIT_SIZE = 9
#: The kinds of move that would keep a tile of the void suit.
KEEPING = frozenset({"pong", "kong", "concealed_kong", "added_kong"})


class VoidSuits:
    """Each seat's void suit (its index, 0 万 1 筒 2 条; None until declared)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.voids: list[int | None] = [None] * table.players

    def declare(self, event: Void) -> None:
        """The ``void`` event: before the first discard, once per seat."""
        table = self.table
        if table.discard_count or table.calls or table.wins:
            raise table.fail(event, "the void suit (定缺) is declared before the first discard")
        if self.voids[event.seat] is not None:
            raise table.fail(event, f"seat {event.seat} has already declared its void suit")
        self.voids[event.seat] = SUIT_LETTERS.index(event.suit)

    def check_declared(self, event: Event) -> None:
        """Every seat declares before play: only draws and declarations come before."""
        if type(event) is Draw or type(event) is Void:
            return
        missing = [s for s, v in enumerate(self.voids) if v is None]
        if missing:
            raise self.table.fail(
                event,
                f"every seat declares its void suit (定缺) before play; seat {missing[0]} has not",
            )

    def letter(self, seat: int) -> str | None:
        """The seat's void suit as a letter (``m``, ``p``, ``s``), None before it declares."""
        void = self.voids[seat]
        return None if void is None else SUIT_LETTERS[void]

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        """No pong or kong of a tile of the seat's void suit."""
        void = self.voids[seat]
        if void is None or kind not in KEEPING or tile // SUIT_SIZE != void:
            return None
        return (
            f"{tile_name(tile)} is of seat {seat}'s void suit: it may not be claimed or "
            "konged (定缺)"
        )

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        """While the seat holds its void suit, it discards from it."""
        void = self.voids[seat]
        if void is None or tile // SUIT_SIZE == void:
            return None
        hand = self.table.seats[seat].hand
        held = [t for t in range(void * SUIT_SIZE, (void + 1) * SUIT_SIZE) if hand[t]]
        if held:
            return (
                f"seat {seat} still holds {tile_name(held[0])} of its void suit and must "
                f"discard the void suit first (定缺), not {tile_name(tile)}"
            )
        return None
