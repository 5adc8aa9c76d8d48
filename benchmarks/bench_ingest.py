"""Ingest speed and memory: parsing, replay and loading, beside a minimal reference script.

Builds a corpus from the real Botzone sample (../shared/data/botzone/sample.txt) copied
many times with unique match ids, then measures, each stage in its own process:

- parse: read the Botzone text into paipu hands (no replay);
- replay: parse and replay every hand through the rules engine (rows built, not loaded);
- ingest -j1 / -jN: the whole `paipu ingest` into a fresh DuckDB file;
- minimal: benchmarks/minimal_botzone.py (parse, pymahjonggb on each win, bulk load);
- load alone: the shards of the whole corpus written first (not timed), then only the
  load side timed: every shard into a fresh DuckDB file, as `paipu ingest` loads them
  (batches of about 2,000 hands in one transaction, DuckDB's memory budget and threads,
  the checkpoint);
- stages (`--stages`): one process times each stage of the ingest in CPU microseconds
  per hand: cutting the files into hands, parsing, replay, rows, shard writing (Arrow
  and Parquet), the load; and the start of `paipu ingest` (its imports);
- timeline (`--timeline`): the whole ingest at `-jN` in one run, each worker's tasks and each
  batch's load timed in wall time: how busy each worker was, how long the workers waited
  for the first task, and how long the last load ran after the last task (`-v` lists
  every task and load);
- floor (`--floor`): an experiment, not a way to run paipu: the ingest at `-jN` as it is,
  then without building the rows of `events`, of `discards`, and of both (the two tables
  left empty: 100 and 49 rows a Botzone hand, the bulk of what is written), each beside
  the minimal script, in turn, `--rounds` times: how close to the minimal script's wall
  time the ingest could come if it wrote less (docs/benchmarks.md, "Stop 30").

For each it prints hands per second, the CPU seconds of the process and its workers (a
steadier figure than wall time on a shared machine) and the peak memory (RSS) of the
largest process, and it runs the ingest at two corpus sizes to show that memory stays flat
as the corpus grows.

    .venv/bin/python benchmarks/bench_ingest.py --copies 2500 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = Path(os.environ.get("PAIPU_SHARED", ROOT.parent / "shared")) / "data/botzone/sample.txt"
PY = sys.executable

_PARSE = """
import sys
from pathlib import Path
from paipu.parsers import parse_any
n = sum(1 for p in sorted(Path(sys.argv[1]).glob('*.txt')) for _ in parse_any(p))
print(n)
"""
_REPLAY = """
import sys
from pathlib import Path
from paipu.parsers import Parsed, parse_any
from paipu.pipeline.ingest import rows_for
from paipu.pipeline.rows import RowBuffer
n = 0
for p in sorted(Path(sys.argv[1]).glob('*.txt')):
    rows = RowBuffer()
    for i, item in enumerate(parse_any(p)):
        rows_for(item, 'botzone-text', rows)
        n += 1
        if i % 500 == 0:
            rows = RowBuffer()
print(n)
"""

#: The load side alone: map every chunk in this process (untimed), then time the loader
#: on the shards into a fresh database; prints hands, wall and CPU seconds of the load.
_LOAD = """
import os, sys, tempfile, time
from pathlib import Path
import duckdb
from paipu.pipeline import ingest as I
from paipu.pipeline.engines import LocalEngine
from paipu.pipeline.sql import apply_schema
stage = tempfile.mkdtemp(dir=sys.argv[2])
with I._relaxed_gc():
    chunks = [I.process(t) for t in I.tasks_for(I.expand([Path(sys.argv[1])]), print, stage)]
db = Path(sys.argv[2], 'load.duckdb')
wall, cpu = time.perf_counter(), time.process_time()
con = duckdb.connect(str(db))
con.execute(f"SET memory_limit = '{I.INGEST_MEMORY_LIMIT}'")
con.execute(f"SET threads = {I.load_threads(LocalEngine(int(sys.argv[3])))}")
apply_schema(con)
con.execute('BEGIN TRANSACTION')  # as paipu ingest: the whole load in one transaction
loader = I.Loader(con)
for chunk in chunks:
    loader.add(chunk)
