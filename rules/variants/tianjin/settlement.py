"""天津 settlement (结算): a self-drawn win, kong money and 铲, each payment between the
dealer and a 闲 multiplied by 坐庄 / 拉庄.

M(dealer, 闲 i) = (2 if the dealer sat 坐庄) × 2^(闲 i's 拉庄 level), × 2 more with
``dealer_always_double``; between two 闲, M = 1 (digest §3).

The digest's worked example (§9): East deals and sits 坐庄; South 拉一庄, West 不拉, North
拉两庄. South self-draws 素 捉五 (6): East pays 6 × 2 × 2 = 24, West and North 6 each.

>>> stakes = Stakes(dealer=0, zuo_zhuang=True, la_zhuang=(0, 1, 0, 2))
>>> win_deltas(4, 1, 6, stakes)
(-24, 36, -6, -6)
>>> win_deltas(4, 0, 6, stakes)  # had East won the same hand
(84, -24, -12, -48)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from paipu.rules.settlement import transfers


@dataclass(frozen=True, slots=True)
class Stakes:
    """The doublings of one hand: who deals, 坐庄, each seat's 拉庄 level (the dealer's 0)."""

    dealer: int
    zuo_zhuang: bool = False
    la_zhuang: tuple[int, ...] = (0, 0, 0, 0)
    dealer_always_double: bool = False

    def multiplier(self, a: int, b: int) -> int:
        """M between seats ``a`` and ``b``: 1 between two 闲.

        >>> Stakes(0, True, (0, 1, 0, 2)).multiplier(3, 0), Stakes(0).multiplier(1, 2)
        (8, 1)
        """
        dealer = self.dealer
        if dealer not in (a, b):
            return 1
        xian = b if a == dealer else a
        m = (2 if self.zuo_zhuang else 1) << self.la_zhuang[xian]
        return m * 2 if self.dealer_always_double else m


def win_deltas(players: int, winner: int, amount: int, stakes: Stakes) -> tuple[int, ...]:
    """A self-drawn win worth ``amount``: every other seat pays ``amount × M``."""
    return transfers(
        players,
        [(p, winner, amount * stakes.multiplier(p, winner)) for p in range(players) if p != winner],
    )


def kong_payments(
    players: int, kongs: Iterable[tuple[int, int]], stakes: Stakes
) -> list[tuple[int, int, int]]:
    """Kong money: each kong ``(konger, amount)`` is paid by every other seat, × M.

    The digest's 铲 example priced as kongs: a 坐庄 dealer's 暗杠 (2) costs a 不拉 闲 4.

    >>> kong_payments(4, [(0, 2)], Stakes(0, True, (0, 0, 1, 2)))
    [(1, 0, 4), (2, 0, 8), (3, 0, 16)]
    """
    return [
        (p, konger, amount * stakes.multiplier(p, konger))
        for konger, amount in kongs
        for p in range(players)
        if p != konger
    ]


def chan_payments(players: int, amount: int, stakes: Stakes) -> list[tuple[int, int, int]]:
    """铲: the dealer pays each 闲 ``amount`` (one 明杠, 1) × M.

    The seed's example: the dealer sits 坐庄; A 不拉, B 拉一庄, C 拉两庄: 2, 4 and 8.

    >>> chan_payments(4, 1, Stakes(0, True, (0, 0, 1, 2)))
    [(0, 1, 2), (0, 2, 4), (0, 3, 8)]
    """
    dealer = stakes.dealer
    return [
        (dealer, p, amount * stakes.multiplier(dealer, p)) for p in range(players) if p != dealer
    ]
