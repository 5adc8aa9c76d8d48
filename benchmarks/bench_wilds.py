"""Wild-aware waits, shanten and is-win (paipu.rules.core) beside the plain path.

The same N random hands (fixed seed, drawn from the 136 tiles) go to the plain engine
(``paipu.rules.shanten``: waits and shanten of 13 tiles, ``is_complete`` of 14), to the core
with no wilds, and to the core with wilds, in two mixes:

* ``tianjin``: each hand has its own 混 (a random indicator and its successor, both kinds
  wild), so a hand holds what the deal gives it (0.76 wilds on average);
* ``k wilds``: the same hands with their last ``k`` tiles replaced by 红中 wilds (k = 1..4).

Each is timed in CPU time, cold (tables emptied first) and warm (the best of three rounds
over the same hands, every run in turn); the ratio is warm against the plain path's warm.

    .venv/bin/python benchmarks/bench_wilds.py              # 20,000 hands
    .venv/bin/python benchmarks/bench_wilds.py --hands 5000 --seed 7
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence

from bench_waits import random_hands
from bench_waits import seconds as cpu_seconds

import paipu.rules
from paipu.rules import shanten as plain
from paipu.rules.core import shanten as core
from paipu.rules.core.tiles import STANDARD
from paipu.rules.core.wild import WildSpec
from paipu.rules.tiles import N_KINDS, RED

Hand = tuple[list[int], WildSpec]


def tianjin(hands: list[list[int]], seed: int) -> list[Hand]:
    rng = random.Random(seed)
    return [(h, WildSpec.from_indicator(STANDARD, rng.randrange(N_KINDS), (0, 1))) for h in hands]


def with_red_wilds(hands: list[list[int]], k: int) -> list[Hand]:
    """Each hand with ``k`` of its non-red tiles (the highest codes) turned into 红中."""
    spec = WildSpec.fixed(STANDARD, [RED])
    out = []
    for hand in hands:
        counts = list(hand)
        moved = 0
        for tile in range(N_KINDS - 1, -1, -1):
            while counts[tile] and tile != RED and moved < k and counts[RED] < 4:
                counts[tile] -= 1
                counts[RED] += 1
                moved += 1
        out.append((counts, spec))
    return out


def line(label: str, n: int, cold: float, warm: float, base: float | None) -> None:
    ratio = f"{warm / base:6.2f}×" if base else "   1.00×"
    print(
        f"  {label:<34} {n / warm:>10,.0f}/s {warm / n * 1e6:>8.2f} µs warm"
        f" {cold / n * 1e6:>9.1f} µs cold {ratio}"
    )


def bench(
    name: str, size: int, hands: list[list[int]], mixes: dict[str, list[Hand]], repeats: int
) -> None:
    """Each run cold (tables emptied first), then ``repeats`` rounds of every run in turn,
    warm, the best kept (turns, so that the machine's drift falls on all of them alike).
    The plain waits' memory of recent hands (a seat asking again about the hand it just
    had) is emptied before each pass, so both paths answer from their tables."""
    call: Callable[[list[int], WildSpec], object]
    if name == "waits":
        plain_call, call = plain.waits, core.waits
    elif name == "shanten":
        plain_call, call = plain.shanten, core.shanten
    else:
        plain_call, call = plain.is_complete, core.is_win
    runs: dict[str, Callable[[], object]] = {
        "plain (paipu.rules.shanten)": lambda: [plain_call(h) for h in hands]
    }
    none = WildSpec.none()
    for label, mix in {"no wilds": [(h, none) for h in hands], **mixes}.items():
        runs[f"core, {label}"] = lambda mix=mix: [call(h, s) for h, s in mix]
    cold: dict[str, float] = {}
    for label, run in runs.items():
        plain.clear_caches()
        core.clear_caches()
        cold[label] = cpu_seconds(run)
    warm = {label: float("inf") for label in runs}
    for run in runs.values():
        run()  # every table built again, for the warm rounds
    for _ in range(repeats):
        for label, run in runs.items():
            plain._RECENT_WAITS.clear()
            warm[label] = min(warm[label], cpu_seconds(run))
    print(f"{name} ({size} tiles), CPU time")
    base = warm["plain (paipu.rules.shanten)"]
    for index, label in enumerate(runs):
        line(label, len(hands), cold[label], warm[label], base if index else None)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="random hands per size")
    parser.add_argument("--seed", type=int, default=20240, help="random seed")
    parser.add_argument("--most", type=int, default=4, help="most 红中 wilds per hand")
    parser.add_argument("--repeats", type=int, default=3, help="warm passes (best is kept)")
    args = parser.parse_args(argv)
    print(
        f"{args.hands:,} random hands, seed {args.seed}, Python {sys.version.split()[0]}, "
        f"rules engine {paipu.rules.ENGINE}"
    )
    for name, size in (("waits", 13), ("shanten", 13), ("is-win", 14)):
        hands = random_hands(args.hands, args.seed + size, size)
        mixes = {"tianjin 混 (0.76 wilds/hand)": tianjin(hands, args.seed)}
        for k in range(1, args.most + 1):
            mixes[f"{k} 红中 wild{'s' if k > 1 else ''}"] = with_red_wilds(hands, k)
        bench(name, size, hands, mixes, args.repeats)


if __name__ == "__main__":
    main()
