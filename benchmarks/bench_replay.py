"""The map side's parse and replay alone, in CPU microseconds per hand, one process.

Reads Botzone text hands (the sample, ../shared/data/botzone/sample.txt, copied
``--copies`` times with distinct match ids, as bench_ingest.py builds its corpus) or the
hands of paipu JSON lines files (``--paipu FILE …``: each hand once, no copies), cuts them
into blocks first (not timed), then times ``parse_unit`` and ``replay`` of every hand under
the ingest's collector settings (``pipeline.ingest._relaxed_gc``), best of ``--runs``
passes. The cycle collector's own time is counted apart (``gc.callbacks``), with the
objects it collected: the replay should leave none.

    .venv/bin/python benchmarks/bench_replay.py --copies 100 --runs 5
    .venv/bin/python benchmarks/bench_replay.py --paipu data/mcr.paipu.jsonl --runs 5

For an instruction count, which the machine's load does not move, run it under callgrind
twice, with ``--copies 20`` and ``--copies 0`` (the imports and the setup alone), and take
the difference of the two totals divided by the hands:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/r20.out \\
        .venv/bin/python benchmarks/bench_replay.py --copies 20 --runs 1
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path


def botzone_units(copies: int) -> list[tuple[str, str, int, str]]:
    """(format, path, line, text) of every hand of ``copies`` copies of the sample."""
    from bench_ingest import build_corpus  # the same copies as the ingest benchmark's

    from paipu.parsers.botzone_text import blocks

    if copies <= 0:
        return []
    with tempfile.TemporaryDirectory(prefix="bench_replay_") as folder:
        build_corpus(Path(folder), copies, files=1)
        corpus = Path(folder, "part00.txt")
        return [("botzone-text", str(corpus), unit[0], unit[1]) for unit in blocks(corpus)]


def paipu_units(files: list[Path]) -> list[tuple[str, str, int, str]]:
    """(format, path, line, text) of every line of paipu JSON lines files."""
    units = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                units.append(("paipu", str(path), number, line))
    return units


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=100, help="copies of the 16-hand sample")
    parser.add_argument("--paipu", type=Path, nargs="*", help="paipu JSON lines files instead")
    parser.add_argument("--runs", type=int, default=3, help="passes; the best is printed")
    args = parser.parse_args()

    from paipu.parsers import Parsed, parse_unit
    from paipu.pipeline.ingest import _relaxed_gc
    from paipu.rules import ENGINE
    from paipu.rules.replay import replay

    print(f"rules engine: {ENGINE}")  # a stale compiled build runs as plain Python
    units = paipu_units(args.paipu) if args.paipu else botzone_units(args.copies)
    collector = {"seconds": 0.0, "collected": 0, "runs": 0}
    started = [0.0]

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            collector["seconds"] += time.process_time() - started[0]
            collector["collected"] += info["collected"]
            collector["runs"] += 1

    clock = time.process_time
    best: dict[str, float] = {}
    hands = 0
    for _ in range(args.runs):
        parse = rep = 0.0
        hands = 0
        for key in collector:
            collector[key] = 0
        gc.callbacks.append(watch)
        with _relaxed_gc():
            for fmt, path, line, text in units:
                t = clock()
                results = parse_unit(fmt, path, line, text)
                u = clock()
                parse += u - t
                for result in results:
                    if isinstance(result, Parsed):
                        t = clock()
                        replay(result.record)
                        rep += clock() - t
                        hands += 1
        gc.callbacks.remove(watch)
        for name, seconds in (
            ("parse", parse),
            ("replay", rep),
            ("collector", collector["seconds"]),
        ):
            best[name] = min(best.get(name, seconds), seconds)
        collected = collector["collected"], collector["runs"]
    if not hands:
        print("no hands", file=sys.stderr)
        return 0 if not units else 1
    for name, seconds in best.items():
        print(f"{name:10} {seconds:7.3f} s cpu {seconds / hands * 1e6:8.1f} us/hand")
    print(
        f"{hands:,} hands; the collector ran {collected[1]} times, "
        f"collected {collected[0]:,} objects (last pass)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
