"""What Botzone's two MCR log formats share: tile codes, fan names and the hand builder.

Botzone (botzone.org.cn) writes tiles as a suit letter and a rank (``../shared/spec/
botzone-formats.md``): ``W`` characters 万, ``B`` dots 饼, ``T`` bamboo 条, ``F1``-``F4``
the winds, ``J1``-``J3`` the dragons **red, green, white** (note the order) and
``H1``-``H8`` the flowers.

>>> [tile_name(botzone_tile(code)) for code in ("W1", "B9", "T5", "F4", "J1", "J3", "H2")]
['1m', '9p', '5s', '4z', '7z', '5z', '2f']
>>> botzone_tile("X9")
Traceback (most recent call last):
...
paipu.parsers.botzone_common.BotzoneError: unknown tile code 'X9'

Fans are recorded under their Chinese names and mapped to the ids of the MCR fan table
(``rules/variants/mcr/mcr.toml``), older spellings included:

>>> recorded_fan("边张", 1), recorded_fan("混一色", 1, value=6)
(RecordedFan(id='edge_wait', points=1, count=1), RecordedFan(id='half_flush', points=6, count=1))

:class:`HandBuilder` turns the actions both formats share into paipu events, working out
what a claim took (the last discard) and where a win came from:

>>> b = HandBuilder()
>>> b.discard(3, botzone_tile("T4"))
>>> b.chi(0, botzone_tile("T5"))
>>> b.discard(0, botzone_tile("W7"))
>>> b.win(1, botzone_tile("W7"))
Win(seat=1, tile=6, from_seat=0)
>>> [e.to_array() for e in b.events]  # doctest: +NORMALIZE_WHITESPACE
[['discard', 3, '4s'], ['chi', 0, ['4s', '5s', '6s']], ['discard', 0, '7m'],
 ['win', 1, '7m', {'from': 0}]]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from paipu.rules.events import (
    AddedKong,
    Chi,
    ConcealedKong,
    Discard,
    Draw,
    Event,
    Flower,
    Kong,
    Pong,
    Win,
)
from paipu.rules.fans import FanDef
from paipu.rules.record import HandRecord, RecordedFan, RecordedResult, RecordedWin
from paipu.rules.tiles import (
    EAST,
    FLOWER_FIRST,
    GREEN,
    MAN,
    PIN,
    RED,
    SOU,
    WHITE,
    Tile,
    is_flower,
    is_suited,
    rank_of,
    tile_name,
)
from paipu.rules.variants import VariantSpec

SEATS = 4
DEAL_SIZE = 13
VARIANT = "mcr"
#: Botzone deals every seat from its own wall (``wall`` option of mcr.toml).
RULES: Mapping[str, str] = {"wall": "duplicate"}


class BotzoneError(ValueError):
    """Content of a Botzone log that cannot become a paipu hand; ``line`` where known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _build_codes() -> dict[str, Tile]:
    codes: dict[str, Tile] = {}
    for letter, first in (("W", MAN), ("B", PIN), ("T", SOU)):
        for rank in range(1, 10):
            codes[f"{letter}{rank}"] = first + rank - 1
    for rank in range(1, 5):
        codes[f"F{rank}"] = EAST + rank - 1
    codes.update({"J1": RED, "J2": GREEN, "J3": WHITE})
    for rank in range(1, 9):
        codes[f"H{rank}"] = FLOWER_FIRST + rank - 1
    return codes


_CODES: dict[str, Tile] = _build_codes()
#: Botzone tile code → paipu tile, for readers that look codes up themselves.
TILE_CODES: Mapping[str, Tile] = _CODES


def botzone_tile(code: Any) -> Tile:
    """The paipu tile of a Botzone tile code such as ``"T5"``; :class:`BotzoneError` if unknown."""
    tile = _CODES.get(code) if isinstance(code, str) else None
    if tile is None:
        raise BotzoneError(f"unknown tile code {code!r}")
    return tile


def botzone_tiles(codes: Iterable[Any]) -> tuple[Tile, ...]:
    """The paipu tiles of several Botzone tile codes."""
    codes = tuple(codes)
    try:  # the usual case, every code known: one look-up each
        return tuple(map(_CODES.__getitem__, codes))
    except (KeyError, TypeError):  # an unknown or unhashable code, named by botzone_tile
        return tuple(botzone_tile(code) for code in codes)


