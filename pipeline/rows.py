"""Replayed hands as table rows, column by column, ready for Arrow and DuckDB.

A :class:`RowBuffer` collects the rows of many hands (one list per column of each table of
``sql/schema``); workers fill one and send it to the loader, which turns it into Arrow
tables and inserts them ``BY NAME``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from paipu.parsers import Rejected
from paipu.parsers.paipu import JSON_SEPARATORS, dumps_json
from paipu.parsers.recorded import EVENTS, RECORDED, recorded_facts
from paipu.rules.events import Event
from paipu.rules.record import HandRecord
from paipu.rules.replay import HandOutcome
from paipu.rules.variants import get_variant

if TYPE_CHECKING:
    from paipu.pipeline.sheet_audit import RecordedVerdict
from paipu.rules.tiles import (
    N_CODES,
    TEN_FIRST,
    ZIPAI_BIG_FIRST,
    ZIPAI_SMALL_FIRST,
    Tile,
    rank_of,
    tile_name,
)

TABLES = ("hands", "hand_seats", "wins", "win_fans", "discards", "missed_wins", "events", "rejects")
#: Tables whose rows belong to one hand, keyed by (game, hand).
HAND_TABLES = TABLES[:-1]
#: The ``events`` table's columns after (game, hand, seq), held by a :class:`RowBuffer`
#: as one column of encoded rows (:data:`EVENT_ROW`, the row tuples of
#: :func:`encode_event`) rather than one list each.
EVENT_COLUMNS = ("kind", "seat", "tile", "tiles", "from_seat", "extra")
EVENT_ROW = "event_row"


def discard_category(tile: Tile) -> str:
    """The deal-in report's categories: honor, terminal (1/9), 2-8 (2 and 8) or 3-7;
    zipai cards are small or big (小/大), red (二七十) or black."""
    if tile >= ZIPAI_SMALL_FIRST:
        size = "small" if tile < ZIPAI_BIG_FIRST else "big"
        return f"{size} {'red' if rank_of(tile) in (2, 7, 10) else 'black'}"
    if tile >= TEN_FIRST:
        return "ten"
    if tile >= 27:
        return "honor"
    rank = tile % 9 + 1
    if rank in (1, 9):
        return "terminal"
    if rank in (2, 8):
        return "2-8"
    return "3-7"


_TILE_NAMES = tuple(tile_name(t) for t in range(N_CODES))
_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)
_CATEGORIES = tuple(discard_category(t) for t in range(N_CODES))


def _rules_json(rules: Mapping[str, Any]) -> str | None:
    """A hand's rules as sorted JSON (None when there are none); the few distinct rule sets
    of a corpus are encoded once each."""
    if not rules:
        return None
    try:
        return _rules_json_of(tuple(sorted(rules.items())))
    except TypeError:  # a value that cannot be hashed (a list): encode it each time
        return json.dumps(dict(rules), sort_keys=True)


@lru_cache(maxsize=256)
def _rules_json_of(items: tuple[tuple[str, Any], ...]) -> str:
    return json.dumps(dict(items), sort_keys=True)


def _extra_json(extra: dict[str, Any] | None) -> str | None:
    """An event's extra fields other than ``from``, as JSON (None when there are none)."""
    if not extra:
        return None
    rest = {k: v for k, v in extra.items() if k != "from"}
    return json.dumps(rest, ensure_ascii=False) if rest else None


#: An event written out: its ``events`` row (kind, seat, tile, tiles, from_seat, extra)
#: and its array as paipu log JSON.
EncodedEvent = tuple[tuple[Any, ...], str]
#: Encoded events kept (:func:`encode_event`); emptied when full, so memory stays bounded.
EVENT_CACHE_SIZE = 50_000
_encoded: dict[Event, EncodedEvent] = {}


def _encode(event: Event) -> EncodedEvent:
    array = event.to_array()
    size = len(array)
    payload = array[2] if size > 2 else None
    extra = array[3] if size > 3 else None
    row = (
        array[0],
        array[1] if size > 1 else None,
        payload if isinstance(payload, str) else None,
        # a list payload as text (tiles; the dice of a ``dice`` event are numbers)
        [str(x) for x in payload] if isinstance(payload, list) else None,
        extra.get("from") if extra else None,
        _extra_json(extra),
    )
    return row, json.dumps(array, ensure_ascii=False, separators=JSON_SEPARATORS)


