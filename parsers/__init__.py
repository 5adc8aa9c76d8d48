"""Parsers: one module per source format, each turning its records into paipu hands.

Every parser is a function ``parse(path) -> Iterator[Parsed | Rejected]`` that streams its
file: a :class:`Parsed` carries a :class:`~paipu.rules.record.HandRecord` and where it came
from; a :class:`Rejected` says which hand could not be read and why. A parser never
raises for bad content and never holds a whole file's hands in memory.

:func:`detect` recognises a file's format by its content, so that ``paipu ingest DIR``
takes a folder of mixed files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from paipu.rules.record import HandRecord


@dataclass(frozen=True, slots=True)
class Parsed:
    """A hand read from ``path``; ``line`` is where it starts (1-based)."""

    record: HandRecord
    path: str
    line: int


@dataclass(frozen=True, slots=True)
class Rejected:
    """A hand (or a piece of a file) that could not be read, with the reason."""

    path: str
    line: int
    reason: str
    game: str | None = None
    hand: int | None = None
    event_index: int | None = None

    def describe(self) -> str:
        where = f"{self.path}:{self.line}"
        what = f" game {self.game} hand {self.hand}" if self.game is not None else ""
        event = f" event {self.event_index}" if self.event_index is not None else ""
        return f"{where}{what}{event}: {self.reason}"


ParseResult = Parsed | Rejected
Parser = Callable[[Path], Iterator[ParseResult]]


class FormatError(ValueError):
    """A file whose format cannot be recognised."""


FORMATS = ("paipu", "botzone-text", "botzone-json")


def detect(path: Path) -> str:
    """The format of a file, judged from its first bytes."""
    try:
        with path.open("rb") as stream:
            head = stream.read(4096)
    except OSError as exc:
        raise FormatError(f"{path}: cannot read ({exc.strerror})") from None
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff").lstrip()
    if text.startswith("{"):
        first_line = text.split("\n", 1)[0]
        if '"paipu"' in first_line:
            return "paipu"
        if '"logs"' in text or '"initdata"' in text:
            return "botzone-json"
        return "paipu"
    if text.startswith("Match"):
        return "botzone-text"
    if not text:
        raise FormatError(f"{path}: the file is empty")
    raise FormatError(f"{path}: not a paipu log, a Botzone text log or a Botzone JSON match log")


def parser_for(fmt: str) -> Parser:
    """The parse function of a format name."""
    if fmt == "paipu":
        from paipu.parsers.paipu import read_paipu

        return read_paipu
    if fmt == "botzone-text":
        from paipu.parsers.botzone_text import parse_botzone_text

        return parse_botzone_text
    if fmt == "botzone-json":
        from paipu.parsers.botzone_json import parse_botzone_json

        return parse_botzone_json
    raise FormatError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def parse_any(path: Path) -> Iterator[ParseResult]:
    """Detect the format of ``path`` and parse it; an unreadable file is one rejection."""
    try:
        fmt = detect(path)
    except FormatError as exc:
        yield Rejected(str(path), 0, str(exc))
        return
    yield from parser_for(fmt)(path)
