"""Tests for paipu.rules.shanten: hand-checked hands, Hypothesis laws, the MahjongGB reference."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paipu.rules.shanten import (
    ALL_SHAPES,
    KNITTED_STRAIGHTS,
    THIRTEEN_ORPHANS,
    HandShape,
    Shape,
    honors_and_knitted_shanten,
    is_complete,
    knitted_straight_shanten,
    regular_shanten,
    seven_pairs_shanten,
    shanten,
    thirteen_orphans_shanten,
    waits,
)
from paipu.rules.tiles import HONORS, N_KINDS, counts, parse_tiles

Hand = list[int]
Block = tuple[int, ...]


def hand(spec: str) -> Hand:
    return counts(parse_tiles(spec))


def tiles(spec: str) -> tuple[int, ...]:
    return tuple(parse_tiles(spec))


# --------------------------------------------------------------------------- hand-checked

STANDARD = (Shape.STANDARD,)


@pytest.mark.parametrize(
    ("spec", "melds", "shapes", "expected"),
    [
        ("1112345678999m", 0, STANDARD, "123456789m"),  # 九莲宝灯 nine gates
        ("19m19p19s1234567z", 0, (Shape.THIRTEEN_ORPHANS,), "19m19p19s1234567z"),  # 13-way
        ("19m19p19s1234567z", 0, STANDARD, ""),
        ("119m19p19s123456z", 0, ALL_SHAPES, "7z"),
        ("1122m3344p5566s7z", 0, (Shape.SEVEN_PAIRS,), "7z"),
        ("1111m3344p5566s7z", 0, (Shape.SEVEN_PAIRS,), "7z"),  # a kong counts as two pairs
        ("1122m3344p5566s7z", 0, STANDARD, ""),
        ("1122m3344p5566s7z", 0, (Shape.STANDARD, Shape.THIRTEEN_ORPHANS), ""),
        ("147m258p36s77z555z", 0, (Shape.KNITTED_STRAIGHT,), "9s"),  # 组合龙 missing one
        ("147m258p23369s55z", 0, (Shape.KNITTED_STRAIGHT,), "14s"),  # straight + 23s + pair
        ("147m258p23369s55z", 0, ALL_SHAPES, "14s"),
        ("147m258p36s55z", 1, (Shape.KNITTED_STRAIGHT,), "9s"),  # one meld declared
        ("147m258p369s1234z", 0, (Shape.HONORS_AND_KNITTED,), "567z"),  # 全不靠
        ("147m258p369s1234z", 0, ALL_SHAPES, "567z"),
        ("1111m234m456p789p", 0, STANDARD, "14m"),  # 1m by shape, all four held
        ("1122334455667m", 0, STANDARD, "147m"),
        ("1122334455667m", 0, ALL_SHAPES, "147m"),
        ("2344m", 3, STANDARD, "14m"),
        ("2344m", 3, ALL_SHAPES, "14m"),  # special shapes do not apply with melds
        ("5z", 4, STANDARD, "5z"),
        ("19m19p19s1234z567p", 0, ALL_SHAPES, ""),
    ],
)
def test_waits_hand_checked(
    spec: str, melds: int, shapes: tuple[Shape, ...], expected: str
) -> None:
    counts_ = hand(spec)
    assert waits(counts_, melds, shapes) == tiles(expected)
    assert waits(tuple(counts_), melds, set(shapes)) == tiles(expected)
    for tile in tiles(expected):
        won = counts_.copy()
        won[tile] += 1
        if won[tile] <= 4:
            assert is_complete(won, melds, shapes)
            assert shanten(won, melds, shapes) == -1


@pytest.mark.parametrize(
    ("spec", "function", "expected"),
    [
        ("123m456p789s1122z", regular_shanten, 0),
        ("123m456p789s11222z", regular_shanten, -1),
        ("1199m1199p1199s1z", regular_shanten, 3),  # six pairs: pair + 4 capped partials
        ("1199m1199p1199s1z", seven_pairs_shanten, 0),
        ("147m258p369s1234z", regular_shanten, 8),  # the worst 13-tile hand
        ("147m258p369s1234z", honors_and_knitted_shanten, 0),
        ("147m258p369s12345z", honors_and_knitted_shanten, -1),
        ("147m258p369s1234z", knitted_straight_shanten, 2),
        ("147m258p369s12355z", knitted_straight_shanten, 1),
        ("147m258p369s11155z", knitted_straight_shanten, -1),
        ("19m19p19s1234567z", thirteen_orphans_shanten, 0),
        ("119m19p19s1234567z", thirteen_orphans_shanten, -1),
        ("1m2345678p23456s", thirteen_orphans_shanten, 12),
        ("1111m2222p3333s4z", seven_pairs_shanten, 0),
        ("1111m2222p3333s44z", seven_pairs_shanten, -1),
    ],
)
def test_shanten_hand_checked(spec: str, function: Callable[[Hand], int], expected: int) -> None:
    assert function(hand(spec)) == expected


def test_shanten_takes_the_best_allowed_shape() -> None:
    counts_ = hand("1199m1199p1199s1z")
    assert shanten(counts_) == 3
    assert shanten(counts_, shapes=ALL_SHAPES) == 0
    assert shanten(counts_, shapes=(Shape.SEVEN_PAIRS,)) == 0
    assert shanten(hand("147m258p369s1234z"), shapes=ALL_SHAPES) == 0


def test_melds_limit_the_special_shapes() -> None:
    eleven = hand("147m258p36s55z1z")  # one meld declared, 11 concealed tiles
    assert knitted_straight_shanten(eleven, melds=1) == 0
    assert shanten(eleven, 1, ALL_SHAPES) == 0
    assert shanten(eleven, 1) > 0
    seven = hand("1122m334p")
    with pytest.raises(ValueError, match="none of the shapes"):
        shanten(seven, 2, (Shape.SEVEN_PAIRS, Shape.KNITTED_STRAIGHT))
    with pytest.raises(ValueError, match=r"melds must be 0\.\.1"):
        knitted_straight_shanten(seven, melds=2)
    assert not is_complete(hand("11223344m"), 2, (Shape.SEVEN_PAIRS,))


@pytest.mark.parametrize(
    ("counts_", "melds", "message"),
    [
        ([0] * 33, 0, "expected 34 tile counts"),
        (hand("1112345678999m"), 5, "melds must be"),
        (hand("1111m"), 0, "13 or 14 tiles"),
        ([5, *hand("12345678m")[1:]], 0, "tile counts must be"),
        ([-1, *hand("12345678m")[1:]], 0, "tile counts must be"),
    ],
)
def test_bad_input_fails_loudly(counts_: Hand, melds: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        shanten(counts_, melds)


def test_waits_and_is_complete_check_the_size() -> None:
    with pytest.raises(ValueError, match="must hold 14 tiles"):
        is_complete(hand("1112345678999m"))
    with pytest.raises(ValueError, match="must hold 4 tiles"):
        waits(hand("1122m3344p5566s7z"), 3, (Shape.SEVEN_PAIRS,))


def test_list_and_tuple_agree() -> None:
    counts_ = hand("1112345678999m")
    assert waits(counts_) == waits(tuple(counts_))
    assert shanten(counts_, shapes=ALL_SHAPES) == shanten(tuple(counts_), shapes=ALL_SHAPES)


# --------------------------------------------------------------------------- Hypothesis laws

PUNGS: list[Block] = [(tile, tile, tile) for tile in range(N_KINDS)]
CHOWS: list[Block] = [(t, t + 1, t + 2) for base in (0, 9, 18) for t in range(base, base + 7)]
SETS = PUNGS + CHOWS


def _fits(blocks: list[Block]) -> bool:
    """At most four copies of each tile."""
    return max(counts(tile for block in blocks for tile in block)) <= 4


#: Four sets + a pair with at most four copies of a tile, as (sets, pair tile).
complete_hands = st.tuples(
    st.lists(st.sampled_from(SETS), min_size=4, max_size=4), st.integers(0, N_KINDS - 1)
).filter(lambda drawn: _fits([*drawn[0], (drawn[1], drawn[1])]))


@settings(derandomize=True, max_examples=300, deadline=None)  # the first builds the tables
@given(complete_hands, st.integers(0, 4))
def test_four_sets_and_a_pair_is_complete(drawn: tuple[list[Block], int], melds: int) -> None:
    """The first ``melds`` sets are declared; the rest stay in the hand."""
    sets, pair = drawn
    concealed = counts([tile for block in sets[melds:] for tile in block] + [pair, pair])
    assert is_complete(concealed, melds)
    assert is_complete(concealed, melds, ALL_SHAPES)
    assert regular_shanten(concealed, melds) == -1
    assert shanten(concealed, melds, ALL_SHAPES) == -1
    for tile in {t for t, n in enumerate(concealed) if n}:
        waiting = concealed.copy()
        waiting[tile] -= 1
        assert tile in waits(waiting, melds)
        assert tile in waits(waiting, melds, ALL_SHAPES)
        assert regular_shanten(waiting, melds) == 0


@settings(derandomize=True, max_examples=300)
@given(
    complete_hands,
    st.integers(0, 13),
    st.none() | st.tuples(st.integers(0, 12), st.integers(0, N_KINDS - 1)),
)
def test_waits_are_the_tiles_that_complete(
    drawn: tuple[list[Block], int], removed: int, swap: tuple[int, int] | None
) -> None:
    """Drop one tile of a complete hand and maybe swap another: waits are the completing tiles.

    Completeness is only checked for tiles with a copy left; a tile whose four copies are all
    held may still be a wait, by shape.
    """
    sets, pair = drawn
    held = [tile for block in sets for tile in block] + [pair, pair]
    del held[removed]
    if swap is not None:
        held[swap[0]] = swap[1]
    assume(max(counts(held)) <= 4)
    waiting = counts(held)
    for shapes in (STANDARD, ALL_SHAPES):
        found = waits(waiting, 0, shapes)
        completing = [
            tile
            for tile in range(N_KINDS)
            if waiting[tile] < 4 and is_complete(_plus(waiting, tile), 0, shapes)
        ]
        assert [tile for tile in found if waiting[tile] < 4] == completing
        assert (shanten(waiting, 0, shapes) == 0) == bool(found)


@settings(derandomize=True, max_examples=300)
@given(
    st.lists(st.integers(0, N_KINDS - 1), min_size=14, max_size=14),
    st.integers(0, 4),
    st.integers(0, 8),
)
def test_hand_shape_agrees_with_the_public_functions(
    drawn: list[int], melds: int, bound: int
) -> None:
    """The trusted fast path gives the checked functions' answers, tile by tile."""
    full = counts(drawn[: 14 - 3 * melds])
    assume(max(full) <= 4)
    shape = HandShape(full.copy(), melds)
    special = (Shape.HONORS_AND_KNITTED, Shape.KNITTED_STRAIGHT)
    assert shape.shanten() == shanten(full, melds)
    assert shape.shanten(ALL_SHAPES) == shanten(full, melds, ALL_SHAPES)
    if melds <= 1:
        assert shape.shanten_below(special, bound) == min(bound, shanten(full, melds, special))
    for tile in {t for t, n in enumerate(full) if n}:
        waiting = full.copy()
        waiting[tile] -= 1
        assert shape.shanten_without(tile) == shanten(waiting, melds)
        assert shape.shanten_without(tile, ALL_SHAPES) == shanten(waiting, melds, ALL_SHAPES)
        assert shape.waits_without(tile, ALL_SHAPES) == waits(waiting, melds, ALL_SHAPES)
        assert shape.counts == full  # the caller's counts are given back unchanged
    if melds < 4:
        hand_13 = full.copy()
        hand_13[drawn[0]] -= 1  # a waiting hand that calls a pong of a tile it holds twice
        pair = next((t for t, n in enumerate(hand_13) if n >= 2), None)
        if pair is not None:
            called = hand_13.copy()
            called[pair] -= 2
            after = HandShape(hand_13, melds).shanten_after_call([pair, pair])
            assert after == shanten(called, melds + 1)


