"""Parsers: one module per source format, each turning its records into paipu hands.

Every parser is a function ``parse(path) -> Iterator[Parsed | Rejected]`` that streams its
file: a :class:`Parsed` carries a :class:`~paipu.rules.record.HandRecord` and where it came
from; a :class:`Rejected` says which hand could not be read and why. A parser never
raises for bad content and never holds a whole file's hands in memory.

:func:`detect` recognises a file's format by its content, so that ``paipu ingest DIR``
takes a folder of mixed files.
"""

from __future__ import annotations

import os
import re
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
    text: str | None = None  # the source line when it already is a paipu log line


#: The longest reason a rejection keeps (a value it quotes is cut, with the count said).
MAX_REASON = 2000


@dataclass(frozen=True, slots=True)
class Rejected:
    """A hand (or a piece of a file) that could not be read, with the reason."""

    path: str
    line: int
    reason: str
    game: str | None = None
    hand: int | None = None
    event_index: int | None = None
    variant: str | None = None
    players: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.reason) > MAX_REASON:  # a hostile value quoted in full would be huge
            cut = len(self.reason) - MAX_REASON
            object.__setattr__(
                self, "reason", f"{self.reason[:MAX_REASON]}… ({cut:,} more characters)"
            )

    def describe(self) -> str:
        """``path:line game … hand … event …: reason``; line 0 stands for the whole file."""
        where = location(self.path, self.line)
        what = f" game {self.game} hand {self.hand}" if self.game is not None else ""
        event = f" event {self.event_index}" if self.event_index is not None else ""
        return f"{where}{what}{event}: {self.reason}"


def location(path: str, line: int) -> str:
    """``path:line``, or ``path (the whole file)`` for line 0 (a file that could not be read).

    >>> location("a.txt", 3), location("a.txt", 0)
    ('a.txt:3', 'a.txt (the whole file)')
    """
    return f"{path}:{line}" if line else f"{path} (the whole file)"


ParseResult = Parsed | Rejected
Parser = Callable[[Path], Iterator[ParseResult]]


class FormatError(ValueError):
    """A file whose format cannot be recognised."""


FORMATS = ("paipu", "botzone-text", "botzone-json", "score-sheet", "mahjong-helper")
_FIRST_KEY = re.compile(r'\{\s*"([^"]*)"\s*:')
#: Top-level keys of a Botzone match log (``<matchid>_lite.json``) that a paipu hand lacks.
_BOTZONE_JSON_KEYS = frozenset({"status", "logs", "initdata", "viewurl", "success"})


def detect(path: Path) -> str:
    """The format of a file, judged from its first bytes."""
    try:
        with path.open("rb") as stream:
            head = stream.read(4096)
    except OSError as exc:
        raise FormatError(f"{path}: cannot read ({exc.strerror})") from None
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff").lstrip()
    if not text:
        raise FormatError(f"{path}: the file is empty")
    from paipu.parsers.mahjong_helper import looks_like_helper
    from paipu.parsers.score_sheet import looks_like_sheet

    if looks_like_sheet(text.split("\n", 1)[0]):
        return "score-sheet"
    if text.startswith("{"):
        first_key = _FIRST_KEY.match(text)
        if first_key and first_key.group(1) == "paipu":
            return "paipu"
        if first_key and first_key.group(1) in _BOTZONE_JSON_KEYS:
            return "botzone-json"
        if looks_like_helper(text):
            return "mahjong-helper"
    elif looks_like_helper(text):  # a history array or a P2P stream
        return "mahjong-helper"
        first_line = text.split("\n", 1)[0]
        if '"paipu"' in first_line:
            return "paipu"
        if '"logs"' in text or '"initdata"' in text:
            return "botzone-json"
        return "paipu"
    if text.split(maxsplit=1)[0] == "Match":
        return "botzone-text"
    first = text.splitlines()[0][:40]
    raise FormatError(
        f"{path}: not a paipu log (one JSON object per line), a Botzone text log (starting "
        f"with 'Match'), a Botzone JSON match log, a score sheet (CSV with the columns "
        f"sitting, hand, …, deltas) or a 国标小助手 record; its first line is {first!r}"
    )


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
    if fmt == "score-sheet":
        from paipu.parsers.score_sheet import parse_sheet

        return parse_sheet
    if fmt == "mahjong-helper":
        from paipu.parsers.mahjong_helper import parse_helper

        return parse_helper
    raise FormatError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


#: A raw hand: the 1-based line where it starts and its text (None if not UTF-8).
RawUnit = tuple[int, str | None]


def units(fmt: str, path: Path) -> Iterator[RawUnit | Rejected]:
    """Cut a file into raw hands without parsing them (cheap; for parallel ingest)."""
    if fmt == "paipu":
        yield from _lines(path)
    elif fmt == "botzone-text":
        from paipu.parsers.botzone_text import blocks

        yield from blocks(path)
    else:
        from paipu.parsers.paipu import MAX_LINE_BYTES

        if path.stat().st_size > MAX_LINE_BYTES:  # a match log is a few hundred kilobytes
            yield Rejected(
                os.path.normpath(str(path)),
                0,
                f"a JSON match log larger than {MAX_LINE_BYTES // (1024 * 1024)} MB; "
                "refused unread",
            )
            return
        try:
            yield 1, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            yield 1, None


def _lines(path: Path) -> Iterator[RawUnit | Rejected]:
    """The non-blank lines of a paipu log; an overlong or non-UTF-8 line is a rejection."""
    from paipu.parsers.paipu import text_lines

    with path.open("rb") as stream:
        yield from text_lines(stream, os.path.normpath(str(path)))


def parse_unit(fmt: str, path: str, line: int, text: str | None) -> list[ParseResult]:
    """Parse one raw hand cut by :func:`units`."""
    if text is None:
        return [Rejected(path, line, "not UTF-8 text")]
    if fmt == "paipu":
        from paipu.parsers.paipu import parse_line

        return [parse_line(text, path, line)]
    if fmt == "botzone-text":
        from paipu.parsers.botzone_text import parse_block

        return [parse_block(text, path, line)]
    if fmt == "botzone-json":
        from paipu.parsers.botzone_json import parse_json_text

        return list(parse_json_text(text, path))
    if fmt == "score-sheet":
        import io

        from paipu.parsers.score_sheet import read_sheet

        return list(read_sheet(io.StringIO(text.lstrip("\ufeff")), path))
    if fmt == "mahjong-helper":
        from paipu.parsers.mahjong_helper import parse_helper_text

        return list(parse_helper_text(text.lstrip("\ufeff"), path))
    raise FormatError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def read_whole(path: Path) -> str | Rejected:
    """The text of a file read whole (a BOM dropped), or the whole file's rejection."""
    try:
        return path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        return Rejected(str(path), 0, f"cannot read the file ({exc.strerror})")
    except UnicodeDecodeError as exc:
        return Rejected(str(path), 0, f"not UTF-8 text ({exc.reason})")


def detect_or_reject(path: Path, name: str | None = None) -> str | Rejected:
    """The format of ``path`` (:func:`detect`), or the whole file's rejection, reported
    under ``name`` (default: the path)."""
    try:
        return detect(path)
    except FormatError as exc:
        return Rejected(name or str(path), 0, str(exc).removeprefix(f"{path}: "))


def parse_any(path: Path) -> Iterator[ParseResult]:
    """Detect the format of ``path`` and parse it; an unreadable file is one rejection."""
    fmt = detect_or_reject(path)
    if isinstance(fmt, Rejected):
        yield fmt
        return
    yield from parser_for(fmt)(path)
