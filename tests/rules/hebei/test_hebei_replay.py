"""河北麻将 replayed event by event: a win and its fans, 吃 refused unless the room allows it,
带混儿's indicator before the first draw, kong money and 黄庄黄杠, the dealer's rotation, the
optional 听 (a declared hand may not change); and self-play auditing ``ok``."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hebei_helpers import V, record

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.variants import get_variant

#: South is ready on 5万 (门清 捉五魁).
HANDS = {1: "46m123p789p111s99s"}


def test_a_self_drawn_win_replayed() -> None:
    events = [["draw", 0, "1z"], ["discard", 0, "1z"], ["draw", 1, "5m"], ["win", 1, "5m"]]
    outcome = replay(record(HANDS, events), check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["ping_hu", "men_qing", "zhuo_wu_kui", "self_draw"]
    assert outcome.deltas == (-4, 12, -4, -4)


def test_a_discard_win_and_the_self_draw_only_room() -> None:
    events = [["draw", 0, "5m"], ["discard", 0, "5m"], ["win", 1, "5m", {"from": 0}]]
    assert replay(record(HANDS, events)).deltas == (-4, 4, 0, 0)
    with pytest.raises(RuleViolation, match="self-draw only"):
        replay(record(HANDS, events, rules={"dianpao_hu": False}))


def test_chi_only_where_the_room_allows_it() -> None:
    events = [["draw", 0, "5m"], ["discard", 0, "5m"], ["chi", 1, ["4m", "5m", "6m"]]]
    with pytest.raises(RuleViolation, match="without 吃"):
        replay(record(HANDS, events))
    table = get_variant(V).new_table(
        record(HANDS, events, rules={"chi": True}),
        get_variant(V).resolve_options({"chi": True}),
    )
    for index, event in enumerate(record(HANDS, events, rules={"chi": True}).events):
        table.apply(index, event)
    assert table.seats[1].melds[-1].kind.value == "chi"


def test_the_wild_indicator() -> None:
    """带混儿: the indicator before the first draw; 北 (4z) turned makes 东 (1z) the 混."""
    events = [
        ["indicator", None, "4z", {"role": "wild"}],
        ["draw", 0, "1z"],
        ["discard", 0, "1z"],
        ["draw", 1, "5m"],
        ["win", 1, "5m"],
    ]
    outcome = replay(record(HANDS, events, rules={"hun": "on"}), check=True)
    assert [f.id for f in outcome.wins[0].fans][:3] == ["ping_hu", "men_qing", "su_hu"]
    assert outcome.deltas == (-8, 24, -8, -8)
    with pytest.raises(RuleViolation, match="before the first draw"):
        replay(record(HANDS, events[1:], rules={"hun": "on"}))
    with pytest.raises(RuleViolation):  # a room without 混儿 has no indicator
        replay(record(HANDS, events))


def test_kong_money_and_huang_zhuang_huang_gang() -> None:
    hands = {
        0: "258m258p258s369m7z",
        1: "46m123p789p1111s9s",
        2: "369p369s147m147p7z",
        3: "47s23456z2345z6z1z",
    }
    events = [
        ["draw", 0, "1z"],
        ["discard", 0, "1z"],
        ["draw", 1, "9s"],
        ["concealed_kong", 1, "1s"],
        ["draw", 1, "2z"],
        ["discard", 1, "2z"],
        ["draw", 2, "1z"],
        ["discard", 2, "1z"],
        ["draw", 3, "1z"],
        ["discard", 3, "1z"],
        ["draw", 0, "3z"],
        ["discard", 0, "3z"],
        ["draw", 1, "5m"],
        ["win", 1, "5m"],
    ]
    rules = {"kong_money": True}
    outcome = replay(record(hands, events, rules=rules), check=True)
    assert outcome.deltas == (-4 - 2, 12 + 6, -4 - 2, -4 - 2)
    assert replay(record(hands, events)).deltas == (-4, 12, -4, -4)  # kong money off


FIXED = {
    0: "258m258p258s369m7z",
    1: "46m123p789p111s99s",
    2: "369p369s147m147p7z",
    3: "47s23456z2345z6z1z",
}
DECLARED = [
    ["draw", 0, "1z"],
    ["discard", 0, "1z"],
    ["draw", 1, "2z"],
    ["ready", 1],
    ["discard", 1, "2z"],
    ["draw", 2, "3z"],
    ["discard", 2, "3z"],
    ["draw", 3, "4z"],
    ["discard", 3, "4z"],
    ["draw", 0, "5z"],
    ["discard", 0, "5z"],
]


def test_ting_declared_then_the_hand_may_not_change() -> None:
    """South declares 听 (报听) with its discard: its hand then stays as it is (the drawn
    tile is discarded, no 碰), and its win is worth what it was (听牌不加番)."""
    won = replay(record(FIXED, [*DECLARED, ["draw", 1, "5m"], ["win", 1, "5m"]]), check=True)
    assert won.deltas == (-4, 12, -4, -4) and "ready" in won.notes
    with pytest.raises(RuleViolation, match="听"):
        replay(record(FIXED, [*DECLARED, ["draw", 1, "6z"], ["discard", 1, "9s"]]))
    pong = [*DECLARED[:-2], ["draw", 0, "9s"], ["discard", 0, "9s"], ["pong", 1, "9s"]]
    with pytest.raises(RuleViolation, match="听"):
        replay(record(FIXED, pong))


def test_ting_needs_a_ready_hand_and_the_room() -> None:
    early = [["draw", 0, "1z"], ["ready", 0], ["discard", 0, "1z"]]
    with pytest.raises(RuleViolation, match="cannot declare 听"):
        replay(record(FIXED, early))
    with pytest.raises(RuleViolation, match="without 听"):
        replay(record(FIXED, DECLARED, rules={"ting": False}))


def test_ting_on_a_hand_ready_only_through_its_hun() -> None:
    """With 带混儿 and 听 both on, a hand ready only by its 混 may declare: 46万 and a 混
    (中, from the turned-up 白) make a run, 9条 waits for its pair (or the 混 pairs it and
    5万 completes the run). Without the 混 it is not ready, so the declaration is refused."""
    hands = {**FIXED, 1: "46m123p789p111s9s5z"}
    events = [
        ["indicator", None, "7z", {"role": "wild"}],
        ["draw", 0, "1z"],
        ["discard", 0, "1z"],
        ["draw", 1, "2z"],
        ["ready", 1],
        ["discard", 1, "2z"],
        ["draw", 2, "3z"],
        ["discard", 2, "3z"],
        ["draw", 3, "6z"],
        ["discard", 3, "6z"],
        ["draw", 0, "3z"],
        ["discard", 0, "3z"],
        ["draw", 1, "9s"],
        ["win", 1, "9s"],
    ]
    outcome = replay(record(hands, events, rules={"hun": "on"}), check=True)
    assert "ready" in outcome.notes and outcome.wins[0].seat == 1
    with pytest.raises(RuleViolation, match="cannot declare 听"):
        replay(record(hands, events[1:]))  # no 混: not ready


def test_the_dealer_rotation() -> None:
    """The dealer stays when it wins or the hand is drawn; else its next seat deals."""
    variant = get_variant(V)
    setup = HandSetup(
        variant=V,
        game="g",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.BALANCED,) * 4,
        dealer=0,
    )
    south = replay(
        record(
            HANDS, [["draw", 0, "1z"], ["discard", 0, "1z"], ["draw", 1, "5m"], ["win", 1, "5m"]]
        )
    )
    assert variant.next_setup(setup, south).dealer == 1
    assert variant.next_setup(replace_dealer(setup, 2), south).dealer == 3
    east = replay(record({0: "46m123p789p111s99s"}, [["draw", 0, "5m"], ["win", 0, "5m"]]))
    assert variant.next_setup(setup, east).dealer == 0


def replace_dealer(setup: HandSetup, dealer: int) -> HandSetup:
    from dataclasses import replace

    return replace(setup, dealer=dealer)


# ---------------------------------------------------------------------- self-play


def _run(hands: int, seed: int, rules: dict | None = None) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    for game_lines, game_stats in simulate(
        game_jobs(V, hands, seed, DEFAULT_PLAYERS, rules or {}), 1
    ):
        lines += game_lines
        stats.merge(game_stats)
    return lines, stats


def _audit(lines: list[str]) -> Counter[str]:
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    return verdicts


def test_self_play_audits_ok() -> None:
    lines, stats = _run(100, seed=1)
    assert _audit(lines) == {"ok": 100}
    assert "chi" not in stats.events and "indicator" not in stats.events
    assert stats.events["ready"] > 0
    assert {"men_qing", "bian_ka_diao", "self_draw"} <= set(stats.fans)
    hands = [json.loads(line) for line in lines]
    assert any(t.endswith("z") for h in hands for d in h["deal"] for t in d)  # honours dealt


def test_self_play_with_wilds_chi_and_kong_money_audits_ok() -> None:
    rules = {"hun": "on", "chi": True, "kong_money": True, "seven_pairs": True}
    lines, stats = _run(24, seed=2, rules=rules)
    assert _audit(lines) == {"ok": 24}
    assert stats.events["indicator"] == 24 and stats.events["chi"] > 0
    assert "su_hu" in stats.fans
