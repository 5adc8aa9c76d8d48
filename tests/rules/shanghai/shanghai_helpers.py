"""Helpers for the 上海麻将 tests: score requests and hand-written records on the 144 tiles.

Seats: 0 East (the dealer unless a test says otherwise), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import random
from typing import Any

from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import Tile, parse_tile, parse_tiles, standard_set, tile_names

V = "shanghai"
PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


def t(name: str) -> Tile:
    return parse_tile(name)


def request(hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A score request: seat 0 wins, seat 0 deals, unless the fields say otherwise;
    ``melds`` as (kind, tiles, from)."""
    melds = fields.pop("melds", [])
    return {
        "variant": V,
        "seat": fields.pop("seat", 0),
        "dealer": fields.pop("dealer", 0),
        "hand": hand,
        "win_tile": win,
        "melds": [
            {"kind": kind, "tiles": tiles, **({"from": frm} if frm is not None else {})}
            for kind, tiles, frm in melds
        ],
        **fields,
    }


def score(hand: str, win: str, **fields: Any) -> ScoreAnswer:
    return score_json(request(hand, win, **fields))


def record(
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    wall: str | None = None,
    tail: str = "",
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
) -> HandRecord:
    """A hand-written record: the named hands, the others dealt at random from the rest of
    the 144 tiles (no flowers among them), and, when given, the wall's first tiles (the
    rest of the set after them, the flowers in the middle) and its ``tail``: the tiles the
    replacement draws take, in order, from the wall's end."""
    pool = standard_set(flowers=True)
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    front = parse_tiles(wall) if wall is not None else []
    back = parse_tiles(tail)
    # without a wall, the tiles drawn are kept out of the other hands
    drawn = [] if wall is not None else [parse_tile(e[2]) for e in events if e[0] == "draw"]
    for tiles in (*fixed.values(), front, back, drawn):
        for tile in tiles:
            pool.remove(tile)
    rng = random.Random(seed)
    plain = [x for x in pool if x < 34]
    flowers = [x for x in pool if x >= 34]
    rng.shuffle(plain)
    deal = []
    for seat in range(4):
        deal.append(fixed[seat] if seat in fixed else [plain.pop() for _ in range(13)])
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": V,
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": [tile_names(sorted(h)) for h in deal],
        "events": [_checked(e) for e in events],
    }
    if wall is not None:
        half = len(plain) // 2
        obj["wall"] = tile_names([*front, *plain[:half], *flowers, *plain[half:], *back[::-1]])
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


def _checked(array: list[Any]) -> list[Any]:
    decode(array)  # fail early on a malformed event
    return array
