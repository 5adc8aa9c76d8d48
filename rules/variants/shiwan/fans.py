"""十万麻将 hand types: the fan table is unknown (digest gap 1), so a win is its shape — 和牌
(4 sets and a pair over the 1–10 suits) or 七对 where the room allows it — and how it was
won (自摸, 抢杠和, 海底, 杠上开花), which decides who pays.

>>> from paipu.rules.core.tiles import TileSet
>>> from paipu.rules.core.wild import WildSpec
>>> tiles = TileSet.from_toml({"ranks": 10, "honors": ["winds"]})
>>> hand = tiles.counts(tiles.parse("890m123p567s111z0s0s"))
>>> shape(hand, 0, WildSpec.none(tiles), seven_pairs=False)
'basic_win'
"""

from __future__ import annotations

from collections.abc import Sequence

from paipu.rules.core.shanten import is_win
from paipu.rules.core.shapes import Shape
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces
from paipu.rules.score import WinFlags

REGISTRY: dict[str, str] = {}
_STANDARD = (Shape.STANDARD,)
_PAIRS = (Shape.SEVEN_PAIRS,)


@produces(REGISTRY, "basic_win", "seven_pairs")
def shape(counts: Sequence[int], melds: int, wilds: WildSpec, seven_pairs: bool) -> str | None:
    """和牌: four sets and a pair, chows over ten ranks (8-9-10 is one; 10-1 is not); 七对
    only with the room option and no melds."""
    if is_win(counts, wilds, melds, _STANDARD):
        return "basic_win"
    if seven_pairs and melds == 0 and is_win(counts, wilds, 0, _PAIRS):
        return "seven_pairs"
    return None


@produces(REGISTRY, "self_draw", "robbing_kong", "last_tile", "kong_replacement")
def how_won(self_drawn: bool, flags: WinFlags) -> list[str]:
    """The situation of the win, as tags worth nothing (they say who pays)."""
    out = []
    if self_drawn:
        out.append("self_draw")
    if flags.robbing_kong:
        out.append("robbing_kong")
    if flags.last_tile:
        out.append("last_tile")
    if flags.kong_replacement:
        out.append("kong_replacement")
    return out
