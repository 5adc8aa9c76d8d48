"""The replay script's rebuilding of a hand (``rebuild`` in reports/templates/replay.js), run
in Node.js: steps worked out by hand, and every step of many hands against the rules engine.

The replay page rebuilds the table in the browser from the hand's record, so the script is
checked here the way the engine's own tests check the engine: after every event, each
seat's concealed tiles, melds, flowers and discards must be what the rules engine's table
holds (``paipu.rules``: :class:`~paipu.rules.replay.Table`, the zipai ``ZipaiTable``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from reports_fixture import FIXTURE, ZIPAI, ZIPAI_EXAMPLE
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.reports.html import replay_js
from paipu.reports.replay import tile_list
from paipu.reports.variants import variant_info
from paipu.rules.record import HandRecord
from paipu.rules.tiles import tile_name
from paipu.rules.variants import get_variant

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

# Reads the script's path and a JSON list of records; prints per record its steps: the event's
# words (tiles run together), each seat's hand (the drawn tile last, after "+"), melds,
# flowers, discards (mark after ":"), and the card on the table.
DRIVER = r"""
const R = require(process.argv[1]);
const records = JSON.parse(require("fs").readFileSync(0, "utf8"));
const words = (ws) => ws.map((w) => (typeof w === "string" ? w : w.tiles.join(""))).join("");
const out = records.map((record) => {
  const built = R.rebuild(record);
  return built.steps.map((s) => ({
    text: (s.event.seat === null ? "" : record.players[s.event.seat] + " ") + words(s.event.words),
    offer: s.offer ? s.offer.tile : null,
    seats: s.seats.map((x) => ({
      hand: x.hand.join("") + (x.drawn === null ? "" : "+" + x.drawn),
      tiles: x.hand.concat(x.drawn === null ? [] : [x.drawn]),
      melds: x.melds.map((m) => [m.kind, m.tiles.join(""), m.from]),
      flowers: x.flowers,
      discards: x.discards.map((d) => d.tile + (d.mark ? ":" + d.mark : "")),
    })),
  }));
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("script") / "replay.js"
    variants = {v: variant_info(v).script_data() for v in ("mcr", ZIPAI)}
    path.write_text(replay_js(tile_list(), variants), encoding="utf-8")
    return path


def rebuild(script: Path, records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", DRIVER, str(script)],
        input=json.dumps(records),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def records_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def fixture_record(game: str, hand: int) -> dict[str, Any]:
    return next(r for r in records_of(FIXTURE) if (r["game"], r["hand"]) == (game, hand))


# --------------------------------------------------------------------------- worked by hand


def test_a_pong_and_a_win_on_a_discard(script) -> None:
    steps = rebuild(script, [fixture_record("g1", 3)])[0]  # Dai deals; Ann pongs, wins on 1p
    assert [s["text"] for s in steps] == [
        "the deal",
        "Dai draws 7z",
        "Dai discards 5z",
        "Ann pong from Dai 5z5z5z",
        "Ann discards 9s",
        "Bo draws 6m",
        "Bo discards 1p",
        "Ann wins on Bo's discard 1p",
    ]
    assert steps[0]["seats"][0]["hand"] == "1m2m3m4m5m6m7m8m9m1p9s5z5z"
    assert steps[1]["seats"][3]["hand"].endswith("+7z")  # the drawn tile kept apart
    assert steps[3]["seats"][0]["hand"] == "1m2m3m4m5m6m7m8m9m1p9s"
    assert steps[3]["seats"][0]["melds"] == [["pong", "5z5z5z", 3]]
    assert steps[3]["seats"][3]["discards"] == ["5z:claimed"]
    assert steps[6]["seats"][1]["discards"] == ["1p"]
    assert steps[7]["seats"][1]["discards"] == ["1p:won"]
    assert steps[7]["seats"][0]["hand"] == "1m2m3m4m5m6m7m8m9m1p+1p"


def test_a_self_draw_compact_deals_and_unknown_events(script) -> None:
    odd = {
        "players": ["A", "B", "C"],
        "deal": [["1x"], "20d", []],
        "events": [
            ["void", 0, "m"],
            ["wei", 1, "2d"],
            ["bird", None, ["1m", "9m"]],
            ["piao", 2, 1],
            ["xiang_gong", 1],
            ["start_win", 2, "two_triplets", {"tiles": ["1m", "1m", "1m"], "dice": [3, 4]}],
            ["start_win", 0, "four_of_a_kind", {"tiles": ["8p"] * 4, "during": True}],
        ],
    }
    self_draw, weird = rebuild(script, [fixture_record("g1", 1), odd])
    assert self_draw[-1]["text"] == "Dai wins by self-draw (自摸) on 7z"
    assert self_draw[-1]["seats"][3]["hand"].endswith("+7z")
    assert weird[0]["seats"][1]["hand"] == "2d10d"  # compact form: 0 stands for ten
    assert [s["text"] for s in weird] == [
        "the deal",
        "A declares the void suit (定缺) 万 (m)",
        "B wei 2d",
        "扎鸟 birds 1m9m",
        "C chooses 飘 (piao) 1",  # seat events without tiles once threw a ReferenceError
        "B is 相公 (xiang gong): every card is locked in a 坎, the hand is dead",
        "C shows an opening win (起手胡) two triplets 1m1m1m, dice 3 and 4",
        "A shows a win formed in play (中途) four of a kind 8p8p8p8p",
    ]


def test_the_exchange_of_three_moves_the_tiles_as_the_engine_does(script) -> None:
    """换三张: each seat's three tiles leave its hand and join the receiver's, all at once."""
    hands = ["123m456m789m3344p", "111p234p567s8899s", "345m678p12399s55s", "999m555p666s777s2m"]
    passed = [["1m", "2m", "3m"], ["8s", "8s", "9s"], ["6p", "7p", "8p"], ["5p", "5p", "5p"]]
    exchange = {
        "players": ["A", "B", "C", "D"],
        "deal": hands,
        "events": [["exchange", None, "next", {"tiles": passed}]],
    }
    steps = rebuild(script, [exchange])[0]
    assert steps[1]["text"] == (
        "换三张 (exchange three) to the next seat: A 1m2m3m B 8s8s9s C 6p7p8p D 5p5p5p"
    )
    assert [s["hand"] for s in steps[1]["seats"]] == [
        "4m5m6m7m8m9m3p3p4p4p5p5p5p",
        "1m2m3m1p1p1p2p3p4p5s6s7s9s",
        "3m4m5m1s2s3s5s5s8s8s9s9s9s",
        "2m9m9m9m6p7p8p6s6s6s7s7s7s",
    ]


def test_a_zipai_hand_as_a_player_reads_it(script) -> None:
    steps = rebuild(script, [ZIPAI_EXAMPLE])[0]  # docs/zipai.md's example
    assert [s["text"] for s in steps] == [
        "the deal",
        "Emi takes the dealer's card 8x",
        "Emi discards 打 9d",
        "Ann flips 翻 2d  (9d passes to Emi's 弃牌)",
        "Ann 偎 wei on the flipped 2d",
        "Ann discards 打 3d",
        "Fang 跑 pao on Ann's discard 3d (坎 → 跑)",
        "Fang discards 打 7x",
        "Emi flips 翻 5d  (7x passes to Fang's 弃牌)",
        "Emi 吃 chi the flipped 5d as 5x5x5d, 比 bi 4d5d6d",
        "Emi discards 打 4d",
        "Fang 胡 wins on Emi's discard (放炮) 4d",
    ]
    fang, emi, ann = steps[-1]["seats"]
    assert steps[2]["offer"] == "9d" and steps[3]["offer"] == "2d"
    assert steps[3]["seats"][1]["discards"] == ["9d"]  # passed: into Emi's 弃牌
    assert ann["melds"] == [["wei", "2d2d2d", None]]
    assert fang["melds"] == [["pao", "3d3d3d3d", 2]]
    assert emi["melds"] == [["chi", "5x5x5d", 1], ["bi", "4d5d6d", None]]
    assert fang["discards"] == ["7x"]
    assert fang["hand"] == "3x3x3x4x4x6x6x6x7x8x9x5d6d7d10d10d+4d"
    assert emi["hand"] == "2x3x4x6x7x8x10x10x10x1d1d8d8d8d"
    assert steps[-1]["offer"] is None


# --------------------------------------------------------------------------- against the engine


def engine_steps(record: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Each seat's tiles, melds, flowers and discards after every event, per the rules."""
    hand = HandRecord.from_json(record)
    variant = get_variant(hand.variant)
    table = variant.new_table(hand, variant.resolve_options(hand.rules))
    steps = []
    for index, event in enumerate(hand.events):
        table.apply(index, event)
        seats = []
        for s in table.seats:
            tiles = [tile_name(t) for t in s.concealed()]
            tiles += [tile_name(t) for t in getattr(s, "held_flowers", [])]
            seats.append(
                {
                    "tiles": sorted(tiles),
                    "melds": sorted(
                        (m.kind.value, "".join(tile_name(t) for t in m.tiles)) for m in s.melds
                    ),
                    "flowers": sorted(tile_name(t) for t in getattr(s, "flowers", [])),
                    "discards": [tile_name(t) for t in s.discards],
                }
            )
        steps.append(seats)
    return steps


def script_seat(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat of the script's step in the engine's terms (比 sets are 吃 there)."""
    melds = sorted(("chi" if kind == "bi" else kind, tiles) for kind, tiles, _ in seat["melds"])
    return {
        "tiles": sorted(seat["tiles"]),
        "melds": melds,
        "flowers": sorted(seat["flowers"]),
        "discards": [d.split(":")[0] for d in seat["discards"]],
    }


@pytest.fixture(scope="module")
def mcr_simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mcr-sim") / "mcr.paipu.jsonl"
    args = ["simulate", "--variant", "mcr", "--hands", "40", "--seed", "2", "--out", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def sichuan_xueliu(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sichuan hands of 血流成河 with 换三张: winners play on, tiles pass between seats."""
    path = tmp_path_factory.mktemp("sichuan-sim") / "sichuan.paipu.jsonl"
    rules = '{"mode": "xueliu", "exchange_three": "dice"}'
    args = ["simulate", "-v", "sichuan", "-n", "8", "-s", "3", "--rules", rules, "-o", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return path


def test_every_step_agrees_with_the_rules_engine(
    script, zipai_file, mcr_simulated, sichuan_xueliu
) -> None:
    records = [r for r in records_of(FIXTURE) if (r["game"], r["hand"]) != ("g2", 2)]
    records += records_of(zipai_file) + records_of(mcr_simulated) + records_of(sichuan_xueliu)
    kinds = Counter(e[0] for r in records for e in r["events"])
    assert {"chi", "pong", "kong", "flower", "flip", "ti", "wei", "pao", "peng"} <= set(kinds)
    assert {"exchange", "void"} <= set(kinds)
    built = rebuild(script, records)
    for record, steps in zip(records, built, strict=True):
        expected = engine_steps(record)
        assert len(steps) == len(expected) + 1
        for i, seats in enumerate(expected, start=1):
            got = [script_seat(s) for s in steps[i]["seats"]]
            assert got == seats, (
                f"{record['game']} #{record['hand']} after event {i - 1} "
                f"{record['events'][i - 1]}: {steps[i]['text']}"
            )
