"""Wild-aware shanten (向听数), waits (听牌), wins (和牌) and readings, on any tile set.

Every function takes a hand as a count vector indexed by tile code and the hand's
:class:`~paipu.rules.core.wild.WildSpec`: the wilds are taken out and counted, stand-ins
played as their face (:meth:`~paipu.rules.core.wild.WildSpec.split`), and the wilds are a
resource the groups share. What each answer means is what a brute-force search would say
that tries every substitution of the wilds (each wild standing for any tile of the set, no
kind beyond its copies) and asks the plain question of :mod:`paipu.rules.shanten`:

* :func:`is_win`: some substitution completes the hand;
* :func:`shanten`: the least shanten over the substitutions;
* :func:`waits`: the tiles whose draw makes a win (a drawn wild, when the hand with one wild
  more wins; a stand-in, when its face does);
* :func:`decompositions`: every reading of a complete hand, each wild with the tile it stood
  for (素 / 德国: none substituted; 混吊 / 精吊: a wild in the pair).

With no wilds the answers are those of :mod:`paipu.rules.shanten` and
:func:`paipu.rules.decompose.standard_decompositions` (a property test holds them to it).
Speed comes from per-group tables, one entry per group key, built once
(:mod:`paipu.rules.core.decompose`); a hand is then four look-ups and cached merges.

>>> from paipu.rules.core.tiles import STANDARD
>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.tiles import format_tiles, parse_tile
>>> red = WildSpec.fixed(STANDARD, [parse_tile("7z")])  # 红中 wild
>>> hand = STANDARD.counts(STANDARD.parse("123m456p789s1z77z9s"))
>>> shanten(hand, red), format_tiles(waits(hand, red))  # 1z 9s + two 中: 7z wins too
(0, '6789s17z')
>>> won = decompositions(STANDARD.counts(STANDARD.parse("123m456p789s111z2z7z")), red)
>>> [(r.describe(), r.natural, r.wild_in_pair) for r in won]
[('123m 456p 789s 111z 22z (7z→2z)', False, True)]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import pairwise, product
from typing import Final, Generic, TypeVar

from paipu.rules import shanten as plain
from paipu.rules.core import decompose as core_decompose
from paipu.rules.core.decompose import (
    FULL_MASK,
    PROFILE_WILDS,
    Profile,
    completion_masks,
    group_readings,
    merge_profiles,
    profile_value,
    shanten_profile,
)
from paipu.rules.core.shapes import (
    SETS_PER_HAND,
    STANDARD_ONLY,
    THIRTEEN_ORPHANS,
    Shape,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)
from paipu.rules.core.tiles import STANDARD, TileSet
from paipu.rules.core.wild import WildSpec
from paipu.rules.tiles import N_KINDS, Tile, format_tiles

Masks = tuple[int, int]
_STANDARD: Final = Shape.STANDARD
_SEVEN_PAIRS: Final = Shape.SEVEN_PAIRS
_ORPHANS: Final = Shape.THIRTEEN_ORPHANS
_KNITTED: Final = (Shape.HONORS_AND_KNITTED, Shape.KNITTED_STRAIGHT)
_SET_SIZE: Final = 3
_HAND: Final = 14


class _Group:
    """What the tables know about one group key: its masks, its profiles, its waits."""

    __slots__ = ("key", "masks", "plus", "profiles", "runs", "tiles", "waits")

    def __init__(
        self, key: tuple[int, ...], tiles: tuple[Tile, ...], runs: bool, copies: int
    ) -> None:
        if any(count < 0 or count > copies + 1 for count in key):
            raise ValueError(f"tile counts must be 0..{copies}, got {format_counts(key, tiles)}")
        self.key = key
        self.tiles = tiles
        self.runs = runs
        #: Interned :func:`completion_masks` id.
        self.masks: int = _MASKS.intern(completion_masks(key, runs, copies))
        #: Interned shanten profile ids by the most wilds they allow (-1: not built yet;
        #: None until the first is asked, as ``plus`` and ``waits``: most groups met by
        #: scoring are read for their masks alone).
        self.profiles: list[int] | None = None
        #: Per rank, the masks id with one natural tile more there (-1: not built yet).
        self.plus: list[int] | None = None
        #: ``rest masks id * _SPAN + wilds`` -> the face waits in this group.
        self.waits: dict[int, tuple[Tile, ...]] | None = None


def format_counts(key: tuple[int, ...], tiles: tuple[Tile, ...]) -> str:
    """A group key as tiles (for error messages)."""
    return format_tiles([t for t, n in zip(tiles, key, strict=True) for _ in range(max(n, 0))])


class _Layout:
    """A tile set's groups, each with its table of :class:`_Group` by key."""

    __slots__ = (
        "copies",
        "groups",
        "outside",
        "places",
        "slices",
        "standard",
        "tables",
        "tile_set",
    )

    def __init__(self, tile_set: TileSet) -> None:
        self.tile_set = tile_set
        self.copies = tile_set.copies
        self.groups = tile_set.groups
        self.slices: list[tuple[int, int]] = []
        for tiles, _ in self.groups:
            start = tiles[0]
            contiguous = tiles == tuple(range(start, start + len(tiles)))
            self.slices.append((start, start + len(tiles)) if contiguous else (-1, -1))
        #: Per group, its :class:`_Group` by key code (:func:`_key_code`).
        self.tables: list[dict[int, _Group]] = [{} for _ in self.groups]
        #: Per tile code, its group's index and its rank there ((-1, -1): not in the set).
        self.places: list[tuple[int, int]] = [(-1, -1)] * tile_set.size
        for index, (tiles, _) in enumerate(self.groups):
            for rank, tile in enumerate(tiles):
                self.places[tile] = (index, rank)
        #: Codes below the set's size that are not its tiles (a hand must not hold them).
        self.outside: tuple[Tile, ...] = tuple(
            t for t in range(tile_set.size) if t not in tile_set.kind_set
        )
        self.standard = tile_set.kinds == STANDARD.kinds and tile_set.copies == 4

    def group(self, index: int, key: tuple[int, ...]) -> _Group:
        code = _key_code(key)
        table = self.tables[index]
        found = table.get(code) if code >= 0 else None
        if found is None:
            tiles, runs = self.groups[index]
            found = _Group(key, tiles, runs, self.copies)  # checks the counts
            if code >= 0:
                table[code] = found
        return found

    def facts(self, natural: Sequence[int]) -> list[_Group]:
        out: list[_Group] = []
        tables = self.tables
        for index, (start, stop) in enumerate(self.slices):
            if start >= 0:
                key = tuple(natural[start:stop])
            else:
                key = tuple([natural[t] for t in self.groups[index][0]])
            code = _key_code(key)
            found = tables[index].get(code) if code >= 0 else None
            out.append(found if found is not None else self.group(index, key))
        return out


