"""Ingest: stream files, replay every hand in worker processes, bulk-load DuckDB.

The main process cuts each file into raw hands (a line, a Botzone block, a JSON match),
sends chunks of them to a pool of workers, and takes their rows back *in order*, a
bounded number of chunks in flight, so memory stays flat however large the input. Rows
are loaded in batches through Arrow, never row by row, into a copy of the database that
replaces it only at the end: an interrupted ingest leaves the database as it was (see
:func:`ingest`). A hand already in the database (same
game and hand) is replaced; the rejects of a file are replaced when it is ingested again,
so running the same ingest twice changes nothing.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from paipu.parsers import Parsed, Rejected, detect_or_reject, location, parse_unit, units
from paipu.parsers.recorded import is_recorded, recorded_facts, unplayed
from paipu.pipeline.rows import HAND_TABLES, TABLES, RowBuffer
from paipu.pipeline.sheet_audit import Sittings, audit_recorded
from paipu.pipeline.sql import apply_schema
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.shanten import caches_full, clear_caches

#: Raw hands per worker task, and hands per database batch.
CHUNK_HANDS = 250
BATCH_HANDS = 2000
#: DuckDB's memory budget while loading. Left to itself DuckDB keeps up to 80% of the
#: machine's memory as cache, so the ingest's memory grows with the corpus (367 MiB at
#: 12,800 Botzone hands, 509 MiB at 51,200); with this budget it stays near 250–280 MiB
#: whatever the corpus (DuckDB spills to a temporary file beside the database if a
#: replacing DELETE ever needs more).
INGEST_MEMORY_LIMIT = "128MB"
#: Allocations between young-generation collections during an ingest (Python's default is
#: 700). A replayed hand allocates tens of thousands of short-lived objects yet leaves only
#: a couple in reference cycles, so collecting that often costs time and frees nothing.
GC_YOUNG_THRESHOLD = 50_000


@dataclass
class IngestSummary:
    """What an ingest did."""

    files: int = 0
    hands: int = 0
    rejected: int = 0
    mismatched: int = 0
    reject_samples: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Task:
    fmt: str
    path: str
    units: tuple[tuple[int, str | None], ...]
    size: int  # bytes of raw text, for progress


def expand(paths: Iterable[Path]) -> list[Path]:
    """Files under the given paths, in a stable order; hidden files are skipped."""
    files: list[Path] = []
    seen: set[str] = set()
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file()
                    and not any(part.startswith(".") for part in p.relative_to(path).parts)
                )
            )
        else:
            files.append(path)
    unique = []
    for file in files:  # the same file named twice is read once
        key = os.path.normpath(str(file))
        if key not in seen:
            seen.add(key)
            unique.append(file)
    return unique


def tasks_for(files: Iterable[Path], on_reject: Callable[[Rejected], None]) -> Iterator[Task]:
    """Chunks of raw hands, file after file."""
    for path in files:
        name = os.path.normpath(str(path))
        fmt = detect_or_reject(path, name)
        if isinstance(fmt, Rejected):
            on_reject(fmt)
            continue
        chunk: list[tuple[int, str | None]] = []
        size = 0
        for unit in units(fmt, path):
            if isinstance(unit, Rejected):
                on_reject(unit)
                continue
            chunk.append(unit)
            size += len(unit[1] or "")
            if len(chunk) >= CHUNK_HANDS:
                yield Task(fmt, name, tuple(chunk), size)
                chunk, size = [], 0
        if chunk:
            yield Task(fmt, name, tuple(chunk), size)


@dataclass
class Chunk:
    """A worker's rows for one task, as Arrow tables (compact to send and to keep)."""

    tables: dict[str, pa.Table]
    keys: list[tuple[str, int]]
    hands: int = 0
    rejected: int = 0
    mismatched: int = 0
    reject_samples: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, rows: RowBuffer) -> Chunk:
        hands = rows.columns["hands"]
        rejects = rows.columns["rejects"]
        samples = [
            f"{location(source, line)}: {reason}"
            for source, line, reason in zip(
                rejects.get("source", []),
                rejects.get("line", []),
                rejects.get("reason", []),
                strict=True,
            )
        ][:20]
        return cls(
            tables={t: arrow_table(t, c) for t, c in rows.columns.items() if c},
            keys=list(zip(hands.get("game", []), hands.get("hand", []), strict=True)),
            hands=rows.hands,
            rejected=rows.rejected,
            mismatched=rows.mismatched,
            reject_samples=samples,
        )


