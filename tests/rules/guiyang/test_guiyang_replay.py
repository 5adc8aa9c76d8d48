"""贵阳捉鸡 replayed event by event: the worked example's two hands (闷豆 then 自摸 大对子;
the 热炮 after a 转弯豆), 抢杠 of a 转弯豆, the 鸡 layer (幺鸡, 翻鸡, 金鸡, 冲锋鸡, 责任鸡) with
its turned-up tile, 查叫 on a drawn hand, the winner dealing next, and the illegal records
refused with the rule named.
"""

from __future__ import annotations

import pytest
from guiyang_helpers import (
    APP,
    CHICKEN_EVENTS,
    CHICKEN_HANDS,
    Scripted,
    V,
    apply_all,
    ev,
    record,
    scripted_hand,
    t,
)

from paipu.rules.replay import RuleViolation, replay
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.variants import get_variant

# South's 大对子 of the worked example, with its four 2条 for the 闷豆.
SOUTH = "2222s111m444p7s99m"


def _quiet(**kw: object) -> Scripted:
    return Scripted(wins=[], **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- the worked example


def test_worked_example_men_dou_then_self_drawn_big_pairs() -> None:
    """South's 闷豆 (20 from each) and its self-drawn 大对子 (30 from each): South +150."""
    outcome = scripted_hand(
        V,
        {1: SOUTH},
        [_quiet(), Scripted(kongs=["2s"], wins=["9m"], self_draw_only=True), _quiet(), _quiet()],
        {1: "7s6m9m"},  # 7s; the kong's replacement 6m (discarded); then 9m
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile, win.total) == (1, None, t("9m"), 30)
    assert outcome.deltas == (-50, 150, -50, -50)
    assert "kong_payment:concealed_kong" in outcome.notes
    assert win.detail["dou"][0]["kind"] == "闷豆"


def test_worked_example_hot_discard_after_a_turning_dou() -> None:
    """West pongs East's 5筒, adds the fourth (转弯豆), discards South's 7条 from the
    replacement: 热炮. West's 转弯豆 is void, West pays 30 + 30 + 20: South +120."""
    outcome = scripted_hand(
        V,
        {
            0: "5p1m2m3m4m6m7m8m1s3s4s5s6s",
            1: SOUTH,
            2: "55p9s1p2p3p6p7p8p2m3m4m6s",
            3: "5m5m8s8s9p9p1p2p3p7m8m9m3s",
        },
        [
            Scripted(wins=[], discards=["5p"]),
            Scripted(kongs=["2s"], wins=["7s"]),
            Scripted(wins=[], pongs=["5p"], kongs=["5p"], discards=["9s"]),
            _quiet(),
        ],
        {1: "7s6m", 2: "5p7s"},
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile) == (1, 2, t("7s"))
    assert [f.id for f in win.fans] == ["all_pungs", "hot_discard"]
    assert win.deltas == (0, 60, -60, 0)
    assert outcome.deltas == (-20, 120, -80, -20)
    assert "hot_discard" in outcome.notes and "dou_void" in outcome.notes
    assert [d["counted"] for d in win.detail["dou"]] == [True, False]


def test_robbing_a_turning_dou() -> None:
    """South, a 无豆 平胡 ready on 5筒, robs West's 转弯豆: counts as 自摸, West pays all
    three shares (30) and its 转弯豆 never stands."""
    outcome = scripted_hand(
        V,
        {
            0: "5p1m2m3m4m6m7m8m1s3s4s5s6s",
            1: "123m456m789s34p99p",
            2: "55p9s1p2p3p6p7p8p2m3m4m6s",
            3: "5m5m8s8s9p7p1p2p3p7m8m9m3s",
        },
        [
            Scripted(wins=[], discards=["5p"]),
            Scripted(wins=["5p"]),
            Scripted(wins=[], pongs=["5p"], kongs=["5p"], discards=["9s"]),
            _quiet(),
        ],
        {2: "5p"},
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.source) == (1, 2, "robbing_kong")
    assert [f.id for f in win.fans] == ["ping_hu", "robbing_kong"]
    assert outcome.deltas == (0, 30, -30, 0)
    assert "robbing_kong" in outcome.notes and "kong_payment:added_kong" not in outcome.notes


# ---------------------------------------------------------------------- the 鸡 layer


def test_chickens_flip_and_charging_chicken() -> None:
    """App profile: South self-draws 平胡 (1 from each). 翻鸡 turns 3万: 4万 is a 鸡 too.
    South holds 2 幺鸡 + 1 四万 = 3 (from each: +9), East (ready) 2 四万 = 2 (+6), West and
    North are not ready (their 鸡 do not count); East's 冲锋鸡 earns 2 from each (+6)."""
    rec = record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS, ["turn_up", None, "3m"]), rules=APP)
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert win.deltas == (-1, 3, -1, -1)
    assert win.detail["chickens"] == [2, 3, 1, 1]
    assert win.detail["chickens_counted"] == [0, 1]
    assert win.detail["flip_chicken"] == "4m" and win.detail["charging_chicken"] == 0
    assert outcome.deltas == (8, 8, -8, -8)
    assert {"turn_up", "flip_chicken", "chickens", "charging_chicken"} <= set(outcome.notes)


