"""Tile efficiency (牌效): hand-built positions with known best discards and losses, and the
law that the fast count agrees with a brute force over the public shanten function."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules import efficiency
from paipu.rules.core.tiles import STANDARD
from paipu.rules.core.wild import WildSpec
from paipu.rules.efficiency import (
    best_choice,
    best_tiles,
    discard_choices,
    loss,
    wild_discard_choices,
)
from paipu.rules.shanten import ALL_SHAPES, Shape, clear_caches, shanten
from paipu.rules.tiles import HONORS, N_KINDS, counts, parse_tile, parse_tiles

STANDARD_AND_PAIRS = frozenset({Shape.STANDARD, Shape.SEVEN_PAIRS})


def _choices(spec: str, seen: str = "", **kw: object) -> dict:
    hand = counts(parse_tiles(spec))
    visible = counts(parse_tiles(seen)) if seen else [0] * N_KINDS
    return discard_choices(
        hand, kw.pop("melds", 0), seen=[a + b for a, b in zip(hand, visible, strict=True)], **kw
    )  # type: ignore[arg-type]


def test_the_ready_discard_is_best_and_its_waits_are_counted_live() -> None:
    choices = _choices("123m456p789s55z24s9p")
    best = best_choice(choices)
    assert best.tile == parse_tile("9p")
    assert (best.shanten, best.live, best.useful) == (0, 4, (parse_tile("3s"),))
    # breaking the kanchan goes back a step: every live useful tile of the best is lost
    assert choices[parse_tile("2s")].shanten == 1
    assert loss(choices[parse_tile("2s")], best) == 4


def test_copies_in_sight_are_not_live() -> None:
    best = best_choice(_choices("123m456p789s55z24s9p", seen="3s3s"))
    assert best.live == 2
    dead = best_choice(_choices("123m456p789s55z24s9p", seen="3s3s3s3s"))
    assert (dead.shanten, dead.live, dead.useful) == (0, 0, ())


def test_a_two_sided_wait_beats_a_closed_one_at_equal_shanten() -> None:
    choices = _choices("123m456p789s55z23s8s", wanted=(parse_tile("3s"),))
    best = best_choice(choices)
    assert best.tile == parse_tile("8s") and best.live == 8  # 1s and 4s
    closed = choices[parse_tile("3s")]  # leaves 28s: no wait; shanten 1
    assert closed.shanten == 1 and loss(closed, best) == 8


def test_equal_choices_are_all_best_and_cost_nothing() -> None:
    choices = _choices("1133m5577p99s11z23z", shapes=STANDARD_AND_PAIRS)
    assert best_tiles(choices) == (parse_tile("2z"), parse_tile("3z"))
    best = best_choice(choices)
    assert (best.shanten, best.live) == (0, 3)
    assert loss(choices[parse_tile("3z")], best) == 0


def test_far_shapes_count_every_kind() -> None:
    """Thirteen orphans' useful tiles are far from the tiles held: 13 kinds, 3 live each."""
    best = best_choice(_choices("19m19p19s1234567z5m", shapes=ALL_SHAPES))
    assert best.tile == parse_tile("5m")
    assert (best.shanten, best.live, len(best.useful)) == (0, 39, 13)
    # without the special shape the same hand is far from ready
    assert best_choice(_choices("19m19p19s1234567z5m")).shanten > 0


def test_kinds_and_allowed_discards_restrict_the_choices() -> None:
    no_honors = set(range(N_KINDS)) - set(HONORS)
    choices = _choices("123m456p789s55z24s9p", kinds=no_honors, discards=parse_tiles("2s4s"))
    assert set(choices) == set(parse_tiles("2s4s"))
    assert all(t not in HONORS for c in choices.values() for t in c.useful)


def test_melds_shrink_the_hand() -> None:
    best = best_choice(_choices("55z24s9p", melds=3))
    assert (best.tile, best.shanten, best.live) == (parse_tile("9p"), 0, 4)


def _brute(hand: list[int], shapes: frozenset[Shape]) -> dict[int, tuple[int, tuple[int, ...]]]:
    out = {}
    for tile in range(N_KINDS):
        if not hand[tile]:
            continue
        left = hand.copy()
        left[tile] -= 1
        value = shanten(left, 0, shapes)
        useful = []
        for draw in range(N_KINDS):
            if hand[draw] >= 4:
                continue
            left[draw] += 1
            if shanten(left, 0, shapes) < value:
                useful.append(draw)
            left[draw] -= 1
        out[tile] = (value, tuple(useful))
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, N_KINDS - 1), min_size=14, max_size=14).filter(
        lambda tiles: max(tiles.count(t) for t in tiles) <= 4
    ),
    st.sampled_from([frozenset({Shape.STANDARD}), STANDARD_AND_PAIRS, ALL_SHAPES]),
)
def test_agrees_with_brute_force(tiles: list[int], shapes: frozenset[Shape]) -> None:
    hand = counts(tiles)
    choices = discard_choices(hand, 0, seen=hand, shapes=shapes, wanted=tuple(set(tiles)))
    brute = _brute(hand, shapes)
    assert {t: c.shanten for t, c in choices.items()} == {t: v for t, (v, _) in brute.items()}
    for tile, choice in choices.items():
        assert choice.useful == brute[tile][1], tile
        assert choice.live == sum(4 - hand[t] for t in brute[tile][1])


