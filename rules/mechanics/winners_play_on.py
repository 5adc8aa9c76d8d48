"""Winners play on (血流成河): a seat that wins stays in the hand and may win again, until the
wall is empty. The tile it won on is set aside (it keeps its 13 tiles), and its hand no
longer changes (胡后不换牌): it discards each tile it draws unless the tile wins, claims
nothing but wins, and declares a kong only of the tile just drawn and only if its waits
stay the same. Every seat, winners included, pays every later win: nobody leaves.

The table keeps a winner's seat as playing (``SeatState.won`` stays false, so the legal
moves and the payments count it in); this mechanic keeps who has won, and the tiles set
aside are ``SeatState.set_aside``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paipu.rules.shanten import Shape, waits
from paipu.rules.tiles import Tile, tile_name

if TYPE_CHECKING:
    from paipu.rules.replay import ComputedWin, Table

#: Claims a seat that has won does not make (it only wins on a discard).
CLAIMS = frozenset({"chi", "pong", "kong"})
#: Its own kongs, allowed only of the tile just drawn and when the waits stay the same.
OWN_KONGS = frozenset({"concealed_kong", "added_kong"})


class WinnersPlayOn:
    """血流成河 on ``table``: the seats that have won play on, their hands locked."""

    def __init__(self, table: Table, shapes: frozenset[Shape]) -> None:
        self.table = table
        self.shapes = shapes
        self.wins = [0] * table.players  # each seat's wins so far

    def won(self, win: ComputedWin) -> None:
        """After ``win`` is recorded: the seat stays in, the tile it won on is set aside
        (a further winner on the same discard got no tile: nothing to set aside)."""
        table = self.table
        s = table.seats[win.seat]
        self.wins[win.seat] += 1
        if self.wins[win.seat] > 1:
            table.notes.append("win_again")
        s.won = False
        if sum(s.hand) + 3 * len(s.melds) > table.variant.spec.hand_size:
            s.hand[win.tile] -= 1
            s.set_aside.append(win.tile)
        table.refresh_waits(win.seat)

    def locked(self, seat: int) -> bool:
        return self.wins[seat] > 0

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        if not self.wins[seat]:
            return None
        if kind in CLAIMS:
            return f"seat {seat} has won and plays on: it claims nothing but a win (胡后不换牌)"
        if kind in OWN_KONGS:
            table = self.table
            if tile != table.drawn:
                return (
                    f"seat {seat} has won and plays on: it konges only the tile just drawn "
                    "(胡后不换牌)"
                )
            s = table.seats[seat]
            hand = list(s.hand)
            melds = len(s.melds)
            if kind == "concealed_kong":
                hand[tile] = 0
                melds += 1
            else:
                hand[tile] -= 1
            if waits(hand, melds, self.shapes) != s.waits:
                return (
                    f"seat {seat} has won and plays on: a kong of {tile_name(tile)} would change "
                    "its waits (胡后不换牌)"
                )
        return None

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        drawn = self.table.drawn
        if self.wins[seat] and drawn is not None and tile != drawn:
            return (
                f"seat {seat} has won and plays on: it discards the tile it drew, "
                f"{tile_name(drawn)}, not {tile_name(tile)} (胡后不换牌)"
            )
        return None
