"""Ingest: stream files, replay every hand on workers, bulk-load DuckDB from Parquet shards.

The main process cuts each file into raw hands (a line, a Botzone block, a JSON match) and
sends chunks of them to workers: a local process pool (``engine="local"``) or a Dask
cluster (``engine="dask"``, :mod:`paipu.pipeline.engines`). A worker replays its chunk and
writes the rows as one Parquet shard per table into the stage folder (the *map* side);
the main process takes the chunks back *in order*, a bounded number in flight, so memory
stays flat however large the input, and loads their shards in batches into a copy of the
database that replaces it only at the end (the *load* side): an interrupted ingest leaves
the database as it was (see :func:`ingest`). A shard is named by its chunk's place in the
input, so a chunk run twice (a Dask worker that died) writes the same file and is loaded
once. A hand already in the database (same game and hand) is replaced; the rejects of a
file are replaced when it is ingested again, so running the same ingest twice changes
nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from paipu.parsers import Parsed, Rejected, detect_or_reject, location, parse_unit, units
from paipu.parsers.recorded import is_recorded, recorded_facts, unplayed
from paipu.pipeline.dbwrite import atomic_write
from paipu.pipeline.engines import Engine, LocalEngine
from paipu.pipeline.pause import pause_at
from paipu.pipeline.rows import EVENT_COLUMNS, EVENT_ROW, HAND_TABLES, TABLES, RowBuffer
from paipu.pipeline.sheet_audit import Sittings, audit_recorded
from paipu.pipeline.sql import apply_schema
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.shanten import caches_full, clear_caches

#: Raw hands per worker task, and hands per database batch.
CHUNK_HANDS = 250
#: Raw text per worker task at most: a chunk of huge lines is cut sooner, so that the tasks
#: in flight hold at most ``2 × jobs`` such chunks however long the lines are.
CHUNK_BYTES = 8 * 1024 * 1024
BATCH_HANDS = 2000
#: The smallest batch loaded early near the end of the input (:class:`Loader`).
TAIL_BATCH_HANDS = 250
#: DuckDB's memory budget while loading. Left to itself DuckDB keeps up to 80% of the
#: machine's memory as cache, so the ingest's memory grows with the corpus (367 MiB at
#: 12,800 Botzone hands, 509 MiB at 51,200); with this budget it stays near 250–280 MiB
#: whatever the corpus (DuckDB spills to a temporary file beside the database if a
#: replacing DELETE ever needs more).
INGEST_MEMORY_LIMIT = "128MB"
#: Allocations between young-generation collections during an ingest. A replayed Botzone
#: hand leaves no cyclic garbage now (the replay releases its table), so a collection
#: finds nothing to free and only scans the rows being built: at Python's default of 700
#: the collector cost 62 µs of CPU per Botzone hand, at 50,000 28 (it still frees the
#: cycles of other variants' hands: 361 against 300 µs a hand on the bundled logs;
#: docs/benchmarks.md, stop 26).
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
    """A chunk of raw hands of one file, and where its shards go."""

    fmt: str
    path: str
    units: tuple[tuple[int, str | None], ...]
    size: int  # bytes of raw text, for progress
    index: int = 0  # the chunk's place in the input: names its shards
    stage: str = ""  # the folder the shards are written to


#: Suffixes of the files a folder of records holds beside them that are never records:
#: documents and images (a README, the club's rules as a PDF, a screenshot). Inside a
#: folder they are left out, and the commands say which (:func:`expand`'s ``skipped``); a
#: file named on the command line is always read, and rejected if it is no record.
NOT_RECORDS = frozenset(
    {
        ".md",
        ".markdown",
        ".rst",
        ".pdf",
        ".doc",
        ".docx",
        ".odt",
        ".html",
        ".htm",
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".svg",
        ".webp",
    }
)


def expand(paths: Iterable[Path], skipped: list[Path] | None = None) -> list[Path]:
    """Files under the given paths, in a stable order; hidden files are skipped, and so are
    the documents and images inside a folder (:data:`NOT_RECORDS`), which are added to
    ``skipped`` when it is given."""
    files: list[Path] = []
    seen: set[str] = set()
    for path in paths:
        if path.is_dir():
            for p in sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ):
                if p.suffix.lower() not in NOT_RECORDS:
                    files.append(p)
                elif skipped is not None:
                    skipped.append(p)
        else:
            files.append(path)
    unique = []
    for file in files:  # the same file named twice is read once
        key = os.path.normpath(str(file))
        if key not in seen:
            seen.add(key)
            unique.append(file)
    return unique


def tasks_for(
    files: Iterable[Path], on_reject: Callable[[Rejected], None], stage: str = ""
) -> Iterator[Task]:
    """Chunks of raw hands, file after file, numbered in order; shards go to ``stage``."""
    index = 0
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
            if len(chunk) >= CHUNK_HANDS or size >= CHUNK_BYTES:
                yield Task(fmt, name, tuple(chunk), size, index, stage)
                index += 1
                chunk, size = [], 0
        if chunk:
            yield Task(fmt, name, tuple(chunk), size, index, stage)
            index += 1


@dataclass
class Chunk:
    """A worker's rows for one task: the Parquet shard of each table that has rows (what
    crosses from a worker to the loader is only these paths and the counts)."""

    shards: dict[str, str]
    keys: list[tuple[str, int]]
    hands: int = 0
    rejected: int = 0
    mismatched: int = 0
    reject_samples: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, rows: RowBuffer, stage: str, name: str) -> Chunk:
        """Write the rows of ``rows`` as shards ``<stage>/<name>.<table>.parquet``.

        Each shard is written beside its final name and renamed into place, so a shard is
        whole or absent, and writing the same chunk again replaces it.
        """
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
        shards = {}
        for table, columns in rows.columns.items():
            if not columns:
                continue
            path = Path(stage, f"{name}.{table}.parquet")
            partial = path.with_name(f"{path.name}.{os.getpid()}.part")
            write_shard(arrow_table(table, columns), partial)
            partial.replace(path)
            shards[table] = str(path)
        return cls(
            shards=shards,
            keys=list(zip(hands.get("game", []), hands.get("hand", []), strict=True)),
            hands=rows.hands,
            rejected=rows.rejected,
            mismatched=rows.mismatched,
            reject_samples=samples,
        )


_INT = pa.int64()
_STR = pa.string()
_BOOL = pa.bool_()
_STRS = pa.list_(_STR)
#: Arrow types of every column of every table (the DuckDB types of sql/schema, as Arrow
#: would infer them from the values): naming them saves Arrow a pass over every value to
#: guess, and gives every shard of a table the same schema.
ARROW_TYPES: dict[str, dict[str, pa.DataType]] = {
    "hands": {
        "game": _STR,
        "hand": _INT,
        "variant": _STR,
        "rules": _STR,
        "time": _STR,
        "players": _STRS,
        "dealer": _INT,
        "round_wind": _STR,
        "outcome": _STR,
        "winners": _INT,
        "verdict": _STR,
        "problems": _STRS,
        "n_events": _INT,
        "source_format": _STR,
        "source_file": _STR,
        "source_line": _INT,
        "record": _STR,
        "source_kind": _STR,
    },
    "hand_seats": {
        "game": _STR,
        "hand": _INT,
        "seat": _INT,
        "player": _STR,
        "seat_wind": _STR,
        "is_dealer": _BOOL,
        "delta": _INT,
        "recorded_delta": _INT,
        "score_before": _INT,
        "won": _BOOL,
        "dealt_in": _BOOL,
        "melds": _INT,
        "ready_at_end": _BOOL,
        "penalty": _INT,
    },
    "wins": {
        "game": _STR,
        "hand": _INT,
        "seat": _INT,
        "player": _STR,
        "seq": _INT,
        "source": _STR,
        "from_seat": _INT,
        "tile": _STR,
        "total": _INT,
        "points": _INT,
        "self_drawn": _BOOL,
        "last_tile": _BOOL,
        "kong_replacement": _BOOL,
        "robbing_kong": _BOOL,
        "last_of_kind": _BOOL,
        "detail": _STR,
    },
    "win_fans": {
        "game": _STR,
        "hand": _INT,
        "seat": _INT,
        "seq": _INT,
        "variant": _STR,
        "fan": _STR,
        "name_zh": _STR,
        "name_en": _STR,
        "points": _INT,
        "count": _INT,
    },
    "missed_wins": {
        "game": _STR,
        "hand": _INT,
        "seq": _INT,
        "seat": _INT,
        "player": _STR,
        "tile": _STR,
        "from_seat": _INT,
        "total": _INT,
    },
    "rejects": {
        "source": _STR,
        "line": _INT,
        "game": _STR,
        "hand": _INT,
        "variant": _STR,
        "players": _STRS,
        "event_index": _INT,
        "reason": _STR,
    },
    "events": {
        "game": _STR,
        "hand": _INT,
        "seq": _INT,
        "kind": _STR,
        "seat": _INT,
        "tile": _STR,
        "tiles": _STRS,
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
        if name == EVENT_ROW:
            arrays.update(_event_arrays(values, types))
        else:
            arrays[name] = _arrow_array(values, types.get(name))
    return pa.table(arrays)


def _arrow_array(values: Sequence[Any], kind: pa.DataType | None) -> pa.Array:
    """``values`` as Arrow, of type ``kind`` when named and they fit it (else inferred)."""
    if kind is not None:
        try:
            return pa.array(values, kind)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            pass
    return pa.array(values)


def _event_arrays(
    rows: Sequence[tuple[Any, ...]], types: Mapping[str, pa.DataType]
) -> dict[str, pa.Array]:
    """The ``events`` columns of :data:`~paipu.pipeline.rows.EVENT_COLUMNS` from a chunk's
    encoded rows, turned into columns in one pass (not hand by hand)."""
    columns = zip(*rows, strict=True) if rows else [()] * len(EVENT_COLUMNS)
    return {
        name: _arrow_array(values, types.get(name))
        for name, values in zip(EVENT_COLUMNS, columns, strict=True)
    }


def write_shard(table: pa.Table, path: Path) -> None:
    """Write one shard. A shard lives only until the load reads it back whole, so it
    carries no column statistics (nothing filters on them; they cost about as much as
    the rest of the write) and is compressed with lz4, the cheapest codec to write and
    to read (snappy cost about a sixth more of the shard's write and a tenth more of its
    load; no compression about the same CPU as lz4, for files six times larger)."""
    pq.write_table(table, path, compression="lz4", write_statistics=False)


def process(task: Task) -> Chunk:
    """Worker: parse and replay a chunk of raw hands into Parquet shards of rows.

    The replay's shanten tables are emptied between chunks once full, so that a worker's
    memory stays bounded however many hands it replays.

    The cyclic collector is paused while a chunk is built: what a chunk allocates and keeps
    is its rows (about 200 objects a Botzone hand), so a young collection falling due in it
    scanned the whole chunk's rows and found nothing to free (about one a chunk, 40-70 µs of
    CPU a hand). The rows are freed by reference counting when the chunk is written; the
    cycles a chunk leaves (other variants' hands) are collected after it, as the count of
    allocations they hold stays over the threshold.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _process(task)
    finally:
        if collecting:
            gc.enable()


def _process(task: Task) -> Chunk:
    _crash_for_test(task)
    if caches_full():
        clear_caches()
    rows = RowBuffer()
    sittings = Sittings()  # score sheets and 国标小助手 records: checked across a sitting
    for line, text in task.units:
        try:
            results = parse_unit(task.fmt, task.path, line, text)
        except Exception as exc:  # the last safety net: see _internal_error
            rows.add_reject(_internal_error(task.path, line, exc))
            continue
        for result in results:
            if isinstance(result, Rejected):
                rows.add_reject(result)
                continue
            mark = rows.mark()
            try:
                rows_for(result, task.fmt, rows, sittings)
            except Exception as exc:
                rows.rollback(mark)
                record = result.record
                rows.add_reject(
                    _internal_error(result.path, result.line, exc, record.game, record.hand)
                )
    return Chunk.of(rows, task.stage, f"{task.index:08d}")


def process_in_memory(task: Task) -> dict[str, pa.Table]:
    """:func:`process` for a caller that wants the rows themselves (the fuzzer, tests):
    the chunk's shards go to a temporary folder and come back as Arrow tables, by table."""
    with tempfile.TemporaryDirectory(prefix="paipu-chunk-") as stage:
        chunk = process(dataclasses.replace(task, stage=stage))
        return {table: pq.read_table(path) for table, path in chunk.shards.items()}


#: Test hook: ``INDEX@MARKER`` makes the worker process replaying chunk INDEX die, once:
#: the first time, when the file MARKER does not exist yet (it is made then). The tests
#: of a worker lost mid-run set it; nothing else does.
CRASH_ENV = "PAIPU_TEST_CRASH_AT_CHUNK"


def _crash_for_test(task: Task) -> None:
    hook = os.environ.get(CRASH_ENV)
    if hook is None:
        return
    index, _, marker = hook.partition("@")
    if int(index) != task.index or Path(marker).exists():
        return
    Path(marker).touch()
    os._exit(17)


#: Words every rejection for an unexpected error carries (the fuzz tests look for them).
INTERNAL_ERROR = "paipu could not check this hand (an error in paipu itself, please report it)"


def _internal_error(
    path: str, line: int, exc: Exception, game: str | None = None, hand: int | None = None
) -> Rejected:
    """A hand the parser or the replay failed on unexpectedly: rejected with the error's
    type and message instead of ending the whole ingest with a traceback (the fuzz tests
    make sure no known input gets here)."""
    return Rejected(path, line, f"{INTERNAL_ERROR}: {type(exc).__name__}: {exc}"[:500], game, hand)


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
                # a hand that stops too early fails where its ending should come
                exc.index if exc.index is not None else len(record.events),
                record.variant,
                record.players,
            )
        )
        return
    rows.add_outcome(outcome, fmt, parsed.path, parsed.line, parsed.text)