loader.flush()
con.execute('COMMIT')
con.execute('CHECKPOINT')
con.close()
print(sum(c.hands for c in chunks), time.perf_counter() - wall, time.process_time() - cpu)
"""

#: Every stage of the map and load sides timed apart, in CPU time, as one worker runs them.
_STAGES = """
import sys, tempfile, time
from pathlib import Path
clock = time.process_time
started = clock()
import duckdb
from paipu.parsers import Rejected, parse_unit
from paipu.pipeline import ingest as I
from paipu.pipeline.cli import app
from paipu.pipeline.engines import LocalEngine
from paipu.pipeline.rows import RowBuffer
from paipu.pipeline.sql import apply_schema
from paipu.rules.replay import replay
spent = {'start (imports)': clock() - started}
def add(stage, since):
    spent[stage] = spent.get(stage, 0.0) + clock() - since
stage = tempfile.mkdtemp(dir=sys.argv[2])
chunks, n = [], 0
with I._relaxed_gc():
    t = clock()
    tasks = list(I.tasks_for(I.expand([Path(sys.argv[1])]), print, stage))
    add('cut into hands', t)
    for task in tasks:
        rows = RowBuffer()
        for line, text in task.units:
            t = clock()
            results = parse_unit(task.fmt, task.path, line, text)
            add('parse', t)
            for result in results:
                t = clock()
                outcome = replay(result.record)
                add('replay', t)
                t = clock()
                rows.add_outcome(outcome, task.fmt, result.path, result.line, result.text)
                add('rows', t)
                n += 1
        t = clock()
        chunks.append(I.Chunk.of(rows, stage, f'{task.index:08d}'))
        add('shards (Arrow, Parquet)', t)
    t = clock()
    con = duckdb.connect(str(Path(sys.argv[2], 'stages.duckdb')))
    con.execute(f"SET memory_limit = '{I.INGEST_MEMORY_LIMIT}'")
    con.execute(f"SET threads = {I.load_threads(LocalEngine(2))}")
    apply_schema(con)
    con.execute('BEGIN TRANSACTION')
    loader = I.Loader(con)
    for chunk in chunks:
        loader.add(chunk)
    loader.flush()
    con.execute('COMMIT')
    con.execute('CHECKPOINT')
    con.close()
    add('load (DuckDB)', t)
for name, seconds in spent.items():
    per_hand = '' if name.startswith('start') else f'{seconds / n * 1e6:9.0f} us/hand'
    print(f'{name:28} {seconds:7.2f} s cpu {per_hand}')
total = sum(spent.values())
print(f"{'total':28} {total:7.2f} s cpu {total / n * 1e6:9.0f} us/hand ({n:,} hands)")
"""


#: The ingest at -jN, each worker task and each batch's load timed (wall time from the
#: start of the ingest, and the CPU of each); prints where the wall time went.
_TIMELINE = """
import os, sys, time
from pathlib import Path
from paipu.pipeline import ingest as I
log, jobs = Path(sys.argv[3]), int(sys.argv[4])
process, load = I.process, I.Loader._load
def note(what, since, cpu):
    with log.open('a') as out:
        out.write(f'{what} {since - t0:.3f} {time.perf_counter() - t0:.3f} '
                  f'{time.process_time() - cpu:.3f}\\n')
def timed_process(task):
    since, cpu = time.perf_counter(), time.process_time()
    try:
        return process(task)
    finally:
        note(f'worker-{os.getpid()}', since, cpu)
def timed_load(self, *batch):
    since, cpu = time.perf_counter(), time.thread_time()
    try:
        load(self, *batch)
    finally:
        note('load', since, cpu + time.process_time() - time.thread_time())
