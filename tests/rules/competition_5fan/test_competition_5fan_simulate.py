"""Self-play of the 5-fan competition rules: the fan-planning bots (the 8-fan planner of
``selfplay/bots/fans.py``) chase the 5-番 minimum; every simulated hand audits ``ok``, every
win reaches 5 番, the same seed gives the same bytes."""

from __future__ import annotations

import json
from collections import Counter

from competition_5fan_helpers import V

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.variants import get_variant
from paipu.selfplay import family

_RUNS: dict[tuple[int, int, int], tuple[list[str], SimulationStats]] = {}


def _run(hands: int, seed: int, workers: int = 1) -> tuple[list[str], SimulationStats]:
    key = (hands, seed, workers)
    if key not in _RUNS:
        stats = SimulationStats()
        lines: list[str] = []
        jobs = game_jobs(V, hands, seed, DEFAULT_PLAYERS, {})
        for game_lines, game_stats in simulate(jobs, workers):
            lines += game_lines
            stats.merge(game_stats)
        _RUNS[key] = (lines, stats)
    return _RUNS[key]


def test_a_hundred_hands_audit_ok_and_every_win_has_five_fan() -> None:
    assert family(get_variant(V)) == "fans"
    lines, stats = _run(100, 1)
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
        for win in json.loads(line)["result"].get("wins", []):
            assert win["total"] >= 5
    assert verdicts == {"ok": 100}
    assert stats.outcomes["win"] > 60
    assert {"chi", "pong"} <= set(stats.events)
    assert stats.fans["concealed_hand"] and stats.fans["self_draw"]
    assert len([f for f in stats.fans if stats.fans[f]]) >= 8  # the bots reach many fans


def test_same_seed_same_bytes() -> None:
    one = _run(12, 5)[0]
    assert one == _run(12, 5, workers=2)[0] and one != _run(12, 6)[0]
