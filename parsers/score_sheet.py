"""Score sheets (记分表, ../shared/spec/score-sheet.md): a club's CSV, one row per hand.

Each row becomes a recorded-only hand (:mod:`paipu.parsers.recorded`): ``game`` is the
``sitting``, ``hand`` the ``hand`` column. A row with a wrong cell is rejected with the
file, its line and every wrong cell; the other rows still load. :func:`write_sheet` writes
the same format, so that sheet → hands → sheet gives the sheet back.

Several winners (一炮多响, where the variant allows it) are ``|``-separated in ``winner``;
the per-win columns (``fans``, ``total``, ``hand_tiles``, ``melds``, ``win_tile``,
``flags``, ``flowers``) then hold one ``|``-separated part per winner, in the same order
(``win_tile``, ``flags`` and ``flowers`` may give one part for all).

>>> import io
>>> text = ("sitting,hand,variant,p0,p1,p2,p3,dealer,winner,from,fans,total,deltas\\n"
...         "s1,0,mcr,A,B,C,D,0,1,2,碰碰和 6; 混一色 6; 箭刻 2,14,-8|38|-22|-8\\n")
>>> [item] = read_sheet(io.StringIO(text), "s.csv")
>>> [(f.id, f.points, f.count) for f in item.record.result.wins[0].fans]
[('all_pungs', 6, 1), ('half_flush', 6, 1), ('dragon_pung', 2, 1)]
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from paipu.parsers import Parsed, ParseResult, Rejected, read_whole
from paipu.parsers.recorded import (
    find_fan,
    is_recorded,
    recorded_facts,
    recorded_hand,
    variant_fan_index,
)
from paipu.rules.events import Bird
from paipu.rules.melds import Meld, MeldError
from paipu.rules.record import HandRecord, RecordedFan, RecordedResult, RecordedWin
from paipu.rules.score import FLAG_NAMES
from paipu.rules.tiles import TileError, format_tiles, parse_tile, parse_tiles, tile_name
from paipu.rules.variants import VariantError, get_variant

FORMAT = "score-sheet"
COLUMNS = (
    "sitting",
    "hand",
    "variant",
    "rules",
    "time",
    "p0",
    "p1",
    "p2",
    "p3",
    "dealer",
    "winner",
    "from",
    "fans",
    "total",
    "deltas",
    "penalties",
    "hand_tiles",
    "melds",
    "win_tile",
    "flags",
    "flowers",
    "extra",
    "note",
)
REQUIRED = ("sitting", "hand", "variant", "p0", "p1", "p2", "p3", "dealer", "deltas")
#: Meld letters of the ``melds`` column and the score request's kinds.
MELD_KINDS = {"c": "chi", "p": "pong", "k": "kong", "a": "added_kong", "x": "concealed_kong"}
MELD_LETTERS = {kind: letter for letter, kind in MELD_KINDS.items()}
_MELD = re.compile(r"^([cpkax])([0-9a-z]+?)(?:@(\d+))?$")
_FAN = re.compile(r"^(?P<name>.+?)\s+(?P<points>-?\d+)(?:\s*[x×]\s*(?P<count>\d+))?$")


def looks_like_sheet(first_line: str) -> bool:
    """A CSV header naming the sheet's key columns."""
    header = {cell.strip().lower() for cell in first_line.split(",")}
    return {"sitting", "hand", "deltas"} <= header


def parse_sheet(path: Path) -> Iterator[ParseResult]:
    """Stream the hands of a score sheet file."""
    text = read_whole(path)
    if isinstance(text, Rejected):
        yield text
        return
    yield from read_sheet(io.StringIO(text), str(path))


def read_sheet(stream: IO[str], name: str) -> Iterator[ParseResult]:
    """Hands of a sheet from an open text stream; ``name`` is the file reported."""
    reader = csv.reader(stream)
    try:
        header = next(reader)
    except StopIteration:
        yield Rejected(name, 0, "the sheet is empty")
        return
    columns = [c.strip().lower() for c in header]
    unknown = [c for c in columns if c not in COLUMNS]
    missing = [c for c in REQUIRED if c not in columns]
    if unknown or missing or len(set(columns)) != len(columns):
        problems = []
        if missing:
            problems.append(f"missing column(s) {', '.join(missing)}")
        if unknown:
            problems.append(f"unknown column(s) {', '.join(unknown)}")
        if len(set(columns)) != len(columns):
            problems.append("a column is named twice")
        yield Rejected(name, 1, f"header: {'; '.join(problems)} (columns: {', '.join(COLUMNS)})")
        return
    start = reader.line_num + 1
    for row in reader:
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(columns):
            yield Rejected(name, line, f"{len(row)} cells, the header has {len(columns)}")
            continue
        cells = {c: v.strip() for c, v in zip(columns, row, strict=True)}
        yield parse_row(cells, name, line)


