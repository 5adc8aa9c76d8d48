"""Bots for the mahjong variants (机器人): sensible, cheap, and blind to what they cannot see.

A :class:`Bot` plays one seat through a :class:`~paipu.selfplay.loop.SeatView`:
its own hand and melds, every discard, the exposed melds and flowers of the others, and
counts (tiles left, concealed kongs). Each decision costs a few shanten or waits calls.

* **Win** whenever the rules allow it (自摸, 点和, 抢杠).
* **Discard** to lower shanten (向听数) under a *fan plan*. In MCR a hand needs 8 fan, so
  the bot steers towards a plan that reaches it (:class:`PlanKind`: a flush, all pungs,
  seven pairs, a straight, a triple chow, the knitted shapes, thirteen orphans). A
  discard's distance is ``max(shanten, plan distance)``; candidates are tried best bound
  first, so most turns take one or two shanten calls. Among equal discards the bot keeps
  connected tiles (pairs, neighbours, middle ranks) and, when an opponent looks
  dangerous, gives up the safer tile.
* **When ready**, each discard that keeps the hand ready is worth the live copies of its
  waits that are legal wins as the scorer counts them (waits that only a self-draw makes
  legal count a third); a ready hand whose waits are all too cheap counts as not ready.
* **Calls** (pong, chi, kong) when they shorten the distance under the plan the hand would
  follow after the call, by the style's margin; a pung of dragons or value winds is
  welcome.
* **Kongs** on its own turn, concealed or added, when they do not slow the hand.
* **Defence**: an opponent's threat grows with its melds and with how long it has been
  discarding; a tile's danger falls with genbutsu (the opponent's own discard), suji,
  copies in sight, terminal ranks, and rises in the suit that the opponent's melds show.
  The :class:`~paipu.rules.selfplay.Style` sets when the bot folds (弃和) and how much
  safety weighs in ordinary discards.

The view is all a bot gets: it never sees another hand, a face-down kong or the wall.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple, TypeAlias, cast

from paipu.rules.legal import Move, MoveKind
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.selfplay import Style
from paipu.rules.shanten import HandShape, Shape, ShapeFacts, ShapeGroup
from paipu.rules.tiles import DRAGONS, N_CODES, N_KINDS, TERMINALS_AND_HONORS, Tile
from paipu.selfplay.bots.core import (
    CENTRAL,
    COPIES,
    GAP_VALUE,
    HONOR_FIRST,
    HONOR_SUIT,
    NEAR_VALUE,
    PAIR_VALUE,
    SAFE_ENOUGH,
    SUIT_SIZE,
    SUITS,
    THREAT_FLOOR,
    VALUE_HONOR,
    BotCore,
    StyleParams,
    Threat,
    call_meld,
    call_used,
    least_useful,
    suit_of,
)
from paipu.selfplay.loop import SeatView, TurnMoves

if TYPE_CHECKING:
    from paipu.rules.variants import Options, Variant

#: Tiles in a full concealed hand (13 and the one drawn), less 3 per meld.
FULL_HAND = 14
#: Ranks around a freshly drawn tile whose discard can reshape a ready hand.
RESHAPE_REACH = 3


STYLE_PARAMS: dict[Style, StyleParams] = {
    Style.AGGRESSIVE: StyleParams(0.95, 3, 2.0, 0, 0.0),
    Style.BALANCED: StyleParams(0.5, 2, 2.0, 1, 1.5),
    Style.DEFENSIVE: StyleParams(0.4, 1, 0.65, 2, 4.0),
}

PLAN_TILE = 1.0  # a tile the plan wants

#: Weight of a wait that only a self-draw makes legal, against a discard-legal one.
SELF_DRAW_ONLY = 0.33
#: The most a self-draw adds to a win's fan, concealed hand or not (unless it completes
#: a pung, which then stays concealed).
SELF_DRAW_CONCEALED = 2
SELF_DRAW_OPEN = 1


# ---------------------------------------------------------------------- fan plans


class PlanKind(StrEnum):
    """A way for the hand to reach the minimum fan (MCR: 8)."""

    NONE = "none"  # no plan: whatever the shape gives
    HALF_FLUSH = "half_flush"  # 混一色 6
    FULL_FLUSH = "full_flush"  # 清一色 24
    ALL_PUNGS = "all_pungs"  # 碰碰和 6
    SEVEN_PAIRS = "seven_pairs"  # 七对 24
    PURE_STRAIGHT = "pure_straight"  # 清龙 16
    MIXED_STRAIGHT = "mixed_straight"  # 花龙 8
    MIXED_TRIPLE_CHOW = "mixed_triple_chow"  # 三色三同顺 8
    KNITTED = "knitted"  # 全不靠 / 组合龙 12
    THIRTEEN_ORPHANS = "thirteen_orphans"  # 十三幺 88


class Family(StrEnum):
    """How a plan's distance is measured."""

    NONE = "none"  # shanten alone
    FLUSH = "flush"  # tiles outside the suit (and honours)
    PUNGS = "pungs"  # pungs and pairs
    PAIRS = "pairs"  # pairs
    PATTERN = "pattern"  # the nine tiles of three fixed runs
    SHAPE = "shape"  # a special shape: its own shanten


@dataclass(frozen=True, slots=True)
class Plan:
    """A fan plan: its kind, its fan, and the suit, runs and tiles it uses."""

    kind: PlanKind
    family: Family
    fan: int
    suit: int = -1  # flushes
    runs: tuple[Tile, ...] = ()  # first tiles of the three runs of a pattern plan
    parts: tuple[tuple[int, int], ...] = ()  # each run as (suit, rank of its first tile)
    run_set: frozenset[Tile] = field(default_factory=frozenset)
    tiles: frozenset[int] = field(default_factory=frozenset)  # pattern tiles; flush suits
    shapes: tuple[Shape, ...] = ()  # a shape plan's shapes; () = the variant's
    #: Whether the plan wants each tile code (:meth:`Planner.keeps`), built once.
    keep: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.family is Family.FLUSH:
            keep = tuple(suit_of(t) in self.tiles for t in range(N_CODES))
        else:
            keep = tuple(t in self.tiles for t in range(N_CODES))
        object.__setattr__(self, "keep", keep)

    @property
    def needs_extra(self) -> bool:
        """Whether the plan alone is short of 8 fan."""
        return self.fan < MCR_MINIMUM


MCR_MINIMUM = 8


