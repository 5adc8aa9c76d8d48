"""长沙麻将: the digest's worked example, hand-checked scores and hands, opening wins, 开杠,
birds counted from the winner, 漏胡 and 海底.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from regional_helpers import (
    PASSED_WIN_HANDS,
    PASSED_WIN_ROUND,
    Scripted,
    apply_all,
    ev,
    record,
    request,
    scripted_hand,
    t,
)

from paipu.rules.events import Discard
from paipu.rules.mechanics.birds import BirdMode
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.score import score_json
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.variants import get_variant
from paipu.rules.variants.changsha.settlement import changsha_win_deltas

V = "changsha"
BONUS = {"dealer_bonus": True}


def score(hand: str, win: str, **fields: object) -> object:
    return score_json(request(V, hand, win, **fields))


def ids(answer: object) -> list[str]:
    return [f.id for f in answer.fans]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- the worked example


def test_worked_example_on_a_discard() -> None:
    """South wins 清一色碰碰胡 (2 大胡 = 12) on the dealer East's discard; +1 庄闲 = 13;
    birds 5万 (the winner: a hit) and 3条 (North: a miss): ×2 → East pays 26."""
    answer = score(
        "111m333m555m777m9m",
        "9m",
        seat=1,
        rules=BONUS,
        extra={"birds": ["5m", "3s"]},
        **{"from": 0},
    )
    assert answer.legal
    assert ids(answer) == ["all_pungs", "full_flush"]
    assert answer.total == 12
    assert answer.deltas == (-26, 26, 0, 0)


def test_worked_example_self_drawn() -> None:
    """Self-drawn: the winner's bird hits every payer, 3条 also hits North: East (12 + 1) × 2,
    West 12 × 2, North 12 × 2²."""
    answer = score("111m333m555m777m9m", "9m", seat=1, rules=BONUS, extra={"birds": ["5m", "3s"]})
    assert answer.deltas == (-26, 98, -24, -48)


# ---------------------------------------------------------------------- hand-checked scores


def test_a_small_win_needs_a_258_pair() -> None:
    small = score("123m456m789m22p46p", "5p", **{"from": 2})
    assert ids(small) == ["ping_hu"]
    assert (small.total, small.deltas) == (1, (1, 0, -1, 0))
    assert score("123m456m789m22p46p", "5p").deltas == (6, -2, -2, -2)  # 自摸: 2 each
    wrong = score("123m456m789m11p46p", "5p", **{"from": 2})
    assert not wrong.legal
    assert "2, 5 or 8 pair" in wrong.reason


def test_pub_b_small_self_draw_with_dealer_bonus() -> None:
    rules = {"small_self_draw": 1, "dealer_bonus": True}
    dealer = score("123m456m789m22p46p", "5p", rules=rules)
    assert dealer.deltas == (6, -2, -2, -2)  # 庄家自摸: each 2
    other = score("123m456m789m22p46p", "5p", seat=1, rules=rules)
    assert other.deltas == (-2, 4, -1, -1)  # 闲家自摸: the dealer 2, the others 1


@pytest.mark.parametrize(
    ("hand", "win", "fields", "fans", "total"),
    [
        # 将将胡: fourteen 2/5/8, no shape at all
        ("258m258p258s2m5p8s8s", "2s", {"from": 1}, ["all_258"], 6),
        # 豪华七小对 (one 4-of-a-kind) + 清一色 = 3 大胡
        ("1111m22m33m44m55m6m", "6m", {"from": 1}, ["luxury_seven_pairs", "full_flush"], 18),
        # 双豪华七小对 = 3 大胡
        ("1111m2222m33p44p5p", "5p", {"from": 1}, ["double_luxury_seven_pairs"], 18),
        # 全求人: four exposed melds, a single wait, any pair
        (
            "9p",
            "9p",
            {
                "from": 1,
                "melds": [
                    ("chi", "123m", 3),
                    ("pong", "555p", 1),
                    ("pong", "777s", 2),
                    ("chi", "456s", 3),
                ],
            },
            ["all_melded"],
            6,
        ),
        # 海底捞月 on a 平胡 shape with a 2/5/8 pair: 1 大胡, the 小胡 not counted
        ("123m456m789m22p46p", "5p", {"flags": {"last_tile": True}}, ["last_tile_draw"], 6),
        # 海底炮
        (
            "123m456m789m22p46p",
            "5p",
            {"from": 3, "flags": {"last_tile": True}},
            ["last_tile_discard"],
            6,
        ),
        # 杠上开花 on a 清一色 碰碰胡 with a kong
        (
            "111m333m555m9m",
            "9m",
            {"melds": [("concealed_kong", "7777m", None)], "flags": {"kong_replacement": True}},
            ["all_pungs", "full_flush", "kong_bloom"],
            18,
        ),
        # 天胡 and 杠上炮 are facts of the table
        ("123m456m789m22p46p", "5p", {"extra": {"heavenly": True}}, ["heavenly"], 6),
        (
            "123m456m789m22p46p",
            "5p",
            {"from": 2, "extra": {"kong_discard": True}},
            ["kong_discard"],
            6,
        ),
    ],
)
def test_big_wins(hand: str, win: str, fields: dict, fans: list[str], total: int) -> None:
    answer = score(hand, win, **fields)
    assert answer.legal, answer.reason
    assert ids(answer) == fans
    assert answer.total == total
    assert answer.extra["kind"] == "big"
    assert sum(answer.deltas) == 0


def test_situational_wins_still_need_a_258_pair() -> None:
    answer = score("123m456m789m11p46p", "5p", flags={"last_tile": True})
    assert not answer.legal


def test_all_melded_pair_option() -> None:
    melds = [("chi", "123m", 3), ("pong", "555p", 1), ("pong", "777s", 2), ("chi", "456s", 3)]
    answer = score("9p", "9p", melds=melds, rules={"all_melded_pair": "jiang"}, **{"from": 1})
    assert not answer.legal


def test_bird_modes_and_origin() -> None:
    birds = {"birds": ["1m", "2m"]}  # from the winner (seat 1): seat 1 and seat 2
    on_discard = {"seat": 1, "extra": birds, "from": 2}
    assert score("123m456m789m22p46p", "5p", **on_discard).deltas == (0, 4, -4, 0)  # ×2²
    added = score("123m456m789m22p46p", "5p", rules={"bird_mode": "add_point"}, **on_discard)
    assert added.deltas == (0, 3, -3, 0)
    plus = score("123m456m789m22p46p", "5p", rules={"bird_mode": "one_plus_hits"}, **on_discard)
    assert plus.deltas == (0, 3, -3, 0)
    dealer = score("123m456m789m22p46p", "5p", rules={"bird_origin": "dealer"}, **on_discard)
    assert dealer.deltas == (0, 2, -2, 0)  # from the dealer: seats 0 and 1: one hit


# ---------------------------------------------------------------------- replay

HANDS = PASSED_WIN_HANDS
ROUND = [
    *PASSED_WIN_ROUND,
    ["draw", 0, "4p"],
    ["discard", 0, "4p"],
]


def test_a_passed_win_locks_the_seat_until_its_next_draw() -> None:
    with pytest.raises(RuleViolation, match="漏胡"):
        apply_all(record(V, HANDS, ev(*ROUND, ["win", 1, "4p", {"from": 0}])))
    free = record(
        V,
        HANDS,
        ev(*ROUND, ["win", 1, "4p", {"from": 0}]),
        rules={"missed_win_lock": "off", "birds": 0},
    )
    assert replay(free, check=True).wins[0].seat == 1
    drawn = ev(*ROUND[:8], ["draw", 0, "4p"], ["discard", 0, "4p"], ["draw", 1, "9p"])
    table = apply_all(record(V, HANDS, drawn))
    assert not table.state.lock.locks[1]


def test_opening_wins_are_shown_before_the_first_discard_and_paid_at_once() -> None:
    hands = {**HANDS, 2: "4444p2468m1135s7s", 3: "234m66m88m55p6789p"}  # West: 大四喜
    events = ev(["draw", 0, "5p"], ["start_win", 2, "four_of_a_kind", {"tiles": ["4p"] * 4}])
    table = apply_all(record(V, hands, events))
    assert table.state.start_wins == [(2, "four_of_a_kind", ())]
    payments = table.state.payments()
    assert sorted(payments) == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]
    with pytest.raises(RuleViolation, match="before the first discard"):
        apply_all(record(V, hands, ev(*ROUND[:2], *events[1:])))
    with pytest.raises(RuleViolation, match="not 六六顺"):
        apply_all(
            record(
                V,
                hands,
                ev(["draw", 0, "5p"], ["start_win", 2, "two_triplets", {"tiles": ["4p"] * 4}]),
            )
        )
    with pytest.raises(RuleViolation, match="tiles it holds"):
        apply_all(
            record(
                V,
                hands,
                ev(["draw", 0, "5p"], ["start_win", 3, "four_of_a_kind", {"tiles": ["6m"] * 4}]),
            )
        )
    with pytest.raises(RuleViolation, match="this room"):
        apply_all(
            record(
                V,
                hands,
                ev(["draw", 0, "5p"], ["start_win", 2, "three_suit_pairs", {"tiles": ["4p"] * 4}]),
            )
        )


def test_missing_suit_is_shown_with_the_whole_hand() -> None:
    hands = {**HANDS, 3: "234m66m88m1357s7s9s"}  # no 筒: 缺一色
    whole = ["2m", "3m", "4m", "6m", "6m", "8m", "8m", "1s", "3s", "5s", "7s", "7s", "9s"]
    table = apply_all(
        record(V, hands, ev(["draw", 0, "5p"], ["start_win", 3, "missing_suit", {"tiles": whole}]))
    )
    assert table.state.start_wins == [(3, "missing_suit", ())]
    with pytest.raises(RuleViolation, match="whole hand"):
        apply_all(
            record(
                V,
                hands,
                ev(["draw", 0, "5p"], ["start_win", 3, "missing_suit", {"tiles": whole[:5]}]),
            )
        )


KONG_HANDS = {
    0: "222m345m678m22p45p",  # ready on 3p / 6p; it draws the fourth 2m and konges
    1: "123s456s78s22p789p",  # ready on 6s / 9s (a 2/5/8 pair)
    2: "13579m1379p2468s",
    3: "1m4m7m1p6p8p9p1s3s5s7s9s9s",
}


def test_kong_reveal_wins_on_one_of_its_tiles() -> None:
    """开杠: East turns up 3p and 9s; 3p completes its hand: 杠上开花, 1 大胡, 6 from each."""
    outcome = scripted_hand(
        V,
        KONG_HANDS,
        [Scripted(kongs=["2m"], reveal=True, wins=None), Scripted(), Scripted(), Scripted()],
        {0: "9m2m", 1: "1m", 2: "1m", 3: "9m"},
        tail="3p9s",
        rules={"birds": 0},
    )
    assert "kong_reveal" in [type(e).kind for e in outcome.record.events]
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile) == (0, None, t("3p"))
    assert [f.id for f in win.fans] == ["kong_bloom"]
    # East and South also showed 缺一色 at the start: 2 from each other seat, each; and
    # East, drawing its fourth 2m before the kong, showed it as 中途四喜: 2 from each other
    assert outcome.notes.count("start_win:missing_suit") == 2
    assert outcome.notes.count("start_win_during:four_of_a_kind") == 1
    assert outcome.deltas == (18 + 4 + 6, -6 + 4 - 2, -6 - 4 - 2, -6 - 4 - 2)


def test_another_seat_wins_on_a_revealed_tile() -> None:
    """杠上炮: neither 9s nor 1s completes East's hand; South wins on 9s, East pays."""
    outcome = scripted_hand(
        V,
        KONG_HANDS,
        [Scripted(kongs=["2m"], reveal=True), Scripted(wins=None), Scripted(), Scripted()],
        {0: "9m2m", 1: "1m", 2: "1m", 3: "9m"},
        tail="9s1s",
        rules={"birds": 0, "mid_game_wins": False},  # no 中途四喜 of East's 2m here
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile) == (1, 0, t("9s"))
    assert [f.id for f in win.fans] == ["kong_discard"]
    assert outcome.deltas == (-6 + 4, 6 + 4, -4, -4)  # with the two 缺一色


