"""Throughput of paipu.rules.shanten against the MahjongGB reference (pymahjonggb).

Runs every function over the same N random 13-tile hands (fixed seed) and prints hands per
second, then the peak memory.  Our functions are timed twice: cold (tables emptied first, so
the pass includes building them) and warm (second pass over the same hands).  Reference hands
are converted to MahjongGB's tile names before timing.

    .venv/bin/python benchmarks/bench_waits.py            # 50,000 hands
    .venv/bin/python benchmarks/bench_waits.py --n 200000 --seed 7
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from types import ModuleType

from paipu.rules.shanten import (
    ALL_SHAPES,
    Shape,
    cache_sizes,
    clear_caches,
    regular_shanten,
    shanten,
    waits,
)
from paipu.rules.tiles import N_KINDS

HAND_SIZE = 13
WAIT_SHAPES = (Shape.STANDARD, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS)
#: Our tile codes in MahjongGB notation (J1 is red 7z, J3 white 5z).
REF_NAMES = (
    *(f"W{rank}" for rank in range(1, 10)),
    *(f"B{rank}" for rank in range(1, 10)),
    *(f"T{rank}" for rank in range(1, 10)),
    *("F1", "F2", "F3", "F4", "J3", "J2", "J1"),
)


def random_hands(n: int, seed: int, size: int = HAND_SIZE) -> list[list[int]]:
    """``n`` count vectors of ``size`` tiles drawn from a full 136-tile wall."""
    rng = random.Random(seed)
    wall = [tile for tile in range(N_KINDS) for _ in range(4)]
    hands = []
    for _ in range(n):
        counts = [0] * N_KINDS
        for tile in rng.sample(wall, size):
            counts[tile] += 1
        hands.append(counts)
    return hands


def to_reference(counts: Sequence[int]) -> tuple[str, ...]:
    return tuple(REF_NAMES[tile] for tile, n in enumerate(counts) for _ in range(n))


def seconds(run: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


def report(label: str, elapsed: float, n: int) -> None:
    print(f"  {label:<50} {n / elapsed:>10,.0f} hands/s {elapsed / n * 1e6:>8.2f} µs/hand")


def bench_ours(hands: list[list[int]]) -> None:
    runs: dict[str, Callable[[], object]] = {
        "shanten(all shapes)": lambda: [shanten(h, 0, ALL_SHAPES) for h in hands],
        "waits(standard + seven pairs + 13 orphans)": lambda: [
            waits(h, 0, WAIT_SHAPES) for h in hands
        ],
        "regular_shanten": lambda: [regular_shanten(h) for h in hands],
        "waits(standard)": lambda: [waits(h) for h in hands],
    }
    print("paipu.rules.shanten")
    for label, run in runs.items():
        clear_caches()
        report(f"{label}, cold", seconds(run), len(hands))
        report(f"{label}, warm", seconds(run), len(hands))


def bench_reference(ref: ModuleType, hands: list[list[int]]) -> None:
    names = [to_reference(h) for h in hands]
    runs: dict[str, Callable[[], object]] = {
        "MahjongShanten (all shapes)": lambda: [ref.MahjongShanten(pack=(), hand=h) for h in names],
        "RegularShanten (shanten + useful tiles)": lambda: [
            ref.RegularShanten(hand=h) for h in names
        ],
    }
    print("MahjongGB reference (C++)")
    for label, run in runs.items():
        report(label, seconds(run), len(hands))


def bench_memory(hands: list[list[int]]) -> None:
    clear_caches()
    tracemalloc.start()
    for h in hands:
        shanten(h, 0, ALL_SHAPES)
        waits(h, 0, WAIT_SHAPES)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    sizes = ", ".join(f"{name} {count:,}" for name, count in cache_sizes().items())
    print("memory")
    print(f"  tables built from empty over these hands: {peak / 2**20:.1f} MiB traced peak")
    print(f"  table entries: {sizes}")
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    print(f"  process peak RSS: {max_rss * scale / 2**20:.1f} MiB")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000, help="random 13-tile hands")
    parser.add_argument("--seed", type=int, default=20240, help="random seed")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    args = parser.parse_args(argv)

    hands = random_hands(args.n, args.seed)
    print(f"{args.n:,} random 13-tile hands, seed {args.seed}, Python {sys.version.split()[0]}")
    bench_ours(hands)
    try:
        ref = importlib.import_module("MahjongGB")
    except ImportError:
        print("MahjongGB reference: not installed (pip install pymahjonggb), skipped")
    else:
        bench_reference(ref, hands)
    if not args.no_memory:
        bench_memory(hands)


if __name__ == "__main__":
    main()
