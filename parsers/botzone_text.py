"""Botzone's MCR text logs (``data.txt`` of the published set, ``sample.txt``).

One game per block of lines; a block starts at ``Match <id>`` and ends with its ``Score``
line (a blank line usually follows)::

    Match 61602cb45ddc087351c04358
    Wind 1
    Player 0 Deal T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9
    …                                     (the four deals, then the actions)
    Player 2 Chi T5                       (T5 is the middle tile; the last discard is claimed)
    Player 2 Play J3
    Player 0 Peng W9 Ignore Player 3 Chi W8
    Player 1 Hu B6
    Fan 9 混一色*1+箭刻*1+老少副*1
    Score -8 33 -17 -8

``Ignore …`` parts are competing claims that lost and are dropped. A drawn hand ends with
``Huang`` and ``Score 0 0 0 0``. The file is read line by line (the published ``data.txt``
runs to hundreds of MB); a block that cannot become a hand is rejected with the line and
the reason, and reading goes on with the next ``Match``.

>>> import io
>>> text = '''Match g1
... Wind 0
... Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 F1
... Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 T9 B4 B5 B6 F2
... Player 2 Deal B7 B8 B9 B1 B2 B3 T1 T2 T3 W1 W2 W3 F3
... Player 3 Deal J1 J1 J2 J2 J3 J3 F4 F4 W4 W5 W6 T4 T5
... Player 0 Draw F1
... Player 0 Hu W9
... Fan 8 无番和*1
... Score 24 -8 -8 -8
... '''
>>> [r] = read_text_lines(io.StringIO(text), "x.txt", "x.txt")
>>> [e.to_array() for e in r.record.events]
[['draw', 0, '1z'], ['win', 0, '1z']]
>>> r.record.result.to_json()["wins"]
[{'seat': 0, 'tile': '1z', 'total': 8, 'fans': [['chicken_hand', 8, 1]]}]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO

from paipu.parsers import Parsed, ParseResult, Rejected
from paipu.parsers.botzone_common import (
    DEAL_SIZE,
    DISCARD_EVENTS,
    DRAW_EVENTS,
    SEATS,
    TILE_CODES,
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
from paipu.rules.events import Event, Win
from paipu.rules.record import RecordedFan, RecordedResult
from paipu.rules.tiles import Tile

FORMAT = "botzone-text"
_INTEGER = re.compile(r"[0-9]+")


def parse_botzone_text(path: Path) -> Iterator[ParseResult]:
    """Stream the hands of a Botzone text log, one per ``Match`` block."""
    try:
        stream = path.open(encoding="utf-8", errors="replace")
    except OSError as exc:
        yield Rejected(str(path), 0, f"cannot read the file ({exc.strerror})")
        return
    with stream:
        yield from read_text_lines(stream, str(path), path.name)


def blocks(path: Path) -> Iterator[tuple[int, str] | Rejected]:
    """The raw ``Match`` blocks of a file, as (first line, text), for parallel ingest."""
    with path.open(encoding="utf-8", errors="replace") as stream:
        for block in _blocks(stream, str(path)):
            yield block if isinstance(block, Rejected) else (block[0], "\n".join(block[1]))


def _first_word_is(text: str, word: str) -> bool:
    """Whether the first word of a stripped, non-empty line is ``word`` (as ``split``
    would cut it: any whitespace ends a word)."""
    size = len(word)
    return text.startswith(word) and (len(text) == size or text[size].isspace())


def parse_block(text: str, name: str, line: int) -> ParseResult:
    """Parse one raw block cut by :func:`blocks` (its lines are consecutive)."""
    return _parse_block(line, text.split("\n"), name, _file_name(name))


@lru_cache(maxsize=64)
def _file_name(name: str) -> str:
    """The last part of a path (the blocks of one file are parsed one after another)."""
    return Path(name).name


def read_text_lines(stream: IO[str], name: str, file_name: str) -> Iterator[ParseResult]:
    """Hands from an open text stream; ``name`` is reported, ``file_name`` goes in ``source``."""
    for block in _blocks(stream, name):
        yield block if isinstance(block, Rejected) else _parse_block(*block, name, file_name)


def _blocks(stream: IO[str], name: str) -> Iterator[tuple[int, list[str]] | Rejected]:
    """The ``Match`` blocks of a stream, each up to its ``Score`` line or a blank line, as
    (line of the ``Match`` line, the block's stripped lines).

    Lines outside a block are reported once per run of such lines. Lines are only stripped
    and looked at, not split into words: the ingest's main process cuts the whole corpus.
    """
    lines: list[str] = []
    start = 0
    stray = False
    for line_no, raw in enumerate(stream, 1):
        text = raw.strip()
        if not text:
            if lines:
                yield start, lines
            lines, stray = [], False
        elif text[0] == "M" and _first_word_is(text, "Match"):
            if lines:
                yield start, lines
            lines, start, stray = [text], line_no, False
        elif lines:
            lines.append(text)
            if text[0] == "S" and _first_word_is(text, "Score"):
                yield start, lines
                lines = []
        elif not stray:
            stray = True
            yield Rejected(name, line_no, f"line {line_no} is outside a match: {text[:60]!r}")
    if lines:
        yield start, lines


@dataclass
class _Match:
    """A block being read: the header, the builder and, once known, the result."""

    game: str
    wind: Tile | None = None
    deals: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    builder: HandBuilder | None = None
    win: Win | None = None
    fan: tuple[int, tuple[RecordedFan, ...]] | None = None
    result: RecordedResult | None = None
    ended: bool = False  # Hu or Huang seen


def _parse_block(start: int, block: list[str], name: str, file_name: str) -> ParseResult:
    """One hand from the stripped lines of a block, the first (``Match``) at line ``start``
    (the lines are consecutive)."""
    header = block[0]
    words = header.split()
    game = words[1] if len(words) == 2 else None
    if game is None:
        return Rejected(name, start, f"line {start}: expected 'Match <id>', got {header[:60]!r}")
    match = _Match(game)
    line_no = start
    fast_lines = _FAST_LINES
    claim_lines = _CLAIM_LINES
    #: The builder's events while the hand is being played (built, not ended, no result):
    #: then a line written the usual way takes a fast path.
    events: list[Event] | None = None
    try:
        for line_no, text in enumerate(block[1:], start + 1):  # noqa: B007 (reported on error)
            if events is not None:
                # the common case, a draw or a discard written the usual way: its events
                found = fast_lines.get(text)
                if found is not None:
                    events.extend(found)
                    continue
                # a claim or kong written the usual way (losing claims after it dropped)
                cut = text.find(" Ignore ")
                claim = claim_lines.get(text if cut < 0 else text[:cut])
                if claim is not None:
                    action, seat, tile = claim
                    assert match.builder is not None  # events are the builder's
                    action(match.builder, seat, tile)
                    continue
            words = text.split()
            # A deal before the first action, written the usual way: 13 known codes.
            if (
                len(words) == _DEAL_WORDS
                and words[2] == "Deal"
                and words[0] == "Player"
                and match.builder is None
                and match.result is None
            ):
                seat = _SEATS.get(words[1])
                deal = tuple(map(_TILE_CODE, words[3:]))
                if seat is not None and seat not in match.deals and None not in deal:
                    match.deals[seat] = deal  # type: ignore[assignment]  # (no None in it)
                    continue
            # A draw or a discard spaced otherwise, straight to the builder.
            if len(words) == 4 and words[0] == "Player" and words[2] in _DRAW_OR_PLAY:
                seat, tile, builder = _SEATS.get(words[1]), TILE_CODES.get(words[3]), match.builder
                if (
                    seat is not None
                    and tile is not None
                    and builder is not None
                    and not match.ended
                    and match.result is None
                ):
                    if words[2] == "Draw":
                        builder.draw(seat, tile)
                    else:
                        builder.discard(seat, tile)
                    continue
            _read_words(match, text, words)
            builder = match.builder
            playing = builder is not None and not match.ended and match.result is None
            events = builder.events if playing and builder is not None else None
        if match.result is None:
            raise BotzoneError(
                f"the match starting at line {start} has no Score line (file cut short?)"
            )
    except BotzoneError as exc:
        return Rejected(name, line_no, f"line {line_no}: {exc}", game, 0)
    assert match.builder is not None and match.wind is not None  # a result implies both
    record = match.builder.record(
        game=game,
        players=tuple(f"p{seat}" for seat in range(SEATS)),
        round_wind=match.wind,
        deal=tuple(match.deals[seat] for seat in range(SEATS)),
        result=match.result,
        source={"format": FORMAT, "file": file_name, "line": start},
    )
    return Parsed(record, name, start)


_DRAW_OR_PLAY = frozenset({"Draw", "Play"})
#: ``Player <seat> Deal`` and the 13 tiles.
_DEAL_WORDS = 3 + DEAL_SIZE
_TILE_CODE = TILE_CODES.get
_SEATS = {str(seat): seat for seat in range(SEATS)}
#: ``Player <seat> Draw|Play <tile>`` lines, single-spaced, and their events.
_FAST_LINES: dict[str, tuple[Event, ...]] = {
    **{
        f"Player {seat} Draw {code}": DRAW_EVENTS[seat, tile]
        for seat in range(SEATS)
        for code, tile in TILE_CODES.items()
    },
    **{
        f"Player {seat} Play {code}": (DISCARD_EVENTS[seat, tile],)
        for seat in range(SEATS)
        for code, tile in TILE_CODES.items()
    },
}


def _read_line(match: _Match, text: str) -> None:
    """Apply one line of a block to the match being read."""
    _read_words(match, text, text.split())


def _read_words(match: _Match, text: str, words: list[str]) -> None:
    """Apply one line of a block, already split into words."""
    keyword = words[0]
    if match.result is not None:
        raise BotzoneError(f"{text[:60]!r} after the Score line")
    if keyword == "Player":
        _player_line(match, words)
    elif keyword == "Wind":
        if match.wind is not None or match.builder is not None:
            raise BotzoneError("a second or late Wind line")
        match.wind = round_wind(_one_arg(words))
    elif keyword == "Huang":
        if len(words) != 1:
            raise BotzoneError(f"Huang takes nothing: {text[:60]!r}")
        _builder(match, "Huang")
        match.ended = True
    elif keyword == "Fan":
        if match.win is None or match.fan is not None:
            raise BotzoneError("a Fan line must follow the Hu line, once")
        match.fan = _fan_line(words)
    elif keyword == "Score":
        match.result = _score_line(match, words)
    else:
        raise BotzoneError(f"unknown line {text[:60]!r}")


def _one_arg(words: list[str]) -> str:
    if len(words) != 2:
        raise BotzoneError(f"{words[0]} takes one value: {' '.join(words)[:60]!r}")
    return words[1]


def _builder(match: _Match, action: str) -> HandBuilder:
    """The builder, created at the first action once the Wind and the four Deals are read."""
    if match.ended:
        raise BotzoneError(f"{action} after the hand ended")
    if match.builder is None:
        if match.wind is None:
            raise BotzoneError(f"{action} before the Wind line")
        missing = [str(seat) for seat in range(SEATS) if seat not in match.deals]
        if missing:
            raise BotzoneError(f"{action} before the Deal of player(s) {', '.join(missing)}")
        match.builder = HandBuilder()
    return match.builder


def _player_line(match: _Match, words: list[str]) -> None:
    """``Player <seat> <Action> <tile(s)> [Ignore Player …]``."""
    if "Ignore" in words:
        words = words[: words.index("Ignore")]
    if len(words) < 3 or not _INTEGER.fullmatch(words[1]):
        raise BotzoneError(f"expected 'Player <seat> <action> <tile>', got {' '.join(words)!r}")
    seat = check_seat(int(words[1]))
    action, args = words[2], words[3:]
    if action == "Deal":
        if seat in match.deals or match.builder is not None:
            raise BotzoneError(f"a second or late Deal for player {seat}")
        match.deals[seat] = check_deal(seat, botzone_tiles(args))
        return
    handler = _ACTIONS.get(action)
    if handler is None and action != "Hu":
        raise BotzoneError(f"unknown action {action!r} of player {seat}")
    if len(args) != 1:
        raise BotzoneError(f"{action} takes one tile, got {len(args)}")
    tile = botzone_tile(args[0])
    builder = _builder(match, action)
    if handler is not None:
        handler(builder, seat, tile)
    else:
        match.win = builder.win(seat, tile)
        match.ended = True


_ACTIONS: dict[str, Callable[[HandBuilder, int, Tile], None]] = {
    "Draw": HandBuilder.draw,
    "Play": HandBuilder.discard,
    "Chi": HandBuilder.chi,
    "Peng": HandBuilder.pong,
    "Gang": HandBuilder.kong,
    "AnGang": HandBuilder.concealed_kong,
    "BuGang": HandBuilder.added_kong,
}


#: ``Player <seat> <claim or kong> <tile>`` lines, single-spaced: the builder's method, the
#: seat and the tile (a Hu is read by the words: it ends the hand).
_CLAIM_LINES: dict[str, tuple[Callable[[HandBuilder, int, Tile], None], int, Tile]] = {
    f"Player {seat} {action} {code}": (method, seat, tile)
    for action in ("Chi", "Peng", "Gang", "AnGang", "BuGang")
    for method in (_ACTIONS[action],)
    for seat in range(SEATS)
    for code, tile in TILE_CODES.items()
}


def _fan_line(words: list[str]) -> tuple[int, tuple[RecordedFan, ...]]:
    """``Fan <total> <name>*<count>+…``: the total and the fans (points from the table)."""
    if len(words) not in (2, 3) or not _is_number(words[1]):
        raise BotzoneError(f"expected 'Fan <total> <name>*<count>+…', got {' '.join(words)!r}")
    fans = []
    for item in words[2].split("+") if len(words) == 3 else ():
        fan = _recorded_fans.get(item)
        if fan is None:
            fan_name, star, count = item.rpartition("*")
            if not star or not fan_name or not _INTEGER.fullmatch(count):
                raise BotzoneError(f"fan {item!r} is not <name>*<count>")
            fan = recorded_fan(fan_name, int(count))
            if len(_recorded_fans) >= _RECORDED_FANS:
                _recorded_fans.clear()
            _recorded_fans[item] = fan
        fans.append(fan)
    return int(words[1]), tuple(fans)


#: The fans of ``<name>*<count>`` items already read (a few hundred recur: 81 fans, small
#: counts; a :class:`RecordedFan` is an immutable value, so hands share them).
_recorded_fans: dict[str, RecordedFan] = {}
_RECORDED_FANS = 4096


def _score_line(match: _Match, words: list[str]) -> RecordedResult:
    if not match.ended or (match.win is not None and match.fan is None):
        raise BotzoneError("a Score line before the hand ended (Hu and Fan, or Huang)")
    if len(words) != SEATS + 1 or not all(_is_number(w) for w in words[1:]):
        raise BotzoneError(f"expected 'Score' and {SEATS} integers, got {' '.join(words)!r}")
    deltas = [int(w) for w in words[1:]]
    if match.win is None or match.fan is None:
        return draw_result(deltas)
    total, fans = match.fan
    return win_result(match.win, total, fans, deltas)


def _is_number(word: str) -> bool:
    digits = word.removeprefix("-")  # then [0-9]+, as _INTEGER matches
    return digits.isascii() and digits.isdigit()
