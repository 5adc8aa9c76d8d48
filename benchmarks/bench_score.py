"""MCR scoring speed: paipu beside the reference calculator pymahjonggb, on the same hands.

Prints hands scored per second and the time per hand for
- the reference (MahjongFanCalculator, C++ called from Python, on prepared arguments),
- paipu's full path (`paipu.rules.score.score`: request checks, fans, settlement),
- paipu's fan evaluator alone (`paipu.rules.variants.mcr.fans.calculate`),
each after a warm-up pass (the per-suit tables of the decomposer and of the wait
calculator fill on first sight), and the peak memory of the process.

    .venv/bin/python benchmarks/bench_score.py --hands 50000
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable

from paipu.rules.melds import Group
from paipu.rules.score import ScoreRequest, score
from paipu.rules.variants.mcr import fans as mcr_fans
from paipu.rules.variants.mcr.reference import load_calculator, reference_arguments
from paipu.rules.variants.mcr.samples import SHAPES, random_requests


def _best_of(repeats: int, run: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _prepared(requests: list[ScoreRequest]) -> list[tuple]:
    out = []
    for r in requests:
        win = mcr_fans.WinSituation(
            self_drawn=r.self_drawn,
            seat_wind=r.seat_wind_for(4),
            prevalent_wind=r.round_wind,
            wall_last=r.flags.last_tile,
            kong=r.flags.kong_replacement or r.flags.robbing_kong,
            last_of_kind=r.flags.last_of_kind,
            flowers=len(r.flowers),
        )
        out.append((r.hand, [Group.from_meld(m) for m in r.melds], r.win_tile, win))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shapes", default="all", help="'all' or 'standard'")
    args = parser.parse_args()
    shapes = SHAPES if args.shapes == "all" else ("standard",)
    requests = list(random_requests(args.seed, args.hands, shapes))
    arguments = [reference_arguments(r) for r in requests]
    prepared = _prepared(requests)
    calculator = load_calculator()
    for r in requests:  # warm-up: fill the per-suit tables
        score(r)

    def run_reference() -> None:
        for a in arguments:
            calculator(**a)

    def run_score() -> None:
        for r in requests:
            score(r)

    def run_calculate() -> None:
        for p in prepared:
            mcr_fans.calculate(*p)

    n = len(requests)
    ref = _best_of(args.repeats, run_reference)
    rows = [
        ("reference pymahjonggb", ref),
        ("paipu score()", _best_of(args.repeats, run_score)),
        ("paipu mcr/fans.calculate()", _best_of(args.repeats, run_calculate)),
    ]
    print(f"{n:,} hands ({args.shapes} shapes), best of {args.repeats}")
    print(f"{'':28} {'hands/s':>10} {'µs/hand':>9} {'× reference':>12}")
    for name, seconds in rows:
        print(f"{name:28} {n / seconds:>10,.0f} {seconds / n * 1e6:>9.1f} {seconds / ref:>12.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