def _pattern(kind: PlanKind, fan: int, runs: tuple[Tile, ...]) -> Plan:
    parts = tuple((suit_of(r), r % SUIT_SIZE) for r in runs)
    tiles = frozenset(t for r in runs for t in (r, r + 1, r + 2))
    return Plan(
        kind, Family.PATTERN, fan, runs=runs, parts=parts, run_set=frozenset(runs), tiles=tiles
    )


def _pattern_plans() -> tuple[Plan, ...]:
    plans = [_pattern(PlanKind.PURE_STRAIGHT, 16, (9 * s, 9 * s + 3, 9 * s + 6)) for s in range(3)]
    for a in range(SUITS):
        for b in range(SUITS):
            c = SUITS - a - b
            if len({a, b, c}) == SUITS and 0 <= c < SUITS:
                plans.append(_pattern(PlanKind.MIXED_STRAIGHT, 8, (9 * a, 9 * b + 3, 9 * c + 6)))
    for rank in range(SUIT_SIZE - 2):
        plans.append(_pattern(PlanKind.MIXED_TRIPLE_CHOW, 8, (rank, 9 + rank, 18 + rank)))
    return tuple(plans)


NO_PLAN = Plan(PlanKind.NONE, Family.NONE, 0)
FLUSH_PLANS = tuple(
    Plan(kind, Family.FLUSH, fan, suit=suit, tiles=frozenset(suits))
    for suit in range(SUITS)
    for kind, fan, suits in (
        (PlanKind.HALF_FLUSH, 6, (suit, HONOR_SUIT)),
        (PlanKind.FULL_FLUSH, 24, (suit,)),
    )
)
#: Each suit with its half flush and its full flush plan (in ``FLUSH_PLANS`` order), each
#: with whether it is short of 8 fan.
FLUSH_SUITS = tuple(
    (
        suit,
        FLUSH_PLANS[2 * suit],
        FLUSH_PLANS[2 * suit].needs_extra,
        FLUSH_PLANS[2 * suit + 1],
        FLUSH_PLANS[2 * suit + 1].needs_extra,
    )
    for suit in range(SUITS)
)
ALL_PUNGS_PLAN = Plan(PlanKind.ALL_PUNGS, Family.PUNGS, 6)
#: The standard shape alone: what the bots measure a hand by outside the shape plans.
STANDARD_ONLY = frozenset({Shape.STANDARD})
SEVEN_PAIRS_PLAN = Plan(PlanKind.SEVEN_PAIRS, Family.PAIRS, 24, shapes=(Shape.SEVEN_PAIRS,))
PATTERN_PLANS = _pattern_plans()


def _pattern_row(plan: Plan) -> tuple[Plan, int, int, int, int, int, int]:
    """The plan with its runs as (suit, rank, suit, rank, suit, rank)."""
    (s0, r0), (s1, r1), (s2, r2) = plan.parts
    return (plan, s0, r0, s1, r1, s2, r2)


def _pattern_runs(plan: Plan) -> tuple[Plan, Tile, int, int, Tile, int, int, Tile, int, int]:
    """The plan with each run as (first tile, suit, rank of the first tile)."""
    (s0, r0), (s1, r1), (s2, r2) = plan.parts
    run0, run1, run2 = plan.runs
    return (plan, run0, s0, r0, run1, s1, r1, run2, s2, r2)


#: Each pattern plan with its runs as (suit, rank, suit, rank, suit, rank).
PATTERN_DATA = tuple(_pattern_row(plan) for plan in PATTERN_PLANS)
#: The pure straights (listed first) with their suit, and the other pattern plans.
PURE_DATA = tuple(
    (plan, plan.parts[0][0]) for plan in PATTERN_PLANS if plan.kind is PlanKind.PURE_STRAIGHT
)
MIXED_DATA = tuple(d for d in PATTERN_DATA if d[0].kind is not PlanKind.PURE_STRAIGHT)
#: Each pattern plan with each of its runs as (first tile, suit, rank of the first tile).
PATTERN_RUNS = tuple(_pattern_runs(plan) for plan in PATTERN_PLANS)
#: For each run (by its first tile), the indexes of the pattern plans that have it.
RUN_PLANS = {
    run: tuple(i for i, plan in enumerate(PATTERN_PLANS) if run in plan.run_set)
    for run in range(HONOR_FIRST)
}
KNITTED_PLAN = Plan(
    PlanKind.KNITTED,
    Family.SHAPE,
    12,
    shapes=(Shape.HONORS_AND_KNITTED, Shape.KNITTED_STRAIGHT),
)
ORPHANS = frozenset(TERMINALS_AND_HONORS)
ORPHANS_PLAN = Plan(
    PlanKind.THIRTEEN_ORPHANS, Family.SHAPE, 88, tiles=ORPHANS, shapes=(Shape.THIRTEEN_ORPHANS,)
)

#: Distance added to a plan short of 8 fan without a visible extra, and to no plan.
SHORT_PLAN_PENALTY = 1
NO_PLAN_PENALTY = 2
NO_PLAN_OPEN_PENALTY = 3
#: Distance added to no plan where a win needs one of the planner's plans (上海 清混碰).
NO_FAN_PENALTY = 3
#: Plans farther than this are not considered.
PLAN_HORIZON = 6
PATTERN_HORIZON = 4
#: Orphan kinds held before thirteen orphans is considered, and the standard shanten
#: from which the knitted shapes are.
ORPHAN_START = 10
KNITTED_START = 3
#: For each mask of the ranks a suit holds, how many tiles of the run starting at each
#: rank (1 … 7) it holds.
RUN_HELD = tuple(
    tuple(((mask >> rank) & 7).bit_count() for rank in range(SUIT_SIZE - 2))
    for mask in range(1 << SUIT_SIZE)
)