_INT = pa.int64()
_STR = pa.string()
_BOOL = pa.bool_()
#: Arrow types of the columns of the two bulk tables, as Arrow would infer them from the
#: values: naming them saves Arrow a pass over every value.
ARROW_TYPES: dict[str, dict[str, pa.DataType]] = {
    "events": {
        "game": _STR,
        "hand": _INT,
        "seq": _INT,
        "kind": _STR,
        "seat": _INT,
        "tile": _STR,
        "tiles": pa.list_(_STR),
        "from_seat": _INT,
        "extra": _STR,
    },
    "discards": {
        "game": _STR,
        "hand": _INT,
        "variant": _STR,
        "seq": _INT,
        "seat": _INT,
        "player": _STR,
        "turn": _INT,
        "tile": _STR,
        "category": _STR,
        "visible": _INT,
        "tiles_left": _INT,
        "opponent_melds": pa.list_(_INT),
        "opponent_ready": pa.list_(_BOOL),
        "opponent_can_win": pa.list_(_BOOL),
        "max_opponent_melds": _INT,
        "ready_opponents": _INT,
        "dangerous": _BOOL,
        "won_on": _BOOL,
        "claimed": _BOOL,
    },
}


def arrow_table(table: str, columns: dict[str, list[Any]]) -> pa.Table:
    """One table's columns as Arrow, with the types of :data:`ARROW_TYPES` where named
    (Arrow infers the others, and any column whose values do not fit the named type)."""
    types = ARROW_TYPES.get(table, {})
    arrays = {}
    for name, values in columns.items():
        kind = types.get(name)
        if kind is not None:
            try:
                arrays[name] = pa.array(values, kind)
                continue
            except (pa.ArrowException, TypeError, ValueError, OverflowError):
                pass
        arrays[name] = pa.array(values)
    return pa.table(arrays)


def process(task: Task) -> Chunk:
    """Worker: parse and replay a chunk of raw hands into Arrow rows.

    The replay's shanten tables are emptied between chunks once full, so that a worker's
    memory stays bounded however many hands it replays.
    """
    if caches_full():
        clear_caches()
    rows = RowBuffer()
    sittings = Sittings()  # score sheets and 国标小助手 records: checked across a sitting
    for line, text in task.units:
        for result in parse_unit(task.fmt, task.path, line, text):
            if isinstance(result, Rejected):
                rows.add_reject(result)
                continue
            rows_for(result, task.fmt, rows, sittings)
    return Chunk.of(rows)


def rows_for(parsed: Parsed, fmt: str, rows: RowBuffer, sittings: Sittings | None = None) -> None:
    """Replay one parsed hand into ``rows`` (or a reject row); a recorded-only hand (no
    events) is audited instead and loaded as recorded, unless it was never played (and no
    penalty on it moved points: the sitting's totals keep it)."""
    record = parsed.record
    if is_recorded(record):
        # a hand never played (超时) is left out, unless a penalty on it moved points
        if not unplayed(record) or recorded_facts(record).get("penalties"):
            verdict = audit_recorded(record, sittings)
            rows.add_recorded(record, verdict, fmt, parsed.path, parsed.line)
        return
    try:
        outcome = replay(record)
    except RuleViolation as exc:
        rows.add_reject(
            Rejected(
                parsed.path,
                parsed.line,
                exc.describe(),
                record.game,
                record.hand,
                exc.index,
                record.variant,
                record.players,
            )
        )
        return
    rows.add_outcome(outcome, fmt, parsed.path, parsed.line, parsed.text)


