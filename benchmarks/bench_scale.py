"""Ingest engines side by side: the local process pool against a local Dask cluster, into a
database and into a lake, for 1, 2 and 4 workers.

The corpus is the real Botzone sample (../shared/data/botzone/sample.txt) copied with unique
match ids (as `bench_ingest.py` builds it). Each run is a fresh `paipu ingest` process; it
prints hands per second (wall), the CPU seconds of the process and everything it waited for,
and the peak RSS of its largest process. A Dask run includes starting its LocalCluster
(about 2–4 s); `--engine dask --cluster ADDRESS` on a running cluster does not pay that.

    .venv/bin/python benchmarks/bench_scale.py --copies 400 --workers 1 2 4

`--per-process` prints the peak RSS of every process of a run instead (the main process,
which reads the input and loads the database, and each worker), sampled from
/proc/PID/status (VmHWM, the kernel's own high-water mark) twice a second: the large
corpus of the 1,000,000-hand figures (62,500 copies, about 2 GB of text) is

    .venv/bin/python benchmarks/bench_scale.py --copies 62500 --workers 2 \
        --engines local --per-process --corpus /tmp/paipu-1m
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_ingest import PY, SAMPLE, build_corpus, timed


def _descendants(pid: int) -> list[int]:
    """Every live process under ``pid`` (Linux: /proc/PID/task/*/children)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                for child in task.read_text().split():
                    found.append(int(child))
                    todo.append(int(child))
    return found


def _high_water(pid: int) -> int | None:
    """VmHWM of a process, in KiB (None once it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def timed_per_process(command: list[str]) -> tuple[float, float, int, list[int]]:
    """Wall and CPU seconds of a command, the peak RSS (MiB) of its main process and of
    each process under it (the workers), sampled twice a second."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peaks: dict[int, int] = {}
    while process.poll() is None:
        for pid in [process.pid, *_descendants(process.pid)]:
            peak = _high_water(pid)
            if peak is not None:
                peaks[pid] = max(peaks.get(pid, 0), peak)
        time.sleep(0.5)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    main_peak = peaks.pop(process.pid, 0)
    return wall, cpu, main_peak // 1024, sorted(v // 1024 for v in peaks.values())


def _size(path: Path) -> int:
    """Bytes of a file, or of every file under a folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=400, help="copies of the 16-game sample")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--no-lake", action="store_true", help="skip the lake runs")
    parser.add_argument("--no-db", action="store_true", help="skip the database runs")
    parser.add_argument("--engines", nargs="+", default=["local", "dask"])
    parser.add_argument(
        "--per-process", action="store_true", help="peak RSS of the main process and each worker"
    )
    parser.add_argument(
        "--corpus", type=Path, help="build the corpus here (kept, and reused if present)"
    )
    args = parser.parse_args()
    if not SAMPLE.exists():
        print(f"{SAMPLE} is absent: the benchmark needs ../shared/data", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="paipu-scale-"))
    try:
        corpus = args.corpus or work / "corpus"
        if corpus.is_dir() and any(corpus.iterdir()):
            n = args.copies * SAMPLE.read_text(encoding="utf-8").count("Match ")
        else:
            corpus.mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            n = build_corpus(corpus, args.copies)
            print(f"corpus built in {time.perf_counter() - started:.0f} s", flush=True)
        print(f"{n:,} hands in {len(list(corpus.iterdir()))} files", flush=True)
        print(f"{'run':34} {'wall':>8} {'hands/s':>10} {'cpu':>8} {'peak':>9}", flush=True)
        for workers in args.workers:
            for engine in args.engines:
                targets = [] if args.no_db else [("db", ["--db", str(work / "x.duckdb")])]
                if not args.no_lake:
                    targets.append(("lake", ["--lake", str(work / "lake")]))
                for kind, target in targets:
                    shutil.rmtree(work / "lake", ignore_errors=True)
                    (work / "x.duckdb").unlink(missing_ok=True)
                    command = [
                        PY, "-m", "paipu.pipeline.cli", "ingest", str(corpus), *target,
                        "--engine", engine, "-j", str(workers), "-q",
                    ]  # fmt: skip
                    label = f"{engine} -j{workers} → {kind}"
                    if not args.per_process:
                        wall, cpu, peak = timed(command)
                        print(
                            f"{label:34} {wall:7.1f}s {n / wall:10,.0f} {cpu:7.1f}s {peak:7.0f} MiB"
                        )
                        continue
                    wall, cpu, main_peak, workers_peak = timed_per_process(command)
                    print(
                        f"{label:34} {wall:7.1f}s {n / wall:10,.0f} {cpu:7.1f}s "
                        f"main {main_peak} MiB, workers {', '.join(map(str, workers_peak))} MiB, "
                        f"{_size(work / target[1]) / 2**20:,.0f} MiB written",
                        flush=True,
                    )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
