"""Throughput of paipu.rules.shanten against the MahjongGB reference (pymahjonggb).

Like is compared with like: shanten of every shape on random 13-tile hands against the
reference's MahjongShanten, and waits on *ready* hands (a random complete hand less one
tile) against the reference's RegularShanten, which for a ready hand answers shanten 0 and
the useful tiles: the waits, the same job (the two lists are compared hand by hand). On
random hands almost none are ready, and paipu's `waits` answers "not ready" at once while
RegularShanten lists useful tiles for every hand: those rows have no ratio.

Every function is timed three ways: cold (its tables emptied first, so the pass builds
them), warm (the tables filled by a pass over *other* hands of the same kind, then new
hands timed: a long-running process) and again (the same hands a second time: recent
answers are remembered, so this is the best case). The reference keeps no tables: its
cold and warm passes are the same work on the two sets of hands. Hands are converted to
MahjongGB's tile names before timing. Times are the process's CPU time
(``time.process_time``), steadier than the wall clock on a shared machine.

    .venv/bin/python benchmarks/bench_waits.py            # 50,000 hands of each kind
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

from paipu.rules import ENGINE
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


def ready_hands(n: int, seed: int) -> list[list[int]]:
    """``n`` ready 13-tile hands: four sets and a pair (at most four copies of a tile),
    less one random tile; concealed, standard shape."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        counts = [0] * N_KINDS
        for _ in range(4):
            if rng.random() < 0.6:  # a chow of a suit
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for tile in range(start, start + 3):
                    counts[tile] += 1
            else:
                counts[rng.randrange(N_KINDS)] += 3
        counts[rng.randrange(N_KINDS)] += 2
        if max(counts) > 4:
            continue
        tiles = [tile for tile, k in enumerate(counts) for _ in range(k)]
        counts[rng.choice(tiles)] -= 1
        hands.append(counts)
    return hands


def seconds(run: Callable[[], object]) -> float:
    """CPU seconds of ``run``, collection off (steadier than wall time on a shared machine);
    bench_score and bench_wilds time with it too."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        run()
        return time.process_time() - start
    finally:
        gc.enable()


def _us(elapsed: float, n: int) -> float:
    return elapsed / n * 1e6


HEADER = f"  {'':44} {'cold':>8} {'warm':>8} {'again':>8}   µs/hand"


def row(label: str, times: Sequence[float | None], n: int, ref: Sequence[float] = ()) -> None:
    cells = " ".join(f"{'' if t is None else f'{_us(t, n):.2f}':>8}" for t in times)
    ratio = ""
    if ref:
        ratio = "   × reference: " + ", ".join(
            f"{label} {t / r:.2f}"
            for label, t, r in zip(("cold", "warm"), times, ref, strict=False)
            if t is not None
        )
    print(f"  {label:<44} {cells}{ratio}")


def ours(run: Callable[[list[list[int]]], object], first: list, second: list) -> list[float]:
    """Cold on ``first``; warm: on ``second`` after ``first`` filled the tables; again."""
    clear_caches()
    cold = seconds(lambda: run(first))
    warm = seconds(lambda: run(second))
    again = seconds(lambda: run(second))
    return [cold, warm, again]


def bench(ref: ModuleType | None, n: int, seed: int) -> None:
    random_a, random_b = random_hands(n, seed), random_hands(n, seed + 1)
    ready_a, ready_b = ready_hands(n, seed), ready_hands(n, seed + 1)
    if ref is not None:
        names = {id(h): to_reference(h) for h in (*random_a, *random_b, *ready_a, *ready_b)}

        def reference(call: Callable[..., object], hands: list[list[int]]) -> float:
            prepared = [names[id(h)] for h in hands]
            return seconds(lambda: [call(h) for h in prepared])

    print(HEADER)
    print(f"shanten, every shape, {n:,} random hands")
    mine = ours(lambda hs: [shanten(h, 0, ALL_SHAPES) for h in hs], random_a, random_b)
    refs: list[float] = []
    if ref is not None:
        shanten_ref = ref.MahjongShanten
        refs = [reference(lambda h: shanten_ref((), h), hs) for hs in (random_a, random_b)]
        row("reference MahjongShanten (C++)", [*refs, None], n)
    row("paipu shanten(all shapes)", mine, n, refs)

    print(f"waits of ready hands, {n:,} ready hands (a complete hand less one tile)")
    mine = ours(lambda hs: [waits(h) for h in hs], ready_a, ready_b)
    refs = []
    if ref is not None:
        regular = ref.RegularShanten
        refs = [reference(regular, hs) for hs in (ready_a, ready_b)]
        row("reference RegularShanten (shanten + useful)", [*refs, None], n)
        agree = sum(
            tuple(waits(h))
            == tuple(
                REF_NAMES.index(t) for t in sorted(regular(names[id(h)])[1], key=REF_NAMES.index)
            )
            and regular(names[id(h)])[0] == 0
            for h in ready_a
        )
        print(f"  (the waits agree with the reference's useful tiles on {agree:,} of {n:,})")
    row("paipu waits(standard)", mine, n, refs)
    row(
        "paipu waits(standard + 7 pairs + 13 orphans)",
        ours(lambda hs: [waits(h, 0, WAIT_SHAPES) for h in hs], ready_a, ready_b),
        n,
    )

    print(f"on {n:,} random hands (no like-for-like reference: no ratio)")
    ready = sum(1 for h in random_a if waits(h))
    print(f"  ({ready:,} of them ready)")
    row(
        "paipu regular_shanten",
        ours(lambda hs: [regular_shanten(h) for h in hs], random_a, random_b),
        n,
    )
    row("paipu waits(standard)", ours(lambda hs: [waits(h) for h in hs], random_a, random_b), n)
    if ref is not None:
        regular = ref.RegularShanten
        row(
            "reference RegularShanten (shanten + useful)",
            [*(reference(regular, hs) for hs in (random_a, random_b)), None],
            n,
        )


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
    parser.add_argument("--n", type=int, default=50_000, help="hands of each kind")
    parser.add_argument("--seed", type=int, default=20240, help="random seed")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    args = parser.parse_args(argv)

    print(
        f"{args.n:,} hands of each kind, seeds {args.seed} and {args.seed + 1}, "
        f"Python {sys.version.split()[0]}, rules engine {ENGINE}"
    )
    try:
        ref = importlib.import_module("MahjongGB")
    except ImportError:
        print("MahjongGB reference: not installed (pip install pymahjonggb), skipped")
        ref = None
    bench(ref, args.n, args.seed)
    if not args.no_memory:
        bench_memory(random_hands(args.n, args.seed))


if __name__ == "__main__":
    main()
