"""The HTML writer: one template for every page, escaped cells, figures, links and assets.

Every page is ``templates/page.html`` filled in (:func:`render_page`). A figure becomes a
``<div>`` with a fixed id (its slug) through ``plotly.io.to_html(full_html=False,
include_plotlyjs=False, div_id=slug)``, so the same data gives the same bytes.

plotly.js is written **once** into the report's ``assets/`` folder and each page with
figures loads it by a relative path (``assets/plotly.min.js``, ``../assets/…`` from a
sub-folder): the pages work offline, straight from disk, as long as the folder stays
together, and a report of many player and hand pages does not repeat 4.6 MB in each. With
``inline=True`` (``paipu report --self-contained``) the script, the style sheet and the
replay script are inlined into every page instead, so that any one page can be mailed alone.

>>> str(esc("<b>Ann & Bo</b>"))
'&lt;b&gt;Ann &amp; Bo&lt;/b&gt;'
>>> pct(0.4), interval(0.1176, 0.7693), pct(None)
('40.0%', '11.8–76.9', '–')
>>> player_file("Ann"), player_file("[pycc]chunjiandu"), player_file("张三")
('Ann.html', 'pycc_chunjiandu-c6f13ea9.html', 'player-ced07fb4.html')
>>> hand_file("61602cb4", 3)
'61602cb4-3.html'
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

#: Folder of the shared files inside a report.
ASSETS = "assets"
#: The pages linked from every page's navigation bar: (file, title).
NAV = (
    ("index.html", "Overview"),
    ("winrates.html", "Win rates"),
    ("fans.html", "Fans"),
    ("dealin.html", "Deal-in risk"),
    ("players/index.html", "Players"),
    ("audit.html", "Audit"),
    ("standings.html", "Standings"),
    ("rankings.html", "Rankings"),
    ("tablemates.html", "Table-mates"),
    ("clubs/index.html", "Clubs"),
)
#: Plotly's configuration on every figure: no logo, resizing with the window.
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}


class Html(str):
    """Markup that is already safe to insert as it is."""

    __slots__ = ()


def esc(value: Any) -> Html:
    """A value as escaped text (``None`` becomes an en dash); markup passes through."""
    if isinstance(value, Html):
        return value
    if value is None:
        return Html("–")
    return Html(html.escape(str(value), quote=True))


def join(parts: Iterable[Any], sep: str = "") -> Html:
    return Html(sep.join(esc(p) for p in parts))


def tag(name: str, content: Any = "", **attrs: Any) -> Html:
    """``<name attrs>content</name>``; ``class_`` stands for ``class``; None attrs are dropped."""
    text = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{html.escape(str(v), quote=True)}"'
        for k, v in attrs.items()
        if v is not None and v is not False
    )
    return Html(f"<{name}{text}>{esc(content)}</{name}>")


def link(href: str, text: Any, **attrs: Any) -> Html:
    return tag("a", text, href=href, **attrs)


def pct(p: float | None, digits: int = 1) -> str:
    """A proportion as a percentage, ``–`` when unknown."""
    return "–" if p is None else f"{100 * p:.{digits}f}%"


def interval(lo: float | None, hi: float | None, scale: float = 100, digits: int = 1) -> str:
    """A confidence interval, e.g. ``11.8–76.9`` (percent points by default)."""
    if lo is None or hi is None:
        return "–"
    return f"{lo * scale:.{digits}f}–{hi * scale:.{digits}f}"


def num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def signed(value: int | None) -> str:
    return "–" if value is None else f"{value:+,d}"


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its header, and whether it holds numbers (right-aligned)."""

    title: str
    numeric: bool = False
    note: str | None = None  # hover text of the header


