"""Wild tiles are proven: the wild-aware win check, shanten and waits agree with a
brute-force oracle that tries every substitution of the wilds, and with no wilds they give
exactly the answers of the plain engine (rules/shanten.py, rules/decompose.py).

The oracle is deliberately naive: every multiset of tiles of the set for the wilds (no kind
beyond its copies), then the textbook recursive checks on the substituted counts. Hands are
random, with 0 to 4 wilds: up to 4 on small tile sets (one or two suits, a few honours, a
10-rank suit), up to 2 on the full sets, so that the oracle's search stays small.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paipu.rules import decompose as plain_decompose
from paipu.rules import shanten as plain
from paipu.rules.core import decompose
from paipu.rules.core import shanten as core
from paipu.rules.core.shapes import ALL_SHAPES, THIRTEEN_ORPHANS, Shape
from paipu.rules.core.tiles import STANDARD, TileSet
from paipu.rules.core.wild import WildRule, WildSpec
from paipu.rules.tiles import N_KINDS, parse_tile

SP = (Shape.STANDARD, Shape.SEVEN_PAIRS)
SPO = (Shape.STANDARD, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS)

SMALL_SETS = (
    TileSet.from_toml({"suits": ["m"], "honors": ["1z", "7z"]}),
    TileSet.from_toml({"suits": ["p"], "ranks": 10, "honors": False}),
    TileSet.from_toml({"suits": ["s"], "honors": ["winds"]}),
)
LARGE_SETS = (
    STANDARD,
    TileSet.from_toml({"honors": ["7z"]}),  # Harbin's 112 tiles
    TileSet.from_toml({"ranks": 10, "honors": ["winds"]}),  # 十万麻将
    TileSet.from_toml({"suits": ["m", "s"], "honors": False}),
)


# --------------------------------------------------------------------------- the oracle


@functools.cache
def _splits(key: tuple[int, ...], runs: bool, pair: bool) -> bool:
    """Whether a group's counts split into sets, plus one pair if ``pair``."""
    if not any(key):
        return not pair
    first = next(i for i, n in enumerate(key) if n)
    rest = list(key)
    if pair and rest[first] >= 2:
        rest[first] -= 2
        if _splits(tuple(rest), runs, False):
            return True
        rest[first] += 2
    if rest[first] >= 3:
        rest[first] -= 3
        if _splits(tuple(rest), runs, pair):
            return True
        rest[first] += 3
    if runs and first + 2 < len(key) and rest[first + 1] and rest[first + 2]:
        for i in range(3):
            rest[first + i] -= 1
        return _splits(tuple(rest), runs, pair)
    return False


@functools.cache
def _blocks(key: tuple[int, ...], runs: bool) -> frozenset[tuple[int, int, int]]:
    """Every ``(pairs, sets, partials)`` of a group, by trying every block on the lowest tile."""
    if not any(key):
        return frozenset({(0, 0, 0)})
    first = next(i for i, n in enumerate(key) if n)
    shapes = [((0,), 0, 0, 0), ((0, 0, 0), 0, 1, 0), ((0, 0), 1, 0, 0), ((0, 0), 0, 0, 1)]
    if runs:
        shapes += [((0, 1, 2), 0, 1, 0), ((0, 1), 0, 0, 1), ((0, 2), 0, 0, 1)]
    out = set()
    for offsets, pairs, sets, partials in shapes:
        rest = list(key)
        if any(first + o >= len(key) for o in offsets):
            continue
        for o in offsets:
            rest[first + o] -= 1
        if min(rest) < 0:
            continue
        for p, s, q in _blocks(tuple(rest), runs):
            out.add((p + pairs, s + sets, q + partials))
    return frozenset(out)


def _keys(tile_set: TileSet, counts: Sequence[int]) -> list[tuple[tuple[int, ...], bool]]:
    return [(tuple(counts[t] for t in tiles), runs) for tiles, runs in tile_set.groups]


def plain_complete(tile_set: TileSet, counts: Sequence[int]) -> bool:
    groups = _keys(tile_set, counts)
    return any(
        all(_splits(key, runs, index == pair) for index, (key, runs) in enumerate(groups))
        for pair in range(len(groups))
    )


