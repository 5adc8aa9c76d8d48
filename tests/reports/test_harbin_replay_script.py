"""The replay page of a Harbin hand (reports/templates/replay.js): the 宝 from its indicator
on, 换宝 putting the old 宝 in the dealer's discards, and the seats that declared 听."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from paipu.reports.html import replay_js
from paipu.reports.replay import tile_list

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

DRIVER = r"""
const R = require(process.argv[1]);
const record = JSON.parse(require("fs").readFileSync(0, "utf8"));
const words = (ws) => ws.map((w) => (typeof w === "string" ? w : w.tiles.join(""))).join("");
const built = R.rebuild(record, false, null);
const steps = built.steps.map((s) => [
  words(s.event.words), s.bao, s.ready, s.seats[0].discards.map((d) => d.tile + ":" + d.mark),
]);
process.stdout.write(JSON.stringify(steps));
"""

DEAL = ["1m23m456p789p11s99s7z", "23m456p789p11s999s", "44p678m99m777z56p3s", "123456789s1234m"]


def steps(tmp_path: Path, events: list[Any]) -> list[Any]:
    path = tmp_path / "replay.js"
    path.write_text(replay_js(tile_list(), {}), encoding="utf-8")
    record = {"variant": "harbin", "players": ["A", "B", "C", "D"], "dealer": 0, "deal": DEAL}
    record["events"] = events
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", DRIVER, str(path)],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def test_the_bao_and_the_ready_declarations_on_the_replay_page(tmp_path: Path) -> None:
    events = [
        ["indicator", None, "9m", {"role": "bao"}],
        ["draw", 0, "5m"],
        ["discard", 0, "1m"],
        ["ready", 1],
        ["chi", 1, ["1m", "2m", "3m"]],
        ["discard", 1, "4p"],
        ["indicator", None, "6s", {"role": "bao"}],
    ]
    out = steps(tmp_path, events)
    assert out[0][1:3] == [None, []]  # the deal: no 宝 known yet
    assert out[1][:2] == ["turns up the 宝 (hidden treasure tile) 9m", "9m"]
    assert out[4][0].startswith("declares 听") and out[4][2] == [1]
    assert out[7][:3] == ["换宝: three 9m are visible, the new 宝 is 6s", "6s", [1]]
    assert out[7][3][-1] == "9m:bao"  # the old 宝 in the dealer's discards
