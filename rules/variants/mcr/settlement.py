"""MCR settlement (国标计分): a scored win as one delta per seat, summing to zero.

>>> mcr_win_deltas(4, winner=1, from_seat=2, fan=9)
(-8, 33, -17, -8)
>>> mcr_win_deltas(4, winner=1, from_seat=None, fan=12)
(-20, 60, -20, -20)
"""

from __future__ import annotations


def mcr_win_deltas(
    players: int, winner: int, from_seat: int | None, fan: int, base: int = 8
) -> tuple[int, ...]:
    """MCR (国标计分): on a self-draw every other seat pays ``base + fan``; on a discard
    (or a robbed kong) the discarder pays ``base + fan`` and the others ``base`` each."""
    deltas = [0] * players
    for seat in range(players):
        if seat == winner:
            continue
        pays = base + fan if from_seat is None or seat == from_seat else base
        deltas[seat] -= pays
        deltas[winner] += pays
    return tuple(deltas)
