"""Ingest, audit and convert: real records, corrupted input, idempotence, interruption."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.pipeline import ingest as ingest_module
from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest
from paipu.pipeline.pause import PAUSE_ENV
from paipu.pipeline.pause import marker as pause_marker
from paipu.pipeline.rows import TABLES

sys.path.insert(0, str(Path(__file__).parent))
import hands

runner = CliRunner()


def _write(path: Path, objects: list[object]) -> Path:
    path.write_text(
        "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects),
        encoding="utf-8",
    )
    return path


def _dump(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        con.close()


# ---------------------------------------------------------------- real records


def test_every_botzone_record_replays_and_agrees(botzone_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "bz.duckdb"
    summary = ingest([botzone_dir], db, jobs=2)
    assert (summary.hands, summary.rejected, summary.mismatched) == (26, 0, 0)
    con = duckdb.connect(str(db), read_only=True)
    verdicts = con.execute("SELECT verdict, count(*) FROM hands GROUP BY 1").fetchall()
    assert verdicts == [("ok", 26)]
    wins = con.execute("SELECT count(*) FROM wins").fetchone()
    assert wins == (24,)  # 14 text wins + 10 JSON wins; 2 drawn hands
    fans = con.execute("SELECT count(*) FROM win_fans").fetchone()
    assert fans[0] > 0


def test_audit_of_botzone_records_is_all_ok(botzone_dir: Path) -> None:
    result = runner.invoke(app, ["audit", str(botzone_dir), "--json"])
    assert result.exit_code == 0, result.output
    entries = [json.loads(line) for line in result.output.splitlines()]
    assert len(entries) == 26
    assert {e["status"] for e in entries} == {"ok"}
    assert set(entries[0]) >= {
        "game",
        "hand",
        "variant",
        "status",
        "recorded",
        "computed",
        "problems",
    }


def test_convert_botzone_then_audit(botzone_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "bz.paipu.jsonl"
    result = runner.invoke(app, ["convert", str(botzone_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 26
    assert runner.invoke(app, ["audit", str(out)]).exit_code == 0


# ---------------------------------------------------------------- corrupted input


def _corrupted_file(tmp_path: Path) -> tuple[Path, dict[int, str]]:
    """A file of good and bad hands; returns it and {line: expected reason fragment}."""
    good = hands.quick_win("g-good")
    lines: list[object] = [good]
    expected: dict[int, str] = {}

    def bad(obj: object, reason: str) -> None:
        lines.append(obj)
        expected[len(lines)] = reason

    bad(json.dumps(hands.quick_win("g-truncated"))[:200], "not valid JSON")
    bad('{"paipu": 1, "variant": "mcr", "game": "g-broken", ', "not valid JSON")
    unknown = hands.quick_win("g-unknown-tile")
    unknown["deal"][2][0] = "0m"
    bad(unknown, "unknown tile '0m'")
    out_of_turn = hands.discard_win("g-out-of-turn")
    out_of_turn["events"] = [["draw", 2, "9s"], *out_of_turn["events"][1:]]
    bad(out_of_turn, "event 0")
    not_held = hands.discard_win("g-not-held")
    not_held["events"][1] = ["discard", 0, "5z"]
    bad(not_held, "does not hold 5z")
    fifth = hands.quick_win("g-fifth-copy")
    del fifth["wall"]
    fifth["deal"][1][:4] = ["1m", "1m", "1m", "1m"]
    bad(fifth, "copies of 1m: a copy too many")
    false_win = hands.discard_win("g-false-win")
    false_win["events"][2] = ["win", 2, "9s", {"from": 0}]
    bad(false_win, "false win")
    no_end = hands.discard_win("g-no-end")
    no_end["events"] = no_end["events"][:2]
    bad(no_end, "no ending")
    lines.append(hands.discard_win("g-good-2"))
    lines.append(hands.exhaustive_draw("g-good-3"))
    return _write(tmp_path / "mixed.paipu.jsonl", lines), expected


def test_corrupted_hands_are_rejected_precisely_and_the_rest_loads(tmp_path: Path) -> None:
    path, expected = _corrupted_file(tmp_path)
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["ingest", str(path), "--db", str(db), "-j", "1", "-q"])
    assert result.exit_code == 3, result.output
    con = duckdb.connect(str(db), read_only=True)
    loaded = {row[0] for row in con.execute("SELECT game FROM hands").fetchall()}
    assert loaded == {"g-good", "g-good-2", "g-good-3"}
    rejects = {
        line: (source, reason)
        for source, line, reason in con.execute(
            "SELECT source, line, reason FROM rejects"
        ).fetchall()
    }
    assert set(rejects) == set(expected)
    for line, fragment in expected.items():
        source, reason = rejects[line]
        assert source.endswith("mixed.paipu.jsonl")
        assert fragment in reason, (line, reason)


def _not_held(game: str) -> dict[str, object]:
    """A hand the replay rejects (a discard of a tile not held): a reject with its key."""
    bad = hands.discard_win(game)
    bad["events"][1] = ["discard", 0, "5z"]
    return bad


@pytest.mark.parametrize("batch", [5, 2000])
def test_a_reject_and_a_good_hand_of_one_key_both_stay_whatever_the_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """A rejected line and a good hand of the same (game, hand) in one ingest: both are
    kept, in one batch or in two (the defect: a batch deleted the rejects of the hands it
    loaded, this ingest's own earlier batches' included, so what ``rejects`` held depended
    on where the batches ended). A reject of that key from an *earlier* ingest of another
    file is still superseded by the good hand."""
    monkeypatch.setattr(ingest_module, "BATCH_HANDS", batch)
    monkeypatch.setattr(ingest_module, "CHUNK_HANDS", 5)
    db = tmp_path / "keys.duckdb"
    ingest([_write(tmp_path / "earlier.jsonl", [_not_held("g-old")])], db)
    lines = [_not_held("g-dup"), *(hands.quick_win(f"g{i}") for i in range(12))]
    lines += [hands.discard_win("g-dup"), hands.discard_win("g-old")]
    ingest([_write(tmp_path / "now.jsonl", lines)], db)
    with duckdb.connect(str(db), read_only=True) as con:
        rejects = con.execute("SELECT source, line, game FROM rejects").fetchall()
        loaded = con.execute("SELECT count(*) FROM hands").fetchone()
    assert [(Path(source).name, line, game) for source, line, game in rejects] == [
        ("now.jsonl", 1, "g-dup")
    ]
    assert loaded == (14,)


def test_audit_names_file_line_event_and_rule(tmp_path: Path) -> None:
    path, expected = _corrupted_file(tmp_path)
    result = runner.invoke(app, ["audit", str(path), "--json"])
    assert result.exit_code == 1
    entries = [json.loads(line) for line in result.output.splitlines()]
    invalid = {e["line"]: e for e in entries if e["status"] == "invalid"}
    assert set(invalid) == set(expected)
    not_held = invalid[next(k for k, v in expected.items() if "does not hold" in v)]
    assert not_held["problems"][0].startswith("event 1 ")
    assert not_held["game"] == "g-not-held"


def test_truncated_botzone_text_keeps_the_other_matches(tmp_path: Path) -> None:
    block = Path(__file__).parents[1] / "fixtures" / "botzone" / "handmade.txt"
    text = block.read_text(encoding="utf-8")
    cut = text[: len(text) - 40]
    path = tmp_path / "cut.txt"
    path.write_text(cut, encoding="utf-8")
    result = runner.invoke(app, ["convert", str(path), "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 3
    written = (tmp_path / "o.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(written) == 2  # the matches before the cut
    assert "skipped" in result.output and "cut.txt:" in result.output


# ---------------------------------------------------------------- idempotence, atomicity


def test_ingesting_twice_changes_nothing(tmp_path: Path) -> None:
    path, _ = _corrupted_file(tmp_path)
    db = tmp_path / "twice.duckdb"
    ingest([path], db)
    first = _dump(db)
    ingest([path], db, jobs=2)
    assert _dump(db) == first
    ingest([path, path], db)  # the same file twice in one run
    assert _dump(db) == first


def test_a_later_version_of_a_hand_replaces_the_earlier(tmp_path: Path) -> None:
    db = tmp_path / "replace.duckdb"
    ingest([_write(tmp_path / "a.jsonl", [hands.quick_win("g1")])], db)
    newer = hands.discard_win("g1")
    ingest([_write(tmp_path / "b.jsonl", [newer])], db)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*), max(n_events) FROM hands").fetchone() == (1, 3)
    assert con.execute("SELECT count(*) FROM events").fetchone() == (3,)


def test_an_interrupted_ingest_leaves_the_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "atomic.duckdb"
    ingest([_write(tmp_path / "a.jsonl", [hands.quick_win("keep")])], db)
    before = _dump(db)
    many = _write(tmp_path / "many.jsonl", [hands.discard_win(f"g{i}") for i in range(40)])
    monkeypatch.setattr(ingest_module, "BATCH_HANDS", 5)
    monkeypatch.setattr(ingest_module, "CHUNK_HANDS", 5)
    real_flush = ingest_module.Loader.flush
    calls = {"n": 0}

    def flush_then_die(self: ingest_module.Loader) -> None:
        real_flush(self)
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(ingest_module.Loader, "flush", flush_then_die)
    with pytest.raises(KeyboardInterrupt):
        ingest([many], db)
    assert calls["n"] == 3
    assert _dump(db) == before


@pytest.mark.parametrize("point", ["loaded", "replace"])
def test_a_killed_ingest_leaves_the_database_readable_and_unchanged(
    tmp_path: Path, point: str
) -> None:
    """SIGKILL at a known point (pipeline/pause.py): with every row written into the copy,
    and with the copy complete just before the rename. The database is as it was, and the
    next ingest runs (it clears the killed one's copy)."""
    db = tmp_path / "killed.duckdb"
    ingest([_write(tmp_path / "a.jsonl", [hands.quick_win("keep")])], db)
    before = _dump(db)
    more = _write(tmp_path / "more.jsonl", [hands.discard_win(f"g{i}") for i in range(20)])
    command = [sys.executable, "-m", "paipu.pipeline.cli", "ingest", str(more), "--db", str(db)]
    proc = subprocess.Popen(
        [*command, "-j", "1", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), PAUSE_ENV: point},
    )
    paused = pause_marker(db, point)
    deadline = time.monotonic() + 120
    while not paused.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        assert paused.exists(), f"the ingest never reached {point!r} (exit {proc.poll()})"
        assert db.with_name(db.name + ".ingest").exists()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert _dump(db) == before
    summary = ingest([more], db)
    assert summary.hands == 20
    assert len(_dump(db)["hands"]) == 21


