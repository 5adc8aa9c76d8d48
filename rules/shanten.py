"""Shanten (向听数), waits (听牌) and complete hands (和牌) for the MCR hand shapes.

A hand is the count vector of its concealed tiles (length :data:`~paipu.rules.tiles.N_KINDS`,
declared melds excluded) plus ``melds``, the number of declared melds including concealed
kongs (暗杠).  A waiting hand holds ``13 - 3 * melds`` tiles, a complete one ``14 - 3 * melds``.

Shanten follows the usual convention: ``-1`` complete (和牌), ``0`` ready (听牌),
``1`` one useful tile away (一向听), and so on.  For the standard shape it is
``8 - 2 * sets - partial_sets - pair`` maximised over all ways to split the hand, where declared
melds count as sets and partial sets (搭子) are capped at the sets still missing.  The special
shapes use the formulas of the MCR reference implementation (ChineseOfficialMahjongHelper,
packaged as ``pymahjonggb``), against which the tests compare.

Waits are by shape alone: a tile whose four copies are all in the hand still counts
(1111m234m456p789p waits on 1m and 4m).  Subtract visible tiles to count live ones.

Speed comes from per-group tables.  The nine counts of each suit and the seven honor counts
are dict keys; the first time a key is seen a small recursive search fills in its
:class:`_GroupFacts`, and every later call is four dict look-ups plus a little arithmetic:

* for the standard shanten, a *profile* per group: the most partial sets for every
  ``(pair, sets)`` choice.  Profiles are interned as small ints, and merging two profiles is
  itself a cached table, so combining the four groups is three more look-ups;
* for standard waits and completeness, whether the group splits into sets (and one pair) and
  which tiles would make it do so;
* for the special shapes, the group's pairs, terminals and honors, and knitted-row tiles.

>>> from paipu.rules.tiles import counts, parse_tiles
>>> hand = counts(parse_tiles("1112345678999m"))
>>> shanten(hand), waits(hand)
(0, (0, 1, 2, 3, 4, 5, 6, 7, 8))
>>> orphans = counts(parse_tiles("19m19p19s1234567z"))
>>> len(waits(orphans, shapes=ALL_SHAPES))
13
>>> is_complete(counts(parse_tiles("123m456p789s11122z")))
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import TypeAlias, TypeVar, cast

from paipu.rules.core import decompose as core_decompose
from paipu.rules.core.decompose import PLAIN_SET_SLOTS, plain_profile, plain_splits
from paipu.rules.core.shapes import (
    ALL_SHAPES,
    KNITTED_ROWS,
    KNITTED_STRAIGHTS,
    SETS_PER_HAND,
    SHAPE_MAX_MELDS,
    STANDARD_ONLY,
    STRAIGHT_ROWS,
    THIRTEEN_ORPHANS,
    Shape,
)
from paipu.rules.core.shapes import honors_and_knitted_shanten as _loose_shanten
from paipu.rules.core.shapes import seven_pairs_shanten as _pairs_shanten
from paipu.rules.core.shapes import thirteen_orphans_shanten as _orphans_shanten
from paipu.rules.tiles import EAST, HONORS, MAN, N_KINDS, PIN, SOU, Tile

Counts: TypeAlias = Sequence[int]

#: Copies of each tile in the wall.
MAX_COPIES = 4
#: Tiles in a waiting concealed hand without declared melds.
WAITING_HAND_SIZE = 13
#: Tiles one set takes.
SET_SIZE = 3

_SUIT_BASES = (MAN, PIN, SOU)
#: ``(start, stop)`` of the four tile groups in a count vector: characters, dots, bamboo, honors.
_GROUP_BOUNDS = ((MAN, PIN), (PIN, SOU), (SOU, EAST), (EAST, N_KINDS))
#: Tiles per suit: a tile's group is ``tile // _GROUP_SPAN`` (the honors are group 3).
_GROUP_SPAN = PIN - MAN
_KNITTED_ROWS = KNITTED_ROWS
#: For each knitted straight, in the same order, the row index each suit uses.
_STRAIGHT_ROWS = STRAIGHT_ROWS
_KNITTED_SIZE = len(KNITTED_STRAIGHTS[0])
_ROW_HELD = len(_KNITTED_ROWS[0]) + 1  # a suit holds 0..3 distinct tiles of a knitted row
_ROW_CODES = _ROW_HELD ** len(_KNITTED_ROWS)
#: Per knitted straight, the tiles of 全不靠: the straight plus the seven honors.
_LOOSE_TILES = tuple(straight + HONORS for straight in KNITTED_STRAIGHTS)
_NOT_ALLOWED = 99  # above any shanten: "no allowed shape applies"


_SHAPE_MAX_MELDS = SHAPE_MAX_MELDS
_STANDARD_ONLY = STANDARD_ONLY
# Module-level aliases: enum member look-ups cost ~70 ns each on the hot paths.
_STANDARD = Shape.STANDARD
_SEVEN_PAIRS = Shape.SEVEN_PAIRS
_THIRTEEN_ORPHANS = Shape.THIRTEEN_ORPHANS
_HONORS_AND_KNITTED = Shape.HONORS_AND_KNITTED
_KNITTED_STRAIGHT = Shape.KNITTED_STRAIGHT
_KNITTED_MAX_MELDS = _SHAPE_MAX_MELDS[Shape.KNITTED_STRAIGHT]


# --------------------------------------------------------------------------- lazy tables

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
_T = TypeVar("_T", bound=tuple[object, ...])


class _LazyTable(dict[_K, _V]):
    """A dict that builds a missing entry with ``build(key)`` on first look-up.

    Hits are a plain C dict look-up, which is why the hot paths index these tables
    instead of calling cached functions.

    >>> squares = _LazyTable(lambda n: n * n)
    >>> squares[7], len(squares)
    (49, 1)
    """

    __slots__ = ("_build",)

    def __init__(self, build: Callable[[_K], _V]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: _K) -> _V:
        value = self._build(key)
        self[key] = value
        return value


# --------------------------------------------------------------------------- shanten profiles

Profile: TypeAlias = tuple[int, ...]
"""Most partial sets for each ``(pair, sets)``, at slot ``pair * _SET_SLOTS + sets``; -1 if none.

