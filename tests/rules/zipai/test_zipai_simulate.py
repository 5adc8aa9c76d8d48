"""Self-play of 郴州字牌: every simulated hand replays as ``ok``; the same seed gives the same
bytes; two and four players play too."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner
from zipai_helpers import replay_checked

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, simulate
from paipu.rules.record import HandRecord
from paipu.rules.replay import replay
from paipu.rules.selfplay import HandSetup, Style, hand_rng
from paipu.rules.variants import get_variant
from paipu.selfplay import play_hand

VARIANT = "zipai_chenzhou"


def _lines(hands: int, seed: int, rules: dict | None = None) -> list[str]:
    jobs = game_jobs(VARIANT, hands, seed, DEFAULT_PLAYERS, rules or {})
    return [line for lines, _ in simulate(jobs) for line in lines]


def _audit(lines: list[str]) -> Counter[str]:
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    return verdicts


def test_two_hundred_hands_audit_ok_and_look_like_zipai() -> None:
    lines = _lines(200, seed=11)
    assert _audit(lines) == {"ok": 200}
    events: Counter[str] = Counter()
    fans: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    xi = []
    for line in lines:
        hand = json.loads(line)
        events.update(e[0] for e in hand["events"])
        outcomes[hand["result"]["outcome"]] += 1
        for win in hand["result"].get("wins", []):
            xi.append(win["total"])
            fans.update(f[0] for f in win["fans"])
        assert hand["events"][0][0] == "draw" and len(hand["deal"][0]) == 20
    assert {"flip", "discard", "chi", "peng", "wei", "pao", "ti", "win", "draw"} <= set(events)
    assert outcomes["win"] > 100 and outcomes["draw"] > 0
    assert min(xi) >= 9 and "hong_hu" in fans


def test_same_seed_same_bytes() -> None:
    assert _lines(40, seed=5) == _lines(40, seed=5)
    assert _lines(40, seed=5) != _lines(40, seed=6)


def test_invariants_hold_after_every_event() -> None:
    for line in _lines(60, seed=4, rules={"piao": "2-3-5", "open_ti": "own_turn"}):
        outcome = replay_checked(HandRecord.from_json(json.loads(line)))
        assert outcome.verdict == "ok"


def test_hands_replay_without_their_wall() -> None:
    """A log need not give the wall: the flips are then only counted (and copies checked)."""
    for line in _lines(30, seed=8):
        hand = json.loads(line)
        del hand["wall"]
        assert replay(HandRecord.from_json(hand)).verdict == "ok"


@pytest.mark.slow
def test_one_thousand_hands_audit_ok() -> None:
    assert _audit(_lines(1000, seed=1)) == {"ok": 1000}


@pytest.mark.parametrize(
    "rules",
    [
        {"players": 2},
        {"players": 2, "buried": 20},
        {"players": 4},
        {"players": 4, "open_ti": "own_turn", "piao": "1-2-3", "zimo_double": True},
    ],
)
def test_two_and_four_players(rules: dict) -> None:
    """``paipu simulate`` seats three; other counts play through ``self_play`` directly."""
    variant = get_variant(VARIANT)
    options = variant.resolve_options(rules)
    n = rules["players"]
    names = tuple(DEFAULT_PLAYERS[:n])
    setup = HandSetup(
        VARIANT,
        "g",
        0,
        names,
        tuple(Style.for_player(p, i) for i, p in enumerate(names)),
        rules=rules,
    )
    outcomes: Counter[str] = Counter()
    for hand in range(30):
        outcome = play_hand(variant, hand_rng(3, 0, hand), setup, options)
        again = replay(HandRecord.from_json(outcome.record.to_json()))
        assert (again.outcome, again.deltas) == (outcome.outcome, outcome.deltas)
        assert len(outcome.record.deal) == n
        assert sum(outcome.deltas) == 0
        outcomes[outcome.outcome] += 1
        setup = variant.next_setup(setup, outcome).next()
    assert outcomes["win"] > 0


def test_variants_of_the_rules_simulate_and_audit() -> None:
    rules = {
        "kan_locked": False,
        "chou": "off",
        "flip_chi": "next_only",
        "maohu": True,
        "must_win": "always",
        "red_black": "double",
        "xi_per_tun": 1,
    }
    assert _audit(_lines(40, seed=2, rules=rules)) == {"ok": 40}


def test_simulate_and_audit_commands(tmp_path: Path) -> None:
    out = tmp_path / "z.paipu.jsonl"
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "simulate",
            "--variant",
            VARIANT,
            "--hands",
            "12",
            "--seed",
            "1",
            "--out",
            str(out),
            "--stats",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    audit = runner.invoke(app, ["audit", str(out), "--problems"])
    assert audit.exit_code == 0, audit.output
    assert "12 ok" in audit.output
    four = runner.invoke(
        app,
        [
            "simulate",
            "--variant",
            VARIANT,
            "--hands",
            "1",
            "--rules",
            '{"players": 4}',
            "--out",
            str(out),
            "--quiet",
        ],
    )
    assert four.exit_code == 0, four.output  # 2 and 4 players: tests/pipeline/test_cli_contract.py
    assert len(json.loads(out.read_text(encoding="utf-8"))["players"]) == 4
