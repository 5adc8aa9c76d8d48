"""哈尔滨麻将 hand readings: the win requirements (胡牌的条件), 卡当, and the hand's value.

A winning hand is four sets and a pair (红中 may be the pair or a 刻) that

1. holds at least two suits (no 清一色; 红中 is not a suit);
2. holds a 1 or a 9, or a 红中 in its place (幺九);
3. holds a 刻 (a pung or kong, 中中中 counts) and a 顺 (a chow), in one reading; a 对倒
   (two pairs waiting, either becoming the pung) meets it by the pung it completes;
4. is 开门: a chi, pong or exposed kong declared (a concealed kong does not open it);
5. was declared ready (听) before the win (the scorer's ``extra.ready``).

卡当: the hand waits on exactly one tile, and that tile is the middle of a chow of the
winning hand (7889 waiting on 8 counts; 67789 waiting on 5 and 8, 78889 with another pair,
a single wait on 8 do not).

>>> from paipu.rules.tiles import counts, parse_tiles
>>> is_ka_dang(counts(parse_tiles("7889m")), 3, parse_tiles("8m")[0])
True
>>> is_ka_dang(counts(parse_tiles("67789m11p")), 2, parse_tiles("8m")[0])
False
>>> requirement_problem(counts(parse_tiles("123456789m11p")), ())
'a 刻 (pung) and a 顺 (chow) are both needed (刻顺)'
"""

from __future__ import annotations

from collections.abc import Sequence

from paipu.rules.decompose import standard_decompositions
from paipu.rules.fans import produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.shanten import waits
from paipu.rules.tiles import N_KINDS, Tile

REGISTRY: dict[str, str] = {}

#: 红中 (7z), the only honour of the 112 tiles.
RED = 33
SUITED = 27
SUIT_SIZE = 9


def opened(melds: Sequence[Meld]) -> bool:
    """开门: a chi, pong or exposed kong among the melds (a concealed kong does not count)."""
    return any(m.kind is not MeldKind.CONCEALED_KONG for m in melds)


def _tiles_of(counts: Sequence[int], melds: Sequence[Meld]) -> list[Tile]:
    tiles = [t for t in range(N_KINDS) for _ in range(counts[t])]
    for meld in melds:
        tiles.extend(meld.tiles)
    return tiles


def requirement_problem(counts: Sequence[int], melds: Sequence[Meld]) -> str | None:
    """Why the complete hand (concealed ``counts`` with the winning tile, and ``melds``)
    is not a Harbin win by its tiles (two suits, 幺九, 刻 and 顺, the basic shape); None
    when it is one. 开门 and 听 are the caller's."""
    tiles = _tiles_of(counts, melds)
    if len({t // SUIT_SIZE for t in tiles if t < SUITED}) < 2:
        return "at least two suits are needed (no 清一色; 红中 is not a suit)"
    if not any(t == RED or (t < SUITED and t % SUIT_SIZE in (0, SUIT_SIZE - 1)) for t in tiles):
        return "a 1 or a 9 (or a 红中 in its place) is needed (幺九)"
    divisions = standard_decompositions(list(counts))
    if not divisions:
        return "these tiles do not form four sets and a pair (basic shapes only)"
    meld_pungs = any(m.kind is not MeldKind.CHI for m in melds)
    meld_chows = any(m.kind is MeldKind.CHI for m in melds)
    for division in divisions:
        if (meld_pungs or division.pungs) and (meld_chows or division.chows):
            return None
    return "a 刻 (pung) and a 顺 (chow) are both needed (刻顺)"


def is_ka_dang(counts: Sequence[int], melds: int, tile: Tile) -> bool:
    """卡当: the waiting hand ``counts`` (13 − 3 × ``melds`` tiles) waits on ``tile`` alone,
    and ``tile`` is the middle of a chow in a reading of the winning hand."""
    if tile >= SUITED or tile % SUIT_SIZE in (0, SUIT_SIZE - 1):
        return False
    if waits(list(counts), melds) != (tile,):
        return False
    full = list(counts)
    full[tile] += 1
    return any(tile - 1 in d.chows for d in standard_decompositions(full))


@produces(REGISTRY, "ping_hu", "self_draw", "robbing_kong", "kong_bloom")
def how_won(self_drawn: bool, robbing_kong: bool, kong_replacement: bool) -> str:
    """平胡 on a discard; 自摸, and 抢杠 / 杠开 which pay as a self-draw."""
    if robbing_kong:
        return "robbing_kong"
    if not self_drawn:
        return "ping_hu"
    return "kong_bloom" if kong_replacement else "self_draw"


@produces(REGISTRY, "touch_bao", "bao_in_bao")
def treasure(ka_dang: bool, wait_is_bao: bool) -> str:
    """摸宝 (a ready seat draws the 宝), 宝中宝 (its only, 卡当 wait is the 宝)."""
    return "bao_in_bao" if ka_dang and wait_is_bao else "touch_bao"


@produces(REGISTRY, "ka_dang")
def doubled(ka_dang: bool, base: str) -> bool:
    """卡当 doubles every payment but 宝中宝's (which already counts it)."""
    return ka_dang and base != "bao_in_bao"
