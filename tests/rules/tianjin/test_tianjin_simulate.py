"""天津麻将 self-play: simulated hands audit ``ok``; each hand opens with 坐庄, 拉庄 and the
混 indicator; every win is self-drawn; no 混 is ever claimed; the bots' stakes follow
their styles; the scenario set exercises 天和, 捉五 and 龙; the same seed gives the same
bytes. (The 1,000-hand run is in docs/variants/tianjin.md.)"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.tiles import parse_tile, tile_name
from paipu.rules.variants import get_variant
from paipu.selfplay import scenarios

V = "tianjin"
HANDS = 60


def _run(hands: int, seed: int, scenario: str | None = None) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    prepared = scenarios(get_variant(V), scenario) if scenario else ()
    for game_lines, game_stats in simulate(
        game_jobs(V, hands, seed, DEFAULT_PLAYERS, {}, prepared), 1
    ):
        lines += game_lines
        stats.merge(game_stats)
    return lines, stats


@pytest.fixture(scope="module")
def played() -> tuple[list[str], SimulationStats]:
    return _run(HANDS, seed=1)


def test_simulated_hands_audit_ok(played) -> None:
    lines, stats = played
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    assert verdicts == {"ok": HANDS}
    assert stats.outcomes["win"] > HANDS // 2


def test_hands_open_with_the_stakes_and_the_indicator(played) -> None:
    lines, _ = played
    for line in lines:
        hand = json.loads(line)
        kinds = [e[0] for e in hand["events"][:5]]
        assert kinds == ["zuo_zhuang", "la_zhuang", "la_zhuang", "la_zhuang", "indicator"]
        assert hand["events"][0][1] == hand["dealer"]


def test_wins_are_self_drawn_and_wilds_never_claimed(played) -> None:
    lines, stats = played
    assert stats.flags["discard_win"] == 0 and stats.flags["self_drawn"] > 0
    for line in lines:
        hand = json.loads(line)
        flipped = parse_tile(next(e for e in hand["events"] if e[0] == "indicator")[2])
        kinds = {tile_name(flipped), tile_name(get_variant(V).tile_set.successor(flipped))}
        for event in hand["events"]:
            if event[0] in ("pong", "kong", "added_kong"):
                assert event[2] not in kinds, (event, kinds)


def test_the_stakes_follow_the_styles_and_the_fans_show(played) -> None:
    _, stats = played
    assert stats.events["zuo_zhuang"] == HANDS and stats.events["la_zhuang"] == 3 * HANDS
    assert stats.rules["zuo_zhuang"] > 0
    assert stats.rules["la_zhuang:1"] > 0 and stats.rules["la_zhuang:2"] > 0
    for fan in ("ti_liu", "hun_diao", "shuang_hun_diao", "su", "kong_bloom"):
        assert stats.fans[fan] > 0, (fan, stats.fans)


def test_the_scenarios_reach_heavenly_zhuo_wu_and_long() -> None:
    lines, stats = _run(6, seed=2, scenario="tianjin")
    assert {"heavenly", "zhuo_wu", "long"} <= set(stats.fans)
    assert _run(6, seed=2, scenario="tianjin")[0] == lines  # the same seed, the same bytes


def test_simulate_stats_list_the_rule_paths(tmp_path) -> None:
    out = tmp_path / "tj.jsonl"
    result = CliRunner().invoke(
        app, ["simulate", "-v", V, "-n", "4", "-s", "7", "-o", str(out), "--stats", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "wilds:indicator" in result.output and "la_zhuang" in result.output
    audit = CliRunner().invoke(app, ["audit", str(out)])
    assert audit.exit_code == 0, audit.output