#: Older or shorter spellings of fan names found in published Botzone logs.
FAN_ALIASES: Mapping[str, str] = {
    "边张": "edge_wait",
    "嵌张": "closed_wait",
    "坎张": "closed_wait",
    "单钓将": "single_wait",
    "单钓": "single_wait",
    "花牌": "flower_tiles",
}


@cache
def _fans_by_name() -> dict[str, FanDef]:
    table = VariantSpec.load(VARIANT).fans
    by_name = {fan.name_zh: fan for fan in table.fans}
    for alias, fan_id in FAN_ALIASES.items():
        by_name.setdefault(alias, table.by_id[fan_id])
    return by_name


def recorded_fan(name: str, count: int, value: int | None = None) -> RecordedFan:
    """A fan recorded as ``name`` × ``count``; ``value`` (points each) must match the table."""
    fan = _fans_by_name().get(name)
    if fan is None:
        raise BotzoneError(f"unknown fan name {name!r}")
    if value is not None and value != fan.points:
        raise BotzoneError(
            f"fan {name!r} is recorded at {value} points; the MCR table gives {fan.points}"
        )
    return RecordedFan(fan.id, fan.points, count)


def win_result(
    win: Win, total: int, fans: Iterable[RecordedFan], deltas: Iterable[int]
) -> RecordedResult:
    """The recorded result of a won hand."""
    recorded = RecordedWin(win.seat, win.from_seat, win.tile, total, tuple(fans))
    return RecordedResult("win", (recorded,), tuple(deltas))


def draw_result(deltas: Iterable[int] = (0,) * SEATS) -> RecordedResult:
    """The recorded result of an exhaustive draw (荒庄)."""
    return RecordedResult("draw", (), tuple(deltas))


def check_seat(seat: Any) -> int:
    """A seat number 0-3."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise BotzoneError(f"{seat!r} is not a seat 0-{SEATS - 1}")
    return seat


def check_deal(seat: int, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """A seat's deal, which the format guarantees to be 13 tiles."""
    if len(tiles) != DEAL_SIZE:
        raise BotzoneError(f"seat {seat} is dealt {len(tiles)} tiles, not {DEAL_SIZE}")
    return tiles


def _draw_events(seat: int, tile: Tile) -> tuple[Event, ...]:
    """The events of a draw: a flower is set aside at once (its replacement is the next
    draw)."""
    return (Draw(seat, tile), Flower(seat, tile)) if is_flower(tile) else (Draw(seat, tile),)


#: The events of every draw and discard a seat can make. Events are immutable values, so
#: the hands of a corpus share these few hundred instead of allocating one per line.
DRAW_EVENTS: Mapping[tuple[int, Tile], tuple[Event, ...]] = {
    (seat, tile): _draw_events(seat, tile) for seat in range(SEATS) for tile in _CODES.values()
}
DISCARD_EVENTS: Mapping[tuple[int, Tile], Discard] = {
    (seat, tile): Discard(seat, tile) for seat in range(SEATS) for tile in _CODES.values()
}


#: The claims' and wins' events, made once for each seat and tile (a chi: its middle
#: tile; a win: and the seat it is won from) as the hands first hold them, then shared like
#: the draws' and discards' (a frozen dataclass's ``__init__`` cost more than the rest of a
#: claim's line, and the rows encode a shared event once, by its identity). A few hundred
#: at most.
_CHI_EVENTS: dict[tuple[int, Tile], Chi] = {}
_PONG_EVENTS: dict[tuple[int, Tile], Pong] = {}
_KONG_EVENTS: dict[tuple[int, Tile], Kong] = {}
_WIN_EVENTS: dict[tuple[int, Tile, int | None], Win] = {}


