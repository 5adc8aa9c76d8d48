"""The event schema of paipu log v1: one frozen dataclass per event kind.

An event is stored as a JSON array ``[kind, seat, payload, extra]`` (trailing parts may
be left out; ``seat`` is null for table events). :func:`decode` turns an array into an
event and checks every field; :meth:`Event.to_array` writes it back. Variants that need
more kinds (the zipai games) register them with :func:`event_kind`.

>>> decode(["win", 1, "6p", {"from": 2}])
Win(seat=1, tile=14, from_seat=2)
>>> decode(["chi", 2, ["4s", "5s", "6s"]]).to_array()
['chi', 2, ['4s', '5s', '6s']]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name, tile_names


class EventError(ValueError):
    """An event array that does not fit the schema."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``seat`` is None for table events."""

    kind: ClassVar[str] = ""
    table_event: ClassVar[bool] = False

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        raise NotImplementedError

    def to_array(self) -> list[Any]:
        raise NotImplementedError


_E = TypeVar("_E", bound=type[Event])
EVENT_KINDS: dict[str, type[Event]] = {}


def event_kind(cls: _E) -> _E:
    """Class decorator: register an event class under its ``kind``."""
    if cls.kind in EVENT_KINDS:
        raise EventError(f"event kind {cls.kind!r} registered twice")
    EVENT_KINDS[cls.kind] = cls
    return cls


def _tile(payload: Any, kind: str) -> Tile:
    if not isinstance(payload, str):
        raise EventError(f'{kind}: the payload must be one tile such as "5p", not {payload!r}')
    try:
        return parse_tile(payload)
    except TileError as exc:
        raise EventError(f"{kind}: {exc}") from None


def _tiles(payload: Any, kind: str) -> tuple[Tile, ...]:
    if not isinstance(payload, list):
        raise EventError(f"{kind}: the payload must be a list of tiles, not {payload!r}")
    return tuple(_tile(t, kind) for t in payload)


def _seat_array(kind: str, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> list[Any]:
    out: list[Any] = [kind, seat, payload]
    if extra:
        out.append(dict(extra))
    return out


@dataclass(frozen=True, slots=True)
class _TileEvent(Event):
    seat: int
    tile: Tile

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None:
            raise EventError(f"{cls.kind}: a seat is required")
        return cls(seat, _tile(payload, cls.kind))  # type: ignore[call-arg]

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, tile_name(self.tile)]


@event_kind
@dataclass(frozen=True, slots=True)
class Draw(_TileEvent):
    """The seat draws a tile (摸牌), also the replacement draw after a kong or flower."""

    kind: ClassVar[str] = "draw"


@event_kind
@dataclass(frozen=True, slots=True)
class Discard(_TileEvent):
    """The seat discards a tile (打牌)."""

    kind: ClassVar[str] = "discard"


@event_kind
@dataclass(frozen=True, slots=True)
class Pong(_TileEvent):
    """The seat claims the last discard to make a pung (碰)."""

    kind: ClassVar[str] = "pong"


@event_kind
@dataclass(frozen=True, slots=True)
class Kong(_TileEvent):
    """The seat claims the last discard to make an exposed kong (明杠)."""

    kind: ClassVar[str] = "kong"


@event_kind
@dataclass(frozen=True, slots=True)
class AddedKong(_TileEvent):
    """The seat adds a tile to its own exposed pung (加杠 / 补杠)."""

    kind: ClassVar[str] = "added_kong"


@event_kind
@dataclass(frozen=True, slots=True)
class ConcealedKong(_TileEvent):
    """The seat declares a kong of four concealed tiles (暗杠)."""

    kind: ClassVar[str] = "concealed_kong"


@event_kind
@dataclass(frozen=True, slots=True)
class Flower(_TileEvent):
    """The seat sets a flower aside (补花); a replacement draw follows."""

    kind: ClassVar[str] = "flower"


@event_kind
@dataclass(frozen=True, slots=True)
class Chi(Event):
    """The seat claims the last discard to make a run (吃), claimed tile included.

    ``bi``: zipai only, the further sets of three (比牌) the seat must lay down with the
    chi, written as extra ``{"bi": [[t1, t2, t3], …]}``; empty in mahjong.
    """

    kind: ClassVar[str] = "chi"
    seat: int
    tiles: tuple[Tile, Tile, Tile]
    bi: tuple[tuple[Tile, ...], ...] = ()

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        tiles = _tiles(payload, cls.kind)
        if seat is None or len(tiles) != 3:
            raise EventError("chi: a seat and three tiles are required")
        bi_raw = extra.get("bi", [])
        if not isinstance(bi_raw, list):
            raise EventError(f"chi: 'bi' must be a list of sets of three, not {bi_raw!r}")
        bi = tuple(sorted(tuple(sorted(_tiles(s, cls.kind))) for s in bi_raw))
        if any(len(s) != 3 for s in bi):
            raise EventError("chi: each 'bi' (比) set has three tiles")
        return cls(seat, tuple(sorted(tiles)), bi)  # type: ignore[arg-type]

    def to_array(self) -> list[Any]:
        extra = {"bi": [tile_names(s) for s in self.bi]} if self.bi else {}
        return _seat_array(self.kind, self.seat, tile_names(self.tiles), extra)


