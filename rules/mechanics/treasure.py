"""The hidden treasure tile (宝牌): taken from the end of the wall after the deal and kept
face down; a seat that has declared ready (听) and draws it may win with it standing for
any tile (摸宝); when three copies of it are visible it is changed (换宝).

The event is the ``indicator`` table event with extra ``{"role": "bao"}``
(``["indicator", null, "5m", {"role": "bao"}]``): the first one right after the deal, before
the first draw, names the wall's last tile; each later one is a 换宝, allowed (and due)
only when three copies of the current 宝 are face up in discards and melds: the old 宝 then
goes to the dealer's discard row (face up) and the wall's new last tile is the 宝.
Replacement draws after a kong come from the end of the wall before it. A 换宝 is due
right after the event that showed the third copy (only a win on that very tile may come
first); with the wall empty there is nothing to change it for.

Who may see it (the seed: only a seat that declared 听) is the reader's matter: the table
knows it from its event on, the replay page shows it from there.

The ``indicator`` event also serves wild tiles (role ``wild``, :mod:`paipu.rules.mechanics.
wilds`): its ``route_indicator`` sends each role to its own handler, so that a variant with
both composes them without either knowing the other (Harbin routes ``bao`` alone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from paipu.rules.events import Event, Indicator, Win
from paipu.rules.tiles import Tile, tile_name
from paipu.rules.wall import UNKNOWN, SharedWall

if TYPE_CHECKING:
    from paipu.rules.replay import Table

#: Visible copies of the 宝 that make it change (换宝).
CHANGE_AT = 3
#: Copies of a tile in the set.
COPIES = 4


class HiddenTreasure:
    """宝 on the table: the current 宝 (None until its indicator), the ones before it, and
    the 换宝 rule."""

    def __init__(self, table: Table, change_at: int = CHANGE_AT) -> None:
        self.table = table
        self.change_at = change_at
        #: The current 宝 (after any 换宝); None before its indicator.
        self.tile: Tile | None = None
        #: Every 宝 in order, the current one last.
        self.history: list[Tile] = []
        #: The event index of each 宝's indicator.
        self.at: list[int] = []
        #: Called after each change (the 宝's first turn-up included) with the new 宝.
        self.listeners: list[Callable[[Tile], None]] = []

    @property
    def changes(self) -> int:
        """How many times the 宝 was changed (换宝)."""
        return max(0, len(self.history) - 1)

    def visible(self, tile: Tile) -> int:
        """Copies of ``tile`` face up: discards in pools, melds, old 宝 in the dealer's row."""
        return self.table.visible[tile]

    def change_due(self) -> bool:
        """Three copies of the current 宝 are face up and the wall still has a tile."""
        tile = self.tile
        return (
            tile is not None and self.visible(tile) >= self.change_at and self.table.wall.left() > 0
        )

    def turn_up(self, event: Indicator) -> None:
        """The handler of an ``indicator`` of role ``bao``: the first 宝, or a 换宝."""
        table = self.table
        wall = table.wall
        if not isinstance(wall, SharedWall):
            raise table.fail(event, "the 宝 is taken from the end of one shared wall")
        old = self.tile
        if old is None:
            if table.discard_count or any(s.draws for s in table.seats):
                raise table.fail(
                    event, "the 宝 is taken right after the deal, before the first draw"
                )
        elif not self.change_due():
            shown = self.visible(old)
            raise table.fail(
                event,
                f"换宝 only when {self.change_at} copies of the 宝 {tile_name(old)} are "
                f"visible ({shown} are)",
            )
        expected = wall.draw(table.record.dealer, replacement=True)
        if expected is None:
            raise table.fail(event, "no tile is left in the wall for the 宝")
        tile = event.tile
        if expected not in (UNKNOWN, tile):
            raise table.fail(
                event,
                f"the 宝 is the last tile of the wall, {tile_name(expected)}, "
                f"not {tile_name(tile)}",
            )
        if tile not in table.tile_kinds:
            raise table.fail(event, f"{tile_name(tile)} is not a tile of {table.variant.id}")
        if expected == UNKNOWN:
            seen = table.seen
            seen[tile] = seen.get(tile, 0) + 1
            if seen[tile] > COPIES:
                raise table.fail(
                    event, f"a copy too many of {tile_name(tile)}: the set has {COPIES}"
                )
        if old is not None:  # the old 宝 goes face up into the dealer's discard row
            table.seats[table.record.dealer].pool.append(old)
            table.visible[old] += 1
            table.notes.append("bao_change")
        self.tile = tile
        self.history.append(tile)
        self.at.append(table.index)
        for listener in self.listeners:
            listener(tile)

    def before(self, event: Event) -> str | None:
        """Why ``event`` may not come now: a 换宝 is due first (a win on the tile that
        showed the third copy excepted); None when it may."""
        if type(event) is Indicator or type(event) is Win or not self.change_due():
            return None
        tile = self.tile
        assert tile is not None
        return (
            f"换宝 is due: {self.visible(tile)} copies of the 宝 {tile_name(tile)} are visible, "
            "so the next event is the new 宝's indicator"
        )

    def tiles_off_seats(self) -> list[Tile]:
        """The current 宝, face down off the wall (the old ones lie in the dealer's pool)."""
        return [] if self.tile is None else [self.tile]

    def drawn_treasure(self, seat: int, tile: Tile, self_drawn: bool) -> bool:
        """Whether a win on ``tile`` is on the 宝 drawn by the winner itself (a discarded 宝
        is an ordinary tile)."""
        return self_drawn and self.tile is not None and tile == self.tile