def _key_code(key: tuple[int, ...]) -> int:
    """A group key as an int, 4 bits a rank (a table's keys all have the same length);
    -1 when a count is not 0..15 (such a key is checked, never kept)."""
    code = 0
    for count in key:
        if count < 0 or count > _MOST_CODED:
            return -1
        code = code << 4 | count
    return code


#: The most copies of a kind :func:`_key_code` writes.
_MOST_CODED: Final = 15


_V = TypeVar("_V")


class _Store(Generic[_V]):
    """Values interned as small ids, and the cached merges of two ids."""

    __slots__ = ("ids", "merged", "values")

    def __init__(self) -> None:
        self.ids: dict[_V, int] = {}
        self.values: list[_V] = []
        #: ``left * _SPAN + right`` -> the id of their merge.
        self.merged: dict[int, int] = {}

    def clear(self) -> None:
        self.ids.clear()
        self.values.clear()
        self.merged.clear()

    def intern(self, value: _V) -> int:
        found = self.ids.get(value, -1)
        if found < 0:
            found = self.ids[value] = len(self.values)
            self.values.append(value)
        return found


_LAYOUTS: Final[dict[TileSet, _Layout]] = {}
#: Merge keys are ``left * _SPAN + right`` (ids stay far below it).
_SPAN: Final = 1 << 24
_MASKS: Final[_Store[Masks]] = _Store()
_PROFILES: Final[_Store[Profile]] = _Store()
_VALUES: Final[dict[int, int]] = {}


def _layout(tile_set: TileSet) -> _Layout:
    found = _LAYOUTS.get(tile_set)
    if found is None:
        found = _LAYOUTS[tile_set] = _Layout(tile_set)
    return found


