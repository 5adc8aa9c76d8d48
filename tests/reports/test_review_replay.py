"""The decision review on the hand replay page: `paipu review --save`, then `paipu report`,
and the page of a hand shows, at the reviewed discard, the best choice, the loss and the
danger (headless Chromium, as the other browser tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_browser import CHROMIUM, Browser, Page
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from tests.pipeline.hands import discard_win, variant_of

runner = CliRunner()


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of two hands, the one Ann played reviewed by `paipu review --save`."""
    folder = tmp_path_factory.mktemp("review-report")
    other = variant_of(discard_win(), game="t-other", players=["Xu", "Bo", "Chen", "Dai"])
    hands = [discard_win(), other]
    (folder / "hands.paipu.jsonl").write_text("".join(json.dumps(h) + "\n" for h in hands))
    db = folder / "r.duckdb"
    assert (
        runner.invoke(app, ["ingest", str(folder / "hands.paipu.jsonl"), "--db", str(db)]).exit_code
        == 0
    )
    saved = runner.invoke(app, ["review", "--db", str(db), "-p", "Ann", "--save", "-j", "1"])
    assert saved.exit_code == 0, saved.output
    out = folder / "report"
    assert (
        runner.invoke(app, ["report", "--db", str(db), "--out", str(out), "-j", "1"]).exit_code == 0
    )
    return out


def test_the_reviews_reach_the_replay_data(reviewed: Path) -> None:
    script = (reviewed / "data").glob("t-discard*.js")
    text = next(script).read_text(encoding="utf-8")
    assert '"reviews":[{"seq":1,"seat":0,"tile":"9s"' in text
    assert '"best":["9s","7z"]' in text and '"safe":true' in text


def test_a_hand_ingested_again_with_another_record_loses_its_reviews(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    first = tmp_path / "a.paipu.jsonl"
    first.write_text(json.dumps(discard_win()) + "\n")
    assert runner.invoke(app, ["ingest", str(first), "--db", str(db)]).exit_code == 0
    assert runner.invoke(app, ["review", "--db", str(db), "--save", "-j", "1"]).exit_code == 0
    again = tmp_path / "b.paipu.jsonl"
    again.write_text(json.dumps(variant_of(discard_win(), time="2026-01-01T10:00:00")) + "\n")
    assert runner.invoke(app, ["ingest", str(again), "--db", str(db)]).exit_code == 0
    out = tmp_path / "report"
    assert (
        runner.invoke(app, ["report", "--db", str(db), "--out", str(out), "-j", "1"]).exit_code == 0
    )
    text = next((out / "data").glob("t-discard*.js")).read_text(encoding="utf-8")
    assert '"reviews":[]' in text


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed: `apt-get install chromium` (.ci/run installs it)")
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def test_the_page_annotates_the_discard(browser: Browser, reviewed: Path) -> None:
    page = Page(browser)
    hands = reviewed / "hands"
    page.open(next(hands.glob("t-discard*-0.html")), "#step=2")  # the discard is event 1
    notes = page.eval("document.getElementById('notes').textContent")
    assert (
        "review: Ann discarded 9s" in notes.replace("🀘", "9s") or "review: Ann discarded" in notes
    )
    assert "most efficient" in notes and "dealt in (放铳), a safe tile was held" in notes
    page.eval("document.getElementById('next').click()")
    assert "review" not in page.eval("document.getElementById('notes').textContent")
    page.open(next(hands.glob("t-other*-0.html")), "#step=2")  # not reviewed: no note
    assert "review" not in page.eval("document.getElementById('notes').textContent")
    assert page.errors() == []


def test_the_player_page_sums_the_stored_review(browser: Browser, reviewed: Path) -> None:
    """Ann's one reviewed discard (efficient, dangerous, won on, avoidable) on her page;
    Xu, whose hand was not reviewed, has no such section."""
    page = Page(browser)
    page.open(reviewed / "players" / "Ann.html")
    cells = page.eval(
        "[...document.querySelectorAll('#review-summary td')].map(c => c.textContent)"
    )
    assert cells[1:] == ["1", "100.0%", "0.00", "100.0%", "100.0%", "1", "1"]
    assert "Decision review" in page.eval("document.getElementById('decision-review').textContent")
    assert page.errors() == []
    page.open(reviewed / "players" / "Xu.html")
    assert page.eval("document.getElementById('decision-review')") is None