def test_a_reveal_nobody_wins_on_lies_in_the_konger_s_discards() -> None:
    events = ev(
        ["draw", 0, "2m"],
        ["concealed_kong", 0, "2m"],
        ["kong_reveal", 0, ["1s", "9m"]],
        ["draw", 1, "1m"],
    )
    table = apply_all(record(V, KONG_HANDS, events))
    assert table.seats[0].discards == [t("1s"), t("9m")]
    with pytest.raises(RuleViolation, match="seat 1 draws next"):
        apply_all(record(V, KONG_HANDS, ev(*events[:3], ["draw", 2, "1m"])))
    with pytest.raises(RuleViolation, match="only be won on"):
        apply_all(record(V, KONG_HANDS, ev(*events[:3], ["pong", 2, "9m"])))


def test_a_reveal_needs_a_ready_hand() -> None:
    hands = {**KONG_HANDS, 0: "222m345m678m14p58s"}
    events = ev(["draw", 0, "2m"], ["concealed_kong", 0, "2m"], ["kong_reveal", 0, ["1s", "9m"]])
    with pytest.raises(RuleViolation, match="ready hand"):
        apply_all(record(V, hands, events))


def test_birds_are_the_next_tiles_and_count_from_the_winner() -> None:
    outcome = scripted_hand(
        V,
        KONG_HANDS,
        [Scripted(kongs=["2m"], reveal=True, wins=None), Scripted(), Scripted(), Scripted()],
        {0: "9m2m", 1: "1m", 2: "1m", 3: "9m"},
        tail="3p9s",
        rules={"mid_game_wins": False},  # no 中途四喜 of East's 2m here
    )
    bird = outcome.record.events[-1]
    assert type(bird).kind == "bird"
    assert len(bird.tiles) == 2
    win = changsha_win_deltas(4, 0, None, 0, 6, birds=bird.tiles, bird_mode=BirdMode.MULTIPLY)
    assert outcome.wins[0].deltas == win
    assert outcome.deltas == tuple(d + s for d, s in zip(win, (4, 4, -4, -4), strict=True))
    wall = outcome.record.wall
    assert wall is not None
    cheat = replace(
        outcome.record, events=(*outcome.record.events[:-1], replace(bird, tiles=bird.tiles[:1]))
    )
    with pytest.raises(RuleViolation, match="2 bird"):
        replay(cheat)
    missing = replace(outcome.record, events=outcome.record.events[:-1])
    with pytest.raises(RuleViolation, match="birds"):
        replay(missing)


