"""长沙麻将 hand types: 小胡 (平胡, a 2/5/8 pair) and the 大胡 that stack additively.

Values live in ``rules/variants/changsha/changsha.toml`` (``points`` = 大胡 units; 平胡 is the small
win). Each detector below declares the ids it yields (:func:`~paipu.rules.fans.produces`),
and the variant checks them against the TOML when it loads.

The rules (digest §7–8): a hand wins as a 小胡 only with a 2/5/8 pair; a 大胡 shape
(碰碰胡, 清一色, 七小对 and its 豪华 forms, 全求人) may have any pair (乱将); 将将胡 needs no
shape at all, only fourteen 2/5/8 tiles. The situational 大胡 (海底, 杠上开花, 杠上炮, 抢杠,
天胡, 地胡) add to a winning hand but do not make a 平胡 shape without a 2/5/8 pair legal.
Of several readings of the tiles the one with the most 大胡 counts.

>>> from paipu.rules.tiles import parse_tiles
>>> hand = RegionalHand.of(parse_tiles("123m456m789m11p45p"), (), parse_tiles("6p")[0])
>>> evaluate(hand, Situation()).reason
'a small win (小胡) needs a 2, 5 or 8 pair (将)'
>>> hand = RegionalHand.of(parse_tiles("123m456m789m22p45p"), (), parse_tiles("6p")[0])
>>> evaluate(hand, Situation()).fans
(('ping_hu', 1),)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from paipu.rules.fans import produces
from paipu.rules.fans.regional import (
    COPIES,
    Reading,
    ReadingKind,
    RegionalHand,
    is_jiang,
    rank,
    suit,
)
from paipu.rules.tiles import Tile

#: fan id → the detector that yields it (checked against the TOML by the variant).
REGISTRY: dict[str, str] = {}

SMALL = "ping_hu"
#: 七小对 by the number of 4-of-a-kinds among its pairs (豪华, 双豪华, 三豪华).
SEVEN_PAIRS_BY_QUADS = (
    "seven_pairs",
    "luxury_seven_pairs",
    "double_luxury_seven_pairs",
    "triple_luxury_seven_pairs",
)


@dataclass(frozen=True, slots=True)
class Situation:
    """How the hand was won, as far as the 大胡 care."""

    self_drawn: bool = False
    last_tile: bool = False  # the last wall tile: 海底捞月 (self-drawn) / 海底炮 (discarded)
    kong_bloom: bool = False  # on one's own 开杠 tiles (杠上开花)
    kong_discard: bool = False  # on another's 开杠 tiles (杠上炮)
    robbing_kong: bool = False  # 抢杠胡
    heavenly: bool = False  # 天胡
    earthly: bool = False  # 地胡


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The fans of a win as (id, count), or why the tiles do not win."""

    fans: tuple[tuple[str, int], ...] = ()
    reason: str | None = None

    @property
    def legal(self) -> bool:
        return self.reason is None

    @property
    def small(self) -> bool:
        return self.fans == ((SMALL, 1),)


@produces(REGISTRY, "all_pungs", "full_flush", "all_melded", *SEVEN_PAIRS_BY_QUADS)
def shape_fans(hand: RegionalHand, reading: Reading, all_melded_jiang: bool = False) -> list[str]:
    """The shape 大胡 of one reading: 碰碰胡, 清一色, 全求人 (four exposed melds, a single
    wait; its pair a 2/5/8 only with ``all_melded_jiang``), 七小对 (豪华 by its quads)."""
    fans = []
    if reading.kind is ReadingKind.SEVEN_PAIRS:
        fans.append(SEVEN_PAIRS_BY_QUADS[min(reading.quads, len(SEVEN_PAIRS_BY_QUADS) - 1)])
    elif reading.pungs_only:
        fans.append("all_pungs")
    if hand.flush:
        fans.append("full_flush")
    melded = reading.kind is ReadingKind.STANDARD and hand.all_melded and hand.exposed_melds == 4
    if melded and (not all_melded_jiang or is_jiang(reading.pair)):
        fans.append("all_melded")
    return fans


