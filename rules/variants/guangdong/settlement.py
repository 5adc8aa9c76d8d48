"""广东推倒胡 settlement: who pays a win and how much, with the horses (买马).

Every payer pays one *share*: the win's points (2, doubled by 无鬼加倍 and 七对加番) plus, for
each horse that lands on the winner, the horse value (2, or the points with 马跟底分). A
self-draw is paid by the three others; a robbed kong by the konger alone for all three
(抢杠全包) or by each; a win on the replacement of a 直杠 by its feeder for all three
(杠爆全包); a discard win (where allowed) by the discarder (one share) or by all.

The digest's worked example: no 鬼, 4 horses, South (seat 1) self-draws, East (seat 0)
deals; horses 5万 (dealer), 2条 (dealer's next: South), 6筒 (South), 北 (dealer's previous):
2 hit South, so each other seat pays 2 + 2 × 2 = 6.

>>> from paipu.rules.tiles import parse_tiles
>>> horses = tuple(parse_tiles("5m2s6p4z"))
>>> hits = horse_hits(horses, winner=1, dealer=0, players=4)
>>> hits, guangdong_deltas(4, 1, None, share=2 + 2 * hits)
(2, (-6, 18, -6, -6))
"""

from __future__ import annotations

from collections.abc import Sequence

from paipu.rules.tiles import Tile

#: Seats on from the dealer an honour horse lands: 东 中 the dealer, 南 发 the next seat,
#: 西 白 the seat opposite, 北 the previous seat [pub-gd winHorse()].
HONOUR_OFFSETS = {27: 0, 28: 1, 29: 2, 30: 3, 31: 2, 32: 1, 33: 0}


def horse_seat(tile: Tile, dealer: int, players: int) -> int:
    """The seat a horse lands on, counted from the dealer: 1/5/9 the dealer, 2/6 its next
    seat (下家), 3/7 the one opposite, 4/8 its previous seat (上家); honours as
    :data:`HONOUR_OFFSETS`.

    >>> [horse_seat(t, 0, 4) for t in (0, 4, 8, 1, 2, 3, 27, 31, 32, 33)]
    [0, 0, 0, 1, 2, 3, 0, 2, 1, 0]
    """
    offset = HONOUR_OFFSETS[tile] if tile >= 27 else (tile % 9) % 4
    return (dealer + offset) % players


def horse_hits(horses: Sequence[Tile], winner: int, dealer: int, players: int) -> int:
    """The horses that land on the winner."""
    return sum(1 for tile in horses if horse_seat(tile, dealer, players) == winner)


def guangdong_deltas(
    players: int,
    winner: int,
    payer: int | None,
    share: int,
    *,
    from_seat: int | None = None,
) -> tuple[int, ...]:
    """The deltas of one win: ``payer`` pays every other seat's ``share`` (抢杠全包, 杠爆全包,
    点炮一家付 with one share when ``from_seat`` is the payer and only it pays); with no single
    payer every other seat pays its share.

    ``from_seat`` set (a discard win paid by the discarder alone) makes the discarder pay one
    share, not three.

    >>> guangdong_deltas(4, 0, 2, 4), guangdong_deltas(4, 0, 2, 4, from_seat=2)
    ((12, 0, -12, 0), (4, 0, -4, 0))
    """
    deltas = [0] * players
    if from_seat is not None:
        deltas[from_seat] -= share
        deltas[winner] += share
        return tuple(deltas)
    for seat in range(players):
        if seat == winner:
            continue
        who = seat if payer is None else payer
        deltas[who] -= share
        deltas[winner] += share
    return tuple(deltas)