#: For each mask, the tiles of the pure straight (123, 456, 789) it holds.
PURE_HELD = tuple(held[0] + held[3] + held[6] for held in RUN_HELD)
#: The held counts of the other pattern plans (``MIXED_DATA``), plan k in the ``RUN_BITS``
#: bits from ``k * RUN_BITS``: for each suit and mask, that suit's share, so that the three
#: suits' shares add up to every plan's count at once (a count is at most 9: no carry).
RUN_BITS = 5
RUN_FIELD = (1 << RUN_BITS) - 1
RUN_OVER = 1 << (RUN_BITS - 1)  # a field at least this high after ``RUN_LIFT`` is enough
PATTERN_SHARE = tuple(
    tuple(
        sum(
            RUN_HELD[mask][rank] << (RUN_BITS * k)
            for k, (_, *parts) in enumerate(MIXED_DATA)
            for part_suit, rank in zip(parts[0::2], parts[1::2], strict=True)
            if part_suit == suit
        )
        for mask in range(1 << SUIT_SIZE)
    )
    for suit in range(SUITS)
)
#: Added to the shares, by tiles a plan must hold (0 … 9), to lift each field that holds
#: enough to ``RUN_OVER`` or more; ``RUN_TOPS`` picks those bits.
RUN_LIFT = tuple(
    sum((RUN_OVER - need) << (RUN_BITS * k) for k in range(len(MIXED_DATA))) for need in range(10)
)
RUN_TOPS = sum(RUN_OVER << (RUN_BITS * k) for k in range(len(MIXED_DATA)))


class Fit(NamedTuple):
    """How far a hand is from a plan after its best discard: ``distance``; ``own`` is the
    plan's own measure before the discard (tiles off the flush, pattern tiles missing).
    A named tuple: a dozen are made per decision."""

    plan: Plan
    distance: int
    penalty: int
    own: int = 0

    @property
    def effective(self) -> int:
        return self.distance + self.penalty


@dataclass(frozen=True, slots=True)
class GroupFacts:
    """What plans and discards need from one suit's (or the honours') counts."""

    kinds: tuple[Tile, ...]  # the tiles held
    uses: tuple[float, ...]  # each held tile's use in the hand, as :func:`keep_value`
    mask: int  # ranks held, as bits
    total: int
    pairs: int  # kinds held twice
    triples: int  # kinds held three or four times
    units: int  # pairs counting four of a kind as two (seven pairs)
    singles: int  # kinds held once or four times (a discard that breaks no pair)
    quads: int
    orphans: int  # terminals and honours held (kinds)
    #: The seven counts above from ``total`` on, packed in ``FIELD_BITS`` each, so that
    #: a hand's totals are the sum of its four groups' packed counts.
    packed: int = 0
    #: Honours: the uses once the seat's value honours are counted, by those honours.
    valued: dict[frozenset[Tile], tuple[float, ...]] = field(default_factory=dict)


#: Bits per count in :attr:`GroupFacts.packed` (a hand holds at most 14 tiles).
FIELD_BITS = 5
FIELD_MASK = (1 << FIELD_BITS) - 1


def _pack(*counts: int) -> int:
    return sum(c << (FIELD_BITS * i) for i, c in enumerate(counts))


def _group_facts(group: ShapeGroup) -> GroupFacts:
    """The bots' facts of one group of a :class:`HandShape`, built on first sight and kept
    on the shape's group (its ``annex``), so that a hand finds them without a look-up."""
    facts = group.annex
    if facts is not None:
        return cast(GroupFacts, facts)
    key, base = group.key, group.base
    suited = base < HONOR_FIRST
    kinds: list[Tile] = []
    uses: list[float] = []
    mask = total = pairs = triples = units = singles = quads = orphans = 0
    last = len(key) - 1
    for rank, count in enumerate(key):
        if not count:
            continue
        tile = base + rank
        kinds.append(tile)
        # :func:`keep_value` without value honours, read from the group's own counts.
        use = PAIR_VALUE * (count - 1)
        if suited:
            use += CENTRAL[rank]
            if rank > 0 and key[rank - 1]:
                use += NEAR_VALUE
            if rank < last and key[rank + 1]:
                use += NEAR_VALUE
            if rank > 1 and key[rank - 2]:
                use += GAP_VALUE
            if rank < last - 1 and key[rank + 2]:
                use += GAP_VALUE
            mask |= 1 << rank
        uses.append(use)
        total += count
        pairs += count == 2
        triples += count >= 3
        units += count >> 1
        singles += count in (1, 4)
        quads += count == 4
        orphans += tile in ORPHANS
    facts = group.annex = GroupFacts(
        kinds=tuple(kinds),
        uses=tuple(uses),
        mask=mask,
        total=total,
        pairs=pairs,
        triples=triples,
        units=units,
        singles=singles,
        quads=quads,
        orphans=orphans,
        packed=_pack(total, pairs, triples, units, singles, quads, orphans),
    )
    return facts


class Hand:
    """A seat's tiles while it decides, with the counts plans need (cached per suit).

    ``shape`` answers the shanten questions: the four groups are looked up once, and the
    hand less a tile costs one more look-up.
    """

    __slots__ = (
        "chi_runs",
        "counts",
        "kinds",
        "masks",
        "meld_suits",
        "melds",
        "open",
        "orphans",
        "pair_units",
        "pairs",
        "pungs",
        "quads",
        "shape",
        "shapes",
        "singles",
        "size",
        "sums",
        "triples",
        "uses",
        "value_honors",
    )

    def __init__(
        self,
        counts: list[int],
        melds: Sequence[Meld],
        shapes: Collection[Shape],
        value_honors: frozenset[Tile],
        shape: HandShape | None = None,
    ) -> None:
        if shape is None:
            shape = HandShape(counts, len(melds))
        self.shape = shape
        self.counts = counts
        self.melds = melds
        self.shapes = shapes
        self.value_honors = value_honors
        groups = shape.facts
        m, p, s, z = (
            _group_facts(groups[0]),
            _group_facts(groups[1]),
            _group_facts(groups[2]),
            _group_facts(groups[3]),
        )
        self.kinds = [*m.kinds, *p.kinds, *s.kinds, *z.kinds]
        if z.kinds:
            honor_uses = z.valued.get(value_honors)
            if honor_uses is None:
                honor_uses = z.valued[value_honors] = tuple(
                    use + (VALUE_HONOR * min(counts[t], 2) if t in value_honors else 0.0)
                    for t, use in zip(z.kinds, z.uses, strict=True)
                )
            self.uses = [*m.uses, *p.uses, *s.uses, *honor_uses]
        else:
            self.uses = [*m.uses, *p.uses, *s.uses]
        self.masks = (m.mask, p.mask, s.mask)
        self.sums = (m.total, p.total, s.total, z.total)
        packed = m.packed + p.packed + s.packed + z.packed
        self.size = packed & FIELD_MASK
        self.pairs = (packed >> FIELD_BITS) & FIELD_MASK
        self.triples = triples = (packed >> 2 * FIELD_BITS) & FIELD_MASK
        self.pair_units = (packed >> 3 * FIELD_BITS) & FIELD_MASK
        self.singles = (packed >> 4 * FIELD_BITS) & FIELD_MASK
        self.quads = (packed >> 5 * FIELD_BITS) & FIELD_MASK
        self.orphans = packed >> 6 * FIELD_BITS
        if melds:
            self.chi_runs = [m.base for m in melds if m.kind is MeldKind.CHI]
            self.pungs = triples + len(melds) - len(self.chi_runs)
            self.meld_suits = {suit_of(m.base) for m in melds}
            self.open = any(not m.concealed for m in melds)
        else:
            self.chi_runs = []
            self.pungs = triples
            self.meld_suits = set()
            self.open = False

    @property
    def full(self) -> bool:
        """Whether the hand holds 14 tiles less 3 per meld (it must discard)."""
        return self.size == FULL_HAND - 3 * len(self.melds)

    def shanten(self, shapes: Collection[Shape] = ()) -> int:
        """Shanten by the given shapes, by default the standard shape alone (the shape plans
        measure seven pairs, orphans and the knitted shapes themselves)."""
        return self.shape.shanten(shapes or None)

    def shanten_without(self, tile: Tile, shapes: Collection[Shape] = ()) -> int:
        return self.shape.shanten_without(tile, shapes or None)


