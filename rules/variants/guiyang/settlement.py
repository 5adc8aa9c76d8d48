"""Guiyang settlement (贵阳捉鸡结算): a win, the 豆 penalty of a 热炮, the 鸡 layer, 查叫.

The digest's worked example (seed values): South (seat 1) holds a 闷豆 and self-draws a
大对子: each other seat pays 30 for the hand and 20 for the 闷豆, South +150.

>>> from paipu.rules.settlement import transfers
>>> hand = guiyang_win_deltas(4, 1, None, 30)
>>> dou = transfers(4, [(p, 1, 20) for p in (0, 2, 3)])
>>> [a + b for a, b in zip(hand, dou)]
[-50, 150, -50, -50]

If instead West (seat 2) discards into it right after his own 转弯豆: West's 转弯豆 is void,
West pays 30 (热炮, the 转弯豆's value) + 30 (hand) + 20 (South's 闷豆), East and North the
闷豆's 20 each: South +120.

>>> hand = guiyang_win_deltas(4, 1, 2, 30, penalty=30)
>>> [a + b for a, b in zip(hand, dou)]
[-20, 120, -80, -20]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from paipu.rules.settlement import transfers


def guiyang_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    value: int,
    *,
    robbing: bool = False,
    penalty: int = 0,
    dealer: int | None = None,
    dealer_bonus: int = 0,
) -> tuple[int, ...]:
    """A win: a self-draw costs each other seat ``value``; a discard costs the discarder
    ``value`` and the 热炮 ``penalty``; a robbed kong (抢杠) counts as a self-draw whose three
    shares the konger pays (包三家). A share the dealer pays or receives is ``dealer_bonus``
    more.

    >>> guiyang_win_deltas(4, 0, 3, 10, robbing=True)
    (30, 0, 0, -30)
    >>> guiyang_win_deltas(4, 2, None, 1, dealer=0, dealer_bonus=1)
    (-2, -1, 4, -1)
    """
    shares: list[tuple[int, int, int]] = []
    payers = (
        [p for p in range(players) if p != winner] if from_seat is None or robbing else [from_seat]
    )
    for payer in payers:
        amount = value + (dealer_bonus if dealer in (payer, winner) else 0)
        shares.append((from_seat if robbing and from_seat is not None else payer, winner, amount))
    if penalty and from_seat is not None and not robbing:
        shares.append((from_seat, winner, penalty))
    return transfers(players, shares)


def dou_value(amounts: Mapping[str, int], kind: str, players: int) -> int:
    """A 豆's whole value (what the 热炮 discarder pays the winner): a 闷豆 or 转弯豆 from
    each other seat, a 点豆 once (seed: 闷豆 60, 转弯豆 30, 点豆 10).

    >>> [dou_value({"concealed_kong": 20, "added_kong": 10, "kong": 10}, k, 4)
    ...  for k in ("concealed_kong", "added_kong", "kong")]
    [60, 30, 10]
    """
    amount = amounts[kind]
    return amount if kind == "kong" else amount * (players - 1)


def chicken_payments(
    players: int,
    held: Sequence[int],
    eligible: Iterable[int],
    *,
    charging: tuple[int, int] | None = None,
    liable: tuple[int, int, int] | None = None,
) -> list[tuple[int, int, int]]:
    """The 鸡 layer: each eligible seat collects its ``held`` 鸡 value from every other seat;
    冲锋鸡 (``charging``: seat, amount) earns an eligible seat its amount from each other
    seat; 责任鸡 (``liable``: payer, receiver, amount) is paid whatever the hand.

    >>> chicken_payments(4, (2, 0, 1, 0), (0, 2), charging=(3, 2))
    [(1, 0, 2), (2, 0, 2), (3, 0, 2), (0, 2, 1), (1, 2, 1), (3, 2, 1)]
    >>> chicken_payments(4, (0, 0, 0, 3), (3,), charging=(3, 2), liable=(1, 3, 1))
    [(0, 3, 3), (1, 3, 3), (2, 3, 3), (0, 3, 2), (1, 3, 2), (2, 3, 2), (1, 3, 1)]
    """
    counted = sorted(set(eligible))
    out: list[tuple[int, int, int]] = []
    for seat in counted:
        if held[seat]:
            out += [(p, seat, held[seat]) for p in range(players) if p != seat]
    if charging is not None and charging[0] in counted and charging[1]:
        seat, amount = charging
        out += [(p, seat, amount) for p in range(players) if p != seat]
    if liable is not None and liable[2]:
        out.append(liable)
    return out


def cha_jiao_payments(
    ready: Mapping[int, int], not_ready: Iterable[int]
) -> list[tuple[int, int, int]]:
    """查叫 on an exhaustive draw: each seat not ready pays each ready seat that seat's best
    hand value (``ready``: seat → value).

    >>> cha_jiao_payments({0: 30, 2: 10}, (1, 3))
    [(1, 0, 30), (1, 2, 10), (3, 0, 30), (3, 2, 10)]
    """
    return [
        (payer, seat, value)
        for payer in sorted(set(not_ready))
        for seat, value in sorted(ready.items())
    ]