def clear_caches() -> None:
    """Forget every table (benchmarks, memory-bound batch jobs)."""
    _LAYOUTS.clear()
    _MASKS.clear()
    _PROFILES.clear()
    _VALUES.clear()
    _MASKS.intern((1, 0))  # id 0: no group at all (sets of nothing, no pair)


#: Entries (:func:`cache_entries`) above which long runs with wilds empty the tables
#: (self-play's :func:`~paipu.selfplay.loop._settle_heap`), as ``rules/shanten.py``'s
#: ``CACHE_ENTRIES`` bounds the plain ones.
CACHE_ENTRIES = 150_000


def cache_entries() -> int:
    """Entries of the wild tables: the groups met, the interned masks and profiles with
    their merges, and the cached walks of :mod:`paipu.rules.core.decompose` beyond its
    no-wild tables (which ``rules/shanten.py`` counts)."""
    groups = 0
    for layout in _LAYOUTS.values():
        for table in layout.tables:
            groups += len(table)
    stores = len(_MASKS.values) + len(_MASKS.merged) + len(_PROFILES.values)
    stores += len(_PROFILES.merged) + len(_VALUES)
    walks = core_decompose.cache_size() - core_decompose.plain_table_size()
    return groups + stores + walks


def caches_full() -> bool:
    """Whether the wild tables hold more than :data:`CACHE_ENTRIES`."""
    return cache_entries() > CACHE_ENTRIES


def sumset(left: int, right: int) -> int:
    """The masks of every sum of a count in ``left`` and one in ``right``.

    >>> bin(sumset(0b101, 0b11))
    '0b1111'
    """
    out = 0
    while left:
        low = left & -left
        out |= right * low
        left ^= low
    return out & FULL_MASK


def merge_masks(left: int, right: int) -> int:
    """The masks id of two groups together: sets only, and sets with the one pair."""
    key = left * _SPAN + right
    found = _MASKS.merged.get(key, -1)
    if found < 0:
        sets_l, pair_l = _MASKS.values[left]
        sets_r, pair_r = _MASKS.values[right]
        merged = (sumset(sets_l, sets_r), sumset(pair_l, sets_r) | sumset(sets_l, pair_r))
        found = _MASKS.merged[key] = _MASKS.intern(merged)
    return found


def completion(natural: Sequence[int], tile_set: TileSet = STANDARD) -> Masks:
    """``(sets only, sets + one pair)`` of natural counts (wilds taken out): bit ``w`` of
    each is set when ``w`` wilds complete them so, whatever the wilds stand for. The groups'
    interned masks and their cached merges: a few look-ups once the tables know the keys.

    >>> from paipu.rules.tiles import counts, parse_tiles
    >>> sets, with_pair = completion(counts(parse_tiles("123m456p789s11z2z")))  # 111z 222z
    >>> [w for w in range(5) if sets >> w & 1], [w for w in range(5) if with_pair >> w & 1]
    ([3], [2])
    """
    layout = _LAYOUTS.get(tile_set) or _layout(tile_set)
    return _MASKS.values[_all_masks(layout.facts(natural))]


class OneMore:
    """The :func:`completion` masks of natural counts with one natural tile more, for any
    face asked: the other groups' masks are merged once, and the face's group is read with
    one tile more there (its table's entry, built on first use). Placing wilds one at a
    time asks this of many faces of the same counts.

    >>> from paipu.rules.tiles import counts, parse_tile, parse_tiles
    >>> more = OneMore(counts(parse_tiles("123m456p789s11z2z")))
    >>> more.masks(parse_tile("2z"))[1] & 1, more.masks(parse_tile("3z"))[1] & 1  # 22z
    (0, 0)
    >>> [w for w in range(4) if more.masks(parse_tile("2z"))[1] >> w & 1]
    [1]
    """

    __slots__ = ("groups", "layout", "rests")

    def __init__(self, natural: Sequence[int], tile_set: TileSet = STANDARD) -> None:
        layout = _LAYOUTS.get(tile_set) or _layout(tile_set)
        groups = layout.facts(natural)
        self.layout = layout
        self.groups = groups
        # rests[i]: every group but the i-th, merged (prefixes and suffixes)
        size = len(groups)
        suffix = [0] * (size + 1)
        for index in range(size - 1, -1, -1):
            suffix[index] = merge_masks(groups[index].masks, suffix[index + 1])
        rests: list[int] = []
        prefix = 0
        for index in range(size):
            rests.append(merge_masks(prefix, suffix[index + 1]))
            prefix = merge_masks(prefix, groups[index].masks)
        self.rests = rests

    def masks(self, face: Tile) -> Masks:
        """``(sets only, sets + one pair)`` of the counts with one ``face`` more."""
        index, rank = self.layout.places[face]
        group = self.groups[index]
        plus = group.plus
        found = plus[rank] if plus is not None else -1
        if found < 0:
            found = _plus(self.layout, index, group, rank)
        return _MASKS.values[merge_masks(found, self.rests[index])]