def table(
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    *,
    caption: Any = None,
    id_: str | None = None,
) -> Html:
    """An HTML table; cells are escaped unless they are :class:`Html`."""
    head = "".join(
        f"<th{' class=num' if c.numeric else ''}"
        f"{f' title={json.dumps(c.note)}' if c.note else ''}>{esc(c.title)}</th>"
        for c in columns
    )
    body = []
    for row in rows:
        cells = "".join(
            f"<td class=num>{esc(v)}</td>" if c.numeric else f"<td>{esc(v)}</td>"
            for c, v in zip(columns, row, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption is not None else ""
    ident = f' id="{html.escape(id_)}"' if id_ else ""
    if not body:
        body.append(f'<tr><td colspan="{len(columns)}" class="empty">none</td></tr>')
    return Html(
        f"<table{ident}>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def figure_html(fig: go.Figure, slug: str) -> Html:
    """A figure as a ``<div id=slug>`` and its newPlot script; plotly.js is loaded by the page."""
    return Html(
        '<div class="figure">'
        + pio.to_html(
            fig,
            full_html=False,
            include_plotlyjs=False,
            div_id=slug,
            config=PLOTLY_CONFIG,
            default_height="420px",
        )
        + "</div>"
    )


def slug(text: str) -> str:
    """A file-name-safe form of ``text``: letters, digits, ``-`` and ``_`` kept, the rest
    folded into ``_``; a short hash is added when anything was changed, so that two names
    never share a file.

    >>> slug("g1"), slug("a/b"), slug("a_b")
    ('g1', 'a_b-3ec69c85', 'a_b')
    """
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_")
    if safe == text and safe:
        return safe
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return f"{safe or 'player'}-{digest}" if safe else f"player-{digest}"


def player_file(player: str) -> str:
    """The file name of a player's page, inside ``players/``."""
    return f"{slug(player)}.html"


def hand_file(game: str, hand: int) -> str:
    """The file name of a hand's replay page, inside ``hands/``."""
    return f"{slug(game)}-{hand}.html"


@cache
def _template(name: str) -> str:
    return (resources.files("paipu.reports") / "templates" / name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Assets:
    """The shared files of a report and how pages refer to them; ``replay`` is the text of
    the replay script (:func:`replay_js`)."""

    inline: bool = False
    replay: str = ""

    def write(self, out: Path) -> None:
        """Write ``assets/`` (plotly.min.js, report.css, replay.js) unless pages inline them."""
        if self.inline:
            return
        folder = out / ASSETS
        folder.mkdir(parents=True, exist_ok=True)
        _write_if_changed(folder / "plotly.min.js", plotly_js())
        _write_if_changed(folder / "report.css", _template("report.css"))
        _write_if_changed(folder / "replay.js", self.replay)

    def head(self, root: str, *, figures: bool) -> Html:
        if self.inline:
            parts = [f"<style>\n{_template('report.css')}</style>"]
            if figures:
                parts.append(f"<script>{plotly_js()}</script>")
            return Html("\n".join(parts))
        parts = [f'<link rel="stylesheet" href="{root}{ASSETS}/report.css">']
        if figures:
            parts.append(f'<script src="{root}{ASSETS}/plotly.min.js"></script>')
        return Html("\n".join(parts))

    def replay_script(self, root: str) -> Html:
        if self.inline:
            text = self.replay.replace("</", "<\\/")  # no early end of the script element
            return Html(f"<script>\n{text}</script>")
        return Html(f'<script src="{root}{ASSETS}/replay.js"></script>')


def plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def replay_js(tiles: list[list[str]], variants: dict[str, dict[str, Any]]) -> str:
    """The replay script with the tables it draws from: every tile (``PAIPU_TILES``), the
    report's variants (``PAIPU_VARIANTS``) and the SVG sprite of every tile and card
    (``PAIPU_TILE_SPRITE``, :mod:`paipu.reports.tile_svg`)."""
    from paipu.reports.tile_svg import sprite

    dump = partial(json.dumps, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (
        f"const PAIPU_TILES = {dump(tiles)};\n"
        f"const PAIPU_VARIANTS = {dump(variants)};\n"
        f"const PAIPU_TILE_SPRITE = {dump(sprite())};\n"
        f"{_template('replay.js')}"
    )


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


@cache
def _page_template() -> Template:
    return Template(_template("page.html"))


def render_page(
    *,
    title: str,
    body: Html,
    root: str,
    assets: Assets,
    figures: bool = False,
    scripts: str = "",
    current: str | None = None,
    footer: str = "",
) -> str:
    """A whole page from the one template: navigation, title, body, footer, scripts."""
    nav = join(
        link(f"{root}{href}", text, aria_current="page" if href == current else None)
        for href, text in NAV
    )
    return _page_template().substitute(
        title=esc(title),
        head=assets.head(root, figures=figures),
        nav=nav,
        body=body,
        footer=esc(footer),
        scripts=Html(scripts),
    )


def json_script(element_id: str, data: Any) -> Html:
    """Data for a page's script, as ``<script type="application/json">`` (``</`` escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return Html(f'<script type="application/json" id="{element_id}">{text}</script>')
