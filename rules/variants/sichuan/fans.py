"""四川麻将 (血战到底) hand types: one base type (the largest applies) times ×2 per add-on.

The base types are exclusive: of all that fit the hand, the one worth most counts (平胡 ×1 …
清十八罗汉 ×256 in the default table). Each add-on doubles: every 根 (a kind held four
times), 杠上花, 杠上炮, 抢杠胡, and the room options 门清, 中张 and 海底捞月. Values are data
(``rules/variants/sichuan/sichuan.toml``): ``points`` is the multiplier of the public rule text the
digest follows (``fan_table = "pub_sc"``); ``[chengdu_fan]`` gives the common 成都 番 for
``fan_table = "chengdu_fan"``, where 龙七对 is 七对 with its 4-of-a-kind counted as a 根.

The digest's worked example: 清对 (×8) with one 根 (×2) is ×16.

>>> from paipu.rules.tiles import parse_tiles
>>> from paipu.rules.melds import Meld
>>> hand = RegionalHand.of(parse_tiles("222m555m888m3m"), (Meld.of("concealed_kong", "9999m"),),
...     parse_tiles("3m")[0])
>>> result = evaluate(hand, Situation(self_drawn=True), Scoring.of(PUB_SC, dragons=True))
>>> result.base, result.addons, result.multiplier
('pure_pungs', (('root', 1),), 16)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from paipu.rules.fans import produces
from paipu.rules.fans.regional import Reading, ReadingKind, RegionalHand

REGISTRY: dict[str, str] = {}
ADDON_FACTOR = 2
#: Placeholder for the default table in doctests: the TOML's points (filled by the variant).
PUB_SC: dict[str, int] = {
    "ping_hu": 1,
    "all_pungs": 2,
    "full_flush": 4,
    "outside_terminals": 4,
    "seven_pairs": 4,
    "single_wait_melded": 4,
    "pure_pungs": 8,
    "all_258_pungs": 8,
    "dragon_seven_pairs": 16,
    "pure_seven_pairs": 16,
    "pure_terminals": 16,
    "all_258_single_wait": 16,
    "pure_single_wait": 16,
    "heavenly": 32,
    "earthly": 32,
    "pure_dragon_seven_pairs": 32,
    "eighteen_arhats": 64,
    "pure_eighteen_arhats": 256,
}
#: Base types whose 4-of-a-kind is part of the type: one 根 fewer (龙七对) or none (十八罗汉).
ROOT_ABSORBED = {"dragon_seven_pairs": 1, "pure_dragon_seven_pairs": 1}
NO_ROOTS = frozenset({"eighteen_arhats", "pure_eighteen_arhats"})


@dataclass(frozen=True, slots=True)
class Situation:
    self_drawn: bool = False
    kong_bloom: bool = False  # 杠上花: on one's own kong replacement draw
    kong_discard: bool = False  # 杠上炮: on the discard a konger made after his replacement
    robbing_kong: bool = False  # 抢杠胡
    last_tile: bool = False  # the last wall tile (海底捞月 when self-drawn)
    heavenly: bool = False  # 天胡
    earthly: bool = False  # 地胡


@dataclass(frozen=True, slots=True)
class Scoring:
    """The room's table and options, as far as the hand types go."""

    values: Mapping[str, int]  # multiplier of each base type
    dragons: bool  # 龙七对 types exist (pub_sc); else the quad of 七对 is a 根 (成都)
    yao_jiu_jiang_dui: bool = True  # 带幺九, 清幺九, 将对, 将金钩钓
    tian_di_hu: bool = True  # 天胡, 地胡
    men_qing_zhong_zhang: bool = False  # 门清, 中张 (断幺九)
    hai_di: bool = False  # 海底捞月

    @classmethod
    def of(cls, values: Mapping[str, int], **flags: bool) -> Scoring:
        return cls(dict(values), **flags)


@dataclass(frozen=True, slots=True)
class Result:
    base: str
    addons: tuple[tuple[str, int], ...] = field(default=())
    multiplier: int = 1  # base × 2^(add-ons), before the cap


@produces(
    REGISTRY,
    "single_wait_melded",
    "pure_single_wait",
    "all_258_single_wait",
    "eighteen_arhats",
    "pure_eighteen_arhats",
)
def melded_types(hand: RegionalHand, scoring: Scoring) -> list[str]:
    """金钩钓 (four melds, a single wait on the pair) and its 清 / 将 / 十八罗汉 forms."""
    if not hand.all_melded:
        return []
    if hand.kongs == len(hand.melds):
        return ["pure_eighteen_arhats" if hand.flush else "eighteen_arhats"]
    out = ["single_wait_melded"]
    if hand.flush:
        out.append("pure_single_wait")
    if hand.all_jiang and scoring.yao_jiu_jiang_dui:
        out.append("all_258_single_wait")
    return out


