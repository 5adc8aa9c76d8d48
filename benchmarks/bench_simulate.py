"""Self-play speed: CPU time per hand, and hands simulated per second on one core and on
all cores (MCR by default; ``--variant`` any mahjong variant, the one loop plays them all).

Runs the same simulation as ``paipu simulate`` (bots, the replay table checking every
event, the paipu lines written in memory) through ``paipu.pipeline.simulate``: the whole
run from a fresh start in this process and with ``--jobs`` worker processes, which must
give the same bytes; then the steady state: after ``--warmup`` more hands (the caches
filled), the CPU time per hand of the next ``--steady`` hands in this process. CPU time,
because the wall clock of a shared machine is noisy. Prints CPU milliseconds per hand,
hands per second, the time a 1,000,000-hand corpus would take on two cores, and the peak
memory of this process and of the workers.

The rules engine runs compiled (mypyc, ``paipu.rules.native``) when the package was built
with it; ``--pure-reference`` also measures the steady state of the plain Python engine,
in a child process with ``PAIPU_PURE_PYTHON=1``, side by side.

    .venv/bin/python benchmarks/bench_simulate.py                  # 2,000 hands
    .venv/bin/python benchmarks/bench_simulate.py --hands 10000 --jobs 2 --pure-reference
    .venv/bin/python benchmarks/bench_simulate.py --variant sichuan --hands 500 --jobs 1
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence

import paipu.rules
from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, play_game, simulate
from paipu.rules.native import PURE_ENV

CORPUS = 1_000_000
CORES = 2  # the budget: a 1,000,000-hand corpus on two cores


def cpu_seconds(workers: int) -> float:
    """CPU time used so far by this process, or by its finished worker processes."""
    if workers <= 1:
        return time.process_time()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def steady(warmup: int, hands: int, seed: int, variant: str = "mcr") -> float:
    """CPU milliseconds per hand once ``warmup`` more hands have filled the caches."""
    jobs = game_jobs(variant, warmup + hands, seed, DEFAULT_PLAYERS, {})
    per_game = jobs[0].hands
    for job in jobs[: warmup // per_game]:
        play_game(job)
    measured = jobs[warmup // per_game :]
    start = time.process_time()
    for job in measured:
        play_game(job)
    return (time.process_time() - start) / sum(job.hands for job in measured) * 1e3


def run(hands: int, seed: int, workers: int, variant: str = "mcr") -> tuple[float, float, int, str]:
    """Seconds taken, CPU seconds used, hands written and a digest of the lines."""
    jobs = game_jobs(variant, hands, seed, DEFAULT_PLAYERS, {})
    digest = hashlib.sha256()
    written = 0
    start, cpu = time.perf_counter(), cpu_seconds(workers)
    for lines, _ in simulate(jobs, workers):
        for line in lines:
            digest.update(line.encode("utf-8"))
            digest.update(b"\n")
        written += len(lines)
    elapsed = time.perf_counter() - start
    return elapsed, cpu_seconds(workers) - cpu, written, digest.hexdigest()


def pure_steady(warmup: int, hands: int, seed: int, variant: str = "mcr") -> float:
    """:func:`steady` of the plain Python engine, run in a child process."""
    env = {**os.environ, PURE_ENV: "1"}
    argv = [sys.executable, __file__, "--steady-only", f"--warmup={warmup}"]
    argv += [f"--steady={hands}", f"--seed={seed}", f"--variant={variant}"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return float(done.stdout)


def report(label: str, elapsed: float, cpu: float, hands: int, workers: int) -> None:
    rate = hands / elapsed
    corpus = CORPUS / (rate * min(1, CORES / workers)) / 60
    print(
        f"  {label:<22} {rate:>6,.0f} hands/s ({rate / workers:,.0f} per core)"
        f" {elapsed:>6.1f} s  {cpu / hands * 1e3:5.1f} ms CPU per hand"
        f"   1,000,000 hands on {min(workers, CORES)} core(s): {corpus:,.0f} min"
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
    parser.add_argument("--variant", default="mcr", help="the mahjong variant to play")
    parser.add_argument("--warmup", type=int, default=1280, help="hands before the steady state")
    parser.add_argument("--steady", type=int, default=1120, help="hands timed in steady state")
    parser.add_argument(
        "--pure-reference",
        action="store_true",
        help="also time the steady state of the plain Python engine (PAIPU_PURE_PYTHON=1)",
    )
    parser.add_argument("--steady-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.steady_only:  # the child process of --pure-reference
        print(steady(args.warmup, args.steady, args.seed + 1, args.variant))
        return

    print(
        f"{args.variant} self-play, seed {args.seed}, Python {sys.version.split()[0]},"
        f" {os.cpu_count()} CPUs,"
        f" rules engine {paipu.rules.ENGINE}"
    )
    print(f"  {args.hands:,} hands from a fresh start:")
    one, cpu, hands, digest_one = run(args.hands, args.seed, 1, args.variant)
    report("one core (in process)", one, cpu, hands, 1)
    if args.jobs > 1:
        many, cpu, hands, digest_many = run(args.hands, args.seed, args.jobs, args.variant)
        report(f"{args.jobs} workers", many, cpu, hands, args.jobs)
        same = "identical" if digest_many == digest_one else "DIFFERENT (a bug)"
        print(f"  output of both runs: {same} (sha256 {digest_one[:16]}…)")
    if args.steady > 0:
        ms = steady(args.warmup, args.steady, args.seed + 1, args.variant)
        corpus = CORPUS * ms / 1e3 / CORES / 60
        print(
            f"  steady state (in process, {args.warmup:,} more hands first): {ms:.1f} ms CPU"
            f" per hand, {1e3 / ms:,.0f} hands/s per core;"
            f" 1,000,000 hands on {CORES} cores: {corpus:,.0f} min"
        )
        if args.pure_reference:
            pure = pure_steady(args.warmup, args.steady, args.seed, args.variant)
            print(
                f"  the same, plain Python engine: {pure:.1f} ms CPU per hand"
                f" ({pure / ms:.1f}× the time); 1,000,000 hands on {CORES} cores:"
                f" {CORPUS * pure / 1e3 / CORES / 60:,.0f} min"
            )
    print("memory")
    print(f"  this process peak RSS: {peak_mib(resource.RUSAGE_SELF):.1f} MiB")
    if args.jobs > 1:
        print(f"  largest worker peak RSS: {peak_mib(resource.RUSAGE_CHILDREN):.1f} MiB")


if __name__ == "__main__":
    main()