def parse_row(cells: Mapping[str, str], name: str, line: int) -> ParseResult:
    """One hand from one row's cells (column → text)."""
    row = _Row(cells)
    record = row.record(name, line)
    if row.errors or record is None:
        return Rejected(
            name,
            line,
            "; ".join(row.errors),
            row.game,
            row.hand,
            variant=row.variant,
            players=row.players,
        )
    return Parsed(record, name, line)


class _Row:
    """The cells of one row, read one by one; every wrong cell is kept in ``errors``."""

    def __init__(self, cells: Mapping[str, str]) -> None:
        self.cells = cells
        self.errors: list[str] = []
        self.game: str | None = cells.get("sitting") or None
        self.hand: int | None = None
        self.variant: str | None = None
        self.players: tuple[str, ...] | None = None

    def fail(self, column: str, message: str) -> None:
        value = self.cells.get(column, "")
        self.errors.append(f"column {column!r} ({value!r}): {message}")

    def record(self, name: str, line: int) -> HandRecord | None:
        cells = self.cells
        if not self.game:
            self.fail("sitting", "the sitting's id is required")
        self.hand = self._count("hand")
        variant_id = cells.get("variant", "")
        try:
            variant = get_variant(variant_id)
        except VariantError as exc:
            self.fail("variant", str(exc))
            return None
        self.variant = variant_id
        rules = self._json("rules")
        try:
            variant.resolve_options(rules)
        except VariantError as exc:
            self.fail("rules", str(exc))
        time = cells.get("time") or None
        if time is not None:
            try:
                dt.datetime.fromisoformat(time)
            except ValueError:
                self.fail("time", "not an ISO-8601 date or date-time (2026-05-01T19:30)")
        n = variant.spec.players
        names = [cells.get(f"p{i}", "") for i in range(4)]
        for i, player in enumerate(names):
            if i < n and not player:
                self.fail(f"p{i}", f"{variant_id} is played by {n}: name every seat")
            if i >= n and player:
                self.fail(f"p{i}", f"{variant_id} is played by {n}: seat {i} does not exist")
        self.players = tuple(names[:n])
        dealer = self._seat("dealer", n)
        winners = self._seats("winner", n)
        from_seats = self._from_seats(winners, n)
        deltas = self._ints("deltas", n)
        penalties = self._ints("penalties", n, optional=True)
        wins = self._wins(variant_id, winners, from_seats, n)
        facts: dict[str, Any] = {"fans_complete": True}
        if penalties is not None:
            facts["penalties"] = list(penalties)
        extra = self._json("extra")
        tiles = self._tiles(len(winners), n, extra)
        if any(t is not None for t in tiles):
            facts["tiles"] = tiles
        flowers = self._flowers(len(winners))
        if any(flowers) and not any(t is not None for t in tiles):
            facts["flowers"] = flowers
        if extra:
            facts["extra"] = extra
        if cells.get("note"):
            facts["note"] = cells["note"]
        if self.errors or self.hand is None or dealer is None or deltas is None:
            return None
        return recorded_hand(
            variant_id,
            self.game or "",
            self.hand,
            self.players,
            dealer,
            wins,
            deltas,
            {"format": FORMAT, "file": name, "line": line},
            facts=facts,
            rules=rules,
            time=time,
        )

    # ------------------------------------------------------------------ cells

    def _from_seats(self, winners: list[int], n: int) -> list[int | None]:
        """Who dealt in, per win: one seat for all, or one part per winner ('' for a
        self-draw: 血战到底's later wins come from other discards)."""
        if self.cells.get("from") and not winners:
            self.fail("from", "a drawn hand (no winner) has no seat that dealt in")
            return []
        out: list[int | None] = []
        for seat, part in zip(
            winners, self._parts("from", len(winners), shared=True), strict=False
        ):
            if not part:
                out.append(None)
            elif not part.isdigit() or int(part) >= n:
                self.fail("from", f"must be a seat 0-{n - 1} (one per winner, '|'-separated)")
                out.append(None)
            elif int(part) == seat:
                self.fail("from", "the seat that dealt in cannot be the winner")
                out.append(None)
            else:
                out.append(int(part))
        return out + [None] * (len(winners) - len(out))

    def _count(self, column: str) -> int | None:
        value = self.cells.get(column, "")
        if not value.isdigit():
            self.fail(column, "must be a whole number ≥ 0")
            return None
        return int(value)

    def _seat(self, column: str, n: int, *, optional: bool = False) -> int | None:
        value = self.cells.get(column, "")
        if not value and optional:
            return None
        if not value.isdigit() or int(value) >= n:
            self.fail(column, f"must be a seat 0-{n - 1}")
            return None
        return int(value)

    def _seats(self, column: str, n: int) -> list[int]:
        value = self.cells.get(column, "")
        if not value:
            return []
        parts = [p.strip() for p in value.split("|")]
        if not all(p.isdigit() and int(p) < n for p in parts):
            self.fail(column, f"must be seats 0-{n - 1}, several separated by '|'")
            return []
        seats = [int(p) for p in parts]
        if len(set(seats)) != len(seats):
            self.fail(column, "a seat is named twice")
            return []
        return seats

    def _ints(self, column: str, n: int, *, optional: bool = False) -> tuple[int, ...] | None:
        value = self.cells.get(column, "")
        if not value:
            if not optional:
                self.fail(column, f"required: one number per seat, '|'-separated ({n})")
            return None
        parts = [p.strip() for p in value.split("|")]
        try:
            numbers = tuple(int(p) for p in parts)
        except ValueError:
            self.fail(column, "must be whole numbers separated by '|' (-8|39|-8|-23)")
            return None
        if len(numbers) != n:
            self.fail(column, f"{len(numbers)} numbers; one per seat is {n}")
            return None
        return numbers

    def _json(self, column: str) -> dict[str, Any]:
        value = self.cells.get(column, "")
        if not value:
            return {}
        try:
            obj = json.loads(value)
        except json.JSONDecodeError as exc:
            self.fail(column, f"not valid JSON: {exc.msg}")
            return {}
        if not isinstance(obj, dict):
            self.fail(column, "must be a JSON object")
            return {}
        return obj

    def _parts(self, column: str, winners: int, *, shared: bool = False) -> list[str]:
        """A per-win column cut into one part per winner ('' where empty)."""
        value = self.cells.get(column, "")
        if not value:
            return [""] * winners
        if not winners:
            self.fail(column, "a drawn hand (no winner) has none")
            return []
        parts = [p.strip() for p in value.split("|")]
        if len(parts) == 1 and (shared or winners == 1):
            return parts * winners
        if len(parts) != winners:
            self.fail(column, f"{len(parts)} parts for {winners} winners (separate them by '|')")
            return [""] * winners
        return parts

    def _wins(
        self, variant: str, winners: list[int], from_seats: list[int | None], n: int
    ) -> list[RecordedWin]:
        fans = self._parts("fans", len(winners))
        totals = self._parts("total", len(winners))
        tiles = self._parts("win_tile", len(winners), shared=True)
        wins = []
        for i, seat in enumerate(winners):
            total: int | None = None
            if i < len(totals) and totals[i]:
                try:
                    total = int(totals[i])
                except ValueError:
                    self.fail("total", f"{totals[i]!r} is not a whole number")
            tile = None
            if i < len(tiles) and tiles[i]:
                try:
                    tile = parse_tile(tiles[i])
                except TileError as exc:
                    self.fail("win_tile", str(exc))
            claimed = self._fans(variant, fans[i] if i < len(fans) else "")
            wins.append(RecordedWin(seat, from_seats[i], tile, total, claimed))
        return wins

    def _fans(self, variant: str, text: str) -> tuple[RecordedFan, ...]:
        index = variant_fan_index(variant)
        out = []
        for item in (p.strip() for p in text.split(";")):
            if not item:
                continue
            match = _FAN.match(item)
            if match is None:
                self.fail("fans", f"{item!r}: write each fan as NAME POINTS or NAME POINTS xCOUNT")
                continue
            fan = find_fan(index, match["name"])
            if fan is None:
                self.fail("fans", f"{match['name']!r} is not a fan of {variant}")
                continue
            out.append(RecordedFan(fan.id, int(match["points"]), int(match["count"] or 1)))
        return tuple(out)

    def _tiles(self, winners: int, n: int, extra: Mapping[str, Any]) -> list[dict[str, Any] | None]:
        hands = self._parts("hand_tiles", winners)
        melds = self._parts("melds", winners)
        win_tiles = self._parts("win_tile", winners, shared=True)
        flags = self._parts("flags", winners, shared=True)
        flowers = self._parts("flowers", winners, shared=True)
        out: list[dict[str, Any] | None] = []
        for i in range(winners):
            hand = hands[i] if i < len(hands) else ""
            if not hand:
                if i < len(melds) and melds[i]:
                    self.fail("melds", "melds are given with the winner's hand_tiles")
                out.append(None)
                continue
            try:
                concealed = [tile_name(t) for t in parse_tiles(hand)]
            except TileError as exc:
                self.fail("hand_tiles", str(exc))
                out.append(None)
                continue
            if i >= len(win_tiles) or not win_tiles[i]:
                self.fail("win_tile", "the winning tile is needed with hand_tiles")
            request: dict[str, Any] = {"hand": concealed, "melds": self._melds(melds[i], n)}
            if i < len(win_tiles) and win_tiles[i]:
                request["win_tile"] = win_tiles[i]
            request["flags"] = self._flags(flags[i] if i < len(flags) else "")
            flower_tiles = self._flower_tiles(flowers[i] if i < len(flowers) else "")
            if flower_tiles:
                request["flowers"] = flower_tiles
            if extra:
                request["extra"] = dict(extra)
            out.append(request)
        return out

    def _flowers(self, winners: int) -> list[list[str]]:
        flowers = self._parts("flowers", winners, shared=True)
        return [self._flower_tiles(f, report=False) for f in flowers]

    def _flower_tiles(self, text: str, *, report: bool = True) -> list[str]:
        if not text:
            return []
        try:
            return [tile_name(t) for t in parse_tiles(text)]
        except TileError as exc:
            if report:
                self.fail("flowers", str(exc))
            return []

    def _melds(self, text: str, n: int) -> list[dict[str, Any]]:
        out = []
        for token in text.split():
            match = _MELD.match(token)
            if match is None:
                self.fail("melds", f"{token!r}: write c123m, p555s@3, k5555s, a5555s or x5555s")
                continue
            kind = MELD_KINDS[match[1]]
            from_seat = int(match[3]) if match[3] is not None else None
            if from_seat is not None and from_seat >= n:
                self.fail("melds", f"{token!r}: seat {from_seat} does not exist")
                continue
            try:
                meld = Meld.of(kind, match[2], from_seat)
            except (MeldError, TileError) as exc:
                self.fail("melds", f"{token!r}: {exc}")
                continue
            out.append(meld.to_json())
        return out

    def _flags(self, text: str) -> dict[str, bool]:
        out = {}
        for name in (p.strip() for p in text.split(";")):
            if not name:
                continue
            if name not in FLAG_NAMES:
                self.fail("flags", f"{name!r} is not a flag (known: {', '.join(FLAG_NAMES)})")
                continue
            out[name] = True
        return out


