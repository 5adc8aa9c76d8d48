"""长沙: the readings of issue 21 — every instance of an opening win (起手胡) is paid
(``start_win_count``), and the opening wins' dice as their birds (``start_win_birds``).

Hands written and worked by hand. Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regional_helpers import apply_all, ev, record

from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, simulate
from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.tiles import counts, parse_tiles
from paipu.rules.variants import get_variant
from paipu.rules.variants.changsha import fans as changsha_fans
from paipu.rules.variants.changsha.settlement import start_win_deltas

V = "changsha"
# West holds four triplets (two 六六顺), North two 4-of-a-kinds (two 大四喜).
HANDS = {
    0: "135m79m19p2468s99s",
    1: "123s456s789s22p35p",
    2: "111m333m555p777s9s",
    3: "2222m4444p6m7m8m9p9p",
}
TRIPLETS = ["1m"] * 3 + ["3m"] * 3 + ["5p"] * 3 + ["7s"] * 3
QUADS = ["2m"] * 4 + ["4p"] * 4


def payments(events: list, rules: dict[str, object] | None = None) -> tuple[object, list[int]]:
    table = apply_all(record(V, HANDS, ev(["draw", 0, "5s"], *events), rules=rules))
    out = [0] * 4
    for payer, receiver, amount in table.state.payments():
        out[payer] -= amount
        out[receiver] += amount
    return table, out


def test_two_six_six_shun_in_one_hand_are_paid_twice() -> None:
    """West shows its four triplets: two 六六顺, each a small self-draw (2 from each)."""
    table, deltas = payments([["start_win", 2, "two_triplets", {"tiles": TRIPLETS}]])
    assert table.state.start_wins == [(2, "two_triplets", ())] * 2
    assert deltas == [-4, -4, 12, -4]
    assert "start_win_instances:two_triplets" in table.notes


def test_what_is_shown_is_what_is_paid() -> None:
    """Showing two triplets only is one 六六顺; a kind is shown once."""
    table, deltas = payments([["start_win", 2, "two_triplets", {"tiles": TRIPLETS[:6]}]])
    assert table.state.start_wins == [(2, "two_triplets", ())]
    assert deltas == [-2, -2, 6, -2]
    with pytest.raises(RuleViolation, match="already shown"):
        payments([["start_win", 2, "two_triplets", {"tiles": TRIPLETS[:6]}]] * 2)


def test_two_four_of_a_kinds_and_the_kinds_stack() -> None:
    """North: two 大四喜 (4 from each); with 算庄闲 the dealer East pays 2 × (2 + 1)."""
    events = [["start_win", 3, "four_of_a_kind", {"tiles": QUADS}]]
    _, deltas = payments(events)
    assert deltas == [-4, -4, -4, 12]
    _, banker = payments(events, {"dealer_bonus": True})
    assert banker == [-6, -4, -4, 14]


def test_once_per_kind_is_the_reading_before() -> None:
    table, deltas = payments(
        [["start_win", 2, "two_triplets", {"tiles": TRIPLETS}]],
        {"start_win_count": "once_per_kind"},
    )
    assert table.state.start_wins == [(2, "two_triplets", ())]
    assert deltas == [-2, -2, 6, -2]


def test_the_detectors_yield_every_instance() -> None:
    def n(kind: str, tiles: str, variant: str = "on") -> int:
        return changsha_fans.opening_instances(kind, counts(parse_tiles(tiles)), variant)

    assert n("two_triplets", "111m333m555p777s9s") == 2
    assert n("two_triplets", "111m333m555p78s9s9s") == 1  # three triplets: one 六六顺
    assert n("four_of_a_kind", "2222m4444p6m7m8m9p") == 2
    assert n("three_step_pairs", "223344m223344m5p") == 2
    assert n("three_step_pairs", "22334455m1p3p5p") == 1  # no pair counted twice
    assert n("three_suit_pairs", "22m22p22s55m55p55s9m") == 2
    assert n("lone_tile", "5m5p123456789s11s", "five") == 2
    assert n("no_258", "1379m1379p1379s9s") == 1
    # the tiles a seat shows are every instance's
    shown = changsha_fans.OPENING["two_triplets"](counts(parse_tiles("111m333m555p777s9s")), "")
    assert shown is not None and sorted(shown) == sorted(parse_tiles("".join(TRIPLETS)))


def test_the_dice_as_the_opening_wins_birds() -> None:
    """West's 六六顺 with dice 3 and 4 (乘法翻倍): the 3 lands opposite West (East), the 4 on
    West's previous seat (South): East and South pay 2 × 2, North 2."""
    assert start_win_deltas(4, 2, 0, 2, dice=(3, 4)) == (-4, -4, 10, -2)
    # dice 1 and 5 both land on West itself: every payer is hit twice, × 4
    assert start_win_deltas(4, 2, 0, 2, dice=(1, 5)) == (-8, -8, 24, -8)
    with pytest.raises(ValueError, match="dice are 1-6"):
        start_win_deltas(4, 2, 0, 2, dice=(7,))


