"""Laws of the 5-fan competition rules (hypothesis): every settlement and every penalty is
zero-sum, and a hand's score does not depend on the order of its tiles."""

from __future__ import annotations

import random
from collections import Counter

from competition_5fan_helpers import VARIANT, V
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paipu.rules.score import ScoreRequest, WinFlags
from paipu.rules.tiles import Tile

KINDS = list(range(34))
CHOW_STARTS = [t for t in range(27) if t % 9 <= 6]


@st.composite
def complete_hands(draw: st.DrawFn) -> list[Tile]:
    """Four sets and a pair (or seven pairs), at most 4 copies of a kind."""
    if draw(st.integers(0, 9)) == 0:
        pairs = draw(st.lists(st.sampled_from(KINDS), min_size=7, max_size=7))
        tiles = [t for p in pairs for t in (p, p)]
    else:
        tiles = []
        for _ in range(4):
            if draw(st.booleans()):
                low = draw(st.sampled_from(CHOW_STARTS))
                tiles += [low, low + 1, low + 2]
            else:
                tiles += [draw(st.sampled_from(KINDS))] * 3
        tiles += [draw(st.sampled_from(KINDS))] * 2
    assume(max(Counter(tiles).values()) <= 4)
    return tiles


@settings(max_examples=150, deadline=None)
@given(
    complete_hands(),
    st.integers(0, 3),
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(1, 3)),
    st.sampled_from(["discarder", "everyone"]),
    st.sampled_from(["once", "each"]),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_zero_sum_and_order_independent(
    tiles: list[Tile],
    seat: int,
    dealer: int,
    offset: int | None,
    payer: str,
    doubles: str,
    last: bool,
    rng: random.Random,
) -> None:
    from_seat = None if offset is None else (seat + offset) % 4
    options = VARIANT.resolve_options({"discard_payer": payer, "situation_doubles": doubles})
    flags = WinFlags(last_tile=last)

    def ask(order: list[Tile]) -> object:
        return VARIANT.score(
            ScoreRequest(V, seat, dealer, from_seat, tuple(order[:-1]), (), order[-1], flags=flags),
            options,
        )

    answer = ask(tiles)
    if answer.legal:  # type: ignore[attr-defined]
        assert sum(answer.deltas) == 0  # type: ignore[attr-defined]
        assert answer.total >= 5  # type: ignore[attr-defined]
    else:
        assert sum(answer.extra["penalty"]) == 0  # type: ignore[attr-defined]
    rest = tiles[:-1]
    rng.shuffle(rest)
    assert ask([*rest, tiles[-1]]) == answer
