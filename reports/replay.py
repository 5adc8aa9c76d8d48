"""Hand replay pages: a small HTML page per hand, and one data script per game.

A hand's page, ``hands/<game>-<hand>.html``, is a shell of about a kilobyte: the report's
navigation, an empty ``<div id="replay" data-hand="N">`` and two scripts, its game's data
``data/<game>.js`` and the replay script ``assets/replay.js``. The data script sets
``PAIPU_GAME``: the game, the file-name stem of its pages, links to the player pages, and
per hand its ``record`` (``hands.record``, the paipu log line, copied verbatim: it is JSON,
so it is a JavaScript expression) and its ``info`` (the JSON that the ``replay-hands`` query
builds: seats and deltas, wins and fans, missed wins). The replay script rebuilds the table
event by event from the record in the browser. Scripts loaded with ``<script src>`` work
from ``file://`` with no server, which ``fetch`` of a local JSON file does not.

With ``inline`` (``paipu report --self-contained``) each page carries the style sheet, the
replay script and its own hand's data, and no data folder is written.

Writing therefore costs the database query and two files per hand, no Python per event:
100,000 hands take seconds (``docs/reports.md``, Benchmark).

>>> tiles = tile_list()
>>> tiles[13], tiles[64]
(['5p', '🀝', '五筒'], ['10d', '拾', '拾'])
>>> print(GameData("g 1", [3], [b'"3":{"info":{},"record":{}}'], {}).script().decode(), end="")
window.PAIPU_GAME = {"file":"g_1-cf851471","game":"g 1","links":{},"hands":{
"3":{"info":{},"record":{}}
}};
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from paipu.reports.html import Assets, Html, esc, player_file, render_page, slug
from paipu.rules.tiles import N_CODES, tile_glyph, tile_name, tile_name_zh

#: Folder of the per-game data scripts inside a report.
DATA = "data"


def tile_list() -> list[list[str]]:
    """Every tile in code order: its name, its glyph (or Chinese name where Unicode has
    none, as for zipai cards) and its Chinese name — the replay script's ``PAIPU_TILES``.
    The script draws tiles from their SVG (:mod:`paipu.reports.tile_svg`), never the glyph,
    which needs a font; the names are its titles and its text."""
    return [[tile_name(t), tile_glyph(t), tile_name_zh(t)] for t in range(N_CODES)]


def _compact(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class GameData:
    """The replay data of one game: its hands in order and each hand's entry of the data
    script (UTF-8 bytes ``"<hand>":{"info":…,"record":…}``, made by ``replay-hands``)."""

    game: str
    hands: Sequence[int]
    entries: Sequence[bytes]
    links: Mapping[str, str]

    def script(self, only: int | None = None) -> bytes:
        """The data script; with ``only``, just that hand (for a self-contained page)."""
        head = _compact({"game": self.game, "file": slug(self.game), "links": self.links})
        body = b",\n".join(
            entry
            for hand, entry in zip(self.hands, self.entries, strict=True)
            if only is None or hand == only
        )
        return f'window.PAIPU_GAME = {head[:-1]},"hands":{{\n'.encode() + body + b"\n}};\n"


class HandPages:
    """Writes the replay page of every hand and the data script of every game.

    The files go to disk in writer threads (the system calls run outside Python's GIL), a
    bounded number of games in flight, while the caller builds the next game's; use it as a
    context manager, or call :meth:`close`, which waits for them and raises any error.
    """

    #: Games whose files may wait to be written.
    IN_FLIGHT = 64

    def __init__(
        self,
        out: Path,
        assets: Assets,
        footer: str,
        linked: Callable[[str], bool],
        threads: int = 2,
    ) -> None:
        self.hands = out / "hands"
        self.data = out / DATA
        self.assets = assets
        self.footer = footer
        self.linked = linked
        self.links: dict[str, str] = {}
        self.hands.mkdir(parents=True, exist_ok=True)
        if not assets.inline:
            self.data.mkdir(parents=True, exist_ok=True)
        self._shell = self._template()
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="hand-pages")
        self._pending: deque[Future[None]] = deque()

    def __enter__(self) -> HandPages:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Wait until every file is written; the first error of a writer is raised."""
        try:
            while self._pending:
                self._pending.popleft().result()
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def _template(self) -> str:
        """The page of a hand with placeholders for its title, number and scripts."""
        return render_page(
            title="\0title\0",
            body=Html(
                '<div id="replay" data-hand="\0hand\0"><noscript>The hand replay needs '
                "JavaScript.</noscript></div>"
            ),
            root="../",
            assets=self.assets,
            scripts="\0scripts\0",
            footer=self.footer,
        )

    def _player_link(self, player: str) -> str:
        link = self.links.get(player)
        if link is None:
            link = self.links[player] = f"../players/{player_file(player)}"
        return link

    def write_game(
        self, game: str, hands: Sequence[int], players: Sequence[str], entries: Sequence[bytes]
    ) -> int:
        """One game's pages and data script from a ``replay-hands`` row; the pages written."""
        links = {p: self._player_link(p) for p in players if self.linked(p)}
        data = GameData(game, hands, entries, links)
        stem = slug(game)
        files: list[tuple[str, bytes]] = []
        if self.assets.inline:
            script = self.assets.replay_script("../")
        else:
            files.append((f"{self.data}/{stem}.js", data.script()))
            script = Html(
                f'<script src="../{DATA}/{stem}.js"></script>\n' + self.assets.replay_script("../")
            )
        head, tail = self._shell.split("\0scripts\0")
        for hand in hands:
            scripts = script
            if self.assets.inline:
                inline = data.script(hand).decode().replace("<", "\\u003c")
                scripts = Html(f"<script>\n{inline}</script>\n{script}")
            page = head.replace("\0title\0", esc(f"{game} · hand {hand}"))
            page = page.replace("\0hand\0", str(hand))
            files.append((f"{self.hands}/{stem}-{hand}.html", (page + scripts + tail).encode()))
        self._pending.append(self._pool.submit(_write_files, files))
        while len(self._pending) > self.IN_FLIGHT or (self._pending and self._pending[0].done()):
            self._pending.popleft().result()
        return len(hands)


_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC


def _write_files(files: Sequence[tuple[str, bytes]]) -> None:
    """Write each (path, bytes): three system calls a file, no Path or file object."""
    for path, data in files:
        fd = os.open(path, _FLAGS, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
