"""``paipu export``: every table of a paipu database as a Parquet file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    LAKE_HELP,
    err_console,
    out_console,
    store_path,
)


def export(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The folder to write TABLE.parquet into.")
    ],
    db: Annotated[
        Path | None, typer.Option("--db", help="The DuckDB file written by `paipu ingest`.")
    ] = None,
    lake: Annotated[Path | None, typer.Option("--lake", help=LAKE_HELP)] = None,
) -> None:
    """Write each table of the database (hands, hand_seats, wins, win_fans, discards,
    missed_wins, events, rejects) to `OUT/<table>.parquet`, for Polars, pandas, R or Spark.

    **Exit codes**: 0 written; 2 usage error (missing database or lake, both or neither of
    --db and --lake); 1 the database could not be read or a file could not be written;
    130 interrupted.
    """
    import duckdb

    from paipu.pipeline.lake import connect_read
    from paipu.pipeline.report import query

    source = store_path("export", db, lake)
    try:
        con = connect_read(source)
    except duckdb.Error as exc:  # not a DuckDB file, or locked by a writer
        err_console.print(f"paipu export: cannot open {source}: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name in query(con, "export-tables")["table_name"].to_list():
            path = out / f"{name}.parquet"
            relation = con.table(name)
            relation.write_parquet(str(path))
            out_console.print(f"{name:12} {relation.count('*').fetchall()[0][0]:>12,} rows  {path}")
    except (duckdb.Error, OSError) as exc:
        err_console.print(f"paipu export: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    finally:
        con.close()
    raise typer.Exit(EXIT_OK)