def _plus(layout: _Layout, index: int, group: _Group, rank: int) -> int:
    """The masks id of ``group``'s key with one natural tile more at ``rank``, built on
    first use (the group met with that key, or its masks alone)."""
    plus = group.plus
    if plus is None:
        plus = group.plus = [-1] * len(group.key)
    found = plus[rank]
    if found < 0:
        key = group.key
        more = (*key[:rank], key[rank] + 1, *key[rank + 1 :])
        other = layout.tables[index].get(_key_code(more))
        if other is not None:
            found = other.masks
        else:
            found = _MASKS.intern(completion_masks(more, group.runs, layout.copies))
        plus[rank] = found
    return found


def _wins(masks: int, wild_count: int) -> bool:
    return bool(_MASKS.values[masks][1] >> wild_count & 1)


def _all_masks(groups: Sequence[_Group]) -> int:
    masks = 0
    for group in groups:
        masks = merge_masks(masks, group.masks)
    return masks


def _profile_id(group: _Group, copies: int, wild_count: int) -> int:
    most = min(wild_count, PROFILE_WILDS)
    profiles = group.profiles
    if profiles is None:
        profiles = group.profiles = [-1] * (PROFILE_WILDS + 1)
    found = profiles[most]
    if found < 0:
        found = _PROFILES.intern(shanten_profile(group.key, group.runs, copies, most))
        profiles[most] = found
    return found


def _merged_profile(left: int, right: int) -> int:
    key = left * _SPAN + right
    found = _PROFILES.merged.get(key, -1)
    if found < 0:
        merged = merge_profiles(_PROFILES.values[left], _PROFILES.values[right])
        found = _PROFILES.merged[key] = _PROFILES.intern(merged)
    return found


clear_caches()


# --------------------------------------------------------------------------- the hand


def _prepared(
    counts: Sequence[int], wilds: WildSpec, melds: int, sizes: tuple[int, ...]
) -> tuple[_Layout, Sequence[int], int, list[_Group]]:
    tile_set = wilds.tile_set
    layout = _LAYOUTS.get(tile_set) or _layout(tile_set)
    size = tile_set.size
    if len(counts) < size:
        raise ValueError(f"expected at least {size} tile counts, got {len(counts)}")
    if not 0 <= melds <= SETS_PER_HAND:
        raise ValueError(f"melds must be 0..{SETS_PER_HAND}, got {melds}")
    tiles = sum(counts)
    if tiles + _SET_SIZE * melds not in sizes:
        expected = " or ".join(str(n - _SET_SIZE * melds) for n in sizes)
        raise ValueError(f"with {melds} melds the hand must hold {expected} tiles, not {tiles}")
    if max(counts) > layout.copies:
        heavy = [t for t, n in enumerate(counts) if n > layout.copies]
        raise ValueError(f"more than {layout.copies} copies of {format_tiles(heavy)}")
    if layout.outside or len(counts) > size:
        outside = [t for t in layout.outside if counts[t]]
        outside += [t for t in range(size, len(counts)) if counts[t]]
        if outside:
            raise ValueError(f"tiles not in the set: {format_tiles(outside)} ({tile_set!r})")
    if wilds.plain:
        return layout, counts, 0, layout.facts(counts)
    natural, wild_count = wilds.split(counts)
    return layout, natural, wild_count, layout.facts(natural)


def natural_shanten(
    natural: Sequence[int],
    wild_count: int,
    tile_set: TileSet = STANDARD,
    melds: int = 0,
    shapes: Collection[Shape] = STANDARD_ONLY,
) -> int:
    """:func:`shanten` of natural counts (wilds already taken out) and ``wild_count`` wilds."""
    layout = _layout(tile_set)
    return _shanten(layout, natural, wild_count, layout.facts(natural), melds, shapes)


