"""The deal-in page's danger against declared-ready opponents (sql/reports/dealin_ready.sql,
reports/dealin_ready.py) on a real database of Harbin hands beside MCR ones."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from reports_fixture import FIXTURE

from paipu.pipeline.ingest import ingest
from paipu.pipeline.report import query, select
from paipu.reports import dealin_ready

DATA = Path(__file__).resolve().parents[2] / "data" / "harbin.paipu.jsonl"


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    folder = tmp_path_factory.mktemp("harbin-dealin")
    hands = folder / "harbin.paipu.jsonl"
    hands.write_text(
        "".join(DATA.read_text(encoding="utf-8").splitlines(True)[:40]), encoding="utf-8"
    )
    db = folder / "harbin.duckdb"
    ingest([hands, FIXTURE], db, jobs=1)
    connection = duckdb.connect(str(db), read_only=True)
    select(connection)
    yield connection
    connection.close()


def test_danger_against_declared_opponents_is_counted_apart(con: duckdb.DuckDBPyConnection) -> None:
    states = dealin_ready.frame(query(con, "dealin-ready"))
    assert states["variant"].unique().to_list() == ["harbin"]  # MCR declares nothing
    assert states["state_order"].to_list() == [0, 1, 2]
    discards = con.execute("SELECT count(*) FROM discards WHERE variant = 'harbin'").fetchone()[0]
    assert sum(states["pairs"]) == 3 * discards
    deal_ins = con.execute(
        "SELECT count(*) FROM wins WHERE source = 'discard' AND game IN "
        "(SELECT game FROM hands WHERE variant = 'harbin')"
    ).fetchone()[0]
    won = dict(zip(states["state_order"].to_list(), states["won_by"].to_list(), strict=True))
    # a Harbin win needs 听 declared: every deal-in is into a declared hand
    assert won == {0: deal_ins, 1: 0, 2: 0}
    could = dict(zip(states["state_order"].to_list(), states["could_win"].to_list(), strict=True))
    assert could[0] >= deal_ins and could[2] == 0
    html = dealin_ready.section(states)
    assert 'id="dealin-ready-harbin"' in html and "declared ready 报听" in html


def test_no_section_without_declarations() -> None:
    import polars as pl

    empty = dealin_ready.frame(
        pl.DataFrame(
            schema={
                "variant": pl.Utf8,
                "state": pl.Utf8,
                "state_order": pl.Int32,
                "pairs": pl.Int64,
                "won_by": pl.Int64,
                "could_win": pl.Int64,
            }
        )
    )
    assert dealin_ready.section(empty) == ""
