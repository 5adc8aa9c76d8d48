"""天津麻将 fans: readings with 混儿 through the wild-aware core, the additive base term and
the multipliers.

A win is read by :func:`paipu.rules.core.shanten.decompositions`: every split of the
concealed tiles (the winning tile among them) into sets and a pair, with what each 混 stood
for. Each reading is priced and the best counts:

* the base term: 捉五 3 + 龙 4 (the additive fans), or 提溜 1 when neither fits;
* the multipliers: 本混龙 ×2 (a 龙 in the 混's suit), 混吊 / 双混吊 ×2 (the tile drawn
  closes the pair, or a set, on standing 混), 素 × ``su_multiplier`` (no 混 held), 杠开 ×2;
* 天和 / 地和: flat 28, or × 4 (option ``first_turn_win``).

The digest's worked example: 素 捉五 is (3) × 2 = 6.

>>> from paipu.rules.core.tiles import TileSet
>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.tiles import parse_tile, parse_tiles
>>> tiles = TileSet.from_toml({"dragon_cycle": ["中", "发", "白"]})
>>> wilds = WildSpec.from_indicator(tiles, parse_tile("7z"), (0, 1))  # 中 and 发
>>> hand = parse_tiles("46m123p789p22s345s") + [parse_tile("5m")]
>>> result = evaluate(hand, wilds, (), parse_tile("5m"), Situation(), Scoring())
>>> result.total, [(f, p) for f, p in result.fans]
(6, [('zhuo_wu', 3), ('su', 2)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paipu.rules.core.shanten import Reading, decompositions
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import N_KINDS, Tile

REGISTRY: dict[str, str] = {}

#: Suited kinds (万 筒 条), tiles per suit.
SUITED = 27
SUIT_SIZE = 9
#: 5万 and the lowest tile of 4-5-6万 (捉五).
FIVE_CHARACTERS = 4
FOUR_CHARACTERS = 3
#: The values of the fans (the TOML's ``points``; tests compare them).
ZHUO_WU = 3
LONG = 4
TI_LIU = 1
DOUBLE = 2
HEAVENLY_FLAT = 28
FIRST_TURN_FACTOR = 4


@dataclass(frozen=True, slots=True)
class Situation:
    """How the hand was won, beside its tiles."""

    kong_bloom: bool = False  # 杠开: on a kong's replacement draw
    heavenly: bool = False  # 天和: the dealer on its first tiles
    earthly: bool = False  # 地和: a 闲 on its own first draw


@dataclass(frozen=True, slots=True)
class Scoring:
    """The room's options that change a hand's value."""

    su_multiplier: int = 2
    su_none_substituted: bool = False  # 素 read as "no 混 stands for another tile"
    ben_hun_long: bool = True
    first_turn_flat: bool = True  # 天和 / 地和 flat 28 (else × 4)
    zhuo_wu_wild_five: bool = False  # a drawn 混 standing for the 5万 also 捉五


@dataclass(frozen=True, slots=True)
class Result:
    """A priced reading: its fans as (id, points), the base term, the total, the reading."""

    fans: tuple[tuple[str, int], ...]
    base: int
    total: int
    reading: Reading


def _faces(reading: Reading) -> list[int]:
    """How many 混 stood for each face in ``reading`` (their own kind included)."""
    jokers = [0] * N_KINDS
    for _, face in reading.wilds:
        jokers[face] += 1
    return jokers


@produces(REGISTRY, "zhuo_wu")
def zhuo_wu(reading: Reading, win_tile: Tile, win_is_wild: bool, scoring: Scoring) -> bool:
    """捉五: the winning 5万 sits in a 4-5-6万 (whose 4万 / 6万 may be 混); with
    ``zhuo_wu_wild_five`` a drawn 混 standing for that 5万 counts too (pub-tj2's panel)."""
    if FOUR_CHARACTERS not in reading.chows:
        return False
    if not win_is_wild:
        return win_tile == FIVE_CHARACTERS
    if win_tile == FIVE_CHARACTERS:  # a 混 kind of its own: the 5万 drawn as itself
        return any(face == FIVE_CHARACTERS for _, face in reading.wilds)
    return scoring.zhuo_wu_wild_five and any(face == FIVE_CHARACTERS for _, face in reading.wilds)


@produces(REGISTRY, "long", "ben_hun_long")
def dragon(reading: Reading, wild_suits: frozenset[int], scoring: Scoring) -> list[str]:
    """龙: 1-2-3, 4-5-6, 7-8-9 of one suit (混 may stand in it); 本混龙: that suit is the
    混's own (the flipped tile's suit)."""
    chows = reading.chows
    for suit in range(3):
        low = suit * SUIT_SIZE
        if low in chows and low + 3 in chows and low + 6 in chows:
            if scoring.ben_hun_long and suit in wild_suits:
                return ["long", "ben_hun_long"]
            return ["long"]
    return []


@produces(REGISTRY, "hun_diao", "shuang_hun_diao")
def diao(reading: Reading, win_tile: Tile, win_is_wild: bool) -> str | None:
    """混吊: the tile drawn completes the pair on a standing 混 (a natural tile beside a 混,
    or a drawn 混 beside another); 双混吊: it completes a set on two standing 混 (a natural
    tile with two 混, or a drawn 混 with two more: a set of three 混)."""
    if not reading.wilds:
        return None
    jokers = _faces(reading)
    # a natural tile drawn closes a group on the 混 beside it; a drawn 混 fills a place too.
    # The set is looked at first: a set closed on two 混 beside a natural pair can always be
    # read as a pung on one 混 and the pair on the other, the same value, but 双混吊 is what
    # the player holding two standing 混 calls it.
    need = 2 if win_is_wild else 1
    for pung in reading.pungs:
        if (win_is_wild or pung == win_tile) and jokers[pung] >= need + 1:
            return "shuang_hun_diao"
    for low in reading.chows:
        run = (low, low + 1, low + 2)
        if win_is_wild:
            if all(jokers[t] for t in run):
                return "shuang_hun_diao"
        elif win_tile in run and all(jokers[t] for t in run if t != win_tile):
            return "shuang_hun_diao"
    if (win_is_wild or reading.pair == win_tile) and jokers[reading.pair] >= need:
        return "hun_diao"
    return None


@produces(REGISTRY, "su")
def su(reading: Reading, wilds_held: int, scoring: Scoring) -> bool:
    """素: no 混 held (or, with ``su_reading = none_substituted``, none standing for another
    tile in this reading)."""
    return reading.natural if scoring.su_none_substituted else wilds_held == 0


@produces(REGISTRY, "kong_bloom", "heavenly", "earthly", "ti_liu")
def situational(situation: Situation) -> list[str]:
    """杠开, 天和, 地和 (提溜 is the base 1 of a hand with no additive fan)."""
    out = []
    if situation.kong_bloom:
        out.append("kong_bloom")
    if situation.heavenly:
        out.append("heavenly")
    elif situation.earthly:
        out.append("earthly")
    return out


def price(
    reading: Reading,
    win_tile: Tile,
    wilds: WildSpec,
    wilds_held: int,
    situation: Situation,
    scoring: Scoring,
) -> Result:
    """The fans and value of one reading."""
    win_is_wild = win_tile in wilds.tiles
    wild_suits = frozenset(t // SUIT_SIZE for t in wilds.tiles if t < SUITED)
    fans: list[tuple[str, int]] = []
    base = 0
    if zhuo_wu(reading, win_tile, win_is_wild, scoring):
        fans.append(("zhuo_wu", ZHUO_WU))
        base += ZHUO_WU
    factor = 1
    for fan in dragon(reading, wild_suits, scoring):
        if fan == "long":
            fans.append((fan, LONG))
            base += LONG
        else:
            fans.append((fan, DOUBLE))
            factor *= DOUBLE
    if base == 0:
        fans.insert(0, ("ti_liu", TI_LIU))
        base = TI_LIU
    if su(reading, wilds_held, scoring):
        fans.append(("su", scoring.su_multiplier))
        factor *= scoring.su_multiplier
    else:
        hung = diao(reading, win_tile, win_is_wild)
        if hung is not None:
            fans.append((hung, DOUBLE))
            factor *= DOUBLE
    for fan in situational(situation):
        if fan == "kong_bloom":
            fans.append((fan, DOUBLE))
            factor *= DOUBLE
        elif scoring.first_turn_flat:  # 天和 / 地和: the hand is worth 28, whatever it holds
            return Result(((fan, HEAVENLY_FLAT),), HEAVENLY_FLAT, HEAVENLY_FLAT, reading)
        else:
            fans.append((fan, FIRST_TURN_FACTOR))
            factor *= FIRST_TURN_FACTOR
    return Result(tuple(fans), base, base * factor, reading)


def evaluate(
    concealed: Sequence[Tile],
    wilds: WildSpec,
    melds: Sequence[Meld],
    win_tile: Tile,
    situation: Situation,
    scoring: Scoring,
) -> Result | None:
    """The best-priced reading of a self-drawn hand (``concealed`` holds the winning tile);
    None when the tiles are not four sets and a pair by any substitution of the 混. Ties go
    to the first reading in the core's order, so the answer does not depend on tile order."""
    counts = [0] * N_KINDS
    for tile in concealed:
        counts[tile] += 1
    readings = decompositions(counts, wilds, len(melds))
    if not readings:
        return None
    wild_tiles = wilds.tiles
    held = sum(1 for t in concealed if t in wild_tiles) + sum(
        4 for m in melds if m.kind is MeldKind.CONCEALED_KONG and m.tiles[0] in wild_tiles
    )
    best: Result | None = None
    for reading in readings:
        result = price(reading, win_tile, wilds, held, situation, scoring)
        if best is None or result.total > best.total:
            best = result
    return best
