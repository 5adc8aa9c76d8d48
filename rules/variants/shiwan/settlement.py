"""十万麻将 settlement (结算): a win as deltas. The seed has none; the options say who pays.

A self-draw costs every other seat ``self_draw_units`` × base; a win on a discard (or a
robbed kong) costs the discarder base (``discard_payer = "discarder"``) or every other seat
base (``"everyone"``).

>>> shiwan_win_deltas(4, 1, None, base=1, self_draw_units=1, everyone_pays=False)
(-1, 3, -1, -1)
>>> shiwan_win_deltas(4, 1, 3, base=2, self_draw_units=1, everyone_pays=False)
(0, 2, 0, -2)
>>> shiwan_win_deltas(4, 1, 3, base=1, self_draw_units=1, everyone_pays=True)
(-1, 3, -1, -1)
"""

from __future__ import annotations

from paipu.rules.settlement import transfers


def shiwan_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    *,
    base: int,
    self_draw_units: int,
    everyone_pays: bool,
) -> tuple[int, ...]:
    """The deltas of one win, zero-sum by construction (:func:`transfers`)."""
    if from_seat is None:
        amount = base * self_draw_units
        payers: list[int] = [seat for seat in range(players) if seat != winner]
    elif everyone_pays:
        amount = base
        payers = [seat for seat in range(players) if seat != winner]
    else:
        amount = base
        payers = [from_seat]
    return transfers(players, [(payer, winner, amount) for payer in payers])
