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
#: 鬼 a hand holds for 四鬼胡; the sets of a complete hand.
FOUR = 4
PUNG = 3
PAIR = 2
#: Tile kinds per suit (the codes run 万 筒 条 by nine, then the honours: "suit" 3).
SUIT = 9
HONOUR_SUIT = 3


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


@produces(REGISTRY, "no_ghost", "seven_pairs_double", "all_pungs", "full_flush")
def multipliers(
    kind: str,
    wilds: WildSpec,
    counts: Sequence[int],
    *,
    no_ghost_double: bool,
    seven_pairs_double: bool,
    melds: int = 0,
    melded: Sequence[int] = (),
    all_pungs_double: bool = False,
    full_flush_double: bool = False,
) -> list[str]:
    """无鬼加倍 (鬼 in play, the winner holds none: a 鬼 counts as held whatever it stands
    for) and 七对加番; the room's extras 碰碰胡 (a 推倒胡 of pungs only, :func:`is_all_pungs`)
    and 清一色 (:func:`is_full_flush`, 推倒胡 or 七对); each × its fan's points (2).
    ``counts`` are the concealed tiles with the winning tile, ``melded`` the melds' tiles
    (no 吃 here, so every meld is a pung or a kong)."""
    out = []
    if no_ghost_double and wilds.tiles and not wilds.held(counts):
        out.append("no_ghost")
    if seven_pairs_double and kind == "seven_pairs":
        out.append("seven_pairs_double")
    if all_pungs_double and kind == "tui_dao_hu" and is_all_pungs(counts, melds, wilds):
        out.append("all_pungs")
    if full_flush_double and kind != "four_ghosts" and is_full_flush(counts, melded, wilds):
        out.append("full_flush")
    return out


def is_all_pungs(counts: Sequence[int], melds: int, wilds: WildSpec) -> bool:
    """碰碰胡: the concealed tiles are pungs and a pair, the 鬼 filling them (the melds are
    pungs and kongs already: no 吃). Each natural kind is a pung (at most 3 held) or the
    pair (at most 2); the 鬼 left over make pungs (and the pair) of their own, so for a
    complete hand (the shape a win: 14 tiles less 3 a meld) it comes down to the number of
    natural kinds.

    >>> from paipu.rules.core.tiles import STANDARD
    >>> from paipu.rules.tiles import counts as counts_of, parse_tiles
    >>> ghost = WildSpec.fixed(STANDARD, parse_tiles("5z"))
    >>> plain = WildSpec.none(STANDARD)
    >>> def hand(text):
    ...     return counts_of(parse_tiles(text))
    >>> is_all_pungs(hand("111m222p333s44z666z"), 0, plain)
    True
    >>> is_all_pungs(hand("111m22p"), 3, plain), is_all_pungs(hand("123m222p333s44z666z"), 0, plain)
    (True, False)
    >>> is_all_pungs(hand("111m222p333s44z6z5z5z"), 0, ghost)
    True
    """
    held = wilds.held(counts)
    natural = list(counts)
    for ghost in held:
        natural[ghost] -= 1
    present = [n for n in natural if n]
    sets = FOUR - melds
    if any(n > PUNG for n in present):
        return False
    if len(present) <= sets:  # the pair may be 鬼 alone
        return True
    return len(present) == sets + 1 and any(n <= PAIR for n in present)


def is_full_flush(counts: Sequence[int], melded: Sequence[int], wilds: WildSpec) -> bool:
    """清一色: every tile of the hand and its melds but the 鬼 is of one suit (a 鬼 grouped
    with suited tiles, or with other 鬼, can stand for a tile of that suit).

    >>> from paipu.rules.core.tiles import STANDARD
    >>> from paipu.rules.tiles import counts as counts_of, parse_tiles
    >>> ghost = WildSpec.fixed(STANDARD, parse_tiles("5z"))
    >>> is_full_flush(counts_of(parse_tiles("11123456789m5z5z")), (), ghost)
    True
    >>> is_full_flush(counts_of(parse_tiles("11123456789m11p")), (), ghost)
    False
    """
    suits = set()
    for tile, n in enumerate(counts):
        if n and tile not in wilds.tiles:
            suits.add(tile // SUIT)
    for tile in melded:
        suits.add(tile // SUIT)
    return len(suits) == 1 and HONOUR_SUIT not in suits


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


@produces(REGISTRY, "jie_jie_gao")
def streak_bonus(kept: int) -> list[tuple[str, int]]:
    """节节高: the wins in a row the dealer kept the deal by (a count; its points each)."""
    return [("jie_jie_gao", kept)] if kept > 0 else []


@produces(REGISTRY, "horse_kong")
def horse_kongs(kong_units: int, hits: int) -> list[tuple[str, int]]:
    """马跟杠: the winner's kong units for every horse on him (a count; its points each)."""
    return [("horse_kong", kong_units * hits)] if kong_units * hits else []
