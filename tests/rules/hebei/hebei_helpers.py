"""Helpers for the Hebei tests: score requests, hand-written records on the 136 tiles, and
a Hypothesis strategy of winning hands.

Seats: 0 East (the dealer unless a test says otherwise), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from paipu.rules.record import HandRecord
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import parse_tiles, standard_set, tile_names

V = "hebei"
PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


def score(hand: str, win: str, **fields: Any) -> ScoreAnswer:
    """Score a Hebei hand: seat 0 wins and deals unless the fields say otherwise."""
    melds = fields.pop("melds", [])
    return score_json(
        {
            "variant": V,
            "seat": 0,
            "dealer": 0,
            "hand": hand,
            "win_tile": win,
            "melds": [
                {"kind": kind, "tiles": tiles, **({"from": frm} if frm is not None else {})}
                for kind, tiles, frm in melds
            ],
            **fields,
        }
    )


def record(
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
) -> HandRecord:
    """A hand-written record without a wall; seats not named get random tiles of the 136."""
    pool = standard_set(honors=True)
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    for tiles in fixed.values():
        assert len(tiles) == 13
        for tile in tiles:
            pool.remove(tile)
    random.Random(seed).shuffle(pool)
    deal = [fixed[s] if s in fixed else [pool.pop() for _ in range(13)] for s in range(4)]
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": V,
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": [tile_names(sorted(h)) for h in deal],
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], list[tuple[str, list[int]]], int]:
    """Four sets (pungs, some ponged, chows of the suits) and a pair of the 136 tiles: the
    concealed tiles, the melds and the winning tile."""
    counts = [0] * 34
    sets: list[tuple[str, list[int]]] = []
    for _ in range(4):
        if draw(st.booleans()):
            tile = draw(st.sampled_from([x for x in range(34) if counts[x] <= 1]))
            sets.append(("pung", [tile] * 3))
        else:
            starts = [
                x for x in range(27) if x % 9 <= 6 and all(counts[x + k] < 4 for k in range(3))
            ]
            tile = draw(st.sampled_from(starts))
            sets.append(("chow", [tile, tile + 1, tile + 2]))
        for tile in sets[-1][1]:
            counts[tile] += 1
    pair = draw(st.sampled_from([x for x in range(34) if counts[x] <= 2]))
    hand = [pair, pair]
    melds: list[tuple[str, list[int]]] = []
    for kind, tiles in sets:
        if kind == "pung" and draw(st.booleans()):
            melds.append(("pong", tiles))
        else:
            hand += tiles
    win = draw(st.sampled_from(hand))
    hand.remove(win)
    return hand, melds, win
