"""郴州字牌 cards (字牌): small 一…十 and big 壹…拾, four copies of each, 80 in all.

A card is a tile code of :mod:`paipu.rules.tiles` (``1x``…``10x`` are 45…54, ``1d``…``10d``
are 55…64). Inside the zipai rules a card kind is also addressed by its *index* 0…19
(small 0…9, big 10…19), so that a hand is a count vector of length :data:`N_KINDS`.

>>> cards = parse_cards("2x 7d 10d")
>>> [name_zh(c) for c in cards], [is_red(c) for c in cards]
(['二', '柒', '拾'], [True, True, True])
>>> names_zh(parse_cards("123x"))
'一二三'
>>> parse_cards("5p")
Traceback (most recent call last):
...
paipu.rules.tiles.TileError: 5p is not a zipai card (1x-10x small, 1d-10d big)
"""

from __future__ import annotations

from collections.abc import Iterable

from paipu.rules.tiles import (
    ZIPAI_BIG_FIRST,
    ZIPAI_SMALL_FIRST,
    Tile,
    TileError,
    parse_tiles,
    tile_name,
    tile_name_zh,
)

Card = Tile

#: Number of card kinds: ten small, ten big.
N_KINDS = 20
#: Copies of each card kind.
COPIES = 4
#: The red ranks (红字): 二 七 十 / 贰 柒 拾.
RED_RANKS = frozenset({2, 7, 10})
SMALL = tuple(range(ZIPAI_SMALL_FIRST, ZIPAI_SMALL_FIRST + 10))
BIG = tuple(range(ZIPAI_BIG_FIRST, ZIPAI_BIG_FIRST + 10))
ALL_CARDS = SMALL + BIG


def is_card(tile: Tile) -> bool:
    """A zipai card (not a mahjong tile)."""
    return ZIPAI_SMALL_FIRST <= tile < ZIPAI_SMALL_FIRST + N_KINDS


def index(card: Card) -> int:
    """The card kind's index 0…19 (small 0…9, big 10…19)."""
    return card - ZIPAI_SMALL_FIRST


def card_at(i: int) -> Card:
    """The card of kind index ``i``."""
    return ZIPAI_SMALL_FIRST + i


def is_big(card: Card) -> bool:
    """A big card 壹…拾 (大字)."""
    return card >= ZIPAI_BIG_FIRST


def rank(card: Card) -> int:
    """The face value 1…10."""
    return index(card) % 10 + 1


def is_red(card: Card) -> bool:
    """A red card (红字): 二 七 十 or 贰 柒 拾."""
    return rank(card) in RED_RANKS


def full_set() -> list[Card]:
    """All 80 cards, sorted."""
    return [c for c in ALL_CARDS for _ in range(COPIES)]


def parse_cards(spec: str | Iterable[str]) -> list[Card]:
    """Cards from names (``["1x", "10d"]``) or compact text (``"1230x 55d"``); a mahjong
    tile is a :class:`~paipu.rules.tiles.TileError`."""
    cards = parse_tiles(spec)
    for card in cards:
        if not is_card(card):
            raise TileError(f"{tile_name(card)} is not a zipai card (1x-10x small, 1d-10d big)")
    return cards


def kind_counts(cards: Iterable[Card]) -> list[int]:
    """Count vector of cards by kind index."""
    table = [0] * N_KINDS
    for card in cards:
        table[index(card)] += 1
    return table


def cards_of(counts: Iterable[int]) -> list[Card]:
    """The cards of a count vector, sorted."""
    return [card_at(i) for i, n in enumerate(counts) for _ in range(n)]


def name_zh(card: Card) -> str:
    """The Chinese name a player reads: 一…十, 壹…拾."""
    return tile_name_zh(card)


def names_zh(cards: Iterable[Card]) -> str:
    """Chinese names run together: ``一二三``."""
    return "".join(tile_name_zh(c) for c in cards)