I.process, I.Loader._load = timed_process, timed_load
t0 = time.perf_counter()
summary = I.ingest([Path(sys.argv[1])], Path(sys.argv[2]), jobs=jobs)
wall = time.perf_counter() - t0
spans = [(w, float(a), float(b), float(c)) for w, a, b, c in map(str.split, log.open())]
print(f'{summary.hands:,} hands at -j{jobs}: {wall:.2f} s wall')
names = sorted({s[0] for s in spans}, key=lambda n: (n == 'load', n))
for name in names:
    mine = [s for s in spans if s[0] == name]
    busy = sum(b - a for _, a, b, _ in mine)
    print(f'{name:16} {len(mine):3} runs  first {min(s[1] for s in mine):6.2f} s  '
          f'last {max(s[2] for s in mine):6.2f} s  busy {busy:6.2f} s ({busy / wall:4.0%})  '
          f'cpu {sum(s[3] for s in mine):6.2f} s')
work = [s for s in spans if s[0] != 'load']
end = max(s[2] for s in work)
busy = sum(b - a for _, a, b, _ in work)
print(f'workers busy {busy / (jobs * wall):.0%} of {jobs} x the wall time; first task at '
      f'{min(s[1] for s in work):.2f} s; after the last task: {wall - end:.2f} s '
      '(the last batch\\'s load, the checkpoint)')
if '-v' in sys.argv:
    for span in sorted(spans, key=lambda s: s[1]):
        print(*span)
"""


#: The ingest at -jN with the rows of some tables not built (``--floor``), timed as a whole
#: process by :func:`timed` as the ``ingest`` lines are (its start and imports included).
_FLOOR = """
import sys
from pathlib import Path
from paipu.pipeline import ingest as I
from paipu.pipeline import rows as R
skip = sys.argv[3].split(',') if sys.argv[3] else []
if 'events' in skip:
    R.RowBuffer._event_rows = lambda *a: None
if 'discards' in skip:
    R.RowBuffer._discard_rows = lambda *a: None
