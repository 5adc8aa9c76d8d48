"""Ingest engines side by side: the local process pool against a local Dask cluster, into a
database and into a lake, for 1, 2 and 4 workers.

The corpus is the real Botzone sample (../shared/data/botzone/sample.txt) copied with unique
match ids (as `bench_ingest.py` builds it). Each run is a fresh `paipu ingest` process; it
prints hands per second (wall), the CPU seconds of the process and everything it waited for,
and the peak RSS of its largest process. A Dask run includes starting its LocalCluster
(about 2–4 s); `--engine dask --cluster ADDRESS` on a running cluster does not pay that.

    .venv/bin/python benchmarks/bench_scale.py --copies 400 --workers 1 2 4
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_ingest import PY, SAMPLE, build_corpus, timed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=400, help="copies of the 16-game sample")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--no-lake", action="store_true", help="skip the lake runs")
    args = parser.parse_args()
    if not SAMPLE.exists():
        print(f"{SAMPLE} is absent: the benchmark needs ../shared/data", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="paipu-scale-"))
    try:
        corpus = work / "corpus"
        corpus.mkdir()
        n = build_corpus(corpus, args.copies)
        print(f"{n:,} hands in {len(list(corpus.iterdir()))} files")
        print(f"{'run':34} {'wall':>8} {'hands/s':>10} {'cpu':>8} {'peak':>9}")
        for workers in args.workers:
            for engine in ("local", "dask"):
                targets = [("db", ["--db", str(work / "x.duckdb")])]
                if not args.no_lake:
                    targets.append(("lake", ["--lake", str(work / "lake")]))
                for kind, target in targets:
                    shutil.rmtree(work / "lake", ignore_errors=True)
                    (work / "x.duckdb").unlink(missing_ok=True)
                    command = [
                        PY, "-m", "paipu.pipeline.cli", "ingest", str(corpus), *target,
                        "--engine", engine, "-j", str(workers), "-q",
                    ]  # fmt: skip
                    wall, cpu, peak = timed(command)
                    label = f"{engine} -j{workers} → {kind}"
                    print(f"{label:34} {wall:7.1f}s {n / wall:10,.0f} {cpu:7.1f}s {peak:7.0f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
