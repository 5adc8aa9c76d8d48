"""转转麻将 hand types: every win has the same value ("no 大小胡"); what is recorded is the
shape (平胡 with any pair, 七对 where the room allows it) and how it was won (自摸, 抢杠胡,
海底胡), which decides who pays and which tile is the bird.

>>> from paipu.rules.tiles import parse_tiles
>>> hand = RegionalHand.of(parse_tiles("123m456m789m11p45p"), (), parse_tiles("6p")[0])
>>> evaluate(hand, seven_pairs=False, self_drawn=True, robbing_kong=False, last_tile=False)
(('ping_hu', 1), ('self_draw', 1))
"""

from __future__ import annotations

from paipu.rules.fans import produces
from paipu.rules.fans.regional import RegionalHand

REGISTRY: dict[str, str] = {}


@produces(REGISTRY, "ping_hu", "seven_pairs")
def shape(hand: RegionalHand, seven_pairs: bool) -> str | None:
    """平胡: four sets and any pair (乱将); 七对 only with the room option."""
    if hand.standard():
        return "ping_hu"
    if seven_pairs and hand.seven_pairs() is not None:
        return "seven_pairs"
    return None


@produces(REGISTRY, "self_draw", "robbing_kong", "last_tile")
def how_won(self_drawn: bool, robbing_kong: bool, last_tile: bool) -> list[str]:
    """自摸 (each pays), 抢杠胡 (the konger pays for all), 海底胡 (the 海底 tile is the bird)."""
    out = []
    if self_drawn:
        out.append("self_draw")
    if robbing_kong:
        out.append("robbing_kong")
    if last_tile:
        out.append("last_tile")
    return out


def evaluate(
    hand: RegionalHand, *, seven_pairs: bool, self_drawn: bool, robbing_kong: bool, last_tile: bool
) -> tuple[tuple[str, int], ...] | None:
    """The fans as (id, count), or None when the tiles do not win."""
    kind = shape(hand, seven_pairs)
    if kind is None:
        return None
    return tuple((f, 1) for f in [kind, *how_won(self_drawn, robbing_kong, last_tile)])
