"""贵阳捉鸡 self-play: simulated hands of both profiles audit ``ok``, the bots play every rule
path (豆, 热炮, 抢杠, 查叫, the 鸡 layer and its turned-up tile), the same seed gives the same
bytes, and ``paipu score`` answers Guiyang requests."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.record import HandRecord
from paipu.rules.replay import replay

runner = CliRunner()
APP = {"profile": "guiyang_app"}


def _run(hands: int, seed: int, rules: dict | None = None) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    for game_lines, game_stats in simulate(
        game_jobs("guiyang", hands, seed, DEFAULT_PLAYERS, rules or {}), 1
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


@pytest.fixture(scope="module")
def seed_profile() -> tuple[list[str], SimulationStats]:
    return _run(150, seed=1)


@pytest.fixture(scope="module")
def app_profile() -> tuple[list[str], SimulationStats]:
    return _run(100, seed=2, rules=APP)


def test_hands_of_the_seed_profile_audit_ok(seed_profile) -> None:
    lines, stats = seed_profile
    assert _audit(lines) == {"ok": 150}
    assert "chi" not in stats.events and "turn_up" not in stats.events
    rules = set(stats.rules)
    assert {"kong_payment:kong", "kong_payment:added_kong", "kong_payment:concealed_kong"} <= rules
    assert {"cha_jiao", "hot_discard"} <= rules
    assert stats.fans["ping_hu"] and stats.fans["self_draw"] and len(stats.fans) >= 5


def test_hands_of_the_app_profile_audit_ok_and_play_the_chickens(app_profile) -> None:
    lines, stats = app_profile
    assert _audit(lines) == {"ok": 100}
    assert stats.events["turn_up"] >= 90
    rules = set(stats.rules)
    assert {"chickens", "flip_chicken", "charging_chicken", "liable_chicken", "dou_void"} <= rules


def test_winners_deal_next(seed_profile) -> None:
    lines, _ = seed_profile
    hands = [json.loads(line) for line in lines]
    for before, after in itertools.pairwise(hands):
        if before["game"] != after["game"]:
            continue
        wins = before["result"].get("wins", [])
        expected = wins[0]["seat"] if wins else before["dealer"]
        assert after["dealer"] == expected


def test_same_seed_same_bytes_and_replay_without_the_wall() -> None:
    one, _ = _run(12, seed=5, rules=APP)
    assert one == _run(12, seed=5, rules=APP)[0]
    for line in one:
        hand = json.loads(line)
        del hand["wall"]
        assert replay(HandRecord.from_json(hand), check=True).verdict == "ok"


def test_paipu_score_answers_guiyang(tmp_path: Path) -> None:
    request = {
        "variant": "guiyang",
        "seat": 1,
        "dealer": 0,
        "from": 2,
        "hand": "111m444p77s99m",
        "melds": [{"kind": "concealed_kong", "tiles": "2222s"}],
        "win_tile": "7s",
        "extra": {"hot_dou": "added_kong"},
    }
    result = runner.invoke(app, ["score", json.dumps(request), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["deltas"] == [0, 60, -60, 0] and answer["extra"]["hot_dou_penalty"] == 30
    result = runner.invoke(app, ["score", json.dumps(request)])
    assert "大对子" in result.output and "热炮" in result.output
    plain = {**request, "hand": "123m456m789p11s45s", "win_tile": "6s", "melds": [], "extra": {}}
    result = runner.invoke(app, ["score", json.dumps(plain), "--json"])
    assert result.exit_code == 1
    assert "有豆允许点胡" in json.loads(result.output)["reason"]
    out = tmp_path / "gy.jsonl"
    sim = runner.invoke(
        app,
        [
            "simulate",
            "-v",
            "guiyang",
            "-n",
            "8",
            "-o",
            str(out),
            "--stats",
            "-q",
            "--rules",
            json.dumps(APP),
        ],
    )
    assert sim.exit_code == 0, sim.output
    assert "rule paths" in sim.output
    audit = runner.invoke(app, ["audit", str(out), "--problems"])
    assert audit.exit_code == 0, audit.output


def test_the_rare_hands_scenario(tmp_path: Path) -> None:
    """``--scenario guiyang-rare`` deals the dealer the rare types (青龙背, 清七对, 清大对)."""
    out = tmp_path / "rare.jsonl"
    sim = runner.invoke(
        app,
        [
            "simulate",
            "-v",
            "guiyang",
            "-n",
            "5",
            "-o",
            str(out),
            "--stats",
            "-q",
            "--scenario",
            "guiyang-rare",
        ],
    )
    assert sim.exit_code == 0, sim.output
    assert "pure_dragon_seven_pairs" in sim.output and "pure_pungs" in sim.output
    assert runner.invoke(app, ["audit", str(out)]).exit_code == 0
