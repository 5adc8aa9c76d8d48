"""Hand decomposition (拆牌): standard hands, seven pairs, thirteen orphans, knitted forms.

A *standard* hand is sets (面子: chows 顺子 and pungs 刻子) plus one pair (雀头). The
decomposer works group by group (each suit, then the honors): each group's counts are split
once into every possible list of sets (with or without one pair) by the one decomposition
model, :mod:`paipu.rules.core.decompose` (which shanten and waits use too), then the groups
are combined.

A decomposition is a :class:`Division`: the concealed chows (by lowest tile), the
concealed pungs and the pair tile. Declared melds are not part of it.

>>> from paipu.rules.tiles import counts, parse_tiles
>>> for d in standard_decompositions(counts(parse_tiles("11122233344455m"))):
...     print(d.describe())
111m 222m 333m 444m 55m
123m 123m 123m 444m 55m
111m 234m 234m 234m 55m
111m 234m 345m 345m 22m
>>> is_seven_pairs(counts(parse_tiles("1122m3344p5566s77z")))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from paipu.rules.core.decompose import group_readings
from paipu.rules.core.shapes import (
    KNITTED_STRAIGHTS,
    THIRTEEN_ORPHANS,
    honors_and_knitted_shanten,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)
from paipu.rules.tiles import EAST, HONORS, N_KINDS, Tile, format_tiles

#: Copies of each tile (the readings take natural tiles only).
MAX_COPIES = 4

_SuitOption = tuple[tuple[Tile, ...], tuple[Tile, ...], Tile]  # (chows, pungs, pair or -1)


@dataclass(frozen=True, slots=True)
class Division:
    """One way to split concealed tiles into sets and a pair.

    ``chows`` holds the lowest tile of each chow, ``pungs`` the pung tiles, both sorted.
    """

    chows: tuple[Tile, ...]
    pungs: tuple[Tile, ...]
    pair: Tile

    def describe(self) -> str:
        parts = [(t, [t, t, t]) for t in self.pungs] + [(t, [t, t + 1, t + 2]) for t in self.chows]
        parts.sort()
        return " ".join(
            [format_tiles(tiles) for _, tiles in parts] + [format_tiles([self.pair, self.pair])]
        )


@lru_cache(maxsize=1 << 16)
def _suit_options(suit_counts: tuple[int, ...], offset: int) -> tuple[_SuitOption, ...]:
    """Every split of one group's counts into sets and at most one pair, as tile codes from
    ``offset``: the no-wild readings of the one decomposition model
    (:func:`paipu.rules.core.decompose.group_readings`), in its order.

    >>> _suit_options((1, 1, 1, 0, 0, 0, 0, 0, 0), 9)
    (((9,), (), -1),)
    """
    runs = offset != EAST
    return tuple(
        (
            tuple(offset + rank for rank in chows),
            tuple(offset + rank for rank in pungs),
            offset + pair if pair >= 0 else -1,
        )
        for chows, pungs, pair, _ in group_readings(suit_counts, runs, MAX_COPIES, 0)
    )


def standard_decompositions(counts: Sequence[int]) -> list[Division]:
    """All decompositions of concealed tiles (3n+2 of them) into sets and exactly one pair.

    ``counts`` is a count vector over the 34 standard tiles. Returns an empty list when
    the tiles do not form a standard hand.
    """
    per_suit: list[tuple[_SuitOption, ...]] = []
    for offset in (0, 9, 18):
        block = tuple(counts[offset : offset + 9])
        if not any(block):
            continue
        if sum(block) % 3 == 1:
            return []
        opts = _suit_options(block, offset)
        if not opts:
            return []
        per_suit.append(opts)
    honors = tuple(counts[EAST:N_KINDS])
    if any(honors):
        options = _suit_options(honors, EAST)
        if not options:
            return []
        per_suit.append(options)
    if all(len(options) == 1 for options in per_suit):  # the usual case: one way to read it
        pairs = [opts[0][2] for opts in per_suit if opts[0][2] >= 0]
        if len(pairs) != 1:
            return []
        chows = tuple(t for opts in per_suit for t in opts[0][0])
        pungs = tuple(t for opts in per_suit for t in opts[0][1])
        return [Division(chows, pungs, pairs[0])]
    divisions: list[Division] = []
    for combo in product(*per_suit):
        pairs = [pr for _, _, pr in combo if pr >= 0]
        if len(pairs) != 1:
            continue
        chows = tuple(sorted(t for ch, _, _ in combo for t in ch))
        pungs = tuple(sorted(t for _, pu, _ in combo for t in pu))
        divisions.append(Division(chows, pungs, pairs[0]))
    return divisions


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs (七对): 14 concealed tiles, every count even (four alike = two pairs)."""
    return sum(counts) == 14 and seven_pairs_shanten(sum(n // 2 for n in counts)) < 0


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """Thirteen orphans (十三幺): one of each terminal and honor, one of them doubled."""
    kinds = sum(1 for t in THIRTEEN_ORPHANS if counts[t])
    paired = any(counts[t] >= 2 for t in THIRTEEN_ORPHANS)
    return sum(counts) == 14 and thirteen_orphans_shanten(kinds, paired) < 0


def knitted_straight_in(counts: Sequence[int]) -> tuple[Tile, ...] | None:
    """The first knitted straight (组合龙) whose nine tiles are all present, if any."""
    for straight in KNITTED_STRAIGHTS:
        if all(counts[t] for t in straight):
            return straight
    return None


def is_honors_and_knitted(counts: Sequence[int]) -> bool:
    """全不靠 / 七星不靠: 14 different tiles, the suited ones (7-9) from one knitted straight."""
    if sum(counts) != 14:
        return False
    honors = sum(1 for t in HONORS if counts[t])
    kinds = max(sum(1 for t in straight if counts[t]) for straight in KNITTED_STRAIGHTS)
    return honors_and_knitted_shanten(kinds + honors) < 0
