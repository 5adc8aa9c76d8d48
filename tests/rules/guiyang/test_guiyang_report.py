"""贵阳捉鸡 in the reports: a hand's 豆 and 鸡 reach the replay page's data (``wins.detail``
in the database), and the page's script rebuilds a Guiyang hand with its turned-up tile."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest
from guiyang_helpers import APP, CHICKEN_EVENTS, CHICKEN_HANDS, V, ev, record

from paipu.pipeline.ingest import ingest
from paipu.pipeline.simulate import with_result
from paipu.reports.html import replay_js
from paipu.reports.replay import tile_list
from paipu.reports.variants import variant_info
from paipu.rules.replay import replay

NODE = shutil.which("node")


def _chicken_line() -> str:
    """The 鸡 hand of the replay tests with its result, as a paipu log line."""
    rec = record(V, CHICKEN_HANDS, ev(*CHICKEN_EVENTS, ["turn_up", None, "3m"]), rules=APP)
    return json.dumps(with_result(rec, replay(rec)).to_json(), ensure_ascii=False)


def test_dou_and_chickens_reach_the_replay_data(tmp_path: Path) -> None:
    log = tmp_path / "gy.paipu.jsonl"
    log.write_text(_chicken_line() + "\n", encoding="utf-8")
    db = tmp_path / "gy.duckdb"
    summary = ingest([log], db, jobs=1)
    assert (summary.hands, summary.rejected, summary.mismatched) == (1, 0, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        ((detail,),) = con.sql("SELECT detail FROM wins").fetchall()
    facts = json.loads(detail)
    assert facts["chickens"] == [2, 3, 1, 1] and facts["flip_chicken"] == "4m"
    assert facts["charging_chicken"] == 0 and facts["chickens_counted"] == [0, 1]


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_replay_script_rebuilds_a_guiyang_hand(tmp_path: Path) -> None:
    script = tmp_path / "replay.js"
    script.write_text(replay_js(tile_list(), {V: variant_info(V).script_data()}), encoding="utf-8")
    driver = (
        "const R = require(process.argv[1]);"
        "const rec = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const steps = R.rebuild(rec).steps;"
        "process.stdout.write(JSON.stringify(steps.map((s) => s.event.words.map("
        "(w) => (typeof w === 'string' ? w : w.tiles.join(''))).join(''))));"
    )
    done = subprocess.run(
        [NODE, "-e", driver, str(script)],  # type: ignore[list-item]
        input=_chicken_line(),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    words = json.loads(done.stdout)
    assert words[-1] == "翻牌 turns up 3m"
