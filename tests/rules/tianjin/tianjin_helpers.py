"""Helpers for the Tianjin tests: score requests and their answers.

Seats: 0 East (the dealer unless a test says otherwise), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

from typing import Any

from paipu.rules.score import ScoreAnswer, score_json

V = "tianjin"


def request(hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A self-drawn Tianjin request: seat 0 wins and deals unless the fields say otherwise;
    ``wild`` (two tile names) and ``extra`` go into ``extra``."""
    extra = dict(fields.pop("extra", {}))
    wild = fields.pop("wild", None)
    if wild is not None:
        extra["wild"] = wild.split()
    melds = fields.pop("melds", [])
    out: dict[str, Any] = {
        "variant": V,
        "seat": 0,
        "dealer": 0,
        "hand": hand,
        "win_tile": win,
        "melds": [{"kind": kind, "tiles": tiles} for kind, tiles in melds],
        **fields,
    }
    if extra:
        out["extra"] = extra
    return out


def score(hand: str, win: str, **fields: Any) -> ScoreAnswer:
    return score_json(request(hand, win, **fields))


def fans(answer: ScoreAnswer) -> dict[str, int]:
    """Fan id → points, in the answer's order."""
    return {f.id: f.points for f in answer.fans}
