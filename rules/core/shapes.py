"""Hand shapes (和牌型) and the fixed tile patterns some of them use, defined once.

:class:`Shape` is the shape a variant may allow; :data:`KNITTED_STRAIGHTS` the six knitted
straights (组合龙) that both the fan readings (:mod:`paipu.rules.decompose`) and shanten
(:mod:`paipu.rules.shanten`) use, in the order the MCR reference calculator tries them.

>>> len(KNITTED_STRAIGHTS), KNITTED_STRAIGHTS[0][:3], KNITTED_ROWS[0]
(6, (0, 3, 6), (0, 3, 6))
"""

from __future__ import annotations

import enum

from paipu.rules.tiles import MAN, PIN, SOU, TERMINALS_AND_HONORS, Tile

#: Sets (面子) in a standard complete hand; declared melds count among them.
SETS_PER_HAND = 4


class Shape(enum.Enum):
    """A hand shape a variant may allow (和牌型)."""

    STANDARD = "standard"  # 基本和型: 4 sets + pair, declared melds counting as sets
    SEVEN_PAIRS = "seven_pairs"  # 七对; a concealed 4-of-a-kind counts as two pairs
    THIRTEEN_ORPHANS = "thirteen_orphans"  # 十三幺
    HONORS_AND_KNITTED = "honors_and_knitted"  # 全不靠 / 七星不靠: 14 distinct loose tiles
    KNITTED_STRAIGHT = "knitted_straight"  # 组合龙 + 1 set + pair

    @property
    def max_melds(self) -> int:
        """How many declared melds (incl. concealed kongs) the shape tolerates.

        >>> Shape.KNITTED_STRAIGHT.max_melds
        1
        """
        return SHAPE_MAX_MELDS[self]

    def applies(self, melds: int) -> bool:
        """Whether a hand with ``melds`` declared melds can still take this shape."""
        return melds <= SHAPE_MAX_MELDS[self]


SHAPE_MAX_MELDS = {
    Shape.STANDARD: SETS_PER_HAND,
    Shape.SEVEN_PAIRS: 0,
    Shape.THIRTEEN_ORPHANS: 0,
    Shape.HONORS_AND_KNITTED: 0,
    Shape.KNITTED_STRAIGHT: 1,
}

#: Every shape of the MCR rules (国标).
ALL_SHAPES: tuple[Shape, ...] = tuple(Shape)
STANDARD_ONLY: tuple[Shape, ...] = (Shape.STANDARD,)

#: The 13 terminals and honours of thirteen orphans (十三幺).
THIRTEEN_ORPHANS: tuple[Tile, ...] = TERMINALS_AND_HONORS

#: The three knitted rows of ranks 147 / 258 / 369, as offsets inside a suit.
KNITTED_ROWS: tuple[tuple[int, int, int], ...] = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
#: For each knitted straight, the row each suit uses, in the order (characters, dots,
#: bamboo); the straights are taken in the reference calculator's order, which assigns
#: rows to characters, bamboo, dots in turn.
STRAIGHT_ROWS: tuple[tuple[int, int, int], ...] = tuple(
    (m, p, s) for m, s, p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
#: The six knitted straights (组合龙): 147, 258, 369 spread over three different suits,
#: each as its nine tiles ascending.
KNITTED_STRAIGHTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(
        sorted(
            base + offset
            for base, row in zip((MAN, PIN, SOU), rows, strict=True)
            for offset in KNITTED_ROWS[row]
        )
    )
    for rows in STRAIGHT_ROWS
)

#: Pairs in a seven-pairs hand (七对).
PAIRS_PER_HAND = 7
#: Distinct tiles of honors and knitted tiles (全不靠): 14 loose tiles, 13 before the win.
LOOSE_TILES = 14


# The special shapes' shanten, defined once: the plain tables (rules/shanten.py), the wild-
# aware core (rules/core/shanten.py) and the fan readings (rules/decompose.py: a shape is
# complete at shanten -1) count a hand's parts and call these.


def seven_pairs_shanten(pairs: int, singles: int = 0, wilds: int = 0) -> int:
    """七对: ``6 - pairs``, a 4-of-a-kind counting as two pairs; each wild pairs one of the
    ``singles`` (kinds held an odd number of times, below their copies), two wilds left
    make a pair.

    >>> seven_pairs_shanten(6), seven_pairs_shanten(5, singles=2, wilds=1)
    (0, 0)
    """
    matched = min(wilds, singles)
    return PAIRS_PER_HAND - 1 - (pairs + matched + (wilds - matched) // 2)


def thirteen_orphans_shanten(kinds: int, paired: bool, wilds: int = 0) -> int:
    """十三幺: ``13 - kinds - paired`` over the distinct terminals and honours held; a wild
    fills a missing one first, then the pair.

    >>> thirteen_orphans_shanten(13, True), thirteen_orphans_shanten(11, False, wilds=3)
    (-1, -1)
    """
    filled = min(wilds, len(THIRTEEN_ORPHANS) - kinds)
    if not paired and wilds > filled:
        paired = True
    return len(THIRTEEN_ORPHANS) - (kinds + filled) - int(paired)


def honors_and_knitted_shanten(kinds: int) -> int:
    """全不靠 / 七星不靠: ``13 - kinds``, the distinct tiles held of one knitted straight plus
    the distinct honours (for the best straight).

    >>> honors_and_knitted_shanten(14)
    -1
    """
    return LOOSE_TILES - 1 - kinds
