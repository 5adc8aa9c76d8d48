"""Hypothesis laws of Nanchang scoring: the settlement is zero-sum, a hand's score does not
depend on the order of its tiles, and the 精 readings agree with a brute-force oracle that
tries every substitution of the 精 and checks each shape by its textbook definition."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from nanchang_helpers import request

from paipu.rules.score import score_json
from paipu.rules.settlement import transfers
from paipu.rules.tiles import N_KINDS, parse_tile, tile_name
from paipu.rules.variants.nanchang.fans import TILE_SET, Jing, NanchangHand, candidates
from paipu.rules.variants.nanchang.settlement import BaWang, Feed, jing_payments

INDICATOR = st.integers(0, N_KINDS - 1)
SEATS = st.integers(0, 3)


def _successor(tile: int) -> int:
    return TILE_SET.successor(tile)


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A natural 14-tile hand (4 sets + pair, seven pairs or 十三烂), as codes, and a seed."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    kind = draw(st.sampled_from(["standard", "standard", "pairs", "loose"]))
    while True:
        used: Counter[int] = Counter()
        tiles: list[int] = []
        if kind == "pairs":
            for tile in rng.sample(range(N_KINDS), 7):
                tiles += [tile, tile]
        elif kind == "loose":
            honours = rng.sample(range(27, 34), rng.choice([5, 6, 7]))
            suited: list[int] = []
            for suit in range(3):
                ranks = rng.choice(
                    [(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 3, 7), (0, 4, 8), (1, 5, 8)]
                )
                suited += [suit * 9 + r for r in ranks]
            tiles = honours + rng.sample(suited, 14 - len(honours))
        else:
            for _ in range(4):
                if rng.random() < 0.5:
                    suit = rng.randrange(3)
                    start = suit * 9 + rng.randrange(7)
                    tiles += [start, start + 1, start + 2]
                else:
                    tile = rng.randrange(N_KINDS)
                    tiles += [tile] * 3
            pair = rng.randrange(N_KINDS)
            tiles += [pair, pair]
        used.update(tiles)
        if max(used.values()) <= 4:
            return tiles, rng.randrange(2**32)


def _with_jing(tiles: list[int], seed: int, zheng: int, swaps: int) -> list[int]:
    """Replace up to ``swaps`` tiles by 精 (copies allowing)."""
    rng = random.Random(seed)
    out = list(tiles)
    jing = [zheng, _successor(zheng)]
    for _ in range(swaps):
        tile = rng.choice(jing)
        if out.count(tile) < 4:
            out[rng.randrange(len(out))] = tile
    return out


# ---------------------------------------------------------------------- the oracle


def _standard(counts: list[int], sets: int) -> bool:
    """Textbook: the first tile held starts a pung or a chow, recursively; one pair."""

    def sets_only(c: list[int]) -> bool:
        first = next((t for t in range(N_KINDS) if c[t]), None)
        if first is None:
            return True
        if c[first] >= 3:
            c[first] -= 3
            ok = sets_only(c)
            c[first] += 3
            if ok:
                return True
        if first < 27 and first % 9 <= 6 and c[first + 1] and c[first + 2]:
            for t in (first, first + 1, first + 2):
                c[t] -= 1
            ok = sets_only(c)
            for t in (first, first + 1, first + 2):
                c[t] += 1
            return ok
        return False

    for pair in range(N_KINDS):
        if counts[pair] >= 2:
            counts[pair] -= 2
            ok = sets_only(counts)
            counts[pair] += 2
            if ok:
                return True
    return False


def _pungs(counts: list[int]) -> bool:
    return sorted(n for n in counts if n) in ([2, 3, 3, 3, 3],) or (
        all(n in (0, 2, 3) for n in counts) and sum(n == 2 for n in counts) == 1
    )


def _loose(counts: list[int], stars: bool) -> bool:
    if max(counts) > 1 or sum(counts) != 14:
        return False
    for suit in range(3):
        ranks = [r for r in range(9) if counts[suit * 9 + r]]
        if any(b - a < 3 for a, b in itertools.pairwise(ranks)):
            return False
    return not stars or all(counts[t] for t in range(27, 34))


def oracle_shapes(counts: list[int]) -> set[str]:
    out = set()
    if _standard(counts, 4):
        out.add("ping_hu")
        if _pungs(counts):
            out.add("big_seven_pairs")
    if all(n % 2 == 0 for n in counts):
        out.add("small_seven_pairs")
    if _loose(counts, False):
        out.add("thirteen_lan")
    if _loose(counts, True):
        out.add("seven_star_lan")
    return out


def oracle(tiles: list[int], jing: list[int]) -> tuple[set[str], set[str]]:
    """(shapes by some substitution of the 精, shapes with every 精 as itself)."""
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    natural = oracle_shapes(counts)
    wild = [t for t in tiles if t in jing]
    rest = [t for t in tiles if t not in jing]
    found: set[str] = set(natural)
    for faces in itertools.combinations_with_replacement(range(N_KINDS), len(wild)):
        c = [0] * N_KINDS
        for t in (*rest, *faces):
            c[t] += 1
        if max(c) <= 4:
            found |= oracle_shapes(c)
    return found, natural


@settings(max_examples=20, deadline=None)
@given(winning_hands(), INDICATOR, st.sampled_from([0, 1, 1, 2]), st.data())
def test_jing_readings_agree_with_the_brute_force_oracle(
    hand: tuple[list[int], int], zheng: int, swaps: int, data: st.DataObject
) -> None:
    tiles = _with_jing(hand[0], hand[1], zheng, swaps)
    jing_tiles = [zheng, _successor(zheng)]
    win = data.draw(st.sampled_from(tiles))
    rest = list(tiles)
    rest.remove(win)
    found = candidates(NanchangHand.of(rest, (), win), Jing.of(zheng, jing_tiles[1]))
    expected, natural = oracle(tiles, jing_tiles)
    assert {c.shape for c in found} == expected
    assert {c.shape for c in found if c.natural} == natural


@settings(max_examples=40, deadline=None)
@given(winning_hands(), INDICATOR, st.integers(0, 2), SEATS, SEATS, st.data())
def test_settlement_is_zero_sum_and_ignores_tile_order(
    hand: tuple[list[int], int], zheng: int, swaps: int, seat: int, dealer: int, data: st.DataObject
) -> None:
    tiles = _with_jing(hand[0], hand[1], zheng, swaps)
    win = tiles.pop(data.draw(st.integers(0, 13)))
    discarder = data.draw(st.sampled_from([None, *[s for s in range(4) if s != seat]]))
    flags = data.draw(st.sampled_from([{}, {"kong_replacement": True}, {"robbing_kong": True}]))
    if discarder is None and flags.get("robbing_kong"):
        flags = {}
    if discarder is not None and flags.get("kong_replacement"):
        flags = {}
    rules = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "discard_pays": st.sampled_from(["all", "discarder"]),
                "rob_kong_pays_all": st.booleans(),
                "da_qi_dui_base": st.sampled_from([2, 4]),
                "de_zhong_de": st.sampled_from(["replace", "extra"]),
            },
        )
    )
    extra = {"streak": data.draw(st.integers(0, 5)), "others_hold_jing": data.draw(st.booleans())}
    wild = [tile_name(zheng), tile_name(_successor(zheng))]
    names = [tile_name(t) for t in tiles]
    obj = request(
        "", tile_name(win), wild=wild, seat=seat, dealer=dealer, flags=flags, rules=rules,
        extra=extra, **{"from": discarder},
    )  # fmt: skip
    obj["hand"] = names
    answer = score_json(obj)
    assert answer.error is None and answer.legal, answer
    assert answer.deltas is not None and sum(answer.deltas) == 0
    assert answer.deltas[seat] > 0
    shuffled = list(names)
    random.Random(hand[1]).shuffle(shuffled)
    again = score_json({**obj, "hand": list(reversed(shuffled))})
    assert again.to_json() == answer.to_json()


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=4, max_size=4),
    st.sampled_from(list(BaWang)),
    st.one_of(st.none(), st.tuples(SEATS, SEATS, st.integers(1, 2), st.booleans())),
)
def test_jing_points_are_zero_sum(
    points: list[int], ba_wang: BaWang, feed: tuple[int, int, int, bool] | None
) -> None:
    feeds = None
    if feed is not None and feed[0] != feed[1]:
        feeds = {feed[0]: Feed(feed[0], feed[1], feed[2], feed[3])}
    payments = jing_payments(points, ba_wang=ba_wang, feeds=feeds)
    assert sum(transfers(4, payments)) == 0
    assert all(amount > 0 and payer != receiver for payer, receiver, amount in payments)


def test_the_oracle_knows_the_shapes() -> None:
    counts = [0] * N_KINDS
    for name in (
        "1m",
        "4m",
        "7m",
        "2p",
        "5p",
        "8p",
        "3s",
        "1z",
        "2z",
        "3z",
        "4z",
        "5z",
        "6z",
        "7z",
    ):
        counts[parse_tile(name)] += 1
    assert oracle_shapes(counts) == {"thirteen_lan", "seven_star_lan"}
