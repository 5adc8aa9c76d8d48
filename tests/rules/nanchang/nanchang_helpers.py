"""Helpers for the Nanchang tests: score requests with the 精 named, and the seats.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North, unless a test says otherwise.
"""

from __future__ import annotations

from typing import Any

from paipu.rules.score import ScoreAnswer, score_json

V = "nanchang"
#: 精 that none of the plain test hands hold: 正精 东, 副精 南.
NO_JING = ["1z", "2z"]


def request(hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A Nanchang score request: seat 0 wins and deals unless ``fields`` say otherwise;
    ``wild`` goes into ``extra`` (default: 东 / 南, held by no test hand)."""
    melds = fields.pop("melds", [])
    extra = dict(fields.pop("extra", {}))
    extra.setdefault("wild", fields.pop("wild", NO_JING))
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
        "extra": extra,
        **fields,
    }


def score(hand: str, win: str, **fields: Any) -> ScoreAnswer:
    return score_json(request(hand, win, **fields))


def fans(answer: ScoreAnswer) -> dict[str, int]:
    return {f.id: f.points for f in answer.fans}


# ---------------------------------------------------------------------- hand-written logs

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]

#: The digest's worked example as a deal (indicator 9万: 正精 1万, 副精 2万): South is ready
#: on 白 (德国 平胡), West holds 2 正精 + 1 副精, East discards 白 after his first draw.
WORKED_DEAL = {
    0: "345m678m11s6s23z7p5z",
    1: "123p456p789s234s5z",
    2: "112m44z67z3579s89p",
    3: "999m356p28s113z47m",
}


def log(
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A hand-written paipu line (as an object) without a wall: the replay counts it."""
    from paipu.rules.tiles import parse_tiles, tile_names

    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": V,
        "game": "nanchang-test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": [tile_names(sorted(parse_tiles(hands[seat]))) for seat in range(4)],
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    if result:
        obj["result"] = result
    return obj
