"""天津麻将: general laws of the score — zero-sum, tile order, and the 混's substitutions
agreeing with a brute-force oracle (every way the 混 could stand, a textbook check).
"""

from __future__ import annotations

import functools
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.score import score_json
from paipu.rules.tiles import N_KINDS, parse_tile, tile_name, tile_names
from paipu.rules.variants import get_variant

VARIANT = get_variant("tianjin")
#: Every kind that can be flipped: its 混 are it and the next.
FLIPS = list(range(N_KINDS))


@functools.cache
def _sets(key: tuple[int, ...]) -> bool:
    """Whether the counts split into sets (pungs, chows within a suit): a textbook search."""
    first = next((i for i, n in enumerate(key) if n), None)
    if first is None:
        return True
    rest = list(key)
    if rest[first] >= 3:
        rest[first] -= 3
        if _sets(tuple(rest)):
            return True
        rest[first] += 3
    if first < 27 and first % 9 <= 6 and rest[first + 1] and rest[first + 2]:
        for t in (first, first + 1, first + 2):
            rest[t] -= 1
        if _sets(tuple(rest)):
            return True
    return False


def plain_win(counts: list[int]) -> bool:
    for pair in range(N_KINDS):
        if counts[pair] >= 2:
            counts[pair] -= 2
            ok = _sets(tuple(counts))
            counts[pair] += 2
            if ok:
                return True
    return False


def oracle_win(tiles: list[int], wilds: frozenset[int]) -> bool:
    """Some substitution of the 混 (each any kind, at most 4 of a kind) wins plainly."""
    natural = [0] * N_KINDS
    held = 0
    for t in tiles:
        if t in wilds:
            held += 1
        else:
            natural[t] += 1
    for faces in itertools.combinations_with_replacement(range(N_KINDS), held):
        counts = natural.copy()
        for f in faces:
            counts[f] += 1
        if max(counts) <= 4 and plain_win(counts):
            return True
    return False


@st.composite
def hands(draw, complete: bool = True):
    """14 concealed tiles (4 sets and a pair, or random), 0-2 of them turned into 混, and
    the 混 kinds; the winning tile is one of the 14."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    flipped = draw(st.sampled_from(FLIPS))
    wilds = frozenset((flipped, VARIANT.tile_set.successor(flipped)))
    counts = [0] * N_KINDS
    tiles: list[int] = []
    if complete:
        blocks = 0
        while blocks < 4:
            start = rng.randrange(N_KINDS)
            if rng.random() < 0.5 and start < 27 and start % 9 <= 6:
                block = [start, start + 1, start + 2]
            else:
                block = [start] * 3
            if all(counts[t] + block.count(t) <= 4 for t in block):
                for t in block:
                    counts[t] += 1
                tiles += block
                blocks += 1
        while True:
            pair = rng.randrange(N_KINDS)
            if counts[pair] <= 2:
                counts[pair] += 2
                tiles += [pair, pair]
                break
    else:
        pool = [t for t in range(N_KINDS) for _ in range(4)]
        rng.shuffle(pool)
        tiles = pool[:14]
        for t in tiles:
            counts[t] += 1
    # turn up to two tiles into 混 (copies of a wild kind the set still has)
    for _ in range(draw(st.integers(0, 2))):
        free = [w for w in sorted(wilds) if counts[w] < 4]
        index = rng.randrange(14)
        if not free or tiles[index] in wilds:
            continue
        counts[tiles[index]] -= 1
        tiles[index] = rng.choice(free)
        counts[tiles[index]] += 1
    win = rng.randrange(14)
    rng.shuffle(tiles)
    order = [flipped, VARIANT.tile_set.successor(flipped)]
    return tiles, win, order


def _request(tiles: list[int], win: int, order: list[int], **fields: object) -> dict:
    hand = tiles[:win] + tiles[win + 1 :]
    return {
        "variant": "tianjin",
        "seat": fields.pop("seat", 0),
        "dealer": fields.pop("dealer", 0),
        "hand": tile_names(hand),
        "win_tile": tile_name(tiles[win]),
        "extra": {"wild": tile_names(order), **fields.pop("extra", {})},
        **fields,
    }


@settings(max_examples=40)
@given(
    hands(),
    st.integers(0, 3),
    st.integers(0, 3),
    st.booleans(),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
    st.booleans(),
)
def test_every_legal_score_is_zero_sum(hand, seat, dealer, zuo, la, always) -> None:
    tiles, win, order = hand
    la[dealer] = 0
    answer = score_json(
        _request(
            tiles,
            win,
            order,
            seat=seat,
            dealer=dealer,
            extra={"zuo_zhuang": zuo, "la_zhuang": la},
            rules={"dealer_always_double": always},
        )
    )
    assert answer.error is None, answer.error
    if answer.legal:
        assert answer.deltas is not None and sum(answer.deltas) == 0
        assert answer.deltas[seat] == sum(-d for s, d in enumerate(answer.deltas) if s != seat)
        assert all(d < 0 for s, d in enumerate(answer.deltas) if s != seat)
        assert answer.total is not None and answer.total >= 2


@settings(max_examples=40)
@given(hands(), st.randoms(use_true_random=False))
def test_a_hands_score_is_unchanged_by_the_order_of_its_tiles(hand, rng) -> None:
    tiles, win, order = hand
    body = _request(tiles, win, order)
    first = score_json(body)
    shuffled = list(body["hand"])
    rng.shuffle(shuffled)
    again = score_json(dict(body, hand=shuffled))
    assert first.to_json() == again.to_json()


@settings(max_examples=25)
@given(hands(complete=False) | hands())
def test_wild_substitution_agrees_with_the_brute_force_oracle(hand) -> None:
    """The score finds a winning shape exactly when some substitution of the 混 wins by
    the textbook check; the reading it scores, its 混 replaced by what they stood for, is
    a plain win."""
    tiles, win, order = hand
    answer = score_json(_request(tiles, win, order))
    assert answer.error is None, answer.error
    shaped = answer.legal or answer.total is not None  # 起和 refuses a shape worth 1
    assert shaped == oracle_win(tiles, frozenset(order))
    if answer.legal and "substitutions" in answer.extra:
        counts = [0] * N_KINDS
        for t in tiles:
            counts[t] += 1
        for stood in answer.extra["substitutions"]:
            wild, face = (parse_tile(x) for x in stood.split("→"))
            counts[wild] -= 1
            counts[face] += 1
        assert plain_win(counts)
