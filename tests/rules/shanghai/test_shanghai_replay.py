"""上海麻将 replay: hand-written records checked event by event — the dice and what the hand
carries (开宝, 黄番), flowers set aside and replaced, a win without a fan refused (诈和),
同圈过水, 承包 from every seat's calls, the next hand's dealer and carried doublings.
"""

from __future__ import annotations

import pytest
from shanghai_helpers import record, t

from paipu.rules.melds import Meld, MeldKind
from paipu.rules.replay import ComputedWin, HandOutcome, RuleViolation, replay
from paipu.rules.score import WinFlags
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.variants import get_variant
from paipu.rules.variants.shanghai import liable_seat

FLUSH = "123m456m789m111z5m"  # 混一色, ready on 5万 (the pair)


def test_a_self_draw_with_doubles_and_a_carried_huang_fan() -> None:
    """Doubles thrown (开宝 +1) in a hand that carries one 黄番: 混一色 2 + 2 = 4 番, a share
    2 × 16 = 32 (under the 双勒 of 40)."""
    rec = record(
        {0: FLUSH},
        [["dice", None, [2, 2], {"huang_fan": 1}], ["draw", 0, "5m"], ["win", 0, "5m"]],
    )
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["kaibao", "huang_fan", "half_flush"]
    assert win.total == 4
    assert win.detail["share"] == 32
    assert outcome.deltas == (96, -32, -32, -32)
    assert "dice:doubles" in outcome.notes


def test_a_flower_is_set_aside_replaced_and_counted() -> None:
    rec = record(
        {0: FLUSH},
        [["draw", 0, "1f"], ["flower", 0, "1f"], ["draw", 0, "5m"], ["win", 0, "5m"]],
        wall="1f",
        tail="5m",
    )
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert win.detail["flowers"] == 1
    assert outcome.deltas == (36, -12, -12, -12)  # (2 + 1) × 4


def test_a_flower_must_be_set_aside_before_discarding() -> None:
    rec = record({0: FLUSH}, [["draw", 0, "1f"], ["discard", 0, "9m"]])
    with pytest.raises(RuleViolation, match="set aside 1f"):
        replay(rec)


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        ([["draw", 0, "9p"], ["dice", None, [1, 2]]], "dice are thrown before the first draw"),
        ([["dice", None, [1, 2], {"laizi": 1}]], "unknown carried counter"),
    ],
)
def test_bad_dice_are_refused(events: list[list[object]], rule: str) -> None:
    with pytest.raises(RuleViolation, match=rule):
        replay(record({0: FLUSH}, events))


def test_a_win_without_a_fan_is_a_false_win() -> None:
    """清混碰: a complete hand of mixed suits is not a win (诈和)."""
    rec = record({0: "123m456p789s123m5z"}, [["draw", 0, "5z"], ["win", 0, "5z"]])
    with pytest.raises(RuleViolation, match=r"false win.*清混碰"):
        replay(rec)
    qiaoma = record(
        {0: "123m456p789s123m5z"},
        [["draw", 0, "5z"], ["win", 0, "5z"]],
        rules={"ruleset": "qiaoma"},
    )
    with pytest.raises(RuleViolation, match="不敲不能胡牌"):
        replay(qiaoma)  # 敲麻 needs no fan, but the 敲 first


#: South waits on 6万 / 9万 (混一色); West holds three 6万; East discards a 6万.
PASSED = {
    0: "6m2s3s4s5s6s7s8s9s2z3z4z9m",
    1: "123m789m111z5578m",
    2: "666m123p456p789p1s",
}
PASSED_EVENTS = [
    ["draw", 0, "1p"],
    ["discard", 0, "6m"],  # South could win; West pongs instead
    ["pong", 2, "6m"],
    ["discard", 2, "6m"],
    ["win", 1, "6m", {"from": 2}],
]


def test_tong_quan_guo_shui() -> None:
    """同圈过水: South let a win on 6万 pass and may not win on a 6万 before its own next
    draw (不能弃先胡后 [seed-A 3.4])."""
    with pytest.raises(RuleViolation, match="同圈过水"):
        replay(record(PASSED, PASSED_EVENTS))
    outcome = replay(record(PASSED, PASSED_EVENTS, rules={"missed_win_lock": "off"}))
    assert outcome.deltas == (0, 8, -8, 0)


