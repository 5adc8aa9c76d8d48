"""哈尔滨麻将 self-play: 100 hands audit ``ok``, the bots declare 听 (on their turn and by
吃听) and respect 换宝, the same seed gives the same bytes, the bundled hands replay."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.events import Indicator, Ready, Win

DATA = Path(__file__).resolve().parents[3] / "data" / "harbin.paipu.jsonl"


def _run(hands: int, seed: int) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    for game_lines, game_stats in simulate(game_jobs("harbin", hands, seed, DEFAULT_PLAYERS, {})):
        lines += game_lines
        stats.merge(game_stats)
    return lines, stats


@pytest.fixture(scope="module")
def played() -> tuple[list[str], SimulationStats]:
    return _run(100, seed=1)


def test_simulated_hands_audit_ok(played: tuple[list[str], SimulationStats]) -> None:
    lines, _stats = played
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    assert verdicts == {"ok": 100}


def test_the_bots_declare_ready_and_every_win_is_declared(
    played: tuple[list[str], SimulationStats],
) -> None:
    lines, stats = played
    assert {"ready", "ready_chi", "bao_change", "chu_chong", "standing"} <= set(stats.rules)
    assert {"ping_hu", "self_draw", "touch_bao", "ka_dang"} <= set(stats.fans)
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed)
        events = parsed.record.events
        assert isinstance(events[0], Indicator) and events[0].role == "bao"
        declared = {e.seat for e in events if isinstance(e, Ready)}
        for event in events:
            if isinstance(event, Win):
                assert event.seat in declared


def test_the_same_seed_gives_the_same_bytes(played: tuple[list[str], SimulationStats]) -> None:
    lines, _ = played
    again, _ = _run(20, seed=1)
    assert again == lines[: len(again)]


def test_the_bundled_hands_audit_ok() -> None:
    lines = DATA.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 200
    for number, line in enumerate(lines[:60], 1):
        parsed = parse_line(line, str(DATA), number)
        assert isinstance(parsed, Parsed), parsed
        assert audit_parsed(parsed).status == "ok"
