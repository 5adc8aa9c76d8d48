"""上海麻将 laws (hypothesis): every settlement is zero-sum, and a hand's score does not
depend on the order of its tiles."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.score import score_json
from paipu.rules.tiles import EAST, N_KINDS, tile_names
from paipu.rules.variants.shanghai.settlement import capped_share, win_deltas


@st.composite
def one_suit_hands(draw: st.DrawFn) -> tuple[list[int], int, list[int]]:
    """Four sets and a pair of one suit and the honours (the fans 清混碰 pays for), as
    (the hand less its winning tile, the winning tile, the flowers)."""
    suit = draw(st.integers(0, 2)) * 9
    honors = draw(st.booleans())
    kinds = list(range(suit, suit + 9)) + (list(range(EAST, N_KINDS)) if honors else [])
    tiles: list[int] = []
    for _ in range(4):
        if draw(st.booleans()):
            start = suit + draw(st.integers(0, 6))
            tiles += [start, start + 1, start + 2]
        else:
            tiles += [draw(st.sampled_from(kinds))] * 3
    tiles += [draw(st.sampled_from(kinds))] * 2
    if max(Counter(tiles).values()) > 4:
        tiles = [suit, suit, suit, suit + 1, suit + 2, suit + 3, suit + 4, suit + 5, suit + 6]
        tiles += [suit + 7] * 3 + [suit + 8] * 2
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    flowers = draw(st.lists(st.integers(34, 41), unique=True, max_size=8))
    order = draw(st.permutations(tiles))
    return list(order), win, flowers


@settings(max_examples=60, deadline=None)
@given(
    one_suit_hands(),
    st.sampled_from([None, 1, 2, 3]),
    st.sampled_from([None, 1, 2, 3]),
    st.booleans(),
    st.integers(0, 3),
)
def test_a_score_is_zero_sum_and_ignores_tile_order(
    hand: tuple[list[int], int, list[int]],
    from_seat: int | None,
    liable: int | None,
    robbing: bool,
    huang_fan: int,
) -> None:
    tiles, win, flowers = hand
    request = {
        "variant": "shanghai",
        "seat": 0,
        "from": from_seat,
        "hand": tile_names(tiles),
        "win_tile": tile_names([win])[0],
        "flowers": tile_names(flowers),
        "flags": {"robbing_kong": robbing and from_seat is not None},
        "extra": {"chengbao": liable, "huang_fan": huang_fan},
    }
    answer = score_json(request)
    again = score_json({**request, "hand": tile_names(sorted(tiles))})
    assert answer == again
    if answer.legal:
        assert answer.deltas is not None
        assert sum(answer.deltas) == 0
        assert answer.deltas[0] > 0


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 3),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.booleans(),
    st.integers(0, 10),
    st.integers(0, 12),
    st.sampled_from([0, 10, 20, 40]),
    st.sampled_from([1, 2, 4]),
)
def test_win_deltas_are_zero_sum(
    winner: int,
    from_seat: int | None,
    liable: int | None,
    robbing: bool,
    flowers: int,
    fan: int,
    lezi: int,
    caps: int,
) -> None:
    if from_seat == winner or liable == winner:
        return
    share = capped_share(2, flowers, fan, lezi=lezi, caps=caps)
    deltas = win_deltas(
        4, winner, from_seat, share, robbing=robbing and from_seat is not None, liable=liable
    )
    assert sum(deltas) == 0
    assert deltas[winner] in (share, 3 * share)
    assert lezi == 0 or share <= lezi * caps