# ---------------------------------------------------------------------- writing


def sheet_row(record: HandRecord) -> dict[str, str]:
    """The cells of one recorded-only hand (see :func:`write_sheet`)."""
    result = record.result
    wins = result.wins if result is not None else ()
    facts = recorded_facts(record) if is_recorded(record) else {}
    tiles: list[Any] = list(facts.get("tiles") or [None] * len(wins))
    names = list(record.players) + [""] * (4 - len(record.players))
    cells = dict.fromkeys(COLUMNS, "")
    cells.update(
        sitting=record.game,
        hand=str(record.hand),
        variant=record.variant,
        rules=_compact_json(record.rules),
        time=record.time or "",
        dealer=str(record.dealer),
        winner="|".join(str(w.seat) for w in wins),
        fans="|".join(_fans_text(record.variant, w.fans) for w in wins),
        total="|".join("" if w.total is None else str(w.total) for w in wins),
        deltas=_seats_text(result.deltas if result is not None else None, len(record.players)),
        penalties="|".join(map(str, facts["penalties"])) if facts.get("penalties") else "",
        note=str(facts.get("note", "")),
        extra=_compact_json(facts.get("extra") or {}),
    )
    cells.update({f"p{i}": name for i, name in enumerate(names)})
    cells["from"] = _shared(["" if w.from_seat is None else str(w.from_seat) for w in wins])
    if any(t for t in tiles):
        cells["hand_tiles"] = "|".join(
            format_tiles(parse_tiles(t["hand"])) if t else "" for t in tiles
        )
        cells["melds"] = "|".join(_melds_text(t["melds"]) if t else "" for t in tiles)
        cells["flags"] = _shared(
            [";".join(k for k, v in sorted(t["flags"].items()) if v) if t else "" for t in tiles]
        )
        cells["flowers"] = _shared(
            [format_tiles(parse_tiles(t.get("flowers", []))) if t else "" for t in tiles]
        )
    elif facts.get("flowers"):
        cells["flowers"] = _shared([format_tiles(parse_tiles(f)) for f in facts["flowers"]])
    cells["win_tile"] = _shared(["" if w.tile is None else tile_name(w.tile) for w in wins])
    return cells


