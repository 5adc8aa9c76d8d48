"""The replay page of a Tianjin hand (reports/templates/replay.js): 坐庄 and 拉庄 told in
words, the 混 indicator turning up both 混 kinds (the dragons' 中→发→白 order worked out by
the rules' wild table)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from paipu.reports.html import replay_js
from paipu.reports.replay import tile_list
from paipu.reports.variants import wild_table
from paipu.rules.variants import get_variant

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

DRIVER = r"""
const R = require(process.argv[1]);
const [record, table] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const words = (ws) => ws.map((w) => (typeof w === "string" ? w : w.tiles.join(""))).join("");
const built = R.rebuild(record, false, table);
process.stdout.write(JSON.stringify(built.steps.map((s) => [words(s.event.words), s.wilds])));
"""

DEAL = ["111m999m234s678s1z", "46m123p789p22s345s", "222m333m444p555p9s", "777m888m666p2z3z6z6z"]


def test_stakes_and_wilds_on_the_replay_page(tmp_path: Path) -> None:
    path = tmp_path / "replay.js"
    path.write_text(replay_js(tile_list(), {}), encoding="utf-8")
    events = [
        ["zuo_zhuang", 0, True],
        ["la_zhuang", 1, 1],
        ["la_zhuang", 2, 0],
        ["la_zhuang", 3, 2],
        ["indicator", None, "5z", {"role": "wild"}],
    ]
    record = {"variant": "tianjin", "players": ["A", "B", "C", "D"], "deal": DEAL}
    record["events"] = events
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", DRIVER, str(path)],
        input=json.dumps([record, wild_table(get_variant("tianjin").spec)]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    steps = json.loads(done.stdout)
    assert steps[1][0].startswith("sits 坐庄")
    assert steps[2][0].startswith("pulls the dealer once (拉一庄)")
    assert steps[3][0].startswith("does not pull")
    assert steps[4][0].startswith("pulls the dealer twice (拉两庄)")
    assert steps[5] == ["turns up the wild indicator (翻牌) 5z: the wilds are 5z7z", ["5z", "7z"]]