@produces(REGISTRY, "all_258")
def jiang_fans(hand: RegionalHand) -> list[str]:
    """将将胡: all fourteen tiles (melds included) are 2, 5 or 8 — no shape needed."""
    return ["all_258"] if hand.all_jiang else []


@produces(
    REGISTRY,
    "last_tile_draw",
    "last_tile_discard",
    "kong_bloom",
    "kong_discard",
    "robbing_kong",
    "heavenly",
    "earthly",
)
def situation_fans(situation: Situation) -> list[str]:
    """The situational 大胡: 海底捞月 / 海底炮, 杠上开花, 杠上炮, 抢杠胡, 天胡, 地胡."""
    fans = []
    if situation.last_tile:
        fans.append("last_tile_draw" if situation.self_drawn else "last_tile_discard")
    for name in ("kong_bloom", "kong_discard", "robbing_kong", "heavenly", "earthly"):
        if getattr(situation, name):
            fans.append(name)
    return fans


@produces(REGISTRY, SMALL)
def small_win(hand: RegionalHand) -> bool:
    """平胡 (小胡): a standard hand whose pair is a 2, 5 or 8."""
    return any(is_jiang(r.pair) for r in hand.standard())


def evaluate(
    hand: RegionalHand,
    situation: Situation,
    units: Mapping[str, int] | None = None,
    *,
    all_melded_jiang: bool = False,
) -> Evaluation:
    """The fans of the hand, the reading with the most 大胡 units kept (``units`` prices
    them; without it each 大胡 counts one)."""

    def worth(fans: list[str]) -> int:
        return sum(units[f] if units else 1 for f in fans)

    best: list[str] = []
    for reading in hand.readings:
        fans = shape_fans(hand, reading, all_melded_jiang)
        if worth(fans) > worth(best):
            best = fans
    best = best + jiang_fans(hand)
    if not best and not small_win(hand):
        if not hand.complete:
            return Evaluation(reason="these tiles do not form a winning hand")
        return Evaluation(reason="a small win (小胡) needs a 2, 5 or 8 pair (将)")
    best += situation_fans(situation)
    if not best:
        return Evaluation(((SMALL, 1),))
    return Evaluation(tuple((f, 1) for f in best))


# ---------------------------------------------------------------------- 起手胡 (opening wins)
# Shown in the opening hand (the dealer's 14 tiles, the others' 13) before the first discard
# and settled at once as a small self-draw each (digest §8). "Each instance counts once;
# several stack": a detector yields every instance of its kind in the tiles (two 六六顺 in
# a hand of four triplets, one 大四喜 per 4-of-a-kind), each as the tiles it shows; ``OPENING``
# maps each kind to the tiles a seat shows (every instance), or None.

OPENING_REGISTRY: dict[str, str] = {}
Instances = list[tuple[Tile, ...]]


