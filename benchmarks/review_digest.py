"""The decision review's rows of a database, as one SHA-256: a before/after check for a
change that should not change the review (a faster tile efficiency, a new worker layout).

Reviews every seat of every hand of ``--db`` (what ``paipu review --save`` does) and
prints the row count and the SHA-256 of the rows as sorted-key JSON; ``--out`` also writes
that JSON, and ``--cli`` the output of ``paipu review --db DB --json`` beside it (its
SHA-256 too), so that two runs can be compared with ``cmp`` or ``diff``.

    .venv/bin/python benchmarks/review_digest.py --db /tmp/fixed.duckdb --out /tmp/after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import duckdb

from paipu.pipeline.review import review_db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the rows as JSON here")
    parser.add_argument("--cli", type=Path, help="write `paipu review --json` here")
    args = parser.parse_args()
    con = duckdb.connect(str(args.db), read_only=True)
    try:
        rows = review_db(con, None, jobs=args.jobs).rows.to_pylist()
    finally:
        con.close()
    text = json.dumps(rows, sort_keys=True, ensure_ascii=False)
    print(f"rows {len(rows)} sha256 {hashlib.sha256(text.encode()).hexdigest()}")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if args.cli:
        command = [sys.executable, "-m", "paipu.pipeline.cli", "review", "--db", str(args.db)]
        done = subprocess.run(
            [*command, "--json", "-j", str(args.jobs)], check=True, capture_output=True
        )
        args.cli.write_bytes(done.stdout)
        print(f"paipu review --json sha256 {hashlib.sha256(done.stdout).hexdigest()}")


if __name__ == "__main__":
    main()
