"""MCR self-play speed: hands simulated per second on one core and on all cores.

Runs the same simulation as ``paipu simulate`` (bots, the replay table checking every
event, the paipu lines written in memory) through ``paipu.pipeline.simulate``: first in
this process, then with ``--jobs`` worker processes, and checks that both give the same
bytes. Prints hands per second, the time a 1,000,000-hand corpus would take, and the peak
memory of this process and of the workers.

    .venv/bin/python benchmarks/bench_simulate.py                  # 2,000 hands
    .venv/bin/python benchmarks/bench_simulate.py --hands 10000 --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import time
from collections.abc import Sequence

from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, simulate

CORPUS = 1_000_000


def run(hands: int, seed: int, workers: int) -> tuple[float, int, str]:
    """Seconds taken, hands written and a digest of the lines."""
    jobs = game_jobs("mcr", hands, seed, DEFAULT_PLAYERS, {})
    digest = hashlib.sha256()
    written = 0
    start = time.perf_counter()
    for lines, _ in simulate(jobs, workers):
        for line in lines:
            digest.update(line.encode("utf-8"))
            digest.update(b"\n")
        written += len(lines)
    return time.perf_counter() - start, written, digest.hexdigest()


def report(label: str, elapsed: float, hands: int, workers: int) -> None:
    rate = hands / elapsed
    corpus = CORPUS / rate / 60
    print(
        f"  {label:<22} {rate:>8,.0f} hands/s ({rate / workers:,.0f} per core)"
        f"   {elapsed:>7.1f} s   1,000,000 hands: {corpus:,.0f} min"
    )


def peak_mib(who: int) -> float:
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(who).ru_maxrss * scale / 2**20


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands to simulate per run")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="workers for the all-core run"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    args = parser.parse_args(argv)

    print(
        f"MCR self-play, {args.hands:,} hands, seed {args.seed}, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    one, hands, digest_one = run(args.hands, args.seed, 1)
    report("one core (in process)", one, hands, 1)
    if args.jobs > 1:
        many, hands, digest_many = run(args.hands, args.seed, args.jobs)
        report(f"{args.jobs} workers", many, hands, args.jobs)
        same = "identical" if digest_many == digest_one else "DIFFERENT (a bug)"
        print(f"  output of both runs: {same} (sha256 {digest_one[:16]}…)")
    print("memory")
    print(f"  this process peak RSS: {peak_mib(resource.RUSAGE_SELF):.1f} MiB")
    if args.jobs > 1:
        print(f"  largest worker peak RSS: {peak_mib(resource.RUSAGE_CHILDREN):.1f} MiB")


if __name__ == "__main__":
    main()