def _pung_distance(pungs: int, pairs: int) -> int:
    pungs = min(pungs, 4)
    return 8 - 2 * pungs - min(pairs, 5 - pungs)


#: A :class:`Fit`'s fields before it is made one: plan, distance, penalty, own.
_Option: TypeAlias = tuple[Plan, int, int, int]
#: No limit on the effective distance of the fits listed.
NO_LIMIT = 99


class Planner:
    """Chooses the MCR fan plan a hand follows and measures distances under it.

    ``enough``: the plans a variant whose win needs one fan of a short list chases instead
    (上海 清混碰: a flush or all pungs), each enough alone (no 8-fan sum, no patterns or
    special shapes); None: MCR's plans."""

    def __init__(self, enough: frozenset[PlanKind] | None = None) -> None:
        self.enough = enough
        #: Distance added to a plan short of the minimum without a visible extra.
        self.short_penalty = SHORT_PLAN_PENALTY if enough is None else 0
        self.flushes = enough is None or bool(enough & {PlanKind.HALF_FLUSH, PlanKind.FULL_FLUSH})
        self.pungs = enough is None or PlanKind.ALL_PUNGS in enough
        self.patterns = enough is None
        #: A hand with no plan cannot win at all where every win needs a plan's fan.
        self.none_penalties = (
            (NO_PLAN_PENALTY, NO_PLAN_OPEN_PENALTY)
            if enough is None
            else (NO_FAN_PENALTY, NO_FAN_PENALTY)
        )

    def fits(self, hand: Hand, standard: int) -> list[Fit]:
        """Every plan the hand can still follow, with its distance (after the best
        discard when the hand is full); ``standard`` is the hand's shanten."""
        return [Fit(*option) for option in self._options(hand, standard, prune=False)]

    def best(self, hand: Hand, standard: int, previous: Plan | None = None) -> Fit:
        """The plan with the lowest effective distance (more fan on ties); the previous
        plan is kept unless another is strictly better."""
        options = self._options(hand, standard, prune=True)
        best = options[0]
        best_key = best[1] + best[2]
        kept: _Option | None = None
        for option in options:
            key = option[1] + option[2]
            if key < best_key or (key == best_key and option[0].fan > best[0].fan):
                best, best_key = option, key
            if option[0] is previous:
                kept = option
        if kept is not None and kept[1] + kept[2] <= best_key:
            return Fit(*kept)
        return Fit(*best)

    def _options(self, hand: Hand, standard: int, prune: bool) -> list[_Option]:
        """:meth:`fits` as tuples, no plan first. With ``prune``, only the plans that can
        still be chosen: each family is measured against the lowest effective distance
        of the plans before it (:meth:`best` takes a plan only when its effective distance
        is at most that, and keeps the previous one on the same terms)."""
        base = max(standard, 0)
        closed_penalty, open_penalty = self.none_penalties
        none_penalty = open_penalty if hand.open else closed_penalty
        options: list[_Option] = [(NO_PLAN, base, none_penalty, 0)]
        limit = base + none_penalty if prune else NO_LIMIT
        extra = self._extra_fan(hand)
        low = limit
        if self.flushes:
            low = self._flush_fits(hand, base, extra, limit, options)
            if prune:
                limit = low
        if self.pungs:
            low = self._pung_fits(hand, base, extra, limit, options)
            if prune:
                limit = low
        if not self.patterns:
            return options
        low = self._pattern_fits(hand, base, limit, options)
        if not hand.melds:
            self._special_fits(hand, standard, low if prune else limit, options)
        return options

    def _extra_fan(self, hand: Hand) -> bool:
        """Whether the hand shows 2 fan beside a 6-fan plan: a pair or pung of dragons or
        value winds."""
        counts = hand.counts
        value_honors = hand.value_honors
        for tile in value_honors:
            if counts[tile] >= 2:
                return True
        for meld in hand.melds:
            if meld.kind is not MeldKind.CHI and meld.base in value_honors:
                return True
        return False

    def _flush_fits(
        self, hand: Hand, base: int, extra: bool, limit: int, out: list[_Option]
    ) -> int:
        """Appends the flush fits within ``limit``; returns the lowest effective distance
        appended (``limit`` if none)."""
        full = hand.full
        size, sums, meld_suits = hand.size, hand.sums, hand.meld_suits
        honors = sums[HONOR_SUIT]
        short = 0 if extra else self.short_penalty
        low = limit
        for suit, half_plan, half_short, full_plan, full_short in FLUSH_SUITS:
            off = size - sums[suit] - honors
            distance = off - 1 if full and off else off
            if distance > PLAN_HORIZON or (meld_suits and not meld_suits <= half_plan.tiles):
                continue  # and the full flush is as far, and as far from the melds
            distance = base if base >= distance else distance
            penalty = short if half_short else 0
            key = distance + penalty
            if key <= limit:
                out.append((half_plan, distance, penalty, off))
                low = min(low, key)
            if meld_suits and not meld_suits <= full_plan.tiles:
                continue
            off += honors
            distance = off - 1 if full and off else off
            if distance > PLAN_HORIZON:
                continue
            distance = base if base >= distance else distance
            penalty = short if full_short else 0
            key = distance + penalty
            if key <= limit:
                out.append((full_plan, distance, penalty, off))
                low = min(low, key)
        return low

    def _pung_fits(self, hand: Hand, base: int, extra: bool, limit: int, out: list[_Option]) -> int:
        """Appends the all-pungs fit within ``limit``; returns the lowest effective
        distance appended (``limit`` if none)."""
        if hand.chi_runs:
            return limit
        pungs, pairs = hand.pungs, hand.pairs
        distance = _pung_distance(pungs, pairs)
        if hand.full and not hand.singles:
            options = []
            if pairs:
                options.append(_pung_distance(pungs, pairs - 1))
            if hand.triples:
                options.append(_pung_distance(pungs - 1, pairs + 1))
            distance = min(options) if options else distance
        if distance > PLAN_HORIZON:
            return limit
        extra = extra or hand.triples >= 2
        penalty = 0 if extra else self.short_penalty
        distance = max(base, distance)
        if distance + penalty <= limit:
            out.append((ALL_PUNGS_PLAN, distance, penalty, 0))
            return distance + penalty
        return limit

    def _pattern_fits(self, hand: Hand, base: int, limit: int, out: list[_Option]) -> int:
        """Appends the pattern fits within ``limit``; returns the lowest effective
        distance appended (``limit`` if none)."""
        masks = hand.masks
        melds = len(hand.melds)
        reach = min(PATTERN_HORIZON, limit)  # the most tiles a useful pattern may miss
        low = limit
        chi_runs = hand.chi_runs
        if melds - len(chi_runs) > 1:
            return low  # two melds that are not runs: no pattern has room for them
        if not chi_runs:
            # No meld, or one pung or kong beside the pattern: each plan needs its 9 tiles.
            for plan, suit in PURE_DATA:
                missing = 9 - PURE_HELD[masks[suit]]
                if missing <= reach:
                    key = base if base >= missing else missing
                    out.append((plan, key, 0, missing))
                    low = min(low, key)
            if reach < 0:
                return low
            shares = (
                PATTERN_SHARE[0][masks[0]] + PATTERN_SHARE[1][masks[1]] + PATTERN_SHARE[2][masks[2]]
            )
            near = (shares + RUN_LIFT[9 - reach]) & RUN_TOPS  # the plans missing <= reach
            while near:
                bit = near & -near
                near ^= bit
                k = (bit.bit_length() - 1) // RUN_BITS
                missing = 9 - ((shares >> (RUN_BITS * k)) & RUN_FIELD)
                key = base if base >= missing else missing
                out.append((MIXED_DATA[k][0], key, 0, missing))
                low = min(low, key)
            return low
        held = (RUN_HELD[masks[0]], RUN_HELD[masks[1]], RUN_HELD[masks[2]])
        chi = frozenset(chi_runs)
        if melds == 1:
            plans = PATTERN_RUNS
        else:  # a plan with room for the melds holds one of the runs at least
            plans = tuple(PATTERN_RUNS[i] for i in sorted({i for r in chi for i in RUN_PLANS[r]}))
        for plan, run0, s0, r0, run1, s1, r1, run2, s2, r2 in plans:
            # Runs already declared need nothing more; the others their missing tiles.
            matched = missing = 0
            if run0 in chi:
                matched += 1
            else:
                missing += 3 - held[s0][r0]
            if run1 in chi:
                matched += 1
            else:
                missing += 3 - held[s1][r1]
            if run2 in chi:
                matched += 1
            else:
                missing += 3 - held[s2][r2]
            if melds - matched > 1:
                continue  # more than one meld outside the pattern: impossible
            if missing <= reach:
                key = base if base >= missing else missing
                out.append((plan, key, 0, missing))
                low = min(low, key)
        return low

    def _special_fits(self, hand: Hand, standard: int, limit: int, out: list[_Option]) -> None:
        # A full hand keeps its pairs by discarding an odd tile, else it breaks one.
        breaks = hand.full and hand.singles == 0 and hand.triples == 0
        distance = 6 - hand.pair_units + (1 if breaks else 0)
        if distance <= PATTERN_HORIZON and distance <= limit:
            out.append((SEVEN_PAIRS_PLAN, max(distance, 0), 0, 0))
            limit = min(limit, max(distance, 0)) if limit < NO_LIMIT else limit
        if hand.orphans >= ORPHAN_START:
            distance = max(hand.shanten(ORPHANS_PLAN.shapes), 0)
            if distance <= limit:
                out.append((ORPHANS_PLAN, distance, 0, 0))
                limit = min(limit, distance) if limit < NO_LIMIT else limit
        if standard >= KNITTED_START and Shape.KNITTED_STRAIGHT in hand.shapes:
            # Measured only up to the limit: past it the plan could not be chosen.
            distance = max(hand.shape.shanten_below(KNITTED_PLAN.shapes, limit + 1), 0)
            if distance <= limit:
                out.append((KNITTED_PLAN, distance, 0, 0))

    def after(self, hand: Hand, fit: Fit, tile: Tile) -> int:
        """The plan's own distance once ``tile`` is discarded from a full hand."""
        plan = fit.plan
        family = plan.family
        if family is Family.FLUSH:
            return fit.own - (0 if suit_of(tile) in plan.tiles else 1)
        if family is Family.PATTERN:
            return fit.own + (1 if hand.counts[tile] == 1 and tile in plan.tiles else 0)
        if family is Family.PUNGS:
            c = hand.counts[tile]
            if c == 2:
                return _pung_distance(hand.pungs, hand.pairs - 1)
            if c == 3:
                return _pung_distance(hand.pungs - 1, hand.pairs + 1)
            return _pung_distance(hand.pungs, hand.pairs)
        if family is Family.PAIRS:
            return 6 - hand.pair_units + (1 if hand.counts[tile] % 2 == 0 else 0)
        return 0

    def keeps(self, fit: Fit, tile: Tile) -> bool:
        """Whether the plan wants the tile: in the flush's suits, or one of its tiles."""
        return fit.plan.keep[tile]

    def bounds(self, hand: Hand, fit: Fit, floor: int) -> list[int]:
        """For each kind in hand, a lower bound of the distance once it is discarded
        (``max(floor, after(hand, fit, tile))``, from the few values ``after`` takes)."""
        plan = fit.plan
        family = plan.family
        kinds = hand.kinds
        if family is Family.FLUSH:
            keep, own = plan.keep, fit.own
            kept, dropped = max(floor, own), max(floor, own - 1)
            return [kept if keep[t] else dropped for t in kinds]
        counts = hand.counts
        if family is Family.PATTERN:
            keep, own = plan.keep, fit.own
            lost, same = max(floor, own + 1), max(floor, own)
            return [lost if counts[t] == 1 and keep[t] else same for t in kinds]
        if family is Family.PUNGS:
            pungs, pairs = hand.pungs, hand.pairs
            by_count = (
                max(floor, _pung_distance(pungs, pairs)),
                max(floor, _pung_distance(pungs, pairs)),
                max(floor, _pung_distance(pungs, pairs - 1)),
                max(floor, _pung_distance(pungs - 1, pairs + 1)),
                max(floor, _pung_distance(pungs, pairs)),
            )
            return [by_count[counts[t]] for t in kinds]
        if family is Family.PAIRS:
            odd = max(floor, 6 - hand.pair_units)
            even = max(floor, 6 - hand.pair_units + 1)
            return [even if counts[t] % 2 == 0 else odd for t in kinds]
        return [floor] * len(kinds)

    def meld_fits(self, fit: Fit, meld: Meld) -> bool:
        """Whether a new meld keeps the plan possible."""
        plan = fit.plan
        family = plan.family
        if family is Family.FLUSH:
            return suit_of(meld.base) in plan.tiles
        if family is Family.PUNGS:
            return meld.kind is not MeldKind.CHI
        if family is Family.PATTERN:
            return meld.kind is not MeldKind.CHI or meld.base in plan.runs
        return family is Family.NONE


