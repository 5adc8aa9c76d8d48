"""哈尔滨麻将 payments (seed §三 积分计算): who pays what on one win.

Each loser pays the hand's value per payer ``per_loser`` (平胡 1, 自摸 2, 摸宝 3, 宝中宝 12); a
loser still 门清 (站立) pays at least 3; on a discard win whose discarder was not ready (出冲,
or the discard was its own declaring one) the discarder pays 3 and 包赔 what the other
losers would have paid, and they pay nothing; ``factor`` (2 for 卡当) multiplies it all.

The seed's worked example: a 卡当 self-draw; b 站立, c and d opened: b −3 × 2, c and d −2 × 2.

>>> harbin_deltas(4, 0, None, 2, frozenset({1}), chu_chong=False, factor=2)
(14, -6, -4, -4)
>>> harbin_deltas(4, 0, 1, 1, frozenset({2, 3}), chu_chong=True, factor=1)
(9, -9, 0, 0)
"""

from __future__ import annotations

from collections.abc import Collection

#: What a 站立 loser pays at least, and what a discarder pays for 出冲 (seed: 3 番 each).
STANDING = 3
CHU_CHONG = 3


def harbin_deltas(
    players: int,
    winner: int,
    discarder: int | None,
    per_loser: int,
    standing: Collection[int],
    *,
    chu_chong: bool,
    factor: int,
    standing_floor: int = STANDING,
    chu_chong_base: int = CHU_CHONG,
) -> tuple[int, ...]:
    """The deltas by seat of one win: zero-sum. ``discarder`` None for a self-draw (抢杠
    and 杠开 pay as one); ``standing`` the losers still 门清."""
    deltas = [0] * players
    amounts = {
        seat: max(per_loser, standing_floor) if seat in standing else per_loser
        for seat in range(players)
        if seat != winner
    }
    if discarder is not None and chu_chong:
        others = sum(amount for seat, amount in amounts.items() if seat != discarder)
        pay = {discarder: chu_chong_base + others}
    else:
        pay = amounts
    for seat, amount in pay.items():
        deltas[seat] -= amount * factor
        deltas[winner] += amount * factor
    return tuple(deltas)