class Loader:
    """Bulk loads chunks of rows into an open transaction, a batch at a time.

    With ``background=True`` each batch loads on a thread of its own while the caller
    goes on taking the workers' chunks and handing them new tasks (DuckDB lets go of the
    interpreter while it reads the shards and writes its storage): the batches are the same
    and load in the same order, one at a time, so the database is the same. A batch ready
    while the one before it still loads is queued behind it, so the caller never waits
    for a load (an error of a batch is raised by a later :meth:`flush` or by :meth:`wait`).
    Use it as a context manager: leaving the ``with`` block waits for the last batch (and
    raises the first error), or, when the block raised, stops the batch loading and lets
    the error through.
    """

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        background: bool = False,
        expected: int = 0,
        sources: Sequence[str] = (),
    ) -> None:
        self.con = con
        #: The input's whole size (:attr:`Task.size`'s unit, near enough: its files' bytes),
        #: when known; with the sizes of the chunks added so far it says how many hands are
        #: still to come.
        self.expected = expected
        self.added_size = 0
        self.added_hands = 0
        #: The files being ingested (as the rejects name them): a hand loaded deletes the
        #: rejects of its key from other files only, the earlier ones.
        self.sources = list(sources)
        self.pending: list[Chunk] = []
        self.hands = 0
        self.keys: set[tuple[str, int]] = set()
        self._thread = ThreadPoolExecutor(1, "paipu-load") if background else None
        #: The batches handed to the thread, in order, not yet seen through.
        self._loading: list[Future[None]] = []
        self._stop = False

    def __enter__(self) -> Loader:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        try:
            if kind is None:
                self.wait()
            elif self._loading:
                self._stop = True  # no statement after the one running
                self.con.interrupt()
                self._drop()
        finally:
            if self._thread is not None:
                self._thread.shutdown()

    def add(self, chunk: Chunk, size: int = 0) -> None:
        """Add a chunk of ``size`` (its task's); a batch is loaded once it holds
        :data:`BATCH_HANDS` hands, or, near the end of the input, once it holds as many as
        are still to come (at least :data:`TAIL_BATCH_HANDS`): so that the batch left to
        load after the last chunk is small (a batch of 2,000 Botzone hands took about 0.5 s
        of the ingest's wall time after the workers were done). Where the batches end
        depends on the input alone."""
        if not self.keys.isdisjoint(chunk.keys):  # a hand repeated: the later one wins
            self.flush()
        self.pending.append(chunk)
        self.keys.update(chunk.keys)
        hands = chunk.hands + chunk.rejected
        self.hands += hands
        self.added_hands += hands
        self.added_size += size
        if self.hands >= BATCH_HANDS or self.hands >= max(TAIL_BATCH_HANDS, self.to_come()):
            self.flush()

    def set_threads(self, threads: int) -> None:
        """DuckDB's threads for the batches from here on and the checkpoint after them (on
        the thread: once the batches queued before it have loaded)."""
        statement = f"SET threads = {threads}"
        if self._thread is None:
            self.con.execute(statement)
        else:
            self._loading.append(self._thread.submit(self._execute_or_stop, statement))

    def _execute_or_stop(self, statement: str) -> None:
        if not self._stop:
            self.con.execute(statement)

    def to_come(self) -> float:
        """Hands still to come, estimated from the sizes (infinite when unknown)."""
        if self.expected <= 0 or self.added_size <= 0:
            return float("inf")
        left = max(0, self.expected - self.added_size)
        return left * self.added_hands / self.added_size

    def flush(self) -> None:
        """Load the chunks added since the last batch (on the thread: after the batch
        before it has loaded)."""
        if not self.pending:
            return
        pending, keys = self.pending, self.keys
        self.pending = []
        self.hands = 0
        self.keys = set()
        if self._thread is None:
            self._load(pending, keys)
            return
        # queued behind the batches still loading (the thread takes them in order): the
        # caller goes on handing out tasks meanwhile; an error of a batch done is raised
        while self._loading and self._loading[0].done():
            self._seen(self._loading.pop(0))
        self._loading.append(self._thread.submit(self._load_or_stop, pending, keys))

    def wait(self) -> None:
        """Wait for the batches loading, if any; the first error is raised here (and the
        batches after it are not loaded)."""
        while self._loading:
            self._seen(self._loading[0])
            self._loading.pop(0)

    def _seen(self, loading: Future[None]) -> None:
        """The outcome of a batch: on its error the batches queued after it are dropped."""
        try:
            loading.result()
        except BaseException:
            self._stop = True
            self._drop()
            raise

    def _drop(self) -> None:
        """Cancel the batches queued and wait for the one loading (its error dropped)."""
        loading, self._loading = self._loading, []
        for future in loading:
            future.cancel()
        for future in loading:
            with contextlib.suppress(BaseException):
                future.result()

    def _load_or_stop(self, pending: list[Chunk], keys: set[tuple[str, int]]) -> None:
        """:meth:`_load` on the thread: a batch that fails stops the ones queued after it."""
        try:
            self._load(pending, keys)
        except BaseException:
            self._stop = True
            raise

    def _load(self, pending: list[Chunk], keys: set[tuple[str, int]]) -> None:
        if self._stop:
            return
        con = self.con
        if keys:
            listed = list(keys)
            con.register(
                "batch_keys",
                pa.table(
                    {
                        "game": pa.array([k[0] for k in listed], pa.string()),
                        "hand": pa.array([k[1] for k in listed], pa.int32()),
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
            # A hand loaded supersedes the rejects of its key from before this ingest (the
            # rejects of this ingest's files were deleted when it began, so a reject of
            # another file is an earlier one); this ingest's own rejects stay, whichever
            # batch loaded them, so where the batches end changes nothing.
            con.execute(
                "DELETE FROM rejects USING batch_keys k "
                "WHERE rejects.game = k.game AND rejects.hand = k.hand "
                "AND rejects.source NOT IN (SELECT unnest($sources::VARCHAR[]))",
                {"sources": self.sources},
            )
            con.unregister("batch_keys")
        for table in TABLES:
            shards = [c.shards[table] for c in pending if table in c.shards]
            if not shards or self._stop:
                continue
            con.execute(
                f"INSERT INTO {table} BY NAME "
                "SELECT * FROM read_parquet($shards, union_by_name = true)",
                {"shards": shards},
            )
        for chunk in pending:  # loaded: the stage holds only what is still to load
            for shard in chunk.shards.values():
                Path(shard).unlink(missing_ok=True)


def ingest(
    paths: Iterable[Path],
    db: Path,
    jobs: int = 1,
    progress: Callable[[int, Chunk], None] | None = None,
    wait: bool = True,
    on_wait: Callable[[int | None], None] | None = None,
    on_stale: Callable[[int], None] | None = None,
    engine: Engine | None = None,
    stage: Path | None = None,
) -> IngestSummary:
    """Load every hand under ``paths`` into the DuckDB file ``db``, all or nothing.

    The map side runs on ``engine`` (default: a local pool of ``jobs`` processes) and
    writes its shards into ``stage`` (default: a temporary folder beside ``db``; with a
    cluster, a folder every worker and this process can reach), which is emptied as the
    shards are loaded and removed at the end.

    The load runs under :func:`~paipu.pipeline.dbwrite.atomic_write`: one writer at a time
    (a second one waits, telling ``on_wait`` who it waits for, or with ``wait=False``
    raises :class:`~paipu.pipeline.dbwrite.DatabaseBusy`), into a copy of the database
    loaded in one transaction (DuckDB writes a table's full row groups to the file as they
    fill, so memory stays flat under its budget), which replaces ``db`` in one atomic
    rename at the end. An interrupted or killed ingest leaves ``db`` exactly as it was, and
    readers see the old version until the rename. ``progress(bytes, chunk)`` is called
    after each chunk. Raises duckdb.Error or :class:`~paipu.pipeline.dbwrite.WriteError`
    when the database cannot be written, :class:`~paipu.pipeline.engines.EngineError` when
    the engine cannot run.
    """
    if engine is None:
        engine = LocalEngine(jobs)
    files = expand(paths)
    summary = IngestSummary(files=len(files))
    with (
        atomic_write(db, wait, on_wait, on_stale, INGEST_MEMORY_LIMIT) as con,
        staged(db, stage) as folder,
    ):
        con.execute(f"SET threads = {load_threads(engine)}")
        apply_schema(con)
        names = [os.path.normpath(str(p)) for p in files]
        if names:  # the files' earlier rejects (their new ones come with their hands)
            con.execute(
                "DELETE FROM rejects WHERE source IN (SELECT unnest($names))", {"names": names}
            )
        file_rejects = RowBuffer()

        def on_reject(rejected: Rejected) -> None:
            file_rejects.add_reject(rejected)

        expected = sum(_size(f) for f in files)
        # One transaction for the whole load (the copy is all or nothing anyway): DuckDB
        # writes a table's full row groups straight to the file instead of logging every
        # batch's rows in its write-ahead log first (about a seventh less of the load's
        # work; docs/benchmarks.md, stop 29).
        con.execute("BEGIN TRANSACTION")
        with Loader(con, background=True, expected=expected, sources=names) as loader:
            with _relaxed_gc():
                for task, chunk in engine.map(process, tasks_for(files, on_reject, folder)):
                    _count(summary, chunk)
                    loader.add(chunk, task.size)
                    if progress is not None:
                        progress(task.size, chunk)
            # the map is done: the batches still to load and the checkpoint have every core
            loader.set_threads(os.cpu_count() or 1)
            last = Chunk.of(file_rejects, folder, "files")
            _count(summary, last)
            loader.add(last)
            loader.flush()
        con.execute("COMMIT")
        pause_at("loaded", db)  # a test hook (pipeline/pause.py); a no-op otherwise
    return summary


def _size(path: Path) -> int:
    """A file's bytes (0 when it cannot be read: it is rejected when its turn comes)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def load_threads(engine: Engine) -> int:
    """DuckDB's threads for the load: the cores this machine's workers leave free, at
    least one. The load runs while the workers replay; on two cores with two workers,
    DuckDB's second thread only contends with them (one thread loads the same shards
    with about a fifth less CPU)."""
    return max(1, (os.cpu_count() or 1) - engine.local_workers)


@contextlib.contextmanager
def staged(db: Path, stage: Path | None) -> Iterator[str]:
    """The folder shards are written to: ``stage`` if given (a run's own subfolder in it,
    removed afterwards), else a temporary folder beside ``db``."""
    base = stage if stage is not None else db.parent
    base.mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(prefix=f".{db.name}.stage-", dir=base)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


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


def _count(summary: IngestSummary, chunk: Chunk) -> None:
    summary.hands += chunk.hands
    summary.rejected += chunk.rejected
    summary.mismatched += chunk.mismatched
    room = 20 - len(summary.reject_samples)
    if room > 0:
        summary.reject_samples.extend(chunk.reject_samples[:room])