def test_gold_chicken() -> None:
    """翻鸡 turns 9条: the turned kind is 幺鸡 itself, 金鸡: each 幺鸡 is 2, 冲锋鸡 4."""
    rec = record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS, ["turn_up", None, "9s"]), rules=APP)
    outcome = replay(rec, check=True)
    assert outcome.wins[0].detail["chickens"] == [0, 4, 2, 0]
    assert outcome.deltas == (11 - 4, 3 + 12 - 4, -1 - 4 - 4, -1 - 4 - 4)
    assert "gold_chicken" in outcome.notes
    no_gold = {**APP, "gold_chicken": False}
    rec = record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS, ["turn_up", None, "9s"]), rules=no_gold)
    assert replay(rec).wins[0].detail["chickens"] == [0, 2, 1, 0]


def test_chickens_without_the_ready_rule_and_without_charging() -> None:
    rules = {**APP, "chickens_need_ready": False, "charging_chicken": False}
    rec = record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS, ["turn_up", None, "3m"]), rules=rules)
    outcome = replay(rec)
    # 鸡 2, 3, 1, 1 each collected from every other seat; the win 1 from each
    assert outcome.deltas == (-1 + 6 - 5, 3 + 9 - 4, -1 + 3 - 6, -1 + 3 - 6)


def test_liable_chicken() -> None:
    """South pongs East's first 幺鸡: 责任鸡, East pays South 1 and there is no 冲锋鸡."""
    events = [
        ["draw", 0, "6m"],
        ["discard", 0, "1s"],
        ["pong", 1, "1s"],
        ["discard", 1, "4m"],
        ["draw", 2, "5s"],
        ["discard", 2, "5s"],
        ["draw", 3, "1m"],
        ["discard", 3, "1m"],
        ["draw", 0, "8s"],
        ["discard", 0, "8s"],
        ["draw", 1, "5m"],
        ["win", 1, "5m"],
        ["turn_up", None, "3m"],
    ]
    outcome = replay(record(V, CHICKEN_HANDS, ev(*events), rules=APP), check=True)
    win = outcome.wins[0]
    assert win.detail["liable_chicken"] == [0, 1, 1] and "charging_chicken" not in win.detail
    # South: 3 幺鸡 (from each); East 2 四万; 责任鸡 East → South 1; the win 1 from each
    assert win.detail["chickens"][:2] == [2, 3]
    assert outcome.deltas == (-1 - 3 + 6 - 1, 3 + 9 - 2 + 1, -1 - 3 - 2, -1 - 3 - 2)
    assert "liable_chicken" in outcome.notes


