"""Helpers for the 常州 / 常山 财神 tests: score requests in the spec's shape."""

from __future__ import annotations

import random
from typing import Any

from paipu.rules.record import HandRecord
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import parse_tiles, standard_set, tile_names

VARIANT = "changzhou"


def request(hand: str, win: str, wild: str | None = "3m", **fields: Any) -> dict[str, Any]:
    """A score request: seat 1 (South) self-draws, seat 0 deals, the 财神 is ``wild``
    (3m: the flipped 2m + 1) unless the fields say otherwise."""
    melds = fields.pop("melds", [])
    extra = dict(fields.pop("extra", {}))
    extra.setdefault("wild", [] if wild is None else [wild])
    return {
        "variant": VARIANT,
        "seat": fields.pop("seat", 1),
        "dealer": fields.pop("dealer", 0),
        "hand": hand,
        "win_tile": win,
        "melds": [
            {"kind": kind, "tiles": tiles, **({"from": frm} if frm is not None else {})}
            for kind, tiles, frm in melds
        ],
        "extra": extra,
        **fields,
    }


def scored(hand: str, win: str, wild: str | None = "3m", **fields: Any) -> ScoreAnswer:
    return score_json(request(hand, win, wild, **fields))


def fan_ids(answer: ScoreAnswer) -> list[tuple[str, int, int]]:
    return [(f.id, f.points, f.count) for f in answer.fans]


# ---------------------------------------------------------------------- hand-written logs

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


def log(
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    wall: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
    result: dict[str, Any] | None = None,
    indicator: str | None = "7z",
) -> HandRecord:
    """A paipu log of 常州: the seats not named get random tiles; ``wall`` (all the tiles
    left after the deal, the last 20 dead) is optional: without it the replay counts. The
    ``indicator`` event comes first (by default 中: the 财神 is 白板, no stand-in; with a
    wall, its last tile)."""
    pool = standard_set(honors=True)
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    for tiles in fixed.values():
        assert len(tiles) == 13
        for tile in tiles:
            pool.remove(tile)
    if wall is not None:
        for tile in parse_tiles(wall):
            pool.remove(tile)
    rng = random.Random(seed)
    rng.shuffle(pool)
    deal = [fixed[s] if s in fixed else [pool.pop() for _ in range(13)] for s in range(4)]
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": VARIANT,
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": [tile_names(sorted(h)) for h in deal],
        "events": events,
    }
    if indicator is not None:
        flipped = wall[-1] if wall is not None else indicator
        obj["events"] = [["indicator", None, flipped, {"role": "wild"}], *events]
    if wall is not None:
        obj["wall"] = wall
    if rules:
        obj["rules"] = rules
    if result:
        obj["result"] = result
    return HandRecord.from_json(obj)


def rest_of(
    hands: dict[int, str], wall_front: str, seed: int = 1
) -> tuple[dict[int, str], list[str]]:
    """Every seat's deal and a full wall (83 tiles) starting with ``wall_front``."""
    pool = standard_set(honors=True)
    for spec in hands.values():
        for tile in parse_tiles(spec):
            pool.remove(tile)
    front = parse_tiles(wall_front)
    for tile in front:
        pool.remove(tile)
    rng = random.Random(seed)
    rng.shuffle(pool)
    full = dict(hands)
    for seat in range(4):
        if seat not in full:
            full[seat] = "".join(tile_names(sorted(pool.pop() for _ in range(13))))
    return full, tile_names([*front, *pool])
