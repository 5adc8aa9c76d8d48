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
from typing import IO, Any

from paipu.parsers import Parsed, ParseResult, Rejected
from paipu.rules.record import HandRecord, RecordError


def read_paipu(path: Path) -> Iterator[ParseResult]:
    """Stream the hands of a paipu log file, one per line."""
    try:
        stream = path.open(encoding="utf-8")
    except OSError as exc:
        yield Rejected(str(path), 0, f"cannot read the file ({exc.strerror})")
        return
    with stream:
        yield from read_lines(stream, str(path))


def read_lines(stream: IO[str], name: str) -> Iterator[ParseResult]:
    """Hands from an open text stream (blank lines are skipped)."""
    line_no = 0
    while True:
        try:
            line = stream.readline()
        except UnicodeDecodeError as exc:
            line_no += 1
            yield Rejected(name, line_no, f"not UTF-8 text ({exc.reason})")
            return
        if not line:
            return
        line_no += 1
        if not line.strip():
            continue
        yield parse_line(line, name, line_no)


def parse_line(line: str, name: str, line_no: int) -> ParseResult:
    """One hand from one line of a paipu log."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return Rejected(name, line_no, f"not valid JSON: {exc.msg} at column {exc.colno}")
    game = obj.get("game") if isinstance(obj, dict) else None
    hand = obj.get("hand") if isinstance(obj, dict) else None
    game = game if isinstance(game, str) else None
    hand = hand if isinstance(hand, int) and not isinstance(hand, bool) else None
    try:
        record = HandRecord.from_json(obj)
    except RecordError as exc:
        return Rejected(name, line_no, str(exc), game, hand, exc.event_index)
    return Parsed(record, name, line_no, line.strip())


def dumps(record: HandRecord) -> str:
    """The canonical one-line JSON of a hand (no trailing newline)."""
    return dumps_json(record.to_json())


def dumps_json(document: dict[str, Any]) -> str:
    """:func:`dumps` of a hand already turned into JSON (:meth:`HandRecord.to_json`)."""
    return json.dumps(document, ensure_ascii=False, separators=(", ", ": "))


def write_paipu(records: Iterable[HandRecord], stream: IO[str]) -> int:
    """Write hands, one per line; returns how many."""
    n = 0
    for record in records:
        stream.write(dumps(record) + "\n")
        n += 1
    return n
