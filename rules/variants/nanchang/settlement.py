"""Nanchang settlement (南昌麻将算子): the win's shares, and 精分 settled apart from it.

**The win** (the digest's reconstruction of the seed's table, every number of which it
reproduces): each non-winner p pays ``u × 2 (自摸) × 2 (p discarded) × 2 (the winner or p
deals)``, + 5 on 德国 when p is a *full payer* (everyone on a self-draw, the discarder on a
discard win), the whole share × the dealer streak ``t = max(streak, 1)``. 点炮三家付 by
default (every non-winner pays on a discard win); 抢杠全包: the robbed konger pays every
share.

The digest's worked example: East (dealer) discards, South wins 德国 平胡 (u = 2): East
pays 2 × 2 × 2 + 5 = 13, West and North 2 each, South + 17.

>>> win_payments(4, winner=1, dealer=0, from_seat=0, u=2, de_guo=True)
[(0, 1, 13), (2, 1, 2), (3, 1, 2)]

**精分** (pub-nc2, paid whoever wins, on a drawn hand too): a player's s = 2 × 正精 + 1 ×
副精 he holds (hand and melds, and his discards still lying with 打出精牌算分); from s ≥ 5
冲关 makes it s × (s − 3); the only player holding any 精 (霸王精) doubles it; every other
player pays him that much. The worked example: West holds 2 正精 + 1 副精 = 5 → 冲关 10 from
each other player (× 2 = 20 if West is the only holder):

>>> jing_payments([0, 0, 5, 0])
[(0, 2, 20), (1, 2, 20), (3, 2, 20)]
>>> jing_payments([1, 0, 5, 0])
[(1, 0, 1), (2, 0, 1), (3, 0, 1), (0, 2, 10), (1, 2, 10), (3, 2, 10)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

#: Defaults of nanchang.toml's [payments] (the variant passes the TOML's values).
DE_GUO_BONUS = 5
CHONG_GUAN_FROM = 5
BA_WANG_PLUS = 10
BAO_GANG_JING = 10
FEEDER_FACTOR = 3
SELF_DRAW = 2
DISCARDER = 2
DEALER = 2


class DiscardPays(StrEnum):
    """Who pays a discard win: 点炮三家付 (all) or 点炮一家付 (the discarder alone)."""

    ALL = "all"
    DISCARDER = "discarder"


class BaWang(StrEnum):
    """霸王精: the only holder of 精 gets × 2, + 10 from each payer, or nothing more."""

    DOUBLE = "double"
    PLUS_TEN = "plus_ten"
    OFF = "off"


def win_payments(
    players: int,
    *,
    winner: int,
    dealer: int,
    from_seat: int | None,
    u: int,
    de_guo: bool,
    streak: int = 1,
    discard_pays: DiscardPays = DiscardPays.ALL,
    robbed: bool = False,
    rob_pays_all: bool = True,
    de_guo_bonus: int = DE_GUO_BONUS,
) -> list[tuple[int, int, int]]:
    """The win's payments (payer, winner, amount), by the seed's formula.

    The seed's 德国小7对 庄自摸: 37 from each (8 × 2 × 2 + 5); a 闲 wins on another 闲's
    discard, 平胡: the discarder 2, the dealer 2, the other 闲 1.

    >>> win_payments(4, winner=0, dealer=0, from_seat=None, u=8, de_guo=True)
    [(1, 0, 37), (2, 0, 37), (3, 0, 37)]
    >>> win_payments(4, winner=1, dealer=0, from_seat=2, u=1, de_guo=False)
    [(0, 1, 2), (2, 1, 2), (3, 1, 1)]
    """
    t = max(streak, 1)
    self_drawn = from_seat is None
    out: list[tuple[int, int, int]] = []
    for seat in range(players):
        if seat == winner:
            continue
        share = u
        if self_drawn:
            share *= SELF_DRAW
        if seat == from_seat:
            share *= DISCARDER
        if dealer in (winner, seat):
            share *= DEALER
        if de_guo and (self_drawn or seat == from_seat):
            share += de_guo_bonus
        share *= t
        if self_drawn or discard_pays is DiscardPays.ALL or seat == from_seat:
            out.append((seat, winner, share))
    if robbed and rob_pays_all and from_seat is not None:
        return [(from_seat, winner, sum(amount for _, _, amount in out))]
    return out


def jing_value(points: int, chong_guan_from: int = CHONG_GUAN_FROM) -> int:
    """s', what each other player pays a holder of ``points`` 精分: s, or s × (s − 3) once
    it reaches 冲关.

    >>> [jing_value(s) for s in (0, 1, 4, 5, 6, 8)]
    [0, 1, 4, 10, 18, 40]
    """
    if points >= chong_guan_from:
        return points * (points - 3)
    return points


@dataclass(frozen=True, slots=True)
class Feed:
    """A 精 claimed (碰 / 杠) by ``holder`` from ``feeder``: its 精分 ``value`` and whether
    the claim was a kong (包杠精)."""

    holder: int
    feeder: int
    value: int
    kong: bool


def jing_payments(
    points: Sequence[int],
    *,
    ba_wang: BaWang = BaWang.DOUBLE,
    feeds: Mapping[int, Feed] | None = None,
    chong_guan_from: int = CHONG_GUAN_FROM,
    ba_wang_plus: int = BA_WANG_PLUS,
    feeder_factor: int = FEEDER_FACTOR,
    bao_gang_jing: int = BAO_GANG_JING,
) -> list[tuple[int, int, int]]:
    """精分 of a hand: (payer, receiver, amount) from each seat's s (``points``).

    ``feeds``: by holder, the last 精 he claimed from another; when without its value he
    would be below 冲关, the feeder pays 3 × s' alone, and 10 to each other player if the
    claim was a kong (包杠精).

    >>> jing_payments([0, 6, 0, 0], feeds={1: Feed(1, 3, 2, kong=True)})
    [(3, 1, 108), (3, 0, 10), (3, 1, 10), (3, 2, 10)]
    """
    players = len(points)
    holders = [seat for seat in range(players) if points[seat] > 0]
    alone = len(holders) == 1
    out: list[tuple[int, int, int]] = []
    for holder in holders:
        value = jing_value(points[holder], chong_guan_from)
        plus = 0
        if alone and ba_wang is BaWang.DOUBLE:
            value *= 2
        elif alone and ba_wang is BaWang.PLUS_TEN:
            plus = ba_wang_plus
        feed = feeds.get(holder) if feeds else None
        if (
            feed is not None
            and points[holder] >= chong_guan_from
            and points[holder] - feed.value < chong_guan_from
        ):
            out.append((feed.feeder, holder, feeder_factor * (value + plus)))
            if feed.kong:
                out += [(feed.feeder, s, bao_gang_jing) for s in range(players) if s != feed.feeder]
            continue
        out += [(seat, holder, value + plus) for seat in range(players) if seat != holder]
    return out
