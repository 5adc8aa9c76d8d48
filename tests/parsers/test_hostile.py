"""Hostile input: every bad line is a rejection naming its file and line, never a
traceback; the good lines around it still load; a huge line is refused unread."""

from __future__ import annotations

import copy
import io
import json
import tracemalloc
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.parsers import Parsed, Rejected, units
from paipu.parsers.paipu import MAX_LINE_BYTES, bounded_lines, parse_line, read_paipu
from paipu.pipeline.ingest import INTERNAL_ERROR, Task, ingest, process_in_memory

DATA = Path(__file__).parents[2] / "data"


def _first(variant: str) -> dict[str, Any]:
    with (DATA / f"{variant}.paipu.jsonl").open(encoding="utf-8") as stream:
        return json.loads(stream.readline())


GOOD = _first("sichuan")
ZIPAI = _first("zipai_chenzhou")
DEEP = "[" * 5000 + "]" * 5000


def _with(obj: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def _hostile_lines() -> list[tuple[str, str]]:
    """(what, line) pairs: each a line that must be rejected."""
    good = json.dumps(GOOD)
    lines = [
        ("5,000-deep nesting", DEEP),
        ("deep nesting in a field", json.dumps(GOOD)[:-1] + ', "source": ' + DEEP[1:-1] + "}"),
        ("NaN", good.replace('"hand": 0', '"hand": NaN')),
        ("Infinity", good.replace('"deltas": [', '"deltas": [Infinity, ')),
        ("-Infinity", good.replace('"dealer": 0', '"dealer": -Infinity')),
        ("a duplicate key", good.replace('"hand": 0', '"hand": 0, "hand": 1')),
        ("a 5,000-digit number", good.replace('"hand": 0', '"hand": ' + "9" * 5000)),
        ("another log version", good.replace('"paipu": 1', '"paipu": 2')),
        ("a version as text", good.replace('"paipu": 1', '"paipu": "1"')),
        ("a version as true", good.replace('"paipu": 1', '"paipu": true')),
        ("an unknown event", json.dumps(_with(GOOD, ("events", 5), ["teleport", 0, "1m"]))),
        ("a truncated line", good[: len(good) // 2]),
        ("not an object", "[1, 2, 3]"),
        ("a bare string", '"paipu"'),
    ]
    too_large = [10**12, -(10**12), 2**31, 2**63, 10**40]
    for path in [
        ("hand",),
        ("dealer",),
        ("scores_before", 0),
        ("result", "deltas", 0),
        ("result", "wins", 0, "total"),
        ("result", "wins", 0, "seat"),
        ("result", "wins", 0, "from"),
        ("result", "wins", 0, "fans", 0, 1),
        ("result", "wins", 0, "fans", 0, 2),
        ("events", 6, 1),
    ]:
        for number in too_large:
            lines.append((f"{number} at {path}", json.dumps(_with(_winning(), path, number))))
    wrong = [None, True, 1.5, "x", "", [], {}, -1, [None], {"a": 1}]
    for field in [k for k in GOOD if k != "rules"] + ["rules", "seat_winds", "round_wind"]:
        for value in wrong:
            lines.append((f"{field} = {value!r}", json.dumps({**GOOD, field: value})))
    for path in [
        ("events", 6),
        ("events", 6, 0),
        ("events", 6, 1),
        ("events", 6, 2),
        ("deal", 0),
        ("deal", 0, 0),
        ("players", 0),
        ("result", "outcome"),
        ("result", "wins"),
        ("result", "wins", 0),
        ("result", "wins", 0, "seat"),
        ("result", "wins", 0, "tile"),
        ("result", "wins", 0, "fans"),
        ("result", "wins", 0, "fans", 0),
        ("result", "wins", 0, "fans", 0, 0),
        ("result", "deltas"),
    ]:
        for value in wrong:
            lines.append((f"{path} = {value!r}", json.dumps(_with(_winning(), path, value))))
    for seat in (-1, 4, 99):  # bad seats, 4 players
        lines.append((f"event seat {seat}", json.dumps(_with(GOOD, ("events", 6, 1), seat))))
        lines.append((f"dealer {seat}", json.dumps({**GOOD, "dealer": seat})))
        lines.append(
            (f"from {seat}", json.dumps(_with(_winning(), ("events", -1, 3), {"from": seat})))
        )
    lines.append(("seat 3 of 3 (zipai)", json.dumps(_with(ZIPAI, ("events", 0, 1), 3))))
    lines.append(("5 players", json.dumps({**GOOD, "players": list("abcde")})))
    return lines


def _winning() -> dict[str, Any]:
    """A Sichuan hand with a recorded win (for the result's fields)."""
    with (DATA / "sichuan.paipu.jsonl").open(encoding="utf-8") as stream:
        for line in stream:
            obj = json.loads(line)
            last = obj["events"][-1]
            if obj.get("result", {}).get("wins") and last[0] == "win" and len(last) > 3:
                return obj
    raise AssertionError("no hand won on a discard")


HOSTILE = _hostile_lines()


def test_every_hostile_line_is_a_rejection_never_a_traceback() -> None:
    units = tuple((n, line) for n, (_, line) in enumerate(HOSTILE, 1))
    chunk = process_in_memory(Task("paipu", "hostile.jsonl", units, 0))
    rejects = chunk["rejects"].to_pylist()
    internal = [r for r in rejects if INTERNAL_ERROR in r["reason"]]
    assert not internal, internal[:3]
    rejected_lines = {r["line"] for r in rejects}
    assert len(rejected_lines) == len(rejects)  # one reason per line
    loaded = {
        HOSTILE[line - 1][0]: verdict
        for line, verdict in zip(
            chunk["hands"].column("source_line").to_pylist(),
            chunk["hands"].column("verdict").to_pylist(),
            strict=True,
        )
    }
    # the changes that leave a valid hand: optional parts left out, other names; a record
    # that then disagrees with the replay is a mismatch
    assert loaded == {
        "('players', 0) = 'x'": "ok",
        "('result', 'deltas') = None": "ok",
        "('result', 'wins', 0, 'fans') = []": "ok",
        "('result', 'wins', 0, 'tile') = None": "ok",
        "game = 'x'": "ok",
        "rules = {}": "ok",
        "time = None": "ok",
        "('result', 'wins') = []": "mismatch",
        "('result', 'wins', 0, 'fans', 0, 0) = 'x'": "mismatch",
    }
    assert len(loaded) + len(rejects) == len(HOSTILE)
    for r in rejects:
        assert r["source"] == "hostile.jsonl" and 1 <= r["line"] <= len(HOSTILE)
        assert r["reason"]


@pytest.mark.parametrize(("what", "line"), HOSTILE[:14], ids=[w for w, _ in HOSTILE[:14]])
def test_a_hostile_line_is_rejected_with_its_reason(what: str, line: str) -> None:
    result = parse_line(line, "f.jsonl", 7)
    if isinstance(result, Parsed):  # an unknown event is caught by the decoder, the rest here
        pytest.fail(f"{what}: parsed")
    assert isinstance(result, Rejected) and result.line == 7
    assert "f.jsonl:7" in result.describe()


def test_the_reasons_say_what_is_wrong() -> None:
    reasons = {what: parse_line(line, "f", 1) for what, line in HOSTILE[:14]}
    assert "nested too deep" in reasons["5,000-deep nesting"].reason
    assert "nested too deep" in reasons["deep nesting in a field"].reason
    assert "NaN" in reasons["NaN"].reason
    assert "Infinity" in reasons["Infinity"].reason
    assert "duplicate key" in reasons["a duplicate key"].reason
    assert "'hand'" in reasons["a duplicate key"].reason
    assert "4300 digits" in reasons["a 5,000-digit number"].reason
    assert "paipu version 2 is not supported" in reasons["another log version"].reason
    assert "not supported" in reasons["a version as true"].reason
    unknown = reasons["an unknown event"]
    assert "unknown event kind 'teleport'" in unknown.reason and unknown.event_index == 5
    big = parse_line(json.dumps({**GOOD, "hand": 10**12}), "f", 1)
    assert "2,147,483,647" in big.reason


def test_a_file_of_hostile_lines_ingests_the_good_ones(tmp_path: Path) -> None:
    """End to end into DuckDB, in a worker process: no number overflows a column, the
    5,000-deep line does not end the ingest (the defect: a RecursionError from a worker)."""
    good = [json.loads(line) for line in (DATA / "mcr.paipu.jsonl").read_text().splitlines()]
    path = tmp_path / "mixed.paipu.jsonl"
    with path.open("wb") as out:
        out.write((json.dumps(good[0]) + "\n").encode())
        for _, line in HOSTILE:
            out.write((line + "\n").encode())
        out.write(b'{"paipu": 1, "game": "\xff\xfe"}\n')  # not UTF-8
        out.write((json.dumps(good[1]) + "\n").encode())
    db = tmp_path / "x.duckdb"
    summary = ingest([path], db, jobs=2)
    with duckdb.connect(str(db), read_only=True) as con:
        games = con.execute("SELECT game, hand FROM hands WHERE variant = 'mcr'").fetchall()
        rejects = con.execute("SELECT line, reason FROM rejects ORDER BY line").fetchall()
    assert sorted(games) == sorted([(good[0]["game"], 0), (good[1]["game"], 1)])
    assert summary.rejected == len(rejects) == len(HOSTILE) - 9 + 1  # 9 valid, 1 not UTF-8
    assert not [r for r in rejects if INTERNAL_ERROR in r[1]]
    assert rejects[-1] == (
        len(HOSTILE) + 2,
        "not UTF-8 text (invalid start byte at byte 23 of the line)",
    )
    assert (2, "not acceptable JSON: arrays or objects nested too deep") in rejects


def test_a_100_mb_line_is_refused_without_being_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "huge.paipu.jsonl"
    good = (DATA / "mcr.paipu.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    with path.open("w", encoding="utf-8") as out:
        out.write(good[0])
        out.write('{"paipu": 1, "game": "' + "x" * (100 * 1024 * 1024) + '"}\n')
        out.write(good[1])
    for read in (lambda: list(units("paipu", path)), lambda: list(read_paipu(path))):
        tracemalloc.start()
        got = read()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < MAX_LINE_BYTES + 8 * 1024 * 1024  # one bounded piece, not 100 MB
        refused = [r for r in got if isinstance(r, Rejected)]
        assert len(got) == 3 and len(refused) == 1
        assert refused[0].line == 2 and "longer than 16 MB" in refused[0].reason


@settings(max_examples=80, deadline=None)
@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=6),
    limit=st.integers(0, 30),
    last_newline=st.booleans(),
)
def test_bounded_lines_keeps_every_line_up_to_the_limit(
    lines: list[bytes], limit: int, last_newline: bool
) -> None:
    text = b"\n".join(lines) + (b"\n" if last_newline and lines else b"")
    got = list(bounded_lines(io.BytesIO(text), limit))
    *whole, tail = text.split(b"\n")
    expected = [line + b"\n" for line in whole] + ([tail] if tail else [])
    assert [n for n, _ in got] == list(range(1, len(expected) + 1))
    for (_, raw), line in zip(got, expected, strict=True):
        assert raw == (line if len(line.rstrip(b"\n")) <= limit else None)


def test_bounded_lines_across_pieces() -> None:
    """Lines longer than the 1 MB piece the reader reads at a time."""
    piece = 1024 * 1024
    text = b"a" * (3 * piece) + b"\n" + b"b" * (3 * piece + 5) + b"\nc\n"
    got = list(bounded_lines(io.BytesIO(text), 3 * piece))
    assert [(n, None if r is None else len(r)) for n, r in got] == [
        (1, 3 * piece + 1),
        (2, None),
        (3, 2),
    ]


def test_a_huge_botzone_json_match_log_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "6a201f5a58ebe27b197da7f1_lite.json"
    path.write_text('{"status": "' + "x" * (MAX_LINE_BYTES + 1) + '"}', encoding="utf-8")
    [refused] = list(units("botzone-json", path))
    assert isinstance(refused, Rejected) and refused.line == 0
    assert "larger than 16 MB" in refused.reason


@pytest.mark.parametrize("value", [True, 1.0, 1.5, "2", None, 10**12, [2], {"n": 2}])
def test_a_rule_option_of_the_wrong_type_is_rejected(value: Any) -> None:
    """``"birds": true`` is not 1 bird (Python's True == 1), nor 1.0 one."""
    obj = {**_first("changsha"), "rules": {"birds": value}}
    units = ((1, json.dumps(obj)),)
    chunk = process_in_memory(Task("paipu", "r.jsonl", units, 0))
    [reject] = chunk["rejects"].to_pylist()
    assert reject["reason"].startswith("option 'birds' must be one of 0, 1, 2, 4, 6, not ")


def test_a_huge_value_quoted_in_a_reason_is_cut() -> None:
    obj = copy.deepcopy(_winning())
    obj["events"][3][2] = "x" * 1_000_000  # an unknown tile of a million characters
    rejected = parse_line(json.dumps(obj), "f.jsonl", 1)
    assert isinstance(rejected, Rejected) and rejected.event_index == 3
    assert len(rejected.reason) < 2100 and "more characters)" in rejected.reason
