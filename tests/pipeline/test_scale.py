"""Ingest at scale: Parquet shards, the Dask engine on a real LocalCluster, the lake."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.pipeline import ingest as ingest_module
from paipu.pipeline.bundled import BUNDLE
from paipu.pipeline.cli import app
from paipu.pipeline.engines import DaskEngine, EngineError, LocalEngine
from paipu.pipeline.ingest import ingest
from paipu.pipeline.lake import MANIFEST, connect, ingest_lake, read_manifest
from paipu.pipeline.rows import TABLES

distributed = pytest.importorskip("distributed")

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _dump(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    return {t: sorted(map(repr, con.execute(f"SELECT * FROM {t}").fetchall())) for t in TABLES}


def _dump_db(db: Path) -> dict[str, list[str]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return _dump(con)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, botzone_dir: Path) -> Path:
    """Real Botzone records (text and JSON) beside the bundled hands of every variant,
    cut small so that the cluster gets many chunks."""
    folder = tmp_path_factory.mktemp("corpus")
    shutil.copytree(botzone_dir, folder / "botzone")
    for log in sorted((REPO / "data").glob("*.paipu.jsonl")):
        lines = log.read_text(encoding="utf-8").splitlines(keepends=True)[:60]
        (folder / log.name).write_text("".join(lines), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def local_db(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("local") / "local.duckdb"
    ingest([corpus], db, jobs=1)
    return db


@pytest.fixture(scope="module")
def cluster() -> object:
    """A real Dask LocalCluster of two single-threaded worker processes."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest_module, "CHUNK_HANDS", 20)


def test_every_variant_and_real_records_are_in_the_corpus(local_db: Path) -> None:
    with duckdb.connect(str(local_db), read_only=True) as con:
        variants = {v for (v,) in con.sql("SELECT DISTINCT variant FROM hands").fetchall()}
        formats = {f for (f,) in con.sql("SELECT DISTINCT source_format FROM hands").fetchall()}
    assert variants == {variant for variant, *_ in BUNDLE}
    assert {"botzone-text", "botzone-json", "paipu"} <= formats


def test_dask_cluster_builds_the_same_database_as_the_local_engine(
    corpus: Path, local_db: Path, cluster: object, tmp_path: Path, small_chunks: None
) -> None:
    db = tmp_path / "dask.duckdb"
    engine = DaskEngine(cluster.scheduler_address)  # type: ignore[attr-defined]
    summary = ingest([corpus], db, engine=engine, stage=tmp_path / "stage")
    assert summary.hands > 0
    assert _dump_db(db) == _dump_db(local_db)
    assert list((tmp_path / "stage").iterdir()) == []  # the shards are cleared