NO_OPENING = {
    0: "123m456m789m13p46s",
    1: "234m567m89m22p35p9s",
    2: "345m678m123p3s5s8s9s",
    3: "1245m6789p12679s",
}


def _quiet(haidi: list[bool]) -> list[Scripted]:
    return [Scripted(wins=[], haidi=h) for h in haidi]


def test_haidi_is_offered_in_turn_and_may_be_declined() -> None:
    nobody = scripted_hand(V, NO_OPENING, _quiet([False] * 4))
    assert nobody.outcome == "draw"
    assert nobody.record.wall is not None
    drawn = sum(1 for e in nobody.record.events if type(e).kind == "draw")
    assert drawn == len(nobody.record.wall) - 1  # the last tile stays unseen
    taken = scripted_hand(V, NO_OPENING, _quiet([False, False, True, False]))
    assert taken.outcome == "draw"
    last_draw = [e for e in taken.record.events if type(e).kind == "draw"][-1]
    assert last_draw.seat == 2
    variant = get_variant(V)
    setup = HandSetup(V, "g", 0, ("a", "b", "c", "d"), (Style.BALANCED,) * 4, dealer=0)
    assert variant.next_setup(setup, taken).dealer == 2  # 荒庄: the 海底 taker deals
    assert variant.next_setup(setup, nobody).dealer == 0
    last = taken.record.events[-1]
    assert isinstance(last, Discard)
    assert last.tile == last_draw.tile  # the 海底 tile is shown and discarded