@settings(derandomize=True, max_examples=200)
@given(st.lists(st.integers(0, N_KINDS - 1), min_size=14, max_size=14), st.integers(0, 4))
def test_hand_shape_facts_follow_a_discard_and_a_draw(drawn: list[int], melds: int) -> None:
    """The facts of the hand less a tile, then with a tile drawn, are those of its counts."""
    full = counts(drawn[: 14 - 3 * melds])
    assume(max(full) <= 4)
    shape = HandShape(full.copy(), melds)
    for tile in {t for t, n in enumerate(full) if n}:
        kept = full.copy()
        kept[tile] -= 1
        facts = shape.facts_without(tile)
        assert facts == HandShape(kept, melds).facts
        for new in {tile, drawn[-1]}:
            if kept[new] < 4:
                grown = _plus(kept, new)
                from_facts = HandShape(grown, melds, HandShape.facts_with(facts, new))
                assert from_facts.facts == HandShape(grown, melds).facts
                assert from_facts.shanten() == shanten(grown, melds)


def _plus(counts_: Hand, tile: int) -> Hand:
    grown = counts_.copy()
    grown[tile] += 1
    return grown


# --------------------------------------------------------------------------- reference

#: Our tile codes in MahjongGB notation.  Note J1 is red (7z) and J3 white (5z).
REF_NAMES = (
    *(f"W{rank}" for rank in range(1, 10)),
    *(f"B{rank}" for rank in range(1, 10)),
    *(f"T{rank}" for rank in range(1, 10)),
    *("F1", "F2", "F3", "F4", "J3", "J2", "J1"),
)
REF_CODES = {name: code for code, name in enumerate(REF_NAMES)}
WALL = [tile for tile in range(N_KINDS) for _ in range(4)]
REF_FUNCTIONS: dict[Shape, str] = {
    Shape.STANDARD: "RegularShanten",
    Shape.SEVEN_PAIRS: "SevenPairsShanten",
    Shape.THIRTEEN_ORPHANS: "ThirteenOrphansShanten",
    Shape.HONORS_AND_KNITTED: "HonorsAndKnittedTilesShanten",
    Shape.KNITTED_STRAIGHT: "KnittedStraightShanten",
}
OUR_FUNCTIONS: dict[Shape, Callable[[Hand, int], int]] = {
    Shape.STANDARD: regular_shanten,
    Shape.SEVEN_PAIRS: lambda c, _melds: seven_pairs_shanten(c),
    Shape.THIRTEEN_ORPHANS: lambda c, _melds: thirteen_orphans_shanten(c),
    Shape.HONORS_AND_KNITTED: lambda c, _melds: honors_and_knitted_shanten(c),
    Shape.KNITTED_STRAIGHT: knitted_straight_shanten,
}


