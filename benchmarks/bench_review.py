"""Decision review speed (`paipu review`), and what it shows of the bots' styles.

Simulates a corpus (`paipu simulate`, deterministic by seed), ingests it into a fresh
DuckDB file, then reviews it as `paipu review` does, in this process and its workers:

- every discard of every player (what `paipu review --save` and `paipu demo` do);
- one player's discards (`paipu review --player NAME`).

For each it prints the wall time, the CPU seconds of the process and its workers (steadier
than wall time on a shared machine) and milliseconds per hand; then the review's sums per
bot style (the simulator's pool cycles aggressive, balanced, defensive: docs/simulate.md),
to check that the review tells the styles apart as their design says.

    .venv/bin/python benchmarks/bench_review.py --variant mcr --hands 10000 --jobs 2
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

from paipu.pipeline.review import review_db
from paipu.pipeline.simulate import DEFAULT_PLAYERS
from paipu.rules.selfplay import Style

ROOT = Path(__file__).resolve().parents[1]
PAIPU = [sys.executable, "-m", "paipu.pipeline.cli"]


def _cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="mcr")
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="a folder to keep the corpus and database in")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="paipu-bench-review-"))
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"{args.variant}-{args.hands}-{args.seed}.paipu.jsonl"
    db = folder / f"{args.variant}-{args.hands}-{args.seed}.duckdb"
    jobs = ["-j", str(args.jobs)]
    if not log.is_file():
        simulate = [*PAIPU, "simulate", "-v", args.variant, "-n", str(args.hands)]
        subprocess.run([*simulate, "-s", str(args.seed), "-o", str(log), *jobs], check=True)
    if not db.is_file():
        subprocess.run([*PAIPU, "ingest", str(log), "--db", str(db), *jobs], check=True)
    import paipu.rules

    print(
        f"decision review of {args.hands:,} simulated {args.variant} hands (seed {args.seed}), "
        f"{args.jobs} workers, rules engine {paipu.rules.ENGINE}"
    )
    con = duckdb.connect(str(db), read_only=True)
    try:
        for who in (None, DEFAULT_PLAYERS[0]):
            cpu, wall = _cpu(), time.perf_counter()
            review = review_db(con, who, jobs=args.jobs)
            wall, cpu = time.perf_counter() - wall, _cpu() - cpu
            what = "every player" if who is None else f"one player ({who})"
            print(
                f"  {what:24} {review.rows.num_rows:>8,} discards  {wall:6.1f} s wall  "
                f"{cpu:6.1f} s CPU  {1000 * cpu / args.hands:5.2f} ms CPU per hand"
            )
            if who is None:
                every = review
    finally:
        con.close()
    pool = DEFAULT_PLAYERS  # the styles cycle in pool order (Style.for_player)
    styles = pl.DataFrame(
        {"player": pool, "style": [Style.for_player(p, i).value for i, p in enumerate(pool)]}
    )
    rows = pl.from_arrow(every.rows).join(styles, on="player")
    by_style = (
        rows.group_by("style")
        .agg(
            pl.col("player").n_unique().alias("players"),
            pl.len().alias("discards"),
            pl.col("efficient").mean().alias("best"),
            pl.col("loss").mean().alias("loss"),
            (pl.col("shanten") > pl.col("best_shanten")).mean().alias("back"),
            pl.col("dangerous").mean().alias("danger"),
            pl.col("dangerous").filter(pl.col("ready_opponents") > 0).mean().alias("vs ready"),
            pl.col("won_on").sum().alias("dealt in"),
            (pl.col("won_on") & pl.col("safe_existed").fill_null(False)).sum().alias("safe"),
        )
        .sort("style")
    )
    shares = ("best", "back", "danger", "vs ready")
    by_style = by_style.with_columns(
        *(pl.format("{}%", (100 * pl.col(c)).round(1)).alias(c) for c in shares),
        pl.col("loss").round(2),
    )
    with pl.Config(
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
        tbl_cols=-1,
        tbl_width_chars=120,
        tbl_formatting="MARKDOWN",
    ):
        print(by_style)


if __name__ == "__main__":
    main()
