"""上海麻将 fans (番种): the hand types of 清混碰 and 敲麻, each worth doublings (2^番).

A detector reads a :class:`ShanghaiHand` (the winner's tiles, melds and flowers) and the
situation; :func:`evaluate` gathers them, applies the combined fans' ``excludes`` (混碰
replaces 混一色 and 碰碰胡) and keeps the fans of the ruleset. Which fans a ruleset counts
and which are enough to win is data (the TOML's ``[rulesets.*]``).

>>> from paipu.rules.tiles import parse_tiles
>>> hand = ShanghaiHand.of(parse_tiles("111m222m333m444m5z"), (), parse_tiles("5z")[0], 0)
>>> hand_fans(hand)
['all_pungs', 'half_flush', 'half_flush_all_pungs']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paipu.rules.decompose import standard_decompositions
from paipu.rules.fans import FanTable, produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.shanten import waits
from paipu.rules.tiles import EAST, N_KINDS, Tile, counts

REGISTRY: dict[str, str] = {}
#: All eight flowers (春夏秋冬梅兰竹菊).
ALL_FLOWERS = 8
#: Melds when every set is declared (大吊车).
ALL_MELDED = 4


@dataclass(frozen=True, slots=True)
class ShanghaiHand:
    """A winning hand's tiles: the concealed counts with the winning tile, the melds, the
    flowers set aside, and what the shape readings found."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    flowers: int
    standard: bool  # four sets and a pair
    pungs_only: bool  # a reading with no chow, and no chi meld
    pair_waits: bool  # a reading whose pair is the winning tile
    suits: frozenset[int]  # the suits (0 万, 1 筒, 2 条) of every tile
    honors: bool  # any wind or dragon

    @classmethod
    def of(
        cls, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile, flowers: int
    ) -> ShanghaiHand:
        """The hand less its winning tile, its melds, the winning tile and the number of
        flowers set aside."""
        concealed = counts([*hand, win_tile]) if win_tile < N_KINDS else counts(hand)
        readings = standard_decompositions(concealed) if sum(concealed) % 3 == 2 else []
        no_chi = all(m.kind is not MeldKind.CHI for m in melds)
        tiles = [t for t in range(N_KINDS) if concealed[t]] + [m.base for m in melds]
        return cls(
            concealed=tuple(concealed),
            melds=tuple(melds),
            win_tile=win_tile,
            flowers=flowers + (0 if win_tile < N_KINDS else 1),
            standard=bool(readings),
            pungs_only=no_chi and any(not d.chows for d in readings),
            pair_waits=any(d.pair == win_tile for d in readings),
            suits=frozenset(t // 9 for t in tiles if t < EAST),
            honors=any(t >= EAST for t in tiles),
        )

    @property
    def all_honors(self) -> bool:
        return not self.suits and self.honors

    @property
    def exposed(self) -> bool:
        """Any meld shown on the table (a concealed kong is not)."""
        return any(m.kind is not MeldKind.CONCEALED_KONG for m in self.melds)


@produces(REGISTRY, "all_pungs", "half_flush", "full_flush")
@produces(REGISTRY, "half_flush_all_pungs", "full_flush_all_pungs")
@produces(REGISTRY, "all_honors", "all_honors_all_pungs")
def hand_fans(hand: ShanghaiHand) -> list[str]:
    """碰碰胡 (every set a pung or kong), 混一色 (one suit and honours), 清一色 (one suit),
    风一色 (honours only), and their combinations 混碰, 清碰, 风碰 [seed-A 2]; the combined
    fans' ``excludes`` remove the parts."""
    out = []
    pungs = hand.pungs_only
    if pungs:
        out.append("all_pungs")
    if len(hand.suits) == 1:
        if hand.honors:
            out.append("half_flush")
            if pungs:
                out.append("half_flush_all_pungs")
        else:
            out.append("full_flush")
            if pungs:
                out.append("full_flush_all_pungs")
    elif hand.all_honors:
        out.append("all_honors")
        if pungs:
            out.append("all_honors_all_pungs")
    return out


@produces(REGISTRY, "eight_flowers")
def eight_flowers(hand: ShanghaiHand) -> bool:
    """八花齐: all eight flowers (a win by itself)."""
    return hand.flowers >= ALL_FLOWERS


@produces(REGISTRY, "big_single_wait")
def big_single_wait(hand: ShanghaiHand) -> bool:
    """大吊车: every set declared (吃碰杠), the pair's single tile the wait."""
    return len(hand.melds) == ALL_MELDED and hand.standard


@produces(REGISTRY, "kong_replacement")
def kong_replacement(kong_replacement: bool) -> bool:
    """杠开 (杠上花): won on a kong's replacement draw."""
    return kong_replacement


@produces(REGISTRY, "kaibao", "huang_fan")
def carried(kaibao: int, huang_fan: int) -> list[tuple[str, int]]:
    """开宝 and 黄番: the doublings the hand carries (the game's state, counted once each)."""
    out = []
    if kaibao:
        out.append(("kaibao", kaibao))
    if huang_fan:
        out.append(("huang_fan", huang_fan))
    return out


@produces(REGISTRY, "concealed_hand")
def concealed_hand(hand: ShanghaiHand) -> bool:
    """门清 (敲麻): nothing claimed from another seat (concealed kongs allowed)."""
    return not hand.exposed


@produces(REGISTRY, "single_wait")
def single_wait(hand: ShanghaiHand) -> bool:
    """单吊 (敲麻): the winning tile completes the pair and was the hand's only wait."""
    if not hand.pair_waits:
        return False
    before = list(hand.concealed)
    before[hand.win_tile] -= 1
    return waits(before, len(hand.melds)) == (hand.win_tile,)


def shape_wins(hand: ShanghaiHand, *, honors_any_shape: bool) -> bool:
    """Whether the tiles form a win by shape: four sets and a pair, or (风一色 乱风) fourteen
    honours in any arrangement."""
    return hand.standard or (honors_any_shape and hand.all_honors and hand.win_tile < N_KINDS)


def evaluate(
    hand: ShanghaiHand,
    table: FanTable,
    counted: frozenset[str],
    *,
    kong_replacement_win: bool,
    kaibao: int,
    huang_fan: int,
) -> tuple[tuple[str, int], ...]:
    """The fans as (id, count) in table order: every detector's, less what a combined fan
    excludes, kept to the ruleset's ``counted`` fans."""
    found: dict[str, int] = {}
    if hand.standard or hand.all_honors:
        for fan_id in hand_fans(hand):
            found[fan_id] = 1
        if big_single_wait(hand):
            found["big_single_wait"] = 1
        if "concealed_hand" in counted and concealed_hand(hand):
            found["concealed_hand"] = 1
        if "single_wait" in counted and hand.standard and single_wait(hand):
            found["single_wait"] = 1
    if eight_flowers(hand):
        found["eight_flowers"] = 1
    if kong_replacement(kong_replacement_win):
        found["kong_replacement"] = 1
    for fan_id, n in carried(kaibao, huang_fan):
        found[fan_id] = n
    by_id = table.by_id
    for fan_id in list(found):
        for gone in by_id[fan_id].excludes:
            found.pop(gone, None)
    return tuple(
        (fan.id, found[fan.id]) for fan in table.fans if fan.id in found and fan.id in counted
    )
