"""End to end: every page of the fixture report in headless Chromium (Debian's package).

The browser is driven over the DevTools protocol through a pipe (``--remote-debugging-pipe``:
JSON messages separated by NUL bytes on file descriptors 3 and 4), so no driver, web socket
library or downloaded browser is needed. Each page is opened from disk (``file://``), with
networking off (DevTools' offline emulation, on every tab; a test checks it against a web
server on this machine): no JavaScript error or console error may occur, every figure must be drawn
with data, and the replay page must step forward when its forward button is pressed — a
mahjong hand's and a zipai hand's (cards by their Chinese names, 吃 with its 比 set, 跑, 胡息).
The tiles, drawn by paipu as SVG, must look in a screenshot like their own SVG documents:
no tile may depend on a font the machine lacks (CI installs Chromium and no fonts).
The report driven is the mixed one (the MCR fixture and the zipai hands, see conftest).
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest
from paipu.pipeline.report import ReportOptions, write_report

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
]


class Browser:
    """A minimal DevTools client over Chromium's pipe."""

    def __init__(self, profile: Path) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: the pipe ends become fds 3 (commands) and 4 (replies)
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,  # noqa: PLW1509 (single-threaded here, and only dup2 runs)
            pass_fds=(3, 4),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.events: list[dict[str, Any]] = []
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                self.messages.put(json.loads(raw))

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> Any:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 30
        while True:
            reply = self.messages.get(timeout=max(0.1, deadline - time.monotonic()))
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                self.events.remove(event)
                return event
        while True:
            event = self.messages.get(timeout=max(0.1, deadline - time.monotonic()))
            if event.get("method") == method:
                return event
            self.events.append(event)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, queue.Empty, OSError):
            self.send("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_browser)


OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


class Page:
    """One tab: open a file, evaluate JavaScript, collect errors."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(f"{domain}.enable", session=self.session)
        # Networking off for the tab's whole life: a page can load only files from disk.
        browser.send("Network.emulateNetworkConditions", OFFLINE, self.session)

    def open(self, path: Path, fragment: str = "") -> None:
        self.browser.events.clear()
        self.browser.send("Page.navigate", {"url": path.as_uri() + fragment}, self.session)
        self.browser.wait_event("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        result = self.browser.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            self.session,
        )
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        found = []
        for event in self.browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append(json.dumps(params.get("args"))[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(params["entry"].get("text", ""))
        return found


PLOTS = """
new Promise(resolve => {
  const started = Date.now();
  const check = () => {
    const divs = [...document.querySelectorAll('.plotly-graph-div')];
    const drawn = divs.every(d => d._fullLayout && d.querySelector('.main-svg'));
    if (drawn || Date.now() - started > 10000) {
      resolve(divs.map(d => ({
        id: d.id,
        drawn: !!(d._fullLayout && d.querySelector('.main-svg')),
        points: (d._fullData || []).reduce((n, t) =>
          n + ((t.x && t.x.length) || 0) + ((t.z && t.z.length) || 0), 0),
        marks: d.querySelectorAll(
          '.point, .bars path, .heatmaplayer image, .scatterlayer path.js-line').length,
      })));
    } else { setTimeout(check, 50); }
  };
  check();
})
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    if not Path(CHROMIUM).exists():
        pytest.skip(
            "Chromium is not installed: `apt-get install chromium` (Debian's package; .ci/run "
            "installs it)"
        )
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def _pages(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*.html"))


def test_every_page_loads_without_errors_and_draws_its_figures(browser, mixed_report) -> None:
    report = mixed_report
    page = Page(browser)
    checked = 0
    for path in _pages(report.out):
        page.open(path)
        plots = page.eval(PLOTS)
        where = path.relative_to(report.out)
        assert page.errors() == [], f"{where}: JavaScript errors"
        if where.parts[0] == "hands":  # drawn by the replay script from the game's data
            assert page.eval("window.paipuReplay.steps") > 1, f"{where}: no replay"
            assert page.eval("document.querySelectorAll('#replay .seat').length") >= 3
        for plot in plots:
            where = f"{path.relative_to(report.out)} #{plot['id']}"
            assert plot["drawn"], f"{where}: not drawn"
            assert plot["points"] > 0, f"{where}: no data"
            assert plot["marks"] > 0, f"{where}: nothing visible"
        has_figures = "figure" in path.read_text(encoding="utf-8")
        assert bool(plots) == has_figures, f"{path}: figures {len(plots)}"
        checked += 1
    assert checked == report.pages


class _Probe(http.server.BaseHTTPRequestHandler):
    """A local web server that records every request it receives."""

    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"reached")

    def log_message(self, *args: object) -> None:
        pass


def test_pages_open_with_networking_off(browser, report) -> None:
    """The tabs the tests drive are offline: a report page still opens and draws, and a
    request from it to a web server on this machine fails and never arrives."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Probe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = Page(browser)
        page.open(report.out / "index.html")
        assert all(plot["drawn"] for plot in page.eval(PLOTS))
        url = f"http://127.0.0.1:{server.server_address[1]}/probe"
        fetched = page.eval(
            f"fetch('{url}', {{mode: 'no-cors'}}).then(() => 'reached', () => 'failed')"
        )
        assert fetched == "failed"
        assert _Probe.hits == []
    finally:
        server.shutdown()
        server.server_close()


def test_the_replay_steps_forward(browser, report) -> None:
    page = Page(browser)
    hand = report.out / "hands" / "g1-3.html"
    page.open(hand)
    assert page.eval("window.paipuReplay.step()") == 0
    assert page.eval("window.paipuReplay.steps") == 8  # the deal and 7 events
    assert page.eval("document.getElementById('result').hidden") is True
    dai = "document.querySelectorAll('#h3 .t').length"
    assert page.eval(dai) == 13
    page.eval("document.getElementById('next').click()")
    assert page.eval("window.paipuReplay.step()") == 1
    assert page.eval("document.getElementById('event').textContent").startswith("Dai draws")
    assert page.eval("document.querySelectorAll('#h3 .t.drawn').length") == 1
    assert page.eval(dai) == 14
    assert page.eval("document.getElementById('counter').textContent") == "1 / 7"
    page.eval("document.getElementById('next').click(); document.getElementById('next').click()")
    assert page.eval("document.querySelectorAll('#d3 .t.claimed').length") == 1  # Ann's pong
    assert page.eval("document.querySelectorAll('#m0 .meld').length") == 1
    page.eval("document.getElementById('end').click()")
    assert page.eval("document.getElementById('result').hidden") is False
    assert "清龙" in page.eval("document.getElementById('result').textContent")
    assert page.eval("document.querySelectorAll('#d1 .t.won').length") == 1  # Bo's 1p
    page.eval("document.getElementById('text-tiles').click()")
    assert page.eval("document.querySelector('#h0 .t').textContent") == "1m"
    assert page.errors() == []
    page.open(report.out / "audit.html")  # a new document, so that the load event fires
    page.open(hand, "#step=2")
    assert page.eval("window.paipuReplay.step()") == 2


def test_a_zipai_replay_steps_forward(browser, mixed_report) -> None:
    page = Page(browser)
    hand = mixed_report.out / "hands" / "sim-zipai_chenzhou-1-000000-1.html"  # docs/zipai.md
    page.open(hand)
    assert page.eval("window.paipuReplay.steps") == 12  # the deal and 11 events
    emi = "[...document.querySelectorAll('#h1 .t')].map(t => t.textContent).join('')"
    assert page.eval(emi) == "十十十捌捌捌二三四五五六七壹壹肆肆伍陆玖"  # 坎 first
    assert page.eval("document.querySelectorAll('#h1 .kan').length") == 2
    assert page.eval("document.querySelectorAll('#h1 .t.red').length") == 5  # 十 ×3, 二, 七
    assert "seat 1 · dealer 庄" in page.eval("document.getElementById('seat1').textContent")
    for _ in range(9):
        page.eval("document.getElementById('next').click()")
    assert page.eval("window.paipuReplay.step()") == 9
    event = page.eval("document.getElementById('event').textContent")
    assert event.startswith("Emi 吃 chi the flipped 伍 as 五五伍, 比 bi 肆伍陆")
    labels = "[...document.querySelectorAll('#m1 .label')].map(t => t.textContent)"
    assert page.eval(labels) == ["吃", "比"]  # 五五伍 and 肆伍陆 score no 胡息
    assert page.eval("[...document.querySelectorAll('#m0 .label')].map(t => t.textContent)") == [
        "跑 9"
    ]
    assert page.eval("document.getElementById('result').hidden") is True
    page.eval("document.getElementById('next').click(); document.getElementById('next').click()")
    assert page.eval("document.getElementById('result').hidden") is False
    result = page.eval("document.getElementById('result').textContent")
    assert "Fang wins on Emi's discard (放炮) 肆: 15 胡息 xi, +9 points" in result
    assert "no 名堂" in result
    # the winner's cards as the rules grouped them (wins.detail), each group with its 胡息
    assert "as the rules group them" in result
    assert "起胡" in result and "囤" in result
    assert page.eval("document.querySelectorAll('#result .meld.kan').length") == 2
    assert page.eval("document.querySelectorAll('#h0 .t.won').length") == 1
    assert page.errors() == []


def test_birds_and_voids_on_regional_replays(browser, tmp_path_factory) -> None:
    """Changsha's birds (扎鸟) are listed with the seat each lands on; a Sichuan seat shows its
    void suit (定缺) beside its name."""
    work = tmp_path_factory.mktemp("regional-report")
    files = []
    for variant in ("changsha", "sichuan"):
        path = work / f"{variant}.paipu.jsonl"
        args = ["simulate", "--variant", variant, "--hands", "30", "--seed", "5"]
        result = CliRunner().invoke(app, [*args, "--out", str(path)])
        assert result.exit_code == 0, result.output
        files.append(path)
    db = work / "regional.duckdb"
    assert ingest(files, db, jobs=1).rejected == 0
    out = work / "report"
    write_report(db, out, ReportOptions(jobs=1))
    with duckdb.connect(str(db), read_only=True) as con:
        [(game, hand)] = con.sql(
            "SELECT game, hand FROM wins JOIN hands USING (game, hand) WHERE variant = 'changsha'"
            " AND json_array_length(detail->'birds') > 0 ORDER BY game, hand LIMIT 1"
        ).fetchall()
        [(sichuan_game, sichuan_hand)] = con.sql(
            "SELECT game, hand FROM hands WHERE variant = 'sichuan' ORDER BY game, hand LIMIT 1"
        ).fetchall()
    page = Page(browser)
    page.open(out / "hands" / f"{game}-{hand}.html")
    page.eval("document.getElementById('end').click()")
    result = page.eval("document.getElementById('result').textContent")
    assert "扎鸟 birds" in result and "→" in result
    assert page.errors() == []
    page.open(out / "hands" / f"{sichuan_game}-{sichuan_hand}.html")
    page.eval("document.getElementById('end').click()")
    voids = "[...document.querySelectorAll('.void')].map(v => v.textContent)"
    assert all(v.startswith("缺 ") for v in page.eval(voids))
    assert len(page.eval(voids)) == 4
    assert page.errors() == []


# --------------------------------------------------------------------------- tiles drawn by paipu

#: Compares, in the page, each tile's region of a screenshot (PNG, base64) with the tile's own
#: SVG document drawn alone at the same size on the same background: the mean difference of
#: the colour channels, 0-255, per tile (2 px kept off each edge for anti-aliasing).
COMPARE = """
async (png, refs, tiles) => {
  const load = src => new Promise((ok, fail) => {
    const img = new Image(); img.onload = () => ok(img); img.onerror = fail; img.src = src;
  });
  const shot = await load('data:image/png;base64,' + png);
  const out = [];
  for (const t of tiles) {
    const w = Math.round(t.w), h = Math.round(t.h);
    const b = new OffscreenCanvas(w, h).getContext('2d');
    b.fillStyle = t.bg; b.fillRect(0, 0, w, h);
    const ref = await load('data:image/svg+xml;charset=utf-8,' + encodeURIComponent(refs[t.name]));
    b.drawImage(ref, 0, 0, w, h);
    const pb = b.getImageData(2, 2, w - 4, h - 4).data;
    let best = Infinity;  // the best of the placements a pixel either side (rounding)
    for (const [dx, dy] of [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]) {
      const a = new OffscreenCanvas(w, h).getContext('2d');
      a.drawImage(shot, Math.round(t.x) + dx, Math.round(t.y) + dy, w, h, 0, 0, w, h);
      const pa = a.getImageData(2, 2, w - 4, h - 4).data;
      let diff = 0;
      for (let i = 0; i < pa.length; i += 4) {
        for (let c = 0; c < 3; c++) diff += Math.abs(pa[i + c] - pb[i + c]);
      }
      best = Math.min(best, diff / (3 * (pa.length / 4)));
    }
    out.push({ name: t.name, diff: best });
  }
  return out;
}
"""

#: The plain tiles of the seats' hands in view: name, place, the background behind them.
TILES = """
[...document.querySelectorAll('#replay .seat [id^=h] .t')]
  .filter(t => [...t.classList].every(c => c === 't' || c === 'red'))
  .map(t => [t, t.querySelector('svg.tile')])
  .filter(([t, svg]) => svg && svg.getBoundingClientRect().bottom < innerHeight)
  .map(([t, svg]) => {
    const r = svg.getBoundingClientRect();
    return { name: t.title.split(' ')[0], x: r.x, y: r.y,
             w: r.width, h: r.height, bg: getComputedStyle(t.closest('.seat')).backgroundColor };
  })
"""


#: Every tile of a page of tiles (test_every_tile_and_card_is_drawn_without_fonts).
ALL_TILES = """
[...document.querySelectorAll('svg.tile')].map(svg => {
  const r = svg.getBoundingClientRect();
  return { name: svg.getAttribute('aria-label').split(' ')[0], x: r.x, y: r.y, w: r.width,
           h: r.height, bg: getComputedStyle(document.body).backgroundColor };
})
"""


def _tile_differences(page: Page, refs: dict[str, str], which: str = TILES) -> list[dict[str, Any]]:
    tiles = page.eval(which)
    png = page.browser.send("Page.captureScreenshot", {"format": "png"}, page.session)["data"]
    call = f"({COMPARE})({json.dumps(png)}, {json.dumps(refs)}, {json.dumps(tiles)})"
    return page.eval(call)


def test_tiles_are_drawn_the_same_with_only_the_default_fonts(browser, mixed_report) -> None:
    """Every tile in view of a mahjong and a zipai replay looks, in a screenshot taken with
    only the machine's default fonts (CI installs none), like its own SVG drawn alone: a tile
    drawn as a character with no font (an empty box) would not. The same comparison of a
    tile drawn as the Unicode character (U+1F000 block), as the replay did before, fails."""
    from paipu.reports.tile_svg import tile_svg
    from paipu.rules.tiles import N_CODES, tile_name

    refs = {tile_name(code): tile_svg(tile_name(code)) for code in range(N_CODES)}
    page = Page(browser)
    page.browser.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": 1400, "deviceScaleFactor": 1, "mobile": False},
        page.session,
    )
    seen: set[str] = set()
    for hand, kinds in (
        ("g1-3.html", "mpsz"),
        ("sim-zipai_chenzhou-1-000000-1.html", "xd"),
    ):
        page.open(mixed_report.out / "hands" / hand)
        assert page.errors() == []
        # no symbol characters on the controls: drawn icons
        labels = page.eval(
            "[...document.querySelectorAll('.controls button')].map(b => b.textContent)"
        )
        assert labels == ["", "", "", ""]
        assert page.eval("document.querySelectorAll('.controls button svg.icon').length") == 4
        found = _tile_differences(page, refs)
        assert len(found) >= 30, hand
        assert {f["name"][-1] for f in found} <= set(kinds)
        for f in found:
            assert f["diff"] < 4, f"{hand}: tile {f['name']} differs from its SVG: {found}"
        seen |= {f["name"] for f in found}
        # the negative control: the first tile drawn as a character instead, as before
        page.eval(
            "(() => { const svg = document.querySelector('#replay .seat [id^=h] .t svg.tile');"
            " const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');"
            " text.setAttribute('x', '2'); text.setAttribute('y', '64');"
            " text.setAttribute('font-size', '64'); text.textContent = '\\u{1F019}';"
            " svg.replaceChildren(text); })()"
        )
        [glyph, *_] = _tile_differences(page, refs)
        assert glyph["diff"] > 20, (glyph, found[0])
    assert len(seen) >= 15


def test_every_tile_and_card_is_drawn_without_fonts(browser, tmp_path) -> None:
    """All 65 tiles and cards (the suits, honours, flowers, the tens of 十万麻将, zipai's small
    and big cards) on one page with the report's style sheet, each compared in a screenshot
    with its own SVG document."""
    from paipu.reports.html import _template
    from paipu.reports.tile_svg import sprite, tile_html, tile_svg
    from paipu.rules.tiles import N_CODES, tile_name

    names = [tile_name(code) for code in range(N_CODES)]
    rows = "".join(
        "<p>" + " ".join(tile_html(n) for n in names[i : i + 13]) + "</p>"
        for i in range(0, N_CODES, 13)
    )
    path = tmp_path / "tiles.html"
    path.write_text(
        f"<!DOCTYPE html><meta charset=utf-8><style>{_template('report.css')}</style>"
        f"<body>{sprite()}{rows}</body>",
        encoding="utf-8",
    )
    page = Page(browser)
    page.open(path)
    found = _tile_differences(page, {n: tile_svg(n) for n in names}, ALL_TILES)
    assert sorted(f["name"] for f in found) == sorted(names)
    worst = max(found, key=lambda f: f["diff"])
    assert worst["diff"] < 4, worst
