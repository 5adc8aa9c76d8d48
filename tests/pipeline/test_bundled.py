"""The data the repository ships (``data/``, written by ``python -m paipu.pipeline.bundled``):
every variant is there, every hand loads and agrees with the rules, and the files are what
the simulator writes today (a stale file means the bots or the log writer changed without
``data/`` being regenerated)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from paipu.pipeline.bundled import BUNDLE, DATA, lines_for
from paipu.pipeline.ingest import ingest


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


def test_a_bundled_file_is_what_the_simulator_writes() -> None:
    variant, hands, seed, players = next(b for b in BUNDLE if b[0] == "zhuanzhuan")
    written = "".join(line + "\n" for line in lines_for(variant, hands, seed, players))
    assert written == (DATA / f"{variant}.paipu.jsonl").read_text(encoding="utf-8"), (
        "data/ is stale: run .venv/bin/python -m paipu.pipeline.bundled"
    )