def test_a_worker_that_dies_mid_run_has_its_chunk_run_again_exactly_once(
    corpus: Path,
    local_db: Path,
    cluster: object,
    tmp_path: Path,
    small_chunks: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = distributed.Client(cluster)
    try:
        hook = f"3@{tmp_path / 'crashed'}"
        client.run(lambda: __import__("os").environ.__setitem__(ingest_module.CRASH_ENV, hook))
        db = tmp_path / "dask.duckdb"
        ingest([corpus], db, engine=DaskEngine(cluster.scheduler_address))  # type: ignore[attr-defined]
        client.run(lambda: __import__("os").environ.pop(ingest_module.CRASH_ENV, None))
    finally:
        client.close()
    assert _dump_db(db) == _dump_db(local_db)


def test_killed_ingest_leaves_the_database_and_a_rerun_completes(
    corpus: Path,
    local_db: Path,
    tmp_path: Path,
    small_chunks: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = tmp_path / "db.duckdb"
    first = sorted(corpus.glob("*.paipu.jsonl"))[0]
    ingest([first], db)
    before = _dump_db(db)
    monkeypatch.setenv(
        ingest_module.CRASH_ENV, f"2@{tmp_path / 'crashed'}"
    )  # a pool worker dies: the ingest fails
    with pytest.raises(Exception, match=r"terminated abruptly|process pool"):
        ingest([corpus], db, engine=LocalEngine(2), stage=tmp_path / "stage")
    assert _dump_db(db) == before
    ingest([corpus], db, engine=LocalEngine(2), stage=tmp_path / "stage")  # crashes only once
    assert _dump_db(db) == _dump_db(local_db)


def test_lake_read_through_paipu_sql_equals_the_database(
    corpus: Path, local_db: Path, cluster: object, tmp_path: Path, small_chunks: None
) -> None:
    lake = tmp_path / "lake"
    engine = DaskEngine(cluster.scheduler_address)  # type: ignore[attr-defined]
    ingest_lake([corpus], lake, engine=engine)
    ingest_lake([corpus], lake, engine=engine)  # again: nothing changes
    with connect(lake) as con:
        assert _dump(con) == _dump_db(local_db)
    partitions = {p.relative_to(lake / "hands").parts[:2] for p in lake.glob("hands/*/*/*")}
    assert ("variant=mcr", "month=unknown") in partitions or any(
        v == "variant=mcr" for v, _ in partitions
    )
    result = runner.invoke(
        app,
        [
            "sql",
            "SELECT variant, count(*) AS n FROM hands GROUP BY 1 ORDER BY 1",
            "--lake",
            str(lake),
            "--csv",
            str(tmp_path / "n.csv"),
        ],
    )
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(local_db), read_only=True) as con:
        expected = con.sql("SELECT variant, count(*) FROM hands GROUP BY 1 ORDER BY 1").fetchall()
    rows = (tmp_path / "n.csv").read_text().splitlines()[1:]
    assert [tuple(r.split(",")) for r in rows] == [(v, str(n)) for v, n in expected]


def test_lake_reingest_replaces_a_files_hands_and_keeps_the_others(tmp_path: Path) -> None:
    logs = sorted((REPO / "data").glob("*.paipu.jsonl"))[:2]
    a, b = (tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    lines = logs[0].read_text(encoding="utf-8").splitlines(keepends=True)
    a.write_text("".join(lines[:30]), encoding="utf-8")
    b.write_text("".join(logs[1].read_text(encoding="utf-8").splitlines(True)[:20]), "utf-8")
    lake = tmp_path / "lake"
    ingest_lake([a, b], lake)
    a.write_text("".join(lines[:10]), encoding="utf-8")  # the file now holds fewer hands
    ingest_lake([a], lake)
    with connect(lake) as con:
        counts = dict(con.sql("SELECT source_file, count(*) FROM hands GROUP BY 1").fetchall())
    assert counts == {str(a): 10, str(b): 20}
    runs = read_manifest(lake)
    assert sorted(s for run in runs for s in run.sources) == sorted([str(a), str(b)])
    listed = {p for run in runs for ps in run.files.values() for p in ps}
    on_disk = {str(p.relative_to(lake)) for p in lake.rglob("*.parquet")}
    assert on_disk == listed  # replaced files are gone


def test_interrupted_lake_ingest_leaves_the_lake_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_chunks: None
) -> None:
    log = sorted((REPO / "data").glob("*.paipu.jsonl"))[0]
    lake = tmp_path / "lake"
    ingest_lake([log], lake)
    manifest = (lake / MANIFEST).read_text()
    with connect(lake) as con:
        before = _dump(con)
    monkeypatch.setenv(ingest_module.CRASH_ENV, f"1@{tmp_path / 'crashed'}")
    with pytest.raises(Exception, match=r"terminated abruptly|process pool"):
        ingest_lake([log], lake, engine=LocalEngine(2))
    assert (lake / MANIFEST).read_text() == manifest
    with connect(lake) as con:
        assert _dump(con) == before


def test_cli_dask_engine_with_its_own_local_cluster(tmp_path: Path) -> None:
    log = sorted((REPO / "data").glob("*.paipu.jsonl"))[0]
    db = tmp_path / "db.duckdb"
    result = runner.invoke(
        app, ["ingest", str(log), "--db", str(db), "--engine", "dask", "-j", "2", "-q"]
    )
    assert result.exit_code == 0, result.output
    local = tmp_path / "local.duckdb"
    ingest([log], local)
    assert _dump_db(db) == _dump_db(local)


def test_unreachable_cluster_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("paipu.pipeline.engines.CONNECT_TIMEOUT", 1)
    with pytest.raises(EngineError, match=r"no Dask scheduler answered at tcp://127\.0\.0\.1:9"):
        list(DaskEngine("tcp://127.0.0.1:9").map(str, [1]))
    log = sorted((REPO / "data").glob("*.paipu.jsonl"))[0]
    db = tmp_path / "db.duckdb"
    result = runner.invoke(
        app,
        ["ingest", str(log), "--db", str(db), "--engine", "dask", "--cluster", "tcp://127.0.0.1:9"],
    )
    assert result.exit_code == 1
    assert "no Dask scheduler answered" in result.output
    assert not db.exists()


def test_usage_errors_of_the_scale_options(tmp_path: Path) -> None:
    log = sorted((REPO / "data").glob("*.paipu.jsonl"))[0]
    both = runner.invoke(
        app, ["ingest", str(log), "--db", str(tmp_path / "x"), "--lake", str(tmp_path / "l")]
    )
    assert both.exit_code == 2
    assert "one of them" in both.output
    cluster_alone = runner.invoke(
        app, ["ingest", str(log), "--db", str(tmp_path / "x"), "--cluster", "tcp://h:1"]
    )
    assert cluster_alone.exit_code == 2
    not_a_lake = runner.invoke(app, ["sql", "SELECT 1", "--lake", str(tmp_path)])
    assert not_a_lake.exit_code == 2
    assert "not a paipu lake" in not_a_lake.output
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "file.txt").write_text("x")
    foreign = runner.invoke(app, ["ingest", str(log), "--lake", str(tmp_path / "other")])
    assert foreign.exit_code == 1
    assert "not a paipu lake" in foreign.output


