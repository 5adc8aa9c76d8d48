"""Botzone's MCR match logs in JSON (``<matchid>_lite.json``, one match per file).

The object holds ``players`` (names), ``initdata`` (a JSON string inside the JSON:
``{"quan": …, "srand": …, "walltiles": "W2 W4 …"}``) and ``logs``, where the judge's
entries (with ``output.display``: ``INIT``, ``DEAL``, ``DRAW``, ``PLAY``, ``CHI``, ``PENG``,
``GANG``, ``BUGANG``, ``HU``, ``HUANG``) alternate with the four bots' responses.

What the real logs show, beyond ../shared/spec/botzone-formats.md:

* **Wall layout.** ``walltiles`` is four blocks of 34 tiles, seat 0's first. Each seat
  takes tiles from the *end* of its own block: its 13-tile deal is the block's last 13
  tiles read backwards, and its draws (kong replacements included) go on backwards from
  there. The hand's ``wall`` is therefore, per seat, the block's first 21 tiles reversed,
  seat 0 first. The parser checks each deal and each ``DRAW`` against this layout.
* ``CHI`` and ``PENG`` carry in ``tile`` the claimer's following discard (a chi or pung
  gives two events); the claimed tile is the last discard, which may itself be the
  ``tile`` of an earlier ``CHI``/``PENG``. ``tileCHI`` is the middle tile of the run.
* ``HU`` names no tile: the winning tile and its source follow from the entry before it
  (the winner's ``DRAW``: self-draw; another seat's discard or ``BUGANG``: won on it).
* The match id is not inside the file; it is taken from the file name.

A match whose judge or bots have a verdict other than ``OK``, that ends otherwise than
with ``HU`` or ``HUANG`` (a bot's illegal response ends the match as an error), or whose
entries contradict the format, is rejected with the entry index (``logs[i]``) and why.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paipu.parsers import Parsed, ParseResult, Rejected
from paipu.parsers.botzone_common import (
    DEAL_SIZE,
    SEATS,
    BotzoneError,
    HandBuilder,
    botzone_tile,
    botzone_tiles,
    check_deal,
    check_seat,
    draw_result,
    recorded_fan,
    round_wind,
    win_result,
)
from paipu.rules.events import Discard, Draw
from paipu.rules.record import HandRecord, RecordedFan, RecordedResult
from paipu.rules.tiles import Tile, tile_name

FORMAT = "botzone-json"
WALL_BLOCK = 34  # tiles per seat in initdata.walltiles
END_ACTIONS = ("HU", "HUANG")


def parse_botzone_json(path: Path) -> Iterator[ParseResult]:
    """The one match of a Botzone JSON match log (a hand, or the reason it is not one)."""
    name = str(path)
    game = match_id(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        yield Rejected(name, 0, f"cannot read the file ({exc.strerror})", game, 0)
        return
    except UnicodeDecodeError as exc:
        yield Rejected(name, 1, f"not UTF-8 text ({exc.reason})", game, 0)
        return
    yield from parse_json_text(text, name)


def parse_json_text(text: str, name: str) -> Iterator[ParseResult]:
    """The match of a JSON match log already read as ``text`` from file ``name``."""
    path = Path(name)
    game = match_id(path)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        reason = (
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno} (file cut short?)"
        )
        yield Rejected(name, exc.lineno, reason, game, 0)
        return
    except RecursionError:
        yield Rejected(name, 1, "not a match log: JSON nested too deeply", game, 0)
        return
    try:
        record = read_match(obj, game, path.name)
    except BotzoneError as exc:
        yield Rejected(name, 1, str(exc), game, 0)
        return
    yield Parsed(record, name, 1)


def match_id(path: Path) -> str:
    """The match id from a file name such as ``6a20…a7f1_lite.json``.

    >>> match_id(Path("logs/6a201f5a58ebe27b197da7f1_lite.json"))
    '6a201f5a58ebe27b197da7f1'
    """
    return path.name.removesuffix(".json").removesuffix("_lite")


@dataclass
class _Walls:
    """Each seat's remaining wall in drawing order, with how far it has been drawn."""

    tiles: tuple[tuple[Tile, ...], ...]
    drawn: list[int] = field(default_factory=lambda: [0] * SEATS)

    @classmethod
    def from_walltiles(cls, codes: str, deal: tuple[tuple[Tile, ...], ...]) -> _Walls:
        tiles = botzone_tiles(codes.split())
        if len(tiles) != SEATS * WALL_BLOCK:
            raise BotzoneError(
                f"initdata.walltiles holds {len(tiles)} tiles, not {SEATS * WALL_BLOCK}"
            )
        walls = []
        for seat in range(SEATS):
            block = tiles[seat * WALL_BLOCK : (seat + 1) * WALL_BLOCK]
            dealt = block[::-1][:DEAL_SIZE]
            if sorted(dealt) != sorted(deal[seat]):
                raise BotzoneError(
                    f"seat {seat}'s deal is not the end of its block of initdata.walltiles"
                )
            walls.append(block[::-1][DEAL_SIZE:])
        return cls(tuple(walls))

    def check_draw(self, seat: int, tile: Tile) -> None:
        wall, n = self.tiles[seat], self.drawn[seat]
        if n >= len(wall):
            raise BotzoneError(f"seat {seat} draws {tile_name(tile)} but its wall is empty")
        if wall[n] != tile:
            raise BotzoneError(
                f"seat {seat} draws {tile_name(tile)} but its wall holds {tile_name(wall[n])} "
                f"next (draw {n + 1})"
            )
        self.drawn[seat] = n + 1

    def remaining(self) -> tuple[Tile, ...]:
        """The four walls after the deal, seat 0 first (the paipu ``wall`` field)."""
        return tuple(t for wall in self.tiles for t in wall)