Partial sets are capped at ``SETS_PER_HAND - sets`` since more never lower shanten."""

_SET_SLOTS = PLAIN_SET_SLOTS  # the one model's no-wild profile layout
_NONE = -1
_EMPTY_PROFILE: Profile = (0,) + (_NONE,) * (2 * _SET_SLOTS - 1)


def _slots(profile: Profile) -> Iterable[tuple[int, int, int]]:
    """The ``(pairs, sets, partials)`` a profile reaches."""
    for slot, partials in enumerate(profile):
        if partials != _NONE:
            yield slot // _SET_SLOTS, slot % _SET_SLOTS, partials


def _combine(left: Profile, right: Profile) -> Profile:
    """The profile of two disjoint tile groups taken together (at most one pair, four sets).

    >>> pair_only = (0, _NONE, _NONE, _NONE, _NONE, 0, _NONE, _NONE, _NONE, _NONE)
    >>> _combine(pair_only, pair_only)[:_SET_SLOTS]
    (0, -1, -1, -1, -1)
    """
    best = [_NONE] * len(_EMPTY_PROFILE)
    for left_pairs, left_sets, left_partials in _slots(left):
        for right_pairs, right_sets, right_partials in _slots(right):
            pairs, sets = left_pairs + right_pairs, left_sets + right_sets
            if pairs > 1 or sets > SETS_PER_HAND:
                continue
            slot = pairs * _SET_SLOTS + sets
            partials = min(left_partials + right_partials, SETS_PER_HAND - sets)
            best[slot] = max(best[slot], partials)
    return tuple(best)


def _group_profile(key: tuple[int, ...], runs: bool) -> Profile:
    """Profile of one suit (``runs``) or of the honors: the no-wild table of the one
    decomposition model (:func:`paipu.rules.core.decompose.plain_profile`).

    >>> _group_profile((1, 1, 1, 0, 0, 0, 0, 0, 1), runs=True)[1]  # 123 + a loose 9
    0
    """
    return plain_profile(key, runs)


def _best_values(profile: Profile) -> tuple[int, ...]:
    """``max(2 * sets + min(partials, needed - sets) + pair)`` for ``needed`` = 0..4 sets.

    The standard shanten is ``2 * needed - value``.
    """
    return tuple(
        max(
            2 * sets + min(partials, needed - sets) + pairs
            for pairs, sets, partials in _slots(profile)
            if sets <= needed
        )
        for needed in range(_SET_SLOTS)
    )


# --------------------------------------------------------------------------- complete groups


def _splits(key: tuple[int, ...], runs: bool, pair: bool) -> bool:
    """Whether a group splits exactly into sets, plus one pair if ``pair``: the no-wild
    table of the one decomposition model (:func:`paipu.rules.core.decompose.plain_splits`).

    >>> _splits((1, 1, 1, 1, 1, 0, 0, 0, 0), runs=True, pair=False)
    False
    >>> _splits((1, 1, 2, 1, 1, 0, 0, 0, 0), runs=True, pair=False)
    True
    """
    return bool(plain_splits(key, runs) & (2 if pair else 1))


def _completing_tiles(key: tuple[int, ...], base: Tile, runs: bool) -> tuple[Tile, ...]:
    """Tiles (codes from ``base``) that make the group split into sets and at most one pair.

    >>> _completing_tiles((0, 0, 0, 1, 1, 0, 0, 0, 0), MAN, runs=True)  # 45m waits on 36m
    (2, 5)
    """
    residue = sum(key) % SET_SIZE
    if not residue:  # one more tile leaves residue 1, which never splits
        return ()
    wants_pair = residue == 1
    return tuple(
        base + index
        for index in range(len(key))
        if _splits((*key[:index], key[index] + 1, *key[index + 1 :]), runs, pair=wants_pair)
    )


# --------------------------------------------------------------------------- group facts


class _GroupFacts:
    """All the shape formulas need from one group: a suit's nine counts or the seven honors.

    The cheap facts (what the special shapes need) are computed when the group is first
    seen; the completing tiles (what waits need) when waits are first asked of the group, and
    the standard-shanten profiles, which cost a search each, when a shanten is.
    """

    __slots__ = (
        "_minus",
        "_plus",
        "_profile",
        "_waits",
        "_without_rows",
        "annex",
        "base",
        "complete",
        "distinct",
        "key",
        "knitted_most",
        "orphan_pair",
        "orphans",
        "pairs",
        "residue",
        "rows_code",
        "runs",
    )

    def __init__(
        self,
        key: tuple[int, ...],
        base: Tile,
        runs: bool,
        residue: int,
        complete: bool,
        pairs: int,
        orphans: int,
        orphan_pair: bool,
        distinct: tuple[int, ...],
        rows_code: int,
    ) -> None:
        self.key = key
        self.base = base  # the group's first tile
        self.runs = runs
        self.residue = residue  # tiles modulo 3: 0 sets only, 2 sets + pair, 1 never complete
        self.complete = complete  # splits into sets, plus one pair when residue is 2
        self._waits: tuple[Tile, ...] | None = None
        self.pairs = pairs  # pairs towards seven pairs; a 4-of-a-kind counts twice
        self.orphans = orphans  # distinct terminals and honors held
        self.orphan_pair = orphan_pair  # some terminal or honor held at least twice
        #: Suits: distinct tiles held in each knitted row 147, 258, 369; honors: distinct honors.
        self.distinct = distinct
        #: Suits: ``distinct`` as one base-4 number, see :meth:`_Tables.knitted_order`.
        self.rows_code = rows_code
        #: Suits: the most tiles of one knitted row held (a knitted straight takes one row
        #: of each suit); honors: 0.
        self.knitted_most = max(distinct) if runs else 0
        self._profile = -1
        self._without_rows: tuple[int, ...] | None = None
        self._minus: list[_GroupFacts | None] | None = None
        self._plus: list[_GroupFacts | None] | None = None
        #: What a caller keeps about the group, built once by that caller (the self-play
        #: bots keep their own facts here); None until then. It lives as long as the table.
        self.annex: object | None = None

    def minus(self, rank: int) -> _GroupFacts:
        """Facts of the group with one tile of ``rank`` fewer (it must hold one)."""
        minus = self._minus
        if minus is None:
            minus = self._minus = [None] * len(self.key)
        facts = minus[rank]
        if facts is None:
            key = self.key
            table = _TABLES.groups[self.base // _GROUP_SPAN]
            facts = minus[rank] = table[(*key[:rank], key[rank] - 1, *key[rank + 1 :])]
        return facts

    def plus(self, rank: int) -> _GroupFacts:
        """Facts of the group with one tile of ``rank`` more (it must hold fewer than 4)."""
        plus = self._plus
        if plus is None:
            plus = self._plus = [None] * len(self.key)
        facts = plus[rank]
        if facts is None:
            key = self.key
            table = _TABLES.groups[self.base // _GROUP_SPAN]
            facts = plus[rank] = table[(*key[:rank], key[rank] + 1, *key[rank + 1 :])]
        return facts

    @property
    def waits(self) -> tuple[Tile, ...]:
        """Tiles that make the group complete, ascending."""
        waits = self._waits
        if waits is None:
            waits = _TABLES._share(_completing_tiles(self.key, self.base, self.runs))
            self._waits = waits
        return waits

    @property
    def profile(self) -> int:
        """Interned standard-shanten profile id, see :class:`_Tables`."""
        if self._profile < 0:
            self._profile = _TABLES.intern(_group_profile(self.key, self.runs))
        return self._profile

    @property
    def without_rows(self) -> tuple[int, ...]:
        """Suits: profile id once one held tile of each knitted row is set aside; honors: ()."""
        if self._without_rows is None:
            self._without_rows = (
                _TABLES._share(
                    tuple(
                        _TABLES.intern(_group_profile(_without_ranks(self.key, row), self.runs))
                        for row in _KNITTED_ROWS
                    )
                )
                if self.runs
                else ()
            )
        return self._without_rows


def _checked(key: tuple[int, ...]) -> tuple[int, ...]:
    """``key`` itself, or ``ValueError`` if a count is outside 0..4.

    The table builders call this, so a bad count is caught the first time its group is seen
    and valid groups are never checked again.
    """
    if any(not 0 <= count <= MAX_COPIES for count in key):
        raise ValueError(f"tile counts must be 0..{MAX_COPIES}, got the group {key}")
    return key


def _without_ranks(key: tuple[int, ...], ranks: tuple[int, ...]) -> tuple[int, ...]:
    """``key`` minus one of each of ``ranks`` that it holds.

    >>> _without_ranks((1, 0, 0, 2, 0, 0, 0, 0, 0), (0, 3, 6))
    (0, 0, 0, 1, 0, 0, 0, 0, 0)
    """
    return tuple(count - 1 if count and rank in ranks else count for rank, count in enumerate(key))


_KnittedOrder: TypeAlias = tuple[tuple[int, int], ...]


class _Tables:
    """The lazily built tables behind every public function.

    ``groups`` maps each group's key to its :class:`_GroupFacts` (one table per group, since
    waits are tile codes).  Profiles are interned as small ints; per id the store keeps
    :func:`_best_values`, and ``merged`` maps a pair of ids to the id of their combination.
    Equal small tuples inside the facts are shared to keep the tables lean.
    """

    def __init__(self) -> None:
        self.ids: dict[Profile, int] = {}
        self.profiles: list[Profile] = []
        self.values: list[tuple[int, ...]] = []
        self.groups: tuple[_LazyTable[tuple[int, ...], _GroupFacts], ...] = tuple(
            _LazyTable(functools.partial(self._group_facts, base=start))
            for start, _ in _GROUP_BOUNDS
        )
        self.merged: _LazyTable[tuple[int, int], int] = _LazyTable(self._merged_id)
        self.shared: dict[tuple[object, ...], tuple[object, ...]] = {}
        #: :meth:`knitted_order` by the three suits' ``rows_code``; filled on first use.
        self.orders: list[_KnittedOrder | None] = [None] * _ROW_CODES ** len(_SUIT_BASES)

    def clear(self) -> None:
        """Forget everything."""
        self.ids.clear()
        self.profiles.clear()
        self.values.clear()
        self.shared.clear()
        self.orders = [None] * len(self.orders)
        for group in self.groups:
            group.clear()
        self.merged.clear()

    def sizes(self) -> dict[str, int]:
        """Entries per table."""
        return {
            "profiles": len(self.profiles),
            "group_facts": sum(len(table) for table in self.groups),
            "merged_profiles": len(self.merged),
        }

    def knitted_order(self, facts: _Facts) -> _KnittedOrder:
        """``(tiles absent, straight index)`` of the six knitted straights, fewest absent first.

        Depends only on the suits' knitted rows, so it is kept in a flat list of 64**3 slots.
        """
        characters, dots, bamboo, _ = facts
        index = (characters.rows_code * _ROW_CODES + dots.rows_code) * _ROW_CODES
        index += bamboo.rows_code
        order = self.orders[index]
        if order is None:
            held = (characters.distinct, dots.distinct, bamboo.distinct)
            absent = (
                _KNITTED_SIZE - sum(suit[row] for suit, row in zip(held, rows, strict=True))
                for rows in _STRAIGHT_ROWS
            )
            order = tuple(sorted(self._share((n, i)) for i, n in enumerate(absent)))
            self.orders[index] = order = self._share(order)
        return order

    def _share(self, value: _T) -> _T:
        """One shared copy of equal small tuples."""
        return cast(_T, self.shared.setdefault(value, value))

    def intern(self, profile: Profile) -> int:
        """The id of ``profile``, registering it on first sight."""
        profile_id = self.ids.get(profile)
        if profile_id is None:
            profile_id = self.ids[profile] = len(self.profiles)
            self.profiles.append(profile)
            self.values.append(_best_values(profile))
        return profile_id

    def _group_facts(self, key: tuple[int, ...], base: Tile) -> _GroupFacts:
        """Facts of the group ``key`` whose first tile is ``base`` (honors have no runs)."""
        runs = base != EAST
        residue = sum(_checked(key)) % SET_SIZE
        if runs:
            orphans: tuple[int, ...] = (key[0], key[-1])
            distinct = tuple(sum(1 for rank in row if key[rank]) for row in _KNITTED_ROWS)
            rows_code = sum(held * _ROW_HELD**row for row, held in enumerate(distinct))
        else:
            orphans = key
            distinct, rows_code = (len(key) - key.count(0),), 0
        return _GroupFacts(
            key=key,
            base=base,
            runs=runs,
            residue=residue,
            complete=residue != 1 and _splits(key, runs, pair=residue == 2),
            pairs=sum(count // 2 for count in key),
            orphans=sum(1 for count in orphans if count),
            orphan_pair=max(orphans) >= 2,
            distinct=self._share(distinct),
            rows_code=rows_code,
        )

    def _merged_id(self, ids: tuple[int, int]) -> int:
        left, right = ids
        return self.intern(_combine(self.profiles[left], self.profiles[right]))


_TABLES = _Tables()
_Facts: TypeAlias = tuple[_GroupFacts, _GroupFacts, _GroupFacts, _GroupFacts]
#: The facts of one group as :attr:`HandShape.facts` holds them (for their ``annex``), and
#: the four groups' facts of a hand.
ShapeGroup: TypeAlias = _GroupFacts
ShapeFacts: TypeAlias = _Facts


def _facts(counts: Counts) -> _Facts:
    """Facts of the characters, dots, bamboo and honors of a 34-count hand."""
    characters, dots, bamboo, honors = _TABLES.groups
    return (
        characters[tuple(counts[MAN:PIN])],
        dots[tuple(counts[PIN:SOU])],
        bamboo[tuple(counts[SOU:EAST])],
        honors[tuple(counts[EAST:N_KINDS])],
    )


# --------------------------------------------------------------------------- standard shape


def _regular_from_facts(facts: _Facts, melds: int) -> int:
    """Standard shanten: merge the four group profiles and read the best value."""
    characters, dots, bamboo, honors = facts
    merged = _TABLES.merged
    profile = merged[
        merged[characters.profile, dots.profile], merged[bamboo.profile, honors.profile]
    ]
    needed = SETS_PER_HAND - melds
    return 2 * needed - _TABLES.values[profile][needed]


def _standard_waits(facts: _Facts) -> tuple[Tile, ...]:
    """Standard waits of a ``3k + 1``-tile hand, ascending.

    The drawn tile joins one group.  Either one group has residue 1 and needs its pair, or two
    groups have residue 2 and either may be completed while the other holds the pair.  Every
    other group must already split into sets.
    """
    first = second = None
    for group in facts:
        if not group.residue:
            if not group.complete:
                return ()
        elif first is None:
            first = group
        elif second is None:
            second = group
        else:
            return ()
    if first is None:
        return ()
    if second is None:
        return first.waits if first.residue == 1 else ()
    if first.residue == 1 or second.residue == 1:
        return ()
    return (first.waits if second.complete else ()) + (second.waits if first.complete else ())


def _standard_complete(facts: _Facts) -> bool:
    """Whether a ``3k + 2``-tile hand splits into sets and exactly one pair."""
    pairs = 0
    for group in facts:
        if not group.complete:
            return False
        pairs += group.residue == 2
    return pairs == 1


# --------------------------------------------------------------------------- special shapes


def _seven_pairs_from_facts(facts: _Facts) -> int:
    """``6 - pairs`` (:func:`~paipu.rules.core.shapes.seven_pairs_shanten`)."""
    characters, dots, bamboo, honors = facts
    return _pairs_shanten(characters.pairs + dots.pairs + bamboo.pairs + honors.pairs)


def _orphan_paired(facts: _Facts) -> bool:
    """Whether some terminal or honor is held at least twice (the 13 orphans' pair)."""
    characters, dots, bamboo, honors = facts
    return characters.orphan_pair or dots.orphan_pair or bamboo.orphan_pair or honors.orphan_pair


def _thirteen_orphans_from_facts(facts: _Facts) -> int:
    """``13 - kinds - (1 if a terminal or honor is paired)``."""
    characters, dots, bamboo, honors = facts
    kinds = characters.orphans + dots.orphans + bamboo.orphans + honors.orphans
    return _orphans_shanten(kinds, _orphan_paired(facts))


def _honors_and_knitted_from_facts(facts: _Facts) -> int:
    """``13 - kinds``: distinct tiles of the best knitted straight plus distinct honors."""
    absent, _ = _TABLES.knitted_order(facts)[0]
    return _loose_shanten(_KNITTED_SIZE - absent + facts[-1].distinct[0])


def _without_straight(counts: Counts, straight: tuple[Tile, ...]) -> list[int]:
    """The hand minus one of each knitted-straight tile it holds."""
    rest = list(counts)
    for tile in straight:
        if rest[tile]:
            rest[tile] -= 1
    return rest


def _knitted_straight_from_facts(facts: _Facts, melds: int, bound: int = _NOT_ALLOWED) -> int:
    """``min(bound, knitted straight shanten)``.

    Per straight: tiles absent + standard shanten of the other tiles, the straight counting as
    three sets.  The other tiles are at best complete (-1), so a straight with ``absent - 1``
    at or above the best so far is skipped.  The other tiles' profile comes from the suits'
    ``without_rows``, so no straight needs a new count vector.
    """
    characters, dots, bamboo, honors = facts
    merged, values = _TABLES.merged, _TABLES.values
    needed = SETS_PER_HAND - SET_SIZE - melds
    best = bound
    for absent, index in _TABLES.knitted_order(facts):
        if absent - 1 >= best:
            break
        row_characters, row_dots, row_bamboo = _STRAIGHT_ROWS[index]
        rest = merged[
            merged[characters.without_rows[row_characters], dots.without_rows[row_dots]],
            merged[bamboo.without_rows[row_bamboo], honors.profile],
        ]
        best = min(best, absent + 2 * needed - values[rest][needed])
    return best


def _seven_pairs_waits(counts: Counts, facts: _Facts) -> tuple[Tile, ...]:
    """Six pairs wait on the odd tile (a third copy waits to become a second pair)."""
    if _seven_pairs_from_facts(facts):
        return ()
    return tuple(tile for tile, count in enumerate(counts) if count % 2)


def _thirteen_orphans_waits(counts: Counts, facts: _Facts) -> tuple[Tile, ...]:
    """The missing orphan, or all thirteen when the hand holds one of each."""
    if _thirteen_orphans_from_facts(facts):
        return ()
    if _orphan_paired(facts):
        return tuple(tile for tile in THIRTEEN_ORPHANS if not counts[tile])
    return THIRTEEN_ORPHANS


def _honors_and_knitted_waits(counts: Counts, facts: _Facts) -> tuple[Tile, ...]:
    """The three loose tiles of the matching straight + honors that the hand lacks."""
    characters, dots, bamboo, honors = facts
    if characters.pairs or dots.pairs or bamboo.pairs or honors.pairs:
        return ()  # 13 loose tiles are 13 different tiles
    if _honors_and_knitted_from_facts(facts):
        return ()
    found: set[Tile] = set()
    for tiles in _LOOSE_TILES:
        if sum(1 for tile in tiles if counts[tile]) == WAITING_HAND_SIZE:
            found.update(tile for tile in tiles if not counts[tile])
    return tuple(sorted(found))


def _knitted_straight_waits(counts: Counts, facts: _Facts) -> tuple[Tile, ...]:
    """Knitted-straight waits.

    A straight missing one tile, with the other tiles complete, waits on that tile; a whole
    straight waits on whatever the other tiles wait on.
    """
    characters, dots, bamboo, _ = facts
    if characters.knitted_most + dots.knitted_most + bamboo.knitted_most < _KNITTED_SIZE - 1:
        return ()  # every straight misses two tiles or more
    found: set[Tile] = set()
    for absent, index in _TABLES.knitted_order(facts):
        if absent > 1:
            break
        straight = KNITTED_STRAIGHTS[index]
        rest = _facts(_without_straight(counts, straight))
        if not absent:
            found.update(_standard_waits(rest))
        elif _standard_complete(rest):
            found.update(tile for tile in straight if not counts[tile])
    return tuple(sorted(found))


def _knitted_straight_complete(counts: Counts, facts: _Facts) -> bool:
    """A whole straight with the other tiles splitting into sets and a pair."""
    return any(
        not absent
        and _standard_complete(_facts(_without_straight(counts, KNITTED_STRAIGHTS[index])))
        for absent, index in _TABLES.knitted_order(facts)
    )


_SpecialWaits: TypeAlias = Callable[[Counts, _Facts], tuple[Tile, ...]]
_SPECIAL_WAITS: dict[Shape, _SpecialWaits] = {
    Shape.SEVEN_PAIRS: _seven_pairs_waits,
    Shape.THIRTEEN_ORPHANS: _thirteen_orphans_waits,
    Shape.HONORS_AND_KNITTED: _honors_and_knitted_waits,
    Shape.KNITTED_STRAIGHT: _knitted_straight_waits,
}

_SPECIAL_COMPLETE: dict[Shape, Callable[[Counts, _Facts], bool]] = {
    Shape.SEVEN_PAIRS: lambda _counts, facts: _seven_pairs_from_facts(facts) < 0,
    Shape.THIRTEEN_ORPHANS: lambda _counts, facts: _thirteen_orphans_from_facts(facts) < 0,
    Shape.HONORS_AND_KNITTED: lambda _counts, facts: _honors_and_knitted_from_facts(facts) < 0,
    Shape.KNITTED_STRAIGHT: _knitted_straight_complete,
}


# --------------------------------------------------------------------------- input checks


def _checked_facts(counts: Counts, melds: int, sizes: tuple[int, ...], max_melds: int) -> _Facts:
    """Group facts of a hand; ``ValueError`` unless it is well formed and holds one of ``sizes``.

    ``sizes`` are given for a hand without melds; each declared meld takes 3 tiles off.
    Counts outside 0..4 are caught by the table builders (see :func:`_checked`).
    """
    if len(counts) != N_KINDS:
        raise ValueError(f"expected {N_KINDS} tile counts, got {len(counts)}")
    if not 0 <= melds <= max_melds:
        raise ValueError(f"melds must be 0..{max_melds} here, got {melds}")
    facts = _facts(counts)
    tiles = sum(counts)
    if tiles + SET_SIZE * melds not in sizes:
        expected = " or ".join(str(size - SET_SIZE * melds) for size in sizes)
        raise ValueError(f"with {melds} melds the hand must hold {expected} tiles, not {tiles}")
    return facts


_SHANTEN_SIZES = (WAITING_HAND_SIZE, WAITING_HAND_SIZE + 1)
_WAITING_SIZES = (WAITING_HAND_SIZE,)
_COMPLETE_SIZES = (WAITING_HAND_SIZE + 1,)


# --------------------------------------------------------------------------- public API


def regular_shanten(counts: Counts, melds: int = 0) -> int:
    """Shanten of the standard shape: 4 sets + a pair, declared melds counting as sets.

    Accepts ``13 - 3 * melds`` tiles (0 = ready) or ``14 - 3 * melds`` (-1 = complete).

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> regular_shanten(counts(parse_tiles("123m456p789s1122z")))
    0
    >>> regular_shanten(counts(parse_tiles("147m258p369s1234z")))
    8
    >>> regular_shanten(counts(parse_tiles("55z")), melds=4)
    -1
    """
    facts = _checked_facts(counts, melds, _SHANTEN_SIZES, SETS_PER_HAND)
    return _regular_from_facts(facts, melds)


def seven_pairs_shanten(counts: Counts) -> int:
    """Shanten of seven pairs (七对): ``6 - pairs``; a 4-of-a-kind counts as two pairs.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> seven_pairs_shanten(counts(parse_tiles("1111m2233p4455s6z")))
    0
    """
    return _seven_pairs_from_facts(_checked_facts(counts, 0, _SHANTEN_SIZES, 0))


def thirteen_orphans_shanten(counts: Counts) -> int:
    """Shanten of thirteen orphans (十三幺): kinds missing, minus one if one is paired.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> thirteen_orphans_shanten(counts(parse_tiles("119m19p19s123456z")))
    0
    """
    return _thirteen_orphans_from_facts(_checked_facts(counts, 0, _SHANTEN_SIZES, 0))


def honors_and_knitted_shanten(counts: Counts) -> int:
    """Shanten of honors and knitted tiles (全不靠, with all seven honors 七星不靠).

    ``13 - kinds``, where kinds counts the distinct tiles held of one knitted straight plus
    the distinct honors, for the best straight.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> honors_and_knitted_shanten(counts(parse_tiles("147m258p369s1234z")))
    0
    """
    return _honors_and_knitted_from_facts(_checked_facts(counts, 0, _SHANTEN_SIZES, 0))


def knitted_straight_shanten(counts: Counts, melds: int = 0) -> int:
    """Shanten of a knitted straight (组合龙) + 1 set + pair; allowed with at most 1 meld.

    For the best straight: its tiles absent + the standard shanten of the other tiles,
    the straight counting as three declared sets.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> knitted_straight_shanten(counts(parse_tiles("147m258p36s77z555z")))
    0
    """
    max_melds = Shape.KNITTED_STRAIGHT.max_melds
    facts = _checked_facts(counts, melds, _SHANTEN_SIZES, max_melds)
    return _knitted_straight_from_facts(facts, melds)


def shanten(counts: Counts, melds: int = 0, shapes: Collection[Shape] = _STANDARD_ONLY) -> int:
    """Lowest shanten over the allowed ``shapes`` that apply to a hand with ``melds`` melds.

    Special shapes apply only to fully concealed hands (``melds == 0``), the knitted straight
    with at most one meld.  ``ValueError`` if none of ``shapes`` applies.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> hand = counts(parse_tiles("1199m1199p1199s1z"))
    >>> shanten(hand), shanten(hand, shapes=ALL_SHAPES)
    (3, 0)
    """
    facts = _checked_facts(counts, melds, _SHANTEN_SIZES, SETS_PER_HAND)
    return _shanten_from_facts(facts, melds, shapes)


def _shanten_from_facts(
    facts: _Facts, melds: int, shapes: Collection[Shape], bound: int = _NOT_ALLOWED
) -> int:
    """:func:`shanten` of a hand given by its group facts; with ``bound``,
    ``min(bound, shanten)`` (and no error)."""
    best = bound
    if _STANDARD in shapes:
        best = min(best, _regular_from_facts(facts, melds))
    if not melds:
        if _SEVEN_PAIRS in shapes:
            best = min(best, _seven_pairs_from_facts(facts))
        if _THIRTEEN_ORPHANS in shapes:
            best = min(best, _thirteen_orphans_from_facts(facts))
        if _HONORS_AND_KNITTED in shapes:
            best = min(best, _honors_and_knitted_from_facts(facts))
    if melds <= _KNITTED_MAX_MELDS and _KNITTED_STRAIGHT in shapes:
        best = _knitted_straight_from_facts(facts, melds, bound=best)
    if best == _NOT_ALLOWED:
        names = sorted(shape.value for shape in shapes)
        raise ValueError(f"none of the shapes {names} allows {melds} melds")
    return best


def waits(
    counts: Counts, melds: int = 0, shapes: Collection[Shape] = _STANDARD_ONLY
) -> tuple[Tile, ...]:
    """Tiles that complete a hand of ``13 - 3 * melds`` tiles, ascending; ``()`` if not ready.

    A tile is a wait by shape alone, even when the hand already holds all four copies:
    1111m234m456p789p waits on 1m and 4m.  Subtract visible tiles yourself when counting
    live tiles.  Shapes that do not apply to ``melds`` are ignored.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> waits(counts(parse_tiles("1111m234m456p789p")))
    (0, 3)
    >>> waits(counts(parse_tiles("1122m3344p5566s7z")), shapes=ALL_SHAPES)
    (33,)
    """
    if not isinstance(shapes, _HASHABLE_SHAPES):
        facts = _checked_facts(counts, melds, _WAITING_SIZES, SETS_PER_HAND)
        return _waits_from_facts(counts, facts, melds, shapes)
    key = (tuple(counts), melds, shapes)
    found = _RECENT_WAITS.get(key)
    if found is None:
        facts = _checked_facts(counts, melds, _WAITING_SIZES, SETS_PER_HAND)
        found = _waits_from_facts(counts, facts, melds, shapes)
        if len(_RECENT_WAITS) >= _RECENT_WAITS_SIZE:
            _RECENT_WAITS.clear()
        _RECENT_WAITS[key] = found
    return found


#: Answers of :func:`waits` for recent hands (a seat that discards the tile it drew is
#: asked the same hand again), keyed by counts, melds and shapes; only hands that passed the
#: checks are kept. Emptied when full.
_RECENT_WAITS: dict[tuple[tuple[int, ...], int, Collection[Shape]], tuple[Tile, ...]] = {}
_RECENT_WAITS_SIZE = 1 << 12
_HASHABLE_SHAPES = (tuple, frozenset)


def _waits_from_facts(
    counts: Counts, facts: _Facts, melds: int, shapes: Collection[Shape]
) -> tuple[Tile, ...]:
    """:func:`waits` of a hand given by its counts and their group facts."""
    found = _standard_waits(facts) if _STANDARD in shapes else ()
    if shapes is _STANDARD_ONLY or shapes == _STANDARD_ONLY or melds > _KNITTED_MAX_MELDS:
        return found
    for shape_waits in _special_waits_for(frozenset(shapes), melds):
        more = shape_waits(counts, facts)
        if more:
            found = tuple(sorted({*found, *more})) if found else more
    return found


@functools.lru_cache(maxsize=64)
def _special_waits_for(shapes: frozenset[Shape], melds: int) -> tuple[_SpecialWaits, ...]:
    """The special-shape wait functions that apply to ``shapes`` with ``melds`` melds."""
    return tuple(
        shape_waits
        for shape, shape_waits in _SPECIAL_WAITS.items()
        if shape in shapes and shape.applies(melds)
    )


def is_complete(counts: Counts, melds: int = 0, shapes: Collection[Shape] = _STANDARD_ONLY) -> bool:
    """Whether ``14 - 3 * melds`` concealed tiles form one of the allowed winning shapes.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> is_complete(counts(parse_tiles("1122m3344p5566s77z")))
    False
    >>> is_complete(counts(parse_tiles("1122m3344p5566s77z")), shapes=ALL_SHAPES)
    True
    >>> is_complete(counts(parse_tiles("11z")), melds=4)
    True
    """
    facts = _checked_facts(counts, melds, _COMPLETE_SIZES, SETS_PER_HAND)
    if _STANDARD in shapes and _standard_complete(facts):
        return True
    return any(
        shape in shapes and shape.applies(melds) and complete(counts, facts)
        for shape, complete in _SPECIAL_COMPLETE.items()
    )


# --------------------------------------------------------------------------- trusted fast path


class HandShape:
    """Shape questions about one hand and about that hand less one tile, for callers that
    ask many of them of hands they keep well formed themselves (the self-play bots).

    Nothing is checked, unlike the public functions (the table builders still reject a count
    outside 0..4 the first time a group is seen): ``counts`` holds ``13 - 3 * melds`` or
    ``14 - 3 * melds`` tiles, ``melds`` is 0..4, and ``facts``, when given, are those of
    ``counts`` as an earlier shape's :meth:`facts_without` or :meth:`facts_with` gave them.
    The four groups are looked up once; a question about the hand less a tile looks up only
    the group that changes, and for the standard shape merges it with the kept profile of
    the other three. ``counts`` is the caller's list: it is read,
    and changed only during :meth:`waits_without`. Answers equal the public functions'.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> hand = HandShape(counts(parse_tiles("1112345678999m5p")), 0)
    >>> hand.shanten(), hand.shanten_without(13), hand.waits_without(13, ALL_SHAPES)
    (0, 0, (0, 1, 2, 3, 4, 5, 6, 7, 8))
    """

    __slots__ = ("_rest", "counts", "facts", "melds")

    def __init__(self, counts: list[int], melds: int, facts: _Facts | None = None) -> None:
        if facts is None:
            characters, dots, bamboo, honors = _TABLES.groups
            facts = (
                characters[tuple(counts[MAN:PIN])],
                dots[tuple(counts[PIN:SOU])],
                bamboo[tuple(counts[SOU:EAST])],
                honors[tuple(counts[EAST:N_KINDS])],
            )
        self.counts = counts
        self.melds = melds
        self.facts: _Facts = facts
        self._rest: tuple[int, int, int, int] | None = None

    def shanten(self, shapes: Collection[Shape] | None = None) -> int:
        """:func:`shanten` of the hand; ``None``: the standard shape alone."""
        if shapes is None:
            return _regular_from_facts(self.facts, self.melds)
        return _shanten_from_facts(self.facts, self.melds, shapes)

    def facts_without(self, tile: Tile) -> _Facts:
        """The group facts of the hand less one ``tile`` (which it holds)."""
        group, facts = self._without(tile)
        parts = list(self.facts)
        parts[group] = facts
        return cast(_Facts, tuple(parts))

    @staticmethod
    def facts_with(facts: _Facts, tile: Tile) -> _Facts:
        """The group ``facts`` of a hand given one more ``tile`` (it holds fewer than 4)."""
        group = tile // _GROUP_SPAN
        parts = list(facts)
        parts[group] = facts[group].plus(tile - group * _GROUP_SPAN)
        return cast(_Facts, tuple(parts))

    def _without(self, tile: Tile) -> tuple[int, _GroupFacts]:
        """The group of ``tile`` and its facts once one ``tile`` is taken out."""
        group = tile // _GROUP_SPAN
        return group, self.facts[group].minus(tile - group * _GROUP_SPAN)

    def shanten_below(self, shapes: Collection[Shape], bound: int) -> int:
        """``min(bound, shanten)`` by ``shapes``: the knitted straight's search stops at
        ``bound``, so this is cheaper when the answer is not below it."""
        return _shanten_from_facts(self.facts, self.melds, shapes, bound)

    def shanten_without(self, tile: Tile, shapes: Collection[Shape] | None = None) -> int:
        """:func:`shanten` of the hand less one ``tile`` (which it holds)."""
        group, facts = self._without(tile)
        if shapes is None:
            rest = self._rest or self._rest_profiles()
            needed = SETS_PER_HAND - self.melds
            profile = _TABLES.merged[rest[group], facts.profile]
            return 2 * needed - _TABLES.values[profile][needed]
        parts = list(self.facts)
        parts[group] = facts
        return _shanten_from_facts(cast(_Facts, tuple(parts)), self.melds, shapes)

    def shanten_after_call(self, tiles: Sequence[Tile]) -> int:
        """Standard shanten once ``tiles`` (held, all of one group) leave the hand to make
        one more declared meld with a claimed tile (chi, pong, kong)."""
        group = tiles[0] // _GROUP_SPAN
        first = group * _GROUP_SPAN
        facts = self.facts[group]
        for tile in tiles:
            facts = facts.minus(tile - first)
        rest = self._rest or self._rest_profiles()
        needed = SETS_PER_HAND - self.melds - 1
        return 2 * needed - _TABLES.values[_TABLES.merged[rest[group], facts.profile]][needed]

    def _rest_profiles(self) -> tuple[int, int, int, int]:
        """For each group, the merged profile of the other three (kept)."""
        merged = _TABLES.merged
        characters, dots, bamboo, honors = (f.profile for f in self.facts)
        low, high = merged[characters, dots], merged[bamboo, honors]
        self._rest = (
            merged[dots, high],
            merged[characters, high],
            merged[low, honors],
            merged[low, bamboo],
        )
        return self._rest

    def waits_without(self, tile: Tile, shapes: Collection[Shape]) -> tuple[Tile, ...]:
        """:func:`waits` of the hand less one ``tile`` (a full hand: 14 - 3 * melds tiles)."""
        group, facts = self._without(tile)
        parts = list(self.facts)
        parts[group] = facts
        counts = self.counts
        counts[tile] -= 1
        try:
            return _waits_from_facts(counts, cast(_Facts, tuple(parts)), self.melds, shapes)
        finally:
            counts[tile] += 1


def clear_caches() -> None:
    """Forget every lazily built table (for benchmarks and memory-bound batch jobs)."""
    _TABLES.clear()
    _RECENT_WAITS.clear()
    core_decompose.clear_plain_tables()


#: Entries (:func:`cache_sizes`) above which long runs empty the tables
#: (:func:`caches_full`): about 100 MB with the bots' facts on the groups. They grow with
#: every new suit pattern met, fast at first, then slowly (self-play: 168,000 entries
#: after 8,000 hands, 250,000 after about 24,000, 330,000 after 56,000).
CACHE_ENTRIES = 250_000


def caches_full() -> bool:
    """Whether the tables hold more than ``CACHE_ENTRIES`` (then :func:`clear_caches`)."""
    return sum(cache_sizes().values()) > CACHE_ENTRIES


def cache_sizes() -> dict[str, int]:
    """Entries in each lazily built table, to watch memory in long runs."""
    searches = core_decompose.plain_table_size()
    return {**_TABLES.sizes(), "group_searches": searches}


__all__ = [
    "ALL_SHAPES",
    "KNITTED_STRAIGHTS",
    "THIRTEEN_ORPHANS",
    "HandShape",
    "Shape",
    "ShapeFacts",
    "ShapeGroup",
    "cache_sizes",
    "caches_full",
    "clear_caches",
    "honors_and_knitted_shanten",
    "is_complete",
    "knitted_straight_shanten",
    "regular_shanten",
    "seven_pairs_shanten",
    "shanten",
    "thirteen_orphans_shanten",
    "waits",
]
