"""``paipu sql``: an analyst's own query on a paipu database, shown or saved."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    LAKE_HELP,
    err_console,
    out_console,
    store_path,
)

if TYPE_CHECKING:
    import duckdb


def sql(
    query: Annotated[
        str | None,
        typer.Argument(help='The SQL to run (DuckDB dialect), e.g. "SELECT * FROM wins".'),
    ] = None,
    db: Annotated[
        Path | None, typer.Option("--db", help="The DuckDB file written by `paipu ingest`.")
    ] = None,
    lake: Annotated[Path | None, typer.Option("--lake", help=LAKE_HELP)] = None,
    named: Annotated[
        str | None,
        typer.Option(
            "--named",
            help="Run a named query of the report instead (e.g. pair-dealins, standings); "
            "--list shows them.",
        ),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param", "-p", help="A parameter of the named query, KEY=VALUE (min_hands=50)."
        ),
    ] = None,
    list_named: Annotated[
        bool, typer.Option("--list", help="List the named queries and what they return.")
    ] = False,
    csv: Annotated[
        Path | None, typer.Option("--csv", help="Write the whole result to this CSV file.")
    ] = None,
    parquet: Annotated[
        Path | None, typer.Option("--parquet", help="Write the whole result to this Parquet file.")
    ] = None,
    rows: Annotated[
        int, typer.Option("--rows", "-n", min=1, help="Rows to show when printing.")
    ] = 50,
) -> None:
    """Run one SQL query on the database, opened read-only, and print the result as a table,
    or save all of it with `--csv` or `--parquet`.

    The tables are those of `sql/schema/001_hands.sql`: hands, hand_seats, wins, win_fans,
    discards, missed_wins, events, rejects. Try `paipu sql "DESCRIBE hands" --db FILE`,
    or on a lake `paipu sql "SELECT variant, count(*) FROM hands GROUP BY 1" --lake DIR`.

    `--named NAME` runs one of the report's named queries (`sql/reports/*.sql`) on every
    hand, its parameters from `--param KEY=VALUE` or the report's defaults: e.g.
    `paipu sql --named pair-dealins -p min_hands=50 --db FILE`, who dealt in to whom more
    than their rates predict; `--list` names them all.

    **Exit codes**: 0 done; 1 the query failed (its error is printed); 2 usage error
    (missing database or lake, both or neither of --db and --lake, no query or two, both
    --csv and --parquet, a bad --param); 130 interrupted.
    """
    import duckdb

    from paipu.pipeline.lake import connect_read

    if list_named:
        _list()
        raise typer.Exit(EXIT_OK)
    if (query is None) == (named is None):
        err_console.print("paipu sql: give a QUERY or --named NAME (one of them)")
        raise typer.Exit(EXIT_USAGE)
    params = _params(param or [])
    source = store_path("sql", db, lake)
    if csv is not None and parquet is not None:
        err_console.print("paipu sql: give --csv or --parquet, not both")
        raise typer.Exit(EXIT_USAGE)
    try:
        con = connect_read(source)
    except duckdb.Error as exc:  # not a DuckDB file, or locked by a writer
        err_console.print(f"paipu sql: cannot open {source}: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    try:
        relation = con.sql(query) if query is not None else _named(con, str(named), params)
        if relation is None:
            err_console.print("done (the statement returns no rows)")
            raise typer.Exit(EXIT_OK)
        if csv is not None:
            relation.write_csv(str(csv), header=True)
            err_console.print(f"written to {csv}")
        elif parquet is not None:
            relation.write_parquet(str(parquet))
            err_console.print(f"written to {parquet}")
        else:
            _print(relation.limit(rows + 1).pl(), rows)
    except duckdb.Error as exc:
        err_console.print(f"paipu sql: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    finally:
        con.close()
    raise typer.Exit(EXIT_OK)


def _params(items: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` pairs; a value of digits is a number."""
    params: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            err_console.print(f"paipu sql: --param {item!r}: expected KEY=VALUE")
            raise typer.Exit(EXIT_USAGE)
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return params


def _named(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, object]
) -> duckdb.DuckDBPyRelation:
    from paipu.pipeline.report import named
    from paipu.pipeline.sql import QueryError

    try:
        return named(con, name, **params)
    except QueryError as exc:
        err_console.print(f"paipu sql: {exc}")
        raise typer.Exit(EXIT_USAGE) from None


def _list() -> None:
    from paipu.pipeline.sql import load_queries

    table = Table(show_lines=False)
    table.add_column("name")
    table.add_column("file")
    table.add_column("returns", overflow="fold")
    for query in load_queries().values():
        table.add_row(query.name, query.source, " ".join(query.doc.split()).split(". ")[0])
    out_console.print(table)


def _print(frame: object, rows: int) -> None:
    import polars as pl

    assert isinstance(frame, pl.DataFrame)
    table = Table(show_lines=False)
    for name in frame.columns:
        table.add_column(name, overflow="fold")
    for row in frame.head(rows).iter_rows():
        table.add_row(*("" if v is None else str(v) for v in row))
    out_console.print(table)
    if frame.height > rows:
        err_console.print(f"(first {rows} rows; --rows N for more, --csv or --parquet for all)")