class Bot(BotCore):
    """One seat's player; see the module docstring for how it decides."""

    def __init__(self, style: Style, planner: Planner | None) -> None:
        super().__init__(style, STYLE_PARAMS[style])
        self.planner = planner or Planner()
        self.plans = planner is not None
        self.fit: Fit | None = None
        self.distance: int | None = None  # effective distance after its last discard
        self.shanten_after: int | None = None  # shanten after its last discard, if known
        self.legal: dict[tuple[tuple[int, ...], int, Tile], tuple[bool, bool]] = {}
        self.value_honors: frozenset[Tile] | None = None
        #: The counts, melds and shape facts of the hand after the bot's last discard.
        self.kept: tuple[list[int], int, ShapeFacts] | None = None
        self.shapes: Collection[Shape] = ()  # the variant's, read on first need
        #: The hand a call is weighed on, and its melds (:meth:`call_start`).
        self.call_shape: HandShape | None = None
        self.call_melds: Sequence[Meld] = ()

    # -- what the seat sees

    def _hand(
        self, view: SeatView, shape: HandShape | None = None, melds: Sequence[Meld] | None = None
    ) -> Hand:
        """The seat's hand (or ``shape``'s counts with ``melds``, a hand after a call)."""
        if self.value_honors is None:
            self.value_honors = frozenset((*DRAGONS, view.seat_wind, view.round_wind))
        if not self.shapes:
            self.shapes = view.shapes()
        return Hand(
            shape.counts if shape else view.hand(),
            view.melds() if melds is None else melds,
            self.shapes,
            self.value_honors,
            shape,
        )

    def turn(self, view: SeatView, moves: TurnMoves) -> Move:
        win = moves.self_drawn_win()
        if win is not None:
            return win
        drawn = view.drawn
        melds = view.melds()
        shape = self._turn_shape(view.hand(), len(melds), drawn)
        kongs: list[Move] = []
        if drawn is not None and _holds_kong(shape.counts, melds):
            kongs = moves.kongs()  # the listed ones (a kong needs a tile to replace it …)
        action = self._turn(view, drawn, melds, shape, kongs)
        if action >= 0:
            move = moves.discard(action)
            if move is None:  # the rules keep that tile: the least useful one they allow
                move = least_useful(moves.discards(), shape.counts, self._value_honors(view))
            tile = move.tiles[0]
            counts = shape.counts.copy()
            counts[tile] -= 1
            self.kept = (counts, len(melds), shape.facts_without(tile))
            return move
        self.kept = None
        return kongs[-1 - action]

    def _value_honors(self, view: SeatView) -> frozenset[Tile]:
        """The dragons and the seat's value winds (a pung of one is worth fan)."""
        if self.value_honors is None:
            self.value_honors = frozenset((*DRAGONS, view.seat_wind, view.round_wind))
        return self.value_honors

    def _turn_shape(self, counts: list[int], melds: int, drawn: Tile | None) -> HandShape:
        """The shape of the hand to play: when it is the hand kept after the last discard
        and the tile just drawn, its group facts follow from the kept ones."""
        kept = self.kept
        if kept is not None and drawn is not None and drawn < N_KINDS:
            kept_counts, kept_melds, kept_facts = kept
            if kept_melds == melds:
                kept_counts[drawn] += 1
                same = kept_counts == counts
                kept_counts[drawn] -= 1
                if same:
                    return HandShape(counts, melds, HandShape.facts_with(kept_facts, drawn))
        return HandShape(counts, melds)

    def _turn(
        self,
        view: SeatView,
        drawn: Tile | None,
        melds: list[Meld],
        shape: HandShape,
        kongs: list[Move],
    ) -> int:
        """The turn's action, once a self-drawn win is ruled out: the tile to discard, or
        ``-1 - i`` for the ``i``-th of the listed ``kongs``."""
        standard = shape.shanten()
        threats = self.threats(view)
        level = self.threat_level
        if drawn is not None and self._passes_on(
            view, shape.counts, melds, standard, drawn, threats, level
        ):
            return drawn
        hand = self._hand(view, shape, melds)
        if self._still_folding(standard, level):
            return self._safest(view, hand, threats)
        fit = self._fit(hand, standard)
        if drawn is not None and kongs:
            kong = self._kong(hand, standard, fit, kongs)
            if kong >= 0:
                return -1 - kong
        return self._discard(view, hand, standard, fit, threats, level)

    def _passes_on(
        self,
        view: SeatView,
        counts: list[int],
        melds: Sequence[Meld],
        standard: int,
        drawn: Tile,
        threats: list[Threat],
        level: float,
    ) -> bool:
        """Whether to discard the tile just drawn without looking further: it does not
        lower the shanten (so the hand before the draw, chosen last turn, is still as
        good), the plan does not want it, it makes no pair or kong, no opponent makes the
        bot think of folding (``level`` is the highest threat), and the tile is not
        dangerous."""
        fit = self.fit
        if fit is None or self.shanten_after is None or standard < max(self.shanten_after, 1):
            return False
        if fit.plan.keep[drawn] or counts[drawn] > 1:
            return False
        if any(m.base == drawn and m.kind is MeldKind.PONG for m in melds):
            return False
        if level >= self.params.fold_threat:
            return False
        if level < THREAT_FLOOR or not self.params.safety:
            return True
        return self.danger(view, [drawn], threats)[0] < SAFE_ENOUGH

    def _still_folding(self, standard: int, level: float) -> bool:
        """Whether the bot folded last turn and nothing brought its hand closer."""
        if self.distance is not None or self.fit is None or standard <= 0:
            return False
        params = self.params
        return level >= params.fold_threat and max(standard, self.fit.distance) >= (
            params.fold_distance
        )

    def call_start(self, view: SeatView, tile: Tile) -> float | None:
        """The distance before a call: the hand's after its last discard."""
        melds = view.melds()
        counts = view.hand()
        if sum(counts) != FULL_HAND - 1 - 3 * len(melds):
            return None  # flowers still held from the deal: nothing before its first turn
        kept = self.kept
        if kept is not None and kept[1] == len(melds) and kept[0] == counts:
            shape = HandShape(counts, len(melds), kept[2])  # the hand after its last discard
        else:
            shape = HandShape(counts, len(melds))
        self.call_shape = shape
        self.call_melds = melds
        if self.distance is None:
            return self._distance_now(self._hand(view, shape, melds))
        return self.distance

    def call_gain(
        self, view: SeatView, option: Move, tile: Tile, from_seat: int, now: float
    ) -> float | None:
        shape = self.call_shape
        assert shape is not None
        gain = self._call_gain(view, shape, self.call_melds, option, tile, from_seat, int(now))
        return None if gain is None else gain

    def _fit(self, hand: Hand, standard: int) -> Fit:
        if not self.plans:
            self.fit = Fit(NO_PLAN, max(standard, 0), 0)
        else:
            previous = self.fit.plan if self.fit is not None else None
            self.fit = self.planner.best(hand, standard, previous)
        return self.fit

    def _distance_now(self, hand: Hand) -> int:
        if self.distance is None:
            self.distance = self._fit(hand, hand.shanten()).effective
        return self.distance

    # -- kongs

    def _kong(self, hand: Hand, standard: int, fit: Fit, kongs: list[Move]) -> int:
        """The index of a listed concealed or added kong that does not slow the hand, or
        -1 (the concealed ones, in tile order, are weighed first)."""
        if fit.plan.family in (Family.PAIRS, Family.SHAPE):
            return -1
        counts = hand.counts
        target = max(standard, 0)
        for i, move in enumerate(kongs):
            tile = move.tiles[0]
            if move.kind is MoveKind.CONCEALED_KONG and tile not in fit.plan.tiles:
                counts[tile] = 0
                try:
                    after = HandShape(counts, len(hand.melds) + 1).shanten()
                finally:
                    counts[tile] = 4
                if after <= target:
                    return i
        for i, move in enumerate(kongs):
            if move.kind is MoveKind.ADDED_KONG and hand.shanten_without(move.tiles[0]) <= target:
                return i
        return -1

    # -- calls

    def _call_gain(
        self,
        view: SeatView,
        hand: HandShape,
        hand_melds: Sequence[Meld],
        option: Move,
        tile: Tile,
        from_seat: int,
        now: int,
    ) -> int | None:
        """How much calling ``tile`` shortens the hand's distance, when it is worth it."""
        used = call_used(option, tile)
        standard = hand.shanten_after_call(used)
        if option.kind is MoveKind.KONG:
            # A kong keeps the shape; take it when the hand is open already.
            meld = call_meld(option, tile, from_seat)
            keeps = self.fit is None or self.planner.meld_fits(self.fit, meld)
            is_open = any(not m.concealed for m in hand_melds)
            return 1 if is_open and keeps and standard <= max(now, 0) else None
        if standard >= now:
            return None
        if self.value_honors is None:
            self.value_honors = frozenset((*DRAGONS, view.seat_wind, view.round_wind))
        valuable = option.kind is MoveKind.PONG and tile in self.value_honors
        need = 1 if valuable else self.params.call_gain
        if now - standard < need:
            return None  # the distance after the call is at least its shanten
        meld = call_meld(option, tile, from_seat)
        counts = hand.counts.copy()
        for t in used:
            counts[t] -= 1
        melds = [*hand_melds, meld]
        after = self._hand(view, HandShape(counts, len(melds)), melds)
        fit = self.planner.best(after, standard) if self.plans else Fit(NO_PLAN, standard, 0)
        if not self.planner.meld_fits(fit, meld):
            return None
        gain = now - fit.effective
        return gain if gain >= need else None

    # -- discards

    def _discard(
        self,
        view: SeatView,
        hand: Hand,
        standard: int,
        fit: Fit,
        threats: list[Threat],
        threat: float,
    ) -> Tile:
        """The discard of a full hand; ``threat`` is the highest threat level."""
        params = self.params
        seen = None
        if standard <= 0:
            seen = view.seen()
            ready = self._ready_choice(view, hand, seen)
            if ready is not None:
                if threat >= params.fold_ready_threat:
                    return self._safest(view, hand, threats, seen)
                self.distance = self.shanten_after = 0
                return ready
        if max(standard, fit.distance) >= params.fold_distance and threat >= params.fold_threat:
            return self._safest(view, hand, threats, seen)
        guarded = threats if params.safety > 0 and threat >= THREAT_FLOOR else []
        tile, distance, after = self._plan_choice(view, hand, standard, fit, guarded, seen)
        self.distance = distance + fit.penalty
        self.shanten_after = after if not fit.plan.shapes else None
        return tile

    def _plan_choice(
        self,
        view: SeatView,
        hand: Hand,
        standard: int,
        fit: Fit,
        threats: list[Threat],
        seen: list[int] | None = None,
    ) -> tuple[Tile, int, int]:
        """The discard with the lowest ``max(shanten, plan distance)``, tried best bound
        first; among equal bounds the least useful tile goes first, or with ``threats``
        the one whose use and danger together weigh least. Returns the tile, its distance
        and the shanten it leaves."""
        shapes = fit.plan.shapes or None
        floor = max(standard if shapes is None else hand.shanten(shapes), 0)
        kinds = hand.kinds
        keep = fit.plan.keep
        uses = [
            use + PLAN_TILE if keep[tile] else use
            for use, tile in zip(hand.uses, kinds, strict=True)
        ]
        if threats:
            weight = self.params.safety
            danger = self.danger(view, kinds, threats, seen)
            uses = [use + weight * d for use, d in zip(uses, danger, strict=True)]
        candidates = list(zip(self.planner.bounds(hand, fit, floor), uses, kinds, strict=True))
        shape = hand.shape
        # The best bound first: most turns end with it, so sort only when they do not.
        bound, _, tile = first = min(candidates)
        after = shape.shanten_without(tile, shapes)
        if after <= bound:
            return tile, bound, after
        best = (max(after, bound), after, tile)
        candidates.remove(first)
        candidates.sort()
        for bound, _, tile in candidates:
            if bound >= best[0]:
                break
            after = shape.shanten_without(tile, shapes)
            distance = max(after, bound)
            if distance < best[0]:
                best = (distance, after, tile)
            if distance == bound:
                break
        return best[2], best[0], best[1]

    def _ready_choice(self, view: SeatView, hand: Hand, seen: list[int]) -> Tile | None:
        """The discard keeping the most live waits that are legal wins; None when no
        discard leaves a ready hand with a legal wait."""
        drawn = view.drawn
        before = view.waits()
        candidates = hand.kinds
        if drawn is not None and before:
            # Ready before the draw: only the drawn tile and its neighbours can reshape.
            candidates = [
                t
                for t in hand.kinds
                if t == drawn
                or (
                    t < HONOR_FIRST
                    and suit_of(t) == suit_of(drawn)
                    and abs(t - drawn) <= RESHAPE_REACH
                )
            ]
        shape, shapes = hand.shape, hand.shapes
        found: list[tuple[int, Tile, tuple[Tile, ...]]] = []
        for tile in candidates:
            tiles = before if tile == drawn and before else shape.waits_without(tile, shapes)
            if tiles:
                live = sum([COPIES - seen[w] for w in tiles if seen[w] < COPIES])
                found.append((-live, tile, tiles))
        found.sort()
        best: tuple[float, Tile] | None = None
        for i, (live, tile, tiles) in enumerate(found):
            if best is not None and -live <= best[0]:
                break  # the legal share cannot beat it: it is at most the live count
            beat = best[0] if best is not None else 0.0
            rival = -found[i + 1][0] if i + 1 < len(found) else 0
            worth = self._wait_value(view, hand, tile, tiles, seen, beat, rival)
            if worth > beat:
                best = (worth, tile)
        return best[1] if best is not None else None

    def _wait_value(
        self,
        view: SeatView,
        hand: Hand,
        discard: Tile,
        tiles: tuple[Tile, ...],
        seen: list[int],
        beat: float = 0.0,
        rival: float = math.inf,
    ) -> float:
        """Live copies of the waits that are legal wins (self-draw-only ones count less).

        Only as exact as the choice needs: the value so far is returned as soon as the
        waits left cannot lift it above ``beat`` (the best value of another discard), or
        once it is above ``beat`` and at least ``rival`` (the live count of the next
        discard to try, which then cannot beat it). A value only grows wait by wait, so
        the choice is the one the whole value would give."""
        counts = hand.counts
        counts[discard] -= 1
        key = tuple(counts)
        counts[discard] += 1
        melds = len(hand.melds)
        lives = [max(0, COPIES - seen[wait]) for wait in tiles]
        value = 0.0
        for i, wait in enumerate(tiles):
            live = lives[i]
            if not live:
                continue
            if value > beat and value >= rival:
                return value
            if beat > 0:
                bound = value
                for rest in lives[i:]:
                    bound += rest
                if bound <= beat:
                    return value  # cannot beat it: the rest add at most their live copies
            on_discard, on_draw = self._legal(view, key, melds, wait)
            if on_discard:
                value += live
            elif on_draw:
                value += SELF_DRAW_ONLY * live
        return value

    def _legal(
        self, view: SeatView, key: tuple[int, ...], melds: int, wait: Tile
    ) -> tuple[bool, bool]:
        """Whether winning on ``wait`` reaches the minimum: on a discard, on a draw."""
        known = self.legal.get((key, melds, wait))
        if known is not None:
            return known
        tiles = [t for t, count in enumerate(key) if count for _ in range(count)]
        answer = view.score_if(tiles, wait, self_drawn=False)
        on_discard = on_draw = answer.legal
        if not on_discard and answer.total is not None:
            # A self-draw adds 自摸 (1), or turns 门前清 (2) into 不求人 (4); only a pung
            # completed by the draw can add more (its pung stays concealed).
            concealed = not any(not m.concealed for m in view.melds())
            bonus = SELF_DRAW_CONCEALED if concealed else SELF_DRAW_OPEN
            without = answer.total - len(view.flowers(view.seat))
            if key[wait] >= 2 or without + bonus >= view.minimum():
                on_draw = view.score_if(tiles, wait, self_drawn=True).legal
        self.legal[key, melds, wait] = (on_discard, on_draw)
        return on_discard, on_draw

    def _safest(
        self, view: SeatView, hand: Hand, threats: list[Threat], seen: list[int] | None = None
    ) -> Tile:
        """Fold: the tile least likely to deal in, then the least useful."""
        self.distance = self.shanten_after = None
        return self.safest(view, hand.kinds, hand.uses, threats, seen)


def _holds_kong(counts: list[int], melds: Sequence[Meld]) -> bool:
    """Whether the hand holds a kong's tiles: four of a kind, or the fourth of a pong."""
    return COPIES in counts or any(m.kind is MeldKind.PONG and counts[m.base] for m in melds)


def make_bots(variant: Variant, options: Options, styles: Sequence[Style]) -> list[Bot]:
    """A bot per seat; fan plans only where the variant has a minimum to reach."""
    return [Bot(style, planner_for(variant, options)) for style in styles]


def planner_for(variant: Variant, options: Options) -> Planner | None:
    """The planner of a variant's bots: its TOML's ``[bot] plans`` (the plan kinds each
    enough to win), where the options match ``[bot] plans_if`` (e.g. ``{ ruleset =
    "qinghunpeng" }``), else none; without ``plans``, MCR's where the variant has a minimum."""
    bot = variant.spec.raw.get("bot", {})
    plans = bot.get("plans")
    if plans is None:
        return Planner() if variant.spec.min_fan > 0 else None
    condition = bot.get("plans_if", {})
    if any(options[name] != value for name, value in condition.items()):
        return None
    return Planner(frozenset(PlanKind(plan) for plan in plans))
