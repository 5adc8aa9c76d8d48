"""Decision review (``paipu review``): a hand-built deal-in, a real DuckDB of bundled
records, and the command through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from paipu.pipeline import review as review_module
from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest
from paipu.pipeline.review import review_db, review_lines, review_record
from paipu.rules.record import HandRecord
from tests.pipeline.hands import discard_win

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_an_avoidable_deal_in() -> None:
    """The dealer holds 1199m3344p5566s7z, draws 9s and throws it into seat 1's 78s: an
    efficient discard (9s and 7z both leave a seven-pairs single wait, 3 live), dangerous,
    won on, and avoidable (7z completes no one's hand)."""
    (row,) = review_record(HandRecord.from_json(discard_win()))
    assert (row.player, row.seat, row.tile, row.turn) == ("Ann", 0, "9s", 1)
    assert (row.shanten, row.live, row.best, row.best_live, row.loss) == (0, 3, ["9s", "7z"], 3, 0)
    assert row.efficient and row.dangerous and row.won_on and row.safe_existed
    assert row.avoidable
    assert row.ready_opponents == 1 and row.declared_opponents == 0


def test_only_the_players_asked_for_are_reviewed() -> None:
    assert review_record(HandRecord.from_json(discard_win()), players=("Bo",)) == []


def test_the_review_counts_the_wilds(monkeypatch: pytest.MonkeyPatch) -> None:
    """天津: a 混 stands for any tile (itself included), so the review counts each discard
    by the core's wild-aware shanten. Against the plain count (the 混 as ordinary tiles) a
    discard's shanten is never higher, and on some discards it is lower."""
    lines = (REPO / "data" / "tianjin.paipu.jsonl").read_text(encoding="utf-8").splitlines()
    records = [HandRecord.from_json(json.loads(line)) for line in lines[:5]]
    wild = [row for record in records for row in review_record(record)]

    def plain(hand, melds, wilds, **kw):  # the count as it was before wilds were counted
        return review_module.discard_choices(hand, melds, **kw)

    monkeypatch.setattr(review_module, "wild_discard_choices", plain)
    ignored = [row for record in records for row in review_record(record)]
    assert [(r.seat, r.turn, r.tile) for r in wild] == [(r.seat, r.turn, r.tile) for r in ignored]
    assert all(
        w.shanten <= p.shanten and w.best_shanten <= p.best_shanten
        for w, p in zip(wild, ignored, strict=True)
    )
    assert any(w.shanten < p.shanten for w, p in zip(wild, ignored, strict=True))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DuckDB file of a few bundled hands of every variant."""
    folder = tmp_path_factory.mktemp("review")
    bundled = (
        ("mcr", 6),
        ("sichuan", 4),
        ("changsha", 3),
        ("zhuanzhuan", 3),
        ("zipai_chenzhou", 4),
    )
    for variant, hands in bundled:
        lines = (REPO / "data" / f"{variant}.paipu.jsonl").read_text().splitlines()[:hands]
        (folder / f"{variant}.paipu.jsonl").write_text("\n".join(lines) + "\n")
    path = folder / "review.duckdb"
    ingest([folder], path, jobs=1)
    return path


def test_the_review_covers_every_discard_and_agrees_with_the_danger_facts(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    try:
        review = review_db(con, None)
        facts = con.sql(
            "SELECT game, hand, seq, player, dangerous, won_on FROM discards ORDER BY ALL"
        ).fetchall()
    finally:
        con.close()
    rows = review.rows.to_pylist()
    mine = sorted(
        (r["game"], r["hand"], r["seq"], r["player"], r["dangerous"], r["won_on"]) for r in rows
    )
    assert mine == facts
    for r in rows:
        if r["variant"] == "zipai_chenzhou":
            assert r["loss"] is None and r["safe_existed"] is None
        else:
            assert r["loss"] >= 0 and r["shanten"] >= r["best_shanten"]
            assert r["efficient"] == (r["loss"] == 0)
            assert r["tile"] in r["best"] or not r["efficient"]
            assert r["safe_existed"] is not None or not r["won_on"]
    summary = review.summary.to_dicts()
    assert {(s["player"], s["variant"]) for s in summary} == {
        (r["player"], r["variant"]) for r in rows
    }
    assert sum(s["discards"] for s in summary) == len(rows)
    assert all(s["avoidable"] is None for s in summary if s["variant"] == "zipai_chenzhou")


def test_one_player_one_variant(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    try:
        review = review_db(con, "Ann", "mcr")
        sql = "SELECT count(*) FROM discards WHERE player = 'Ann' AND variant = 'mcr'"
        ((expected,),) = con.execute(sql).fetchall()
    finally:
        con.close()
    assert review.summary["discards"].to_list() == [expected]
    assert set(review.rows.column("player").to_pylist()) == {"Ann"}


def test_workers_give_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers, forked after this process reviewed the first hands (small chunks, so
    that the 9 hands take that path), give the rows of one process, in order."""
    lines = (REPO / "data" / "mcr.paipu.jsonl").read_text().splitlines()[:9]
    alone = review_lines(lines, jobs=1)
    monkeypatch.setattr(review_module, "CHUNK", 2)
    monkeypatch.setattr(review_module, "WARM", 3)
    assert review_lines(lines, jobs=2).equals(alone)
    assert alone.num_rows > 100


def test_cli_table_fits_80_columns(db: Path) -> None:
    result = runner.invoke(app, ["review", "--db", str(db), "-j", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["player", "variant", "discards"]
    assert "costliest discards" in result.stdout
    assert max(map(len, lines)) <= 80


def test_cli_json(db: Path) -> None:
    result = runner.invoke(
        app, ["review", "--db", str(db), "-p", "Ann", "-v", "mcr", "--json", "-j", "1"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["player"] == "Ann" and document["variant"] == "mcr"
    (row,) = document["summary"]
    assert row["variant"] == "mcr" and 0 <= row["efficient"] <= 1
    assert len(document["worst"]) <= 10


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--db", "missing.duckdb"], 2, "no such database file"),
        (["--variant", "nope"], 2, "unknown variant"),
        (["--player", "Nobody"], 1, "no discard of Nobody"),
        (["--player", "Ann", "--variant", "changsha"], 1, "in changsha"),
    ],
)
def test_cli_exit_codes(db: Path, args: list[str], code: int, message: str) -> None:
    if "--db" not in args:
        args = ["--db", str(db), *args]
    result = runner.invoke(app, ["review", *args])
    assert result.exit_code == code, result.output
    assert message in result.output


def test_cli_help_teaches_and_lists_exit_codes() -> None:
    result = runner.invoke(app, ["review", "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for word in ("Exit codes", "进张", "shanten", "avoidable", "--player", "--json"):
        assert word in text


def test_a_stored_hand_that_no_longer_replays_is_named(tmp_path: Path) -> None:
    first = tmp_path / "a.paipu.jsonl"
    first.write_text(json.dumps(discard_win()) + "\n")
    db = tmp_path / "r.duckdb"
    ingest([first], db, jobs=1)
    con = duckdb.connect(str(db))
    try:  # the record now discards a tile the dealer does not hold
        sql = "UPDATE hands SET record = replace(record, ?, ?)"
        con.execute(sql, ['"discard", 0, "9s"', '"discard", 0, "8s"'])
    finally:
        con.close()
    result = runner.invoke(app, ["review", "--db", str(db), "-j", "1"])
    assert result.exit_code == 1, result.output
    assert "game t-discard hand 0 no longer replays" in result.output
    assert "Traceback" not in result.output