@dataclass
class _Reader:
    """The state of one match being read, entry by entry."""

    quan: Any = None
    walltiles: str | None = None
    deal: tuple[tuple[Tile, ...], ...] | None = None
    walls: _Walls | None = None
    builder: HandBuilder = field(default_factory=HandBuilder)
    result: RecordedResult | None = None

    def judge(self, display: Mapping[str, Any]) -> None:
        """Apply one judge entry's ``display``."""
        action = display.get("action")
        if action == "INIT":
            self.quan = display.get("quan", self.quan)
            return
        if action == "DEAL":
            self._deal(display.get("hand"))
            return
        if self.deal is None:
            raise BotzoneError(f"{action} before the DEAL")
        handler = _ACTIONS.get(action) if isinstance(action, str) else None
        if handler is None:
            raise BotzoneError(f"unknown action {action!r}")
        handler(self, display)

    def _deal(self, hand: Any) -> None:
        if self.deal is not None:
            raise BotzoneError("a second DEAL")
        if not isinstance(hand, list) or len(hand) != SEATS:
            raise BotzoneError(f"DEAL.hand must list the {SEATS} seats' tiles")
        if not all(isinstance(tiles, list) for tiles in hand):
            raise BotzoneError("DEAL.hand must hold one list of tile codes per seat")
        self.deal = tuple(check_deal(s, botzone_tiles(tiles)) for s, tiles in enumerate(hand))
        if self.walltiles is not None:
            self.walls = _Walls.from_walltiles(self.walltiles, self.deal)

    def draw(self, display: Mapping[str, Any]) -> None:
        seat, tile = _seat(display), _tile(display, "tile")
        if self.walls is not None:
            self.walls.check_draw(seat, tile)
        self.builder.draw(seat, tile)

    def play(self, display: Mapping[str, Any]) -> None:
        self.builder.discard(_seat(display), _tile(display, "tile"))

    def chi(self, display: Mapping[str, Any]) -> None:
        seat = _seat(display)
        self.builder.chi(seat, _tile(display, "tileCHI"))
        self.builder.discard(seat, _tile(display, "tile"))

    def peng(self, display: Mapping[str, Any]) -> None:
        seat = _seat(display)
        self.builder.pong(seat)
        self.builder.discard(seat, _tile(display, "tile"))

    def gang(self, display: Mapping[str, Any]) -> None:
        """A concealed kong right after the seat's own draw, else an exposed kong."""
        seat = _seat(display)
        events = self.builder.events
        last = events[-1] if events else None
        if isinstance(last, Draw) and last.seat == seat:
            self.builder.concealed_kong(seat, _tile(display, "tile"))
        elif isinstance(last, Discard):
            named = _tile(display, "tile") if display.get("tile") else None
            self.builder.kong(seat, named)
        else:
            raise BotzoneError(f"GANG of seat {seat} follows neither its draw nor a discard")

    def bugang(self, display: Mapping[str, Any]) -> None:
        self.builder.added_kong(_seat(display), _tile(display, "tile"))

    def hu(self, display: Mapping[str, Any]) -> None:
        win = self.builder.win(_seat(display))
        total = display.get("fanCnt")
        if not _is_int(total):
            raise BotzoneError(f"HU.fanCnt must be an integer, not {total!r}")
        self.result = win_result(win, total, _fans(display.get("fan")), _score(display))

    def huang(self, display: Mapping[str, Any]) -> None:
        score = display.get("score")
        self.result = draw_result(_score(display) if score is not None else (0,) * SEATS)


_ACTIONS = {
    "DRAW": _Reader.draw,
    "PLAY": _Reader.play,
    "CHI": _Reader.chi,
    "PENG": _Reader.peng,
    "GANG": _Reader.gang,
    "BUGANG": _Reader.bugang,
    "HU": _Reader.hu,
    "HUANG": _Reader.huang,
}


