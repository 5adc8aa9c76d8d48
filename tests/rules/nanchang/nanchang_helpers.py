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
