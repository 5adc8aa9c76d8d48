"""Full agreement run: paipu's MCR scorer against the reference calculator pymahjonggb.

Scores N random legal hands of every shape (standard, seven pairs, thirteen orphans,
honors and knitted, knitted straight, nine gates; kongs of every kind, flowers, every
flag) with both and counts the hands where the total or the fan list differ, and the
hands where legality (8 fan without flowers) differs. Prints one line per shape and the
first disagreements in full. The figures of the last run are in docs/mcr-agreement.md.

    .venv/bin/python benchmarks/mcr_agreement.py --per-shape 100000 --seed 2026
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from paipu.rules.score import score
from paipu.rules.variants.mcr.reference import load_calculator, reference_score
from paipu.rules.variants.mcr.samples import SHAPES, random_requests


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-shape", type=int, default=100_000, help="hands per shape")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--show", type=int, default=5, help="disagreements to print in full")
    args = parser.parse_args()
    calculator = load_calculator()
    failures = 0
    shown = 0
    print(
        f"{'shape':20} {'hands':>9} {'legal':>9} {'<8 fan':>8} {'fan lists differ':>17} "
        f"{'legality differs':>17} {'seconds':>8}"
    )
    for offset, shape in enumerate(SHAPES):
        start = time.perf_counter()
        counts: Counter[str] = Counter()
        for request in random_requests(args.seed + offset, args.per_shape, (shape,)):
            ours = score(request)
            ref = reference_score(calculator, request)
            mine = tuple((f.id, f.count) for f in ours.fans)
            counts["hands"] += 1
            counts["legal" if ours.legal else "below"] += 1
            differs = ref.error is not None or (ours.total, mine) != (ref.total, ref.fans)
            legality = ref.total is None or ours.legal != (ref.total - len(request.flowers) >= 8)
            counts["differs"] += differs
            counts["legality"] += legality
            if (differs or legality) and shown < args.show:
                shown += 1
                print(
                    json.dumps(
                        {
                            "request": request.to_json(),
                            "paipu": mine,
                            "reference": ref.fans,
                            "error": ref.error,
                        },
                        ensure_ascii=False,
                    ),
                    file=sys.stderr,
                )
        failures += counts["differs"] + counts["legality"]
        print(
            f"{shape:20} {counts['hands']:>9,} {counts['legal']:>9,} {counts['below']:>8,} "
            f"{counts['differs']:>17,} {counts['legality']:>17,} "
            f"{time.perf_counter() - start:>8.1f}"
        )
    print("agreement: " + ("complete" if failures == 0 else f"{failures} disagreements"))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