@pytest.fixture(scope="module")
def ref() -> ModuleType:
    return pytest.importorskip(
        "MahjongGB", reason="reference library pymahjonggb (module MahjongGB) is not installed"
    )


def _names(spec: str) -> tuple[str, ...]:
    return tuple(REF_NAMES[tile] for tile in parse_tiles(spec))


def test_reference_conventions(ref: ModuleType) -> None:
    """The facts about MahjongGB that the comparison below relies on."""
    nine_gates = ref.RegularShanten(hand=_names("1112345678999m"))
    assert nine_gates == (0, tuple(f"W{rank}" for rank in range(1, 10)))
    # J1 is red 7z: a thirteen-orphans hand holding 1z twice waits on 7z.
    assert ref.ThirteenOrphansShanten(hand=_names("119m19p19s123456z")) == (0, ("J1",))
    # Waits of a ready hand include a tile whose four copies are all held (shape only) ...
    assert ref.RegularShanten(hand=_names("1111m234m456p789p")) == (0, ("W1", "W4"))
    # ... but the useful tiles of a hand that is not ready skip such tiles.
    assert "F1" not in ref.RegularShanten(hand=_names("1111z2222m5555p2z"))[1]
    # Useful tiles come in MahjongGB's own order: characters, bamboo, dots, honors.
    assert ref.ThirteenOrphansShanten(hand=_names("19m19p19s1234567z"))[1][2:4] == ("T1", "T9")
    # MahjongShanten ignores the declared packs apart from checking their format.
    ten = _names("147m258p36s55z")
    pung, chow = (("PENG", "F4", 1),), (("CHI", "W2", 0),)
    assert ref.MahjongShanten(pack=pung, hand=ten) == ref.MahjongShanten(pack=chow, hand=ten)
    # Only hands of 13, 10, 7, 4 or 1 tiles are accepted.
    with pytest.raises(TypeError):
        ref.RegularShanten(hand=_names("11122233344455m"))


