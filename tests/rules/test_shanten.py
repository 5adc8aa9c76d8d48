"""Tests for paipu.rules.shanten: hand-checked hands, Hypothesis laws, the MahjongGB reference."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paipu.rules.shanten import (
    ALL_SHAPES,
    KNITTED_STRAIGHTS,
    THIRTEEN_ORPHANS,
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


def hand(spec: str) -> Hand:
    return counts(parse_tiles(spec))


def tiles(spec: str) -> tuple[int, ...]:
    return tuple(parse_tiles(spec))


# --------------------------------------------------------------------------- hand-checked


@pytest.mark.parametrize(
    ("spec", "melds", "shapes", "expected"),
    [
        ("1112345678999m", 0, (Shape.STANDARD,), "123456789m"),  # 九莲宝灯 nine gates
        ("19m19p19s1234567z", 0, (Shape.THIRTEEN_ORPHANS,), "19m19p19s1234567z"),  # 13-way
        ("19m19p19s1234567z", 0, (Shape.STANDARD,), ""),
        ("119m19p19s123456z", 0, ALL_SHAPES, "7z"),
        ("1122m3344p5566s7z", 0, (Shape.SEVEN_PAIRS,), "7z"),
        ("1111m3344p5566s7z", 0, (Shape.SEVEN_PAIRS,), "7z"),  # a kong counts as two pairs
        ("1122m3344p5566s7z", 0, (Shape.STANDARD,), ""),
        ("1122m3344p5566s7z", 0, (Shape.STANDARD, Shape.THIRTEEN_ORPHANS), ""),
        ("1122m3344p5566s7z", 3, (Shape.SEVEN_PAIRS,), None),  # wrong size
        ("147m258p36s77z555z", 0, (Shape.KNITTED_STRAIGHT,), "9s"),  # 组合龙 missing one
        ("147m258p23369s55z", 0, (Shape.KNITTED_STRAIGHT,), "14s"),  # straight + 23s + pair
        ("147m258p23369s55z", 0, ALL_SHAPES, "14s"),
        ("147m258p36s55z", 1, (Shape.KNITTED_STRAIGHT,), "9s"),
        ("147m258p36s55z", 2, (Shape.KNITTED_STRAIGHT,), None),
        ("147m258p369s1234z", 0, (Shape.HONORS_AND_KNITTED,), "567z"),  # 全不靠
        ("147m258p369s1234z", 0, ALL_SHAPES, "567z"),
        ("1111m234m456p789p", 0, (Shape.STANDARD,), "14m"),  # 1m by shape, all four held
        ("1122334455667m", 0, (Shape.STANDARD,), "147m"),
        ("1122334455667m", 0, ALL_SHAPES, "147m"),
        ("2344m", 3, (Shape.STANDARD,), "14m"),
        ("5z", 4, (Shape.STANDARD,), "5z"),
        ("5z", 4, ALL_SHAPES, "5z"),
        ("19m19p19s1234z567p", 0, ALL_SHAPES, ""),
    ],
)
def test_waits_hand_checked(
    spec: str, melds: int, shapes: tuple[Shape, ...], expected: str | None
) -> None:
    counts_ = hand(spec)
    if expected is None:
        if sum(counts_) != 13 - 3 * melds:
            with pytest.raises(ValueError, match="must hold"):
                waits(counts_, melds, shapes)
        else:
            assert waits(counts_, melds, shapes) == ()
        return
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
        ("147m258p369s1234z", regular_shanten, 8),  # worst possible 13-tile hand
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


def test_shanten_takes_the_best_shape() -> None:
    counts_ = hand("1199m1199p1199s1z")
    assert shanten(counts_) == 3
    assert shanten(counts_, shapes=ALL_SHAPES) == 0
    assert shanten(counts_, shapes=(Shape.SEVEN_PAIRS,)) == 0
    assert shanten(hand("147m258p369s1234z"), shapes=ALL_SHAPES) == 0


def test_melds_limit_the_special_shapes() -> None:
    ten = hand("147m258p36s55z1z")  # 11 tiles: one meld, complete-size hand
    assert knitted_straight_shanten(ten, melds=1) == 0
    assert shanten(ten, 1, ALL_SHAPES) == 0
    assert shanten(ten, 1) > 0
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
    ],
)
def test_bad_input_fails_loudly(counts_: Hand, melds: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        shanten(counts_, melds)


def test_is_complete_checks_the_size() -> None:
    with pytest.raises(ValueError, match="must hold 14 tiles"):
        is_complete(hand("1112345678999m"))


def test_list_and_tuple_agree() -> None:
    counts_ = hand("1112345678999m")
    assert waits(counts_) == waits(tuple(counts_))
    assert shanten(counts_, shapes=ALL_SHAPES) == shanten(tuple(counts_), shapes=ALL_SHAPES)


# --------------------------------------------------------------------------- Hypothesis laws

PUNGS = [(tile, tile, tile) for tile in range(N_KINDS)]
CHOWS = [(tile, tile + 1, tile + 2) for base in (0, 9, 18) for tile in range(base, base + 7)]
SETS = PUNGS + CHOWS


def _fits(blocks: list[tuple[int, ...]]) -> bool:
    held = counts(tile for block in blocks for tile in block)
    return max(held) <= 4


#: Four sets + a pair with at most four copies of a tile, as (sets, pair tile).
complete_hands = st.tuples(
    st.lists(st.sampled_from(SETS), min_size=4, max_size=4), st.integers(0, N_KINDS - 1)
).filter(lambda drawn: _fits([*drawn[0], (drawn[1], drawn[1])]))


@given(complete_hands, st.integers(0, 4))
def test_four_sets_and_a_pair_is_complete(
    drawn: tuple[list[tuple[int, ...]], int], melds: int
) -> None:
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


# --------------------------------------------------------------------------- reference

#: Our tile codes in MahjongGB notation.  Note J1 is red (7z) and J3 white (5z).
REF_NAMES = (
    *(f"W{rank}" for rank in range(1, 10)),
    *(f"B{rank}" for rank in range(1, 10)),
    *(f"T{rank}" for rank in range(1, 10)),
    "F1",
    "F2",
    "F3",
    "F4",
    "J3",
    "J2",
    "J1",
)
REF_CODES = {name: code for code, name in enumerate(REF_NAMES)}
WALL = [tile for tile in range(N_KINDS) for _ in range(4)]


@pytest.fixture(scope="module")
def ref() -> ModuleType:
    return pytest.importorskip(
        "MahjongGB", reason="reference library pymahjonggb (module MahjongGB) is not installed"
    )


def test_reference_conventions(ref: ModuleType) -> None:
    """The facts about MahjongGB that the comparison below relies on."""
    nine_gates = tuple(REF_NAMES[t] for t in parse_tiles("1112345678999m"))
    assert ref.RegularShanten(hand=nine_gates) == (0, tuple(f"W{r}" for r in range(1, 10)))
    # J1 is red 7z: a thirteen-orphans hand holding 1z twice waits on 7z.
    pair_hand = tuple(REF_NAMES[t] for t in parse_tiles("119m19p19s123456z"))
    assert ref.ThirteenOrphansShanten(hand=pair_hand) == (0, ("J1",))
    # Waits of a ready hand include a tile whose four copies are all held (shape only) ...
    pure = tuple(REF_NAMES[t] for t in parse_tiles("1111m234m456p789p"))
    assert ref.RegularShanten(hand=pure) == (0, ("W1", "W4"))
    # ... but useful tiles of a hand that is not ready skip such tiles.
    kongs = tuple(REF_NAMES[t] for t in parse_tiles("1111z2222m5555p2z"))
    assert "F1" not in ref.RegularShanten(hand=kongs)[1]
    # Useful tiles come in MahjongGB's own order: characters, bamboo, dots, honors.
    orphans = tuple(REF_NAMES[t] for t in parse_tiles("19m19p19s1234567z"))
    assert ref.ThirteenOrphansShanten(hand=orphans)[1][2:4] == ("T1", "T9")
    # MahjongShanten ignores the declared packs apart from checking them.
    ten = tuple(REF_NAMES[t] for t in parse_tiles("147m258p36s55z1z")[:10])
    assert ref.MahjongShanten(pack=(("PENG", "F4", 1),), hand=ten) == ref.MahjongShanten(
        pack=(("CHI", "W2", 0),), hand=ten
    )


def _to_counts(drawn: list[int]) -> Hand:
    return counts(drawn)


def _ready_standard(rng: random.Random, sets: int) -> list[int]:
    while True:
        blocks = [rng.choice(SETS) for _ in range(sets)]
        pair = rng.randrange(N_KINDS)
        blocks.append((pair, pair))
        if _fits(blocks):
            drawn = [tile for block in blocks for tile in block]
            drawn.pop(rng.randrange(len(drawn)))
            return drawn


def _ready_seven_pairs(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(N_KINDS), 7)
    if rng.random() < 0.2:
        kinds[1] = kinds[0]  # a concealed 4-of-a-kind as two pairs
    drawn = [tile for kind in kinds for tile in (kind, kind)]
    drawn.pop(rng.randrange(len(drawn)))
    return drawn


def _ready_orphans(rng: random.Random) -> list[int]:
    drawn = [*THIRTEEN_ORPHANS, rng.choice(THIRTEEN_ORPHANS)]
    drawn.pop(rng.randrange(len(drawn)))
    return drawn


def _ready_loose(rng: random.Random) -> list[int]:
    pool = [*rng.choice(KNITTED_STRAIGHTS), *HONORS]
    return rng.sample(pool, 13)


def _ready_knitted_straight(rng: random.Random, melds: int = 0) -> list[int]:
    while True:
        blocks = [rng.choice(KNITTED_STRAIGHTS)]
        blocks += [rng.choice(SETS) for _ in range(1 - melds)]
        pair = rng.randrange(N_KINDS)
        blocks.append((pair, pair))
        if _fits(blocks):
            drawn = [tile for block in blocks for tile in block]
            drawn.pop(rng.randrange(len(drawn)))
            return drawn


def _mutate(rng: random.Random, drawn: list[int], swaps: int) -> list[int]:
    """Replace ``swaps`` tiles at random, keeping at most four copies of a tile."""
    out = drawn.copy()
    for _ in range(swaps):
        held = counts(out)
        out[rng.randrange(len(out))] = rng.choice([t for t in range(N_KINDS) if held[t] < 4])
        if max(counts(out)) > 4:
            return drawn
    return out


def _hands(seed: int, size: int) -> Iterator[list[int]]:
    """Random hands of ``size`` tiles (13, 10, 7, 4 or 1): uniform, ready, and near-ready."""
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
            lambda: _ready_knitted_straight(rng),
        ]
    if size == 10:
        makers.append(lambda: _ready_knitted_straight(rng, melds=1))
    while True:
        for make in makers:
            drawn = make()
            yield drawn
            yield _mutate(rng, drawn, rng.choice((1, 1, 2)))


def _useful(result: tuple[int, tuple[str, ...]]) -> tuple[int, tuple[int, ...]]:
    shanten_, useful = result
    return shanten_, tuple(sorted(REF_CODES[name] for name in useful))


REF_FUNCTIONS: dict[Shape, str] = {
    Shape.STANDARD: "RegularShanten",
    Shape.SEVEN_PAIRS: "SevenPairsShanten",
    Shape.THIRTEEN_ORPHANS: "ThirteenOrphansShanten",
    Shape.HONORS_AND_KNITTED: "HonorsAndKnittedTilesShanten",
    Shape.KNITTED_STRAIGHT: "KnittedStraightShanten",
}
OUR_FUNCTIONS: dict[Shape, Callable[[Hand, int], int]] = {
    Shape.STANDARD: regular_shanten,
    Shape.SEVEN_PAIRS: lambda c, _m: seven_pairs_shanten(c),
    Shape.THIRTEEN_ORPHANS: lambda c, _m: thirteen_orphans_shanten(c),
    Shape.HONORS_AND_KNITTED: lambda c, _m: honors_and_knitted_shanten(c),
    Shape.KNITTED_STRAIGHT: knitted_straight_shanten,
}


def _compare(ref: ModuleType, drawn: list[int]) -> list[str]:
    """Every disagreement between us and MahjongGB on one hand, as readable lines."""
    counts_ = _to_counts(drawn)
    melds = (13 - len(drawn)) // 3
    names = tuple(REF_NAMES[tile] for tile in drawn)
    label = f"{sorted(drawn)} melds={melds}"
    problems: list[str] = []
    ready_waits: set[int] = set()
    for shape in ALL_SHAPES:
        if not shape.applies(melds):
            continue
        ref_shanten, ref_waits = _useful(getattr(ref, REF_FUNCTIONS[shape])(hand=names))
        ours = OUR_FUNCTIONS[shape](counts_, melds)
        if ours != ref_shanten:
            problems.append(f"{shape.value} shanten {label}: ours {ours}, ref {ref_shanten}")
        our_waits = waits(counts_, melds, (shape,))
        expected = ref_waits if ref_shanten == 0 else ()
        if our_waits != expected:
            problems.append(f"{shape.value} waits {label}: ours {our_waits}, ref {expected}")
        if ref_shanten == 0:
            ready_waits.update(ref_waits)
    packs = (("PENG", "F1", 0),) * melds
    ref_best = ref.MahjongShanten(pack=packs, hand=names)
    if shanten(counts_, melds, ALL_SHAPES) != ref_best:
        problems.append(f"all-shapes shanten {label}: ours {shanten(counts_, melds, ALL_SHAPES)}")
    if waits(counts_, melds, ALL_SHAPES) != tuple(sorted(ready_waits)):
        problems.append(f"all-shapes waits {label}: ours {waits(counts_, melds, ALL_SHAPES)}")
    return problems


@pytest.mark.parametrize(("size", "count"), [(13, 4000), (10, 1200), (7, 600), (4, 400), (1, 100)])
def test_matches_reference_on_random_hands(ref: ModuleType, size: int, count: int) -> None:
    hands = _hands(seed=20240 + size, size=size)
    problems: list[str] = []
    ready = 0
    for _ in range(count):
        drawn = next(hands)
        assert len(drawn) == size
        assert max(counts(drawn)) <= 4
        problems += _compare(ref, drawn)
        ready += shanten(_to_counts(drawn), (13 - size) // 3, ALL_SHAPES) == 0
    assert not problems, f"{len(problems)} disagreements, first ones:\n" + "\n".join(problems[:10])
    assert ready >= count // 4, "the generators should give plenty of ready hands"