def test_the_memo_of_a_seat_gives_the_same_answers() -> None:
    """A seat that draws 7z and throws it leaves the hand it left a turn before: the memo
    answers for it, and drops the kinds that have since come into sight."""
    memo: dict = {}
    first = _choices("12m45p78s123z55z6z9s9m", memo=memo)  # 2-shanten: counted draw by draw
    assert memo
    again = _choices("12m45p78s123z55z6z9s7z", seen="3m3m3m3m", memo=memo)  # 9m out, 7z in
    fresh = _choices("12m45p78s123z55z6z9s7z", seen="3m3m3m3m")
    assert again == fresh
    thrown, drawn = parse_tile("9m"), parse_tile("7z")
    assert again[drawn].useful == tuple(t for t in first[thrown].useful if t != parse_tile("3m"))


def test_answers_kept_across_hands_are_dropped_with_the_shape_tables() -> None:
    """The group-by-group answers are kept by the shape tables' profile ids: once the
    tables are cleared (and their ids free for other profiles), the answers go too."""
    spec, other = "12m45p78s123z55z6z9s9m", "13m46p79s1123z5z66z"
    clear_caches()
    alone = _choices(spec)
    kept = len(efficiency._SIGNATURES)
    assert kept
    _choices(other)
    assert len(efficiency._SIGNATURES) > kept
    clear_caches()
    assert _choices(spec) == alone
    assert len(efficiency._SIGNATURES) == kept


# ---------------------------------------------------------------- hands with wilds

ZHONG = parse_tile("5z")  # a fixed wild (红中 / 白板做鬼 style) for these tests


def _wild_spec(*tiles: int) -> WildSpec:
    return WildSpec.fixed(STANDARD, tiles)


def test_a_wild_is_kept_where_the_plain_count_would_throw_it() -> None:
    """An isolated honour that is a wild stands for any tile: the plain count would discard
    it (it joins nothing), the wild-aware count keeps it and drops the other loose honour."""
    hand = counts(parse_tiles("123m456p789s11z3z5z4m"))
    plain = best_choice(discard_choices(hand, 0, seen=hand))
    assert plain.tile in (parse_tile("3z"), ZHONG)
    wild = wild_discard_choices(hand, 0, _wild_spec(ZHONG), seen=hand)
    best = best_choice(wild)
    assert ZHONG not in best_tiles(wild) and best.shanten == 0
    assert wild[ZHONG].shanten == 1  # throwing the wild goes back a step


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, N_KINDS - 1), min_size=14, max_size=14).filter(
        lambda tiles: max(tiles.count(t) for t in tiles) <= 4
    ),
    st.sampled_from([frozenset({Shape.STANDARD}), STANDARD_AND_PAIRS]),
)
def test_without_wilds_the_wild_count_is_the_plain_one(
    tiles: list[int], shapes: frozenset[Shape]
) -> None:
    hand = counts(tiles)
    wanted = tuple(set(tiles))
    plain = discard_choices(hand, 0, seen=hand, shapes=shapes, wanted=wanted)
    wild = wild_discard_choices(hand, 0, WildSpec.none(), seen=hand, shapes=shapes, wanted=wanted)
    assert wild == plain


def _least_by_substitution(hand: list[int], wild: int) -> int:
    """The brute-force oracle: every face for each copy of the wild held, the plain
    shanten of each hand so made, the least of them."""
    copies = hand[wild]
    natural = hand.copy()
    natural[wild] = 0
    best = 99
    faces = list(range(N_KINDS))

    def place(left: int, start: int) -> None:
        nonlocal best
        if left == 0:
            best = min(best, shanten(natural, 0, frozenset({Shape.STANDARD})))
            return
        for face in faces[start:]:
            if natural[face] >= 4:
                continue
            natural[face] += 1
            place(left - 1, face)
            natural[face] -= 1

    place(copies, 0)
    return best


@settings(max_examples=4, deadline=None)
@given(
    st.lists(st.integers(0, N_KINDS - 1), min_size=13, max_size=13).filter(
        lambda tiles: max(tiles.count(t) for t in tiles) <= 4 and tiles.count(ZHONG) == 0
    )
)
def test_one_wild_agrees_with_substituting_it(tiles: list[int]) -> None:
    """A hand of 13 tiles and one wild: each discard's shanten and useful draws are what
    substituting the wild every way gives."""
    hand = counts([*tiles, ZHONG])
    spec = _wild_spec(ZHONG)
    choices = wild_discard_choices(hand, 0, spec, seen=hand, wanted=(*set(tiles), ZHONG))
    for tile, choice in choices.items():
        left = hand.copy()
        left[tile] -= 1
        value = _least_by_substitution(left, ZHONG)
        assert choice.shanten == value, tile
        useful = []
        for draw in range(N_KINDS):
            if hand[draw] >= 4:  # every copy in sight: not live, not listed
                continue
            left[draw] += 1
            if _least_by_substitution(left, ZHONG) < value:
                useful.append(draw)
            left[draw] -= 1
        assert choice.useful == tuple(useful), tile
