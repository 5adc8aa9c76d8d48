"""Event kinds of the regional mahjong variants beyond paipu log v1 (``docs/regional.md``).

The 开杠 (kong reveal) of Changsha: after declaring a kong while ready, the player turns up two
tiles from the end of the wall instead of drawing one replacement. If either completes his
hand he wins on it (杠上开花, a ``win`` without ``from``); otherwise both tiles lie on the
table and any other player may win on either (杠上炮, a ``win`` with ``from`` the konger).

>>> from paipu.rules.events import decode
>>> decode(["kong_reveal", 2, ["3m", "7p"]])
KongReveal(seat=2, tiles=(2, 15))
>>> decode(["kong_reveal", 2, ["3m", "7p"]]).to_array()
['kong_reveal', 2, ['3m', '7p']]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from paipu.rules.events import Event, EventError, Win, event_kind
from paipu.rules.melds import MeldKind
from paipu.rules.replay import ComputedWin, MissedWin, Phase
from paipu.rules.score import WinFlags
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name, tile_names

if TYPE_CHECKING:
    from paipu.rules.replay import Table

#: Tiles a Changsha 开杠 turns up.
REVEAL_TILES = 2


@event_kind
@dataclass(frozen=True, slots=True)
class KongReveal(Event):
    """长沙 开杠: the seat turns up two tiles from the end of the wall after its kong."""

    kind: ClassVar[str] = "kong_reveal"
    seat: int
    tiles: tuple[Tile, ...]

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or not isinstance(payload, list) or len(payload) != REVEAL_TILES:
            raise EventError(
                f"kong_reveal: a seat and the {REVEAL_TILES} tiles turned up are required, "
                f"not {payload!r}"
            )
        tiles = []
        for name in payload:
            if not isinstance(name, str):
                raise EventError(f"kong_reveal: {name!r} is not a tile")
            try:
                tiles.append(parse_tile(name))
            except TileError as exc:
                raise EventError(f"kong_reveal: {exc}") from None
        return cls(seat, tuple(tiles))

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, tile_names(self.tiles)]


@dataclass(frozen=True, slots=True)
class Reveal:
    """The tiles of a 开杠, lying on the table until the next draw."""

    index: int
    seat: int
    tiles: tuple[Tile, ...]


class KongReveals:
    """The table's part of 开杠: the ``kong_reveal`` event, the wins on its tiles (杠上开花
    for the konger, 杠上炮 for the others, several seats on them: 通炮), and nothing else
    on them (no claims). ``problem(seat)`` is the variant's own condition on a reveal
    (开杠需有将); ``on_win`` is told of each win on the tiles."""

    def __init__(
        self,
        table: Table,
        problem: Callable[[int], str | None],
        on_win: Callable[[ComputedWin], None],
    ) -> None:
        self.table = table
        self.problem = problem
        self.on_win = on_win
        #: The reveal on the table, until the next draw.
        self.pending: Reveal | None = None

    def reveal(self, event: KongReveal) -> None:
        """The handler of ``kong_reveal``: two tiles from the end of the wall instead of one
        replacement draw, right after the seat's kong, with a ready hand."""
        table = self.table
        seat = event.seat
        if table.phase is Phase.ROB and seat == table.turn:  # nobody robbed the added kong
            table.phase = Phase.REPLACE
            table.kong_stands(seat, MeldKind.ADDED_KONG, None)
        if table.phase is not Phase.REPLACE or seat != table.turn or not table.after_kong:
            raise table.fail(
                event, f"seat {seat} may reveal tiles (开杠) only right after its kong"
            )
        if table.wall.left() < REVEAL_TILES:
            raise table.fail(event, f"开杠 turns up {REVEAL_TILES} tiles; the wall has fewer")
        if not table.seats[seat].waits:
            raise table.fail(event, "开杠 needs a ready hand (听牌) after the kong; 补张 instead")
        problem = self.problem(seat)
        if problem:
            raise table.fail(event, problem)
        s = table.seats[seat]
        for tile in event.tiles:
            expected = table.wall.draw(seat, True)
            assert expected is not None
            if expected >= 0 and expected != tile:
                raise table.fail(
                    event, f"the wall gives {tile_name(expected)} here, not {tile_name(tile)}"
                )
            if tile not in table.tile_kinds:
                raise table.fail(event, f"{tile_name(tile)} is not a tile of {table.variant.id}")
            if expected < 0:
                table._see(tile, event)
            s.pool.append(tile)
            s.discards.append(tile)
            table.visible[tile] += 1
        self.pending = Reveal(table.index, seat, event.tiles)
        table.after_kong = False
        table.replacement_from_kong = False
        table.drawn = None
        table.discarder = seat
        table.last_discard = event.tiles[-1]
        table.phase = Phase.CLAIM
        table.notes.append("kong_reveal")
        if table.wall.left() == 0:
            table.haidi_taker = seat
            table.last_wall_tile = event.tiles[-1]
        if table.analytics:
            self._offers(seat, event.tiles)

    def _offers(self, konger: int, tiles: tuple[Tile, ...]) -> None:
        table = self.table
        for tile in dict.fromkeys(tiles):
            answer = table.would_win(konger, tile, None)
            if answer is not None:
                table.offers.append(MissedWin(table.index, konger, tile, None, answer.total or 0))
            for k in range(1, table.players):
                other = (konger + k) % table.players
                answer = table.would_win(other, tile, konger)
                if answer is not None:
                    table.offers.append(
                        MissedWin(table.index, other, tile, konger, answer.total or 0)
                    )

    def move_problem(self, kind: str) -> str | None:
        if self.pending is not None and kind in ("chi", "pong", "kong"):
            return "the tiles of a 开杠 may only be won on, not claimed"
        return None

    def flags(self, tile: Tile, from_seat: int | None) -> WinFlags | None:
        """The situation of a win on the revealed tiles (while they lie on the table)."""
        if self.pending is None:
            return None
        table = self.table
        return WinFlags(
            last_tile=table.variant.replay_last_tile(table, -1, from_seat),
            kong_replacement=from_seat is None,
            last_of_kind=table.visible[tile] - 1 >= 3,
        )

    def takes(self, event: Event) -> bool:
        """A win while the tiles lie on the table is a win on them: applied here."""
        if self.pending is None or type(event) is not Win:
            return False
        self.win(event)  # type: ignore[arg-type]
        return True

    def win(self, event: Win) -> None:
        """A win on a revealed tile: the konger's own (杠上开花) or another's (杠上炮); several
        seats may win on them (通炮), each tile moving to its first winner."""
        table = self.table
        reveal = self.pending
        assert reveal is not None
        seat, tile = event.seat, event.tile
        konger_won = any(w.seat == reveal.seat and w.index > reveal.index for w in table.wins)
        follows = table.index - 1 == reveal.index or (
            bool(table.wins) and table.wins[-1].index == table.index - 1
        )
        if konger_won or table.seats[seat].won or not follows:
            raise table.fail(event, "the hand has already ended")
        if event.from_seat is None and seat != reveal.seat:
            raise table.fail(
                event, f"only seat {reveal.seat} may win by self-draw on its 开杠 tiles"
            )
        if event.from_seat is not None and event.from_seat != reveal.seat:
            raise table.fail(
                event, f"the 开杠 tiles are seat {reveal.seat}'s, not seat {event.from_seat}'s"
            )
        if event.from_seat is None and any(w.index > reveal.index for w in table.wins):
            raise table.fail(event, "another seat has already won on the 开杠 tiles")
        if tile not in reveal.tiles:
            raise table.fail(
                event,
                f"the 开杠 tiles are {' '.join(tile_names(reveal.tiles))}, not {tile_name(tile)}",
            )
        flags = table.win_flags(seat, tile, event.from_seat)
        answer = table.score_win(seat, tile, event.from_seat, flags)
        table.add_win(event, flags, answer, "self_draw" if event.from_seat is None else "discard")
        taken = sum(1 for w in table.wins if w.index > reveal.index and w.tile == tile) > 1
        if not taken:
            pool = table.seats[reveal.seat].pool
            pool.reverse()
            pool.remove(tile)  # the later of two equal tiles
            pool.reverse()
            table.visible[tile] -= 1
            table._give(seat, tile)
        table.phase = Phase.ENDED
        table.win_phase = None
        table.notes.append("kong_bloom" if event.from_seat is None else "kong_discard_win")
        self.on_win(table.wins[-1])