def _complete_minus_one(rng: random.Random, blocks: Callable[[], list[Block]]) -> list[int]:
    """Tiles of a random complete shape (at most 4 copies each) with one tile taken out."""
    while True:
        drawn = blocks()
        if _fits(drawn):
            held = [tile for block in drawn for tile in block]
            held.pop(rng.randrange(len(held)))
            return held


def _ready_standard(rng: random.Random, sets: int) -> list[int]:
    def blocks() -> list[Block]:
        pair = rng.randrange(N_KINDS)
        return [*(rng.choice(SETS) for _ in range(sets)), (pair, pair)]

    return _complete_minus_one(rng, blocks)


def _ready_knitted_straight(rng: random.Random, melds: int) -> list[int]:
    def blocks() -> list[Block]:
        pair = rng.randrange(N_KINDS)
        rest = [rng.choice(SETS) for _ in range(1 - melds)]
        return [rng.choice(KNITTED_STRAIGHTS), *rest, (pair, pair)]

    return _complete_minus_one(rng, blocks)


def _ready_seven_pairs(rng: random.Random) -> list[int]:
    def blocks() -> list[Block]:
        kinds = rng.sample(range(N_KINDS), 7)
        if rng.random() < 0.2:
            kinds[1] = kinds[0]  # a concealed 4-of-a-kind as two pairs
        return [(kind, kind) for kind in kinds]

    return _complete_minus_one(rng, blocks)


