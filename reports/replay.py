"""Hand replays for the report: what every seat holds after each event, step by step.

:func:`replay_steps` rebuilds the table from a hand's paipu record (the JSON object of
``hands.record``): step 0 is the deal, step *i* the table after event *i − 1*. Each seat has
its concealed tiles (sorted, a tile just drawn kept last), its melds, its flowers and its
discards (a discard claimed by another seat stays in the list, marked). The record was
checked by the rules engine at ingest, so this is plain bookkeeping that never judges a
move; events it does not know (a variant's own kinds, e.g. the zipai 偎 / 提 / 跑) are shown
in words and leave the tiles as they are.

The steps are the page's data, compact: per step the event (``e``: seat, verb, tiles) and
only the seat fields that changed — ``h0`` the concealed tiles of seat 0, ``m0`` its melds
(``[kind, tiles, from_seat]``), ``f0`` its flowers, ``d0`` its discards. Tiles are their
paipu names run together (``"1m2m5z"``); in discards ``*`` follows a claimed tile and ``!``
the tile won on. Step 0 holds every field. :func:`fold` applies the steps in order into full
snapshots, as the page's script does.

>>> record = {"players": ["A", "B"], "deal": [["2m", "1m"], ["5z", "5z"]],
...           "events": [["draw", 0, "1m"], ["discard", 0, "2m"], ["pong", 1, "2m"]]}
>>> steps = replay_steps(record)
>>> steps[2]
{'e': [0, 'discards', '2m'], 'h0': '1m1m', 'd0': '2m'}
>>> [event_text(s["e"], record["players"]) for s in steps]
['deal', 'A draws 1m', 'A discards 2m', 'B pong 2m2m2m']
>>> fold(steps)[1]["h0"], fold(steps)[3]["d0"], fold(steps)[3]["m1"]
('1m2m1m', '2m*', [['pong', '2m2m2m', 0]])
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Mapping, Sequence
from typing import Any

from paipu.rules.tiles import (
    N_CODES,
    TileError,
    parse_tiles,
    tile_glyph,
    tile_name,
    tile_name_zh,
)

#: Meld kinds as they appear in ``m`` fields.
MELD_KINDS = ("chi", "pong", "kong", "added_kong", "concealed_kong")
#: The seat fields of a step: concealed tiles, melds, flowers, discards.
FIELDS = ("h", "m", "f", "d")

_NAMES = [tile_name(t) for t in range(N_CODES)]
_CODES = {name: code for code, name in enumerate(_NAMES)}


def _tiles(payload: Any) -> tuple[str, ...]:
    """The payload's tiles when it is a tile or a non-empty list of tiles, else ()."""
    if type(payload) is str:
        return (payload,) if payload in _CODES else ()
    if not isinstance(payload, list) or not payload:
        return ()
    if all(isinstance(t, str) and t in _CODES for t in payload):
        return tuple(payload)
    return ()


def _dealt(tiles: Any) -> tuple[str, ...]:
    """A seat's dealt tiles, as single names or in compact form (``"123m5z"``)."""
    if isinstance(tiles, str):
        try:
            return tuple(tile_name(t) for t in parse_tiles(tiles))
        except TileError:
            return ()
    return _tiles(tiles)


def _other_verb(kind: str, payload: Any) -> str:
    """An event without tile bookkeeping, in words: its kind and any non-tile payload."""
    words = kind.replace("_", " ")
    if payload is None or _tiles(payload):
        return words
    shown = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return f"{words} {shown}"


class _Seat:
    """One seat's tiles while the steps are built; writes its fields as page strings."""

    __slots__ = ("discards", "drawn", "flowers", "hand", "melds")

    def __init__(self, tiles: Sequence[str]) -> None:
        self.hand: list[int] = sorted(_CODES[t] for t in tiles)
        self.drawn: int | None = None  # kept apart (shown last) until the seat acts again
        self.melds: list[list[Any]] = []
        self.flowers = ""
        self.discards = ""

    def settle(self) -> None:
        if self.drawn is not None:
            insort(self.hand, self.drawn)
            self.drawn = None

    def take(self, name: str, n: int = 1) -> None:
        self.settle()
        code = _CODES[name]
        for _ in range(n):
            if code in self.hand:
                self.hand.remove(code)

    def hand_text(self) -> str:
        text = "".join(map(_NAMES.__getitem__, self.hand))
        return text if self.drawn is None else text + _NAMES[self.drawn]


