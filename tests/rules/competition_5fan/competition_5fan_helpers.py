"""Helpers for the 5-fan competition tests: score requests and hand-written records on the
136 tiles (万 筒 条, winds and dragons; no flowers)."""

from __future__ import annotations

import random
from typing import Any

from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.replay import Table
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import parse_tiles, standard_set, tile_names
from paipu.rules.variants import get_variant

V = "competition_5fan"
PLAYERS = ["Ann", "Bo", "Chen", "Dai"]
VARIANT = get_variant(V)  # loads the variant's own event kinds (false_win)


def request(hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A score request: seat 1 (South) wins, seat 0 (East) deals, unless the fields say
    otherwise; ``melds`` as (kind, tiles, from)."""
    melds = fields.pop("melds", [])
    out: dict[str, Any] = {"variant": V, "seat": 1, "dealer": 0, "hand": hand, "win_tile": win}
    out["melds"] = [
        {"kind": kind, "tiles": tiles, **({"from": frm} if frm is not None else {})}
        for kind, tiles, frm in melds
    ]
    if "frm" in fields:
        out["from"] = fields.pop("frm")
    out.update(fields)
    return out


def score(hand: str, win: str, **fields: Any) -> ScoreAnswer:
    return score_json(request(hand, win, **fields))


def fan_ids(answer: ScoreAnswer) -> list[str]:
    return [f.id for f in answer.fans]


def record(
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    rules: dict[str, Any] | None = None,
    seed: int = 1,
    result: dict[str, Any] | None = None,
) -> HandRecord:
    """A hand-written record without a wall; seats not named are dealt at random."""
    pool = standard_set(honors=True)
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    for tiles in fixed.values():
        assert len(tiles) == 13, tiles
        for tile in tiles:
            pool.remove(tile)
    random.Random(seed).shuffle(pool)
    deal = [fixed[s] if s in fixed else [pool.pop() for _ in range(13)] for s in range(4)]
    for array in events:
        decode(array)
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
    variant = get_variant(rec.variant)
    table = variant.new_table(rec, variant.resolve_options(rec.rules))
    assert isinstance(table, Table)
    for index, event in enumerate(rec.events):
        table.apply(index, event)
        table.check_invariants()
    return table