def read_match(obj: Any, game: str, file_name: str) -> HandRecord:
    """The hand of one parsed match object; :class:`BotzoneError` says what is wrong."""
    if not isinstance(obj, Mapping) or not isinstance(obj.get("logs"), list):
        raise BotzoneError("not a Botzone match log: no 'logs' list")
    reader = _Reader()
    _read_initdata(reader, obj.get("initdata"))
    last_action = None
    for index, entry in enumerate(obj["logs"]):
        try:
            last_action = _read_entry(reader, entry, last_action)
        except BotzoneError as exc:
            raise BotzoneError(f"logs[{index}]: {exc}") from None
    if reader.result is None or reader.deal is None:
        raise BotzoneError(
            f"the match ends without HU or HUANG (last judge action: {last_action or 'none'})"
        )
    return reader.builder.record(
        game=game,
        players=_players(obj.get("players")),
        round_wind=round_wind(reader.quan),
        deal=reader.deal,
        result=reader.result,
        source={"format": FORMAT, "file": file_name, "line": 1},
        wall=reader.walls.remaining() if reader.walls is not None else None,
    )


def _read_initdata(reader: _Reader, initdata: Any) -> None:
    if isinstance(initdata, str) and initdata.strip():
        try:
            initdata = json.loads(initdata)
        except json.JSONDecodeError as exc:
            raise BotzoneError(f"initdata is not valid JSON: {exc.msg}") from None
    if not isinstance(initdata, Mapping):
        return
    reader.quan = initdata.get("quan")
    walltiles = initdata.get("walltiles")
    if walltiles is not None and not isinstance(walltiles, str):
        raise BotzoneError("initdata.walltiles must be a string of tile codes")
    reader.walltiles = walltiles or None


def _read_entry(reader: _Reader, entry: Any, last_action: str | None) -> str | None:
    """Apply a judge entry or check a bots' response entry; the judge's action, if any."""
    if not isinstance(entry, Mapping):
        raise BotzoneError("an entry must be an object")
    if "output" not in entry:  # the bots' responses, by seat
        for seat, response in sorted(entry.items()):
            verdict = response.get("verdict") if isinstance(response, Mapping) else None
            if verdict != "OK":
                raise BotzoneError(f"bot {seat}'s response has verdict {verdict!r}, not OK")
        return last_action
    if entry.get("verdict") != "OK":
        raise BotzoneError(f"the judge's verdict is {entry.get('verdict')!r}, not OK")
    output = entry["output"]
    display = output.get("display") if isinstance(output, Mapping) else None
    if isinstance(output, Mapping) and output.get("command") == "finish":
        action = display.get("action") if isinstance(display, Mapping) else None
        if action not in END_ACTIONS:
            scores = json.dumps(output.get("content"), ensure_ascii=False)[:80]
            raise BotzoneError(
                f"the match ends as an error ({action or 'no action'}, scores {scores}), "
                "not with HU or HUANG"
            )
    if not isinstance(display, Mapping):
        raise BotzoneError("a judge entry without output.display")
    if last_action in END_ACTIONS:
        raise BotzoneError(f"{display.get('action')!r} after {last_action}")
    reader.judge(display)
    return display.get("action")


def _seat(display: Mapping[str, Any]) -> int:
    return check_seat(display.get("player"))


def _tile(display: Mapping[str, Any], key: str) -> Tile:
    try:
        return botzone_tile(display.get(key))
    except BotzoneError as exc:
        raise BotzoneError(f"{display.get('action')}.{key}: {exc}") from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fans(raw: Any) -> tuple[RecordedFan, ...]:
    if not isinstance(raw, list):
        raise BotzoneError("HU.fan must be a list of {name, value, cnt}")
    fans = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise BotzoneError(f"HU.fan: {item!r} is not {{name, value, cnt}}")
        name, value, count = item.get("name"), item.get("value"), item.get("cnt")
        if not isinstance(name, str) or not _is_int(value) or not _is_int(count):
            raise BotzoneError(f"HU.fan: {item!r} is not {{name, value, cnt}}")
        fans.append(recorded_fan(name, count, value))
    return tuple(fans)


def _score(display: Mapping[str, Any]) -> tuple[int, ...]:
    score = display.get("score")
    if not isinstance(score, list) or len(score) != SEATS or not all(map(_is_int, score)):
        raise BotzoneError(f"{display.get('action')}.score must hold {SEATS} integers")
    return tuple(score)


def _players(raw: Any) -> tuple[str, ...]:
    """Player names by seat; ``p0``…``p3`` where a name is missing or empty."""
    entries = raw if isinstance(raw, list) and len(raw) == SEATS else [None] * SEATS
    names = []
    for seat, entry in enumerate(entries):
        name = entry.get("name") if isinstance(entry, Mapping) else entry
        names.append(name if isinstance(name, str) and name.strip() else f"p{seat}")
    return tuple(names)
