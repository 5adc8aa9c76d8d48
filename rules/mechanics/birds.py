"""Birds (扎鸟 / 抓鸟): tiles turned up after a win; each lands on a seat and raises what the
payers it hits pay. Composed by the 108-tile Hunan games (docs/regional.md): the
arithmetic (:func:`bird_seat`, :func:`bird_amount`, :func:`bird_hits`) and the table's
part (:class:`Birds`: the ``bird`` event and the wins it changes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Bird
from paipu.rules.replay import Phase
from paipu.rules.tiles import Tile, tile_name, tile_names

if TYPE_CHECKING:
    from paipu.rules.replay import ComputedWin, Table


class BirdMode(StrEnum):
    """How birds (扎鸟) that hit a payer change what it pays."""

    MULTIPLY = "multiply"  # ×2 per hit (乘法翻倍)
    ONE_PLUS_HITS = "one_plus_hits"  # ×(1 + hits) (加法翻倍, 扎1鸟×2 / 扎2鸟×3)
    ADD_POINT = "add_point"  # +1 per hit (中鸟加分)
    SEED_LITERAL = "seed_literal"  # ×max(1, hits): the 转转 seed's own arithmetic


def bird_seat(tile: Tile, origin: int, players: int) -> int:
    """The seat a bird lands on: rank r counts (r − 1) seats on from ``origin`` (1/5/9 the
    origin itself, 2/6 the next seat, 3/7 the one opposite, 4/8 the previous seat).

    >>> bird_seat(4, 1, 4), bird_seat(20, 1, 4)  # 5m → seat 1 itself; 3s → two on: seat 3
    (1, 3)
    """
    return (origin + tile % 9) % players


def bird_amount(amount: int, hits: int, mode: BirdMode) -> int:
    """What a payer pays once ``hits`` birds hit it.

    >>> [bird_amount(2, 3, m) for m in BirdMode]
    [16, 8, 5, 6]
    """
    if mode is BirdMode.MULTIPLY:
        return amount * 2**hits
    if mode is BirdMode.ONE_PLUS_HITS:
        return amount * (1 + hits)
    if mode is BirdMode.ADD_POINT:
        return amount + hits
    return amount * max(1, hits)


def bird_hits(birds: Sequence[Tile], origin: int, winner: int, payer: int, players: int) -> int:
    """Birds that hit one payer: those on the winner and those on the payer itself."""
    seats = [bird_seat(t, origin, players) for t in birds]
    return sum(1 for s in seats if s == winner) + sum(1 for s in seats if s == payer)


class Birds:
    """扎鸟 on the table: after the win(s) the next tiles of the wall are turned up (the
    ``bird`` table event; not drawn: the hand is over); with fewer left, those there are;
    with none, the 海底 tile. Each win's deltas are worked out again with them
    (``rescore``), and its detail lists them with the seat each lands on."""

    def __init__(
        self,
        table: Table,
        count: int,
        rescore: Callable[[ComputedWin, tuple[Tile, ...]], tuple[int, ...]],
        origin: Callable[[ComputedWin], int],
    ) -> None:
        self.table = table
        self.count = count
        self.rescore = rescore
        self.origin = origin
        #: The birds turned up, once they are.
        self.tiles: tuple[Tile, ...] | None = None

    def turn_up(self, event: Bird) -> None:
        """The handler of the ``bird`` event."""
        table = self.table
        if not table.wins or table.phase is not Phase.ENDED:
            raise table.fail(event, "the birds (扎鸟) are turned up after the win")
        if self.tiles is not None:
            raise table.fail(event, "the birds of this hand are already turned up")
        if not self.count:
            raise table.fail(event, "this room plays without birds (option birds = 0)")
        left = table.wall.left()
        count = min(self.count, left) if left else 1
        if len(event.tiles) != count:
            raise table.fail(event, f"{count} bird(s) are turned up here, not {len(event.tiles)}")
        if any(t not in table.tile_kinds for t in event.tiles):
            raise table.fail(event, f"birds are tiles of {table.variant.id}")
        if not left:
            last = table.last_wall_tile
            if last is not None and event.tiles != (last,):
                raise table.fail(
                    event, f"with the wall empty the bird is the 海底 tile {tile_name(last)}"
                )
        elif table.wall.known_tiles():
            expected = tuple(table.wall.remaining()[:count])
            if expected != event.tiles:
                raise table.fail(
                    event, f"the wall's next tiles are {' '.join(tile_names(expected))}"
                )
        else:
            for tile in event.tiles:
                table._see(tile, event)
        self.tiles = event.tiles
        for i, win in enumerate(table.wins):
            table.wins[i] = replace(
                win,
                deltas=self.rescore(win, event.tiles),
                detail={**win.detail, **self.detail(win)},
            )
        table.notes.append("birds")

    def detail(self, win: ComputedWin) -> dict[str, Any]:
        """The birds for a win's ``detail`` (``wins.detail``): the tiles and the seat each
        lands on, counted from this win's origin (the reports show whom they hit)."""
        birds = self.tiles or ()
        origin = self.origin(win)
        players = self.table.players
        return {
            "birds": tile_names(birds),
            "bird_seats": [bird_seat(t, origin, players) for t in birds],
        }

    def check_settled(self) -> None:
        """A hand with a win and birds to turn up has its ``bird`` event."""
        table = self.table
        if table.wins and self.count and self.tiles is None:
            raise table.fail(None, "the birds (扎鸟) are missing: a bird event follows the win")
