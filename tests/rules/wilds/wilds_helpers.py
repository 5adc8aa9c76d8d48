"""A test variant with wilds, built from a TOML string (rules/mechanics/wilds.py): 136 tiles,
every call, the room's wilds chosen by the option ``wilds``: ``none``, ``white`` (白板 fixed,
not discarded), ``flip`` (the indicator's next tile, not claimed, not in a pong, kong or
chi), ``flip_free`` (the indicator's next tile, claimed and melded freely)."""

from __future__ import annotations

import tomllib
from typing import Any

from paipu.rules.core import shanten as core
from paipu.rules.mechanics.wilds import (
    WildState,
    kinds_of_extra,
    spec_of_kinds,
    tile_set_of,
    wild_rule,
)
from paipu.rules.record import HandRecord
from paipu.rules.registry import VariantSpec
from paipu.rules.score import ScoreAnswer, ScoreRequest
from paipu.rules.tiles import counts, standard_set, tile_names
from paipu.rules.variants import Options, Variant

TOML = """
id = "wildtest"
name_zh = "鬼牌测试"
name_en = "Wild test"
players = 4
hand_size = 13
tiles = { suited = true, honors = true, flowers = false }
calls = ["chi", "pong", "kong", "added_kong", "concealed_kong"]
shapes = ["standard"]
events = ["indicator"]

[wilds]
option = "wilds"
claim = false

[wilds.choices]
white = { fixed = ["5z"], discard = false }
flip = { indicator = [1], chow = false, pong = false }
flip_free = { indicator = [1], claim = true }

[options.wilds]
default = "flip"
choices = ["none", "white", "flip", "flip_free"]
doc = "which wilds"

[bot]
family = "regional"
steps = ["reveal_wilds"]
"""

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


class WildTest(Variant):
    """Any 4 sets and a pair, wilds counted; a self-draw takes 1 from each, a discard 3."""

    id = "wildtest"

    def __init__(self) -> None:
        self.spec = VariantSpec.from_data(self.id, tomllib.loads(TOML))

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        rule = wild_rule(self, options)
        wilds = spec_of_kinds(rule, kinds_of_extra(request.extra), tile_set_of(self))
        hand = counts([*request.hand, request.win_tile])
        if wilds is None:
            from paipu.rules.core.wild import WildSpec

            wilds = WildSpec.none(tile_set_of(self))
        if not core.is_win(hand, wilds, len(request.melds)):
            return ScoreAnswer(legal=False, reason="not a winning hand")
        deltas = [0] * 4
        if request.from_seat is None:
            for seat in range(4):
                deltas[seat] = 3 if seat == request.seat else -1
        else:
            deltas[request.seat], deltas[request.from_seat] = 3, -3
        used = wilds.held(hand)
        return ScoreAnswer(
            legal=True, total=1, fans=(), deltas=tuple(deltas), extra={"wilds": tile_names(used)}
        )

    def new_state(self, table: Any) -> WildState:
        return WildState(table, self)


VARIANT = WildTest()


def record(
    deal: list[str],
    events: list[list[Any]],
    *,
    wilds: str = "flip",
    wall: list[str] | None = None,
) -> HandRecord:
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": "wildtest",
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": 0,
        "deal": deal,
        "events": events,
        "rules": {"wilds": wilds},
    }
    if wall is not None:
        obj["wall"] = wall
    return HandRecord.from_json(obj)


def full_wall(deal: list[str]) -> list[str]:
    """The rest of the 136 tiles after ``deal`` (in code order)."""
    from paipu.rules.tiles import parse_tiles

    pool = standard_set(honors=True)
    for hand in deal:
        for tile in parse_tiles(hand):
            pool.remove(tile)
    return tile_names(pool)
