"""广东推倒胡 hand types: every win has the same base (推倒胡, "push down and win": any four
sets and a pair, wilds standing for whatever completes it), 七对 where the room allows it,
四鬼胡 (four 鬼 before one's first discard); two multipliers (无鬼加倍, 七对加番); and how
the hand was won (自摸, 抢杠胡, 杠爆, 点炮胡), which decides who pays.

The shapes are the core's (:mod:`paipu.rules.core.shanten`) with the hand's
:class:`~paipu.rules.core.wild.WildSpec`.

>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.core.tiles import STANDARD
>>> from paipu.rules.tiles import counts, parse_tiles
>>> ghost = WildSpec.fixed(STANDARD, parse_tiles("5z"))
>>> hand = counts(parse_tiles("123m456p789s11z23s5z"))  # 白板 stands for 1s or 4s
>>> shape(hand, 0, ghost, seven_pairs=False, first_turn=False, four_ghosts=True)
'tui_dao_hu'
>>> multipliers("tui_dao_hu", ghost, hand, no_ghost_double=True, seven_pairs_double=False)
[]
"""

from __future__ import annotations

from collections.abc import Sequence

from paipu.rules.core import shanten as core
from paipu.rules.core.shapes import Shape
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces

REGISTRY: dict[str, str] = {}
_SEVEN_PAIRS = (Shape.SEVEN_PAIRS,)
SEVEN_PAIRS_ONLY = _SEVEN_PAIRS
STANDARD_ONLY = (Shape.STANDARD,)
#: 鬼 a hand holds for 四鬼胡.
FOUR = 4


@produces(REGISTRY, "tui_dao_hu", "seven_pairs", "four_ghosts")
def shape(
    counts: Sequence[int],
    melds: int,
    wilds: WildSpec,
    *,
    seven_pairs: bool,
    first_turn: bool,
    four_ghosts: bool,
    prefer_pairs: bool = False,
) -> str | None:
    """推倒胡 (four sets and a pair), 七对 (with the room option; preferred where it pays
    more), or 四鬼胡 (four 鬼 held before one's first discard, whatever the shape)."""
    standard = core.is_win(counts, wilds, melds)
    pairs = seven_pairs and melds == 0 and core.is_win(counts, wilds, 0, _SEVEN_PAIRS)
    if pairs and (prefer_pairs or not standard):
        return "seven_pairs"
    if standard:
        return "tui_dao_hu"
    if four_ghosts and first_turn and len(wilds.held(counts)) >= FOUR:
        return "four_ghosts"
    return None


@produces(REGISTRY, "no_ghost", "seven_pairs_double")
def multipliers(
    kind: str,
    wilds: WildSpec,
    counts: Sequence[int],
    *,
    no_ghost_double: bool,
    seven_pairs_double: bool,
) -> list[str]:
    """无鬼加倍 (鬼 in play, the winner holds none: a 鬼 counts as held whatever it stands
    for) and 七对加番, each × 2."""
    out = []
    if no_ghost_double and wilds.tiles and not wilds.held(counts):
        out.append("no_ghost")
    if seven_pairs_double and kind == "seven_pairs":
        out.append("seven_pairs_double")
    return out


@produces(REGISTRY, "self_draw", "robbing_kong", "kong_bao", "discard_win")
def how_won(self_drawn: bool, robbing_kong: bool, kong_replacement: bool) -> list[str]:
    """自摸 (each pays), 抢杠胡 (the konger pays for all), 杠爆 (on a kong's replacement
    draw: the feeder of a 直杠 pays for all), 点炮胡 (on a discard)."""
    if robbing_kong:
        return ["robbing_kong"]
    if not self_drawn:
        return ["discard_win"]
    return ["self_draw", "kong_bao"] if kong_replacement else ["self_draw"]


@produces(REGISTRY, "horse")
def horses(hits: int) -> list[tuple[str, int]]:
    """中马: the horses that landed on the winner (a count)."""
    return [("horse", hits)] if hits else []
