"""Bots on any tile set (按牌组的机器人): the family for variants whose tiles are not the 34
standard kinds (十万麻将's 1–10 suits), measuring hands with the core's shanten and waits
(:mod:`paipu.rules.core.shanten`) on the variant's own
:class:`~paipu.rules.core.tiles.TileSet` rather than on the standard tables.

A :class:`TileSetBot` plays one seat through a :class:`~paipu.selfplay.loop.SeatView`:

* **Win** whenever the rules allow it.
* **Discards** lower the shanten; among equal discards the least useful tile goes (pairs,
  neighbours one and two ranks away by the set's own ranks, middle ranks kept); a ready
  hand keeps the discard with the most live copies of waits that are legal wins as the
  scorer counts them.
* **Calls** (chi, pong) when the hand after the call (and its best discard) is closer to
  ready by the style's margin; kongs, claimed or on its own turn, when they keep the
  shanten.
* **Folding** (弃和): a hand far from ready facing a threatening opponent gives up the tile
  that opponent discarded itself (现物) if it holds one. The danger model of the core
  (:meth:`~paipu.selfplay.bots.core.BotCore.danger`) is built on the 34 standard kinds, so
  this family reads only the opponents' threat levels and discards.

Which family plays a variant is its TOML's ``[bot] family`` (``tile_set``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from paipu.rules.core.shanten import natural_shanten, waits
from paipu.rules.core.shapes import Shape
from paipu.rules.core.tiles import TileSet
from paipu.rules.core.wild import WildSpec
from paipu.rules.legal import Move, MoveKind
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.selfplay import Style
from paipu.rules.tiles import Tile
from paipu.selfplay.bots.core import (
    COPIES,
    GAP_VALUE,
    NEAR_VALUE,
    PAIR_VALUE,
    THREAT_FLOOR,
    BotCore,
    StyleParams,
    StyleTable,
    call_meld,
    call_used,
)
from paipu.selfplay.loop import SeatView, TurnMoves

if TYPE_CHECKING:
    from paipu.rules.variants import Options, Variant

#: The styles' numbers (fold threat, fold distance, fold threat when ready, least call
#: gain, safety weight; the last is unused: see the module docstring).
STYLE_PARAMS: StyleTable = {
    Style.AGGRESSIVE: StyleParams(2.0, 9, 2.0, 0.5, 0.0),
    Style.BALANCED: StyleParams(0.6, 3, 2.0, 0.5, 0.0),
    Style.DEFENSIVE: StyleParams(0.5, 2, 2.0, 1.5, 0.0),
}
#: Shapes the core measures on any tile set.
_CORE_SHAPES = frozenset({Shape.STANDARD, Shape.SEVEN_PAIRS})
_CENTRAL_STEP = 0.1
_DISCARD = MoveKind.DISCARD
_KONGS = (MoveKind.CONCEALED_KONG, MoveKind.ADDED_KONG)


class SetFacts:
    """What the bots need of one tile set, built once: each kind's neighbours by rank and
    how central its rank is."""

    def __init__(self, tile_set: TileSet) -> None:
        self.tile_set = tile_set
        self.kinds: tuple[Tile, ...] = tile_set.kinds
        size = tile_set.size
        self.near: list[tuple[Tile, ...]] = [() for _ in range(size)]
        self.gap: list[tuple[Tile, ...]] = [() for _ in range(size)]
        self.central: list[float] = [0.0] * size
        for suit in tile_set.suits:
            last = len(suit) - 1
            for rank, tile in enumerate(suit):
                self.near[tile] = tuple(suit[r] for r in (rank - 1, rank + 1) if 0 <= r <= last)
                self.gap[tile] = tuple(suit[r] for r in (rank - 2, rank + 2) if 0 <= r <= last)
                self.central[tile] = _CENTRAL_STEP * min(rank, last - rank, 3)

    def keep_value(self, counts: Sequence[int], tile: Tile) -> float:
        """What a tile does for the hand: pairs, neighbours, middle ranks."""
        value = PAIR_VALUE * (counts[tile] - 1) + self.central[tile]
        value += NEAR_VALUE * sum(1 for t in self.near[tile] if counts[t])
        value += GAP_VALUE * sum(1 for t in self.gap[tile] if counts[t])
        return value


class TileSetBot(BotCore):
    """One seat's player on any tile set; see the module docstring."""

    def __init__(self, style: Style, facts: SetFacts, shapes: tuple[Shape, ...]) -> None:
        super().__init__(style, STYLE_PARAMS[style])
        self.facts = facts
        self.wilds = WildSpec.none(facts.tile_set)
        self.shapes = shapes
        self.legal: dict[tuple[tuple[int, ...], int, Tile], float] = {}
        self.call_counts: list[int] = []
        self.call_melds: list[Meld] = []

    def _shapes(self, melds: int) -> tuple[Shape, ...]:
        return self.shapes if not melds else (Shape.STANDARD,)

    def _shanten(self, counts: list[int], melds: int) -> int:
        return natural_shanten(counts, 0, self.facts.tile_set, melds, self._shapes(melds))

    # -- own turn

    def turn(self, view: SeatView, moves: TurnMoves) -> Move:
        win = moves.self_drawn_win()
        if win is not None:
            return win
        counts = view.hand()
        melds = view.melds()
        if view.drawn is not None and (
            COPIES in counts or any(m.kind is MeldKind.PONG and counts[m.base] for m in melds)
        ):
            kong = self._kong(counts, len(melds), moves.kongs())
            if kong is not None:
                return kong
        tile = self._discard(view, counts, len(melds))
        move = moves.discard(tile)
        if move is not None:
            return move
        discards = moves.discards()
        return min(discards, key=lambda m: (self.facts.keep_value(counts, m.tiles[0]), m.tiles[0]))

    def _kong(self, counts: list[int], melds: int, kongs: list[Move]) -> Move | None:
        """A listed kong that keeps the shanten."""
        before = min(self._after_discards(counts, melds))
        for move in kongs:
            tile = move.tiles[0]
            taken = COPIES if move.kind is MoveKind.CONCEALED_KONG else 1
            counts[tile] -= taken
            after = self._shanten(counts, melds + (1 if taken == COPIES else 0))
            counts[tile] += taken
            if after <= before:
                return move
        return None

    def _after_discards(self, counts: list[int], melds: int) -> list[int]:
        out = []
        for tile in self.facts.kinds:
            if counts[tile]:
                counts[tile] -= 1
                out.append(self._shanten(counts, melds))
                counts[tile] += 1
        return out

    def _discard(self, view: SeatView, counts: list[int], melds: int) -> Tile:
        facts = self.facts
        rows: list[tuple[int, float, Tile]] = []
        for tile in facts.kinds:
            if counts[tile]:
                use = facts.keep_value(counts, tile)
                counts[tile] -= 1
                rows.append((self._shanten(counts, melds), use, tile))
                counts[tile] += 1
        rows.sort()
        least = rows[0][0]
        if least == 0:
            ready = self._ready_choice(view, counts, melds, [t for s, _, t in rows if s == 0])
            if ready is not None:
                return ready
        self.threats(view)
        params = self.params
        if least >= params.fold_distance and self.threat_level >= params.fold_threat:
            safe = self._fold_tile(view, counts)
            if safe is not None:
                return safe
        return rows[0][2]

    def _fold_tile(self, view: SeatView, counts: list[int]) -> Tile | None:
        """The held tile the most threatening opponents discarded themselves (现物)."""
        best: tuple[float, float, Tile] | None = None
        for threat in self.threat_list:
            if threat.level < THREAT_FLOOR:
                continue
            for tile in set(view.discards(threat.seat)):
                if counts[tile]:
                    key = (-threat.level, self.facts.keep_value(counts, tile), tile)
                    if best is None or key < best:
                        best = key
        return None if best is None else best[2]

    def _ready_choice(
        self, view: SeatView, counts: list[int], melds: int, candidates: list[Tile]
    ) -> Tile | None:
        """Of the discards that keep the hand ready, the one with the most live copies of
        legal waits."""
        seen = view.seen()
        found: list[tuple[float, Tile]] = []
        for tile in candidates:
            counts[tile] -= 1
            tiles = waits(counts, self.wilds, melds, self._shapes(melds))
            if tiles:
                key = tuple(counts)
                value = sum(
                    max(0, COPIES - seen[w]) * self._legal(view, key, melds, w) for w in tiles
                )
                if value > 0:
                    found.append((value, tile))
            counts[tile] += 1
        if not found:
            return None
        return max(found, key=lambda item: (item[0], -item[1]))[1]

    def _legal(self, view: SeatView, key: tuple[int, ...], melds: int, wait: Tile) -> float:
        """1 when a win on ``wait`` is legal on a discard, 0.5 when only by self-draw, else 0."""
        known = self.legal.get((key, melds, wait))
        if known is None:
            tiles = [t for t, n in enumerate(key) for _ in range(n)]
            if view.score_if(tiles, wait, self_drawn=False).legal:
                known = 1.0
            else:
                known = 0.5 if view.score_if(tiles, wait, self_drawn=True).legal else 0.0
            self.legal[key, melds, wait] = known
        return known

    # -- claims (the decision is the core's: BotCore.claim)

    def call_start(self, view: SeatView, tile: Tile) -> float | None:
        self.call_counts = view.hand()
        self.call_melds = list(view.melds())
        return float(self._shanten(self.call_counts, len(self.call_melds)))

    def call_gain(
        self, view: SeatView, option: Move, tile: Tile, from_seat: int, now: float
    ) -> float | None:
        after = self.call_counts.copy()
        for t in call_used(option, tile):
            after[t] -= 1
        melds = len([*self.call_melds, call_meld(option, tile, from_seat)])
        if option.kind is MoveKind.KONG:
            distance = self._shanten(after, melds)
        else:
            distance = min(self._after_discards(after, melds))
        gain = now - distance
        if option.kind is MoveKind.KONG:  # a replacement draw for free: whenever it keeps pace
            return gain if gain >= 0 else None
        return gain if gain >= self.params.call_gain else None


def make_bots(variant: Variant, options: Options, styles: Sequence[Style]) -> list[TileSetBot]:
    """A bot per seat, on the variant's tile set (the standard set where it has none)."""
    tile_set = variant.replay_tile_set(options) or TileSet.from_toml(variant.spec.tiles)
    ordered = sorted(variant.replay_shapes(), key=lambda s: s.value)
    shapes = tuple(s for s in ordered if s in _CORE_SHAPES)
    if "seven_pairs" in options and options["seven_pairs"] and Shape.SEVEN_PAIRS not in shapes:
        shapes = (*shapes, Shape.SEVEN_PAIRS)
    facts = SetFacts(tile_set)
    return [TileSetBot(style, facts, shapes or (Shape.STANDARD,)) for style in styles]
