"""MCR scoring speed: paipu beside the reference calculator pymahjonggb, on the same hands.

Prints hands scored per second and the time per hand for
- the reference (MahjongFanCalculator, C++ called from Python, called the cheapest way it
  answers the same question: positional arguments prepared beforehand, ``verbose`` off, so
  it builds no English names),
- paipu's full path (`paipu.rules.score.score`: request checks, fans, settlement),
- paipu's fan evaluator alone (`paipu.rules.variants.mcr.fans.calculate`),
and the peak memory of the process. Times are the process's CPU time
(``time.process_time``), steadier than the wall clock on a shared machine.

First every scorer warms up on other hands (``--warmup`` of them, another seed: the
per-suit tables of the decomposer and of the wait calculator fill on first sight, as in a
long-running process). Then each of ``--repeats`` passes scores hands it has never seen,
a new set each pass, and the best pass is printed ("distinct"); beside it, the last set
scored again ("again": paipu's caches of recent answers then hold every hand, the best
case, not what a corpus of distinct hands gets).

    .venv/bin/python benchmarks/bench_score.py --hands 50000
"""

from __future__ import annotations

import argparse
import resource
from collections.abc import Callable

from bench_waits import seconds as cpu_seconds

from paipu.rules import ENGINE
from paipu.rules.melds import Group
from paipu.rules.score import ScoreRequest, score
from paipu.rules.variants.mcr import fans as mcr_fans
from paipu.rules.variants.mcr.reference import load_calculator, reference_arguments
from paipu.rules.variants.mcr.samples import SHAPES, random_requests

#: MahjongFanCalculator's parameters in order (its ``verbose`` left at False).
_REFERENCE_ORDER = (
    "pack",
    "hand",
    "winTile",
    "flowerCount",
    "isSelfDrawn",
    "is4thTile",
    "isAboutKong",
    "isWallLast",
    "seatWind",
    "prevalentWind",
)


def _reference_positional(request: ScoreRequest) -> tuple:
    arguments = reference_arguments(request)
    return tuple(arguments[name] for name in _REFERENCE_ORDER)


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
    parser.add_argument("--hands", type=int, default=50_000, help="hands per timed pass")
    parser.add_argument("--warmup", type=int, default=None, help="warm-up hands (default: --hands)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3, help="timed passes, each on new hands")
    parser.add_argument("--shapes", default="all", help="'all' or 'standard'")
    args = parser.parse_args()
    shapes = SHAPES if args.shapes == "all" else ("standard",)
    warmup = list(random_requests(args.seed + 1000, args.warmup or args.hands, shapes))
    passes = [list(random_requests(args.seed + i, args.hands, shapes)) for i in range(args.repeats)]
    calculator = load_calculator()

    def scorers(requests: list[ScoreRequest]) -> dict[str, Callable[[], None]]:
        positional = [_reference_positional(r) for r in requests]
        prepared = _prepared(requests)

        def run_reference() -> None:
            for a in positional:
                calculator(*a)

        def run_score() -> None:
            for r in requests:
                score(r)

        def run_calculate() -> None:
            for p in prepared:
                mcr_fans.calculate(*p)

        return {
            "reference pymahjonggb": run_reference,
            "paipu score()": run_score,
            "paipu mcr/fans.calculate()": run_calculate,
        }

    for run in scorers(warmup).values():
        run()
    best: dict[str, float] = {}
    for requests in passes:
        for name, run in scorers(requests).items():
            best[name] = min(best.get(name, float("inf")), cpu_seconds(run))
    again = {name: cpu_seconds(run) for name, run in scorers(passes[-1]).items()}

    n = args.hands
    ref, ref_again = best["reference pymahjonggb"], again["reference pymahjonggb"]
    print(
        f"{n:,} hands ({args.shapes} shapes) per pass, after {len(warmup):,} others; "
        f"best of {args.repeats} passes on new hands, rules engine {ENGINE}"
    )
    print(f"{'':28} {'distinct µs/hand':>17} {'× reference':>12} {'again µs/hand':>14} {'×':>6}")
    for name, seconds in best.items():
        print(
            f"{name:28} {seconds / n * 1e6:>17.1f} {seconds / ref:>12.1f} "
            f"{again[name] / n * 1e6:>14.1f} {again[name] / ref_again:>6.1f}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
