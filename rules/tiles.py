"""Tiles and cards (牌) in the paipu notation.

A tile is a small ``int`` so that hands can be counted in flat lists and hashed cheaply:

========  =============  ======================================
code      notation       meaning
========  =============  ======================================
0-8       ``1m``-``9m``  characters 万
9-17      ``1p``-``9p``  dots 筒 / 饼
18-26     ``1s``-``9s``  bamboo 条 / 索
27-30     ``1z``-``4z``  winds East 东, South 南, West 西, North 北
31-33     ``5z``-``7z``  dragons white 白, green 发, red 中
34-41     ``1f``-``8f``  flowers and seasons 春夏秋冬梅兰竹菊
42-44     ``10m`` …      the tens of 十万麻将 (10m, 10p, 10s)
45-54     ``1x``-``10x`` zipai small cards 小写 一…十
55-64     ``1d``-``10d`` zipai big cards 大写 壹…拾
========  =============  ======================================

The first 34 codes are the standard mahjong tiles; most of the engine works on
count vectors of length :data:`N_KINDS`.

>>> parse_tiles("123m45p11z")
[0, 1, 2, 12, 13, 27, 27]
>>> format_tiles(parse_tiles("1m 2m 7z"))
'12m7z'
>>> tile_name(parse_tile("10x"))
'10x'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

Tile: TypeAlias = int

#: Number of standard mahjong tile kinds (suits 1-9 ×3, 7 honors).
N_KINDS = 34
MAN, PIN, SOU = 0, 9, 18
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
FLOWER_FIRST = 34
TEN_FIRST = 42
ZIPAI_SMALL_FIRST = 45
ZIPAI_BIG_FIRST = 55
N_CODES = 65

SUIT_LETTERS = "mpsz"
_NUMBERED = ("m", "p", "s")

WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONORS = WINDS + DRAGONS
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS
FLOWERS = tuple(range(FLOWER_FIRST, FLOWER_FIRST + 8))


class TileError(ValueError):
    """A tile or card name that the notation does not know."""


def _build_names() -> list[str]:
    names = [f"{r}{s}" for s in _NUMBERED for r in range(1, 10)]
    names += [f"{r}z" for r in range(1, 8)]
    names += [f"{r}f" for r in range(1, 9)]
    names += [f"10{s}" for s in _NUMBERED]
    names += [f"{r}x" for r in range(1, 11)]
    names += [f"{r}d" for r in range(1, 11)]
    return names


_NAMES: list[str] = _build_names()
_CODES: dict[str, Tile] = {name: code for code, name in enumerate(_NAMES)}

_ZH_NUM = "一二三四五六七八九十"
_ZH_BIG = "壹贰叁肆伍陆柒捌玖拾"
_ZH_HONOR = ("东", "南", "西", "北", "白", "发", "中")
_ZH_FLOWER = "春夏秋冬梅兰竹菊"


def _build_zh() -> list[str]:
    zh = [f"{_ZH_NUM[r]}{suit}" for suit in "万筒条" for r in range(9)]
    zh += list(_ZH_HONOR)
    zh += list(_ZH_FLOWER)
    zh += ["十万", "十筒", "十条"]
    zh += list(_ZH_NUM)
    zh += list(_ZH_BIG)
    return zh


_ZH: list[str] = _build_zh()

# Unicode Mahjong Tiles block: U+1F000 winds E S W N, 1F004 red, 1F005 green, 1F006 white,
# 1F007-1F00F characters, 1F010-1F018 bamboo, 1F019-1F021 dots, 1F022-1F029 flowers/seasons.
_GLYPH: dict[Tile, str] = {}
for _r in range(9):
    _GLYPH[MAN + _r] = chr(0x1F007 + _r)
    _GLYPH[SOU + _r] = chr(0x1F010 + _r)
    _GLYPH[PIN + _r] = chr(0x1F019 + _r)
for _i, _w in enumerate(WINDS):
    _GLYPH[_w] = chr(0x1F000 + _i)
_GLYPH[RED], _GLYPH[GREEN], _GLYPH[WHITE] = chr(0x1F004), chr(0x1F005), chr(0x1F006)
# Unicode orders plum, orchid, bamboo, chrysanthemum (1F022-25), then spring..winter (1F026-29).
for _i in range(4):
    _GLYPH[FLOWER_FIRST + _i] = chr(0x1F026 + _i)  # seasons 春夏秋冬
    _GLYPH[FLOWER_FIRST + 4 + _i] = chr(0x1F022 + _i)  # flowers 梅兰竹菊


def parse_tile(name: str) -> Tile:
    """The code of one tile name such as ``"5p"``; :class:`TileError` if unknown."""
    try:
        return _CODES[name]
    except (KeyError, TypeError):
        raise TileError(f"unknown tile {name!r}") from None


def tile_name(tile: Tile) -> str:
    """The paipu notation of a tile code."""
    return _NAMES[tile]


def tile_name_zh(tile: Tile) -> str:
    """The Chinese name of a tile: ``五筒``, ``中``, ``壹`` …"""
    return _ZH[tile]


def tile_glyph(tile: Tile) -> str:
    """The Unicode mahjong glyph of a tile, or its Chinese name where Unicode has none."""
    return _GLYPH.get(tile, _ZH[tile])


_COMPACT = re.compile(r"(\d+)([mpszfxd])")
_SEPARATORS = re.compile(r"[\s,]+")


def parse_tiles(spec: str | Iterable[str]) -> list[Tile]:
    """Tiles from a list of names or a string in single or compact form.

    The compact form groups digits before their suit letter (``123m456p11z``);
    inside a compact group ``0`` stands for ten (``1230x`` is 1x 2x 3x 10x).

    >>> parse_tiles(["1m", "7z"])
    [0, 33]
    >>> parse_tiles("10m 1230x")
    [42, 45, 46, 47, 54]
    """
    if not isinstance(spec, str):
        return [parse_tile(name) for name in spec]
    tiles: list[Tile] = []
    for token in _SEPARATORS.split(spec.strip()):
        if not token:
            continue
        if token in _CODES:
            tiles.append(_CODES[token])
            continue
        pos = 0
        for match in _COMPACT.finditer(token):
            if match.start() != pos:
                break
            digits, suit = match.groups()
            for digit in digits:
                name = f"{10 if digit == '0' else digit}{suit}"
                tiles.append(parse_tile(name))
            pos = match.end()
        if pos != len(token):
            raise TileError(f"cannot read tiles {token!r} (expected e.g. 123m456p11z)")
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact notation of tiles in the order given, grouping runs of one suit.

    A ten is written ``0`` inside its suit's group (``890m`` is 8m 9m 10m), as
    :func:`parse_tiles` reads it, so that ``parse_tiles(format_tiles(t)) == t``; a lone
    group ``10m`` would read as the one tile 10m, so [1m, 10m] is written ``1m0m``.

    >>> format_tiles([0, 1, 2, 33, 45, 54])
    '123m7z10x'
    >>> format_tiles([7, 8, 42]), format_tiles([0, 42]), format_tiles([42])
    ('890m', '1m0m', '10m')
    """
    out: list[str] = []
    group: list[str] = []
    group_suit = ""
    count = 0
    name = ""
    for tile in tiles:
        name = _NAMES[tile]
        digits, suit = name[:-1], name[-1]
        count += 1
        if suit != group_suit and group:
            out.append("".join(group) + group_suit)
            group = []
        group_suit = suit
        group.append("0" if digits == "10" else digits)
    if group:
        out.append("".join(group) + group_suit)
    text = "".join(out)
    if count == 1:
        return name
    if text in _CODES and count != 1:  # "10m": one tile by name, but here 1m and 10m
        return f"1{group_suit}0{group_suit}"
    return text