def shanten(
    counts: Sequence[int],
    wilds: WildSpec,
    melds: int = 0,
    shapes: Collection[Shape] = STANDARD_ONLY,
) -> int:
    """The least shanten over every substitution of the wilds, by the allowed ``shapes``.

    Accepts ``13 - 3 * melds`` or ``14 - 3 * melds`` concealed tiles (-1: complete).
    """
    layout, natural, wild_count, groups = _prepared(counts, wilds, melds, (13, 14))
    return _shanten(layout, natural, wild_count, groups, melds, shapes)


def _shanten(
    layout: _Layout,
    natural: Sequence[int],
    wild_count: int,
    groups: list[_Group],
    melds: int,
    shapes: Collection[Shape],
) -> int:
    best = 99
    if _STANDARD in shapes:
        best = _standard_shanten(layout, groups, wild_count, melds)
    if melds == 0:
        if _SEVEN_PAIRS in shapes:
            best = min(best, _seven_pairs_shanten(natural, layout, wild_count))
        if _ORPHANS in shapes:
            best = min(best, _orphans_shanten(natural, layout, wild_count))
    for shape in _KNITTED:
        if shape in shapes and shape.applies(melds):
            best = min(best, _knitted(layout, natural, wild_count, melds, (shape,)))
    if best == 99:
        names = sorted(shape.value for shape in shapes)
        raise ValueError(f"none of the shapes {names} allows {melds} melds")
    return best


def _standard_shanten(layout: _Layout, groups: list[_Group], wild_count: int, melds: int) -> int:
    copies = layout.copies
    profile = _profile_id(groups[0], copies, wild_count)
    for group in groups[1:]:
        profile = _merged_profile(profile, _profile_id(group, copies, wild_count))
    needed = SETS_PER_HAND - melds
    key = (profile * 8 + needed) * 16 + wild_count
    value = _VALUES.get(key, -1)
    if value < 0:
        value = _VALUES[key] = profile_value(_PROFILES.values[profile], needed, wild_count)
    return 2 * needed - value


def _seven_pairs_shanten(natural: Sequence[int], layout: _Layout, wild_count: int) -> int:
    """七对 (:func:`~paipu.rules.core.shapes.seven_pairs_shanten`): a wild pairs a single
    (not a fifth copy), two wilds make a pair."""
    pairs = odd = 0
    for tile in layout.tile_set.kinds:
        count = natural[tile]
        pairs += count // 2
        if count % 2 and count < layout.copies:
            odd += 1
    return seven_pairs_shanten(pairs, odd, wild_count)


def _orphans_shanten(natural: Sequence[int], layout: _Layout, wild_count: int) -> int:
    """十三幺 (:func:`~paipu.rules.core.shapes.thirteen_orphans_shanten`), on the standard
    tiles only."""
    if not layout.standard:
        return 99
    kinds = sum(1 for tile in THIRTEEN_ORPHANS if natural[tile])
    paired = any(natural[tile] >= 2 for tile in THIRTEEN_ORPHANS)
    return thirteen_orphans_shanten(kinds, paired, wild_count)


def _knitted(
    layout: _Layout,
    natural: Sequence[int],
    wild_count: int,
    melds: int,
    shapes: tuple[Shape, ...],
) -> int:
    """The knitted shapes (MCR only, no wilds): the plain functions'."""
    if wild_count or not layout.standard:
        names = ", ".join(shape.value for shape in shapes)
        raise ValueError(f"{names}: only without wilds, on the standard tiles")
    return plain.shanten(list(natural[:N_KINDS]), melds, shapes)


def is_win(
    counts: Sequence[int],
    wilds: WildSpec,
    melds: int = 0,
    shapes: Collection[Shape] = STANDARD_ONLY,
) -> bool:
    """Whether ``14 - 3 * melds`` tiles win by some substitution of the wilds."""
    layout, natural, wild_count, groups = _prepared(counts, wilds, melds, (_HAND,))
    if _STANDARD in shapes and _wins(_all_masks(groups), wild_count):
        return True
    others = [s for s in shapes if s is not _STANDARD and s.applies(melds)]
    return bool(others) and _shanten(layout, natural, wild_count, groups, melds, others) < 0


