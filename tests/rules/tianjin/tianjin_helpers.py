"""Helpers for the Tianjin tests: score requests and their answers.

Seats: 0 East (the dealer unless a test says otherwise), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

from typing import Any

from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import parse_tiles, tile_names
from paipu.rules.variants import get_variant

V = "tianjin"
get_variant(V)  # its event kinds (坐庄, 拉庄) are known before a record is decoded


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


# ---------------------------------------------------------------------- hand-written records

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]
#: The hands of the records: South waits on 5万 for 素 捉五 (the worked example); North
#: holds two 发 (a 混 when 中 is flipped).
HANDS = {
    0: "111m999m234s678s1z",
    1: "46m123p789p22s345s",
    2: "222m333m444p555p9s",
    3: "777m888m666p2z3z6z6z",
}
#: 坐庄, 拉庄 and the indicator as in the worked example: East 坐庄, South 拉一庄, North
#: 拉两庄; 中 flipped, so 中 and 发 are the 混.
OPENING: list[list[Any]] = [
    ["zuo_zhuang", 0, True],
    ["la_zhuang", 1, 1],
    ["la_zhuang", 2, 0],
    ["la_zhuang", 3, 2],
    ["indicator", None, "7z", {"role": "wild"}],
]


def record(
    events: list[list[Any]],
    *,
    hands: dict[int, str] | None = None,
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
) -> HandRecord:
    """A hand-written Tianjin record without a wall (the replay counts the wall's tiles)."""
    for array in events:
        decode(array)  # fail early on a malformed event
    deal = [tile_names(parse_tiles(spec)) for _, spec in sorted((hands or HANDS).items())]
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": V,
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": deal,
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


def apply_all(rec: HandRecord) -> Any:
    """The replay table after every event of ``rec`` (no ending needed), invariants checked."""
    variant = get_variant(rec.variant)
    table = variant.new_table(rec, variant.resolve_options(rec.rules))
    for index, event in enumerate(rec.events):
        table.apply(index, event)
        table.check_invariants()
    return table


def turns(*pairs: tuple[int, str, str]) -> list[list[Any]]:
    """Draw-and-discard turns: (seat, tile drawn, tile discarded)."""
    out: list[list[Any]] = []
    for seat, drawn, discarded in pairs:
        out += [["draw", seat, drawn], ["discard", seat, discarded]]
    return out
