"""Zhuanzhuan settlement (转转结算): a win as deltas, birds counted from the dealer, 飘."""

from __future__ import annotations

from collections.abc import Sequence

from paipu.rules.mechanics.birds import BirdMode, bird_amount, bird_hits
from paipu.rules.settlement import transfers
from paipu.rules.tiles import Tile


def zhuanzhuan_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    dealer: int,
    *,
    robbed: bool = False,
    self_draw_units: int = 2,
    discard_units: int = 1,
    birds: Sequence[Tile] = (),
    bird_mode: BirdMode = BirdMode.ONE_PLUS_HITS,
    piao: int = 0,
    bird_origin: int | None = None,
) -> tuple[int, ...]:
    """转转: a self-draw costs every other seat ``self_draw_units``, a discard the discarder
    ``discard_units``; a robbed kong (抢杠胡) counts as a self-draw whose three shares the
    konger pays. Birds count from the dealer: one on the winner hits every share, one on a
    payer (or, on a discard, on the discarder) hits that share. 坐飘 adds both seats' 飘
    (every seat sits with ``piao``) to each share.

    The digest's worked example: West (seat 2) self-draws, birds 9s 3m 6p 7m:
    East and South pay 2 × (1 + 3), North 2 × (1 + 2).

    >>> zhuanzhuan_win_deltas(4, 2, None, 0, birds=(26, 2, 14, 6))
    (-8, -8, 22, -6)
    """
    shares = []
    for payer in range(players):
        if payer == winner or (from_seat is not None and not robbed and payer != from_seat):
            continue
        base = self_draw_units if from_seat is None or robbed else discard_units
        origin = dealer if bird_origin is None else bird_origin
        hits = bird_hits(birds, origin, winner, payer, players)
        amount = bird_amount(base, hits, bird_mode) + 2 * piao
        shares.append((from_seat if robbed and from_seat is not None else payer, winner, amount))
    return transfers(players, shares)
