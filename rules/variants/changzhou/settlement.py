"""常州 / 常山 settlement (结算): a win, kong money (连杠), 跟庄, the drawn hand, 承包.

Every function returns payments ``(payer, receiver, amount)``; :func:`paipu.rules.settlement.
transfers` makes them zero-sum deltas.

The digest's worked example (base 1): South (seat 1) self-draws 财一飘, 8倍: East, West and
North pay 8 each; earlier South's 明杠 collected 1 from each.

>>> from paipu.rules.settlement import transfers
>>> transfers(4, win_payments(4, 1, None, 8))
(-8, 24, -8, -8)
>>> transfers(4, kong_payments(4, 1, "kong", 0, {"kong": 1}, 2))
(-1, 3, -1, -1)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

Payment = tuple[int, int, int]


def win_payments(
    players: int,
    winner: int,
    from_seat: int | None,
    per_payer: int,
    *,
    robbed: bool = False,
    robbing_shares: int = 3,
    liable: Collection[int] = (),
) -> list[Payment]:
    """What a win costs. A self-draw: each other seat pays ``per_payer``; a robbed kong
    (抢杠胡): the konger ``from_seat`` pays ``robbing_shares`` × ``per_payer`` (the self-draw
    score of all three, and nothing more); a discard win (a room option): the discarder pays
    ``per_payer``. 承包: each seat in ``liable`` pays the whole win instead of the payers, and
    the others nothing (the seed: several relations settle each on its own, so two liable
    seats pay it twice); a robbed kong has its payer already and no 承包 on top (没有翻倍).

    >>> win_payments(4, 1, 0, 4, robbed=True)
    [(0, 1, 12)]
    >>> win_payments(4, 1, None, 4, liable=[2])
    [(2, 1, 12)]
    >>> win_payments(4, 0, None, 2, liable=[1, 3])
    [(1, 0, 6), (3, 0, 6)]
    """
    if robbed:
        assert from_seat is not None
        return [(from_seat, winner, robbing_shares * per_payer)]
    payers = [s for s in range(players) if s != winner] if from_seat is None else [from_seat]
    liable_seats = sorted(s for s in liable if s != winner)
    if liable_seats:
        whole = per_payer * len(payers)
        return [(seat, winner, whole) for seat in liable_seats]
    return [(payer, winner, per_payer) for payer in payers]


def kong_amount(kind: str, chain: int, amounts: Mapping[str, int], chain_factor: int) -> int:
    """杠分 per payer: 明杠 1, 暗杠 2 (``amounts``), × ``chain_factor`` for each kong made
    just before on the same turn's replacement draws (连杠 1, 2, 4; 连暗杠 2, 4).

    >>> [kong_amount("kong", n, {"kong": 1}, 2) for n in range(3)]
    [1, 2, 4]
    >>> [kong_amount("concealed_kong", n, {"concealed_kong": 2}, 2) for n in range(2)]
    [2, 4]
    """
    return amounts[kind] * chain_factor**chain


def kong_payments(
    players: int,
    konger: int,
    kind: str,
    chain: int,
    amounts: Mapping[str, int],
    chain_factor: int,
    base: int = 1,
) -> list[Payment]:
    """A kong that stood: each other seat pays the konger (a claimed kong too: the seed's
    "其他三个玩家各陪付杠牌者")."""
    amount = kong_amount(kind, chain, amounts, chain_factor) * base
    return [(payer, konger, amount) for payer in range(players) if payer != konger]


def follow_dealer_payments(players: int, dealer: int, amount: int) -> list[Payment]:
    """跟庄: the dealer pays each other seat ``amount``.

    >>> follow_dealer_payments(4, 2, 1)
    [(2, 0, 1), (2, 1, 1), (2, 3, 1)]
    """
    return [(dealer, seat, amount) for seat in range(players) if seat != dealer]


def drawn_hand_payments(players: int, dealer: int, amount: int) -> list[Payment]:
    """流局 庄家赔付: on a drawn hand the dealer pays each other seat ``amount``.

    >>> drawn_hand_payments(4, 0, 1)
    [(0, 1, 1), (0, 2, 1), (0, 3, 1)]
    """
    return [(dealer, seat, amount) for seat in range(players) if seat != dealer]


def liable_seats(claims: Sequence[Sequence[int]], winner: int, threshold: int) -> list[int]:
    """承包: the seats bound to ``winner``. ``claims[a][b]`` is how many times seat ``a``
    claimed (吃 / 碰 / 明杠) from seat ``b``; a seat the winner claimed from ``threshold``
    times pays all, and so does a seat that claimed ``threshold`` times from the winner.

    >>> liable_seats([[0, 3, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [3, 0, 1, 0]], 0, 3)
    [1, 3]
    """
    return [
        seat
        for seat in range(len(claims))
        if seat != winner
        and (claims[winner][seat] >= threshold or claims[seat][winner] >= threshold)
    ]
