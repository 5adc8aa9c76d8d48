"""The hand record (one line of a paipu log, paipu-log-v1.md) as frozen dataclasses.

:meth:`HandRecord.from_json` checks every field and raises :class:`RecordError` naming it;
:meth:`HandRecord.to_json` writes the canonical form (single tile names, fixed key order),
so that parse → dump → parse is the identity.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from paipu.rules.events import Event, EventError, decode
from paipu.rules.registry import load_event_kinds
from paipu.rules.tiles import (
    EAST,
    NORTH,
    Tile,
    TileError,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_names,
)

PAIPU_VERSION = 1
#: The largest integer a record's number may be (the database's INTEGER columns); a larger
#: one is refused, so no number can overflow a column.
INT_LIMIT = 2**31 - 1
OUTCOMES = ("win", "draw", "abort")


class RecordError(ValueError):
    """A hand object that does not follow the paipu log format.

    ``event_index`` is set when the fault is in one event (0-based).
    """

    def __init__(self, message: str, event_index: int | None = None) -> None:
        super().__init__(message)
        self.event_index = event_index


@dataclass(frozen=True, slots=True)
class RecordedFan:
    """A fan as the source recorded it: ``[id, points_each, count]``."""

    id: str
    points: int
    count: int

    def to_json(self) -> list[Any]:
        return [self.id, self.points, self.count]


@dataclass(frozen=True, slots=True)
class RecordedWin:
    seat: int
    from_seat: int | None
    tile: Tile | None
    total: int | None
    fans: tuple[RecordedFan, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        if self.tile is not None:
            out["tile"] = tile_name(self.tile)
        if self.total is not None:
            out["total"] = self.total
        out["fans"] = [f.to_json() for f in self.fans]
        return out


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """What the source recorded as the outcome; the replay recomputes and compares."""

    outcome: str
    wins: tuple[RecordedWin, ...] = ()
    deltas: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.outcome}
        if self.wins:
            out["wins"] = [w.to_json() for w in self.wins]
        if self.deltas is not None:
            out["deltas"] = list(self.deltas)
        return out


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand (一局): from the deal to a win or an exhaustive draw."""

    variant: str
    game: str
    hand: int
    players: tuple[str, ...]
    dealer: int
    deal: tuple[tuple[Tile, ...], ...]
    events: tuple[Event, ...]
    round_wind: Tile = EAST
    seat_winds: tuple[Tile, ...] | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    time: str | None = None
    scores_before: tuple[int, ...] | None = None
    wall: tuple[Tile, ...] | None = None
    result: RecordedResult | None = None
    source: Mapping[str, Any] | None = None

    @property
    def key(self) -> tuple[str, int]:
        """(game, hand): what identifies a hand."""
        return self.game, self.hand

    def seat_wind(self, seat: int) -> Tile:
        if self.seat_winds is not None:
            return self.seat_winds[seat]
        return EAST + (seat - self.dealer) % len(self.players)

    @classmethod
    def from_json(cls, obj: Any) -> HandRecord:
        if not isinstance(obj, Mapping):
            raise RecordError("a hand is a JSON object")
        unknown = sorted(set(obj) - _FIELDS)
        if unknown:
            raise RecordError(f"unknown field(s): {', '.join(unknown)}")
        for name in ("paipu", "variant", "game", "hand", "players", "dealer", "deal", "events"):
            if name not in obj:
                raise RecordError(f"missing field {name!r}")
        if not is_int(obj["paipu"]) or obj["paipu"] != PAIPU_VERSION:
            raise RecordError(f"paipu version {obj['paipu']!r} is not supported (this reader: 1)")
        variant = _string(obj, "variant")
        game = _string(obj, "game")
        hand = _count(obj, "hand")
        players_raw = obj["players"]
        if not isinstance(players_raw, list) or not all(
            isinstance(p, str) and p for p in players_raw
        ):
            raise RecordError("'players' must be a list of names (non-empty strings)")
        players = tuple(players_raw)
        n = len(players)
        if not 2 <= n <= 4:
            raise RecordError(f"'players' must name 2 to 4 players, got {n}")
        dealer = _seat(obj, "dealer", n)
        try:
            deal_raw = obj["deal"]
            if not isinstance(deal_raw, list) or len(deal_raw) != n:
                raise RecordError(f"'deal' must hold one list of tiles per player ({n})")
            deal = tuple(tuple(parse_tiles(_tile_list(d, "deal"))) for d in deal_raw)
            wall = tuple(parse_tiles(_tile_list(obj["wall"], "wall"))) if "wall" in obj else None
            round_wind = _wind(obj.get("round_wind", "1z"), "round_wind")
            seat_winds = None
            if "seat_winds" in obj:
                winds_raw = obj["seat_winds"]
                if not isinstance(winds_raw, list) or len(winds_raw) != n:
                    raise RecordError(f"'seat_winds' must give one wind per player ({n})")
                seat_winds = tuple(_wind(w, "seat_winds") for w in winds_raw)
        except TileError as exc:
            raise RecordError(str(exc)) from None
        events_raw = obj["events"]
        if not isinstance(events_raw, list):
            raise RecordError("'events' must be a list of event arrays")
        load_event_kinds(variant)  # the kinds its variant (or a mechanic of it) owns
        events = []
        for index, array in enumerate(events_raw):
            try:
                event = decode(array)
            except EventError as exc:
                raise RecordError(f"event {index}: {exc}", index) from None
            seat = getattr(event, "seat", None)
            if seat is not None and seat >= n:
                raise RecordError(f"event {index}: seat {seat} does not exist ({n} players)", index)
            events.append(event)
        rules = obj.get("rules", {})
        if not isinstance(rules, Mapping):
            raise RecordError("'rules' must be an object of option values")
        scores_before = None
        if "scores_before" in obj:
            raw = obj["scores_before"]
            if not isinstance(raw, list) or len(raw) != n or not all(is_int(v) for v in raw):
                raise RecordError(f"'scores_before' must hold one integer per player ({n})")
            scores_before = tuple(raw)
        time = obj.get("time")
        if time is not None and not _is_time(time):
            raise RecordError(f"'time' must be an ISO-8601 date and time, not {time!r:.40}")
        source = obj.get("source")
        if source is not None and not isinstance(source, Mapping):
            raise RecordError("'source' must be an object")
        result = _result(obj["result"], n) if "result" in obj else None
        return cls(
            variant=variant,
            game=game,
            hand=hand,
            players=players,
            dealer=dealer,
            deal=deal,
            events=tuple(events),
            round_wind=round_wind,
            seat_winds=seat_winds,
            rules=dict(rules),
            time=time,
            scores_before=scores_before,
            wall=wall,
            result=result,
            source=dict(source) if source is not None else None,
        )

    def to_json(self, events: bool = True) -> dict[str, Any]:
        """The hand as paipu log JSON; with ``events=False`` its events list is left empty
        (the ingest writes the events' arrays in from encodings it already has)."""
        out: dict[str, Any] = {"paipu": PAIPU_VERSION, "variant": self.variant}
        if self.rules:
            out["rules"] = dict(self.rules)
        out["game"] = self.game
        out["hand"] = self.hand
        if self.time is not None:
            out["time"] = self.time
        out["players"] = list(self.players)
        out["dealer"] = self.dealer
        out["round_wind"] = tile_name(self.round_wind)
        if self.seat_winds is not None:
            out["seat_winds"] = tile_names(self.seat_winds)
        if self.scores_before is not None:
            out["scores_before"] = list(self.scores_before)
        out["deal"] = [tile_names(d) for d in self.deal]
        if self.wall is not None:
            out["wall"] = tile_names(self.wall)
        out["events"] = [e.to_array() for e in self.events] if events else []
        if self.result is not None:
            out["result"] = self.result.to_json()
        if self.source is not None:
            out["source"] = dict(self.source)
        return out