def waits(
    counts: Sequence[int],
    wilds: WildSpec,
    melds: int = 0,
    shapes: Collection[Shape] = STANDARD_ONLY,
) -> tuple[Tile, ...]:
    """Tiles whose draw makes ``13 - 3 * melds`` tiles a win, ascending; ``()`` if none.

    By shape, as :func:`paipu.rules.shanten.waits`: a tile counts even when the hand holds
    all its copies. A wild is a wait when the hand with one more wild wins; a stand-in when
    its face is a wait.
    """
    layout, natural, wild_count, groups = _prepared(counts, wilds, melds, (13,))
    faces: tuple[Tile, ...] = ()
    wild_wins = False
    if _STANDARD in shapes:
        faces, wild_wins = _standard_waits(layout, groups, wild_count)
    specials = [s for s in shapes if s is not _STANDARD and s.applies(melds)]
    if specials:
        more = list(natural)
        found = set(faces)
        for face in layout.tile_set.kinds:
            more[face] += 1
            if _shanten(layout, more, wild_count, layout.facts(more), melds, specials) < 0:
                found.add(face)
            more[face] -= 1
        faces = tuple(sorted(found))
        if not wild_wins and wilds.tiles:
            wild_wins = _shanten(layout, natural, wild_count + 1, groups, melds, specials) < 0
    if wilds.plain:
        return faces if len(groups) < 4 or _ordered(faces) else tuple(sorted(faces))
    drawable = wilds.drawable
    out = [tile for face in faces for tile in drawable[face]]
    if wild_wins:
        out.extend(wilds.tiles)
    return tuple(sorted(out))


def _ordered(tiles: tuple[Tile, ...]) -> bool:
    return all(a < b for a, b in pairwise(tiles))


def _standard_waits(
    layout: _Layout, groups: list[_Group], wild_count: int
) -> tuple[tuple[Tile, ...], bool]:
    """Face waits of the standard shape, and whether a drawn wild wins."""
    if len(groups) == 4:
        first, second, third, fourth = groups
        low = merge_masks(first.masks, second.masks)
        high = merge_masks(third.masks, fourth.masks)
        rests = [
            merge_masks(second.masks, high),
            merge_masks(first.masks, high),
            merge_masks(low, fourth.masks),
            merge_masks(low, third.masks),
        ]
        total = merge_masks(low, high)
    else:
        rests = []
        for index in range(len(groups)):
            rest = 0
            for other, group in enumerate(groups):
                if other != index:
                    rest = merge_masks(rest, group.masks)
            rests.append(rest)
        total = _all_masks(groups)
    found: tuple[Tile, ...] = ()
    for index, group in enumerate(groups):
        rest = rests[index]
        key = rest * _SPAN + wild_count
        known = group.waits
        if known is None:
            known = group.waits = {}
        tiles = known.get(key)
        if tiles is None:
            tiles = known[key] = _group_waits(layout, index, group, rest, wild_count)
        if tiles:
            found = found + tiles if found else tiles
    return found, _wins(total, wild_count + 1)


def _group_waits(
    layout: _Layout, index: int, group: _Group, rest: int, wild_count: int
) -> tuple[Tile, ...]:
    return tuple(
        group.tiles[rank]
        for rank in range(len(group.key))
        if _wins(merge_masks(_plus(layout, index, group, rank), rest), wild_count)
    )


# --------------------------------------------------------------------------- readings