def ordered_map(tasks: Iterator[Task], jobs: int) -> Iterator[tuple[Task, Chunk]]:
    """Results of :func:`process` in task order, with at most ``2 × jobs`` tasks in flight."""
    if jobs <= 1:
        for task in tasks:
            yield task, process(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        window: deque[tuple[Task, Future[Chunk]]] = deque()
        for task in tasks:
            window.append((task, pool.submit(process, task)))
            if len(window) >= 2 * jobs:
                done, future = window.popleft()
                yield done, future.result()
        while window:
            done, future = window.popleft()
            yield done, future.result()


class Loader:
    """Bulk loads chunks of rows into an open transaction, a batch at a time."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.pending: list[Chunk] = []
        self.hands = 0
        self.keys: set[tuple[str, int]] = set()

    def add(self, chunk: Chunk) -> None:
        if not self.keys.isdisjoint(chunk.keys):  # a hand repeated: the later one wins
            self.flush()
        self.pending.append(chunk)
        self.keys.update(chunk.keys)
        self.hands += chunk.hands + chunk.rejected
        if self.hands >= BATCH_HANDS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        con = self.con
        if self.keys:
            keys = list(self.keys)
            con.register(
                "batch_keys",
                pa.table(
                    {
                        "game": pa.array([k[0] for k in keys], pa.string()),
                        "hand": pa.array([k[1] for k in keys], pa.int32()),
                    }
                ),
            )
            # Replace hands already in the database; a fresh load finds none and skips this.
            con.execute(
                "CREATE OR REPLACE TEMP TABLE present AS SELECT DISTINCT h.game, h.hand "
                "FROM hands h JOIN batch_keys k USING (game, hand)"
            )
            if con.execute("SELECT count(*) FROM present").fetchone()[0]:
                for table in HAND_TABLES:
                    con.execute(
                        f"DELETE FROM {table} USING present p "
                        f"WHERE {table}.game = p.game AND {table}.hand = p.hand"
                    )
            con.execute(
                "DELETE FROM rejects USING batch_keys k "
                "WHERE rejects.game = k.game AND rejects.hand = k.hand"
            )
            con.unregister("batch_keys")
        for table in TABLES:
            parts = [c.tables[table] for c in self.pending if table in c.tables]
            if not parts:
                continue
            arrow = pa.concat_tables(parts, promote_options="default")
            con.register("batch_rows", arrow)
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM batch_rows")
            con.unregister("batch_rows")
        self.pending = []
        self.hands = 0
        self.keys = set()


def ingest(
    paths: Iterable[Path],
    db: Path,
    jobs: int = 1,
    progress: Callable[[int, Chunk], None] | None = None,
) -> IngestSummary:
    """Load every hand under ``paths`` into the DuckDB file ``db``, all or nothing.

    The load goes into a copy of the database (``<db>.ingest``), committed batch by batch
    so that memory stays flat (DuckDB keeps a transaction's appends in memory), and the
    copy replaces ``db`` in one atomic rename at the end. An interrupted or killed ingest
    leaves ``db`` exactly as it was, and readers see the old version until the rename.
    ``progress(bytes, chunk)`` is called after each chunk. Raises duckdb.Error when the
    database cannot be written.
    """
    files = expand(paths)
    summary = IngestSummary(files=len(files))
    staging = db.with_name(db.name + ".ingest")
    _remove(staging)
    if db.exists():
        with duckdb.connect(str(db)) as current:  # fold any write-ahead log into the file
            current.execute("CHECKPOINT")
        shutil.copyfile(db, staging)
    con = duckdb.connect(str(staging))
    try:
        con.execute(f"SET memory_limit = '{INGEST_MEMORY_LIMIT}'")
        apply_schema(con)
        names = [os.path.normpath(str(p)) for p in files]
        if names:
            con.execute(
                "DELETE FROM rejects WHERE source IN (SELECT unnest($names))", {"names": names}
            )
        loader = Loader(con)
        file_rejects = RowBuffer()

        def on_reject(rejected: Rejected) -> None:
            file_rejects.add_reject(rejected)

        with _relaxed_gc():
            for task, chunk in ordered_map(tasks_for(files, on_reject), jobs):
                _count(summary, chunk)
                loader.add(chunk)
                if progress is not None:
                    progress(task.size, chunk)
        last = Chunk.of(file_rejects)
        _count(summary, last)
        loader.add(last)
        loader.flush()
        con.execute("CHECKPOINT")
        con.close()
        staging.replace(db)
        _remove(db.with_name(db.name + ".wal"))
    except BaseException:
        con.close()
        _remove(staging)
        raise
    return summary


@contextlib.contextmanager
def _relaxed_gc() -> Iterator[None]:
    """Cyclic garbage collection tuned for replaying hands, restored afterwards.

    What is loaded before the ingest (modules, the rule tables) is frozen out of the
    collector's scans, and young objects are collected every :data:`GC_YOUNG_THRESHOLD`
    allocations. Collection still runs, so memory stays bounded; worker processes forked
    inside inherit the setting.
    """
    threshold = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(max(threshold[0], GC_YOUNG_THRESHOLD), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _remove(path: Path) -> None:
    """Delete a database file and its write-ahead log, if present."""
    for stale in (path, path.with_name(path.name + ".wal")):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()


def _count(summary: IngestSummary, chunk: Chunk) -> None:
    summary.hands += chunk.hands
    summary.rejected += chunk.rejected
    summary.mismatched += chunk.mismatched
    room = 20 - len(summary.reject_samples)
    if room > 0:
        summary.reject_samples.extend(chunk.reject_samples[:room])