@dataclass
class HandBuilder:
    """Collects a hand's events, working out the claimed tile and the source of a win."""

    events: list[Event] = field(default_factory=list)

    def draw(self, seat: int, tile: Tile) -> None:
        """A draw; a flower is set aside at once (its replacement is the next draw)."""
        events = DRAW_EVENTS.get((seat, tile))
        self.events.extend(events if events is not None else _draw_events(seat, tile))

    def discard(self, seat: int, tile: Tile) -> None:
        event = DISCARD_EVENTS.get((seat, tile))
        self.events.append(event if event is not None else Discard(seat, tile))

    def _claimed(self, what: str) -> Discard:
        last = self.events[-1] if self.events else None
        if not isinstance(last, Discard):
            after = f"a {last.kind}" if last is not None else "the deal"
            raise BotzoneError(f"{what} must claim a discard but follows {after}")
        return last

    def chi(self, seat: int, middle: Tile) -> None:
        """A chi named by its middle tile; the claimed tile is the last discard."""
        claimed = self._claimed("chi")
        if not is_suited(middle) or rank_of(middle) in (1, 9):
            raise BotzoneError(f"chi with middle tile {tile_name(middle)}: no run has it there")
        run = (middle - 1, middle, middle + 1)
        if claimed.tile not in run:
            raise BotzoneError(
                f"chi {'-'.join(tile_name(t) for t in run)} (middle {tile_name(middle)}) "
                f"cannot use the last discard {tile_name(claimed.tile)}"
            )
        event = _CHI_EVENTS.get((seat, middle))
        if event is None:
            event = _CHI_EVENTS[seat, middle] = Chi(seat, run)
        self.events.append(event)

    def pong(self, seat: int, tile: Tile | None = None) -> None:
        """A pung of the last discard; ``tile``, where the log names one, must be it."""
        claimed = self._claim_same("pong", tile)
        event = _PONG_EVENTS.get((seat, claimed))
        if event is None:
            event = _PONG_EVENTS[seat, claimed] = Pong(seat, claimed)
        self.events.append(event)

    def kong(self, seat: int, tile: Tile | None = None) -> None:
        """An exposed kong of the last discard."""
        claimed = self._claim_same("kong", tile)
        event = _KONG_EVENTS.get((seat, claimed))
        if event is None:
            event = _KONG_EVENTS[seat, claimed] = Kong(seat, claimed)
        self.events.append(event)

    def _claim_same(self, what: str, tile: Tile | None) -> Tile:
        claimed = self._claimed(what)
        if tile is not None and tile != claimed.tile:
            raise BotzoneError(
                f"{what} of {tile_name(tile)} but the last discard is {tile_name(claimed.tile)}"
            )
        return claimed.tile

    def concealed_kong(self, seat: int, tile: Tile) -> None:
        self.events.append(ConcealedKong(seat, tile))

    def added_kong(self, seat: int, tile: Tile) -> None:
        self.events.append(AddedKong(seat, tile))

    def win(self, seat: int, named: Tile | None = None) -> Win:
        """The win of ``seat``, on its own draw, another seat's discard or added kong.

        The tile of a self-draw is the drawn tile whatever ``named`` says (some published
        copies name the previous discard there); on a discard or a robbed kong a named tile
        must be the one claimed.
        """
        last = self.events[-1] if self.events else None
        if isinstance(last, Draw) and last.seat == seat:
            key: tuple[int, Tile, int | None] = (seat, last.tile, None)
        elif isinstance(last, Discard | AddedKong) and last.seat != seat:
            if named is not None and named != last.tile:
                raise BotzoneError(
                    f"win on {tile_name(named)} but seat {last.seat}'s {last.kind} "
                    f"before it is {tile_name(last.tile)}"
                )
            key = (seat, last.tile, last.seat)
        else:
            after = f"seat {last.seat}'s {last.kind}" if last is not None else "the deal"
            raise BotzoneError(
                f"seat {seat}'s win follows {after}, not its own draw or another seat's "
                "discard or added kong"
            )
        win = _WIN_EVENTS.get(key)
        if win is None:
            win = _WIN_EVENTS[key] = Win(*key)
        self.events.append(win)
        return win

    def record(
        self,
        *,
        game: str,
        players: tuple[str, ...],
        round_wind: Tile,
        deal: tuple[tuple[Tile, ...], ...],
        result: RecordedResult,
        source: Mapping[str, Any],
        wall: tuple[Tile, ...] | None = None,
    ) -> HandRecord:
        """The finished hand (dealer 0: seat 0 draws first, seat ``i`` has wind ``i``)."""
        return HandRecord(
            variant=VARIANT,
            game=game,
            hand=0,
            players=players,
            dealer=0,
            deal=deal,
            events=tuple(self.events),
            round_wind=round_wind,
            rules=dict(RULES),
            wall=wall,
            result=result,
            source=dict(source),
        )


def round_wind(quan: Any) -> Tile:
    """The prevalent wind of Botzone's ``Wind`` / ``quan``: 0-3 = East, South, West, North."""
    if isinstance(quan, str) and quan in ("0", "1", "2", "3"):
        quan = int(quan)
    if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan <= 3:
        raise BotzoneError(f"prevalent wind {quan!r} is not 0-3 (East, South, West, North)")
    return EAST + quan
