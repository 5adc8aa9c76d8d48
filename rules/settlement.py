"""Settlement (结算): turning a scored win into point transfers between seats.

Every settlement returns one delta per seat and the deltas always sum to zero; those that
list payments, (payer, receiver, amount), become such deltas with :func:`transfers`. The
formulas of one variant live in its folder (``rules/variants/<id>/settlement.py``), those
of a reusable mechanic in ``rules/mechanics/`` (birds, kong money).
"""

from __future__ import annotations

from collections.abc import Iterable


def transfers(players: int, payments: Iterable[tuple[int, int, int]]) -> tuple[int, ...]:
    """Deltas of (payer, receiver, amount) payments: zero-sum by construction.

    >>> transfers(4, [(0, 1, 5), (2, 1, 3)])
    (-5, 8, -3, 0)
    """
    deltas = [0] * players
    for payer, receiver, amount in payments:
        deltas[payer] -= amount
        deltas[receiver] += amount
    return tuple(deltas)
