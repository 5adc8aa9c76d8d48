"""换三张 (exchange three): before the void suits (定缺) every seat passes three tiles of one
suit to another seat, all at once, in one direction for the table.

The direction is where the tiles travel, seats numbered in turn order (East 0, South 1 …,
play passing from a seat to the next, its 下家): ``next`` gives to the next seat (下家),
``previous`` to the seat before (上家), ``across`` to the seat opposite (对家). A room plays
one direction, or lets the dice choose one for each hand (``dice``); a 3-player table has no
``across``. The log writes it as one table event, each seat's three tiles by seat:

>>> from paipu.rules.events import decode
>>> event = decode(["exchange", None, "next", {"tiles": [["1m", "2m", "9m"], ["3p"] * 3,
...     ["4s", "5s", "5s"], ["7m", "8m", "8m"]]}])
>>> event.direction, [len(t) for t in event.tiles]
('next', [3, 3, 3, 3])
>>> event.to_array()[:3]
['exchange', None, 'next']
>>> receiver(0, "next", 4), receiver(0, "previous", 4), receiver(1, "across", 4)
(1, 3, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from paipu.rules.events import Draw, Event, EventError, event_kind
from paipu.rules.mechanics.void_suit import SUIT_SIZE
from paipu.rules.tiles import (
    Tile,
    TileError,
    format_tiles,
    is_suited,
    parse_tile,
    tile_name,
    tile_names,
)

if TYPE_CHECKING:
    from paipu.rules.replay import Table

#: Tiles each seat passes.
PASSED = 3
#: Each direction as the seats it moves the tiles on, in turn order.
OFFSETS: Mapping[str, int] = {"next": 1, "previous": -1, "across": 2}
#: The option's values: no exchange, one direction, or the dice choosing one per hand.
SETTINGS = ("off", *OFFSETS, "dice")


def receiver(seat: int, direction: str, players: int) -> int:
    """The seat that receives ``seat``'s three tiles."""
    return (seat + OFFSETS[direction]) % players


def directions(players: int) -> tuple[str, ...]:
    """The directions a table of ``players`` can pass in (across needs an even table)."""
    return tuple(d for d in OFFSETS if d != "across" or players % 2 == 0)


@event_kind
@dataclass(frozen=True, slots=True)
class Exchange(Event):
    """换三张: every seat's three tiles (by seat) passed in ``direction``."""

    kind: ClassVar[str] = "exchange"
    direction: str
    tiles: tuple[tuple[Tile, ...], ...]

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is not None:
            raise EventError("exchange: a table event (seat null)")
        if payload not in OFFSETS:
            raise EventError(
                f"exchange: the direction is one of {', '.join(OFFSETS)}, not {payload!r}"
            )
        groups = extra.get("tiles")
        if not isinstance(groups, list) or not groups:
            raise EventError('exchange: extra {"tiles": [[three tiles], …]} by seat is required')
        out = []
        for group in groups:
            if not isinstance(group, list) or len(group) != PASSED:
                raise EventError(f"exchange: each seat passes {PASSED} tiles, not {group!r}")
            try:
                out.append(tuple(parse_tile(name) for name in group))
            except (TileError, TypeError) as exc:
                raise EventError(f"exchange: {exc}") from None
        return cls(str(payload), tuple(out))

    def to_array(self) -> list[Any]:
        return [self.kind, None, self.direction, {"tiles": [tile_names(g) for g in self.tiles]}]


class ThreeTileExchange:
    """The table's part of 换三张 under the room's ``setting`` (one of :data:`SETTINGS`):
    the ``exchange`` event, checked and carried out, and the rule that it comes first."""

    def __init__(self, table: Table, setting: str) -> None:
        self.table = table
        self.setting = setting
        self.done = False

    def exchange(self, event: Exchange) -> None:
        """Every seat gives its three tiles of one suit, all at once."""
        table = self.table
        if self.setting == "off":
            raise table.fail(event, "this room plays no 换三张 (option exchange_three = off)")
        if self.done:
            raise table.fail(event, "换三张 happens once a hand")
        if table.discard_count or table.calls or table.wins:
            raise table.fail(event, "换三张 comes before the first discard")
        if self.setting not in ("dice", event.direction):
            rule = f"this room passes {self.setting} (option exchange_three), not {event.direction}"
            raise table.fail(event, rule)
        players = table.players
        if event.direction not in directions(players):
            raise table.fail(event, f"a table of {players} cannot pass {event.direction}")
        if len(event.tiles) != players:
            raise table.fail(event, f"换三张: every seat passes three tiles ({players} seats)")
        for seat, group in enumerate(event.tiles):
            suits = {t // SUIT_SIZE if is_suited(t) else -1 for t in group}
            if len(suits) != 1 or -1 in suits:
                rule = f"seat {seat} passes three tiles of one suit, not {format_tiles(group)}"
                raise table.fail(event, rule)
            hand = table.seats[seat].hand
            for t in set(group):
                if hand[t] < group.count(t):
                    raise table.fail(
                        event, f"seat {seat} passes {tile_name(t)}, which it does not hold"
                    )
        for seat, group in enumerate(event.tiles):
            hand = table.seats[seat].hand
            for t in group:
                hand[t] -= 1
        for seat, group in enumerate(event.tiles):
            hand = table.seats[receiver(seat, event.direction, players)].hand
            for t in group:
                hand[t] += 1
        for seat in range(players):
            table.refresh_waits(seat)
        self.done = True
        table.notes.append(f"exchange:{event.direction}")

    def check_done(self, event: Event) -> None:
        """Where the room plays it, nothing but the dealer's first draw comes before it."""
        if self.done or self.setting == "off" or type(event) is Draw or type(event) is Exchange:
            return
        raise self.table.fail(event, "换三张 comes first: the exchange event is missing")