def _ready_orphans(rng: random.Random) -> list[int]:
    return _complete_minus_one(rng, lambda: [THIRTEEN_ORPHANS, (rng.choice(THIRTEEN_ORPHANS),)])


def _ready_loose(rng: random.Random) -> list[int]:
    return rng.sample([*rng.choice(KNITTED_STRAIGHTS), *HONORS], 13)


def _mutate(rng: random.Random, held: list[int], swaps: int) -> list[int]:
    """Replace ``swaps`` random tiles by random others, keeping at most four copies."""
    out = held.copy()
    for _ in range(swaps):
        have = counts(out)
        out[rng.randrange(len(out))] = rng.choice([t for t in range(N_KINDS) if have[t] < 4])
    return out if max(counts(out)) <= 4 else held


def _hands(seed: int, size: int) -> Iterator[list[int]]:
    """Random hands of ``size`` tiles (13, 10, 7, 4 or 1).

    Cycles through uniform hands and hands made ready for each shape that applies, each
    followed by a copy with one or two tiles swapped (mostly one or two away from ready).
    """
    rng = random.Random(seed)
    melds = (13 - size) // 3
    makers: list[Callable[[], list[int]]] = [
        lambda: rng.sample(WALL, size),
        lambda: _ready_standard(rng, 4 - melds),
    ]
    if size == 13:
        makers += [
            lambda: _ready_seven_pairs(rng),
            lambda: _ready_orphans(rng),
            lambda: _ready_loose(rng),
        ]
    if size in (13, 10):
        makers.append(lambda: _ready_knitted_straight(rng, melds))
    while True:
        for make in makers:
            held = make()
            yield held
            yield _mutate(rng, held, rng.choice((1, 1, 2)))


def _useful(result: tuple[int, tuple[str, ...]]) -> tuple[int, tuple[int, ...]]:
    """A MahjongGB ``(shanten, useful tiles)`` result with our tile codes, ascending."""
    shanten_, useful = result
    return shanten_, tuple(sorted(REF_CODES[name] for name in useful))


def _compare(ref: ModuleType, held: list[int]) -> list[str]:
    """Every disagreement between us and MahjongGB on one hand, as readable lines."""
    counts_ = counts(held)
    melds = (13 - len(held)) // 3
    names = tuple(REF_NAMES[tile] for tile in held)
    label = f"{sorted(held)} melds={melds}"
    problems: list[str] = []
    ready_waits: set[int] = set()
    for shape in ALL_SHAPES:
        if not shape.applies(melds):
            continue
        ref_shanten, ref_useful = _useful(getattr(ref, REF_FUNCTIONS[shape])(hand=names))
        ours = OUR_FUNCTIONS[shape](counts_, melds)
        if ours != ref_shanten:
            problems.append(f"{shape.value} shanten {label}: ours {ours}, ref {ref_shanten}")
        expected = ref_useful if ref_shanten == 0 else ()  # useful tiles = waits when ready
        our_waits = waits(counts_, melds, (shape,))
        if our_waits != expected:
            problems.append(f"{shape.value} waits {label}: ours {our_waits}, ref {expected}")
        ready_waits.update(expected)
    ref_best = ref.MahjongShanten(pack=(("PENG", "F1", 0),) * melds, hand=names)
    our_best = shanten(counts_, melds, ALL_SHAPES)
    if our_best != ref_best:
        problems.append(f"all-shapes shanten {label}: ours {our_best}, ref {ref_best}")
    our_waits = waits(counts_, melds, ALL_SHAPES)
    if our_waits != tuple(sorted(ready_waits)):
        problems.append(f"all-shapes waits {label}: ours {our_waits}, ref {sorted(ready_waits)}")
    return problems


@pytest.mark.parametrize(
    ("size", "count"), [(13, 12_000), (10, 4_000), (7, 2_000), (4, 1_000), (1, 200)]
)
def test_matches_reference_on_random_hands(ref: ModuleType, size: int, count: int) -> None:
    """Every shape's shanten and waits, and the all-shapes minimum, on seeded random hands."""
    hands = _hands(seed=20240 + size, size=size)
    problems: list[str] = []
    ready = 0
    for _ in range(count):
        held = next(hands)
        assert len(held) == size
        assert max(counts(held)) <= 4
        problems += _compare(ref, held)
        ready += shanten(counts(held), (13 - size) // 3, ALL_SHAPES) == 0
    assert not problems, f"{len(problems)} disagreements, first ones:\n" + "\n".join(problems[:10])
    assert ready >= count // 5, f"only {ready} of {count} hands were ready"
