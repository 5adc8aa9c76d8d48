"""Helpers for the 常州 / 常山 财神 tests: score requests in the spec's shape."""

from __future__ import annotations

from typing import Any

from paipu.rules.score import ScoreAnswer, score_json

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
