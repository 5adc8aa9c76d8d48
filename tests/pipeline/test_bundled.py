"""The data the repository ships (``data/``, written by ``python -m paipu.pipeline.bundled``):
every variant is there, every hand loads and agrees with the rules, and the files are what
the simulator writes today (a stale file means the bots or the log writer changed without
``data/`` being regenerated)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from paipu.pipeline.bundled import BUNDLE, DATA
from paipu.pipeline.ingest import ingest
from paipu.pipeline.simulate import game_jobs, simulate


def test_every_bundled_hand_loads_and_agrees_with_the_rules(tmp_path: Path) -> None:
    files = sorted(DATA.glob("*.paipu.jsonl"))
    assert [f.name for f in files] == sorted(f"{v}.paipu.jsonl" for v, *_ in BUNDLE)
    db = tmp_path / "bundled.duckdb"
    summary = ingest(files, db, jobs=1)
    expected = sum(hands for _, hands, _, _ in BUNDLE)
    assert (summary.hands, summary.rejected, summary.mismatched) == (expected, 0, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        counts = dict(con.sql("SELECT variant, count(*) FROM hands GROUP BY variant").fetchall())
    assert counts == {variant: hands for variant, hands, _, _ in BUNDLE}


@pytest.mark.parametrize("variant", [b[0] for b in BUNDLE])
def test_a_bundled_file_is_what_the_simulator_writes(variant: str) -> None:
    """Every variant's file: its games are those the simulator plays, and its first and last
    games are byte for byte what it writes today. Each game is played from (seed, game,
    hand) alone, so two games stand for the file at a tenth of the cost of replaying all
    of it; ``python -m paipu.pipeline.bundled --check`` compares every byte."""
    _, hands, seed, players = next(b for b in BUNDLE if b[0] == variant)
    lines = (DATA / f"{variant}.paipu.jsonl").read_text(encoding="utf-8").splitlines()
    by_game: dict[str, list[str]] = {}
    for line in lines:
        by_game.setdefault(json.loads(line)["game"], []).append(line)
    jobs = game_jobs(variant, hands, seed, players, {})
    stale = f"data/{variant}.paipu.jsonl is stale: run .venv/bin/python -m paipu.pipeline.bundled"
    assert len(lines) == hands, stale
    assert list(by_game) == [f"sim-{variant}-{seed}-{job.game:06d}" for job in jobs], stale
    for job in (jobs[0], jobs[-1]):
        [(written, _stats)] = simulate([job])
        assert written == by_game[f"sim-{variant}-{seed}-{job.game:06d}"], stale
