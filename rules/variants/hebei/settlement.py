"""Hebei settlement (河北麻将结算): a win's shares, by the room's 点炮 rule and 庄闲.

The digest's provisional example: South self-draws 门清 捉五魁 (1 × 2 × 2 = 4): each other
seat pays 4, South +12.

>>> hebei_win_deltas(4, 1, None, 4, dealer=0)
(-4, 12, -4, -4)
>>> hebei_win_deltas(4, 1, 2, 4, dealer=0, dianpao="big")
(0, 12, -12, 0)
>>> hebei_win_deltas(4, 1, 2, 4, dealer=0, dianpao="three", zhuang_xian=True)
(-8, 16, -4, -4)
"""

from __future__ import annotations

from paipu.rules.settlement import transfers


def hebei_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    total: int,
    *,
    dealer: int,
    dianpao: str = "one",
    zhuang_xian: bool = False,
) -> tuple[int, ...]:
    """A self-draw costs each other seat ``total``; a discard costs the discarder ``total``
    (点炮一家出, ``one``), every other seat ``total`` (``three``), or the discarder three
    shares (大包, ``big``). With 庄闲 a share the dealer pays or receives is doubled."""
    others = [p for p in range(players) if p != winner]
    shares: list[tuple[int, int]] = []  # (payer, share of whom)
    if from_seat is None or dianpao == "three":
        shares = [(p, p) for p in others]
    elif dianpao == "big":
        shares = [(from_seat, p) for p in others]
    else:
        shares = [(from_seat, from_seat)]
    out = []
    for payer, whose in shares:
        amount = total * (2 if zhuang_xian and dealer in (whose, winner) else 1)
        out.append((payer, winner, amount))
    return transfers(players, out)
