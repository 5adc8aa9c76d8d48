"""Birds (扎鸟 / 抓鸟): tiles turned up after a win; each lands on a seat and raises what the
payers it hits pay. Composed by the 108-tile Hunan games (docs/regional.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from paipu.rules.tiles import Tile


class BirdMode(StrEnum):
    """How birds (扎鸟) that hit a payer change what it pays."""

    MULTIPLY = "multiply"  # ×2 per hit (乘法翻倍)
    ONE_PLUS_HITS = "one_plus_hits"  # ×(1 + hits) (加法翻倍, 扎1鸟×2 / 扎2鸟×3)
    ADD_POINT = "add_point"  # +1 per hit (中鸟加分)
    SEED_LITERAL = "seed_literal"  # ×max(1, hits): the 转转 seed's own arithmetic


def bird_seat(tile: Tile, origin: int, players: int) -> int:
    """The seat a bird lands on: rank r counts (r − 1) seats on from ``origin`` (1/5/9 the
    origin itself, 2/6 the next seat, 3/7 the one opposite, 4/8 the previous seat).

    >>> bird_seat(4, 1, 4), bird_seat(20, 1, 4)  # 5m → seat 1 itself; 3s → two on: seat 3
    (1, 3)
    """
    return (origin + tile % 9) % players


def bird_amount(amount: int, hits: int, mode: BirdMode) -> int:
    """What a payer pays once ``hits`` birds hit it.

    >>> [bird_amount(2, 3, m) for m in BirdMode]
    [16, 8, 5, 6]
    """
    if mode is BirdMode.MULTIPLY:
        return amount * 2**hits
    if mode is BirdMode.ONE_PLUS_HITS:
        return amount * (1 + hits)
    if mode is BirdMode.ADD_POINT:
        return amount + hits
    return amount * max(1, hits)


def bird_hits(birds: Sequence[Tile], origin: int, winner: int, payer: int, players: int) -> int:
    """Birds that hit one payer: those on the winner and those on the payer itself."""
    seats = [bird_seat(t, origin, players) for t in birds]
    return sum(1 for s in seats if s == winner) + sum(1 for s in seats if s == payer)


def die_birds(dice: Sequence[int]) -> tuple[Tile, ...]:
    """Dice serving as birds (长沙 起手胡, pub-B): a die of d counts as a bird of rank d (the
    万 tile of that rank), so it lands (d − 1) seats on from the origin.

    >>> die_birds((1, 6))
    (0, 5)
    """
    if any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice are 1-6, not {list(dice)}")
    return tuple(d - 1 for d in dice)
