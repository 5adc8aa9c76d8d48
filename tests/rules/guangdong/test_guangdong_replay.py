"""广东推倒胡 replayed event by event: the worked example with its 暗杠 and horses, the ghost
indicator, the refused moves (a pong of a ghost, a discard win where only self-draws win, a
chi), kong money and 跟庄 paid only when someone wins; self-play audits ok."""

from __future__ import annotations

from collections import Counter

import pytest

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules import legal
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.tiles import parse_tile, tile_names
from tests.rules.guangdong.guangdong_helpers import KONG, record, table_after

WIN = [["draw", 0, "8s"], ["discard", 0, "8s"], ["draw", 1, "6m"], ["win", 1, "6m"]]
HORSES = ["bird", None, ["5m", "2s", "6p", "4z"]]


def violation(events, rules=None) -> str:
    with pytest.raises(RuleViolation) as caught:
        table_after(events, rules)
    return caught.value.rule


def test_worked_example_replayed_with_the_concealed_kong_and_horses() -> None:
    """Digest §7: South's self-draw with 4 horses is +18, its 暗杠 +2 from each: +24."""
    outcome = replay(record([*KONG, *WIN, HORSES], {"horses": 4}), check=True)
    assert outcome.deltas == (-8, 24, -8, -8)
    (win,) = outcome.wins
    assert win.deltas == (-6, 18, -6, -6)
    assert win.detail["horse_tiles"] == ["5m", "2s", "6p", "4z"]
    assert win.detail["horse_seats"] == [0, 1, 1, 3] and win.detail["horse_hits"] == 2
    assert [(f.id, f.count) for f in win.fans][-1] == ("horse", 2)
    # the horses must follow the win
    with pytest.raises(RuleViolation, match="the birds"):
        replay(record([*KONG, *WIN], {"horses": 4}))


def test_kong_money_and_following_the_dealer_only_with_a_win() -> None:
    table = table_after(KONG)
    assert table.state.kong_money.transfers() == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert table.state.payments() == []  # 荒庄 would cancel it
    follow = []
    for seat in range(4):
        follow += [["draw", seat, "5z"], ["discard", seat, "5z"]]
    rest = [e for e in KONG if e[1] in (0, 1)]
    events = [*follow, *rest, ["draw", 2, "8p"], ["discard", 2, "8p"]]
    events += [["draw", 3, "7p"], ["discard", 3, "7p"], *WIN]
    outcome = replay(record(events), check=True)
    # the win 6 (2 each), the 暗杠 6, 跟庄: East pays each 1
    assert outcome.deltas == (-2 - 2 - 3, 6 + 6 + 1, -2 - 2 + 1, -2 - 2 + 1)
    assert "follow_dealer" in table_after(follow).notes


def test_only_self_draws_win_by_default() -> None:
    discard = [["draw", 0, "6m"], ["discard", 0, "6m"], ["win", 1, "6m", {"from": 0}]]
    assert "只许自摸" in violation([*KONG, *discard])
    table = table_after([*KONG, *discard[:2]])
    assert not legal.claims(table, parse_tile("6m"), 0)  # not even listed
    outcome = replay(record([*KONG, *discard], {"discard_win": True}), check=True)
    assert outcome.deltas == (-2 - 2, 2 + 6, -2, -2)


def test_no_chi() -> None:
    events = [["draw", 0, "7p"], ["discard", 0, "7p"], ["chi", 1, ["5p", "6p", "7p"]]]
    assert "chi events do not exist in guangdong" in violation(events)


def test_the_ghost_indicator_and_a_refused_pong_of_a_ghost() -> None:
    flip = ["indicator", None, "4z", {"role": "wild"}]  # 北 → 东: 1z is the ghost
    rules = {"ghost": "flip1"}
    table = table_after([flip], rules)
    assert tile_names(sorted(table.wilds.tiles)) == ["1z"]
    events = [flip, ["draw", 0, "1z"], ["discard", 0, "1z"]]
    table = table_after(events, rules)
    assert not [m for m in legal.claims(table, parse_tile("1z"), 0) if m.seat == 1]
    rule = violation([*events, ["pong", 1, "1z"]], rules)
    assert "1z is wild here: a discarded wild may not be claimed" in rule
    assert "before the first draw" in violation([["draw", 0, "1z"]], rules)
    assert "no indicator is turned up" in violation([flip], {"ghost": "white"})
    # the request carries the ghost kinds, not the indicator
    table = table_after([flip, *KONG, *WIN[:3]], rules)
    tile = parse_tile("6m")
    request = table.request_for(1, tile, None, table.win_flags(1, tile, None))
    assert request.extra == {"wild": ["1z"]}
    answer = table.self_draw_answer(1)
    assert answer is not None and answer.legal  # South holds two 东 (ghosts): no 无鬼加倍
    assert [f.id for f in answer.fans] == ["tui_dao_hu", "self_draw"]


def _audit(variant: str, hands: int, rules: dict) -> tuple[Counter[str], SimulationStats]:
    verdicts: Counter[str] = Counter()
    stats = SimulationStats()
    for lines, game_stats in simulate(game_jobs(variant, hands, 1, DEFAULT_PLAYERS, rules), 1):
        stats.merge(game_stats)
        for number, line in enumerate(lines, 1):
            parsed = parse_line(line, "sim", number)
            assert isinstance(parsed, Parsed), parsed
            entry = audit_parsed(parsed)
            assert entry.status == "ok", (entry.problems, line)
            verdicts[entry.status] += 1
    return verdicts, stats


def test_self_play_audits_ok_with_every_rule_path() -> None:
    verdicts, stats = _audit("guangdong", 60, {})
    assert verdicts == {"ok": 60}
    assert stats.outcomes["win"] > 40
    rules = {"ghost": "white_flip1", "horses": 2, "seven_pairs": True, "discard_win": True}
    verdicts, stats = _audit("guangdong", 30, rules)
    assert verdicts == {"ok": 30}
    for kind in ("indicator", "bird"):
        assert stats.events[kind] > 0, kind
