"""四川麻将 血战到底: the digest's worked example, hand-checked scores and hands, and every
rule the replay enforces (定缺, the void suit first, 血战 flow, kong money, the draw checks).

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import pytest
from regional_helpers import Scripted, apply_all, ev, record, request, scripted_hand, t

from paipu.rules.melds import MeldKind
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.score import score_json

V = "sichuan"


def score(hand: str, win: str, **fields: object) -> object:
    return score_json(request(V, hand, win, **fields))


def fans(answer: object) -> dict[str, tuple[int, int]]:
    return {f.id: (f.points, f.count) for f in answer.fans}  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- the worked example

# South (void 条) self-draws 清对 with one 根 (a concealed kong of 9万): ×8 × 2 = ×16.
WORKED = {"seat": 1, "melds": [("concealed_kong", "9999m", None)], "extra": {"void": "s"}}


def test_worked_example_score() -> None:
    answer = score("222m555m888m3m", "3m", **WORKED)
    assert answer.legal
    assert fans(answer) == {"pure_pungs": (8, 1), "root": (2, 1)}
    assert answer.total == 16
    assert answer.deltas == (-17, 51, -17, -17)  # 16 + 1 (自摸加底) from each
    doubled = score("222m555m888m3m", "3m", rules={"self_draw_bonus": "double"}, **WORKED)
    assert doubled.deltas == (-32, 96, -32, -32)
    plain = score("222m555m888m3m", "3m", rules={"self_draw_bonus": "none"}, **WORKED)
    assert plain.deltas == (-16, 48, -16, -16)


def test_worked_example_hand() -> None:
    """The whole hand: East 暗杠 1筒 (+2 from each), South 暗杠 9万 (+2 from each) and
    self-draws ×16, then the wall runs out: East and West are ready, North still holds three
    suits (花猪) and pays the cap, 64, to East and West — not to South, who has left."""
    north_draws = "111m3m4444m5m6666m7777m"  # North only ever draws 万: it stays 花猪
    outcome = scripted_hand(
        V,
        {
            0: "111p234p567p345s2s",  # East: ready on 2s after its kong
            1: "999m222m555m888m3m",  # South: void 条
            2: "234p456p789p12s55s",  # West: ready on 3s
            3: "1m2m3m5p6p7p8p5s6s7s8s9s9s",  # North: void 万 but keeps 1m2m3m
        },
        [
            Scripted("m", kongs=["1p"]),
            Scripted("s", wins=["3m"], self_draw_only=True, kongs=["9m"]),
            Scripted("m"),
            Scripted("m"),
        ],
        {0: "1p", 1: "9m4p3m", 3: north_draws},
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.total) == (1, None, 16)
    assert win.deltas == (-17, 51, -17, -17)
    assert outcome.outcome == "win"
    #      暗杠 E   暗杠 S   win       花猪
    east = 6 - 2 - 17 + 64
    south = -2 + 6 + 51
    west = -2 - 2 - 17 + 64
    north = -2 - 2 - 17 - 128
    assert outcome.deltas == (east, south, west, north)
    assert "flower_pig" in outcome.notes
    assert "tax_refund" not in outcome.notes  # the 花猪 had no kong income


# ---------------------------------------------------------------------- hand-checked scores


@pytest.mark.parametrize(
    ("hand", "win", "fields", "expected", "total"),
    [
        # 龙七对: ×16; its 4-of-a-kind is not also a 根
        ("1111m22m33m44p55p6p", "6p", {"from": 1}, {"dragon_seven_pairs": (16, 1)}, 16),
        # 金钩钓: four pongs and a single wait; not also 对对胡
        (
            "5p",
            "5p",
            {
                "from": 1,
                "melds": [
                    ("pong", "111m", 1),
                    ("pong", "999m", 2),
                    ("pong", "333p", 3),
                    ("pong", "777p", 1),
                ],
            },
            {"single_wait_melded": (4, 1)},
            4,
        ),
        # 清一色 with one 根 (four 1万): ×4 × 2
        ("1112345678999m", "1m", {}, {"full_flush": (4, 1), "root": (2, 1)}, 8),
        # 带幺九: a 1 or 9 in every set and the pair
        ("123m789m123p789p9p", "9p", {"from": 2}, {"outside_terminals": (4, 1)}, 4),
        # 清幺九 ×16, with two 根 (four 1万, four 9万): ×64
        (
            "1111m23m7788m999m",
            "9m",
            {"from": 2},
            {"pure_terminals": (16, 1), "root": (2, 2)},
            64,
        ),
        # 112233 7788 9999万 is seven pairs before it is 清幺九: 清龙七对 ×32
        ("112233m7788m999m", "9m", {"from": 2}, {"pure_dragon_seven_pairs": (32, 1)}, 32),
        # 十八罗汉: four kongs, a single wait: ×64, no 根
        (
            "9p",
            "9p",
            {
                "melds": [
                    ("kong", "1111m", 1),
                    ("concealed_kong", "2222m", None),
                    ("kong", "3333p", 2),
                    ("added_kong", "4444p", 3),
                ]
            },
            {"eighteen_arhats": (64, 1)},
            64,
        ),
        # 将对 (2/5/8 pungs only) ×8
        ("222m555m888m22p55p", "5p", {"from": 3}, {"all_258_pungs": (8, 1)}, 8),
        # 平胡 on the discard a konger made after his replacement draw (杠上炮)
        (
            "123m456m789m11p46p",
            "5p",
            {"from": 2, "extra": {"kong_discard": True}},
            {"ping_hu": (1, 1), "kong_discard": (2, 1)},
            2,
        ),
    ],
)
def test_hand_checked_scores(hand: str, win: str, fields: dict, expected: dict, total: int) -> None:
    answer = score(hand, win, **fields)
    assert answer.legal, answer.reason
    assert fans(answer) == expected
    assert answer.total == total
    assert sum(answer.deltas) == 0


def test_chengdu_table_counts_the_dragon_as_a_root() -> None:
    answer = score("1111m22m33m44p55p6p", "6p", rules={"fan_table": "chengdu_fan"}, **{"from": 1})
    assert fans(answer) == {"seven_pairs": (4, 1), "root": (2, 1)}  # 2 番 + 1 根 = ×8
    assert answer.total == 8
    assert answer.deltas == (8, -8, 0, 0)


def test_the_cap_limits_a_win() -> None:
    melds = [
        ("kong", "1111m", 1),
        ("concealed_kong", "2222m", None),
        ("kong", "3333m", 2),
        ("added_kong", "4444m", 3),
    ]
    answer = score("9m", "9m", melds=melds, rules={"cap": 16})
    assert fans(answer) == {"pure_eighteen_arhats": (256, 1)}
    assert answer.total == 16
    assert answer.extra["multiplier"] == 256


def test_fed_kong_bloom_is_paid_by_the_feeder() -> None:
    """点杠花: a win on the replacement draw of a kong seat 2 fed: seat 2 pays alone."""
    fields = {
        "melds": [("kong", "5555p", 2)],
        "flags": {"kong_replacement": True},
        "extra": {"fed_by": 2},
    }
    answer = score("123m456m789m1p", "1p", **fields)
    assert fans(answer) == {"ping_hu": (1, 1), "root": (2, 1), "kong_bloom": (2, 1)}
    assert answer.deltas == (4, 0, -4, 0)
    everyone = score("123m456m789m1p", "1p", rules={"dian_gang_hua": "self_draw"}, **fields)
    assert everyone.deltas == (15, -5, -5, -5)


def test_only_seats_still_playing_pay_a_self_draw() -> None:
    answer = score("123m456m789m11p46p", "5p", extra={"won": [2]})
    assert answer.deltas == (4, -2, 0, -2)


@pytest.mark.parametrize(
    ("hand", "win", "extra", "reason"),
    [
        ("123m456m789m11p46p", "5p", {"void": "p"}, "void suit 筒"),
        ("123m456m789s11p46p", "5p", {}, "all three suits"),
        ("123m456m789m11p46p", "9p", {}, "do not form a winning hand"),
    ],
)
def test_illegal_wins(hand: str, win: str, extra: dict, reason: str) -> None:
    answer = score(hand, win, extra=extra)
    assert not answer.legal
    assert reason in answer.reason


def test_requests_that_cannot_be() -> None:
    assert (
        "chi is not allowed"
        in score("456m789m11p4p", "5p", melds=[("chi", "123m", 3)], **{"from": 3}).error
    )
    assert "not a tile" in score("123m456m789m11p44z", "4z").error
    assert "unknown extra" in score("123m456m789m11p46p", "5p", extra={"birds": []}).error


# ---------------------------------------------------------------------- replay rules

HANDS = {
    0: "123m456m789m1p2p5p9p",
    1: "123456789s1p1p9p9p",
    2: "123s456s789s4p6p8p8p",
    3: "234567m888m4p6p2p2p",
}
VOIDS = [["void", 0, "s"], ["void", 1, "m"], ["void", 2, "m"], ["void", 3, "s"]]
OPENING = [*VOIDS, ["draw", 0, "3p"], ["discard", 0, "5p"]]


def rec(events: list, **kwargs: object) -> object:
    return record(V, HANDS, ev(*events), **kwargs)


def test_a_win_leaves_and_the_seat_after_the_winner_draws() -> None:
    table = apply_all(rec([*OPENING, ["win", 2, "5p", {"from": 0}], ["draw", 3, "1m"]]))
    assert table.seats[2].won
    assert table.phase.value == "act"
    with pytest.raises(RuleViolation, match="seat 3 draws next, not seat 1"):
        apply_all(rec([*OPENING, ["win", 2, "5p", {"from": 0}], ["draw", 1, "1m"]]))


def test_several_winners_and_play_goes_on_after_the_last_of_them() -> None:
    events = [*OPENING, ["win", 2, "5p", {"from": 0}], ["win", 3, "5p", {"from": 0}]]
    table = apply_all(rec([*events, ["draw", 0, "1m"]]))  # after West and North: East
    assert [w.seat for w in table.wins] == [2, 3]
    # on the dealer's first discard, nothing claimed yet: 地胡 ×32 each
    assert [f.id for f in table.wins[0].fans] == ["earthly"]
    assert table.wins[0].deltas == (-32, 0, 32, 0)
    with pytest.raises(RuleViolation, match="seat 0 draws next"):
        apply_all(rec([*events, ["draw", 1, "1m"]]))
    with pytest.raises(RuleViolation, match="already won and left"):
        apply_all(rec([*events, ["draw", 0, "1m"], ["discard", 2, "4p"]]))


def test_every_seat_declares_its_void_before_play() -> None:
    with pytest.raises(RuleViolation, match="declares its void suit"):
        apply_all(rec([*VOIDS[:3], ["draw", 0, "3p"], ["discard", 0, "5p"]]))
    with pytest.raises(RuleViolation, match="before the first discard"):
        apply_all(rec([*OPENING, ["void", 3, "p"]]))
    with pytest.raises(RuleViolation, match="already declared"):
        apply_all(rec([*VOIDS, ["void", 0, "m"]]))


def test_the_void_suit_is_discarded_first() -> None:
    events = [["void", 0, "m"], *VOIDS[1:], ["draw", 0, "3p"], ["discard", 0, "5p"]]
    with pytest.raises(RuleViolation, match="must discard the void suit first"):
        apply_all(rec(events))
    ok = [["void", 0, "m"], *VOIDS[1:], ["draw", 0, "3p"], ["discard", 0, "1m"]]
    apply_all(rec(ok))


def test_a_hand_holding_its_void_suit_cannot_win() -> None:
    events = [*VOIDS[:2], ["void", 2, "p"], VOIDS[3], ["draw", 0, "3p"], ["discard", 0, "5p"]]
    with pytest.raises(RuleViolation, match="void suit 筒"):
        apply_all(rec([*events, ["win", 2, "5p", {"from": 0}]]))


def test_the_void_suit_is_never_claimed_and_there_is_no_chi() -> None:
    events = [*VOIDS[:1], ["void", 1, "p"], *VOIDS[2:], ["draw", 0, "3p"], ["discard", 0, "9p"]]
    with pytest.raises(RuleViolation, match="void suit: it may not be claimed"):
        apply_all(rec([*events, ["pong", 1, "9p"]]))
    with pytest.raises(RuleViolation, match="chi events do not exist in sichuan"):
        apply_all(rec([*OPENING[:-1], ["discard", 0, "2p"], ["chi", 1, ["1p", "2p", "3p"]]]))


def test_kong_money_is_paid_when_the_kong_stands() -> None:
    hands = {**HANDS, 0: "1m1m1m456m789m1p2p5p9p"}
    events = [*VOIDS, ["draw", 0, "1m"], ["concealed_kong", 0, "1m"]]
    table = apply_all(record(V, hands, ev(*events)))
    (kong,) = table.state.kong_money.kongs
    assert kong.kind is MeldKind.CONCEALED_KONG
    assert kong.payments == ((1, 0, 2), (2, 0, 2), (3, 0, 2))


def test_draw_checks_refund_and_pay_the_ready() -> None:
    """Nobody wins. East 暗杠s (+6) and breaks its hand: at the end it is not ready, so it
    refunds the kong money (退税) and pays each ready seat that seat's best multiplier
    (查大叫): South ×4 (清一色), West ×1. North, not ready either, pays them too."""
    outcome = scripted_hand(
        V,
        {
            0: "111p234p567p345s2s",
            1: "111m234m567m99m45m",  # ready on 3m / 6m, 清一色
            2: "234p456p789p12s55s",  # ready on 3s
            3: "2p4p6p8p8p1s2s3s4s6s8s9s9s",  # not ready
        },
        [Scripted("m", kongs=["1p"], discards=["3s"]), Scripted("s"), Scripted("m"), Scripted("m")],
        {0: "1p9s"},
    )
    assert outcome.outcome == "draw"
    #                kong  refund  查大叫
    assert outcome.deltas == (6 - 6 - 5, -2 + 2 + 8, -2 + 2 + 2, -2 + 2 - 5)
    assert {"cha_da_jiao", "tax_refund"} <= set(outcome.notes)


def test_a_won_kong_discard_moves_the_kong_money() -> None:
    """呼叫转移: East 暗杠s, discards the replacement 3p and South wins on it (杠上炮, ×2):
    the kong's income goes to South."""
    outcome = scripted_hand(
        V,
        {
            0: "111p234p567p345s2s",
            1: "123m456m789m99m4p5p",
            2: "234p456p789p12s55s",
            3: "1s1s1s6s7s8s6p7p8p9s9s2s2s",
        },
        [Scripted("m", kongs=["1p"]), Scripted("s", wins=["3p"]), Scripted("m"), Scripted("m")],
        {0: "1p3p"},
    )
    win = outcome.wins[0]
    assert (win.seat, win.from_seat, win.total) == (1, 0, 2)
    assert {f.id for f in win.fans} == {"ping_hu", "kong_discard"}
    assert "hu_jiao_zhuan_yi" in outcome.notes
    # kong: W and N pay South (East's income moved), South "pays itself"; win: East pays 2
    assert outcome.deltas == (-2, 4 + 2, -2, -2)


