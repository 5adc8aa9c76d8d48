"""The paipu log (``.paipu.jsonl``): a streaming reader and a writer.

>>> import io
>>> line = ('{"paipu": 1, "variant": "mcr", "game": "g1", "hand": 0,'
...         ' "players": ["a", "b", "c", "d"], "dealer": 0,'
...         ' "deal": [[], [], [], []], "events": []}')
>>> [type(r).__name__ for r in read_lines(io.StringIO(line + "\\n\\nnot json\\n"), "x.jsonl")]
['Parsed', 'Rejected']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO

from paipu.parsers import Parsed, ParseResult, Rejected
from paipu.rules.record import HandRecord, RecordError, is_int

#: The longest line a paipu log may have, in bytes. A longer line is refused without being
#: read whole (memory stays bounded); a real hand is a few kilobytes.
MAX_LINE_BYTES = 16 * 1024 * 1024
_PIECE = 1024 * 1024  # a long line is read in pieces of this many bytes
#: Python refuses to convert integers longer than this many digits (``sys.int_info``).
_MAX_DIGITS = 4300


class HostileJSONError(ValueError):
    """JSON that is valid but not acceptable in a paipu log (NaN, a duplicate key)."""


def read_paipu(path: Path) -> Iterator[ParseResult]:
    """Stream the hands of a paipu log file, one per line."""
    try:
        stream = path.open("rb")
    except OSError as exc:
        yield Rejected(str(path), 0, f"cannot read the file ({exc.strerror})")
        return
    name = str(path)
    with stream:
        for line in text_lines(stream, name):
            yield line if isinstance(line, Rejected) else parse_line(line[1], name, line[0])


def text_lines(stream: BinaryIO, name: str) -> Iterator[tuple[int, str] | Rejected]:
    """``(line number, text)`` of the non-blank lines of a paipu log; a line that is too
    long or not UTF-8 is its rejection instead."""
    for line_no, raw in bounded_lines(stream):
        if raw is None:
            yield overlong(name, line_no)
            continue
        if not raw.strip():
            continue
        try:
            yield line_no, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield not_utf8(name, line_no, exc)


def bounded_lines(
    stream: BinaryIO, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, bytes)`` of a binary stream, 1-based; ``None`` for a line longer
    than ``limit`` bytes, which is skipped a megabyte at a time and never held whole."""
    line_no = 0
    while True:
        raw = stream.readline(_PIECE)
        if not raw:
            return
        line_no += 1
        if raw.endswith(b"\n") or len(raw) < _PIECE:  # the usual case: one piece
            yield line_no, raw if len(raw) - raw.endswith(b"\n") <= limit else None
            continue
        pieces, size = [raw], len(raw)
        while raw and not raw.endswith(b"\n") and size <= limit + 1:
            raw = stream.readline(_PIECE)
            pieces.append(raw)
            size += len(raw)
        if size - pieces[-1].endswith(b"\n") <= limit:
            yield line_no, b"".join(pieces)
            continue
        pieces.clear()
        while raw and not raw.endswith(b"\n"):  # skip the rest
            raw = stream.readline(_PIECE)
        yield line_no, None


def overlong(name: str, line_no: int) -> Rejected:
    """The rejection of a line longer than :data:`MAX_LINE_BYTES`."""
    return Rejected(
        name,
        line_no,
        f"the line is longer than {MAX_LINE_BYTES // (1024 * 1024)} MB, the limit of a "
        "paipu log line; it was skipped unread",
    )


def not_utf8(name: str, line_no: int, exc: UnicodeDecodeError) -> Rejected:
    """The rejection of a line that is not UTF-8, with the offending byte's position."""
    return Rejected(
        name, line_no, f"not UTF-8 text ({exc.reason} at byte {exc.start + 1} of the line)"
    )


def read_lines(stream: IO[str], name: str) -> Iterator[ParseResult]:
    """Hands from an open text stream (blank lines are skipped)."""
    line_no = 0
    while True:
        try:
            line = stream.readline(MAX_LINE_BYTES + 1)
        except UnicodeDecodeError as exc:
            line_no += 1
            yield Rejected(name, line_no, f"not UTF-8 text ({exc.reason})")
            return
        if not line:
            return
        line_no += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith("\n"):
            while line and not line.endswith("\n"):
                line = stream.readline(1 << 20)
            yield overlong(name, line_no)
            continue
        if not line.strip():
            continue
        yield parse_line(line, name, line_no)


def _no_constant(name: str) -> Any:
    raise HostileJSONError(f"{name} is not a number a paipu log may hold")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = sorted({k for k, _ in pairs if k in seen or seen.add(k)})
        raise HostileJSONError(f"duplicate key(s) in one object: {', '.join(map(repr, twice))}")
    return out


def loads(line: str) -> Any:
    """Strict JSON: no NaN or Infinity, no key twice in one object. Raises ValueError
    (:class:`json.JSONDecodeError`, :class:`HostileJSONError`) or RecursionError."""
    return json.loads(line, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)


def parse_line(line: str, name: str, line_no: int) -> ParseResult:
    """One hand from one line of a paipu log; never raises for bad content."""
    try:
        obj = loads(line)
    except json.JSONDecodeError as exc:
        return Rejected(name, line_no, f"not valid JSON: {exc.msg} at column {exc.colno}")
    except HostileJSONError as exc:
        return Rejected(name, line_no, f"not acceptable JSON: {exc}")
    except RecursionError:
        return Rejected(name, line_no, "not acceptable JSON: arrays or objects nested too deep")
    except ValueError:  # an integer of more digits than Python converts
        return Rejected(
            name, line_no, f"not acceptable JSON: a number of more than {_MAX_DIGITS} digits"
        )
    game = obj.get("game") if isinstance(obj, dict) else None
    hand = obj.get("hand") if isinstance(obj, dict) else None
    game = game if isinstance(game, str) else None
    hand = hand if is_int(hand) and hand >= 0 else None
    try:
        record = HandRecord.from_json(obj)
    except RecordError as exc:
        return Rejected(name, line_no, str(exc), game, hand, exc.event_index)
    except RecursionError:
        return Rejected(name, line_no, "a value is nested too deep", game, hand)
    return Parsed(record, name, line_no, line.strip())


def dumps(record: HandRecord) -> str:
    """The canonical one-line JSON of a hand (no trailing newline)."""
    return dumps_json(record.to_json())


#: The canonical line's separators between items and after keys.
JSON_SEPARATORS = (", ", ": ")


def dumps_json(document: dict[str, Any]) -> str:
    """:func:`dumps` of a hand already turned into JSON (:meth:`HandRecord.to_json`)."""
    return json.dumps(document, ensure_ascii=False, separators=JSON_SEPARATORS)


def write_paipu(records: Iterable[HandRecord], stream: IO[str]) -> int:
    """Write hands, one per line; returns how many."""
    n = 0
    for record in records:
        stream.write(dumps(record) + "\n")
        n += 1
    return n
