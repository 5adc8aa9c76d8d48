"""Helpers for the 十万麻将 tests: score requests and hand-written records on the 136-tile
set of 1–10 suits and the winds (the tens are 10m 10p 10s, ``0`` in compact groups)."""

from __future__ import annotations

import random
from typing import Any

from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.replay import Table
from paipu.rules.tiles import Tile, parse_tile, parse_tiles, tile_names
from paipu.rules.variants import get_variant

V = "shiwan"
PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


def t(name: str) -> Tile:
    return parse_tile(name)


def request(hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A score request: seat 0 wins, seat 0 deals, unless the fields say otherwise."""
    melds = fields.pop("melds", [])
    return {
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


def record(
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    rules: dict[str, Any] | None = None,
    seed: int = 1,
    result: dict[str, Any] | None = None,
) -> HandRecord:
    """A hand-written record without a wall (the replay counts it): the seats the test does
    not name are dealt at random from the rest of the 136 tiles."""
    pool = get_variant(V).wall_tiles(get_variant(V).resolve_options())
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    for tiles in fixed.values():
        assert len(tiles) == 13
        for tile in tiles:
            pool.remove(tile)
    random.Random(seed).shuffle(pool)
    deal = [fixed[s] if s in fixed else [pool.pop() for _ in range(13)] for s in range(4)]
    for array in events:
        decode(array)  # fail early on a malformed event
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": V,
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": 0,
        "deal": [tile_names(sorted(h)) for h in deal],
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    if result:
        obj["result"] = result
    return HandRecord.from_json(obj)


def apply_all(rec: HandRecord) -> Table:
    """The replay table after every event of ``rec``, invariants checked after each."""
    variant = get_variant(rec.variant)
    table = variant.new_table(rec, variant.resolve_options(rec.rules))
    assert isinstance(table, Table)
    for index, event in enumerate(rec.events):
        table.apply(index, event)
        table.check_invariants()
    return table
