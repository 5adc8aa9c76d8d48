"""The replay page shows a Shanghai hand: the dice and what the hand carries, the flowers,
the win's share and caps (``rebuild`` of reports/templates/replay.js, run with Node.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from paipu.reports.html import replay_js
from paipu.reports.replay import tile_list
from paipu.reports.variants import variant_info

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
DATA = Path(__file__).resolve().parents[3] / "data" / "shanghai.paipu.jsonl"
DRIVER = r"""
const R = require(process.argv[1]);
const record = JSON.parse(require("fs").readFileSync(0, "utf8"));
const words = (ws) => ws.map((w) => (typeof w === "string" ? w : w.tiles.join(""))).join("");
process.stdout.write(JSON.stringify(R.rebuild(record).steps.map((s) => words(s.event.words))));
"""


def test_the_dice_and_the_flowers_on_the_replay_page(tmp_path: Path) -> None:
    script = tmp_path / "replay.js"
    script.write_text(
        replay_js(tile_list(), {"shanghai": variant_info("shanghai").script_data()}),
        encoding="utf-8",
    )
    records = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    record = next(
        r for r in records if r["events"][0][3:] and any(r["events"][0][3].values())
    )  # a hand that carries a doubling in
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", DRIVER, str(script)],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    steps = json.loads(done.stdout)
    dice = record["events"][0]
    carried = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(dice[3].items()) if v)
    assert f"掷骰 dice {dice[2][0]} · {dice[2][1]} (carried: {carried})" in steps
    assert any("flower" in step for step in steps)