class Reading:
    """One reading of a complete hand: its sets, its pair, and what each wild stood for.

    ``chows`` holds the lowest tile of each concealed chow, ``pungs`` the pung tiles, both
    ascending; ``wilds`` pairs each wild tile held with the tile it stood for, a wild standing
    for its own kind matched first (then in ascending order).
    """

    __slots__ = ("chows", "pair", "pungs", "wilds")

    def __init__(
        self,
        chows: tuple[Tile, ...],
        pungs: tuple[Tile, ...],
        pair: Tile,
        wilds: tuple[tuple[Tile, Tile], ...],
    ) -> None:
        self.chows = chows
        self.pungs = pungs
        self.pair = pair
        self.wilds = wilds

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reading) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (self.chows, self.pungs, self.pair, self.wilds)

    def __repr__(self) -> str:
        return f"Reading({self.describe()})"

    @property
    def substituted(self) -> tuple[Tile, ...]:
        """The tiles wilds stood for other than their own kind, ascending."""
        return tuple(sorted(face for wild, face in self.wilds if wild != face))

    @property
    def natural(self) -> bool:
        """No wild stood for another tile (素胡 / 德国: none held, or each as itself)."""
        return all(wild == face for wild, face in self.wilds)

    @property
    def wild_in_pair(self) -> bool:
        """A wild can be half of the pair (混吊 / 精吊 when the pair was the wait)."""
        return any(face == self.pair for _, face in self.wilds)

    def describe(self) -> str:
        parts = [(t, _text(t, _PUNG_TEXT)) for t in self.pungs]
        parts += [(t, _text(t, _CHOW_TEXT)) for t in self.chows]
        parts.sort()
        text = " ".join([p for _, p in parts] + [_text(self.pair, _PAIR_TEXT)])
        if self.wilds:
            stood = ", ".join(
                f"{_text(w, _TILE_TEXT)}→{_text(f, _TILE_TEXT)}" for w, f in self.wilds
            )
            text += f" ({stood})"
        return text


#: What :func:`_text` writes of a tile: its pung, its chow, its pair, itself.
_PUNG_TEXT: Final = 0
_CHOW_TEXT: Final = 1
_PAIR_TEXT: Final = 2
_TILE_TEXT: Final = 3
#: :func:`_text` by ``tile * 4 + kind`` (a few hundred at most: made once each).
_TEXTS: Final[dict[int, str]] = {}


def _text(tile: Tile, kind: int) -> str:
    """``format_tiles`` of a pung, chow, pair or single tile of ``tile`` (for
    :meth:`Reading.describe`), made once per tile and kind."""
    key = tile * 4 + kind
    found = _TEXTS.get(key)
    if found is None:
        if kind == _PUNG_TEXT:
            tiles = [tile, tile, tile]
        elif kind == _CHOW_TEXT:
            tiles = [tile, tile + 1, tile + 2]
        elif kind == _PAIR_TEXT:
            tiles = [tile, tile]
        else:
            tiles = [tile]
        found = _TEXTS[key] = format_tiles(tiles)
    return found


def decompositions(counts: Sequence[int], wilds: WildSpec, melds: int = 0) -> list[Reading]:
    """Every reading of ``14 - 3 * melds`` concealed tiles as sets and one pair.

    With no wilds, the readings of :func:`paipu.rules.decompose.standard_decompositions`, in
    its order; with wilds, also how each wild stood (sets of wilds alone included, so a hand
    of many wilds has many readings).
    """
    layout, _, wild_count, groups = _prepared(counts, wilds, melds, (_HAND,))
    if not _wins(_all_masks(groups), wild_count):
        return []
    held = wilds.held(counts)
    options = []
    for group in groups:
        readings = group_readings(group.key, group.runs, layout.copies, wild_count)
        if not readings:
            return []
        options.append([(group.tiles, reading) for reading in readings])
    out: list[Reading] = []
    for combo in product(*options):
        pairs = [tiles[r[2]] for tiles, r in combo if r[2] >= 0]
        if len(pairs) != 1 or sum(len(r[3]) for _, r in combo) != wild_count:
            continue
        chows = tuple(sorted(tiles[rank] for tiles, r in combo for rank in r[0]))
        pungs = tuple(sorted(tiles[rank] for tiles, r in combo for rank in r[1]))
        faces = sorted(tiles[rank] for tiles, r in combo for rank in r[3])
        out.append(Reading(chows, pungs, pairs[0], _match(held, faces)))
    return out


def _match(held: tuple[Tile, ...], faces: list[Tile]) -> tuple[tuple[Tile, Tile], ...]:
    """Pair wild tiles with faces: each wild with its own kind where it can, the rest in order."""
    left = list(faces)
    pairs: list[tuple[Tile, Tile]] = []
    rest: list[Tile] = []
    for wild in held:
        if wild in left:
            left.remove(wild)
            pairs.append((wild, wild))
        else:
            rest.append(wild)
    pairs.extend(zip(rest, left, strict=True))
    return tuple(sorted(pairs))


__all__ = [
    "Reading",
    "clear_caches",
    "decompositions",
    "is_win",
    "natural_shanten",
    "shanten",
    "sumset",
    "waits",
]
