"""Write a DuckDB file atomically, one writer at a time (写库: 一次一个, 要么全成要么不变).

:func:`atomic_write` is the one place where an ingest (whatever produces its rows) gets a
connection to write into: it takes the database's writer lock, hands out a connection to a
copy of the database, and on success replaces the database by the copy in one rename.

* **One writer at a time.** The lock is ``<db>.lock``, held with ``flock``: a second writer
  waits for it (``wait=True``; ``on_wait`` is told the holder's process id) or gives up at
  once with :class:`DatabaseBusy`. The lock is taken *before* the copy is made, so the
  second load goes on top of the first and both are present at the end.
* **Readers never see a half-written file.** The database itself is not opened for writing
  at all: readers (``paipu report``, ``sql``, ``export``) see it as it was until the rename,
  and a reader that has it open keeps reading the old version.
* **A killed writer leaves nothing behind that matters.** The kernel releases a dead
  process's ``flock``; the next writer finds its process id still in the lock file, says so
  (``on_stale``), and removes the copy it left half-written.
* **Out of space, out of rights.** Any failure (a full disk, a read-only folder, an
  interrupt) closes and deletes the copy and leaves the database exactly as it was; an
  ``OSError`` is raised as :class:`WriteError` with the path and the reason in words.

POSIX only (``fcntl``), like the rest of the ingest's process handling.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb

from paipu.pipeline.pause import pause_at

#: Lock file descriptors this process holds: a forked child (an ingest's worker) closes its
#: copies at once, so that a worker outliving a killed ingest cannot keep the lock held.
_HELD: set[int] = set()


def _close_held_in_child() -> None:
    for fd in _HELD:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


os.register_at_fork(after_in_child=_close_held_in_child)


class DatabaseBusy(Exception):  # noqa: N818 - a state, not a fault of the caller
    """Another process holds the writer lock and the caller would not wait."""

    def __init__(self, db: Path, pid: int | None) -> None:
        who = f"process {pid}" if pid is not None else "another process"
        super().__init__(f"{db} is being written by {who}")
        self.db = db
        self.pid = pid


class WriteError(OSError):
    """The database could not be written (no space, no rights, …); it is unchanged. An
    ``OSError``, so that callers catching those catch it too."""


def lock_path(db: Path) -> Path:
    """The writer lock of ``db``: ``<db>.lock`` beside it."""
    return db.with_name(db.name + ".lock")


def staging_path(db: Path) -> Path:
    """The copy a writer loads into: ``<db>.ingest`` beside it."""
    return db.with_name(db.name + ".ingest")


def holder(db: Path) -> int | None:
    """The process id written in ``db``'s lock file, if any (the holder, or a dead one)."""
    try:
        text = lock_path(db).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


@contextlib.contextmanager
def writer_lock(
    db: Path,
    wait: bool = True,
    on_wait: Callable[[int | None], None] | None = None,
    on_stale: Callable[[int], None] | None = None,
) -> Iterator[None]:
    """Hold ``db``'s writer lock for the ``with`` block (see the module's docstring)."""
    path = lock_path(db)
    told = False
    while True:
        fd = _open_lock(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = holder(db)
            try:
                if not wait:
                    raise DatabaseBusy(db, pid) from None
                if on_wait is not None and not told:
                    on_wait(pid)
                    told = True
                fcntl.flock(fd, fcntl.LOCK_EX)  # an interrupt (Ctrl-C) ends the wait
            except BaseException:
                os.close(fd)
                raise
        # the holder may have removed the file as it let go: then lock the new one
        try:
            same = os.fstat(fd).st_ino == path.stat().st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    _HELD.add(fd)
    try:
        stale = holder(db)
        if stale is not None and stale != os.getpid():
            if on_stale is not None:
                on_stale(stale)
            _remove(staging_path(db))  # what the dead writer left half-written
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        _HELD.discard(fd)
        os.close(fd)  # releases the lock


def _open_lock(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise WriteError(_words(path, exc)) from None


@contextlib.contextmanager
def atomic_write(
    db: Path,
    wait: bool = True,
    on_wait: Callable[[int | None], None] | None = None,
    on_stale: Callable[[int], None] | None = None,
    memory_limit: str | None = None,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to a copy of ``db``, under its writer lock; the copy replaces ``db``
    when the ``with`` block ends normally, and is deleted when it raises.

    Commit as often as you like inside (the ingest loads in one transaction: DuckDB writes
    a table's full row groups to the file as they fill): nothing is visible in ``db``
    before the end. Raises :class:`DatabaseBusy` (with
    ``wait=False``), :class:`WriteError` for an ``OSError`` and lets ``duckdb.Error``
    through (a full disk is one); in every case ``db`` is unchanged.
    """
    staging = staging_path(db)
    with writer_lock(db, wait, on_wait, on_stale):
        try:
            _remove(staging)
            if db.exists():
                shutil.copyfile(db, staging)
                wal = _wal(db)
                if wal.exists():  # a write-ahead log: the copy replays it when opened
                    shutil.copyfile(wal, _wal(staging))
        except OSError as exc:
            _remove(staging)
            raise WriteError(_words(exc.filename or staging, exc)) from None
        con = duckdb.connect(str(staging))
        try:
            if memory_limit is not None:
                con.execute(f"SET memory_limit = '{memory_limit}'")
            yield con
            con.execute("CHECKPOINT")
            con.close()
            _remove(_wal(staging))
            pause_at("replace", db)  # a test hook (pipeline/pause.py); a no-op otherwise
            with contextlib.suppress(FileNotFoundError):
                _wal(db).unlink()  # folded into the copy
            staging.replace(db)
        except WriteError:
            _discard(con, staging)
            raise
        except OSError as exc:
            _discard(con, staging)
            raise WriteError(_words(exc.filename or db, exc)) from None
        except BaseException:
            _discard(con, staging)
            raise


def _discard(con: duckdb.DuckDBPyConnection, staging: Path) -> None:
    """Close and delete a copy that will not replace the database."""
    with contextlib.suppress(Exception):
        con.close()
    _remove(staging)


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def _remove(path: Path) -> None:
    """Delete a database file and its write-ahead log, if present."""
    for stale in (path, _wal(path)):
        with contextlib.suppress(OSError):
            stale.unlink()


def _words(path: object, exc: OSError) -> str:
    """``cannot write PATH: no space left on the device`` and the like."""
    reasons = {
        errno.ENOSPC: "no space left on the device",
        errno.EDQUOT: "the disk quota is used up",
        errno.EFBIG: "the file would be larger than this process may write",
        errno.EACCES: "permission denied (the folder is not writable)",
        errno.EPERM: "permission denied",
        errno.EROFS: "the file system is read-only",
    }
    reason = reasons.get(exc.errno or 0, exc.strerror or str(exc))
    return f"cannot write {path}: {reason}"
