"""河北麻将 fans: the shape (平胡, 七对), then 门清, 边卡吊, 捉五魁, 素胡 and 混儿吊, each
multiplying the win (provisional values: the room's options). The winner's hand is read
every way the core finds (the wilds' stand-ins included), and the reading worth most counts.

The digest's provisional example: 门清 捉五魁 (a 卡 of 5万, so not also 边卡吊) is 1 × 2 × 2.

>>> from paipu.rules.core.tiles import STANDARD
>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.tiles import counts, parse_tiles
>>> hand = counts(parse_tiles("46m123p789p111s99s5m"))
>>> Hand(hand, (), parse_tiles("5m")[0], WildSpec.none(STANDARD), False).best(VALUES)
(4, ('ping_hu', 'men_qing', 'zhuo_wu_kui'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paipu.rules.core import shanten as core
from paipu.rules.core.shanten import Reading
from paipu.rules.core.shapes import Shape
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces
from paipu.rules.melds import Meld
from paipu.rules.tiles import Tile

REGISTRY: dict[str, str] = {}
#: The provisional multipliers (the TOML's defaults), for doctests.
VALUES: dict[str, int] = {
    "ping_hu": 1,
    "seven_pairs": 1,
    "men_qing": 2,
    "bian_ka_diao": 2,
    "zhuo_wu_kui": 2,
    "su_hu": 2,
    "hun_diao": 2,
}
FIVE_MAN: Tile = 4  # 5万
SUIT_TILES = 27


@dataclass(frozen=True, slots=True)
class Hand:
    """A winning hand: concealed counts (the winning tile included), melds, the tile, the
    hand's wilds, and whether the room plays with 混儿 at all."""

    counts: Sequence[int]
    melds: tuple[Meld, ...]
    win_tile: Tile
    wilds: WildSpec
    hun_on: bool

    def readings(self) -> list[Reading]:
        return core.decompositions(self.counts, self.wilds, len(self.melds))

    def seven_pairs(self) -> bool:
        return not self.melds and core.is_win(self.counts, self.wilds, 0, (Shape.SEVEN_PAIRS,))

    def best(
        self, values: Mapping[str, int], seven_pairs: bool = False
    ) -> tuple[int, tuple[str, ...]] | None:
        """The fans of the reading worth most and its multiplier; None when no win. Of
        readings worth the same, the one whose fans come later in the table (the more
        particular wait) is named."""
        found: list[tuple[int, tuple[str, ...]]] = []
        common = men_qing(self) + su_hu(self)
        for reading in self.readings():
            names = ["ping_hu", *common, *wait_fans(self, reading)]
            found.append((_worth(names, values), tuple(names)))
        if seven_pairs and self.seven_pairs():
            names = ["seven_pairs", *common]
            found.append((_worth(names, values), tuple(names)))
        if not found:
            return None
        order = list(values)  # on a tie the more particular wait (混儿吊 > 捉五魁 > 边卡吊)
        return max(found, key=lambda f: (f[0], [order.index(n) for n in f[1]]))


def _worth(names: Sequence[str], values: Mapping[str, int]) -> int:
    worth = 1
    for name in names:
        worth *= values[name]
    return worth


@produces(REGISTRY, "men_qing")
def men_qing(hand: Hand) -> list[str]:
    """门清: no 吃, 碰 or exposed kong (concealed kongs allowed)."""
    return ["men_qing"] if all(m.concealed for m in hand.melds) else []


@produces(REGISTRY, "su_hu")
def su_hu(hand: Hand) -> list[str]:
    """素胡: the room plays with 混儿 and the hand, melds included, holds none."""
    if not hand.hun_on:
        return []
    held = any(hand.counts[t] for t in hand.wilds.tiles if t < len(hand.counts))
    held = held or any(hand.wilds.is_wild(t) for m in hand.melds for t in m.tiles)
    return [] if held else ["su_hu"]


@produces(REGISTRY, "bian_ka_diao", "zhuo_wu_kui", "hun_diao")
def wait_fans(hand: Hand, reading: Reading) -> list[str]:
    """How the winning tile (a natural one) completes this reading: 混儿吊 (it pairs a 混),
    捉五魁 (5万 between 4万 and 6万), else 边卡吊 (the 3 of 12, the 7 of 89, the middle of a
    chow, or the pair)."""
    tile = hand.win_tile
    if hand.wilds.is_wild(tile):
        return []
    stood_for = [face for wild, face in reading.wilds if wild != face]
    if reading.pair == tile and tile in stood_for:  # a 混 can be the pair's other half
        return ["hun_diao"]
    middle = [s for s in reading.chows if s + 1 == tile]
    if tile == FIVE_MAN and middle:
        return ["zhuo_wu_kui"]
    if tile < SUIT_TILES:
        edge = any(
            (s % 9 == 0 and tile == s + 2) or (s % 9 == 6 and tile == s) for s in reading.chows
        )
        if middle or edge:
            return ["bian_ka_diao"]
    if reading.pair == tile:
        return ["bian_ka_diao"]
    return []


@produces(REGISTRY, "ping_hu", "seven_pairs", "self_draw")
def shape_and_tags(seven_pairs: bool, self_drawn: bool) -> list[str]:
    """平胡 (four sets and a pair) or 七对, and the 自摸 tag (all pay)."""
    return ["seven_pairs" if seven_pairs else "ping_hu", *(["self_draw"] if self_drawn else [])]
