"""十万麻将 self-play: every simulated hand audits ``ok`` (the table checks every event), the
same seed gives the same bytes, the bots chow, pong and kong tens (8-9-10 and none across
10-1), ``--stats`` lists the variant's fans and events, and an ingest keeps the tens."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import duckdb
from shiwan_helpers import V
from typer.testing import CliRunner

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.record import HandRecord
from paipu.rules.replay import replay

runner = CliRunner()
_RUNS: dict[tuple[int, int], tuple[list[str], SimulationStats]] = {}


def _run(hands: int, seed: int) -> tuple[list[str], SimulationStats]:
    if (hands, seed) not in _RUNS:
        stats = SimulationStats()
        lines: list[str] = []
        for game_lines, game_stats in simulate(game_jobs(V, hands, seed, DEFAULT_PLAYERS, {})):
            lines += game_lines
            stats.merge(game_stats)
        _RUNS[hands, seed] = (lines, stats)
    return _RUNS[hands, seed]


def test_a_hundred_hands_audit_ok() -> None:
    lines, stats = _run(100, 1)
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    assert verdicts == {"ok": 100}
    assert stats.outcomes["win"] > 80
    assert {"chi", "pong", "kong", "concealed_kong", "added_kong"} <= set(stats.events)
    assert stats.fans["basic_win"] == stats.outcomes["win"] and stats.fans["self_draw"] > 0


def test_the_bots_play_the_tens_and_never_wrap() -> None:
    lines, _ = _run(100, 1)
    chows: Counter[tuple[str, ...]] = Counter()
    tens_claimed = 0
    for line in lines:
        for kind, _seat, *rest in json.loads(line)["events"]:
            if kind == "chi":
                chows[tuple(rest[0])] += 1
            elif kind in ("pong", "kong") and rest[0].startswith("10"):
                tens_claimed += 1
    assert sum(n for run, n in chows.items() if run[-1].startswith("10")) > 5  # 8-9-10
    assert not any(run[0].startswith("1") and run[-1].startswith("10") for run in chows)
    assert not any(run[0] == f"1{run[0][-1]}" and "10" in run[1] for run in chows)
    assert tens_claimed > 0


def test_same_seed_same_bytes_and_replay_without_the_wall() -> None:
    one = _run(12, 5)[0]
    assert one == list(_run_fresh(12, 5)) and one != _run(12, 6)[0]
    for line in one:
        hand = json.loads(line)
        del hand["wall"]
        assert replay(HandRecord.from_json(hand), check=True).verdict == "ok"


def _run_fresh(hands: int, seed: int) -> list[str]:
    lines: list[str] = []
    for game_lines, _ in simulate(game_jobs(V, hands, seed, DEFAULT_PLAYERS, {}), 2):
        lines += game_lines
    return lines


def test_simulate_stats_and_an_ingest_keep_the_tens(tmp_path: Path) -> None:
    out = tmp_path / "sw.jsonl"
    result = runner.invoke(
        app, ["simulate", "-v", V, "-n", "16", "-s", "2", "-o", str(out), "--stats", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "basic_win" in result.output and "chi" in result.output
    audit = runner.invoke(app, ["audit", str(out), "--problems"])
    assert audit.exit_code == 0, audit.output
    db = tmp_path / "sw.duckdb"
    result = runner.invoke(app, ["ingest", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(db), read_only=True)
    [(tens,)] = con.execute("SELECT count(*) FROM discards WHERE tile LIKE '10_'").fetchall()
    [(hands,)] = con.execute("SELECT count(*) FROM hands WHERE variant = 'shiwan'").fetchall()
    con.close()
    assert hands == 16 and tens > 0
