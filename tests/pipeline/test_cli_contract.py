"""The command line as a contract: every command's options and exit codes, through Typer's
CliRunner, each as its ``--help`` documents it.

A failure is an exit code, never a traceback: :func:`_run` fails a test whose command ends
in an exception other than the ``SystemExit`` of its exit code. Ctrl-C (130) is simulated
by making the command's library call raise ``KeyboardInterrupt``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner, Result

from paipu.pipeline.bundled import lines_for
from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest

sys.path.insert(0, str(Path(__file__).parent))
import hands

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"
runner = CliRunner()
COMMANDS = ("score", "ingest", "audit", "convert", "simulate", "report", "sql", "export", "demo")


def _run(*args: object, code: int, stdin: str | None = None) -> Result:
    """Run ``paipu ARGS``; assert its exit code and that it ended without a traceback."""
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"paipu {args[0]} raised {result.exception!r}"
    )
    return result


def _write(path: Path, objects: list[object]) -> Path:
    path.write_text(
        "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects),
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-contract")


@pytest.fixture(scope="module")
def good(work: Path) -> Path:
    """Two legal MCR hands."""
    return _write(work / "good.paipu.jsonl", [hands.quick_win("a"), hands.discard_win("b")])


@pytest.fixture(scope="module")
def mixed(work: Path) -> Path:
    """One legal hand and one that breaks a rule."""
    bad = hands.discard_win("bad")
    bad["events"][1] = ["discard", 0, "5z"]  # a tile seat 0 does not hold
    return _write(work / "mixed.paipu.jsonl", [hands.quick_win("ok"), bad])


@pytest.fixture(scope="module")
def zipai_log(work: Path) -> Path:
    return _write(work / "zipai.paipu.jsonl", lines_for("zipai_chenzhou", 8, 4, ("Ann", "Bo")))


@pytest.fixture(scope="module")
def db(work: Path, zipai_log: Path) -> Path:
    """The report fixture (six MCR hands, four of them timed, one reject) and 8 zipai hands."""
    path = work / "contract.duckdb"
    ingest([FIXTURES, zipai_log], path, jobs=1)
    return path


@pytest.fixture(scope="module")
def not_a_database(work: Path) -> Path:
    path = work / "garbage.duckdb"
    path.write_bytes(b"this is not a DuckDB file\n" * 200)
    return path


def _documented_codes(command: str) -> set[int]:
    """The exit codes ``paipu COMMAND --help`` lists after "Exit codes"."""
    text = " ".join(_run(command, "--help", code=0).stdout.split())
    match = re.search(r"Exit codes:?\**:?(.*?)(?:Examples|╭|$)", text)
    assert match, f"paipu {command} --help documents no exit codes"
    return {int(n) for n in re.findall(r"(?<![\w.-])(\d{1,3})(?=[ ,;:)])", match.group(1))}


# ---------------------------------------------------------------- the help text


@pytest.mark.parametrize(
    ("command", "codes"),
    [
        ("score", {0, 1, 2, 130}),
        ("ingest", {0, 1, 2, 3, 130}),
        ("audit", {0, 1, 2, 130}),
        ("convert", {0, 2, 3, 130}),
        ("simulate", {0, 1, 2, 130}),
        ("report", {0, 1, 2, 4, 130}),
        ("sql", {0, 1, 2, 130}),
        ("export", {0, 1, 2, 130}),
        ("demo", {0, 1, 2, 130}),
    ],
)
def test_help_lists_every_exit_code_tested_here(command: str, codes: set[int]) -> None:
    assert _documented_codes(command) >= codes


# ---------------------------------------------------------------- score


def _score_request(**changes: object) -> dict[str, object]:
    request: dict[str, object] = {
        "variant": "mcr",
        "seat": 1,
        "dealer": 0,
        "from": 2,
        "hand": "12356789p33z",
        "melds": [{"kind": "pong", "tiles": "777z", "from": 0}],
        "win_tile": "7p",
        "round_wind": "2z",
    }
    request.update(changes)
    return request


def test_score_inline_and_from_a_file_give_the_same_answer(work: Path) -> None:
    request = json.dumps(_score_request())
    inline = json.loads(_run("score", request, "--json", code=0).stdout)
    path = work / "request.json"
    path.write_text(request, encoding="utf-8")
    from_file = json.loads(_run("score", path, "--json", code=0).stdout)
    assert inline == from_file
    assert inline["total"] == 9 and inline["deltas"] == [-8, 33, -17, -8]
    table = _run("score", path, code=0).stdout
    assert "混一色" in table and "Total 合计: 9" in table


def test_score_exit_codes(work: Path) -> None:
    illegal = json.dumps(_score_request(hand="1357m2468p1357s9s", melds=[], win_tile="2z"))
    assert json.loads(_run("score", illegal, "--json", code=1).stdout)["legal"] is False
    broken = work / "broken.json"
    broken.write_text('{"variant": "mcr", ', encoding="utf-8")
    assert "not valid JSON" in json.loads(_run("score", broken, "--json", code=1).stdout)["error"]
    # the table's error names the request's file (an inline request has none to name)
    shown = "".join(_run("score", broken, code=1).stdout.split())  # the terminal wraps
    assert f"Cannotscore{broken}:notvalidJSON" in shown
    assert "cannot read" in _run("score", work / "absent.json", code=2).stderr
    assert "give a request" in _run("score", "--json", code=2).stderr
    assert "cannot read" in _run("score", "--jsonl", work / "absent.jsonl", code=2).stderr


def test_score_jsonl_answers_line_by_line_in_order(work: Path) -> None:
    legal = json.dumps(_score_request())
    illegal = json.dumps(_score_request(win_tile="9s"))
    path = work / "requests.jsonl"
    path.write_text(f"{legal}\n\n{illegal}\nnot json\n{legal}\n", encoding="utf-8")
    answers = [
        json.loads(line)
        for line in _run("score", "--jsonl", path, code=1).stdout.split("\n")
        if line
    ]
    assert [a["legal"] for a in answers] == [True, False, False, True]  # the blank line skipped
    assert answers[0]["total"] == answers[3]["total"] == 9
    assert answers[2]["error"]
    only_legal = _run("score", "--jsonl", "-", code=0, stdin=f"{legal}\n{legal}\n").stdout
    assert [json.loads(line)["total"] for line in only_legal.splitlines()] == [9, 9]


# ---------------------------------------------------------------- ingest


def test_ingest_exit_codes(work: Path, good: Path, mixed: Path) -> None:
    db = work / "ingest.duckdb"
    _run("ingest", good, "--db", db, "-q", "-j", "1", code=0)
    result = _run("ingest", mixed, "--db", db, "--quiet", "--jobs", "2", code=3)
    assert "does not hold 5z" in result.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.sql("SELECT count(*) FROM hands").fetchall() == [(3,)]
    assert "no such file" in _run("ingest", work / "absent", "--db", db, code=2).stderr
    empty = work / "empty-folder"
    empty.mkdir()
    assert "no files" in _run("ingest", empty, "--db", db, code=2).stderr
    _run("ingest", good, "--db", db, "-j", "0", code=2)  # --jobs is at least 1
    _run("ingest", good, code=2)  # --db is required
    nowhere = work / "no-such-folder" / "x.duckdb"
    assert "cannot write" in _run("ingest", good, "--db", nowhere, "-q", code=1).stderr


def test_ingest_interrupted_is_130_and_leaves_the_database(
    work: Path, good: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = work / "interrupted.duckdb"
    _run("ingest", good, "--db", db, "-q", code=0)
    before = db.read_bytes()

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("paipu.pipeline.ingest.ingest", interrupted)
    assert "unchanged" in _run("ingest", good, "--db", db, "-q", code=130).stderr
    assert db.read_bytes() == before


# ---------------------------------------------------------------- audit


def test_audit_problems_lists_only_the_hands_that_are_not_ok(good: Path, mixed: Path) -> None:
    _run("audit", good, code=0)
    everything = [
        json.loads(line) for line in _run("audit", mixed, "--json", code=1).stdout.splitlines()
    ]
    assert [e["status"] for e in everything] == ["ok", "invalid"]
    problems = _run("audit", mixed, "--json", "--problems", code=1).stdout.splitlines()
    assert [json.loads(line)["game"] for line in problems] == ["bad"]
    text = _run("audit", mixed, "--problems", code=1).stdout
    assert "invalid" in text and "ok #0" not in text
    assert "2 hands: 1 ok, 0 mismatch, 1 invalid" in text  # the summary still counts all
    assert _run("audit", good, "--json", "--problems", code=0).stdout == ""


def test_audit_usage_error(work: Path) -> None:
    assert "no such file" in _run("audit", work / "absent", code=2).stderr
    _run("audit", code=2)


# ---------------------------------------------------------------- convert


def test_convert_to_standard_output_and_to_a_file(work: Path, good: Path) -> None:
    result = _run("convert", good, "--out", "-", code=0)
    assert [json.loads(line)["game"] for line in result.stdout.splitlines()] == ["a", "b"]
    assert "2 hands written to -" in result.stderr
    out = work / "converted.paipu.jsonl"
    _run("convert", good, "-o", out, code=0)
    assert out.read_text(encoding="utf-8") == result.stdout


def test_convert_exit_codes(work: Path, good: Path) -> None:
    broken = _write(work / "broken.paipu.jsonl", [hands.quick_win("fine"), '{"paipu": 1, '])
    result = _run("convert", broken, "--out", "-", code=3)
    assert len(result.stdout.splitlines()) == 1 and "skipped" in result.stderr
    assert "no such file" in _run("convert", work / "absent", "--out", "-", code=2).stderr
    unwritable = work / "no-such-folder" / "out.jsonl"
    assert "cannot write" in _run("convert", good, "--out", unwritable, code=2).stderr
    _run("convert", good, code=2)  # --out is required


# ---------------------------------------------------------------- simulate


def test_simulate_to_standard_output_with_stats_on_standard_error(work: Path) -> None:
    result = _run("simulate", "-v", "mcr", "-n", "3", "--out", "-", "--stats", "-q", code=0)
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and all(json.loads(line)["variant"] == "mcr" for line in lines)
    assert "outcomes" in result.stderr and "events" in result.stderr
    out = work / "sim.paipu.jsonl"
    to_file = _run("simulate", "-v", "mcr", "-n", "3", "-o", out, "--stats", "-q", code=0)
    assert out.read_text(encoding="utf-8") == result.stdout  # the same seed, the same bytes
    assert "outcomes" in to_file.stdout


def test_simulate_stats_name_every_fan_and_print_json(work: Path) -> None:
    """--stats names each fan in Chinese and English and lists the variant's fans no hand
    scored; --json prints the same counters as one object (on standard error when the log
    goes to standard output)."""
    out = work / "sim.paipu.jsonl"
    tables = _run("simulate", "-v", "tianjin", "-n", "4", "-o", out, "--stats", "-q", code=0)
    assert "提溜" in tables.stdout and "not seen" in tables.stdout and "per hand" in tables.stdout
    both = _run("simulate", "-v", "tianjin", "-n", "4", "-o", "-", "--json", "-q", code=0)
    stats = json.loads(both.stderr.splitlines()[-1])
    assert stats["hands"] == 4 and stats["variant"] == "tianjin"
    assert sum(stats["outcomes"].values()) == 4 and "heavenly" in stats["fans_not_seen"]
    assert not set(stats["fans"]) & set(stats["fans_not_seen"])
    assert len(both.stdout.splitlines()) == 4


def test_simulate_players_and_jobs(work: Path) -> None:
    args = ["simulate", "-v", "mcr", "-n", "10", "-s", "7", "--players", "Xi, Yu,Zo,Wu,Qi", "-q"]
    one = _run(*args, "--out", "-", "-j", "1", code=0).stdout
    two = _run(*args, "--out", "-", "--jobs", "2", code=0).stdout
    assert one == two  # games spread over two processes are written back in order
    seated = {name for line in one.splitlines() for name in json.loads(line)["players"]}
    assert seated <= {"Xi", "Yu", "Zo", "Wu", "Qi"} and len(seated) >= 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_zipai_seats_the_players_option(work: Path, players: int) -> None:
    out = work / f"zipai-{players}.paipu.jsonl"
    rules = json.dumps({"players": players})
    _run("simulate", "-v", "zipai_chenzhou", "-n", "4", "--rules", rules, "-o", out, "-q", code=0)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {len(r["players"]) for r in records} == {players}
    assert {len(r["deal"]) for r in records} == {players}
    _run("audit", out, code=0)  # every hand replays under the rules it names


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-v", "riichi"], "unknown variant"),
        (["-v", "mcr", "--rules", "{nope"], ""),
        (["-v", "mcr", "--rules", '{"birds": 4}'], "unknown option"),
        (["-v", "zipai_chenzhou", "--rules", '{"players": 5}'], "players"),
        (["-v", "mcr", "--scenario", "no-such-set"], ""),
        (["-v", "mcr", "-n", "0"], ""),
        (["-v", "mcr", "--out", "no-such-folder/x.jsonl"], "cannot write"),
    ],
)
def test_simulate_usage_errors(work: Path, args: list[str], message: str) -> None:
    base = ["-n", "2"] if "-n" not in args else []
    out = [] if "--out" in args else ["--out", work / "never.jsonl"]
    result = _run("simulate", *args, *base, *out, "-q", code=2)
    assert message in result.stderr


def test_simulate_bot_bug_is_1(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paipu.pipeline.simulate import SimulationError

    def broken(*args: object) -> object:
        raise SimulationError("game 0 hand 0: a bot discarded a tile it does not hold")
        yield

    monkeypatch.setattr("paipu.pipeline.simulate.simulate", broken)
    result = _run("simulate", "-v", "mcr", "-n", "2", "--out", "-", "-q", code=1)
    assert "does not hold" in result.stderr


# ---------------------------------------------------------------- report


def _hand_pages(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "hands").glob("*.html"))


def test_report_variant_and_since_filter_the_hands(db: Path, work: Path) -> None:
    out = work / "report-zipai"
    _run("report", "--db", db, "--out", out, "--variant", "zipai_chenzhou", "-j", "1", code=0)
    pages = _hand_pages(out)
    assert len(pages) == 8 and all(p.startswith("sim-zipai_chenzhou-") for p in pages)
    out = work / "report-since"
    _run("report", "--db", db, "--out", out, "--since", "2026-01-01T10:15", "-j", "1", code=0)
    assert _hand_pages(out) == ["g1-2.html", "g1-3.html"]  # the two hands timed from 10:20


def test_report_self_contained_pages_stand_alone(db: Path, work: Path) -> None:
    out = work / "report-alone"
    args = ["--variant", "mcr", "--player", "Eve", "--self-contained", "-j", "1"]
    result = _run("report", "--db", db, "--out", out, *args, code=0)
    index = out / "index.html"
    assert str(index.resolve()) in result.stdout
    for page in out.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"""(?:src|href)=["'](?!#|data:|https?:)[^"']*\.(?:js|css)""", html), (
            f"{page} loads a file beside it"
        )


