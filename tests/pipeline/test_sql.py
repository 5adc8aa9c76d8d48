"""Named queries: the loader, and every query explains against the schema."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from paipu.pipeline.sql import QueryError, _split, apply_schema, load_queries, run


def test_every_named_query_explains_against_the_schema() -> None:
    con = duckdb.connect()
    apply_schema(con)
    apply_schema(con)  # idempotent
    queries = load_queries()
    assert queries
    # The report's first query builds the selection table the others join.
    if "report-selection" in queries:
        run(con, "report-selection", variant=None, player=None, since=None, until=None)
    if "report-placements" in queries:  # and the places of its games (standings.sql)
        run(con, "report-placements")
    for name, query in queries.items():
        values = {
            "variant": None,
            "player": None,
            "since": None,
            "until": None,
            "limit": 10,
            "top": 5,
            "window": 50,
            "table": "hands",
            "min_games": 1,
            "min_hands": 1,
        }
        params = {p: v for p, v in values.items() if f"${p}" in query.sql}
        con.sql("EXPLAIN " + query.sql, params=params)
        assert query.doc, f"query {name} has no documentation"


def test_duplicate_names_and_stray_sql_are_errors() -> None:
    with pytest.raises(QueryError, match="before the first"):
        _split("SELECT 1;", "x.sql")
    queries = _split("-- name: a\n-- doc\nSELECT 1;\n-- name: b\nSELECT 2;", "x.sql")
    assert [(q.name, q.doc, q.sql) for q in queries] == [
        ("a", "doc", "SELECT 1"),
        ("b", "", "SELECT 2"),
    ]


def test_run_returns_polars_with_parameters() -> None:
    """``run`` finds the named query, passes it the parameters its SQL uses (and only
    those: ``player`` is not one of audit-rejects'), and returns a Polars frame."""
    con = duckdb.connect()
    apply_schema(con)
    con.execute(
        "INSERT INTO rejects (source, line, reason) VALUES ('b', 1, 'why'), ('a', 9, 'how'), "
        "('a', 3, 'what')"
    )
    frame = run(con, "audit-rejects", limit=2, player="unused")
    assert isinstance(frame, pl.DataFrame)
    assert frame.select("source", "line", "reason").rows() == [("a", 3, "what"), ("a", 9, "how")]
    assert frame["rejects_total"].to_list() == [3, 3]
    assert run(con, "audit-rejects", limit=10).height == 3
    with pytest.raises(QueryError, match="no query named"):
        run(con, "no-such-query")
