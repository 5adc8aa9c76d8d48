"""The report fixtures: small databases ingested from known hands, and their reports.

``tests/fixtures/reports/hands.paipu.jsonl`` holds seven MCR hands written for these tests:
game g1 (timed, Ann Bo Chen Dai) — a deal-in, a self-draw, an exhaustive draw with missed
wins, a win on a discard into an open hand (after a pong); game g2 (no times, Ann Bo Chen
Eve) — a dealer's self-draw on the first tile, a win whose record disagrees with the rules
(the audit), and a hand that breaks a rule (rejected). The expected values in the tests are
worked out by hand from these moves and MCR's settlement (8 + fan from the discarder, 8
from the others; 8 + fan from everyone on a self-draw).

The zipai fixture is made when the tests start: the 60 hands of ``paipu simulate --variant
zipai_chenzhou --hands 60 --seed 3`` (the same seed gives the same bytes) and the example
hand of ``docs/zipai.md`` (``reports_fixture.ZIPAI_EXAMPLE``), written to a temporary file.
(It is not kept beside the MCR fixture because ``tests/pipeline/test_report_cli.py`` ingests
that whole folder and counts its hands.) Its expected values are worked out from the records
themselves in ``test_zipai_report.py``; the example hand's by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from reports_fixture import FIXTURE, ZIPAI, ZIPAI_EXAMPLE
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest
from paipu.pipeline.report import ReportOptions, ReportSummary, select, write_report


@pytest.fixture(scope="session")
def fixture_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("reports") / "fixture.duckdb"
    summary = ingest([FIXTURE], db, jobs=1)
    assert (summary.hands, summary.rejected, summary.mismatched) == (6, 1, 1)
    return db


@pytest.fixture
def con(fixture_db: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection with ``report_hands`` selecting every hand."""
    connection = duckdb.connect(str(fixture_db), read_only=True)
    select(connection)
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def report(fixture_db: Path, tmp_path_factory: pytest.TempPathFactory) -> ReportSummary:
    out = tmp_path_factory.mktemp("report")
    return write_report(fixture_db, out, ReportOptions(jobs=1))


@pytest.fixture(scope="session")
def zipai_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """60 simulated zipai hands (seed 3) and docs/zipai.md's example hand."""
    path = tmp_path_factory.mktemp("zipai") / "zipai.paipu.jsonl"
    args = ["simulate", "--variant", ZIPAI, "--hands", "60", "--seed", "3", "--out", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(ZIPAI_EXAMPLE, ensure_ascii=False) + "\n")
    return path


@pytest.fixture(scope="session")
def zipai_db(zipai_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("zipai-db") / "zipai.duckdb"
    summary = ingest([zipai_file], db, jobs=1)
    assert (summary.hands, summary.rejected, summary.mismatched) == (61, 0, 0)
    return db


@pytest.fixture
def zcon(zipai_db: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the zipai database with every hand selected."""
    connection = duckdb.connect(str(zipai_db), read_only=True)
    select(connection)
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def mixed_db(zipai_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The MCR fixture and the zipai hands in one database: two variants side by side."""
    db = tmp_path_factory.mktemp("mixed-db") / "mixed.duckdb"
    ingest([FIXTURE, zipai_file], db, jobs=1)
    return db


@pytest.fixture(scope="session")
def mixed_report(mixed_db: Path, tmp_path_factory: pytest.TempPathFactory) -> ReportSummary:
    out = tmp_path_factory.mktemp("mixed-report")
    return write_report(mixed_db, out, ReportOptions(jobs=2))
