"""``paipu report``, ``paipu sql``, ``paipu export`` and ``paipu demo``: output and exit codes."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "fixture.duckdb"
    ingest([FIXTURES], path, jobs=1)
    return path


def test_report_writes_the_pages_and_prints_the_index(db, tmp_path) -> None:
    result = runner.invoke(app, ["report", "--db", str(db), "--out", str(tmp_path), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert str((tmp_path / "index.html").resolve()) in result.stdout
    assert (tmp_path / "players" / "Eve.html").is_file()
    assert len(list((tmp_path / "hands").iterdir())) == 6


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--variant", "sichuan"], 4),  # nothing matches: nothing written
        (["--since", "last week"], 2),
        (["--player", "Nobody"], 4),
    ],
)
def test_report_exit_codes(db, tmp_path, args, code) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", "--db", str(db), "--out", str(out), *args])
    assert result.exit_code == code, result.output
    assert not (out / "index.html").exists()


def test_report_needs_a_database(tmp_path) -> None:
    result = runner.invoke(
        app, ["report", "--db", str(tmp_path / "x.duckdb"), "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "no such database" in result.output


def test_sql_prints_and_saves(db, tmp_path) -> None:
    query = "SELECT player, sum(delta) AS points FROM hand_seats GROUP BY player ORDER BY player"
    result = runner.invoke(app, ["sql", query, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Ann" in result.stdout and "-74" in result.stdout
    csv = tmp_path / "points.csv"
    assert runner.invoke(app, ["sql", query, "--db", str(db), "--csv", str(csv)]).exit_code == 0
    assert pl.read_csv(csv).rows() == [
        ("Ann", 58),
        ("Bo", -74),
        ("Chen", -38),
        ("Dai", 83),
        ("Eve", -29),
    ]
    parquet = tmp_path / "points.parquet"
    assert (
        runner.invoke(app, ["sql", query, "--db", str(db), "--parquet", str(parquet)]).exit_code
        == 0
    )
    assert pl.read_parquet(parquet).height == 5


def test_sql_errors(db, tmp_path) -> None:
    result = runner.invoke(app, ["sql", "SELECT nope FROM hands", "--db", str(db)])
    assert result.exit_code == 1
    assert "nope" in result.output
    result = runner.invoke(app, ["sql", "DELETE FROM hands", "--db", str(db)])
    assert result.exit_code == 1  # the database is opened read-only
    both = ["--csv", str(tmp_path / "a.csv"), "--parquet", str(tmp_path / "a.parquet")]
    assert runner.invoke(app, ["sql", "SELECT 1", "--db", str(db), *both]).exit_code == 2


def test_export_writes_every_table(db, tmp_path) -> None:
    result = runner.invoke(app, ["export", "--db", str(db), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    names = sorted(p.stem for p in tmp_path.glob("*.parquet"))
    tables = ["discards", "events", "hand_seats", "hands", "missed_wins", "rejects", "win_fans"]
    tables += ["wins", "discard_reviews"]  # discard_reviews: empty until `paipu review --save`
    assert names == sorted(tables)
    assert pl.read_parquet(tmp_path / "hands.parquet").height == 6
    assert pl.read_parquet(tmp_path / "discards.parquet").height == 13


def test_demo_ingests_and_reports(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(FIXTURES / "hands.paipu.jsonl", data)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["demo", "-j", "1"])
    assert result.exit_code == 0, result.output
    index = tmp_path / "paipu-demo" / "report" / "index.html"
    assert str(index.resolve()) in result.stdout
    assert index.is_file() and (tmp_path / "paipu-demo" / "paipu.duckdb").is_file()
    again = runner.invoke(app, ["demo", "-j", "1"])  # a fresh database each time
    assert again.exit_code == 0


def test_demo_without_data(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 2
    assert "no data/ folder" in result.output
    (tmp_path / "data").mkdir()
    assert runner.invoke(app, ["demo"]).exit_code == 2


def test_help_documents_exit_codes() -> None:
    for command in ("report", "sql", "export", "demo"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0
        assert "Exit codes" in result.output