def test_the_hand_ends_when_three_have_won() -> None:
    outcome = scripted_hand(
        V,
        {0: "123m456m789m1p2p5p9p", 1: "123456789s4p6p9p9p", 2: "123s456s789s4p6p8p8p"},
        [
            Scripted("s", wins=[]),
            Scripted("m", wins=None),
            Scripted("m", wins=None),
            Scripted("p", wins=None),
        ],
        {0: "3p"},
        seed=3,
    )
    assert len(outcome.wins) <= 3
    if len(outcome.wins) == 3:
        assert outcome.record.events[-1].kind == "win"
    seats = [w.seat for w in outcome.wins]
    assert len(set(seats)) == len(seats)


def test_recorded_results_are_compared() -> None:
    outcome = scripted_hand(
        V,
        {0: "111p234p567p345s2s", 1: "123m456m789m99m4p5p"},
        [Scripted("m", kongs=["1p"]), Scripted("s", wins=["3p"]), Scripted("m"), Scripted("m")],
        {0: "1p3p"},
    )
    again = replay(outcome.record)
    assert again.deltas == outcome.deltas
    assert t("3p") == outcome.wins[0].tile


def test_a_robbed_kong_earns_nothing_and_play_goes_on_after_the_robber() -> None:
    hands = {**HANDS, 1: "123456789s1p3p9p9p"}  # South waits on 2p
    events = [
        *VOIDS,
        ["draw", 0, "3p"],
        ["discard", 0, "2p"],  # South lets it pass, North pongs
        ["pong", 3, "2p"],
        ["discard", 3, "8m"],
        ["draw", 0, "4s"],
        ["discard", 0, "4s"],
        ["draw", 1, "5s"],
        ["discard", 1, "5s"],
        ["draw", 2, "6s"],
        ["discard", 2, "6s"],
        ["draw", 3, "2p"],
        ["added_kong", 3, "2p"],
        ["win", 1, "2p", {"from": 3}],  # 抢杠胡
    ]
    table = apply_all(record(V, hands, ev(*events, ["draw", 2, "1m"])))
    (win,) = table.wins
    assert win.source == "robbing_kong"
    assert {f.id for f in win.fans} == {"ping_hu", "robbing_kong"}
    assert win.deltas == (0, 2, 0, -2)
    assert not table.state.kong_money.kongs  # a robbed 补杠 earns nothing
    assert table.seats[3].melds[0].kind is MeldKind.PONG
    with pytest.raises(RuleViolation, match="seat 2 draws next"):
        apply_all(record(V, hands, ev(*events, ["draw", 3, "1m"])))