# ---------------------------------------------------------------- exit codes


def test_ingest_exit_codes(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.jsonl", [hands.quick_win("a"), hands.discard_win("b")])
    db = tmp_path / "x.duckdb"
    assert runner.invoke(app, ["ingest", str(good), "--db", str(db), "-q"]).exit_code == 0
    missing = runner.invoke(app, ["ingest", str(tmp_path / "nope"), "--db", str(db)])
    assert missing.exit_code == 2
    assert "no such file" in missing.output
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(empty), "--db", str(db), "-q"]).exit_code == 3


def test_a_file_of_no_known_format_is_one_reject_that_says_what_it_holds(tmp_path: Path) -> None:
    odd = tmp_path / "notes.txt"
    odd.write_text("garbage\nmore\n", encoding="utf-8")
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(odd), "--db", str(db)])
    assert result.exit_code == 3
    assert f"{odd} (the whole file): not a paipu log" in result.output
    assert "its first line is 'garbage'" in result.output
    with duckdb.connect(str(db), read_only=True) as con:
        [(line, reason)] = con.sql("SELECT line, reason FROM rejects").fetchall()
    assert line == 0 and reason.startswith("not a paipu log")  # the path is in `source`
    audit = runner.invoke(app, ["audit", str(odd)])
    assert audit.exit_code == 1
    assert f"invalid  {odd} (the whole file)" in audit.output