def test_the_haidi_tile_must_be_discarded() -> None:
    taken = scripted_hand(V, NO_OPENING, _quiet([False, False, True, False]))
    events = list(taken.record.events)
    last = events[-1]
    table = apply_all(replace(taken.record, events=tuple(events[:-1])))
    other = next(x for x in range(27) if table.seats[2].hand[x] and x != last.tile)
    with pytest.raises(RuleViolation, match="海底"):
        replay(replace(taken.record, events=(*events[:-1], Discard(2, other))))


def test_several_winners_pass_the_deal_to_the_discarder() -> None:
    variant = get_variant(V)
    outcome = scripted_hand(
        V,
        {0: "123m456m789m22p59s", 1: "123s456s789s22p46p", 2: "234m567m88m46p789s"},
        [Scripted(wins=[]), Scripted(wins=None), Scripted(wins=None), Scripted(wins=[])],
        {0: "9m5p", 1: "1m", 2: "1m", 3: "1m"},  # East discards 5p on its second turn
        rules={"birds": 0},
    )
    assert [w.seat for w in outcome.wins] == [1, 2]
    setup = HandSetup(V, "g", 0, ("a", "b", "c", "d"), (Style.BALANCED,) * 4, dealer=0)
    assert variant.next_setup(setup, outcome).dealer == 0
    assert [w.deltas for w in outcome.wins] == [(-1, 1, 0, 0), (-1, 0, 1, 0)]
    assert outcome.deltas == (-2 - 2, 1 + 6, 1 - 2, -2)  # South also showed 缺一色
