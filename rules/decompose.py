"""Hand decomposition (拆牌): standard hands, seven pairs, thirteen orphans, knitted forms.

A *standard* hand is sets (面子: chows 顺子 and pungs 刻子) plus one pair (雀头). The
decomposer works suit by suit: each suit's nine counts are split once into every
possible list of sets (with or without one pair) and cached, then the suits are combined.

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

from paipu.rules.core.shapes import KNITTED_STRAIGHTS
from paipu.rules.tiles import HONORS, TERMINALS_AND_HONORS, Tile, format_tiles

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
    """Every split of one suit's counts into sets and at most one pair (tile codes)."""
    options: list[_SuitOption] = []
    work = list(suit_counts)
    n = len(work)

    def first_nonzero(start: int) -> int:
        while start < n and work[start] == 0:
            start += 1
        return start

    def search(start: int, chows: list[int], pungs: list[int], pair: int) -> None:
        i = first_nonzero(start)
        if i == n:
            options.append(
                (
                    tuple(offset + r for r in chows),
                    tuple(offset + r for r in pungs),
                    pair + offset if pair >= 0 else -1,
                )
            )
            return
        if pair < 0 and work[i] >= 2:
            work[i] -= 2
            search(i, chows, pungs, i)
            work[i] += 2
        if work[i] >= 3:
            work[i] -= 3
            pungs.append(i)
            search(i, chows, pungs, pair)
            pungs.pop()
            work[i] += 3
        if i + 2 < n and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            chows.append(i)
            search(i, chows, pungs, pair)
            chows.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1

    search(0, [], [], -1)
    return tuple(sorted(set(options)))


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
    honor_pungs: list[Tile] = []
    honor_pair = -1
    for tile in HONORS:
        c = counts[tile]
        if c == 0:
            continue
        if c == 3:
            honor_pungs.append(tile)
        elif c == 2 and honor_pair < 0:
            honor_pair = tile
        else:
            return []
    per_suit.append((((), tuple(honor_pungs), honor_pair),))
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


def is_seven_pairs(counts: list[int]) -> bool:
    """Seven pairs (七对): 14 concealed tiles, every count even (four alike = two pairs)."""
    return sum(counts) == 14 and not counts.count(1) and not counts.count(3)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """Thirteen orphans (十三幺): one of each terminal and honor, one of them doubled."""
    return (
        sum(counts) == 14
        and all(counts[t] for t in TERMINALS_AND_HONORS)
        and sum(counts[t] for t in TERMINALS_AND_HONORS) == 14
    )


def knitted_straight_in(counts: Sequence[int]) -> tuple[Tile, ...] | None:
    """The first knitted straight (组合龙) whose nine tiles are all present, if any."""
    for straight in KNITTED_STRAIGHTS:
        if all(counts[t] for t in straight):
            return straight
    return None


def is_honors_and_knitted(counts: Sequence[int]) -> bool:
    """全不靠 / 七星不靠: 14 different tiles, the suited ones (7-9) from one knitted straight."""
    if sum(counts) != 14 or max(counts) > 1:
        return False
    suited = {t for t in range(27) if counts[t]}
    if not 7 <= len(suited) <= 9:
        return False
    return any(suited <= set(straight) for straight in KNITTED_STRAIGHTS)