def test_report_and_export_read_a_lake(tmp_path: Path) -> None:
    log = sorted((REPO / "data").glob("*.paipu.jsonl"))[0]
    lake = tmp_path / "lake"
    ingest_lake([log], lake)
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", "--lake", str(lake), "--out", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert (out / "index.html").is_file()
    exported = runner.invoke(app, ["export", "--lake", str(lake), "--out", str(tmp_path / "x")])
    assert exported.exit_code == 0, exported.output
    with duckdb.connect() as con:
        n = con.sql(f"SELECT count(*) FROM '{tmp_path / 'x' / 'hands.parquet'}'").fetchall()[0][0]
    assert n == len(log.read_text(encoding="utf-8").splitlines())
    assert json.loads((lake / MANIFEST).read_text())["version"] == 1


def test_a_failing_lake_copy_is_a_clear_error_and_leaves_the_lake_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paipu.pipeline import lake as lake_module

    logs = sorted((REPO / "data").glob("*.paipu.jsonl"))[:2]
    a, b = (tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    a.write_text("".join(logs[0].read_text(encoding="utf-8").splitlines(True)[:20]), "utf-8")
    b.write_text("".join(logs[1].read_text(encoding="utf-8").splitlines(True)[:20]), "utf-8")
    lake = tmp_path / "lake"
    ingest_lake([a, b], lake)
    manifest = (lake / MANIFEST).read_text()
    on_disk = sorted(lake.rglob("*.parquet"))
    with connect(lake) as con:
        before = _dump(con)
    real = lake_module._copy
    calls: list[str] = []

    def failing(*args: object, **kwargs: object) -> list[str]:
        calls.append(str(args[2]))
        written = real(*args, **kwargs)  # type: ignore[arg-type]
        if len(calls) == 3:  # two files of the rewrite of the run of a and b are on disk
            raise duckdb.OutOfMemoryException("could not allocate block of size 256 KiB")
        return written

    monkeypatch.setattr(lake_module, "_copy", failing)
    result = runner.invoke(app, ["ingest", str(a), "--lake", str(lake), "-q"])
    assert len(calls) == 3
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert f"cannot write {lake}" in result.output
    assert "could not allocate block" in result.output
    assert "the lake is unchanged" in result.output
    assert (lake / MANIFEST).read_text() == manifest
    assert sorted(lake.rglob("*.parquet")) == on_disk  # the failed run's files are gone
    assert not list(lake.glob(".run-*"))
    with connect(lake) as con:
        assert _dump(con) == before
