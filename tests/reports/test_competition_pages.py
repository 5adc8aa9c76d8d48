"""The competition pages of a report on the four hand-made sittings of
``test_standings.py``: the standings page in the competition order with every sitting, a
ranking page per variant with its percentiles and placement figure, the table-mates page;
and the same pages opened in headless Chromium (no error, the figure drawn)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sittings import write
from test_browser import PLOTS, Browser, Page, browser  # noqa: F401 (the browser fixture)
from test_standings import SITTINGS
from typer.testing import CliRunner

from paipu.pipeline import report as report_module
from paipu.pipeline.cli import app
from paipu.pipeline.report import ReportOptions, ReportSummary, write_report

PAGES = ("standings.html", "rankings.html", "rankings-mcr.html", "tablemates.html")


@pytest.fixture(scope="module")
def club_report(tmp_path_factory: pytest.TempPathFactory) -> ReportSummary:
    work = tmp_path_factory.mktemp("club-report")
    db = write(work / "club.duckdb", SITTINGS)
    return write_report(db, work / "report", ReportOptions(jobs=1, min_games=3))


def _text(path: Path) -> str:
    page = re.sub(r"<script.*?</script>", "", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_standings_page(club_report) -> None:
    assert set(PAGES) <= set(club_report.files)
    text = _text(club_report.out / "standings.html")
    standings = text[text.index("mcr 国标麻将: standings") : text.index("Sittings")]
    rows = re.findall(r"(\d) (\w) (\d) (\d\.\d\d) ([+-]\d+)", standings)
    assert rows == [
        ("1", "B", "3", "9.00", "+60"),
        ("2", "C", "4", "9.00", "+6"),
        ("3", "A", "3", "6.50", "+30"),
        ("4", "D", "3", "2.50", "-45"),
        ("5", "E", "3", "1.00", "-51"),
    ]
    sittings = text[text.index("Sittings") :]
    assert sittings.index("s4") < sittings.index("s1")  # most recent first
    assert "A , C , E (-10, 1.00)" in sittings  # the three-way tie for 2nd in s2
    assert "4 sittings placed" in text


def test_the_ranking_pages(club_report) -> None:
    index = _text(club_report.out / "rankings.html")
    assert "mcr 国标麻将 4 0 5" in index  # 4 games placed, none left out, 5 ranked
    text = _text(club_report.out / "rankings-mcr.html")
    assert "5 players with at least 3 of the 4 placed games" in text
    order = re.findall(r" (\d) ([A-E]) (\d) (\d) ", text)
    assert [(rank, player) for rank, player, *_ in order] == [
        ("1", "B"),
        ("2", "A"),
        ("3", "C"),
        ("4", "D"),
        ("5", "E"),
    ]
    assert "2.17 P50" in text and "3.00 P100" in text and "0.33 P0" in text  # 标准分 / game
    page = (club_report.out / "rankings-mcr.html").read_text(encoding="utf-8")
    assert 'id="ranking-places-mcr"' in page
    games = text[text.index("Games and places") :]
    assert games.index("s4") < games.index("s1")
    assert "C (+16, 4.00) A , D (+0, 1.50)" in games  # s4: C 1st, A and D tied 2nd


def test_the_tablemates_page(club_report) -> None:
    text = _text(club_report.out / "tablemates.html")
    assert "No pair shared 20 hands" in text  # 8 hands in all
    mates = text[text.index("Most frequent table-mates") :]
    assert "C A 6 (3) · B 6 (3) · D 6 (3) · E 6 (3)" in mates  # C sat every sitting


def test_paipu_report_min_games(club_report, tmp_path) -> None:
    db = club_report.out.parent / "club.duckdb"
    args = ["report", "--db", str(db), "--out", str(tmp_path), "-j", "1", "--min-games", "4"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = _text(tmp_path / "rankings-mcr.html")
    assert "1 players with at least 4 of the 4 placed games" in text  # C sat all four
    assert CliRunner().invoke(app, [*args[:-1], "0"]).exit_code == 2


def test_the_cli_default_is_the_report_default() -> None:
    import inspect

    from paipu.pipeline.cli.report import report

    default = inspect.signature(report).parameters["min_games"].default
    assert default == report_module.MIN_GAMES == ReportOptions().min_games


@pytest.mark.browser
def test_the_competition_pages_in_the_browser(browser, club_report) -> None:  # noqa: F811
    page = Page(browser)
    for name in PAGES:
        page.open(club_report.out / name)
        plots = page.eval(PLOTS)
        assert page.errors() == [], name
        if name == "rankings-mcr.html":
            assert [p["id"] for p in plots] == ["ranking-places-mcr"]
            assert all(p["drawn"] and p["marks"] > 0 for p in plots)
        else:
            assert plots == [], name
        links = page.eval("[...document.querySelectorAll('nav.top a')].map(a => a.textContent)")
        assert {"Standings", "Rankings", "Table-mates"} <= set(links)