def test_report_exit_codes(db: Path, work: Path, not_a_database: Path) -> None:
    out = work / "report-none"
    _run("report", "--db", db, "--out", out, "--variant", "sichuan", code=4)
    _run("report", "--db", db, "--out", out, "--since", "2026-13-40", code=2)
    _run("report", "--db", work / "absent.duckdb", "--out", out, code=2)
    _run("report", "--db", db, "--out", out, "-j", "0", code=2)
    _run("report", "--db", not_a_database, "--out", out, code=1)
    assert not (out / "index.html").exists()


# ---------------------------------------------------------------- sql


def test_sql_rows_limits_what_is_shown(db: Path) -> None:
    query = "SELECT game, hand FROM hands ORDER BY game, hand"
    result = _run("sql", query, "--db", db, "--rows", "2", code=0)
    assert "g1" in result.stdout and "g2" not in result.stdout
    assert "first 2 rows" in result.stderr
    everything = _run("sql", query, "--db", db, "-n", "100", code=0)
    assert "g2" in everything.stdout and "first" not in everything.stderr
    _run("sql", query, "--db", db, "--rows", "0", code=2)


def test_sql_exit_codes(db: Path, work: Path, not_a_database: Path) -> None:
    _run("sql", "SELECT 1", "--db", work / "absent.duckdb", code=2)
    assert "nope" in _run("sql", "SELECT nope FROM hands", "--db", db, code=1).stderr
    _run("sql", "SELECT 1", "--db", not_a_database, code=1)
    _run("sql", "SELECT 1", "--db", db, "--csv", work / "no-such-folder" / "x.csv", code=1)