def tile_names(tiles: Iterable[Tile]) -> list[str]:
    """Each tile's single name, for output (output always lists single tiles)."""
    return [_NAMES[t] for t in tiles]


def counts(tiles: Iterable[Tile], size: int = N_KINDS) -> list[int]:
    """Count vector of tiles, indexed by code."""
    table = [0] * size
    for tile in tiles:
        table[tile] += 1
    return table


def is_suited(tile: Tile) -> bool:
    """A numbered tile 1-9 of characters, dots or bamboo (数牌)."""
    return tile < 27


def is_honor(tile: Tile) -> bool:
    """A wind or dragon (字牌)."""
    return 27 <= tile < 34


def is_wind(tile: Tile) -> bool:
    """A wind tile (风牌)."""
    return 27 <= tile < 31


def is_dragon(tile: Tile) -> bool:
    """A dragon tile (箭牌)."""
    return 31 <= tile < 34


def is_flower(tile: Tile) -> bool:
    """A flower or season (花牌)."""
    return FLOWER_FIRST <= tile < FLOWER_FIRST + 8


def is_terminal(tile: Tile) -> bool:
    """A suited one or nine (幺九 数牌)."""
    return tile < 27 and tile % 9 in (0, 8)


def suit_of(tile: Tile) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honors, 4 flowers, 5+ others."""
    if tile < 34:
        return tile // 9 if tile < 27 else 3
    return 4 if tile < TEN_FIRST else 5


def rank_of(tile: Tile) -> int:
    """The face value 1-9 of a suited tile (1-10 for tens and zipai cards)."""
    if tile < 27:
        return tile % 9 + 1
    if tile < 34:
        return tile - 26
    if tile < TEN_FIRST:
        return tile - FLOWER_FIRST + 1
    if tile < ZIPAI_SMALL_FIRST:
        return 10
    return (tile - ZIPAI_SMALL_FIRST) % 10 + 1


def standard_set(*, honors: bool = True, flowers: bool = False, copies: int = 4) -> list[Tile]:
    """A full wall of standard tiles: 108 suited, +28 honors, +8 flowers."""
    kinds = list(range(27)) + (list(HONORS) if honors else [])
    wall = [t for t in kinds for _ in range(copies)]
    if flowers:
        wall += list(FLOWERS)
    return wall
