"""贵阳捉鸡 hand types: the single best type the hand fits counts (not additive), plus 杠上胡.

Which types exist and what each is worth is the room's profile (``guiyang.toml``
``[values.<profile>]``): the seed's 捉鸡川麻将 has no 清七对, 单吊, 天胡 or 地胡, so there a
pure seven pairs is worth its best listed type (清一色 50 against 七对 40).

The seed's 大对子 in the seed profile: 30 番.

>>> from paipu.rules.tiles import parse_tiles
>>> hand = RegionalHand.of(parse_tiles("111m444p777s22s99m"), (), parse_tiles("9m")[0])
>>> best(hand, Situation(), {"ping_hu": 10, "all_pungs": 30, "full_flush": 50})
('all_pungs', 30)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from paipu.rules.fans import produces
from paipu.rules.fans.regional import Reading, ReadingKind, RegionalHand

REGISTRY: dict[str, str] = {}


@dataclass(frozen=True, slots=True)
class Situation:
    """How the hand was won, as far as the types go."""

    self_drawn: bool = False
    kong_bloom: bool = False  # 杠上胡: a self-draw on one's own kong replacement
    robbing_kong: bool = False  # 抢杠: counts as a self-draw, the konger pays for all
    hot_discard: bool = False  # 热炮: on the discard right after the discarder's 豆
    heavenly: bool = False  # 天胡
    earthly: bool = False  # 地胡


@produces(REGISTRY, "ping_hu", "all_pungs", "full_flush", "pure_pungs")
def set_types(hand: RegionalHand, reading: Reading) -> list[str]:
    """平胡, 大对子 (four pungs or kongs and a pair), 清一色, 清大对."""
    out = ["ping_hu"]
    if reading.pungs_only:
        out.append("all_pungs")
    if hand.flush:
        out.append("full_flush")
        if reading.pungs_only:
            out.append("pure_pungs")
    return out


@produces(
    REGISTRY,
    "seven_pairs",
    "dragon_seven_pairs",
    "pure_seven_pairs",
    "pure_dragon_seven_pairs",
)
def pair_types(hand: RegionalHand, reading: Reading) -> list[str]:
    """七对; 龙七对 (5 pairs and a 4-of-a-kind); 清七对; 青龙背 (清一色 龙七对). A flush of
    pairs is a 清一色 too (the seed profile has no 清七对)."""
    out = ["seven_pairs"]
    if reading.quads:
        out.append("dragon_seven_pairs")
    if hand.flush:
        out += ["full_flush", "pure_seven_pairs"]
        if reading.quads:
            out.append("pure_dragon_seven_pairs")
    return out


@produces(REGISTRY, "single_wait_melded", "pure_single_wait")
def melded_types(hand: RegionalHand) -> list[str]:
    """单吊 (four melds, the win on the pair's single wait), 单吊清一色 (app profile)."""
    if not hand.all_melded:
        return []
    return ["single_wait_melded", *(["pure_single_wait"] if hand.flush else [])]


@produces(REGISTRY, "heavenly", "earthly")
def first_turn_types(situation: Situation) -> list[str]:
    """天胡 (the dealer on its first 14 tiles), 地胡 (another seat on its first turn)."""
    return [name for name in ("heavenly", "earthly") if getattr(situation, name)]


@produces(REGISTRY, "kong_bloom", "self_draw", "robbing_kong", "hot_discard")
def how_won(situation: Situation) -> list[str]:
    """杠上胡 (+ its value), and the tags that decide who pays: 自摸, 抢杠, 热炮."""
    out = []
    if situation.self_drawn:
        out.append("self_draw")
        if situation.kong_bloom:
            out.append("kong_bloom")
    if situation.robbing_kong:
        out.append("robbing_kong")
    if situation.hot_discard:
        out.append("hot_discard")
    return out


def candidates(hand: RegionalHand, situation: Situation) -> list[str]:
    """Every type the hand fits, over all its readings."""
    out = melded_types(hand) + first_turn_types(situation)
    for reading in hand.readings:
        if reading.kind is ReadingKind.SEVEN_PAIRS:
            out += pair_types(hand, reading)
        else:
            out += set_types(hand, reading)
    return out


def best(
    hand: RegionalHand, situation: Situation, values: Mapping[str, int]
) -> tuple[str, int] | None:
    """The type worth most in this profile and its value; None when the tiles do not win.
    Ties go to the type listed first in the TOML (its order in ``values``)."""
    if not hand.complete:
        return None
    found = set(candidates(hand, situation))
    ranked = [(v, -i, name) for i, (name, v) in enumerate(values.items()) if name in found]
    if not ranked:
        return None
    value, _, name = max(ranked)
    return name, value
