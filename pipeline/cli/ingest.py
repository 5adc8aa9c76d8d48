"""``paipu ingest``: load game records into a DuckDB file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_USAGE,
    err_console,
    existing_paths,
)

if TYPE_CHECKING:
    from paipu.pipeline.ingest import Chunk


def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders of records (paipu logs, Botzone text or JSON "
            "match logs, club score sheets, 国标小助手 records, mixed); folders are read "
            "recursively.",
            show_default=False,
        ),
    ],
    db: Annotated[Path, typer.Option("--db", help="The DuckDB file to create or update.")],
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores).")
    ] = os.cpu_count() or 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Replay every hand and load the results into DuckDB.

    Each hand is checked against its variant's rules event by event; its fans and point
    transfers are recomputed and compared with what the record says. A hand that breaks
    a rule goes to the `rejects` table with the file, line, event and rule; the others
    load. A hand already in the database (same game and hand) is replaced, so ingesting
    the same files twice changes nothing. The whole ingest is one transaction: if it is
    interrupted the database is left as it was.

    Score sheets and 国标小助手 records have no events: each hand is audited from its
    claim and loaded with `hands.source_kind = 'recorded'` (docs/clubs.md).

    **Exit codes**: 0 every hand loaded; 3 some hands were rejected (the rest loaded);
    2 usage error (missing file, bad option); 1 the database could not be written;
    130 interrupted (nothing changed).
    """
    import duckdb

    from paipu.pipeline.ingest import expand
    from paipu.pipeline.ingest import ingest as run_ingest

    files = expand(existing_paths(paths, "ingest"))
    if not files:
        err_console.print("paipu ingest: no files to read")
        raise typer.Exit(EXIT_USAGE)
    total = sum(f.stat().st_size for f in files)
    progress = Progress(
        TextColumn("[bold]ingest[/]"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[hands]:,} hands, {task.fields[rejected]:,} rejected"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=quiet,
        transient=True,
    )
    counts = {"hands": 0, "rejected": 0}
    try:
        with progress:
            task = progress.add_task("ingest", total=total, **counts)

            def advance(size: int, rows: Chunk) -> None:
                counts["hands"] += rows.hands
                counts["rejected"] += rows.rejected
                progress.update(task, advance=size, **counts)

            summary = run_ingest(files, db, jobs=jobs, progress=advance)
    except KeyboardInterrupt:
        err_console.print("paipu ingest: interrupted; the database is unchanged")
        raise typer.Exit(130) from None
    except duckdb.Error as exc:
        err_console.print(f"paipu ingest: cannot write {db}: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    table = Table(title=f"ingest → {db}", title_justify="left", show_header=False)
    table.add_row("files", f"{summary.files:,}")
    table.add_row("hands loaded", f"{summary.hands:,}")
    table.add_row("hands rejected", f"{summary.rejected:,}")
    table.add_row("disagreeing with their record", f"{summary.mismatched:,}")
    err_console.print(table)
    for sample in summary.reject_samples[:10]:
        err_console.print(f"  rejected {sample}", markup=False)
    if summary.rejected > 10:
        err_console.print(f"  … see the rejects table for all {summary.rejected:,}")
    raise typer.Exit(EXIT_REJECTED if summary.rejected else EXIT_OK)
