"""Helpers for the 广东推倒胡 tests: score requests and hand-written records (the worked
deal of the digest: South holds four 1万 and waits on 3万/6万 after its 暗杠)."""

from __future__ import annotations

from typing import Any

from paipu.rules.record import HandRecord
from paipu.rules.variants import get_variant

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]
VARIANT = get_variant("guangdong")

#: East deals; South (seat 1) holds 1111m 56p 789s 11z 45m.
DEAL = [
    "234m567m89m123p77z",
    "1111m56p789s11z45m",
    "2345789p345s33z6z",
    "123s66s999m66z4z2z1z",
]

#: South draws 4p, declares the 暗杠 of 1m and waits on 3m / 6m (after East's first discard).
KONG = [
    ["draw", 0, "9p"],
    ["discard", 0, "9p"],
    ["draw", 1, "4p"],
    ["concealed_kong", 1, "1m"],
    ["draw", 1, "2z"],
    ["discard", 1, "2z"],
    ["draw", 2, "5z"],
    ["discard", 2, "5z"],
    ["draw", 3, "7p"],
    ["discard", 3, "7p"],
]


def request(hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A score request: seat 0 wins, seat 0 deals, unless the fields say otherwise."""
    melds = fields.pop("melds", [])
    return {
        "variant": "guangdong",
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


def record(events: list[list[Any]], rules: dict[str, Any] | None = None) -> HandRecord:
    """A hand-written record of :data:`DEAL` without a wall (the replay counts it)."""
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": "guangdong",
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": 0,
        "deal": DEAL,
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


def table_after(events: list[list[Any]], rules: dict[str, Any] | None = None) -> Any:
    """The replay table after ``events`` (no ending needed), invariants checked."""
    rec = record(events, rules)
    table = VARIANT.new_table(rec, VARIANT.resolve_options(rec.rules))
    for index, event in enumerate(rec.events):
        table.apply(index, event)
        table.check_invariants()
    return table
