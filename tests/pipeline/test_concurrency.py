"""One writer at a time, readers never see a half-written file, a killed writer's lock is
cleared, a full disk or a read-only folder changes nothing: every case with real processes.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.pipeline.dbwrite import (
    DatabaseBusy,
    WriteError,
    atomic_write,
    holder,
    lock_path,
    staging_path,
    writer_lock,
)
from paipu.pipeline.ingest import ingest
from paipu.pipeline.rows import TABLES

DATA = Path(__file__).parents[2] / "data"
MCR = DATA / "mcr.paipu.jsonl"
SICHUAN = DATA / "sichuan.paipu.jsonl"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
runner = CliRunner()


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The first 40 hands of each bundled log (quick to load), by variant."""
    folder = tmp_path_factory.mktemp("small")
    out = {}
    for path in sorted(DATA.glob("*.paipu.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)[:40]
        out[path.name.split(".")[0]] = folder / path.name
        out[path.name.split(".")[0]].write_text("".join(lines), encoding="utf-8")
    return out


def _load(db: Path, *paths: Path) -> None:
    """Set up a database in this process (quicker than a child)."""
    ingest(list(paths), db)


def _ingest_cmd(db: Path, *paths: Path, no_wait: bool = False) -> list[str]:
    cmd = [sys.executable, "-m", "paipu.pipeline.cli", "ingest", *map(str, paths)]
    cmd += ["--db", str(db), "-j", "1", "-q"]
    return [*cmd, "--no-wait"] if no_wait else cmd


def _start(db: Path, *paths: Path, no_wait: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _ingest_cmd(db, *paths, no_wait=no_wait),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def _variants(db: Path) -> dict[str, int]:
    with duckdb.connect(str(db), read_only=True) as con:
        return dict(con.execute("SELECT variant, count(*) FROM hands GROUP BY 1").fetchall())


def _dump(db: Path) -> dict[str, list[tuple]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}


def _wait_for(condition, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


# ---------------------------------------------------------------- the library, in one process


def test_atomic_write_is_all_or_nothing(tmp_path: Path, small: dict[str, Path]) -> None:
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    before = _dump(db)
    with pytest.raises(RuntimeError), atomic_write(db) as con:
        con.execute("DELETE FROM hands")
        raise RuntimeError("the load failed half-way")
    assert _dump(db) == before
    assert not staging_path(db).exists() and not lock_path(db).exists()
    with atomic_write(db) as con:
        con.execute("DELETE FROM hands WHERE hand = 0")
    assert len(_dump(db)["hands"]) < len(before["hands"])


def test_a_held_lock_is_busy_without_waiting(tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    told: list[int | None] = []
    with writer_lock(db):  # flock conflicts between two opens, even in one process
        assert holder(db) == os.getpid()
        with (
            pytest.raises(DatabaseBusy, match=f"process {os.getpid()}"),
            writer_lock(db, wait=False, on_wait=told.append),
        ):
            pass
    assert told == [] and not lock_path(db).exists()
    with writer_lock(db, wait=False):  # free again
        pass


def test_an_unwritable_place_is_a_write_error(tmp_path: Path) -> None:
    with (
        pytest.raises(WriteError, match=r"cannot write .*missing"),
        atomic_write(tmp_path / "missing" / "x.duckdb"),
    ):
        pass


# ---------------------------------------------------------------- two writers


def test_two_concurrent_ingests_keep_both_loads(tmp_path: Path, small: dict[str, Path]) -> None:
    """The defect: the second ingest's rename replaced the first one's load."""
    db = tmp_path / "same.duckdb"
    first, second = _start(db, small["mcr"]), _start(db, small["sichuan"])
    outs = [p.communicate(timeout=120) for p in (first, second)]
    assert (first.returncode, second.returncode) == (0, 0), outs
    assert _variants(db) == {"mcr": 40, "sichuan": 40}
    assert not staging_path(db).exists() and not lock_path(db).exists()


def test_a_second_ingest_waits_naming_the_holder_then_loads_on_top(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    with writer_lock(db):  # this test process is the first writer
        waiting = _start(db, small["sichuan"])
        line = waiting.stderr.readline()  # the ingest says so before it blocks
        assert f"being written by process {os.getpid()}" in line
        assert "waiting" in line
        time.sleep(0.3)
        assert waiting.poll() is None  # still waiting
    _, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert _variants(db) == {"mcr": 40, "sichuan": 40}


def test_no_wait_exits_1_at_once_and_changes_nothing(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    before = _dump(db)
    with writer_lock(db):
        done = subprocess.run(
            _ingest_cmd(db, small["sichuan"], no_wait=True),
            capture_output=True,
            text=True,
            env=ENV,
            timeout=60,
            check=False,
        )
    assert done.returncode == 1
    assert f"being written by process {os.getpid()}" in done.stderr
    assert "--no-wait" in done.stderr
    assert _dump(db) == before


def test_the_lock_of_a_killed_ingest_is_detected_and_cleared(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    before = _dump(db)
    code = (
        "import sys, time; from pathlib import Path; from paipu.pipeline.dbwrite import "
        "writer_lock, staging_path\n"
        f"db = Path({str(db)!r})\n"
        "with writer_lock(db):\n"
        "    staging_path(db).write_bytes(b'half written')\n"
        "    print('locked', flush=True); time.sleep(60)\n"
    )
    victim = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=ENV
    )
    assert victim.stdout.readline().strip() == "locked"
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert holder(db) == victim.pid and staging_path(db).exists()  # left behind
    done = subprocess.run(
        _ingest_cmd(db, small["sichuan"]), capture_output=True, text=True, env=ENV, check=False
    )
    assert done.returncode == 0, done.stderr
    assert f"cleared the lock of process {victim.pid}" in done.stderr
    assert _variants(db) == {"mcr": 40, "sichuan": 40}
    assert not staging_path(db).exists() and not lock_path(db).exists()
    assert len(_dump(db)["hands"]) == len(before["hands"]) + 40


def test_a_worker_outliving_a_killed_ingest_does_not_hold_the_lock(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    """An ingest's workers are forked while it holds the lock; one that lives on after the
    ingest is killed must not keep the next ingest waiting."""
    db = tmp_path / "x.duckdb"
    code = (
        "import os, time; from pathlib import Path; from paipu.pipeline.dbwrite import "
        "writer_lock\n"
        f"with writer_lock(Path({str(db)!r})):\n"
        "    child = os.fork()\n"
        "    if child == 0:\n"
        "        time.sleep(60); os._exit(0)\n"
        "    print(child, flush=True); time.sleep(60)\n"
    )
    victim = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=ENV
    )
    worker = int(victim.stdout.readline())
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    try:
        done = subprocess.run(
            _ingest_cmd(db, small["mcr"], no_wait=True),
            capture_output=True,
            text=True,
            env=ENV,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert f"cleared the lock of process {victim.pid}" in done.stderr
    finally:
        os.kill(worker, signal.SIGKILL)


# ---------------------------------------------------------------- readers


def test_readers_during_an_ingest_see_the_database_as_before(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    """`paipu sql`, `export` and `report` in this process while an ingest runs in another:
    each sees the 40 hands from before, never an error or a half-written file."""
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    writer = _start(db, SICHUAN)
    assert _wait_for(lambda: staging_path(db).exists() or writer.poll() is not None)
    counts: list[int] = []
    exported = reported = False
    while writer.poll() is None:
        csv = tmp_path / "n.csv"
        got = runner.invoke(
            app, ["sql", "--db", str(db), "SELECT count(*) AS n FROM hands", "--csv", str(csv)]
        )
        assert got.exit_code == 0, got.output
        counts.append(int(csv.read_text(encoding="utf-8").split()[1]))
        if not exported:
            got = runner.invoke(app, ["export", "--db", str(db), "--out", str(tmp_path / "pq")])
            assert got.exit_code == 0, got.output
            exported = True
        elif not reported:
            got = runner.invoke(app, ["report", "--db", str(db), "--out", str(tmp_path / "r")])
            assert got.exit_code == 0, got.output
            reported = True
    assert writer.wait() == 0, writer.stderr.read()
    if not counts:
        pytest.skip("the ingest ended before a reader could run on this machine")
    # a read started before the rename sees the old file; one after it the whole new one
    assert set(counts) <= {40, 240}, counts
    assert counts[0] == 40
    assert _variants(db) == {"mcr": 40, "sichuan": 200}


def test_an_ingest_while_a_reader_holds_the_database_open(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    """The ingest never opens the database for writing, so a reader's open connection (a
    long `paipu sql` or a notebook) neither blocks it nor sees it until it is done."""
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    with duckdb.connect(str(db), read_only=True) as reader:
        done = subprocess.run(
            _ingest_cmd(db, small["sichuan"]), capture_output=True, text=True, env=ENV, check=False
        )
        assert done.returncode == 0, done.stderr
        assert reader.execute("SELECT count(*) FROM hands").fetchone() == (40,)
    assert _variants(db) == {"mcr": 40, "sichuan": 40}


def test_a_write_ahead_log_left_behind_is_kept(tmp_path: Path, small: dict[str, Path]) -> None:
    """A database whose last writer died before its checkpoint has a `.wal` beside it: the
    ingest loads on top of what that log holds."""
    db = tmp_path / "x.duckdb"
    _load(db, small["mcr"])
    code = (
        "import os, duckdb\n"
        f"con = duckdb.connect({str(db)!r})\n"
        "con.execute(\"SET checkpoint_threshold = '1GB'\")\n"
        'con.execute("DELETE FROM hands WHERE hand = 0")\n'
        "os._exit(0)\n"  # no checkpoint: the delete lives only in the log
    )
    subprocess.run([sys.executable, "-c", code], env=ENV, check=True)
    assert db.with_name(db.name + ".wal").exists()
    with duckdb.connect(str(db), read_only=True) as con:
        left = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    assert left < 40
    done = subprocess.run(
        _ingest_cmd(db, small["sichuan"]), capture_output=True, text=True, env=ENV, check=False
    )
    assert done.returncode == 0, done.stderr
    assert _variants(db) == {"mcr": left, "sichuan": 40}
    assert not db.with_name(db.name + ".wal").exists()


# ---------------------------------------------------------------- out of space, of rights


def _fsize_limited(limit: int) -> None:  # runs in the child before exec
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_file_size_limit_during_the_load_is_exit_1_and_nothing_changes(
    tmp_path: Path, small: dict[str, Path]
) -> None:
    db = tmp_path / "x.duckdb"
    _load(db, small["sichuan"])
    before = _dump(db)
    size = db.stat().st_size
    done = subprocess.run(
        _ingest_cmd(db, small["mcr"]),
        capture_output=True,
        text=True,
        env=ENV,
        preexec_fn=lambda: _fsize_limited(size + 64 * 1024),
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "cannot write" in done.stderr and "unchanged" in done.stderr
    assert "Traceback" not in done.stderr
    assert _dump(db) == before
    assert not staging_path(db).exists() and not lock_path(db).exists()


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """An 8 MB tmpfs (root only: skipped elsewhere)."""
    mount = tmp_path / "mnt"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if made.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr!r}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _db_in(folder: Path, tmp_path: Path, hands: Path, room: int | None = None) -> Path:
    """A database of ``hands``, built outside and copied into ``folder``; with ``room``,
    a filler file then leaves just that many bytes free beside it."""
    built = tmp_path / "built.duckdb"
    _load(built, hands)
    db = folder / "x.duckdb"
    shutil.copyfile(built, db)
    if room is not None:
        free = shutil.disk_usage(folder).free
        (folder / "filler").write_bytes(b"\0" * max(free - room, 0))
    return db


def test_a_full_disk_is_exit_1_and_nothing_changes(
    tmpfs: Path, tmp_path: Path, small: dict[str, Path]
) -> None:
    built = _db_in(tmpfs, tmp_path, small["sichuan"])
    size = built.stat().st_size
    built.unlink()
    db = _db_in(tmpfs, tmp_path, small["sichuan"], room=size + 128 * 1024)
    before = _dump(db)
    done = subprocess.run(
        _ingest_cmd(db, small["mcr"], small["changsha"], small["zipai_chenzhou"]),
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "cannot write" in done.stderr and "no space left" in done.stderr.lower()
    assert "Traceback" not in done.stderr
    assert _dump(db) == before
    assert sorted(p.name for p in tmpfs.iterdir()) == ["filler", "x.duckdb"]


def test_a_read_only_folder_is_exit_1_and_nothing_changes(
    tmpfs: Path, tmp_path: Path, small: dict[str, Path]
) -> None:
    db = _db_in(tmpfs, tmp_path, small["sichuan"])
    before = _dump(db)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    done = subprocess.run(
        _ingest_cmd(db, small["mcr"]), capture_output=True, text=True, env=ENV, check=False
    )
    assert done.returncode == 1, done.stderr
    assert "cannot write" in done.stderr and "read-only" in done.stderr
    assert "Traceback" not in done.stderr
    assert _dump(db) == before


def test_ingest_help_documents_the_lock_and_no_wait() -> None:
    got = runner.invoke(app, ["ingest", "--help"], env={"COLUMNS": "200"})
    assert got.exit_code == 0
    assert "--no-wait" in got.output
    assert ".lock" in got.output and "waits" in got.output