def encode_event(event: Event) -> EncodedEvent:
    """An event's ``events`` row and its JSON, each distinct event encoded once: a corpus
    holds few distinct events (a draw or a discard of each tile by each seat, the claims),
    and writing one out costs more than looking it up."""
    try:
        hit = _encoded.get(event)
    except TypeError:  # an event holding a value that cannot be hashed
        return _encode(event)
    if hit is None:
        if len(_encoded) >= EVENT_CACHE_SIZE:
            _encoded.clear()
        hit = _encoded[event] = _encode(event)
    return hit


#: Encodings by the identity of the event object (:func:`encode_events`): the parsers hand
#: out the same object for the same event again and again (4,987 events of 50 Botzone
#: hands are 513 objects), and a look-up by ``id`` needs no call of the event's ``__hash__``
#: and ``__eq__``. Each event object is kept in ``_pinned`` while its ``id`` is a key, so
#: that no other object can take that ``id`` meanwhile; both are emptied when full.
_by_identity: dict[int, EncodedEvent] = {}
_pinned: list[Event] = []


def encode_events(events: Sequence[Event]) -> list[EncodedEvent]:
    """:func:`encode_event` of every event of a hand, looked up by the identity of the
    event objects first (in one pass, without a Python call per event)."""
    hits = list(map(_by_identity.get, map(id, events)))
    if None not in hits:
        return hits  # type: ignore[return-value]
    if len(_pinned) >= EVENT_CACHE_SIZE:
        _by_identity.clear()
        _pinned.clear()
        hits = [None] * len(events)
    # only the misses (a few a hand: the claims, the win), found by list.index
    at = hits.index(None)
    while True:
        event = events[at]
        encoded = _by_identity.get(id(event))  # the same object earlier in the hand
        if encoded is None:
            encoded = _by_identity[id(event)] = encode_event(event)
            _pinned.append(event)
        hits[at] = encoded
        try:
            at = hits.index(None, at + 1)
        except ValueError:
            return hits  # type: ignore[return-value]


def record_text(record: HandRecord, events: Sequence[EncodedEvent]) -> str:
    """The hand as one paipu log line, exactly :func:`~paipu.parsers.paipu.dumps`, with
    the events' JSON taken from ``events`` (:func:`encode_event`) rather than written
    again: the hand is written with no events and their arrays are put in its empty
    ``"events": []``."""
    document = record.to_json(events=False)
    joined = ", ".join([e[1] for e in events])
    rules = record.rules
    # Only a nested ``"events": []`` in the rules could come before the hand's own (the
    # fields before the events are names, numbers, lists of names and the rules; a quote
    # inside a string is escaped), so the first such text is the events' place.
    if not rules or _NO_EVENTS not in (_rules_json(rules) or ""):
        text = dumps_json(document)
        at = text.find(_NO_EVENTS)
        if at >= 0:
            at += len(_NO_EVENTS) - 1
            return f"{text[:at]}{joined}{text[at:]}"
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    side = before
    for key, value in document.items():
        if key == "events":
            side = after
        else:
            side[key] = value
    head = dumps_json(before)[:-1]
    middle = f'{head}, "events": [{joined}]'
    return f"{middle}, {dumps_json(after)[1:]}" if after else middle + "}"


#: An empty events list as :func:`~paipu.parsers.paipu.dumps_json` writes it.
_NO_EVENTS = '"events": []'