def _all(counts: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(t for t in range(27) for _ in range(counts[t]))


@produces(OPENING_REGISTRY, "four_of_a_kind")
def four_of_a_kind(counts: Sequence[int], variant: str) -> Instances:
    """大四喜: four identical tiles; each 4-of-a-kind is one."""
    return [(t,) * COPIES for t in range(27) if counts[t] == COPIES]


@produces(OPENING_REGISTRY, "no_258")
def no_258(counts: Sequence[int], variant: str) -> Instances:
    """板板胡: not a single 2, 5 or 8 (option ``ban_ban_hu = "all_258"``: every tile one);
    the whole hand, once."""
    tiles = _all(counts)
    if variant == "all_258":
        return [tiles] if all(is_jiang(t) for t in tiles) else []
    return [] if any(is_jiang(t) for t in tiles) else [tiles]


@produces(OPENING_REGISTRY, "missing_suit")
def missing_suit(counts: Sequence[int], variant: str) -> Instances:
    """缺一色: a whole suit missing; the whole hand, once."""
    tiles = _all(counts)
    return [tiles] if len({suit(t) for t in tiles}) < 3 else []


@produces(OPENING_REGISTRY, "two_triplets")
def two_triplets(counts: Sequence[int], variant: str) -> Instances:
    """六六顺: two kinds held three (or four) times; each two such kinds are one (four
    triplets: two 六六顺)."""
    kinds = [t for t in range(27) if counts[t] >= 3]
    return [
        tuple(t for t in kinds[i : i + 2] for _ in range(3)) for i in range(0, len(kinds) - 1, 2)
    ]


@produces(OPENING_REGISTRY, "three_step_pairs")
def three_step_pairs(counts: Sequence[int], variant: str) -> Instances:
    """节节高 (option): pairs of three consecutive ranks of one suit (223344); each run of
    three pairs is one, no pair counted twice."""
    pairs = [c // 2 for c in counts[:27]]
    out: Instances = []
    for t in range(27):
        while t % 9 <= 6 and all(pairs[t + k] for k in range(3)):
            for k in range(3):
                pairs[t + k] -= 1
            out.append(tuple(t + k for k in range(3) for _ in range(2)))
    return out


@produces(OPENING_REGISTRY, "three_suit_pairs")
def three_suit_pairs(counts: Sequence[int], variant: str) -> Instances:
    """三同 (option): a pair of the same rank in each suit; each rank is one."""
    return [
        tuple(r + 9 * s for s in range(3) for _ in range(2))
        for r in range(9)
        if all(counts[r + 9 * s] >= 2 for s in range(3))
    ]


@produces(OPENING_REGISTRY, "lone_tile")
def lone_tile(counts: Sequence[int], variant: str) -> Instances:
    """一枝花 (option): a suit of which the hand holds one tile only (``five``: a 5); shown
    with the whole hand, one per such suit."""
    lone = 0
    for s in range(3):
        held = [t for t in range(9 * s, 9 * s + 9) for _ in range(counts[t])]
        if len(held) == 1 and (variant != "five" or rank(held[0]) == 5):
            lone += 1
    return [_all(counts)] * lone


INSTANCES: dict[str, Callable[[Sequence[int], str], Instances]] = {
    "four_of_a_kind": four_of_a_kind,
    "no_258": no_258,
    "missing_suit": missing_suit,
    "two_triplets": two_triplets,
    "three_step_pairs": three_step_pairs,
    "three_suit_pairs": three_suit_pairs,
    "lone_tile": lone_tile,
}


def opening_instances(kind: str, counts: Sequence[int], variant: str) -> int:
    """How many opening wins of ``kind`` the tiles hold (each is paid).

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> hand = counts(parse_tiles("111m333m555p777s9s"))
    >>> opening_instances("two_triplets", hand, "on"), opening_instances("missing_suit", hand, "on")
    (2, 0)
    """
    return len(INSTANCES[kind](counts, variant))


def _shown(kind: str) -> Callable[[Sequence[int], str], tuple[Tile, ...] | None]:
    def tiles(counts: Sequence[int], variant: str) -> tuple[Tile, ...] | None:
        found = INSTANCES[kind](counts, variant)
        if not found:
            return None
        if kind in WHOLE_HAND_KINDS:
            return found[0]
        return tuple(sorted(t for instance in found for t in instance))

    return tiles


#: Opening wins shown with the whole hand (the others show only their tiles).
WHOLE_HAND_KINDS = frozenset({"no_258", "missing_suit", "lone_tile"})
#: kind → the tiles a seat shows for every instance of it, or None.
OPENING: dict[str, Callable[[Sequence[int], str], tuple[Tile, ...] | None]] = {
    kind: _shown(kind) for kind in INSTANCES
}