def test_the_turned_tile_is_checked() -> None:
    with pytest.raises(RuleViolation, match="the tile turned up after the win"):
        replay(record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS), rules=APP))
    early = [*CHICKEN_EVENTS[:2], ["turn_up", None, "3m"]]
    with pytest.raises(RuleViolation, match="only after the win"):
        apply_all(record(V, CHICKEN_HANDS, ev(*early), rules=APP))
    with pytest.raises(RuleViolation, match="turns no tile up"):  # the seed profile: no 鸡
        replay(record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS, ["turn_up", None, "3m"])))
    twice = [*CHICKEN_EVENTS, ["turn_up", None, "3m"], ["turn_up", None, "4m"]]
    with pytest.raises(RuleViolation, match="already turned up"):
        replay(record(V, CHICKEN_HANDS, ev(*twice), rules=APP))


# ---------------------------------------------------------------------- illegal records


def test_ping_hu_on_a_discard_without_dou_is_a_false_win() -> None:
    hands = {1: "123m456m789p11s45s"}
    events = [["draw", 0, "6s"], ["discard", 0, "6s"], ["win", 1, "6s", {"from": 0}]]
    with pytest.raises(RuleViolation, match="有豆允许点胡"):
        replay(record(V, hands, ev(*events)))


def test_no_chi() -> None:
    hands = {1: "123m456m789p11s45s"}
    events = [["draw", 0, "6p"], ["discard", 0, "6p"], ["chi", 1, ["4p", "5p", "6p"]]]
    with pytest.raises(RuleViolation, match="chi"):
        apply_all(record(V, hands, ev(*events)))


# ---------------------------------------------------------------------- 查叫, the next dealer


def test_cha_jiao_on_a_drawn_hand() -> None:
    """Nobody wins; South is ready on a 大对子 (30), East on a 平胡 (10): West and North,
    not ready, pay each of them that value."""
    hands = {
        0: "123m456m789p11s4s6s",  # ready on 5s: 平胡 10
        1: "111m444p777s99m55s",  # ready on 9m / 5s: 大对子 30
        2: "2m5m8m1p4p7p2s5s8s3p6p9p7m",
        3: "3m6m9m2p5p8p3s6s9s1s4s7s8m",
    }
    outcome = scripted_hand(V, hands, [_quiet(), _quiet(), _quiet(), _quiet()])
    assert outcome.outcome == "draw" and not outcome.wins
    assert outcome.deltas == (20, 60, -40, -40)
    assert "cha_jiao" in outcome.notes


def test_the_winner_deals_next() -> None:
    variant = get_variant(V)
    outcome = replay(record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS)))
    setup = HandSetup(
        variant=V,
        game="g",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.BALANCED,) * 4,
        dealer=0,
    )
    assert variant.next_setup(setup, outcome).dealer == 1
    drawn = scripted_hand(
        V, {0: "123m456m789p11s4s6s"}, [_quiet(), _quiet(), _quiet(), _quiet()], dealer=2
    )
    assert variant.next_setup(setup, drawn).dealer == 0  # a drawn hand: the dealer stays


def test_dian_dou_paid_by_the_konger_option() -> None:
    """点豆 (a kong of East's discard): the discarder pays the konger 10 (the seed), or with
    dian_dou_payer = konger the konger pays the discarder (pub-gy1's 百科口径)."""
    hands = {
        0: "5p1m2m3m4m6m7m8m1s3s4s5s6s",
        1: SOUTH,
        2: "555p9s1p2p3p6p7p8p2m3m4m",
        3: "5m5m8s8s9p9p1p2p3p7m8m9m3s",
    }
    events = [
        ["draw", 0, "6s"],
        ["discard", 0, "5p"],
        ["kong", 2, "5p"],
        ["draw", 2, "9m"],
        ["discard", 2, "9m"],
        ["draw", 3, "4p"],
        ["discard", 3, "4p"],
    ]
    table = apply_all(record(V, hands, ev(*events)))
    assert table.state.kong_money.transfers() == [(0, 2, 10)]
    table = apply_all(record(V, hands, ev(*events), rules={"dian_dou_payer": "konger"}))
    assert table.state.kong_money.transfers() == [(2, 0, 10)]