def plain_shanten(tile_set: TileSet, counts: Sequence[int], melds: int, shapes) -> int:
    needed = 4 - melds
    best = 99
    if Shape.STANDARD in shapes:
        combos = {(0, 0, 0)}
        for key, runs in _keys(tile_set, counts):
            combos = {(p + a, s + b, q + c) for p, s, q in combos for a, b, c in _blocks(key, runs)}
        best = 2 * needed - max(
            2 * s + min(q, needed - s) + p for p, s, q in combos if p <= 1 and s <= needed
        )
    if melds == 0 and Shape.SEVEN_PAIRS in shapes:
        best = min(best, 6 - sum(counts[t] // 2 for t in tile_set.kinds))
    if melds == 0 and Shape.THIRTEEN_ORPHANS in shapes and tile_set == STANDARD:
        kinds = sum(1 for t in THIRTEEN_ORPHANS if counts[t])
        best = min(best, 13 - kinds - any(counts[t] >= 2 for t in THIRTEEN_ORPHANS))
    return best


def substitutions(spec: WildSpec, counts: Sequence[int]):
    """Every natural count vector a substitution of the hand's wilds gives."""
    tile_set = spec.tile_set
    natural, wilds = spec.split(counts)  # tested on its own in test_core_tiles.py
    for faces in combinations_with_replacement(tile_set.kinds, wilds):
        out = list(natural)
        for face in faces:
            out[face] += 1
        if all(out[f] <= max(tile_set.copies, natural[f]) for f in faces):
            yield out


def oracle_win(spec: WildSpec, counts: Sequence[int], melds: int, shapes=(Shape.STANDARD,)) -> bool:
    for subst in substitutions(spec, counts):
        if Shape.STANDARD in shapes and plain_complete(spec.tile_set, subst):
            return True
        others = [s for s in shapes if s is not Shape.STANDARD]
        if others and plain_shanten(spec.tile_set, subst, melds, others) < 0:
            return True
    return False


def oracle_shanten(spec: WildSpec, counts: Sequence[int], melds: int, shapes) -> int:
    return min(plain_shanten(spec.tile_set, s, melds, shapes) for s in substitutions(spec, counts))


def oracle_waits(spec: WildSpec, counts: Sequence[int], melds: int, shapes) -> tuple[int, ...]:
    found = []
    for tile in spec.tile_set.kinds:
        more = list(counts)
        more[tile] += 1
        if oracle_win(spec, more, melds, shapes):
            found.append(tile)
    return tuple(found)


# --------------------------------------------------------------------------- random hands


@st.composite
def wild_hands(draw, full: bool = False, tiles_more: int = 0):
    """``(spec, counts, melds)``: a hand of ``13 + tiles_more - 3 * melds`` tiles."""
    tile_set = draw(st.sampled_from(LARGE_SETS if full else SMALL_SETS))
    most = 2 if full else 4
    kinds = list(tile_set.kinds)
    wild_kinds = draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=2, unique=True))
    stand_ins: tuple[tuple[int, int], ...] = ()
    if len(wild_kinds) == 1 and draw(st.booleans()):
        candidates = [t for t in kinds if t not in wild_kinds]
        stand_ins = ((draw(st.sampled_from(candidates)), wild_kinds[0]),)
    spec = WildSpec(tile_set, frozenset(wild_kinds), stand_ins)
    melds = draw(st.sampled_from((0, 0, 0, 1, 2, 3, 4)))
    size = 13 + tiles_more - 3 * melds
    wilds = draw(st.integers(0, min(most, size, 4 * len(wild_kinds))))
    wall = [t for t in kinds for _ in range(tile_set.copies) if t not in wild_kinds]
    wild_wall = [t for t in wild_kinds for _ in range(tile_set.copies)]
    chosen = draw(st.permutations(wall))[: size - wilds] + draw(st.permutations(wild_wall))[:wilds]
    counts = [0] * tile_set.size
    for tile in chosen:
        counts[tile] += 1
    return spec, counts, melds


def _complete_hand(draw, spec: WildSpec, melds: int) -> list[int]:
    """A hand that is probably complete: sets and a pair, some tiles replaced by wilds."""
    tile_set = spec.tile_set
    counts = [0] * tile_set.size
    naturals = [t for t in tile_set.kinds if t not in spec.tiles and t not in dict(spec.stand_ins)]
    for _ in range(4 - melds):
        low = draw(st.sampled_from(naturals))
        chow = tile_set.chow_from(low)
        tiles = list(chow) if chow and draw(st.booleans()) else [low] * 3
        for t in tiles:
            counts[t] += 1
    pair = draw(st.sampled_from(naturals))
    counts[pair] += 2
    wild_list = sorted(spec.tiles)
    for _ in range(draw(st.integers(0, 4)) if wild_list else 0):
        held = [t for t in tile_set.kinds if counts[t] and t not in spec.tiles]
        if not held:
            break
        tile = draw(st.sampled_from(held))
        counts[tile] -= 1
        counts[draw(st.sampled_from(wild_list))] += 1
    if max(counts) > tile_set.copies:
        return []
    return counts


SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(wild_hands(tiles_more=1))
def test_is_win_agrees_with_the_oracle(hand) -> None:
    spec, counts, melds = hand
    assert core.is_win(counts, spec, melds) == oracle_win(spec, counts, melds)


@SLOW
@given(st.data())
def test_complete_hands_with_wilds_win_as_the_oracle_says(data) -> None:
    tile_set = data.draw(st.sampled_from(SMALL_SETS + LARGE_SETS))
    wild = data.draw(st.sampled_from(tile_set.kinds))
    spec = WildSpec.fixed(tile_set, [wild])
    melds = data.draw(st.integers(0, 4))
    counts = _complete_hand(data.draw, spec, melds)
    if not counts or (tile_set in LARGE_SETS and counts[wild] > 2):
        return
    won = core.is_win(counts, spec, melds)
    assert won == oracle_win(spec, counts, melds)
    readings = core.decompositions(counts, spec, melds)
    assert bool(readings) == won
    for reading in readings:  # each reading is a true split of the substituted hand
        natural = list(counts)
        natural[wild] = 0
        for held, face in reading.wilds:
            assert held == wild
            natural[face] += 1
        rebuilt = [0] * tile_set.size
        for low in reading.chows:
            for t in tile_set.chow_from(low) or ():
                rebuilt[t] += 1
        for t in reading.pungs:
            rebuilt[t] += 3
        rebuilt[reading.pair] += 2
        assert rebuilt == natural


@SLOW
@given(wild_hands())
def test_shanten_agrees_with_the_oracle(hand) -> None:
    spec, counts, melds = hand
    shapes = SP if melds == 0 else (Shape.STANDARD,)
    assert core.shanten(counts, spec, melds, shapes) == oracle_shanten(spec, counts, melds, shapes)


@SLOW
@given(wild_hands(tiles_more=1))
def test_shanten_of_full_hands_agrees_with_the_oracle(hand) -> None:
    spec, counts, melds = hand
    assert core.shanten(counts, spec, melds) == oracle_shanten(
        spec, counts, melds, (Shape.STANDARD,)
    )


@SLOW
@given(wild_hands(full=True))
def test_shanten_on_full_sets_agrees_with_the_oracle(hand) -> None:
    spec, counts, melds = hand
    shapes = SPO if melds == 0 else (Shape.STANDARD,)
    assert core.shanten(counts, spec, melds, shapes) == oracle_shanten(spec, counts, melds, shapes)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wild_hands())
def test_waits_agree_with_the_oracle(hand) -> None:
    spec, counts, melds = hand
    shapes = SP if melds == 0 else (Shape.STANDARD,)
    assert core.waits(counts, spec, melds, shapes) == oracle_waits(spec, counts, melds, shapes)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wild_hands(full=True))
def test_waits_on_full_sets_agree_with_the_oracle(hand) -> None:
    spec, counts, melds = hand
    if sum(counts[t] for t in spec.tiles) > 1:
        return  # two wilds on 34 kinds: the oracle's 34 × 595 checks are too slow here
    assert core.waits(counts, spec, melds) == oracle_waits(spec, counts, melds, (Shape.STANDARD,))


# --------------------------------------------------------------------------- no wilds


@st.composite
def plain_hands(draw, size: int):
    wall = [t for t in range(N_KINDS) for _ in range(4)]
    melds = draw(st.sampled_from((0, 0, 0, 1, 2, 4)))
    chosen = draw(st.permutations(wall))[: size - 3 * melds]
    counts = [0] * N_KINDS
    for tile in chosen:
        counts[tile] += 1
    return counts, melds


NONE = WildSpec.none()


