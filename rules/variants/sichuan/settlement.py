"""Sichuan settlement (血战到底结算): wins, and 查花猪 / 查大叫 at the exhaustive draw."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from paipu.rules.settlement import transfers


class SelfDrawBonus(StrEnum):
    """What a self-draw adds in Sichuan (自摸加底 / 自摸加倍)."""

    ADD_BASE = "add_base"  # +1 底 from each payer
    DOUBLE = "double"  # ×2
    NONE = "none"


def sichuan_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    in_hand: Iterable[int],
    amount: int,
    *,
    base: int = 1,
    self_draw_bonus: SelfDrawBonus = SelfDrawBonus.ADD_BASE,
) -> tuple[int, ...]:
    """四川: a discard (or a robbed kong) costs the discarder ``base × amount``; a self-draw
    costs every seat still in the hand as much, plus the self-draw bonus.

    The digest's worked example: South self-draws ×16, 自摸加底: East, West, North pay 17.

    >>> sichuan_win_deltas(4, 1, None, (0, 2, 3), 16)
    (-17, 51, -17, -17)
    """
    pays = base * amount
    if from_seat is not None:
        return transfers(players, [(from_seat, winner, pays)])
    if self_draw_bonus is SelfDrawBonus.ADD_BASE:
        pays += base
    elif self_draw_bonus is SelfDrawBonus.DOUBLE:
        pays *= 2
    return transfers(players, [(p, winner, pays) for p in in_hand if p != winner])


def sichuan_exhaustive_payments(
    flower_pigs: Iterable[int],
    not_ready: Iterable[int],
    ready: Mapping[int, int],
    receivers: Iterable[int],
    *,
    cap: int,
    base: int = 1,
) -> list[tuple[int, int, int]]:
    """四川 at the exhaustive draw: 查花猪 — each 花猪 (still holding three suits) pays ``cap``
    to every receiver that is not a 花猪; 查大叫 — each seat not ready (and not a 花猪) pays
    each ready seat that seat's best multiplier (``ready``: seat → multiplier, capped).

    >>> sichuan_exhaustive_payments({3}, {2}, {0: 8}, (0, 2), cap=64)
    [(3, 0, 64), (3, 2, 64), (2, 0, 8)]
    """
    pigs = sorted(set(flower_pigs))
    out = []
    for pig in pigs:
        out += [(pig, r, cap * base) for r in sorted(set(receivers)) if r not in pigs]
    for payer in sorted(set(not_ready) - set(pigs)):
        out += [(payer, seat, min(m, cap) * base) for seat, m in sorted(ready.items())]
    return out