@produces(REGISTRY, "all_pungs", "pure_pungs", "all_258_pungs")
def pung_types(hand: RegionalHand, reading: Reading, scoring: Scoring) -> list[str]:
    """对对胡, 清对 (one suit), 将对 (2/5/8 only)."""
    if not reading.pungs_only:
        return []
    out = ["all_pungs"]
    if hand.flush:
        out.append("pure_pungs")
    if hand.all_jiang and scoring.yao_jiu_jiang_dui:
        out.append("all_258_pungs")
    return out


@produces(REGISTRY, "outside_terminals", "pure_terminals")
def terminal_types(hand: RegionalHand, reading: Reading, scoring: Scoring) -> list[str]:
    """带幺九 (a 1 or 9 in every set and the pair), 清幺九 (in one suit)."""
    if not reading.terminal_sets or not scoring.yao_jiu_jiang_dui:
        return []
    return ["outside_terminals", *(["pure_terminals"] if hand.flush else [])]


@produces(
    REGISTRY, "seven_pairs", "pure_seven_pairs", "dragon_seven_pairs", "pure_dragon_seven_pairs"
)
def pair_types(hand: RegionalHand, reading: Reading, scoring: Scoring) -> list[str]:
    """七对, 清七对, and with a 4-of-a-kind 龙七对 / 清龙七对 (pub_sc table only)."""
    out = ["seven_pairs", *(["pure_seven_pairs"] if hand.flush else [])]
    if reading.quads and scoring.dragons:
        out.append("dragon_seven_pairs")
        if hand.flush:
            out.append("pure_dragon_seven_pairs")
    return out


@produces(REGISTRY, "ping_hu", "full_flush")
def plain_types(hand: RegionalHand) -> list[str]:
    """平胡, 清一色."""
    return ["ping_hu", *(["full_flush"] if hand.flush else [])]


@produces(REGISTRY, "heavenly", "earthly")
def first_turn_types(situation: Situation, scoring: Scoring) -> list[str]:
    """天胡 (the dealer on its first tiles), 地胡 (another seat in the first go-round)."""
    if not scoring.tian_di_hu:
        return []
    return [name for name in ("heavenly", "earthly") if getattr(situation, name)]


@produces(
    REGISTRY,
    "root",
    "kong_bloom",
    "kong_discard",
    "robbing_kong",
    "concealed_self_draw",
    "no_terminals",
    "last_tile_draw",
)
def addons(
    hand: RegionalHand, base: str, situation: Situation, scoring: Scoring
) -> list[tuple[str, int]]:
    """The ×2 add-ons: each 根, 杠上花, 杠上炮, 抢杠胡; options 门清, 中张, 海底捞月."""
    roots = 0 if base in NO_ROOTS else hand.roots - ROOT_ABSORBED.get(base, 0)
    out = [("root", roots)] if roots > 0 else []
    for name in ("kong_bloom", "kong_discard", "robbing_kong"):
        if getattr(situation, name):
            out.append((name, 1))
    if scoring.men_qing_zhong_zhang:
        if situation.self_drawn and hand.exposed_melds == 0:
            out.append(("concealed_self_draw", 1))
        if hand.no_terminals:
            out.append(("no_terminals", 1))
    if scoring.hai_di and situation.self_drawn and situation.last_tile:
        out.append(("last_tile_draw", 1))
    return out


def base_types(hand: RegionalHand, situation: Situation, scoring: Scoring) -> list[str]:
    """Every base type the hand fits, over all its readings."""
    out = melded_types(hand, scoring) + first_turn_types(situation, scoring)
    for reading in hand.readings:
        if reading.kind is ReadingKind.SEVEN_PAIRS:
            out += pair_types(hand, reading, scoring)
        else:
            out += pung_types(hand, reading, scoring) + terminal_types(hand, reading, scoring)
            out += plain_types(hand)
    return out


def evaluate(hand: RegionalHand, situation: Situation, scoring: Scoring) -> Result | None:
    """The base type worth most and its add-ons; None when the tiles do not win."""
    if not hand.complete:
        return None
    candidates = base_types(hand, situation, scoring)
    values = scoring.values
    base = max(candidates, key=lambda name: values[name])
    extra = addons(hand, base, situation, scoring)
    doublings = sum(n for _, n in extra)
    return Result(base, tuple(extra), values[base] * ADDON_FACTOR**doublings)