class RowBuffer:
    """Columns of rows for every table."""

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {t: defaultdict(list) for t in TABLES}
        self.hands = 0
        self.rejected = 0
        self.mismatched = 0

    def __len__(self) -> int:
        return self.hands + self.rejected

    def mark(self) -> tuple[dict[str, int], int, int, int]:
        """Where the buffer stands, for :meth:`rollback` (the rows of a hand that failed
        half-way through :meth:`add_outcome`): the rows of each table (its columns are
        always of one length between hands)."""
        lengths = {t: self.rows(t) for t in TABLES}
        return lengths, self.hands, self.rejected, self.mismatched

    def rollback(self, mark: tuple[dict[str, int], int, int, int]) -> None:
        """Drop every row added since :meth:`mark`."""
        lengths, self.hands, self.rejected, self.mismatched = mark
        for table, columns in self.columns.items():
            kept = lengths[table]
            for name in list(columns):
                if kept:
                    del columns[name][kept:]
                else:
                    del columns[name]

    def _row(self, table: str, **values: Any) -> None:
        columns = self.columns[table]
        for name, value in values.items():
            columns[name].append(value)

    def add_outcome(
        self, outcome: HandOutcome, fmt: str, path: str, line: int, text: str | None = None
    ) -> None:
        """Rows of one replayed hand; ``text`` is its paipu line when the source was one."""
        record = outcome.record
        key = {"game": record.game, "hand": record.hand}
        players = record.players
        self.hands += 1
        if outcome.verdict == "mismatch":
            self.mismatched += 1
        events = encode_events(record.events)
        if text is None:
            text = record_text(record, events)
        self._hand_row(
            record,
            outcome.outcome,
            len(outcome.wins),
            outcome.verdict,
            outcome.problems,
            (fmt, path, line),
            text,
            EVENTS,
        )
        self._seat_rows(
            record,
            outcome.deltas,
            record.result.deltas if record.result is not None else None,
            {w.seat for w in outcome.wins},
            {
                w.from_seat
                for w in outcome.wins
                if w.from_seat is not None and w.source in ("discard", "robbing_kong")
            },
            outcome.melds,
            outcome.ready_at_end,
        )
        if outcome.wins:
            self._win_rows(record, outcome.wins)
        self._discard_rows(outcome, record.game, record.hand)
        for missed in outcome.missed:
            self._row(
                "missed_wins",
                **key,
                seq=missed.index,
                seat=missed.seat,
                player=players[missed.seat],
                tile=tile_name(missed.tile),
                from_seat=missed.from_seat,
                total=missed.total,
            )
        self._event_rows(record, events)

    def _win_rows(self, record: HandRecord, wins: Sequence[Any]) -> None:
        """The ``wins`` and ``win_fans`` rows of a replayed hand, column by column."""
        game, hand, variant, players = record.game, record.hand, record.variant, record.players
        w = self.columns["wins"]
        f = self.columns["win_fans"]
        for win in wins:
            seat, seq, flags = win.seat, win.index, win.flags
            for name, value in (
                ("game", game),
                ("hand", hand),
                ("seat", seat),
                ("player", players[seat]),
                ("seq", seq),
                ("source", win.source),
                ("from_seat", win.from_seat),
                ("tile", _TILE_NAMES[win.tile]),
                ("total", win.total),
                ("points", win.deltas[seat]),
                ("self_drawn", win.from_seat is None),
                ("last_tile", flags.last_tile),
                ("kong_replacement", flags.kong_replacement),
                ("robbing_kong", flags.robbing_kong),
                ("last_of_kind", flags.last_of_kind),
                (
                    "detail",
                    json.dumps(dict(win.detail), ensure_ascii=False, sort_keys=True)
                    if win.detail
                    else None,
                ),
            ):
                w[name].append(value)
            fans = win.fans
            if not fans:
                continue
            n = len(fans)
            f["game"].extend([game] * n)
            f["hand"].extend([hand] * n)
            f["seat"].extend([seat] * n)
            f["seq"].extend([seq] * n)
            f["variant"].extend([variant] * n)
            f["fan"].extend([fan.id for fan in fans])
            f["name_zh"].extend([fan.name_zh for fan in fans])
            f["name_en"].extend([fan.name_en for fan in fans])
            f["points"].extend([fan.points for fan in fans])
            f["count"].extend([fan.count for fan in fans])

    def _seat_rows(
        self,
        record: HandRecord,
        deltas: Sequence[int],
        recorded: Sequence[int] | None,
        winners: set[int],
        dealt_in: set[int],
        melds: Sequence[int] | None = None,
        ready_at_end: Sequence[bool] | None = None,
        penalties: Sequence[int] | None = None,
    ) -> None:
        """The ``hand_seats`` rows of a hand; what the source does not know (a recorded-only
        hand's melds and readiness, a replayed hand's penalties) is NULL."""
        players = record.players
        n = len(players)
        seats = range(n)
        none = [None] * n
        scores = record.scores_before
        c = self.columns["hand_seats"]
        c["game"].extend([record.game] * n)
        c["hand"].extend([record.hand] * n)
        c["seat"].extend(seats)
        c["player"].extend(players)
        c["seat_wind"].extend([_TILE_NAMES[record.seat_wind(seat)] for seat in seats])
        c["is_dealer"].extend([seat == record.dealer for seat in seats])
        c["delta"].extend([deltas[seat] for seat in seats])
        c["recorded_delta"].extend(
            [recorded[seat] for seat in seats] if recorded is not None else none
        )
        c["score_before"].extend([scores[seat] for seat in seats] if scores else none)
        c["won"].extend([seat in winners for seat in seats])
        c["dealt_in"].extend([seat in dealt_in for seat in seats])
        c["melds"].extend([melds[seat] for seat in seats] if melds is not None else none)
        c["ready_at_end"].extend(
            [ready_at_end[seat] for seat in seats] if ready_at_end is not None else none
        )
        c["penalty"].extend([penalties[seat] for seat in seats] if penalties else none)

    def _hand_row(
        self,
        record: HandRecord,
        outcome: str,
        winners: int,
        verdict: str,
        problems: tuple[str, ...],
        source: tuple[str, str, int],
        text: str,
        source_kind: str,
    ) -> None:
        """The ``hands`` row of a hand; ``source`` is (format, file, line)."""
        fmt, path, line = source
        self._row(
            "hands",
            game=record.game,
            hand=record.hand,
            variant=record.variant,
            rules=_rules_json(record.rules),
            time=record.time,
            players=list(record.players),
            dealer=record.dealer,
            round_wind=tile_name(record.round_wind),
            outcome=outcome,
            winners=winners,
            verdict=verdict,
            problems=list(problems),
            n_events=len(record.events),
            source_format=fmt,
            source_file=path,
            source_line=line,
            record=text,
            source_kind=source_kind,
        )

    def add_recorded(
        self, record: HandRecord, verdict: RecordedVerdict, fmt: str, path: str, line: int
    ) -> None:
        """Rows of one recorded-only hand (a score sheet row, a 国标小助手 entry): the hand,
        its seats, wins and claimed fans; no events, discards or missed wins. ``delta`` is
        what the sheet says changed hands; what a sheet does not know is NULL."""
        key = {"game": record.game, "hand": record.hand}
        players = record.players
        result = record.result
        wins = result.wins if result is not None else ()
        n = len(players)
        deltas = result.deltas if result is not None and result.deltas else (0,) * n
        facts = recorded_facts(record)
        penalties = facts.get("penalties")
        tiles = list(facts.get("tiles") or []) + [None] * len(wins)
        self.hands += 1
        if verdict.status != "ok":
            self.mismatched += 1
        self._hand_row(
            record,
            result.outcome if result is not None else "draw",
            len(wins),
            verdict.status,
            verdict.problems,
            (fmt, path, line),
            dumps_json(record.to_json()),
            RECORDED,
        )
        self._seat_rows(
            record,
            deltas,
            deltas,
            {w.seat for w in wins},
            {w.from_seat for w in wins if w.from_seat is not None},
            penalties=penalties,
        )
        table = get_variant(record.variant).spec.fans.by_id
        answers = list(verdict.computed.get("wins", [])) + [{}] * len(wins)
        for win, request, answer in zip(wins, tiles, answers, strict=False):
            # the claimed fans, each at the rules' price where the audit knows it
            priced = {f[0]: f[1] for f in answer.get("fans", [])}
            flags = (request or {}).get("flags", {})
            robbing = bool(flags.get("robbing_kong"))
            fans_total = sum(f.points * f.count for f in win.fans)
            self._row(
                "wins",
                **key,
                seat=win.seat,
                player=players[win.seat],
                seq=None,
                source="self_draw"
                if win.from_seat is None
                else "robbing_kong"
                if robbing
                else "discard",
                from_seat=win.from_seat,
                tile=tile_name(win.tile) if win.tile is not None else None,
                total=win.total if win.total is not None else fans_total,
                points=deltas[win.seat] - (penalties[win.seat] if penalties else 0),
                self_drawn=win.from_seat is None,
                last_tile=bool(flags.get("last_tile")),
                kong_replacement=bool(flags.get("kong_replacement")),
                robbing_kong=robbing,
                last_of_kind=bool(flags.get("last_of_kind")),
                detail=None,
            )
            for fan in win.fans:
                fan_def = table.get(fan.id)
                self._row(
                    "win_fans",
                    **key,
                    seat=win.seat,
                    seq=None,
                    variant=record.variant,
                    fan=fan.id,
                    name_zh=fan_def.name_zh if fan_def is not None else fan.id,
                    name_en=fan_def.name_en if fan_def is not None else fan.id,
                    points=priced.get(fan.id, fan.points),
                    count=fan.count,
                )

    def _event_rows(self, record: HandRecord, events: Sequence[EncodedEvent]) -> None:
        """The events table, column by column, from the hand's encoded events."""
        n = len(events)
        if not n:
            return
        c = self.columns["events"]
        c["game"].extend([record.game] * n)
        c["hand"].extend([record.hand] * n)
        c["seq"].extend(range(n))
        # the encoded rows themselves, shared by every hand holding the same event: the
        # shard's columns are built from the distinct ones (pipeline.ingest.arrow_table)
        c[EVENT_ROW].extend(map(_FIRST, events))

    def _discard_rows(self, outcome: HandOutcome, game: str, hand: int) -> None:
        """The discards table, column by column (the bulk of a hand's rows)."""
        record = outcome.record
        facts = outcome.discards
        if not facts:
            return
        c = self.columns["discards"]
        n = len(facts)
        players = record.players
        # DiscardFact's fields as columns, in one pass
        (seq, seats, turns, tiles, visible, left, melds, ready, can_win, won_on, claimed) = zip(
            *facts, strict=True
        )
        c["game"].extend([game] * n)
        c["hand"].extend([hand] * n)
        c["variant"].extend([record.variant] * n)
        c["seq"].extend(seq)
        c["seat"].extend(seats)
        c["player"].extend(map(players.__getitem__, seats))
        c["turn"].extend(turns)
        c["tile"].extend(map(_TILE_NAMES.__getitem__, tiles))
        c["category"].extend(map(_CATEGORIES.__getitem__, tiles))
        c["visible"].extend(visible)
        c["tiles_left"].extend(left)
        # the facts' own tuples: Arrow reads them as lists, and none is copied
        c["opponent_melds"].extend(melds)
        c["opponent_ready"].extend(ready)
        c["opponent_can_win"].extend(can_win)
        # every seat has opponents; an empty tuple (none) counts 0, as max(default=0)
        c["max_opponent_melds"].extend(
            map(max, melds) if all(melds) else [max(m, default=0) for m in melds]
        )
        c["ready_opponents"].extend(map(sum, ready))
        c["dangerous"].extend(map(any, can_win))
        c["won_on"].extend(won_on)
        c["claimed"].extend(claimed)

    def add_reject(self, rejected: Rejected) -> None:
        self.rejected += 1
        self._row(
            "rejects",
            source=rejected.path,
            line=rejected.line,
            game=rejected.game,
            hand=rejected.hand,
            variant=rejected.variant,
            players=list(rejected.players) if rejected.players else None,
            event_index=rejected.event_index,
            reason=rejected.reason,
        )

    def extend(self, other: RowBuffer) -> None:
        for table in TABLES:
            mine = self.columns[table]
            for name, values in other.columns[table].items():
                mine[name].extend(values)
        self.hands += other.hands
        self.rejected += other.rejected
        self.mismatched += other.mismatched

    def rows(self, table: str) -> int:
        columns = self.columns[table]
        return len(next(iter(columns.values()))) if columns else 0