# ---------------------------------------------------------------- export


def test_export_exit_codes(db: Path, work: Path, not_a_database: Path) -> None:
    out = work / "export"
    _run("export", "--db", db, "-o", out, code=0)
    assert pl.read_parquet(out / "hands.parquet").height == 6 + 8
    _run("export", "--db", work / "absent.duckdb", "--out", out, code=2)
    _run("export", "--db", not_a_database, "--out", out, code=1)
    blocked = work / "a-file"
    blocked.write_text("", encoding="utf-8")
    _run("export", "--db", db, "--out", blocked, code=1)  # the folder is a file


# ---------------------------------------------------------------- demo


def test_demo_data_and_out(work: Path, good: Path) -> None:
    data = work / "demo-data"
    data.mkdir()
    (data / good.name).write_bytes(good.read_bytes())
    out = work / "demo-out"
    result = _run("demo", "--data", data, "--out", out, "-j", "1", code=0)
    index = out / "report" / "index.html"
    assert str(index.resolve()) in result.stdout and index.is_file()
    with duckdb.connect(str(out / "paipu.duckdb"), read_only=True) as con:
        assert con.sql("SELECT count(*) FROM hands").fetchall() == [(2,)]


def test_demo_exit_codes(work: Path) -> None:
    assert "no " in _run("demo", "--data", work / "absent", "--out", work / "d", code=2).stderr
    empty = work / "demo-empty"
    empty.mkdir()
    assert "no record files" in _run("demo", "--data", empty, "--out", work / "d", code=2).stderr
    junk = work / "demo-junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("garbage\n", encoding="utf-8")
    result = _run("demo", "--data", junk, "--out", work / "d", "-j", "1", code=1)
    assert "could be loaded" in result.stderr


