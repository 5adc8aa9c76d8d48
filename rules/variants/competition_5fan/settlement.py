"""The 5-fan competition rules' settlement (结算, 每一番算一分): a win as deltas in chips.

The winner is paid its fans, doubled once for a self-draw (or 杠上花, 抢杠, 海底捞月: "自模加倍
算番 … 也加倍算番"), and doubled again on every payment the dealer is part of ("庄家胡牌 …
按番数加倍付，其他人胡牌时，庄家也加倍付给胡牌人"). On a self-draw every other seat pays; on a
discard the discarder (or every other seat, ``everyone_pays``).

The digest's worked example: North (3) discards, South (1, not the dealer) wins 清一色
(30) with no other fan: 30 chips from North. Its self-draw: 60 from each of West and North,
120 from the dealer.

>>> five_fan_win_deltas(4, 1, 3, 0, fans=30, doublings=0)
(0, 30, 0, -30)
>>> five_fan_win_deltas(4, 1, None, 0, fans=30, doublings=1)
(-120, 240, -60, -60)
>>> five_fan_penalty(4, 2, 10)
(10, 10, -30, 10)
"""

from __future__ import annotations

from paipu.rules.settlement import transfers


def five_fan_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    dealer: int,
    *,
    fans: int,
    doublings: int,
    everyone_pays: bool = False,
) -> tuple[int, ...]:
    """The deltas of one win: ``fans`` × 2^``doublings`` per payer, × 2 where the dealer
    wins or pays."""
    if from_seat is None or everyone_pays:
        payers = [seat for seat in range(players) if seat != winner]
    else:
        payers = [from_seat]
    base = fans << doublings
    return transfers(
        players,
        [(payer, winner, base * (2 if dealer in (payer, winner) else 1)) for payer in payers],
    )


def five_fan_penalty(players: int, claimant: int, penalty: int) -> tuple[int, ...]:
    """罚分: the claimant of a false win (or a win under the minimum) pays each other seat."""
    return transfers(
        players, [(claimant, seat, penalty) for seat in range(players) if seat != claimant]
    )
