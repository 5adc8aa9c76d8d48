"""The report fixture: a small database ingested from hand-written hands, and its report.

``tests/fixtures/reports/hands.paipu.jsonl`` holds seven MCR hands written for these tests:
game g1 (timed, Ann Bo Chen Dai) — a deal-in, a self-draw, an exhaustive draw with missed
wins, a win on a discard into an open hand (after a pong); game g2 (no times, Ann Bo Chen
Eve) — a dealer's self-draw on the first tile, a win whose record disagrees with the rules
(the audit), and a hand that breaks a rule (rejected). The expected values in the tests are
worked out by hand from these moves and MCR's settlement (8 + fan from the discarder, 8
from the others; 8 + fan from everyone on a self-draw).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from paipu.pipeline.ingest import ingest
from paipu.pipeline.report import ReportOptions, ReportSummary, execute, write_report

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "hands.paipu.jsonl"


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
    execute(connection, "report-selection", variant=None, player=None, since=None)
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def report(fixture_db: Path, tmp_path_factory: pytest.TempPathFactory) -> ReportSummary:
    out = tmp_path_factory.mktemp("report")
    return write_report(fixture_db, out, ReportOptions(jobs=1))
