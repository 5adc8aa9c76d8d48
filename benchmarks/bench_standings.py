"""Time of the competition queries (placements, standings, rankings, table-mates) on N hands.

The database is made as ``bench_reports.py`` makes it (the base's hands copied, game ids
suffixed ``~k``), so every copy of a placed game is a placed game. The script times the
selection with its placements, then each query of the standings, ranking and table-mates
pages, and prints seconds and rows.

    .venv/bin/paipu ingest data/mcr.paipu.jsonl --db /tmp/mcr.duckdb
    .venv/bin/python benchmarks/bench_standings.py --base /tmp/mcr.duckdb --hands 100000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).parent))
from bench_reports import build

from paipu.pipeline.report import MIN_GAMES, PAIR_MIN_HANDS, TABLE_MATES, query, select

QUERIES = {
    "game-placements": {},
    "standings": {},
    "games-unplaced": {},
    "ranking-players": {"min_games": MIN_GAMES},
    "table-mates": {"top": TABLE_MATES},
    "pair-dealins": {"min_hands": PAIR_MIN_HANDS},
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        db = Path(work) / "bench.duckdb"
        started = time.perf_counter()
        hands = build(args.base, args.hands, db)
        print(f"database: {hands:,} hands ({time.perf_counter() - started:.1f} s to build)")
        con = duckdb.connect(str(db), read_only=True)
        con.execute(f"SET threads = {args.threads}")
        con.execute("SET enable_progress_bar = false")
        started = time.perf_counter()
        select(con)
        placed = con.sql("SELECT count(*) FROM report_placements").fetchall()[0][0]
        print(f"  selection + placements {time.perf_counter() - started:6.2f} s  {placed:,} rows")
        for name, params in QUERIES.items():
            started = time.perf_counter()
            rows = query(con, name, **params).height
            print(f"  {name:22s} {time.perf_counter() - started:6.2f} s  {rows:,} rows")
        con.close()


if __name__ == "__main__":
    main()
