"""A lake: the tables of paipu ingests as a hive-partitioned Parquet dataset.

For corpora larger than one DuckDB file should hold, ``paipu ingest --lake DIR`` writes
each table under ``DIR/<table>/variant=<id>/month=<YYYY-MM>/`` (``rejects`` unpartitioned,
in ``DIR/rejects/``), and ``paipu sql|report|export --lake DIR`` read it through DuckDB
views with exactly the columns of the database's tables.

The lake's state is its manifest, ``DIR/_manifest.json``: the runs of ingests whose files
make up the lake, each with the source files it holds. A run is written in full, then the
manifest is replaced in one atomic rename, so a reader sees the lake before or after an
ingest, never between, and an interrupted ingest leaves the lake as it was (files of a
run that never reached the manifest are removed by the next ingest). Re-ingesting a file
replaces its hands: every run that held that file is rewritten without it. One writer at a
time: an ingest holds ``DIR/.lock`` (a file lock, released by the system if the process
dies). The unit of replacement is the source file: a hand (game and hand) ingested from
two different files is in the lake twice, where a database keeps the later one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from paipu.pipeline.dbwrite import DatabaseBusy
from paipu.pipeline.engines import Engine
from paipu.pipeline.ingest import INGEST_MEMORY_LIMIT, Chunk, IngestSummary, expand, ingest
from paipu.pipeline.rows import TABLES
from paipu.pipeline.sql import apply_schema, load_queries

MANIFEST = "_manifest.json"
LOCK = ".lock"
VERSION = 1
#: Columns a lake file has beyond the table's own.
EXTRA = ("month", "_source")


class LakeError(RuntimeError):
    """A folder that is not a lake, or a manifest that cannot be read."""


@dataclass(frozen=True, slots=True)
class Run:
    """The files one ingest wrote, and the source files whose hands they hold."""

    id: str
    sources: tuple[str, ...]
    files: dict[str, list[str]]  # table -> paths relative to the lake

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "sources": list(self.sources), "files": self.files}


def is_lake(path: Path) -> bool:
    return (path / MANIFEST).is_file()


def read_manifest(lake: Path) -> list[Run]:
    path = lake / MANIFEST
    if not path.exists():
        return []
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("version") != VERSION:
            raise LakeError(f"{path}: lake version {document.get('version')!r}, not {VERSION}")
        return [
            Run(r["id"], tuple(r["sources"]), {t: list(f) for t, f in r["files"].items()})
            for r in document["runs"]
        ]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LakeError(f"{path}: not a paipu lake manifest ({exc})") from exc


def _write_manifest(lake: Path, runs: list[Run]) -> None:
    document = {"version": VERSION, "runs": [r.to_json() for r in runs]}
    partial = lake / f"{MANIFEST}.{os.getpid()}.part"
    partial.write_text(json.dumps(document, indent=1, sort_keys=True), encoding="utf-8")
    with partial.open("rb") as handle:
        os.fsync(handle.fileno())
    partial.replace(lake / MANIFEST)


@contextlib.contextmanager
def _locked(lake: Path, wait: bool, on_wait: Callable[[int | None], None] | None) -> Iterator[None]:
    """Hold the lake's writer lock (``DIR/.lock``, holding the writer's process id)."""
    with (lake / LOCK).open("a+") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            text = handle.read().strip()
            pid = int(text) if text.isdigit() else None
            if not wait:
                raise DatabaseBusy(lake, pid) from None
            if on_wait is not None:
                on_wait(pid)
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def ingest_lake(
    paths: Iterable[Path],
    lake: Path,
    engine: Engine | None = None,
    stage: Path | None = None,
    progress: Callable[[int, Chunk], None] | None = None,
    wait: bool = True,
    on_wait: Callable[[int | None], None] | None = None,
) -> IngestSummary:
    """Ingest ``paths`` into the lake folder ``lake`` (made if absent), all or nothing.

    One writer at a time: a second ingest waits (telling ``on_wait`` the holder's process
    id), or with ``wait=False`` raises :class:`~paipu.pipeline.dbwrite.DatabaseBusy`.

    The hands are replayed and loaded exactly as :func:`paipu.pipeline.ingest.ingest`
    does, into a database of this run alone, which is then written out as the run's
    Parquet files.
    """
    files = expand(paths)
    lake.mkdir(parents=True, exist_ok=True)
    if any(lake.iterdir()) and not is_lake(lake) and not (lake / LOCK).exists():
        raise LakeError(f"{lake}: a folder that is not a paipu lake (no {MANIFEST})")
    with _locked(lake, wait, on_wait):
        runs = read_manifest(lake)
        _remove_unlisted(lake, runs)
        run_id = f"{time.time_ns():x}-{os.getpid()}"
        with tempfile.TemporaryDirectory(prefix=".run-", dir=lake) as work:
            db = Path(work, "run.duckdb")
            summary = ingest(files, db, engine=engine, stage=stage, progress=progress)
            sources = tuple(sorted({os.path.normpath(str(f)) for f in files}))
            con = duckdb.connect(str(db))
            try:
                # the copy out streams each table under the load's memory budget, spilling
                # into the run's folder, not DuckDB's default of most of the machine
                con.execute(f"SET memory_limit = '{INGEST_MEMORY_LIMIT}'")
                con.execute("SET temp_directory = $dir", {"dir": str(Path(work, "spill"))})
                # rows in any order (a lake has none), so DuckDB need not buffer them
                con.execute("SET preserve_insertion_order = false")
                kept = [_without(con, lake, run, set(sources)) for run in runs]
                kept = [run for run in kept if run is not None]
                new = _write_run(con, lake, run_id, sources)
            except BaseException:
                # the files this run wrote are in no manifest: gone now, not at the next ingest
                con.close()
                _remove_unlisted(lake, runs, keep_runs=True)
                raise
            finally:
                con.close()
        _write_manifest(lake, [*kept, new])
        _remove_unlisted(lake, [*kept, new])
    return summary


def _write_run(
    con: duckdb.DuckDBPyConnection, lake: Path, run_id: str, sources: tuple[str, ...]
) -> Run:
    con.execute(load_queries()["lake-hand-keys"].sql)
    partitions = con.execute(load_queries("lake")["lake-partitions"].sql).fetchall()
    files: dict[str, list[str]] = {}
    for table in TABLES:
        if table == "rejects":
            path = lake / table / f"run-{run_id}.parquet"
            files[table] = _copy(con, lake, path, "lake-copy-rejects", {})
            continue
        query = "lake-copy-hands" if table == "hands" else "lake-copy-table"
        files[table] = []
        for variant, month in partitions:
            path = lake / table / f"variant={variant}" / f"month={month}" / f"run-{run_id}.parquet"
            parameters = {"variant": variant, "month": month}
            if table != "hands":
                parameters["table"] = table
            files[table] += _copy(con, lake, path, query, parameters)
    return Run(run_id, sources, files)


def _without(con: duckdb.DuckDBPyConnection, lake: Path, run: Run, sources: set[str]) -> Run | None:
    """``run`` with the hands of ``sources`` taken out (rewritten as a new run), or None
    when nothing of it is left."""
    if sources.isdisjoint(run.sources):
        return run
    left = tuple(s for s in run.sources if s not in sources)
    if not left:
        return None
    run_id = f"{run.id}.{time.time_ns():x}"
    files: dict[str, list[str]] = {}
    for table, paths in run.files.items():
        files[table] = []
        for n, old in enumerate(paths):
            path = (lake / old).parent / f"run-{run_id}-{n}.parquet"
            parameters = {"file": str(lake / old), "sources": sorted(sources)}
            files[table] += _copy(con, lake, path, "lake-rewrite-file", parameters)
    return Run(run_id, left, files)


def _copy(
    con: duckdb.DuckDBPyConnection,
    lake: Path,
    path: Path,
    query: str,
    parameters: dict[str, Any],
) -> list[str]:
    """Run the ``COPY`` of named query ``query`` (``sql/lake``) into the file ``path``; the
    path relative to the lake, or none (and no file) when it wrote no row."""
    path.parent.mkdir(parents=True, exist_ok=True)
    row = con.execute(load_queries("lake")[query].sql, {**parameters, "path": str(path)}).fetchone()
    if row is None or not row[0]:
        path.unlink(missing_ok=True)
        return []
    return [str(path.relative_to(lake))]


def _quote(path: Path | str) -> str:
    """A path as an SQL string literal (COPY takes no parameter for its target)."""
    return "'" + str(path).replace("'", "''") + "'"


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rows = con.execute(load_queries()["lake-columns"].sql, {"table": table}).fetchall()
    return [r[0] for r in rows]


def _remove_unlisted(lake: Path, runs: list[Run], keep_runs: bool = False) -> None:
    """Delete the table files no run of the manifest lists (a run interrupted before its
    manifest, or replaced by a re-ingest), and the folders of runs (``.run-*``) unless
    ``keep_runs`` (the current run's own is still open)."""
    listed = {p for run in runs for paths in run.files.values() for p in paths}
    for table in TABLES:
        folder = lake / table
        if not folder.is_dir():
            continue
        for path in folder.rglob("*.parquet"):
            if str(path.relative_to(lake)) not in listed:
                path.unlink(missing_ok=True)
    if keep_runs:
        return
    for stale in lake.glob(".run-*"):
        shutil.rmtree(stale, ignore_errors=True)


def connect(lake: Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB whose tables are views of the lake's current files."""
    runs = read_manifest(lake)
    con = duckdb.connect()
    apply_schema(con)
    for table in TABLES:
        paths = [str(lake / p) for run in runs for p in run.files.get(table, [])]
        if not paths:
            continue  # the schema's empty table stands
        columns = ", ".join(f'"{c}"' for c in _columns(con, table))
        con.execute(f"DROP TABLE {table}")
        listing = ", ".join(_quote(p) for p in paths)
        con.execute(
            f"CREATE VIEW {table} AS SELECT {columns} FROM read_parquet([{listing}], "
            "hive_partitioning = true, hive_types_autocast = false, union_by_name = true)"
        )
    return con


def connect_read(path: Path) -> duckdb.DuckDBPyConnection:
    """A database file opened read-only, or a lake folder as views (:func:`connect`)."""
    if path.is_dir():
        return connect(path)
    return duckdb.connect(str(path), read_only=True)
