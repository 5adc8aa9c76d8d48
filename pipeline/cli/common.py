"""Small helpers shared by the command modules: consoles, exit codes, paths."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TextIO

import typer
from rich.console import Console

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REJECTED = 3

err_console = Console(stderr=True, highlight=False, soft_wrap=True)
out_console = Console(highlight=False, soft_wrap=True)


def existing_paths(paths: list[Path], command: str) -> list[Path]:
    """The paths, or a usage error naming the first one that does not exist."""
    for path in paths:
        if not path.exists():
            err_console.print(f"paipu {command}: {path}: no such file or folder")
            raise typer.Exit(EXIT_USAGE)
    return paths


def record_files(paths: list[Path], command: str) -> list[Path]:
    """The record files under ``paths`` (a usage error naming the first path that does not
    exist); the documents and images a folder holds beside its records are left out, in
    one line on standard error naming them."""
    from paipu.pipeline.ingest import expand

    skipped: list[Path] = []
    files = expand(existing_paths(paths, command), skipped)
    if skipped:
        names = ", ".join(str(p) for p in skipped[:5])
        more = f" and {len(skipped) - 5:,} more" if len(skipped) > 5 else ""
        what = (
            "a document or an image by its name, not a record"
            if len(skipped) == 1
            else f"{len(skipped):,} documents or images by their names, not records"
        )
        err_console.print(f"paipu {command}: left out {names}{more}: {what}", markup=False)
    return files


def default_jobs() -> int:
    """Worker processes or database threads when not given: all cores."""
    return os.cpu_count() or 1


def open_output(out: Path, command: str) -> contextlib.AbstractContextManager[TextIO]:
    """``out`` opened for writing, or standard output for ``-`` (left open when done: it
    is not the command's to close); a usage error when the file cannot be created."""
    if str(out) == "-":
        return contextlib.nullcontext(sys.stdout)
    try:
        return out.open("w", encoding="utf-8")
    except OSError as exc:
        err_console.print(f"paipu {command}: cannot write {out}: {exc.strerror}")
        raise typer.Exit(EXIT_USAGE) from None


#: The option that reads a lake instead of a database (sql, report, export).
LAKE_HELP = (
    "A Parquet lake written by `paipu ingest --lake` (instead of --db); read through "
    "DuckDB views of its current files."
)


def store_path(command: str, db: Path | None, lake: Path | None) -> Path:
    """The database file or the lake folder to read: exactly one of ``--db`` and
    ``--lake``, existing; otherwise a usage error (exit 2)."""
    if (db is None) == (lake is None):
        err_console.print(f"paipu {command}: give --db FILE or --lake DIR (one of them)")
        raise typer.Exit(EXIT_USAGE)
    if db is not None:
        if not db.is_file():
            err_console.print(f"paipu {command}: {db}: no such database file")
            raise typer.Exit(EXIT_USAGE)
        return db
    assert lake is not None
    if not (lake / "_manifest.json").is_file():
        err_console.print(f"paipu {command}: {lake}: not a paipu lake (no _manifest.json)")
        raise typer.Exit(EXIT_USAGE)
    return lake
