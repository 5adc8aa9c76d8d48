"""The audit compares everything a record states: each fan's id, count and points, the
winning tile and seat, the total, every seat's delta, the outcome; each difference in words.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.ingest import ingest
from paipu.rules.replay import replay

DATA = Path(__file__).parents[2] / "data"


def _hand_with(variant: str, fan: str) -> dict[str, Any]:
    """The first hand of the bundled log whose recorded result has ``fan``."""
    with (DATA / f"{variant}.paipu.jsonl").open(encoding="utf-8") as stream:
        for line in stream:
            obj = json.loads(line)
            wins = obj.get("result", {}).get("wins", [])
            if any(f[0] == fan for w in wins for f in w["fans"]):
                return obj
    raise AssertionError(f"no {variant} hand with {fan}")


def _problems(obj: dict[str, Any]) -> tuple[str, list[str]]:
    parsed = parse_line(json.dumps(obj), "x.paipu.jsonl", 1)
    assert isinstance(parsed, Parsed), parsed
    outcome = replay(parsed.record)
    return outcome.verdict, list(outcome.problems)


def _change_fan(fan: str, points: int) -> Callable[[dict[str, Any]], None]:
    def change(obj: dict[str, Any]) -> None:
        for win in obj["result"]["wins"]:
            for recorded in win["fans"]:
                if recorded[0] == fan:
                    recorded[1] = points

    return change


@pytest.mark.parametrize(
    ("fan", "points", "words"),
    [
        ("ping_hu", 2, "fan ping_hu recorded worth 2, computed 1"),
        ("seven_pairs", 5, "fan seven_pairs recorded worth 5, computed 4"),
    ],
)
def test_a_fan_recorded_with_the_wrong_points_is_a_mismatch(
    fan: str, points: int, words: str
) -> None:
    """The defect: only each fan's id and count were compared, so a Sichuan win recorded as
    ["ping_hu", 2, 1] (the total and deltas left as computed) passed as ok."""
    obj = _hand_with("sichuan", fan)
    assert _problems(obj) == ("ok", [])
    _change_fan(fan, points)(obj)
    verdict, problems = _problems(obj)
    assert verdict == "mismatch"
    assert [p for p in problems if words in p], problems


def _first_win(obj: dict[str, Any]) -> dict[str, Any]:
    return obj["result"]["wins"][0]


CHANGES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("total", lambda o: _first_win(o).update(total=_first_win(o)["total"] + 1), "recorded total"),
    (
        "tile",
        lambda o: _first_win(o).update(tile="9p" if _first_win(o)["tile"] != "9p" else "8p"),
        "recorded winning tile",
    ),
    ("count", lambda o: _first_win(o)["fans"][0].__setitem__(2, 2), "recorded ×2, computed ×1"),
    ("outcome", lambda o: o["result"].update(outcome="draw"), "outcome: recorded draw"),
    (
        "delta",
        lambda o: o["result"]["deltas"].__setitem__(0, o["result"]["deltas"][0] + 3),
        "(seat 0 recorded",
    ),
    ("a fan added", lambda o: _first_win(o)["fans"].append(["all_pungs", 2, 1]), "all_pungs"),
]


@pytest.mark.parametrize(("what", "change", "words"), CHANGES, ids=[c[0] for c in CHANGES])
def test_every_recorded_fact_is_compared(
    what: str, change: Callable[[dict[str, Any]], None], words: str
) -> None:
    obj = copy.deepcopy(_hand_with("sichuan", "ping_hu"))
    change(obj)
    verdict, problems = _problems(obj)
    assert verdict == "mismatch", what
    assert [p for p in problems if words in p], problems


def test_the_mismatch_is_stored_with_its_words(tmp_path: Path) -> None:
    obj = _hand_with("sichuan", "ping_hu")
    _change_fan("ping_hu", 2)(obj)
    path = tmp_path / "disputed.paipu.jsonl"
    path.write_text(json.dumps(obj) + "\n", encoding="utf-8")
    db = tmp_path / "x.duckdb"
    assert ingest([path], db).mismatched == 1
    with duckdb.connect(str(db), read_only=True) as con:
        verdict, problems = con.execute("SELECT verdict, problems FROM hands").fetchone()
    assert verdict == "mismatch"
    assert any("fan ping_hu recorded worth 2, computed 1" in p for p in problems)
