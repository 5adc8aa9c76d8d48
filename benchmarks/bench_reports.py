"""Time to write the whole report (every page, one replay page per hand) for N hands.

The database of N hands is made from a base database (``paipu ingest`` of simulated or real
records) by copying its hands — every table's rows, the game ids suffixed ``~k`` and the
times moved k days on — so that N hands cost minutes to build, not the hours that
simulating and replaying them would. The report then runs as ``paipu report`` does (all
cores for the database engine) and the script prints the seconds per stage, hands per
second, the pages and bytes written (the hand pages and the per-game data scripts apart),
and the peak memory of the process.

    .venv/bin/paipu simulate --variant mcr --hands 1000 --seed 1 --out /tmp/sim.paipu.jsonl
    .venv/bin/paipu ingest /tmp/sim.paipu.jsonl --db /tmp/sim.duckdb
    .venv/bin/python benchmarks/bench_reports.py --base /tmp/sim.duckdb --hands 100000
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import duckdb

from paipu.pipeline.report import ReportOptions, write_report
from paipu.pipeline.sql import apply_schema

TABLES = ("hands", "hand_seats", "wins", "win_fans", "discards", "missed_wins", "events")

# One statement per table: every row of the base, once per copy k, in a new game "<game>~k".
COPY = (
    "INSERT INTO {table} SELECT t.* REPLACE (t.game || '~' || r.k AS game) "
    "FROM base.{table} t, range($copies) r(k)"
)
COPY_HANDS = (
    "INSERT INTO hands SELECT t.* REPLACE (t.game || '~' || r.k AS game, "
    "t.time + to_days(r.k::INTEGER) AS time) FROM base.hands t, range($copies) r(k)"
)


def build(base: Path, hands: int, db: Path) -> int:
    con = duckdb.connect(str(db))
    con.execute("SET enable_progress_bar = false")
    apply_schema(con)
    con.execute(f"ATTACH '{base}' AS base (READ_ONLY)")
    have = con.execute("SELECT count(*) FROM base.hands").fetchall()[0][0]
    copies = max(1, math.ceil(hands / have))
    for table in TABLES:
        sql = COPY_HANDS if table == "hands" else COPY.format(table=table)
        con.execute(sql, {"copies": copies})
    con.execute("INSERT INTO rejects SELECT * FROM base.rejects")
    total = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    con.close()
    return total


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="a database from paipu ingest")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", type=Path, help="write the report here and keep it")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-reports-"))
    try:
        db = work / "bench.duckdb"
        started = time.perf_counter()
        with ProcessPoolExecutor(1) as pool:  # apart, so that its memory is not counted below
            total = pool.submit(build, args.base, args.hands, db).result()
        built = time.perf_counter() - started
        out = args.keep or work / "report"
        stages: list[tuple[str, float]] = []
        last = time.perf_counter()

        def stage(name: str) -> None:
            nonlocal last
            now = time.perf_counter()
            stages.append((name, now - last))
            last = now

        started = last = time.perf_counter()
        summary = write_report(db, out, ReportOptions(jobs=args.jobs), stage)
        stage("end")
        seconds = time.perf_counter() - started
        size = folder_size(out)
        hands, data = folder_size(out / "hands"), folder_size(out / "data")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"database: {total:,} hands ({built:.1f} s to build from {args.base})")
        print(
            f"report:   {seconds:.1f} s for {summary.pages:,} pages, {size / 2**20:,.0f} MB "
            f"(hand pages {hands / 2**20:,.0f} MB, game data {data / 2**20:,.0f} MB), "
            f"{total / seconds:,.0f} hands/s with {args.jobs} threads"
        )
        # each entry is the time spent before the next stage started
        names = ["start", *[n for n, _ in stages[:-1]]]
        for name, (_, dt) in zip(names, stages, strict=True):
            print(f"  {name:14} {dt:7.1f} s")
        print(f"peak memory: {peak:,.0f} MB (RSS of the process writing the report)")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            (work / "bench.duckdb").unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
