"""The reference for the ingest benchmark: the least a loader of Botzone text logs can do.

It reads the text format line by line, follows each winner's tiles just far enough to call
the reference calculator pymahjonggb on the win, and bulk-loads one row per hand (match id,
wind, winner, fan total) into DuckDB through Arrow. No rule is checked, no other table is
written: it is the floor paipu's ingest is compared with (issue: no more than 8 times its
wall time).

    .venv/bin/python benchmarks/minimal_botzone.py CORPUS_DIR --db /tmp/minimal.duckdb
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
from MahjongGB import MahjongFanCalculator


def _pack(kind: str, tile: str) -> tuple[str, str, int]:
    return (kind, tile, 1)


def hands(path: Path):
    """(match, wind, winner, fan) per block, calling the reference on each win."""
    match = None
    wind = 0
    tiles: dict[int, list[str]] = {}
    packs: dict[int, list[tuple[str, str, int]]] = {}
    last_play: tuple[int, str] | None = None
    last_draw: dict[int, str] = {}
    last_actor = -1
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            words = line.split()
            if not words:
                continue
            head = words[0]
            if head == "Match":
                match, tiles, packs, last_play = words[1], {}, {}, None
            elif head == "Wind":
                wind = int(words[1])
            elif head == "Player":
                seat, action = int(words[1]), words[2]
                tile = words[3] if len(words) > 3 else ""
                if action == "Deal":
                    tiles[seat] = words[3:]
                    packs[seat] = []
                elif action == "Draw":
                    tiles[seat].append(tile)
                    last_draw[seat] = tile
                    last_actor = seat
                elif action == "Play":
                    tiles[seat].remove(tile)
                    last_play = (seat, tile)
                    last_actor = -1
                elif action == "Chi":
                    suit, rank = tile[0], int(tile[1])
                    run = [f"{suit}{rank - 1}", tile, f"{suit}{rank + 1}"]
                    run.remove(last_play[1])
                    for t in run:
                        tiles[seat].remove(t)
                    packs[seat].append(_pack("CHI", tile))
                elif action in ("Peng", "Gang"):
                    for _ in range(2 if action == "Peng" else 3):
                        tiles[seat].remove(tile)
                    packs[seat].append(_pack("PENG" if action == "Peng" else "GANG", tile))
                elif action == "AnGang":
                    for _ in range(4):
                        tiles[seat].remove(tile)
                    packs[seat].append(("GANG", tile, 0))
                elif action == "BuGang":
                    tiles[seat].remove(tile)
                    packs[seat] = [
                        ("GANG", t, o) if t == tile and k == "PENG" else (k, t, o)
                        for k, t, o in packs[seat]
                    ]
                elif action == "Hu":
                    self_drawn = last_actor == seat
                    win = last_draw[seat] if self_drawn else tile
                    hand = list(tiles[seat])
                    if self_drawn:
                        hand.remove(win)
                    result = MahjongFanCalculator(
                        pack=tuple(packs[seat]),
                        hand=tuple(hand),
                        winTile=win,
                        flowerCount=0,
                        isSelfDrawn=self_drawn,
                        is4thTile=False,
                        isAboutKong=False,
                        isWallLast=False,
                        seatWind=seat,
                        prevalentWind=wind,
                    )
                    yield match, wind, seat, sum(points for points, _ in result)
            elif head == "Huang":
                yield match, wind, None, 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    con = duckdb.connect(str(args.db))
    con.execute(
        "CREATE OR REPLACE TABLE hands (game VARCHAR, wind INTEGER, winner INTEGER, fan INTEGER)"
    )
    count = 0
    batch: list[tuple] = []

    def flush() -> None:
        if batch:
            columns = list(zip(*batch, strict=True))
            table = pa.table(
                {"game": columns[0], "wind": columns[1], "winner": columns[2], "fan": columns[3]}
            )
            con.register("batch", table)
            con.execute("INSERT INTO hands SELECT * FROM batch")
            con.unregister("batch")
            batch.clear()

    for path in sorted(args.corpus.glob("*.txt")):
        for row in hands(path):
            batch.append(row)
            count += 1
            if len(batch) >= 5000:
                flush()
    flush()
    con.close()
    print(f"{count} hands in {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