@event_kind
@dataclass(frozen=True, slots=True)
class Win(Event):
    """The seat wins (和牌) on ``tile``; ``from_seat`` is None for a self-draw."""

    kind: ClassVar[str] = "win"
    seat: int
    tile: Tile
    from_seat: int | None = None

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None:
            raise EventError("win: a seat is required")
        from_seat = extra.get("from")
        if from_seat is not None and (not isinstance(from_seat, int) or from_seat < 0):
            raise EventError(f"win: 'from' must be a seat number, not {from_seat!r}")
        return cls(seat, _tile(payload, cls.kind), from_seat)

    def to_array(self) -> list[Any]:
        extra = {} if self.from_seat is None else {"from": self.from_seat}
        return _seat_array(self.kind, self.seat, tile_name(self.tile), extra)


@event_kind
@dataclass(frozen=True, slots=True)
class Void(Event):
    """The seat declares its void suit (定缺, Sichuan): ``m``, ``p`` or ``s``."""

    kind: ClassVar[str] = "void"
    seat: int
    suit: str

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or payload not in ("m", "p", "s"):
            raise EventError(f"void: a seat and a suit m, p or s are required, not {payload!r}")
        return cls(seat, payload)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, self.suit]


@event_kind
@dataclass(frozen=True, slots=True)
class Ready(Event):
    """The seat declares a ready hand (报听 / 敲 / 听牌)."""

    kind: ClassVar[str] = "ready"
    seat: int

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None:
            raise EventError("ready: a seat is required")
        return cls(seat)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat]


@event_kind
@dataclass(frozen=True, slots=True)
class Indicator(Event):
    """Table event revealing a wildcard or treasure indicator; ``role`` wild or bao."""

    kind: ClassVar[str] = "indicator"
    table_event: ClassVar[bool] = True
    tile: Tile
    role: str

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        role = extra.get("role")
        if role not in ("wild", "bao"):
            raise EventError(f"indicator: extra 'role' must be wild or bao, not {role!r}")
        return cls(_tile(payload, cls.kind), role)

    def to_array(self) -> list[Any]:
        return [self.kind, None, tile_name(self.tile), {"role": self.role}]


@event_kind
@dataclass(frozen=True, slots=True)
class Bird(Event):
    """Table event: the bird tiles drawn after a win (扎鸟)."""

    kind: ClassVar[str] = "bird"
    table_event: ClassVar[bool] = True
    tiles: tuple[Tile, ...]

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        return cls(_tiles(payload, cls.kind))

    def to_array(self) -> list[Any]:
        return [self.kind, None, tile_names(self.tiles)]


@event_kind
@dataclass(frozen=True, slots=True)
class StartWin(Event):
    """The seat shows an opening-hand win (起手胡, Changsha) of some ``win_kind``; with
    ``during`` a win formed in play (中途四喜 / 中途六六顺), shown on the seat's turn right
    after its draw. ``dice`` are the two dice rolled for it, which serve as its birds under
    Changsha's option ``start_win_birds = "dice"``: extra ``{"tiles": [...], "dice": [3, 4],
    "during": true}``."""

    kind: ClassVar[str] = "start_win"
    seat: int
    win_kind: str
    tiles: tuple[Tile, ...] = ()
    dice: tuple[int, ...] = ()
    during: bool = False

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or not isinstance(payload, str):
            raise EventError("start_win: a seat and the kind of opening win are required")
        dice = extra.get("dice", [])
        if not isinstance(dice, list) or (
            dice and (len(dice) != 2 or any(type(d) is not int or not 1 <= d <= 6 for d in dice))
        ):
            raise EventError(f"start_win: dice are two numbers 1-6, not {dice!r}")
        during = extra.get("during", False)
        if not isinstance(during, bool):
            raise EventError(f"start_win: during is true or false, not {during!r}")
        return cls(seat, payload, _tiles(extra.get("tiles", []), cls.kind), tuple(dice), during)

    def to_array(self) -> list[Any]:
        extra: dict[str, Any] = {"tiles": tile_names(self.tiles)} if self.tiles else {}
        if self.dice:
            extra["dice"] = list(self.dice)
        if self.during:
            extra["during"] = True
        return _seat_array(self.kind, self.seat, self.win_kind, extra)


def decode(array: Any, allowed: Callable[[str], bool] | None = None) -> Event:
    """An event from its JSON array; :class:`EventError` says what is wrong."""
    if not isinstance(array, list) or not array or not isinstance(array[0], str):
        raise EventError(f"an event is an array [kind, seat, payload, extra], not {array!r}")
    if len(array) > 4:
        raise EventError(f"an event has at most 4 parts, got {len(array)}")
    kind = array[0]
    cls = EVENT_KINDS.get(kind)
    if cls is None or (allowed is not None and not allowed(kind)):
        raise EventError(f"unknown event kind {kind!r}")
    seat = array[1] if len(array) > 1 else None
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise EventError(f"{kind}: seat must be a seat number or null, not {seat!r}")
    payload = array[2] if len(array) > 2 else None
    extra = array[3] if len(array) > 3 else {}
    if not isinstance(extra, Mapping):
        raise EventError(f"{kind}: the fourth part must be an object, not {extra!r}")
    return cls.decode(seat, payload, extra)
