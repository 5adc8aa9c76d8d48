"""The clubs' audit pages (reports/club_audit.py): recorded-only hands beside the logs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paipu.pipeline.ingest import ingest
from paipu.pipeline.report import ReportOptions, ReportSummary, write_report

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.fixture(scope="module")
def club_report(tmp_path_factory: pytest.TempPathFactory) -> ReportSummary:
    db = tmp_path_factory.mktemp("clubs") / "club.duckdb"
    ingest(
        [
            FIXTURES / "sheets" / "club_planted.csv",
            FIXTURES / "helper" / "worked_example.json",
            FIXTURES / "reports" / "hands.paipu.jsonl",
        ],
        db,
        jobs=1,
    )
    return write_report(db, tmp_path_factory.mktemp("club-report"), ReportOptions(jobs=1))


def text(path: Path) -> str:
    body = path.read_text(encoding="utf-8")
    body = re.sub(r"<style>.*?</style>", "", body, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_sitting_page_lists_every_dispute_fan_by_fan(club_report: ReportSummary) -> None:
    page = club_report.out / "clubs" / "club-2026-05-01.html"
    html = page.read_text(encoding="utf-8")
    assert re.findall(r'<section class="dispute"', html) and html.count('class="dispute"') == 5
    assert re.findall(r'id="hand-(\d+)"', html) == ["0", "3", "4", "6", "7"]
    words = text(page)
    assert "Clean 无误: hands 1, 2, 5 (3 of 8) agree with the rules." in words
    assert "混一色是6番，不是8番 / Half Flush is worth 6, not 8" in words
    assert "四暗刻不计碰碰和 / All Pungs is not counted with Four Concealed Pungs" in words
    # claimed against the rules' answer: 碰碰和 claimed 6 × 1, not counted by the rules
    assert "碰碰和 All Pungs 6 × 1 – ✗" in words
    assert "合计 total 71 65 ✗" in words
    assert "@media print" in html and "@page" in html  # one sheet to hand over
    assert "累计 +180 -20 -79 -79" in words  # the sitting's running totals


def test_recorded_hands_have_a_page_but_no_replay(club_report: ReportSummary) -> None:
    out = club_report.out
    hand = out / "hands" / "club-2026-05-01-3.html"
    words = text(hand)
    assert "Recorded only" in words and "no events to replay" in words
    assert 'id="replay"' not in hand.read_text(encoding="utf-8")
    assert "hand 3 · mismatch" in words
    index = text(out / "clubs" / "index.html")
    assert "club-2026-05-01 mcr A, B, C, D 8 3 4 1" in index
    assert "1795258800 示例" in index


def test_pages_that_need_events_say_so(club_report: ReportSummary) -> None:
    out = club_report.out
    note = "10 recorded-only hands (score sheets, 国标小助手) have no events"
    assert note in text(out / "dealin.html")
    assert note in text(out / "audit.html")
    assert "Clubs" in text(out / "index.html")


def test_win_rates_and_fans_include_recorded_hands(tmp_path: Path) -> None:
    import duckdb

    from paipu.pipeline.report import query, select

    db = tmp_path / "club.duckdb"
    ingest([FIXTURES / "sheets" / "club_planted.csv"], db, jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    select(con)
    rates = {r["player"]: r for r in query(con, "winrates-player-variants").iter_rows(named=True)}
    assert (rates["A"]["hands"], rates["A"]["wins"], rates["B"]["wins"]) == (8, 1, 2)
    assert rates["C"]["deal_ins"] == 1 and rates["A"]["points"] == 180
    fans = {r["fan"]: r for r in query(con, "fans-frequency").iter_rows(named=True)}
    assert fans["half_flush"]["with_fan"] == 2
    assert fans["half_flush"]["points"] == 6  # claimed 8 once: stored at the rules' price
    con.close()


@pytest.mark.browser
def test_a_sitting_prints_on_one_sheet(club_report: ReportSummary, tmp_path: Path) -> None:
    """The referee's sheet: the 8-hand sitting with its five disputes prints on one A4 page
    (headless Chromium's print to PDF, as a browser prints it)."""
    import shutil
    import subprocess

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium")
    pdf = tmp_path / "sitting.pdf"
    page = club_report.out / "clubs" / "club-2026-05-01.html"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    pages = re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())
    assert len(pages) == 1