@settings(max_examples=120, deadline=None)
@given(plain_hands(13))
def test_no_wilds_gives_todays_shanten_and_waits(hand) -> None:
    counts, melds = hand
    shapes = ALL_SHAPES if melds == 0 else (Shape.STANDARD,)
    assert core.shanten(counts, NONE, melds, shapes) == plain.shanten(counts, melds, shapes)
    assert core.shanten(counts, NONE, melds, SPO[: 3 if not melds else 1]) == plain.shanten(
        counts, melds, SPO[: 3 if not melds else 1]
    )
    waits_shapes = SPO if melds == 0 else (Shape.STANDARD,)
    assert core.waits(counts, NONE, melds, waits_shapes) == plain.waits(counts, melds, waits_shapes)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_no_wilds_gives_todays_wins_and_readings(data) -> None:
    melds = data.draw(st.integers(0, 4))
    counts = _complete_hand(data.draw, NONE, melds)
    if not counts:
        return
    assert core.is_win(counts, NONE, melds) == plain.is_complete(counts, melds)
    readings = core.decompositions(counts, NONE, melds)
    divisions = plain_decompose.standard_decompositions(counts)
    assert [(r.chows, r.pungs, r.pair) for r in readings] == [
        (d.chows, d.pungs, d.pair) for d in divisions
    ]
    assert all(r.natural and not r.wilds for r in readings)


@settings(max_examples=200, deadline=None)
@given(plain_hands(14))
def test_the_oracle_plain_checks_are_todays(hand) -> None:
    """The oracle's plain checks agree with the plain engine (so the oracle can be trusted)."""
    counts, melds = hand
    assert plain_complete(STANDARD, counts) == plain.is_complete(counts, melds)
    assert plain_shanten(STANDARD, counts, melds, SPO[: 3 if not melds else 1]) == plain.shanten(
        counts, melds, SPO[: 3 if not melds else 1]
    )


# --------------------------------------------------------------------------- examples


def _counts(tile_set: TileSet, text: str) -> list[int]:
    return tile_set.counts(tile_set.parse(text))


def test_tianjin_hun_reading_names_what_each_wild_stood_for() -> None:
    tianjin = TileSet.from_toml({"dragon_cycle": ["中", "发", "白"]})
    spec = WildSpec.from_indicator(tianjin, parse_tile("3p"), (0, 1))  # 3p and 4p are 混
    hand = _counts(tianjin, "456m789m123s55z9p3p4p")  # 白 pair, 9p with two 混
    assert core.is_win(hand, spec)
    readings = core.decompositions(hand, spec)
    assert readings and not any(r.natural for r in readings)
    pure = _counts(tianjin, "456m789m123s55z234p")
    natural = [r for r in core.decompositions(pure, spec) if r.natural]
    assert "456m 789m 234p 123s 55z (3p→3p, 4p→4p)" in [r.describe() for r in natural]


def test_changzhou_white_dragon_plays_as_the_caishen_face() -> None:
    rule = WildRule.from_toml({"indicator": [1], "stand_in": "5z"}, STANDARD)
    spec = rule.spec(parse_tile("4m"))  # 财神 5m; 白板 plays as 5m
    hand = _counts(STANDARD, "34m5z123p456p789p11s")  # 3 4 白(=5m)
    assert core.is_win(hand, spec)
    assert not core.is_win(_counts(STANDARD, "34m6z123p456p789p11s"), spec)
    ready = _counts(STANDARD, "3m5z123p456p789p11s")  # waits on 4m (and 2m? no: 3-5 gap)
    assert parse_tile("4m") in core.waits(ready, spec)
    assert parse_tile("5m") in core.waits(ready, spec)  # a drawn 财神 stands for 4m
    assert parse_tile("5z") not in core.waits(ready, spec)


def test_wild_in_the_pair_is_reported_for_hun_diao() -> None:
    red = WildSpec.fixed(STANDARD, [parse_tile("7z")])
    readings = core.decompositions(_counts(STANDARD, "123m456p789s111z9m7z"), red)
    assert any(r.pair == parse_tile("9m") and r.wild_in_pair for r in readings)


def test_ten_rank_chows() -> None:
    shiwan = TileSet.from_toml({"ranks": 10, "honors": ["winds"]})
    none = WildSpec.none(shiwan)
    assert core.is_win(_counts(shiwan, "890m123p456p789p11z"), none)
    assert not core.is_win(_counts(shiwan, "901m123p456p789p11z"), none)  # 9-10-1 wraps
    assert core.waits(_counts(shiwan, "89m123p456p789p11z"), none) == (
        parse_tile("7m"),
        parse_tile("10m"),
    )


def test_harbin_red_dragon_is_the_only_honour() -> None:
    harbin = TileSet.from_toml({"honors": ["红中"]})
    none = WildSpec.none(harbin)
    assert len(harbin.wall()) == 112
    assert core.waits(_counts(harbin, "123m456p789s777z5m"), none) == (parse_tile("5m"),)
    with pytest.raises(ValueError, match="not in the set"):
        core.shanten(_counts(STANDARD, "123m456p789s11z5m5m"), none)