def test_dice_birds_are_read_from_the_log_and_paid() -> None:
    """Under start_win_birds = dice, West's two 六六顺 with dice 3 and 4: each instance costs
    East and South 2 × 2 and North 2 (the worked hand above, twice); without the option the
    same log pays 2 each per instance and the dice are only recorded."""
    shown = ["start_win", 2, "two_triplets", {"tiles": TRIPLETS, "dice": [3, 4]}]
    table, deltas = payments([shown], {"start_win_birds": "dice"})
    assert table.state.start_wins == [(2, "two_triplets", (3, 4))] * 2
    assert deltas == [-8, -8, 20, -4]
    _table, plain = payments([shown])
    assert plain == [-4, -4, 12, -4]


def test_dice_birds_fail_loudly_without_the_dice_in_the_log() -> None:
    with pytest.raises(
        RuleViolation, match="start_win_birds = dice: the start_win carries its dice"
    ):
        payments(
            [["start_win", 2, "two_triplets", {"tiles": TRIPLETS}]], {"start_win_birds": "dice"}
        )
    assert get_variant(V).resolve_options({"start_win_birds": "dice"})["start_win_birds"] == "dice"


@pytest.mark.parametrize("dice", [[0, 3], [3], [1, 2, 3], ["3", 4], [True, 2], "34"], ids=repr)
def test_bad_dice_are_refused_when_the_event_is_read(dice: object) -> None:
    with pytest.raises(ValueError, match="start_win: dice are two numbers 1-6"):
        record(V, HANDS, ev(["start_win", 2, "two_triplets", {"tiles": TRIPLETS, "dice": dice}]))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 26), min_size=13, max_size=14).filter(
        lambda tiles: max(tiles.count(t) for t in tiles) <= 4
    )
)
def test_the_tiles_shown_hold_every_instance_of_the_hand(tiles: list[int]) -> None:
    """A seat shows tiles it holds, and those tiles count as many instances as its hand:
    what self-play shows is paid in full."""
    hand = counts(tiles)
    for kind, shown_of in changsha_fans.OPENING.items():
        for variant in ("on", "five", "no_258", "all_258"):
            shown = shown_of(hand, variant)
            found = changsha_fans.opening_instances(kind, hand, variant)
            if shown is None:
                assert found == 0
                continue
            shown_counts = counts(list(shown))
            assert all(shown_counts[t] <= hand[t] for t in range(27))
            whole = kind in changsha_fans.WHOLE_HAND_KINDS
            again = changsha_fans.opening_instances(kind, hand if whole else shown_counts, variant)
            assert again == found >= 1


# 中途四喜 / 中途六六顺: South holds 888p and draws the fourth 8p in play.
MID_HANDS = {**HANDS, 1: "888p123s456s789s5p"}
MID_FOUR = ["start_win", 1, "four_of_a_kind", {"tiles": ["8p"] * 4, "during": True}]


