"""Sichuan settlement (血战到底结算): wins, and 查花猪 / 查大叫 at the exhaustive draw."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Protocol

from paipu.rules.settlement import transfers


class SelfDrawBonus(StrEnum):
    """What a self-draw adds in Sichuan (自摸加底 / 自摸加倍)."""

    ADD_BASE = "add_base"  # +1 底 from each payer
    DOUBLE = "double"  # ×2
    NONE = "none"


class CallTransfer(StrEnum):
    """What 呼叫转移 moves to the winner of a 杠上炮 (option ``call_transfer``)."""

    ALL_KONGS = "all_kongs"  # 所有的杠牌所得: every kong income the konger still holds
    LAST_KONG = "last_kong"  # only the income of the kong just made


class KongIncome(Protocol):
    """A kong as 呼叫转移 sees it: whose, what it earned, where its income went."""

    @property
    def seat(self) -> int: ...
    @property
    def payments(self) -> tuple[tuple[int, int, int], ...]: ...
    @property
    def moved_to(self) -> int | None: ...


def call_transfer_kongs(kongs: Sequence[KongIncome], konger: int, scope: CallTransfer) -> list[int]:
    """呼叫转移: the indexes (into ``kongs``, in the order they stood) of the kongs whose
    income moves from ``konger`` to the winner of his 杠上炮. A kong without income (a
    robbed one) or whose income an earlier 杠上炮 already moved stays as it is.

    The source (pub-sc rule 9: "玩家杠牌后杠上炮，需将自己所有的杠牌所得转给被点炮的玩家"):
    all of it; ``last_kong`` (the digest's shortening): the kong just made, if it earned.

    >>> from paipu.rules.mechanics.kong_money import KongRecord
    >>> from paipu.rules.melds import MeldKind
    >>> kongs = [KongRecord(5, 0, MeldKind.KONG, 2, ((2, 0, 2),)),
    ...     KongRecord(9, 1, MeldKind.CONCEALED_KONG, None, ((0, 1, 2), (2, 1, 2))),
    ...     KongRecord(14, 0, MeldKind.CONCEALED_KONG, None, ((1, 0, 2), (2, 0, 2)))]
    >>> call_transfer_kongs(kongs, 0, CallTransfer.ALL_KONGS)
    [0, 2]
    >>> call_transfer_kongs(kongs, 0, CallTransfer.LAST_KONG)
    [2]
    >>> kongs[0] = KongRecord(5, 0, MeldKind.KONG, 2, ((2, 0, 2),), moved_to=3)  # moved before
    >>> call_transfer_kongs(kongs, 0, CallTransfer.ALL_KONGS)
    [2]
    """
    own = [i for i, kong in enumerate(kongs) if kong.seat == konger]
    if scope is CallTransfer.LAST_KONG:
        own = own[-1:]
    return [i for i in own if kongs[i].payments and kongs[i].moved_to is None]


def call_transfer_amount(incomes: Sequence[int], scope: CallTransfer) -> int:
    """The kong money a 杠上炮 moves, from the konger's income per kong (oldest first, each
    still his): all of it, or the last kong's (``last_kong``).

    >>> call_transfer_amount([2, 6], CallTransfer.ALL_KONGS), call_transfer_amount(
    ...     [2, 6], CallTransfer.LAST_KONG)
    (8, 6)
    """
    if not incomes:
        return 0
    return sum(incomes) if scope is CallTransfer.ALL_KONGS else incomes[-1]


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