def _melds(*calls: tuple[int, int]) -> list[list[Meld]]:
    """Each seat's melds, a pong for each (caller, feeder)."""
    melds: list[list[Meld]] = [[] for _ in range(4)]
    for n, (caller, feeder) in enumerate(calls):
        melds[caller].append(Meld(MeldKind.PONG, (n,) * 3, feeder))
    return melds


def test_chengbao_counts_calls_in_both_directions() -> None:
    """承包: "吃碰杠一家或被一家吃碰杠超过3次（包括3次）" — the winner's three calls from a seat, or
    that seat's three calls from the winner."""
    fed = _melds((1, 2), (1, 2), (1, 2))
    assert liable_seat(fed, 1, None, 3, either=True) == 2
    took = _melds((2, 1), (2, 1), (2, 1))
    assert liable_seat(took, 1, None, 3, either=True) == 2
    assert liable_seat(took, 1, None, 3, either=False) is None
    assert liable_seat(_melds((1, 2), (1, 2)), 1, None, 3, either=True) is None
    # two liable seats: the discarder when it is one, else the first after the winner
    both = _melds((1, 3), (1, 3), (1, 3), (2, 1), (2, 1), (2, 1))
    assert liable_seat(both, 1, 3, 3, either=True) == 3
    assert liable_seat(both, 1, None, 3, either=True) == 2


def _setup(**fields: object) -> HandSetup:
    return HandSetup(
        variant="shanghai",
        game="g",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.BALANCED,) * 4,
        **fields,  # type: ignore[arg-type]
    )


def _outcome(events: list[list[object]], wins: tuple[ComputedWin, ...] = ()) -> HandOutcome:
    rec = record({0: FLUSH}, events)
    return HandOutcome(rec, "win" if wins else "draw", wins, (0, 0, 0, 0), (), (), ())


def _win(seat: int, from_seat: int | None) -> ComputedWin:
    return ComputedWin(seat, from_seat, t("5m"), 2, (), (0, 0, 0, 0), WinFlags())


def test_kaibao_and_huang_fan_are_carried_while_hands_are_drawn() -> None:
    """开宝 (doubles) and 黄番 (a drawn hand) carry to the next hand and accumulate; a win
    clears them; after a draw the dealer stays [seed-A 2.1, seed-C 1.4]."""
    shanghai = get_variant("shanghai")
    drawn = _outcome([["dice", None, [4, 4], {"kaibao": 1, "huang_fan": 2}]])
    after = shanghai.next_setup(_setup(dealer=2), drawn)
    assert after.dealer == 2
    assert after.extra == {"kaibao": 2, "huang_fan": 3}
    won = _outcome([["dice", None, [4, 4], {"kaibao": 1}]], (_win(3, 1),))
    after = shanghai.next_setup(_setup(dealer=2), won)
    assert after.dealer == 3  # the winner deals (强盗庄)
    assert after.extra == {"kaibao": 0, "huang_fan": 0}
    off = shanghai.next_setup(
        _setup(rules={"kaibao": False, "huang_fan": False}),
        _outcome([["dice", None, [4, 4], {"kaibao": 1, "huang_fan": 2}]]),
    )
    assert off.extra == {"kaibao": 0, "huang_fan": 0}


def test_the_dealer_after_several_wins_on_one_discard() -> None:
    """Seed-C: the discarder deals; seed-A (option): the seat after the winner nearest the
    discarder."""
    shanghai = get_variant("shanghai")
    wins = (_win(3, 1), _win(0, 1))  # North and East win on South's discard
    both = _outcome([], wins)
    assert shanghai.next_setup(_setup(), both).dealer == 1
    nearest = shanghai.next_setup(_setup(rules={"multi_win_dealer": "after_nearest_winner"}), both)
    assert nearest.dealer == 0  # North (seat 3) is nearest after South: its next seat, East


def test_kong_replacement_through_a_flower() -> None:
    """杠后也需要补花 [seed-C 1.6]: a kong's replacement turns up a flower, whose replacement
    wins: still 杠开. 混一色 2 + 杠开 1 = 3 番, 花 4 (the flower 夏 1, a concealed 东 kong 3):
    (2 + 4) × 8 = 48."""
    rec = record(
        {0: "1111z123m456m78m5m"},
        [
            ["draw", 0, "5m"],
            ["concealed_kong", 0, "1z"],
            ["draw", 0, "2f"],
            ["flower", 0, "2f"],
            ["draw", 0, "9m"],
            ["win", 0, "9m"],
        ],
        wall="5m",
        tail="2f9m",
        rules={"lezi": 0},
    )
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["kong_replacement", "half_flush"]
    assert win.detail["flowers"] == 4
    assert outcome.deltas == (144, -48, -48, -48)