_FIELDS = {
    "paipu",
    "variant",
    "rules",
    "game",
    "hand",
    "time",
    "players",
    "dealer",
    "round_wind",
    "seat_winds",
    "scores_before",
    "deal",
    "wall",
    "events",
    "result",
    "source",
}


def is_int(value: Any) -> bool:
    """An integer (not a bool) within ±:data:`INT_LIMIT`."""
    return (
        isinstance(value, int) and not isinstance(value, bool) and -INT_LIMIT <= value <= INT_LIMIT
    )


def _is_time(value: Any) -> bool:
    """An ISO-8601 date and time (``2026-01-01T09:00:00Z``) that the database can hold."""
    if not isinstance(value, str):
        return False
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return False
    return 1 <= moment.year <= 9999


def _string(obj: Mapping[str, Any], name: str) -> str:
    value = obj[name]
    if not isinstance(value, str) or not value:
        raise RecordError(f"'{name}' must be a non-empty string")
    return value


def _count(obj: Mapping[str, Any], name: str) -> int:
    value = obj[name]
    if not is_int(value) or value < 0:
        raise RecordError(f"'{name}' must be a whole number 0-{INT_LIMIT:,}, not {value!r}")
    return value


def _seat(obj: Mapping[str, Any], name: str, players: int) -> int:
    value = obj[name]
    if not is_int(value) or not 0 <= value < players:
        raise RecordError(f"'{name}' must be a seat 0-{players - 1}, not {value!r}")
    return value


