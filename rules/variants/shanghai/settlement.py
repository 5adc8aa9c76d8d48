"""上海麻将 settlement (记分): a share is (底 + 花) × 2^番, capped at the 勒子; who pays how
many shares (点炮, 自摸, 抢杠, 承包), zero-sum.

The digest's worked example (清混碰, 底 2, 勒子 20): South self-draws 混碰 (4 番) with three
flowers and a pung of 东 (花 4): a share is (2 + 4) × 16 = 96, capped at one 勒子, 20; East,
West and North pay 20 each. Had South made three 碰 from West, West pays the 60 alone.

>>> share = capped_share(2, 4, 4, lezi=20, caps=1)
>>> share
20
>>> win_deltas(4, winner=1, from_seat=None, share=share)
(-20, 60, -20, -20)
>>> win_deltas(4, winner=1, from_seat=None, share=share, liable=2)
(0, 60, -60, 0)
"""

from __future__ import annotations


def share_of(base: int, flowers: int, fan: int) -> int:
    """One share before the cap: (底 + 花) × 2^番 [seed-A 6: "总输赢是花分加上底分后，乘上胡的
    倍"]."""
    return (base + flowers) << fan


def capped_share(base: int, flowers: int, fan: int, *, lezi: int, caps: int) -> int:
    """A share, at most ``caps`` 勒子 (1; 2 for 双勒, 4 for 四勒); ``lezi`` 0: no cap."""
    share = share_of(base, flowers, fan)
    return share if lezi <= 0 else min(share, lezi * caps)


def win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    share: int,
    *,
    robbing: bool = False,
    liable: int | None = None,
) -> tuple[int, ...]:
    """Each seat's delta for one win [seed-A 3.3, 3.5, 3.6]:

    * on a discard the discarder pays one share ("点炮者输点，与他人无关");
    * on a self-draw (杠上花 too) every other seat pays one share;
    * on a robbed kong the konger (``from_seat``) pays three shares, as for a self-draw;
    * 承包: a ``liable`` seat pays instead: the one share of a discard win, the three
      shares of a self-draw or a robbed kong.
    """
    deltas = [0] * players
    others = players - 1
    if from_seat is None or robbing:
        if liable is None and from_seat is None:
            for seat in range(players):
                if seat != winner:
                    deltas[seat] -= share
            deltas[winner] += share * others
            return tuple(deltas)
        payer = liable if liable is not None else from_seat
        assert payer is not None
        deltas[payer] -= share * others
        deltas[winner] += share * others
        return tuple(deltas)
    payer = liable if liable is not None else from_seat
    deltas[payer] -= share
    deltas[winner] += share
    return tuple(deltas)
