"""天津麻将: general laws of the score — zero-sum, tile order, and the 混's substitutions
agreeing with a brute-force oracle (every way the 混 could stand, a textbook check).
"""

from __future__ import annotations

import functools
import itertools
import os
import random

from hypothesis import assume, given, settings
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


@st.composite
def dragon_hands(draw):
    """A 龙 (1-9 of a suit) and a set and pair beside it, 0-2 tiles as 混, the tile won any
    of the 14 (a 5万 now and then): the hands where 捉五, 龙 and 本混龙 meet the 混."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    suit = rng.randrange(3)
    tiles = list(range(9 * suit, 9 * suit + 9))
    tiles += [4, 3, 5] if rng.random() < 0.5 else [27 + rng.randrange(7)] * 3
    pair = rng.randrange(27, 34)
    tiles += [pair, pair]
    flipped = draw(st.sampled_from(FLIPS))
    order = [flipped, VARIANT.tile_set.successor(flipped)]
    counts = [tiles.count(t) for t in range(N_KINDS)]
    for _ in range(draw(st.integers(0, 2))):
        index = rng.randrange(14)
        free = [w for w in order if counts[w] < 4]
        if free and tiles[index] not in order:
            counts[tiles[index]] -= 1
            tiles[index] = rng.choice(free)
            counts[tiles[index]] += 1
    assume(max(counts) <= 4)
    win = next((i for i, t in enumerate(tiles) if t == 4), rng.randrange(14))
    if rng.random() < 0.3:
        win = rng.randrange(14)
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


# ---------------------------------------------------------------------- the value, by readings


def _jokers(reading) -> list[int]:
    out = [0] * N_KINDS
    for _, face in reading.wilds:
        out[face] += 1
    return out


def reading_value(reading, win: int, wilds: frozenset[int]) -> int:
    """The value of one reading of the core (``decompositions``), priced as the digest says:
    (捉五 3 + 龙 4, or 1) × 本混龙 2 × 双混吊 / 混吊 2 × 素 2 — the textbook way, reading by
    reading, the tile drawn placed in each group it can be, against which the layouts of
    fans.py are checked."""
    win_is_wild = win in wilds
    long_base = 0
    factor = 1
    for suit in range(3):
        low = 9 * suit
        if {low, low + 3, low + 6} <= set(reading.chows):
            long_base = 4
            if any(t < 27 and t // 9 == suit for t in wilds):
                factor *= 2
            break
    if not reading.wilds:  # 素: no 混 held
        zhuo = 3 in reading.chows and win == 4
        return ((3 if zhuo else 0) + long_base or 1) * factor * 2
    jokers = _jokers(reading)
    need = 2 if win_is_wild else 1
    # the tile drawn elsewhere than a 4-5-6万: no 捉五; does its group close on 混?
    closes = (win_is_wild or reading.pair == win) and jokers[reading.pair] >= need
    for pung in reading.pungs:
        closes |= (win_is_wild or pung == win) and jokers[pung] >= need + 1
    for low in reading.chows:
        run = (low, low + 1, low + 2)
        if win_is_wild:
            closes |= all(jokers[t] for t in run)
        else:
            closes |= win in run and all(jokers[t] for t in run if t != win)
    values = [(long_base or 1) * factor * (2 if closes else 1)]
    # the tile drawn in a 4-5-6万: 捉五 (the 5万 won), 双混吊 when its 4万 and 6万 are 混
    if 3 in reading.chows and win == 4 and (not win_is_wild or jokers[4]):
        shuang = jokers[3] >= 1 and jokers[5] >= 1
        values.append((3 + long_base) * factor * (2 if shuang else 1))
    return max(values)


@settings(max_examples=int(os.environ.get("TIANJIN_EXAMPLES", "30")))
@given(hands() | dragon_hands())
def test_the_value_is_the_best_reading_of_the_core(hand) -> None:
    """With at most two 混 held (the core lists every reading quickly), the score is the most
    valuable of the core's readings, priced reading by reading."""
    from paipu.rules.core.shanten import decompositions
    from paipu.rules.core.wild import WildSpec

    tiles, win, order = hand
    wilds = frozenset(order)
    if sum(t in wilds for t in tiles) > 2:
        return
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    spec = WildSpec.from_indicator(VARIANT.tile_set, order[0], (0, 1))
    readings = decompositions(counts, spec, 0)
    answer = score_json(_request(tiles, win, order))
    if not readings:
        assert not answer.legal and answer.total is None
        return
    best = max(reading_value(r, tiles[win], wilds) for r in readings)
    assert answer.total == best, (answer.extra, best)