I.ingest([Path(sys.argv[1])], Path(sys.argv[2]), jobs=int(sys.argv[4]))
"""


def floor(corpus: Path, work: Path, jobs: int, rounds: int) -> None:
    """``--floor``: the ingest with fewer rows beside the minimal script, in turn."""
    kinds = ("", "events", "discards", "events,discards")
    minimal = [PY, str(ROOT / "benchmarks" / "minimal_botzone.py"), str(corpus)]
    for round_ in range(1, rounds + 1):
        for skip in kinds:
            db = work / f"floor-{round_}-{skip or 'all'}.duckdb"
            wall, cpu, _ = timed([PY, "-c", _FLOOR, str(corpus), str(db), skip, str(jobs)])
            reference, reference_cpu, _ = timed([*minimal, "--db", str(db.with_suffix(".m"))])
            label = f"without {skip.replace(',', ' and ')}" if skip else "as it is"
            print(
                f"round {round_} ingest -j{jobs} {label:28} {wall:6.1f} s wall {cpu:6.1f} s cpu; "
                f"minimal {reference:4.1f} s: {wall / reference:.1f}x its wall time, "
                f"{cpu / reference_cpu:.1f}x its CPU time",
                flush=True,
            )


def build_corpus(folder: Path, copies: int, files: int = 8) -> int:
    """``copies`` copies of the sample with unique match ids, spread over ``files`` files."""
    text = SAMPLE.read_text(encoding="utf-8")
    per_copy = text.count("Match ")
    files = min(files, copies)  # an empty file is a rejected one (ingest exits 3)
    outs = [(folder / f"part{i:02d}.txt").open("w", encoding="utf-8") for i in range(files)]
    try:
        for copy in range(copies):
            outs[copy % files].write(
                re.sub(
                    r"^Match (\S+)",
                    lambda m, c=copy: f"Match {m.group(1)}-{c:06d}",
                    text,
                    flags=re.M,
                )
                + "\n"
            )
    finally:
        for out in outs:
            out.close()
    return copies * per_copy


_WRAP = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def timed(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (the command and the workers it waited for) and peak RSS
    (MiB) of the largest process of a command (a fresh wrapper process waits for it, so
    the figures are this command's alone)."""
    out = subprocess.run(
        [PY, "-c", _WRAP, *command], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=2500, help="copies of the 16-game sample")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--stages", action="store_true", help="only the CPU time of each stage, per hand"
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="only the ingest at -jN, its workers' tasks and its loads timed (wall time)",
    )
    parser.add_argument("-v", action="store_true", help="with --timeline: every task and load")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="only an experiment: the ingest at -jN with and without the rows of events and "
        "discards, each beside the minimal script",
    )
    parser.add_argument("--rounds", type=int, default=2, help="with --floor: rounds of runs")
    args = parser.parse_args()
    if not SAMPLE.exists():
        print(f"{SAMPLE} is absent: the benchmark needs ../shared/data", file=sys.stderr)
        return 2
    # a stale compiled build runs as plain Python: say which engine the figures are of
    engine = subprocess.run(
        [PY, "-c", "from paipu.rules import ENGINE; print(ENGINE)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"rules engine: {engine}")
    work = Path(tempfile.mkdtemp(prefix="paipu-bench-"))
    try:
        small, large = work / "small", work / "large"
        small.mkdir()
        large.mkdir()
        n_large = build_corpus(large, args.copies)
        if args.stages:
            print(
                subprocess.run(
                    [PY, "-c", _STAGES, str(large), str(work)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout,
                end="",
            )
            return 0
        if args.floor:
            floor(large, work, args.jobs, args.rounds)
            return 0
        if args.timeline:
            command = [PY, "-c", _TIMELINE, str(large), str(work / "t.duckdb")]
            command += [str(work / "timeline.log"), str(args.jobs)] + ["-v"] * args.v
            print(
                subprocess.run(command, check=True, capture_output=True, text=True).stdout, end=""
            )
            return 0
        n_small = build_corpus(small, max(1, args.copies // 4))
        rows = []
        for label, command, n in (
            ("parse", [PY, "-c", _PARSE, str(large)], n_large),
            ("parse + replay", [PY, "-c", _REPLAY, str(large)], n_large),
            (
                "ingest -j1",
                [
                    PY,
                    "-m",
                    "paipu.pipeline.cli",
                    "ingest",
                    str(large),
                    "--db",
                    str(work / "a.duckdb"),
                    "-j",
                    "1",
                    "-q",
                ],
                n_large,
            ),
            (
                f"ingest -j{args.jobs}",
                [
                    PY,
                    "-m",
                    "paipu.pipeline.cli",
                    "ingest",
                    str(large),
                    "--db",
                    str(work / "b.duckdb"),
                    "-j",
                    str(args.jobs),
                    "-q",
                ],
                n_large,
            ),
            (
                f"ingest -j{args.jobs} (¼ corpus)",
                [
                    PY,
                    "-m",
                    "paipu.pipeline.cli",
                    "ingest",
                    str(small),
                    "--db",
                    str(work / "c.duckdb"),
                    "-j",
                    str(args.jobs),
                    "-q",
                ],
                n_small,
            ),
            (
                "minimal reference",
                [
                    PY,
                    str(ROOT / "benchmarks" / "minimal_botzone.py"),
                    str(large),
                    "--db",
                    str(work / "m.duckdb"),
                ],
                n_large,
            ),
        ):
            seconds, cpu, peak = timed(command)
            rows.append((label, n, seconds, cpu, peak))
            print(
                f"{label:28} {n:>8,} hands {seconds:>8.1f} s {n / seconds:>9,.0f} hands/s "
                f"cpu {cpu:>6.1f} s peak {peak:>6.0f} MiB",
                flush=True,
            )
        out = subprocess.run(
            [PY, "-c", _LOAD, str(large), str(work), str(args.jobs)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        n, seconds, cpu = int(out[0]), float(out[1]), float(out[2])
        print(
            f"{'load alone (shards → db)':28} {n:>8,} hands {seconds:>8.1f} s "
            f"{n / seconds:>9,.0f} hands/s cpu {cpu:>6.1f} s ({n / cpu:,.0f} hands per CPU second)",
            flush=True,
        )
        # The reference is one process: -j1 is the like-for-like line; -jN has N workers.
        minimal, minimal_cpu = rows[-1][2:4]
        for label, _n, wall, cpu, _peak in (rows[2], rows[3]):
            print(
                f"{label} against the minimal script (one process): "
                f"{wall / minimal:.1f}× its wall time, {cpu / minimal_cpu:.1f}× its CPU time"
            )
    finally:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
