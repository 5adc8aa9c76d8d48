"""What the hand types of the 108-tile regional games look at (长沙, 转转, 四川).

A :class:`RegionalHand` is a winning hand as the fan evaluators see it: the concealed tiles
with the winning tile, the declared melds, and every way to read them (:class:`Reading`: a
standard hand of sets and a pair, or seven pairs). The predicates the three variants share
— one suit (清一色), all pungs (碰碰胡 / 对对胡), 2/5/8 only (将), terminals in every set
(带幺九), 4-of-a-kinds (根, 豪华) — are properties here; each variant's module
(``changsha``, ``zhuanzhuan``, ``sichuan``) turns them into its own hand types.

>>> from paipu.rules.tiles import parse_tiles
>>> hand = RegionalHand.of(parse_tiles("22233344455m66m"), (), parse_tiles("6m")[0])
>>> hand.flush, hand.complete, sorted({r.pair for r in hand.readings})
(True, True, [1, 4])
>>> any(r.pungs_only for r in hand.readings)
True
>>> hand.roots
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from paipu.rules.decompose import is_seven_pairs, standard_decompositions
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import Tile, counts

#: Tiles per suit, and the suited tile kinds of a 108-tile set.
SUIT_SIZE = 9
SUITED_KINDS = 27
SUIT_LETTERS = ("m", "p", "s")
#: The 将 ranks of the Hunan games: 2, 5 and 8.
JIANG_RANKS = frozenset({2, 5, 8})
TERMINAL_RANKS = frozenset({1, 9})
COPIES = 4


def suit(tile: Tile) -> int:
    """0 characters 万, 1 dots 筒, 2 bamboo 条."""
    return tile // SUIT_SIZE


def rank(tile: Tile) -> int:
    """The face value 1-9."""
    return tile % SUIT_SIZE + 1


def is_jiang(tile: Tile) -> bool:
    """A 2, 5 or 8 (将牌 in the Hunan games)."""
    return rank(tile) in JIANG_RANKS


def suit_index(letter: str) -> int:
    """The suit of a letter m/p/s (a Sichuan void suit)."""
    return SUIT_LETTERS.index(letter)


class ReadingKind(StrEnum):
    STANDARD = "standard"  # sets and one pair, declared melds counting as sets
    SEVEN_PAIRS = "seven_pairs"  # 七对: seven pairs, a concealed 4-of-a-kind counting as two


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand."""

    kind: ReadingKind
    pair: Tile  # the pair's tile (-1 for seven pairs)
    pungs_only: bool  # every set is a pung or kong (碰碰胡 / 对对胡)
    terminal_sets: bool  # every set and the pair hold a 1 or a 9 (带幺九)
    quads: int = 0  # seven pairs: 4-of-a-kinds among the pairs (豪华 / 龙)


@dataclass(frozen=True, slots=True)
class RegionalHand:
    """A complete hand: concealed tiles with the winning tile, melds, and its readings."""

    concealed: tuple[int, ...]  # counts over the 34 kinds, the winning tile included
    melds: tuple[Meld, ...]
    win_tile: Tile
    all_counts: tuple[int, ...]  # concealed and melded tiles together (a kong counts 4)
    readings: tuple[Reading, ...]

    @classmethod
    def of(cls, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile) -> RegionalHand:
        concealed = counts([*hand, win_tile])
        everything = concealed.copy()
        for meld in melds:
            for tile in meld.tiles:
                everything[tile] += 1
        return cls(
            tuple(concealed),
            tuple(melds),
            win_tile,
            tuple(everything),
            tuple(_readings(concealed, melds)),
        )

    # -- shape

    @property
    def complete(self) -> bool:
        return bool(self.readings)

    def standard(self) -> tuple[Reading, ...]:
        return tuple(r for r in self.readings if r.kind is ReadingKind.STANDARD)

    def seven_pairs(self) -> Reading | None:
        return next((r for r in self.readings if r.kind is ReadingKind.SEVEN_PAIRS), None)

    # -- tiles

    def kinds(self) -> list[Tile]:
        return [t for t, n in enumerate(self.all_counts) if n]

    @property
    def suits(self) -> frozenset[int]:
        return frozenset(suit(t) for t in self.kinds())

    @property
    def flush(self) -> bool:
        """清一色: every tile, melds included, of one suit."""
        return len(self.suits) == 1

    @property
    def all_jiang(self) -> bool:
        """Every tile, melds included, a 2, 5 or 8 (将将胡 / 将对)."""
        return all(is_jiang(t) for t in self.kinds())

    @property
    def no_terminals(self) -> bool:
        """No 1 and no 9 anywhere (断幺九 / 中张)."""
        return not any(rank(t) in TERMINAL_RANKS for t in self.kinds())

    @property
    def roots(self) -> int:
        """根: kinds held four times, concealed, melded (kongs) or a pung plus one in hand."""
        return sum(1 for n in self.all_counts if n == COPIES)

    @property
    def exposed_melds(self) -> int:
        return sum(1 for m in self.melds if not m.concealed)

    @property
    def kongs(self) -> int:
        return sum(1 for m in self.melds if m.kind.is_kong)

    @property
    def all_melded(self) -> bool:
        """Four melds and a single wait on the pair (全求人 / 金钩钓): two concealed tiles."""
        return len(self.melds) == 4 and sum(self.concealed) == 2

    def holds_suit(self, suit_id: int) -> bool:
        return any(suit(t) == suit_id for t in self.kinds())


def _readings(concealed: list[int], melds: Sequence[Meld]) -> list[Reading]:
    out: list[Reading] = []
    melded_pungs = all(m.kind is not MeldKind.CHI for m in melds)
    melded_terminal = all(_terminal_set(m.tiles[0], m.kind is MeldKind.CHI) for m in melds)
    seen: set[tuple[bool, bool, Tile]] = set()
    for division in standard_decompositions(concealed):
        pungs_only = melded_pungs and not division.chows
        terminal = (
            melded_terminal
            and rank(division.pair) in TERMINAL_RANKS
            and all(_terminal_set(t, True) for t in division.chows)
            and all(rank(t) in TERMINAL_RANKS for t in division.pungs)
        )
        key = (pungs_only, terminal, division.pair)
        if key not in seen:
            seen.add(key)
            out.append(Reading(ReadingKind.STANDARD, division.pair, pungs_only, terminal))
    if not melds and is_seven_pairs(concealed):
        quads = sum(1 for n in concealed if n == COPIES)
        out.append(Reading(ReadingKind.SEVEN_PAIRS, -1, False, False, quads))
    return out


def _terminal_set(first: Tile, run: bool) -> bool:
    """Whether a set holds a 1 or 9: a run 123 / 789, or a pung of 1 or 9."""
    if run:
        return rank(first) in (1, 7)
    return rank(first) in TERMINAL_RANKS
