"""The paipu log reader and writer: round trips, streaming, and precise errors."""

from __future__ import annotations

import io
import json
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.parsers import Parsed, Rejected, detect
from paipu.parsers.paipu import dumps, parse_line, read_lines, write_paipu
from paipu.pipeline.simulate import game_jobs, play_game
from paipu.rules.record import HandRecord


@cache
def _simulated(variant: str) -> tuple[str, ...]:
    lines: list[str] = []
    for job in game_jobs(variant, 24, seed=11, pool=("Ann", "Bo", "Chen", "Dai"), rules={}):
        lines.extend(play_game(job)[0])
    return tuple(lines)


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(("mcr", "zipai_chenzhou")), index=st.integers(0, 23))
def test_parse_dump_parse_is_the_identity(variant: str, index: int) -> None:
    line = _simulated(variant)[index]
    first = parse_line(line, "x", 1)
    assert isinstance(first, Parsed), first
    again = parse_line(dumps(first.record), "x", 1)
    assert isinstance(again, Parsed)
    assert again.record == first.record
    assert dumps(again.record) == line  # the simulator writes the canonical form


def test_writer_and_streaming_reader_agree(tmp_path) -> None:
    records = [parse_line(line, "x", 1).record for line in _simulated("mcr")[:10]]
    path = tmp_path / "t.paipu.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        assert write_paipu(records, stream) == 10
    assert detect(path) == "paipu"
    read = list(read_lines(io.StringIO(path.read_text(encoding="utf-8")), str(path)))
    assert [r.record for r in read if isinstance(r, Parsed)] == records
    assert [r.line for r in read] == list(range(1, 11))


def test_blank_lines_are_skipped_and_bad_lines_named() -> None:
    good = _simulated("mcr")[0]
    broken = json.loads(good)
    broken["events"][3] = ["discard", 9, "1m"]
    text = "\n".join([good, "", "{not json", json.dumps(broken), '{"paipu": 2}', ""])
    results = list(read_lines(io.StringIO(text), "f.jsonl"))
    assert [type(r).__name__ for r in results] == ["Parsed", "Rejected", "Rejected", "Rejected"]
    bad_json, bad_seat, bad_version = results[1:]
    assert isinstance(bad_json, Rejected) and bad_json.line == 3
    assert "not valid JSON" in bad_json.reason
    assert isinstance(bad_seat, Rejected) and bad_seat.line == 4
    assert bad_seat.event_index == 3 and "seat 9 does not exist" in bad_seat.reason
    assert bad_seat.game == broken["game"]
    assert isinstance(bad_version, Rejected) and "missing field" in bad_version.reason


def test_unknown_fields_options_and_kinds_are_errors() -> None:
    obj = json.loads(_simulated("mcr")[0])
    for change, fragment in (
        ({"colour": "red"}, "unknown field"),
        ({"variant": "riichi"}, None),
        ({"events": [["teleport", 0, "1m"]]}, "unknown event kind 'teleport'"),
        ({"deal": [["1m"] * 13] * 3}, "one list of tiles per player"),
        ({"dealer": 5}, "'dealer' must be a seat"),
    ):
        result = parse_line(json.dumps({**obj, **change}), "f", 7)
        if fragment is None:  # an unknown variant is caught by the replay, not the reader
            assert isinstance(result, Parsed)
            continue
        assert isinstance(result, Rejected), change
        assert fragment in result.reason, result.reason
        assert result.line == 7


def test_record_equality_covers_every_field() -> None:
    record = parse_line(_simulated("zipai_chenzhou")[0], "x", 1).record
    assert isinstance(record, HandRecord)
    assert HandRecord.from_json(record.to_json()) == record