# ---------------------------------------------------------------- Ctrl-C: 130 everywhere


def _interrupt(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("target", "command"),
    [
        ("paipu.rules.score.score_json", ["score", json.dumps(_score_request())]),
        ("paipu.pipeline.audit.audit", ["audit", "{good}"]),
        ("paipu.parsers.parse_any", ["convert", "{good}", "--out", "-"]),
        (
            "paipu.pipeline.simulate.simulate",
            ["simulate", "-v", "mcr", "-n", "1", "-o", "-"],
        ),
        ("paipu.pipeline.report.write_report", ["report", "--db", "{db}", "--out", "{work}/r130"]),
        ("paipu.pipeline.cli.sql._print", ["sql", "SELECT 1", "--db", "{db}"]),
        ("paipu.pipeline.report.query", ["export", "--db", "{db}", "--out", "{work}/e130"]),
        ("paipu.pipeline.ingest.ingest", ["demo", "--data", "{data}", "--out", "{work}/d130"]),
    ],
)
def test_an_interrupted_command_exits_130(
    target: str,
    command: list[str],
    db: Path,
    good: Path,
    work: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = {"db": db, "good": good, "work": work, "data": good.parent}
    args = []
    for arg in command:
        for name, path in paths.items():
            arg = arg.replace(f"{{{name}}}", str(path))  # noqa: PLW2901
        args.append(arg)
    monkeypatch.setattr(target, _interrupt)
    _run(*args, code=130)
