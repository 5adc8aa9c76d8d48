"""The replay page with wilds (reports/templates/replay.js, rules/mechanics/wilds.py): the
indicator event is told in words with the wilds it makes, each step keeps the hand's wild
kinds (fixed ones from the start), as the rules' wild table says (reports/variants.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from paipu.reports.html import replay_js
from paipu.reports.replay import tile_list
from paipu.reports.variants import wild_table
from paipu.rules.variants import get_variant
from tests.rules.wilds.wilds_helpers import VARIANT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

DRIVER = r"""
const R = require(process.argv[1]);
const [record, table] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const words = (ws) => ws.map((w) => (typeof w === "string" ? w : w.tiles.join(""))).join("");
const built = R.rebuild(record, false, table);
const steps = built.steps.map((s) => [words(s.event.words), s.wilds, s.indicator]);
process.stdout.write(JSON.stringify(steps));
"""

DEAL = ["6m123p789p123s777z", "45m11p456789s123z", "4m999m23s8m3z55z66z4z", "1234m567p99p111z7m"]


def steps(
    tmp_path: Path, rules: dict[str, Any], events: list[Any], spec: Any = VARIANT.spec
) -> list[Any]:
    path = tmp_path / "replay.js"
    path.write_text(replay_js(tile_list(), {}), encoding="utf-8")
    record = {"variant": spec.id, "players": ["A", "B", "C", "D"], "deal": DEAL}
    record |= {"rules": rules, "events": events}
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", DRIVER, str(path)],
        input=json.dumps([record, wild_table(spec)]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def test_the_indicator_and_the_wilds_on_the_replay_page(tmp_path: Path) -> None:
    events = [["indicator", None, "3m", {"role": "wild"}], ["draw", 0, "4m"]]
    out = steps(tmp_path, {"wilds": "flip"}, events)
    assert out[0][1:] == [[], None]  # the deal: no wilds yet
    assert out[1] == ["turns up the wild indicator (翻牌) 3m: the wilds are 4m", ["4m"], "3m"]
    assert out[2][1:] == [["4m"], "3m"]


def test_fixed_wilds_from_the_start(tmp_path: Path) -> None:
    out = steps(tmp_path, {"wilds": "white"}, [["draw", 0, "5z"]])
    assert [s[1] for s in out] == [["5z"], ["5z"]]
    assert steps(tmp_path, {"wilds": "none"}, [])[0][1] == []


def test_the_wild_table_of_the_rules() -> None:
    table = wild_table(VARIANT.spec)
    assert table is not None and table["option"] == "wilds" and table["default"] == "flip"
    assert table["choices"]["white"] == {"fixed": ["5z"]}
    assert table["choices"]["flip"]["by_indicator"]["9s"] == ["1s"]
    assert table["choices"]["flip"]["by_indicator"]["7z"] == ["5z"]  # 中 → 白 (白→发→中)
    assert "none" not in table["choices"]


def test_a_switch_chooses_the_wilds(tmp_path: Path) -> None:
    """南昌's 副精 is a true / false option (``fu_jing``): the wild table's keys are the
    TOML's (``True`` / ``False``), and the page finds them from the record's booleans and
    from the default (it found none before: String(true) is "true")."""
    spec = get_variant("nanchang").spec
    events = [["indicator", None, "3m", {"role": "wild"}]]
    assert steps(tmp_path, {}, events, spec)[1][1] == ["4m", "5m"]  # 正精 4万, 副精 5万
    assert steps(tmp_path, {"fu_jing": True}, events, spec)[1][1] == ["4m", "5m"]
    assert steps(tmp_path, {"fu_jing": False}, events, spec)[1][1] == ["4m"]