def mid_game(*events: list, rules: dict[str, object] | None = None) -> object:
    play = ev(["draw", 0, "5s"], ["discard", 0, "9s"], ["draw", 1, "8p"], *events)
    return apply_all(record(V, MID_HANDS, play, rules=rules))


def test_a_four_of_a_kind_formed_in_play_is_shown_and_paid_as_an_opening_win() -> None:
    table = mid_game(MID_FOUR)
    assert table.state.start_wins == [(1, "four_of_a_kind", ())]
    assert "start_win_during:four_of_a_kind" in table.notes
    deltas = [0] * 4
    for payer, receiver, amount in table.state.payments():
        deltas[payer] -= amount
        deltas[receiver] += amount
    assert deltas[1] > 0 and sum(deltas) == 0 and deltas[0] < 0 and deltas[2] < 0
    # the hand goes on: South discards as after any draw
    table.apply(len(table.record.events), decode(["discard", 1, "5p"]))


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        # before the first discard a 中途 win does not exist yet
        ([["draw", 0, "5s"], MID_FOUR], "after the first discard"),
        # after East's discard it is nobody's turn to show
        ([["draw", 0, "5s"], ["discard", 0, "9s"], MID_FOUR], "on the seat's turn, after its draw"),
    ],
)
def test_a_mid_game_win_is_shown_in_play_on_the_seats_own_turn(events: list, rule: str) -> None:
    with pytest.raises(RuleViolation, match=rule):
        apply_all(record(V, MID_HANDS, ev(*events)))


def test_a_mid_game_win_is_formed_by_the_draw_of_tiles_not_shown_before() -> None:
    """West showed 六六顺 at the opening (111m 333m 555p); drawing a third 6p forms a new
    triplet, but 666p with 555p, shown before, is no 中途六六顺; and a 中途 win must hold
    the tile just drawn."""
    hands = {**HANDS, 2: "111m333m555p66p78s"}
    play = [
        ["draw", 0, "5s"],
        ["start_win", 2, "two_triplets", {"tiles": ["1m"] * 3 + ["3m"] * 3 + ["5p"] * 3}],
        ["discard", 0, "9s"],
        ["draw", 1, "4m"],
        ["discard", 1, "4m"],
        ["draw", 2, "6p"],
    ]
    table = apply_all(record(V, hands, ev(*play)))
    assert table.state.opening_wins(2) == []  # nothing new to show
    again = ["start_win", 2, "two_triplets", {"tiles": ["6p"] * 3 + ["5p"] * 3, "during": True}]
    with pytest.raises(RuleViolation, match=r"5p.*shown before count once"):
        apply_all(record(V, hands, ev(*play, again)))
    # North's two 4-of-a-kinds, held since the deal, are not formed by a draw in play
    north = ["start_win", 3, "two_triplets", {"tiles": ["2m"] * 3 + ["4p"] * 3, "during": True}]
    late = [*play, ["discard", 2, "6p"], ["draw", 3, "6p"], north]
    with pytest.raises(RuleViolation, match="formed by the tile just drawn"):
        apply_all(record(V, hands, ev(*late)))


def test_mid_game_wins_are_an_option() -> None:
    with pytest.raises(RuleViolation, match="option mid_game_wins"):
        mid_game(MID_FOUR, rules={"mid_game_wins": False})
    table = mid_game(rules={"mid_game_wins": False})
    assert table.state.opening_wins(1) == []
    assert mid_game().state.opening_wins(1) == [("four_of_a_kind", tuple(parse_tiles("8888p")))]


def test_self_play_shows_mid_game_wins_with_their_dice_and_audits_ok() -> None:
    """Bots show a 中途 win when they form one; every hand replays `ok`."""
    during = 0
    for lines, _stats in simulate(
        game_jobs(V, 120, 5, DEFAULT_PLAYERS, {"start_win_birds": "dice"})
    ):
        for line in lines:
            obj = json.loads(line)
            for event in obj["events"]:
                if event[0] == "start_win":
                    assert len(event[3]["dice"]) == 2
                    during += bool(event[3].get("during"))
            assert replay(HandRecord.from_json(obj)).verdict == "ok"
    assert during > 0