def test_a_folder_s_documents_are_left_out_and_named_a_file_named_is_read(tmp_path: Path) -> None:
    """A README or a rules PDF beside the records is no rejected hand (``../shared/data``
    holds a README.md): inside a folder it is left out, in one line naming it; named on
    the command line it is read, and rejected as a file of no known format."""
    logs = tmp_path / "logs"
    (logs / "club").mkdir(parents=True)
    _write(logs / "club" / "night.jsonl", [hands.quick_win("a"), hands.discard_win("b")])
    (logs / "README.md").write_text("# Our records\n", encoding="utf-8")
    (logs / "club" / "rules.PDF").write_bytes(b"%PDF-1.7\n")
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(logs), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    assert (
        f"paipu ingest: left out {logs / 'README.md'}, {logs / 'club' / 'rules.PDF'}: "
        "2 documents or images by their names, not records"
    ) in " ".join(result.output.split())
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (2,)
        assert con.execute("SELECT count(*) FROM rejects").fetchone() == (0,)
    audit = runner.invoke(app, ["audit", str(logs)])
    assert audit.exit_code == 0, audit.output
    assert "a document or an image" not in audit.stdout  # the note is on standard error
    named = runner.invoke(app, ["ingest", str(logs / "README.md"), "--db", str(db), "-q"])
    assert named.exit_code == 3
    assert "(the whole file): not a paipu log" in named.output