def test_bad_hands_are_refused_with_context() -> None:
    with pytest.raises(ValueError, match="13 or 14 tiles"):
        core.shanten(_counts(STANDARD, "123m"), NONE)
    with pytest.raises(ValueError, match="more than 4 copies of 1m"):
        core.waits(_counts(STANDARD, "11111m23m456p789s"), NONE)
    with pytest.raises(ValueError, match="only without wilds"):
        core.shanten(
            _counts(STANDARD, "147m258p369s123z7z"),
            WildSpec.fixed(STANDARD, [parse_tile("7z")]),
            shapes=(Shape.HONORS_AND_KNITTED,),
        )


# --------------------------------------------------------------------------- one model


@st.composite
def group_keys(draw):
    """A group's counts: a suit of 9 or 10 ranks, or honours; 0..14 tiles, at most 4 a kind."""
    runs = draw(st.booleans())
    size = draw(st.sampled_from((9, 10))) if runs else draw(st.integers(1, 7))
    wall = [rank for rank in range(size) for _ in range(4)]
    chosen = draw(st.permutations(wall))[: draw(st.integers(0, 14))]
    return tuple(chosen.count(rank) for rank in range(size)), runs


@settings(max_examples=150, deadline=None)
@given(group_keys())
def test_the_plain_tables_are_the_walks_no_wild_entries(drawn) -> None:
    """The no-wild tables (what rules/shanten.py and rules/decompose.py read) are the
    entries of the wild-aware walks that use no wild: one model, two directions of walk."""
    key, runs = drawn
    sets, with_pair = decompose.completion_masks(key, runs, 4)
    assert decompose.completion_masks(key, runs, 4, 0) == (sets & 1, with_pair & 1)
    one_wild = decompose.shanten_profile(key, runs, 4, 1)
    assert decompose.shanten_profile(key, runs, 4, 0) == tuple(e for e in one_wild if not e[2])
    readings = decompose.group_readings(key, runs, 4, 1)
    assert decompose.group_readings(key, runs, 4, 0) == tuple(r for r in readings if not r[3])
    total = sum(key)
    if total % 3 != 1:
        assert bool(sets & 1 if total % 3 == 0 else with_pair & 1) == _splits(
            key, runs, total % 3 == 2
        )


@settings(max_examples=60, deadline=None)
@given(st.lists(group_keys(), min_size=2, max_size=4))
def test_completion_masks_do_not_depend_on_the_keys_walked_before(drawn) -> None:
    """The mask walk shares the states of prefixes between keys: each key's masks are those
    it has walked alone on emptied tables, and those of its readings (another walk: the
    wild counts with which it splits into sets, and sets with one pair)."""
    groups = list(drawn)
    for key, runs in drawn:  # a key and the same key with one tile more share a prefix
        rank = len(key) // 2
        if key[rank] < 4:
            groups.append(((*key[:rank], key[rank] + 1, *key[rank + 1 :]), runs))
    alone = []
    for key, runs in groups:
        decompose.clear_caches()
        alone.append(decompose.completion_masks(key, runs, 4))
    decompose.clear_caches()
    together = [decompose.completion_masks(key, runs, 4) for key, runs in reversed(groups)]
    assert together[::-1] == alone
    wilds = 3
    for (key, runs), (sets, with_pair) in zip(groups[:2], alone, strict=False):
        by_readings = [0, 0]
        for _, _, pair_rank, stood in decompose.group_readings(key, runs, 4, wilds):
            by_readings[pair_rank >= 0] |= 1 << len(stood)
        low = (1 << (wilds + 1)) - 1
        assert [sets & low, with_pair & low] == by_readings


@settings(max_examples=100, deadline=None)
@given(group_keys(), st.integers(0, 4))
def test_first_readings_are_the_first_of_each_kind(drawn, wilds: int) -> None:
    """first_readings keeps, in group_readings' order, the first reading of each kind (a
    pair or not, the wilds used): one of each kind there is, none other."""
    key, runs = drawn
    every = decompose.group_readings(key, runs, 4, wilds)
    first = decompose.first_readings(key, runs, 4, wilds)
    kinds = [(reading[2] >= 0, len(reading[3])) for reading in first]
    assert len(set(kinds)) == len(kinds)
    assert set(kinds) == {(reading[2] >= 0, len(reading[3])) for reading in every}
    positions = [every.index(reading) for reading in first]
    assert positions == sorted(positions)
    for reading, position in zip(first, positions, strict=True):
        kind = (reading[2] >= 0, len(reading[3]))
        assert all((r[2] >= 0, len(r[3])) != kind for r in every[:position])