def replay_steps(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The steps of a hand record (a paipu JSON object): the deal, then one per event."""
    players = record.get("players") or []
    deal = record.get("deal") or []
    seats = [_Seat(_dealt(d)) for d in deal]
    while len(seats) < len(players):
        seats.append(_Seat(()))
    first: dict[str, Any] = {"e": [None, "deal", ""]}
    for i, s in enumerate(seats):
        first |= {f"h{i}": s.hand_text(), f"m{i}": [], f"f{i}": "", f"d{i}": ""}
    steps = [first]
    last_discard: tuple[int, str] | None = None  # (seat, tile): the discard that may be claimed
    last_added: tuple[int, str] | None = None  # (seat, tile): an added kong that may be robbed
    n = len(seats)
    for array in record.get("events") or ():
        kind = str(array[0]) if array else "?"
        seat = array[1] if len(array) > 1 and type(array[1]) is int else None
        payload = array[2] if len(array) > 2 else None
        extra = array[3] if len(array) > 3 and isinstance(array[3], dict) else {}
        tiles = _tiles(payload)
        pending, last_discard = last_discard, None
        robbed, last_added = last_added, None
        actor = seats[seat] if seat is not None and 0 <= seat < n else None
        step: dict[str, Any] = {}
        shown = "".join(tiles)
        if actor is not None and actor.drawn is not None and kind != "win":
            actor.settle()  # the tile drawn joins the sorted hand
            step[f"h{seat}"] = None
        if actor is None or not tiles:
            verb = _other_verb(kind, payload)
            if kind in ("ready", "win"):
                last_discard = pending
        elif kind == "draw":
            actor.drawn = _CODES[tiles[0]]
            step[f"h{seat}"] = None
            verb = "draws"
        elif kind == "discard":
            actor.take(tiles[0])
            actor.discards += tiles[0]
            step[f"h{seat}"] = None
            step[f"d{seat}"] = actor.discards
            last_discard = (seat, tiles[0])
            verb = "discards"
        elif kind in ("chi", "pong", "kong"):
            group = list(tiles) if kind == "chi" else [tiles[0]] * (4 if kind == "kong" else 3)
            from_seat = None
            rest = list(group)
            if pending is not None:
                from_seat, claimed = pending
                if claimed in rest:
                    rest.remove(claimed)
                source = seats[from_seat]
                source.discards += "*"
                step[f"d{from_seat}"] = source.discards
            for tile in rest:
                actor.take(tile)
            group.sort(key=_CODES.__getitem__)
            actor.melds.append([kind, "".join(group), from_seat])
            step[f"h{seat}"] = None
            step[f"m{seat}"] = [list(m) for m in actor.melds]
            verb, shown = kind, "".join(group)
        elif kind == "added_kong":
            actor.take(tiles[0])
            for meld in actor.melds:
                if meld[0] == "pong" and meld[1].startswith(tiles[0]):
                    meld[0], meld[1] = "added_kong", meld[1] + tiles[0]
                    break
            step[f"h{seat}"] = None
            step[f"m{seat}"] = [list(m) for m in actor.melds]
            last_added = (seat, tiles[0])
            verb, shown = "adds a kong", tiles[0] * 4
        elif kind == "concealed_kong":
            actor.take(tiles[0], 4)
            actor.melds.append(["concealed_kong", tiles[0] * 4, None])
            step[f"h{seat}"] = None
            step[f"m{seat}"] = [list(m) for m in actor.melds]
            verb, shown = "declares a concealed kong", tiles[0] * 4
        elif kind == "flower":
            actor.take(tiles[0])
            actor.flowers += tiles[0]
            step[f"h{seat}"] = None
            step[f"f{seat}"] = actor.flowers
            verb = "sets aside"
        elif kind == "win":
            from_seat = extra.get("from")
            if type(from_seat) is int and 0 <= from_seat < n:
                actor.settle()
                actor.drawn = _CODES[tiles[0]]
                source = seats[from_seat]
                who = players[from_seat] if from_seat < len(players) else f"seat {from_seat}"
                if robbed is not None and robbed[0] == from_seat:
                    for meld in source.melds:
                        if meld[0] == "added_kong" and meld[1].startswith(tiles[0]):
                            meld[0], meld[1] = "pong", meld[1][: len(meld[1]) * 3 // 4]
                            break
                    step[f"m{from_seat}"] = [list(m) for m in source.melds]
                    verb = f"wins robbing {who}'s kong on"
                else:
                    source.discards += "!"
                    step[f"d{from_seat}"] = source.discards
                    verb = f"wins on {who}'s"
                last_discard = pending  # several seats may win on one discard
            else:
                verb = "wins by self-draw on"
            step[f"h{seat}"] = None
        else:
            verb = _other_verb(kind, payload)
        if seat is not None and step.get(f"h{seat}", 0) is None:
            step[f"h{seat}"] = actor.hand_text()  # once per event, after every change
        steps.append({"e": [seat, verb, shown], **step})
    return steps


def fold(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Full snapshots: each step applied over the one before (what the page's script does)."""
    states: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    for step in steps:
        state = {**state, **{k: v for k, v in step.items() if k != "e"}, "e": step["e"]}
        states.append(state)
    return states


def event_text(event: Sequence[Any], players: Sequence[str]) -> str:
    """A step's event in words with tile names, e.g. ``Bo discards 5p``."""
    seat, verb, tiles = event
    who = players[seat] if seat is not None and seat < len(players) else ""
    return " ".join(p for p in (who, verb, tiles) if p)


def tile_table() -> dict[str, list[str]]:
    """Every tile name with its glyph (or Chinese name where Unicode has none) and Chinese name.

    >>> tile_table()["5p"], tile_table()["2d"]
    (['🀝', '五筒'], ['贰', '贰'])
    """
    return {tile_name(t): [tile_glyph(t), tile_name_zh(t)] for t in range(N_CODES)}
