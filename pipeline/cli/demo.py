"""``paipu demo``: the main job on the records bundled in ``data/``: ingest, report, open."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    default_jobs,
    err_console,
    out_console,
    record_files,
)


def demo(
    data: Annotated[
        Path,
        typer.Option(
            "--data",
            help="The folder of records to load (default: data/ of the current directory, "
            "i.e. the repository's bundled records when run from its root).",
        ),
    ] = Path("data"),
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Where to put the database and the report."),
    ] = Path("paipu-demo"),
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes to load; database threads to report."
        ),
    ] = default_jobs(),
) -> None:
    """Load the bundled records into a fresh DuckDB file (`OUT/paipu.duckdb`), review every
    discard (`paipu review --save`), write the report (`OUT/report/`) and print the path of
    `index.html` to open in a browser.

    **Exit codes**: 0 done (hands the rules reject are listed on the audit page); 2 no
    records found (run it from the repository's root, or pass --data); 1 the database or
    the pages could not be written; 130 interrupted.
    """
    import duckdb

    from paipu.pipeline.ingest import ingest
    from paipu.pipeline.report import NoHandsError, ReportOptions, write_report
    from paipu.pipeline.review import review_and_save

    if not data.is_dir():
        err_console.print(
            f"paipu demo: there is no {data}/ folder in {Path.cwd()}: run `paipu demo` from the "
            "root of the paipu repository, or pass --data FOLDER"
        )
        raise typer.Exit(EXIT_USAGE)
    files = record_files([data], "demo")
    if not files:
        err_console.print(f"paipu demo: {data}/ holds no record files")
        raise typer.Exit(EXIT_USAGE)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "paipu.duckdb"
    db.unlink(missing_ok=True)  # the demo's own database: start afresh every time
    try:
        with err_console.status(f"ingesting {len(files)} files from {data}/"):
            loaded = ingest(files, db, jobs=jobs)
        err_console.print(
            f"{loaded.hands:,} hands loaded into {db}"
            + (f", {loaded.rejected:,} rejected (see the audit page)" if loaded.rejected else "")
        )
        with err_console.status("reviewing every discard (paipu review --save)"):
            reviewed = review_and_save(db, jobs)
        err_console.print(f"{reviewed:,} discards reviewed for the hand replays")
        with err_console.status("writing the report") as status:
            summary = write_report(
                db,
                out / "report",
                ReportOptions(jobs=jobs),
                lambda stage: status.update(f"report: {stage}"),
            )
    except NoHandsError:
        err_console.print(f"paipu demo: no hand of {data}/ could be loaded")
        raise typer.Exit(EXIT_FAILED) from None
    except (duckdb.Error, OSError) as exc:
        err_console.print(f"paipu demo: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    err_console.print(f"{summary.pages:,} report pages written; open this file in a browser:")
    out_console.print(str(summary.index.resolve()), markup=False)
    raise typer.Exit(EXIT_OK)
