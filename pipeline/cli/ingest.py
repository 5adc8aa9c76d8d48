"""``paipu ingest``: load game records into a DuckDB file."""

from __future__ import annotations

import os
from enum import StrEnum
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
    record_files,
)

if TYPE_CHECKING:
    from paipu.pipeline.ingest import Chunk


class EngineName(StrEnum):
    """Where the replay of the hands runs."""

    local = "local"
    dask = "dask"


def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders of records (paipu logs, Botzone text or JSON "
            "match logs, club score sheets, 国标小助手 records, mixed); folders are read "
            "recursively, leaving out hidden files and documents (README.md, PDFs, images).",
            show_default=False,
        ),
    ],
    db: Annotated[
        Path | None, typer.Option("--db", help="The DuckDB file to create or update.")
    ] = None,
    lake: Annotated[
        Path | None,
        typer.Option(
            "--lake",
            help="Instead of --db: a folder of Parquet files partitioned by variant and "
            "month (made if absent), for corpora larger than one database file should hold.",
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default: all cores); with --engine dask and no "
            "--cluster, the workers of the local cluster.",
        ),
    ] = os.cpu_count() or 1,
    engine: Annotated[
        EngineName,
        typer.Option(
            "--engine",
            help="local: a process pool on this machine; dask: a Dask cluster (--cluster, or "
            "a LocalCluster started here).",
        ),
    ] = EngineName.local,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="The Dask scheduler's address, e.g. tcp://10.0.0.5:8786 (with --engine dask). "
            "Its workers need the same paipu installed and must reach --stage.",
        ),
    ] = None,
    stage: Annotated[
        Path | None,
        typer.Option(
            "--stage",
            help="Where the workers write their Parquet shards before the load: a folder "
            "every worker and this machine can reach (default: beside the database).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    no_wait: Annotated[
        bool,
        typer.Option(
            "--no-wait",
            help="If another ingest is writing the database, exit 1 at once instead of "
            "waiting for it.",
        ),
    ] = False,
) -> None:
    """Replay every hand and load the results into DuckDB.

    Each hand is checked against its variant's rules event by event; its fans and point
    transfers are recomputed and compared with what the record says. A hand that breaks
    a rule goes to the `rejects` table with the file, line, event and rule; the others
    load. A hand already in the database (same game and hand) is replaced, so ingesting
    the same files twice changes nothing. The whole ingest is one transaction: if it is
    interrupted, killed, or the disk fills up, the database is left as it was.

    **One writer at a time**: the ingest holds the lock `<db>.lock` while it loads. A
    second ingest into the same database waits for the first (it says which process it
    waits for) and then loads on top of it; with `--no-wait` it exits 1 at once. The lock
    of a killed ingest is noticed and cleared. Readers (`paipu report`, `sql`, `export`)
    may run at any time: until the ingest ends they see the database as it was before.

    A line longer than 16 MB, or that is not UTF-8 or not strict JSON (NaN, a key twice,
    nesting too deep, a number beyond ±2,147,483,647) is rejected with its file and line.

    The replay runs on a local process pool (`-j N`) or on a Dask cluster
    (`--engine dask`: a LocalCluster of `-j N` workers, or `--cluster tcp://HOST:8786`
    with `--stage` on storage the workers share; docs/scale.md). Either way the rows are
    written as Parquet shards and loaded in one transaction: same database, same
    guarantees. With `--lake DIR` the tables are written as Parquet files instead (read
    them with `paipu sql|report|export --lake DIR`); re-ingesting a file replaces its hands.

    Examples: `paipu ingest logs/ --db club.duckdb`;
    `paipu ingest logs/ --db club.duckdb --engine dask -j 4`;
    `paipu ingest /shared/logs --lake /shared/lake --engine dask --cluster tcp://10.0.0.5:8786
    --stage /shared/stage`.

    Score sheets and 国标小助手 records have no events: each hand is audited from its
    claim and loaded with `hands.source_kind = 'recorded'` (docs/clubs.md).

    **Exit codes**: 0 every hand loaded; 3 some hands were rejected (the rest loaded);
    2 usage error (missing file, bad option, both or neither of --db and --lake);
    1 the database or lake could not be written (no space, no rights, another ingest
    with `--no-wait`) or the Dask cluster could not be used, nothing changed;
    130 interrupted (nothing changed).
    """
    import duckdb

    from paipu.pipeline.dbwrite import DatabaseBusy, WriteError
    from paipu.pipeline.engines import DaskEngine, EngineError, LocalEngine
    from paipu.pipeline.ingest import ingest as run_ingest
    from paipu.pipeline.lake import LakeError, ingest_lake

    if (db is None) == (lake is None):
        err_console.print("paipu ingest: give --db FILE or --lake DIR (one of them)")
        raise typer.Exit(EXIT_USAGE)
    if cluster is not None and engine is not EngineName.dask:
        err_console.print("paipu ingest: --cluster goes with --engine dask")
        raise typer.Exit(EXIT_USAGE)
    runner = DaskEngine(cluster, jobs) if engine is EngineName.dask else LocalEngine(jobs)
    target = db if db is not None else lake
    assert target is not None
    files = record_files(paths, "ingest")
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

            if db is not None:
                summary = run_ingest(
                    files,
                    db,
                    engine=runner,
                    stage=stage,
                    progress=advance,
                    wait=not no_wait,
                    on_wait=lambda pid: _say_waiting(db, pid),
                    on_stale=lambda pid: err_console.print(
                        f"paipu ingest: cleared the lock of process {pid}, which was killed "
                        f"while ingesting into {db}; its half-written copy is deleted",
                        markup=False,
                    ),
                )
            else:
                summary = ingest_lake(
                    files,
                    target,
                    engine=runner,
                    stage=stage,
                    progress=advance,
                    wait=not no_wait,
                    on_wait=lambda pid: _say_waiting(target, pid),
                )
    except DatabaseBusy as exc:
        err_console.print(
            f"paipu ingest: {exc}; not waiting (--no-wait): nothing loaded", markup=False
        )
        raise typer.Exit(EXIT_FAILED) from None
    except WriteError as exc:
        err_console.print(f"paipu ingest: {exc}; the database is unchanged", markup=False)
        raise typer.Exit(EXIT_FAILED) from None
    except KeyboardInterrupt:
        err_console.print("paipu ingest: interrupted; the database is unchanged")
        raise typer.Exit(130) from None
    except EngineError as exc:
        err_console.print(f"paipu ingest: {exc}; nothing changed", markup=False)
        raise typer.Exit(EXIT_FAILED) from None
    except (duckdb.Error, LakeError, OSError) as exc:
        err_console.print(
            f"paipu ingest: cannot write {target}: {exc}; the "
            f"{'database' if db is not None else 'lake'} is unchanged",
            markup=False,
        )
        raise typer.Exit(EXIT_FAILED) from None
    table = Table(title=f"ingest → {target}", title_justify="left", show_header=False)
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


def _say_waiting(db: Path, pid: int | None) -> None:
    who = f"process {pid}" if pid is not None else "another process"
    err_console.print(
        f"paipu ingest: {db} is being written by {who}; waiting for it to finish "
        "(--no-wait to give up instead)",
        markup=False,
    )