def write_sheet(records: Iterable[HandRecord], stream: IO[str]) -> int:
    """Write hands as a score sheet (header and one row per hand); returns how many."""
    writer = csv.DictWriter(stream, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    n = 0
    for record in records:
        writer.writerow(sheet_row(record))
        n += 1
    return n


def _fans_text(variant: str, fans: Iterable[RecordedFan]) -> str:
    spec = get_variant(variant).spec.fans.by_id
    parts = []
    for fan in fans:
        name = spec[fan.id].name_zh if fan.id in spec else fan.id
        parts.append(f"{name} {fan.points}" + (f" x{fan.count}" if fan.count != 1 else ""))
    return "; ".join(parts)


def _seats_text(values: Iterable[int] | None, n: int) -> str:
    return "|".join(map(str, values if values is not None else [0] * n))


def _melds_text(melds: Iterable[Mapping[str, Any]]) -> str:
    out = []
    for meld in melds:
        tiles = format_tiles(parse_tiles(meld["tiles"]))
        seat = f"@{meld['from']}" if meld.get("from") is not None else ""
        out.append(f"{MELD_LETTERS[meld['kind']]}{tiles}{seat}")
    return " ".join(out)


def _shared(parts: list[str]) -> str:
    """One part for all winners when they agree, else one per winner."""
    if len(set(parts)) <= 1:
        return parts[0] if parts else ""
    return "|".join(parts)


def _compact_json(value: Mapping[str, Any]) -> str:
    return json.dumps(dict(value), ensure_ascii=False, sort_keys=True) if value else ""


def as_recorded(
    record: HandRecord,
    result: RecordedResult | None = None,
    win_deltas: Iterable[Iterable[int]] | None = None,
    *,
    robbed: bool = False,
) -> HandRecord:
    """A hand as a sheet writes it: a recorded-only hand stays as it is; an event log
    becomes one whose claim is ``result`` (for ``paipu convert``: the result the engine
    computed) or, without it, the log's own recorded result. The birds of the log go in
    ``extra`` (with ``robbing_kong`` when ``robbed``: a win on a robbed kong); whatever
    its deltas hold beyond ``win_deltas`` (each win's own settlement:
    kong money, opening wins, the exhaustive draw's payments) is written as ``penalties``."""
    if is_recorded(record):
        return record
    claim = result if result is not None else record.result
    n = len(record.players)
    deltas = claim.deltas if claim is not None and claim.deltas else (0,) * n
    facts: dict[str, Any] = {"fans_complete": True}
    birds = [tile_name(t) for e in record.events if isinstance(e, Bird) for t in e.tiles]
    extra: dict[str, Any] = {"birds": birds} if birds else {}
    if claim is not None and any(w.from_seat is not None for w in claim.wins) and robbed:
        extra["robbing_kong"] = True
    if extra:
        facts["extra"] = extra
    other = list(deltas)
    for win in win_deltas or ():
        other = [o - d for o, d in zip(other, win, strict=True)]
    if win_deltas is not None and any(other):
        facts["penalties"] = other
        facts["note"] = "penalties: transfers outside the wins (kong money and the like)"
    return recorded_hand(
        record.variant,
        record.game,
        record.hand,
        record.players,
        record.dealer,
        claim.wins if claim is not None else (),
        deltas,
        {"format": "paipu"},
        facts=facts,
        rules=record.rules,
        time=record.time,
        round_wind=record.round_wind,
        seat_winds=record.seat_winds,
        outcome=claim.outcome if claim is not None else "draw",
    )