def _tile_list(value: Any, name: str) -> list[str] | str:
    if isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(t, str) for t in value)
    ):
        return value
    raise RecordError(f"'{name}' must be a list of tiles")


def _wind(value: Any, name: str) -> Tile:
    tile = parse_tile(value) if isinstance(value, str) else -1
    if not EAST <= tile <= NORTH:
        raise RecordError(f"'{name}' must hold winds 1z-4z, not {value!r}")
    return tile


def _result(raw: Any, players: int) -> RecordedResult:
    if not isinstance(raw, Mapping) or raw.get("outcome") not in OUTCOMES:
        raise RecordError("'result.outcome' must be win, draw or abort")
    wins = []
    raw_wins = raw.get("wins", [])
    if not isinstance(raw_wins, list):
        raise RecordError("'result.wins' must be a list of wins")
    for i, win in enumerate(raw_wins):
        if not isinstance(win, Mapping) or not is_int(win.get("seat")):
            raise RecordError(f"result.wins[{i}] needs a 'seat'")
        if not 0 <= win["seat"] < players:
            raise RecordError(f"result.wins[{i}].seat must be a seat 0-{players - 1}")
        raw_fans = win.get("fans", [])
        if not isinstance(raw_fans, list):
            raise RecordError(f"result.wins[{i}].fans must be a list of [id, points, count]")
        fans = []
        for fan in raw_fans:
            if (
                not isinstance(fan, list)
                or len(fan) != 3
                or not isinstance(fan[0], str)
                or not fan[0]
                or not is_int(fan[1])
                or not is_int(fan[2])
            ):
                raise RecordError(f"result.wins[{i}].fans: each fan is [id, points, count]")
            fans.append(RecordedFan(fan[0], fan[1], fan[2]))
        tile = win.get("tile")
        if tile is not None and not isinstance(tile, str):
            raise RecordError(f"result.wins[{i}].tile must be a tile name, not {tile!r:.40}")
        try:
            tile_code = parse_tile(tile) if tile is not None else None
        except TileError as exc:
            raise RecordError(f"result.wins[{i}].tile: {exc}") from None
        total = win.get("total")
        if total is not None and not is_int(total):
            raise RecordError(f"result.wins[{i}].total must be an integer")
        from_seat = win.get("from")
        if from_seat is not None and (not is_int(from_seat) or not 0 <= from_seat < players):
            raise RecordError(f"result.wins[{i}].from must be a seat")
        wins.append(RecordedWin(win["seat"], from_seat, tile_code, total, tuple(fans)))
    deltas = raw.get("deltas")
    if deltas is not None and (
        not isinstance(deltas, list) or len(deltas) != players or not all(is_int(d) for d in deltas)
    ):
        raise RecordError(f"'result.deltas' must hold one integer per player ({players})")
    return RecordedResult(
        raw["outcome"], tuple(wins), tuple(deltas) if deltas is not None else None
    )
