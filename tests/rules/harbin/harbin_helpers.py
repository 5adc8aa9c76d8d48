"""Helpers for the Harbin tests: score requests, and hand-written records on a known wall
(the 112 tiles: the suits and four 红中)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.registry import get_variant
from paipu.rules.replay import HandOutcome, replay
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import Tile, parse_tiles, tile_names

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]
get_variant("harbin")  # its event kinds (escape) are known once the variant is loaded
#: 红中, the only honour.
RED = 33


def full_set() -> list[Tile]:
    return [t for t in [*range(27), RED] for _ in range(4)]


def score(
    hand: str | list[str],
    win: str,
    *,
    melds: Sequence[tuple[str, str, int | None]] = (),
    **fields: Any,
) -> ScoreAnswer:
    """Seat 0 wins (and deals) unless ``fields`` say otherwise; melds as (kind, tiles, from)."""
    request = {
        "variant": "harbin",
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
    return score_json(request)


def record(
    hands: dict[int, str],
    draws: str,
    bao: str,
    events: list[list[Any]],
    *,
    dealer: int = 0,
    seed: int = 1,
    tail: str = "",
    result: dict[str, Any] | None = None,
    with_indicator: bool = True,
    short: bool = False,
    rules: dict[str, Any] | None = None,
) -> HandRecord:
    """A record on a known wall: ``hands`` (seats not named are filled at random), the
    wall's first tiles ``draws``, then the rest shuffled, then ``tail`` (replacement draws
    take its last tiles first), then the 宝 ``bao`` as the wall's last tile. The 宝's
    indicator comes first unless ``with_indicator`` is false. A ``short`` wall is only the
    named tiles (the hand reaches its last tiles at once)."""
    pool = full_set()
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    front = parse_tiles(draws)
    back = parse_tiles(tail)
    last = parse_tiles(bao)
    for tile in [*(t for h in fixed.values() for t in h), *front, *back, *last]:
        pool.remove(tile)
    rng = random.Random(seed)
    rng.shuffle(pool)
    deal = []
    for seat in range(4):
        if seat in fixed:
            assert len(fixed[seat]) == 13, (seat, len(fixed[seat]))
            deal.append(fixed[seat])
        else:
            deal.append([pool.pop() for _ in range(13)])
    wall = [*front, *([] if short else pool), *back, *last]
    prefix: list[list[Any]] = [["indicator", None, bao, {"role": "bao"}]] if with_indicator else []
    for array in events:
        decode(array)
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": "harbin",
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": [tile_names(sorted(h)) for h in deal],
        "wall": tile_names(wall),
        "events": [*prefix, *events],
    }
    if result is not None:
        obj["result"] = result
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


def play(rec: HandRecord, *, check: bool = True) -> HandOutcome:
    """Replay ``rec``; with ``check`` the table's invariants after every event (the hidden
    宝 counted as placed); an escape ends the hand with the escaper's 14 tiles in hand."""
    return replay(rec, check=check)
