"""十万麻将 laws (hypothesis): the chow law over ten ranks, held alike by the tile set, the
meld check, the replay's chi rule and the legal moves' runs; every hand of four sets and a
pair over 1–10 suits wins; settlement is zero-sum; a hand's score ignores its tiles' order."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shiwan_helpers import V

from paipu.rules.core.tiles import TileSet
from paipu.rules.legal import runs_in
from paipu.rules.melds import Meld, MeldError, MeldKind
from paipu.rules.score import ScoreRequest, WinFlags
from paipu.rules.tiles import Tile
from paipu.rules.variants import get_variant

VARIANT = get_variant(V)
TILES: TileSet = VARIANT.tiles  # type: ignore[attr-defined]
SUITED = [tile for suit in TILES.suits for tile in suit]
KINDS = list(TILES.kinds)
OPTIONS = VARIANT.resolve_options()


def position(tile: Tile) -> tuple[int, int] | None:
    """(suit, rank 1–10) of a suited tile, by the seed's definition of the suits."""
    for suit, tiles in enumerate(TILES.suits):
        if tile in tiles:
            return suit, tiles.index(tile) + 1
    return None


def law(tiles: list[Tile]) -> bool:
    """Three tiles of one suit whose ranks are r, r+1, r+2 with 1 <= r <= 8 (no wrap)."""
    places = [position(t) for t in tiles]
    if any(p is None for p in places) or len({p[0] for p in places if p}) != 1:
        return False
    ranks = sorted(p[1] for p in places if p)
    return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[0] + 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(KINDS), min_size=3, max_size=3))
def test_the_chow_law_over_ten_ranks(tiles: list[Tile]) -> None:
    expected = law(tiles)
    ordered = tuple(sorted(tiles))
    assert TILES.is_chow(tiles) is expected
    assert (VARIANT.chow_problem(ordered) is None) is expected  # the replay's chi rule
    try:
        Meld(MeldKind.CHI, ordered).check()
        meld_ok = True
    except MeldError:
        meld_ok = False
    assert meld_ok is expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(SUITED), min_size=2, max_size=8), st.sampled_from(SUITED))
def test_the_legal_runs_are_the_law_s(held: list[Tile], claimed: Tile) -> None:
    """The runs :mod:`paipu.rules.legal` lists for a claimed tile are exactly the chows of the
    law made of it and two held tiles."""
    listed = {tuple(run) for run in runs_in(TILES, TILES.counts(held), claimed)}
    have = Counter(held)
    brute = {
        run
        for low in SUITED
        if (run := TILES.chow_from(low)) is not None
        and claimed in run
        and all(have[t] > 0 for t in run if t != claimed)
    }
    assert listed == brute
    assert all(law(list(run)) for run in listed)


@st.composite
def winning_hands(draw: st.DrawFn) -> list[Tile]:
    """Four sets (chows over ten ranks or pungs) and a pair, at most 4 copies of a kind."""
    tiles: list[Tile] = []
    for _ in range(4):
        if draw(st.booleans()):
            suit = draw(st.sampled_from(TILES.suits))
            low = draw(st.integers(0, len(suit) - 3))
            tiles += suit[low : low + 3]
        else:
            tiles += [draw(st.sampled_from(KINDS))] * 3
    tiles += [draw(st.sampled_from(KINDS))] * 2
    assume(max(Counter(tiles).values()) <= 4)
    return tiles


def _request(tiles: list[Tile], seat: int, dealer: int, from_seat: int | None) -> ScoreRequest:
    return ScoreRequest(
        variant=V,
        seat=seat,
        dealer=dealer,
        from_seat=from_seat,
        hand=tuple(tiles[:-1]),
        melds=(),
        win_tile=tiles[-1],
        flags=WinFlags(),
    )


@settings(max_examples=150, deadline=None)
@given(
    winning_hands(),
    st.integers(0, 3),
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(1, 3)),
    st.sampled_from(["discarder", "everyone"]),
    st.integers(1, 5),
    st.randoms(use_true_random=False),
)
def test_every_four_sets_and_a_pair_wins_zero_sum_in_any_order(
    tiles: list[Tile], seat: int, dealer: int, offset: int | None, payer: str, base: int, rng
) -> None:
    from_seat = None if offset is None else (seat + offset) % 4
    options = VARIANT.resolve_options({"discard_payer": payer, "base": base})
    answer = VARIANT.score(_request(tiles, seat, dealer, from_seat), options)
    assert answer.legal and answer.fans[0].id == "basic_win", answer
    assert answer.deltas is not None and sum(answer.deltas) == 0
    assert answer.deltas[seat] == (3 * base if from_seat is None or payer == "everyone" else base)
    win = tiles[-1]
    rest = tiles[:-1]
    rng.shuffle(rest)
    again = VARIANT.score(_request([*rest, win], seat, dealer, from_seat), options)
    assert again == answer
