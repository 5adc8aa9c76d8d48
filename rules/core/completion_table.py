"""Write and check the precomputed completion masks (``rules/core/completion-masks.bin``).

:func:`paipu.rules.core.decompose.completion_masks` answers with how many wilds a group
of natural tiles splits into sets (and one pair). Walking the ranks for a key never met
before costs tens of µs, and a stream of distinct hands with wilds (an ingest, a club's
audit, the wild variants' scoring) meets new keys all the time: the walk was half of 常州's
scoring. Yet the keys a hand can hold are few: 548,090 for a suit of nine ranks (counts 0
to 4, at most :data:`MOST_TILES` tiles) and 51,005 for the seven honours, and their answers
fewer still (a few dozen pairs of masks). So the answers of every such key are walked
once, here, and kept as one byte per key, compressed (about 60 KB); the engine reads the
file when it first needs it. A key outside the table (more tiles, another tile set) is
walked as before.

    python -m paipu.rules.core.completion_table           # check the file against the walk
    python -m paipu.rules.core.completion_table --write   # write it again

Checking walks every key (about 30 s compiled, minutes as plain Python); the tests check
a sample (``tests/rules/core/test_completion_table.py``). The file is generated, not
edited: the walk (:func:`paipu.rules.core.decompose.walked_masks`) is the rule.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from paipu.rules.core import decompose
from paipu.rules.core.tiles import STANDARD

#: Most natural tiles of one group in a key of the table: a hand's 14, and one more
#: (:class:`paipu.rules.core.shanten.OneMore` asks a key with one tile added).
MOST_TILES = 15
#: The shapes of group tabled: ``(chows allowed, ranks, copies)``, those of the standard
#: tile set (three suits of nine, seven honours, four copies).
SHAPES: tuple[tuple[bool, int, int], ...] = tuple(
    sorted({(runs, len(tiles), STANDARD.copies) for tiles, runs in STANDARD.groups})
)


def keys(ranks: int, most: int = MOST_TILES) -> Iterator[tuple[int, ...]]:
    """Every key of ``ranks`` counts, each 0 to 4, summing to at most ``most``.

    >>> sum(1 for _ in keys(9)), sum(1 for _ in keys(7))
    (548090, 51005)
    """
    top = decompose.TABLE_BASE - 1
    counts = [0] * ranks

    def walk(rank: int, left: int) -> Iterator[tuple[int, ...]]:
        if rank == ranks:
            yield tuple(counts)
            return
        for count in range(min(top, left) + 1):
            counts[rank] = count
            yield from walk(rank + 1, left - count)
        counts[rank] = 0

    return walk(0, most)


def build() -> bytes:
    """The file's content: a JSON header line (the distinct masks, and where each shape's
    table lies in the body), then the tables, zlib-compressed."""
    values: dict[tuple[int, int], int] = {}
    body = bytearray()
    layout: list[list[int]] = []
    for runs, ranks, copies in SHAPES:
        table = bytearray(decompose.TABLE_BASE**ranks)
        for key in keys(ranks):
            masks = decompose.walked_masks(key, runs, copies)
            entry = values.setdefault(masks, len(values))
            if entry >= 255:
                raise ValueError("more than 255 distinct masks: widen the table's entries")
            table[decompose.table_index(key)] = entry + 1
        layout.append([int(runs), ranks, copies, len(body), len(table)])
        body += table
        decompose.clear_caches()
    header = {"values": [list(masks) for masks in values], "tables": layout}
    raw = json.dumps(header, separators=(",", ":")).encode() + b"\n" + bytes(body)
    return zlib.compress(raw, 9)


def path() -> Path:
    """Where the engine reads the table."""
    return Path(str(resources.files("paipu.rules.core").joinpath(decompose.TABLE_FILE)))


def main(argv: list[str] | None = None) -> int:
    """Check (exit 0 when the file matches the walk, 1 when not) or ``--write`` the file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the file again")
    args = parser.parse_args(argv)
    content = build()
    target = path()
    if args.write:
        target.write_bytes(content)
        print(f"wrote {target} ({len(content):,} bytes)")
        return 0
    current = zlib.decompress(target.read_bytes()) if target.exists() else b""
    if current != zlib.decompress(content):
        print(f"{target} differs from the walk: run with --write", file=sys.stderr)
        return 1
    print(f"{target} matches the walk ({len(content):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
