"""Fuzz every implemented variant: 10,000+ event-level mutants each (docs/reliability.md).

    python benchmarks/fuzz.py                 # 10,000 mutants per variant, seed 0
    python benchmarks/fuzz.py --mutants 500   # a quick look
    python benchmarks/fuzz.py --json

Each variant's bundled log (``data/<variant>.paipu.jsonl``) is checked intact, then
mutated (pipeline/fuzz.py) and run through the ingest's own worker. Exit 1 when any law is
broken: a traceback, a rejection that does not name its line and event, a changed fan or
delta accepted, an intact hand not loaded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from paipu.pipeline.fuzz import fuzz
from paipu.rules.registry import variant_ids

DATA = Path(__file__).parents[1] / "data"
#: Every variant with a bundled log: a new variant's folder and data are fuzzed unasked.
VARIANTS = tuple(v for v in variant_ids() if (DATA / f"{v}.paipu.jsonl").exists())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mutants", type=int, default=10_000, help="per variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    failed = False
    for variant in args.variant or VARIANTS:
        lines = (DATA / f"{variant}.paipu.jsonl").read_text(encoding="utf-8").splitlines()
        start = time.perf_counter()
        report = fuzz(variant, lines, args.mutants, seed=args.seed)
        seconds = time.perf_counter() - start
        row = {
            "variant": variant,
            "intact": report.intact,
            "intact_failed": len(report.intact_failed),
            "mutants": report.mutants,
            "loaded": report.loaded,
            "mismatch": report.mismatched,
            "rejected": report.rejected,
            "tracebacks": len(report.tracebacks),
            "unnamed": len(report.unnamed),
            "silent": len(report.silent),
            "by_kind": dict(sorted(report.by_kind.items())),
            "seconds": round(seconds, 1),
        }
        rows.append(row)
        failed |= bool(report.failures)
        if not args.json:
            print(
                f"{variant:15} intact {report.intact:5,} (failed {len(report.intact_failed)})  "
                f"mutants {report.mutants:6,}: loaded {report.loaded:6,} "
                f"(mismatch {report.mismatched:6,}), rejected {report.rejected:6,}; "
                f"tracebacks {len(report.tracebacks)}, unnamed {len(report.unnamed)}, "
                f"silent {len(report.silent)}  [{seconds:.0f} s]",
                flush=True,
            )
            for failure in report.failures[:5]:
                print(f"    {failure[:300]}")
    if args.json:
        print(json.dumps(rows, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