#: 敲麻: East declares (敲) on its first turn, discarding the 9筒 it drew, and the others
#: draw and discard until East draws again.
QIAO = [
    ["draw", 0, "9p"],
    ["ready", 0],
    ["discard", 0, "9p"],
    ["draw", 1, "8s"],
    ["discard", 1, "8s"],
    ["draw", 2, "8p"],
    ["discard", 2, "8p"],
    ["draw", 3, "7p"],
    ["discard", 3, "7p"],
]


def test_qiaoma_declare_then_win() -> None:
    """敲麻 [seed-B]: "听牌就敲一下…不敲不能胡牌": after 敲, East self-draws its 单吊 5z:
    门清 + 单吊, 2 番: a share 2 × 4 = 8."""
    rec = record(
        {0: "123m456p789s123m5z"},
        [*QIAO, ["draw", 0, "5z"], ["win", 0, "5z"]],
        rules={"ruleset": "qiaoma"},
    )
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["concealed_hand", "single_wait"]
    assert outcome.deltas == (24, -8, -8, -8)
    assert "ready" in outcome.notes


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        # after 敲 the hand is locked: the tile drawn is discarded
        ([*QIAO, ["draw", 0, "1s"], ["discard", 0, "1m"]], "its hand may not change"),
        # the declaring discard must leave a ready hand
        ([["draw", 0, "9p"], ["ready", 0], ["discard", 0, "3m"]], "may not declare"),
        # a ready seat neither chis nor pongs
        ([*QIAO[:3], ["draw", 1, "1z"], ["discard", 1, "1z"], ["pong", 0, "1z"]], "may not change"),
    ],
)
def test_qiaoma_the_locked_hand(events: list[list[object]], rule: str) -> None:
    hands = {0: "123m456p789s11z55z"} if events[-1][0] == "pong" else {0: "123m456p789s123m5z"}
    with pytest.raises(RuleViolation, match=rule):
        replay(record(hands, events, rules={"ruleset": "qiaoma"}))


def test_qinghunpeng_has_no_qiao() -> None:
    rec = record({0: FLUSH}, [["draw", 0, "9p"], ["ready", 0], ["discard", 0, "9p"]])
    with pytest.raises(RuleViolation, match="清混碰 has no 敲"):
        replay(rec)


def test_several_winners_on_one_discard() -> None:
    """一炮多响 [seed-A 3.1]: South and North both win on East's 5万, each paid one share by
    East alone (混一色: 2 × 4 = 8); the discarder deals next (seed-C)."""
    rec = record(
        {
            0: "5m1s2s3s4s5s6s7s8s9s4z4z4z",
            1: "123m456m789m111z5m",
            3: "234m678m999m333z5m",
        },
        [
            ["draw", 0, "9s"],
            ["discard", 0, "5m"],
            ["win", 1, "5m", {"from": 0}],
            ["win", 3, "5m", {"from": 0}],
        ],
    )
    outcome = replay(rec, check=True)
    assert [w.seat for w in outcome.wins] == [1, 3]
    assert outcome.deltas == (-16, 8, 0, 8)
    assert "multiple_win" in outcome.notes
    assert get_variant("shanghai").next_setup(_setup(), outcome).dealer == 0


def test_eight_flowers_win_on_the_last_replacement() -> None:
    """八花齐 [seed-A 1: "抓满春夏秋冬梅兰竹菊8朵花即可胡牌"]: East, dealt seven flowers, draws
    the eighth and wins on the replacement of the last, whatever its tiles (4 番, 花 8:
    (2 + 8) × 16 = 160, capped at one 勒子, 20)."""
    replacements = ["3p", "5z", "4p", "1m", "6z", "8m", "2s", "1p"]
    events: list[list[object]] = [["draw", 0, "8f"]]
    for n, tile in enumerate(replacements, 1):
        events += [["flower", 0, f"{n}f"], ["draw", 0, tile]]
    rec = record(
        {0: "1234567f159m268p"},
        [*events, ["win", 0, "1p"]],
        wall="8f",
        tail="".join(replacements),
    )
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["eight_flowers"]
    assert win.detail["flowers"] == 8
    assert outcome.deltas == (60, -20, -20, -20)
