"""常州 / 常山 财神: laws over generated hands — settlement is zero-sum, a hand's score does
not depend on the order of its tiles, and the 财神 substitutions agree with a brute-force
oracle (every tile a 财神 could stand for, the plain checks of rules/shanten.py)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from changzhou_helpers import request
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paipu.rules import shanten as plain
from paipu.rules.score import score_json
from paipu.rules.tiles import parse_tile, tile_name

CAISHEN = parse_tile("3m")
WHITE = parse_tile("5z")
KINDS = 34
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """Four sets and a pair as faces (3m written as 白板, its stand-in), then up to two tiles
    turned into 财神; returns (14 tiles, index of the winning tile)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    used = [0] * KINDS
    faces: list[int] = []
    while len(faces) < 12:
        if rng.random() < 0.6:
            start = rng.randrange(27)
            if start % 9 > 6:
                continue
            group = [start, start + 1, start + 2]
        else:
            group = [rng.randrange(KINDS)] * 3
        if WHITE in group:  # 白板 plays as 3m: the face 白板 itself does not occur
            continue
        if any(used[t] + group.count(t) > 4 for t in set(group)):
            continue
        for t in group:
            used[t] += 1
        faces += group
    while True:
        pair = rng.randrange(KINDS)
        if used[pair] <= 2 and pair != WHITE:
            faces += [pair, pair]
            break
    tiles = [WHITE if t == CAISHEN else t for t in faces]
    wilds = draw(st.integers(0, 2))
    for index in rng.sample(range(14), wilds):
        tiles[index] = CAISHEN
    rng.shuffle(tiles)
    return tiles, draw(st.integers(0, 13))


def _request(tiles: list[int], win: int, **fields: object) -> dict[str, object]:
    hand = [tile_name(t) for i, t in enumerate(tiles) if i != win]
    return request(hand, tile_name(tiles[win]), **fields)  # type: ignore[arg-type]


def oracle_win(tiles: list[int]) -> bool:
    """Some substitution of the 财神 (白板 as 3m) wins by a plain shape."""
    counts = [0] * KINDS
    wilds = 0
    for t in tiles:
        if t == CAISHEN:
            wilds += 1
        else:
            counts[CAISHEN if t == WHITE else t] += 1
    for faces in combinations_with_replacement(range(KINDS), wilds):
        trial = list(counts)
        for face in faces:
            trial[face] += 1
        if max(trial) > 4:
            continue
        if (
            plain.regular_shanten(trial) < 0
            or plain.seven_pairs_shanten(trial) < 0
            or plain.thirteen_orphans_shanten(trial) < 0
        ):
            return True
    return False


@SETTINGS
@given(winning_hands(), st.integers(0, 3), st.integers(0, 3), st.booleans(), st.integers(0, 3))
def test_settlement_is_zero_sum(
    hand: tuple[list[int], int], seat: int, dealer: int, robbed: bool, piao: int
) -> None:
    tiles, win = hand
    fields: dict[str, object] = {"seat": seat, "dealer": dealer, "extra": {"piao": piao}}
    if robbed:
        fields["from"] = (seat + 1) % 4
        fields["flags"] = {"robbing_kong": True}
    answer = score_json(_request(tiles, win, **fields))
    assert answer.legal, (answer.reason, answer.error)
    assert answer.deltas is not None and sum(answer.deltas) == 0
    assert answer.total is not None
    assert answer.deltas[seat] == 3 * answer.total


@SETTINGS
@given(winning_hands(), st.randoms(use_true_random=False))
def test_the_score_ignores_the_order_of_the_tiles(
    hand: tuple[list[int], int], rng: random.Random
) -> None:
    tiles, win = hand
    first = score_json(_request(tiles, win)).to_json()
    win_tile = tiles[win]
    rest = [t for i, t in enumerate(tiles) if i != win]
    rng.shuffle(rest)
    again = score_json(_request([*rest, win_tile], len(rest))).to_json()
    assert first == again


@SETTINGS
@given(winning_hands(), st.integers(0, 33), st.integers(0, 13))
def test_legal_exactly_when_some_substitution_wins(
    hand: tuple[list[int], int], other: int, position: int
) -> None:
    """A winning hand with one tile changed: legal exactly when the oracle finds a plain
    winning hand among the 财神's substitutions."""
    tiles, win = hand
    changed = list(tiles)
    changed[position] = other
    if changed.count(other) > 4 or (other == WHITE and changed.count(WHITE) > 4):
        return
    answer = score_json(_request(changed, win))
    assert answer.error is None
    assert answer.legal == oracle_win(changed)


@SETTINGS
@given(winning_hands())
def test_the_substitutions_rebuild_a_plain_winning_hand(hand: tuple[list[int], int]) -> None:
    """Put each 财神 back as the tile it stood for (白板 as 3m): the plain hand wins, and by
    a standard reading with the same hand type (the same winning tile)."""
    tiles, win = hand
    answer = score_json(_request(tiles, win))
    faces = [CAISHEN if t == WHITE else t for t in tiles if t != CAISHEN]
    faces += [parse_tile(face) for _, face in answer.extra["substitutions"]]
    assert len(faces) == 14 and oracle_win(faces)
    kind = answer.fans[0]
    win_face = CAISHEN if tiles[win] == WHITE else tiles[win]
    if kind.id not in ("seven_pairs", "thirteen_orphans") and tiles[win] != CAISHEN:
        rebuilt = score_json(_request(faces, faces.index(win_face), wild=None))
        assert rebuilt.legal and rebuilt.fans[0].points >= kind.points
