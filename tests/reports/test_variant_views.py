"""Per-variant views on the bundled data (``data/``, every variant): every player page has one
section per variant played, and no figure or table adds the points of two variants; the
win-rate and deal-in tables are per variant; ``paipu report --variant --player --since
--until`` writes the filtered report, each option tried through the CLI.

The expected figures come straight from the database (hand_seats joined with hands), not
from the report's queries.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.pipeline.bundled import BUNDLE
from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest
from paipu.pipeline.report import ReportOptions, ReportSummary, write_report
from paipu.reports.html import player_file, slug

REPO = Path(__file__).resolve().parents[2]
BUNDLED = REPO / "data"
runner = CliRunner()


@pytest.fixture(scope="module")
def bundled_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not any(BUNDLED.glob("*.paipu.jsonl")):
        pytest.skip("no bundled data/ (run from a checkout)")
    db = tmp_path_factory.mktemp("bundled") / "bundled.duckdb"
    summary = ingest(sorted(BUNDLED.glob("*.paipu.jsonl")), db, jobs=2)
    assert summary.hands > 1000 and summary.rejected == 0
    return db


@pytest.fixture(scope="module")
def bundled_report(bundled_db: Path, tmp_path_factory: pytest.TempPathFactory) -> ReportSummary:
    return write_report(
        bundled_db, tmp_path_factory.mktemp("bundled-report"), ReportOptions(jobs=2)
    )


def _facts(
    db: Path,
) -> tuple[dict[tuple[str, str], int], dict[str, str], dict[tuple[str, str], int]]:
    """(player, variant) → points; game → variant; (player, variant) → hands played."""
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.sql(
            "SELECT s.player, h.variant, sum(s.delta)::BIGINT, count(*) FROM hand_seats s "
            "JOIN hands h USING (game, hand) GROUP BY ALL"
        ).fetchall()
        games = dict(con.sql("SELECT DISTINCT game, variant FROM hands").fetchall())
    points = {(p, v): total for p, v, total, _ in rows}
    hands = {(p, v): n for p, v, _, n in rows}
    return points, games, hands


def _figures(html: str) -> dict[str, list[dict[str, Any]]]:
    """Every Plotly figure of a page: its div id → its traces (the newPlot data)."""
    found = {}
    decoder = json.JSONDecoder()
    for match in re.finditer(r'Plotly\.newPlot\(\s*"([^"]+)",\s*', html):
        data, _ = decoder.raw_decode(html, match.end())
        found[match.group(1)] = data
    return found


def _sections(html: str) -> dict[str, str]:
    """The variant sections of a player page: variant → its HTML."""
    starts = [
        (m.start(), m.group(1))
        for m in re.finditer(r'<section class="variant" id="[^"]+" data-variant="([^"]+)">', html)
    ]
    return {variant: html[start : html.index("</section>", start)] for start, variant in starts}


def test_every_player_page_has_one_section_per_variant_played(bundled_db, bundled_report) -> None:
    points, games, _ = _facts(bundled_db)
    played: dict[str, set[str]] = {}
    for player, variant in points:
        played.setdefault(player, set()).add(variant)
    assert len({v for vs in played.values() for v in vs}) == len(BUNDLE)  # every variant
    assert any(len(vs) > 1 for vs in played.values())
    for player, variants in played.items():
        page = (bundled_report.out / "players" / player_file(player)).read_text(encoding="utf-8")
        sections = _sections(page)
        assert sorted(sections) == sorted(variants), player
        figures = _figures(page)
        for variant, html in sections.items():
            key = slug(variant)
            # the section's figures are its variant's: each id is in the section and ends so
            for fig in re.findall(r'<div id="([^"]+)" class="plotly-graph-div"', html):
                assert fig.endswith(f"-{key}"), (player, variant, fig)
            # the cumulative score: this variant's hands only, in its own points
            [trace] = figures[f"player-cumulative-{key}"]
            assert {games[c[0]] for c in trace["customdata"]} == {variant}
            assert trace["y"][-1] == points[player, variant], (player, variant)
            steps = [b - a for a, b in zip(trace["y"], trace["y"][1:], strict=False)]
            assert steps == [c[2] for c in trace["customdata"][1:]]  # no thinning: ≤1000 hands
            assert f"{points[player, variant]:+,d} {variant} points" in page
            # the games listed in the section are the variant's
            listed = set(re.findall(r"<td>(sim-[a-z_]+-\d+-\d+)</td>", html))
            assert listed and {games[g] for g in listed} == {variant}
        # every figure of the page belongs to one variant's section
        assert all(any(f.endswith(f"-{slug(v)}") for v in variants) for f in figures), figures
        if len(variants) > 1:
            total = sum(points[player, v] for v in variants)
            assert f"{total:+,d} points" not in page  # never a sum across variants


def test_rate_tables_are_per_variant(bundled_db, bundled_report) -> None:
    _, _, hands = _facts(bundled_db)
    out = bundled_report.out
    for name in ("winrates.html", "dealin.html"):
        figures = _figures((out / name).read_text(encoding="utf-8"))
        variants = {v for _, v in hands}
        prefix = "winrates-players-" if name == "winrates.html" else "dealin-players-"
        assert {f[len(prefix) :] for f in figures if f.startswith(prefix)} == {
            slug(v) for v in variants
        }
    figures = _figures((out / "winrates.html").read_text(encoding="utf-8"))
    for variant in {v for _, v in hands}:
        for trace in figures[f"winrates-players-{slug(variant)}"]:
            for player, n in zip(trace["y"], trace["customdata"], strict=True):
                assert n == hands[player, variant]  # each rate against the variant's hands
        assert f"winrates-seats-{slug(variant)}" in figures
        assert f"winrates-rolling-{slug(variant)}" in figures
    # the all-variant views show only what means the same everywhere: hands and games
    for page in ("index.html", "players/index.html"):
        html = (out / page).read_text(encoding="utf-8")
        heads = re.findall(
            r"<th[^>]*>([^<]*)</th>",
            html[html.index("<h2>Players</h2>") :] if page == "index.html" else html,
        )
        assert "points" not in heads and {"hands", "games"} <= set(heads)


def _hand_count(db: Path, where: str, params: list[Any]) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        [(n,)] = con.execute(f"SELECT count(*) FROM hands h WHERE {where}", params).fetchall()
    return n


@pytest.mark.parametrize(
    ("args", "where", "params"),
    [
        (["--variant", "zhuanzhuan"], "variant = ?", ["zhuanzhuan"]),
        (["--player", "Ann"], "list_contains(players, ?)", ["Ann"]),
        (["--since", "2026-01-04"], "time >= ?", ["2026-01-04"]),
        # a date stands for the whole day: 2026-01-01 ends at midnight
        (["--until", "2026-01-01"], "time < ?", ["2026-01-02"]),
        (
            [
                "--variant",
                "mcr",
                "--player",
                "Ann",
                "--since",
                "2026-01-02",
                "--until",
                "2026-01-03T12:00",
            ],
            "variant = 'mcr' AND list_contains(players, ?) AND time >= '2026-01-02' "
            "AND time <= '2026-01-03 12:00'",
            ["Ann"],
        ),
    ],
)
def test_report_filters_through_the_cli(bundled_db, tmp_path, args, where, params) -> None:
    expected = _hand_count(bundled_db, where, params)
    assert 0 < expected < _hand_count(bundled_db, "true", [])
    out = tmp_path / "report"
    result = runner.invoke(
        app, ["report", "--db", str(bundled_db), "--out", str(out), "-j", "1", *args]
    )
    assert result.exit_code == 0, result.output
    assert len(list((out / "hands").glob("*.html"))) == expected
    overview = (out / "index.html").read_text(encoding="utf-8")
    assert f"<b>{expected:,}</b><span>hands</span>" in overview
    if "--player" in args:
        assert sorted(p.name for p in (out / "players").glob("*.html")) == [
            "Ann.html",
            "index.html",
        ]


def test_report_period_errors(bundled_db, tmp_path) -> None:
    base = ["report", "--db", str(bundled_db), "--out", str(tmp_path / "r")]
    result = runner.invoke(app, [*base, "--until", "soon"])
    assert result.exit_code == 2 and "--until 'soon'" in result.output
    result = runner.invoke(app, [*base, "--since", "2026-01-05", "--until", "2026-01-04"])
    assert result.exit_code == 2 and "after --until" in result.output
    result = runner.invoke(app, [*base, "--since", "2026-01-04", "--until", "2026-01-04"])
    assert result.exit_code == 0, result.output  # one whole day
    result = runner.invoke(app, [*base, "--until", "2025-12-31"])
    assert result.exit_code == 4  # no hand before the data begins
