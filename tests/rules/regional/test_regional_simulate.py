"""Self-play of 长沙, 转转 and 四川: every simulated hand audits ``ok``, the same seed gives the
same bytes, the bots play each game's special moves, ``paipu simulate --stats`` shows the
rule paths, ``paipu score`` answers, and the reports list each variant's hand types."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.record import HandRecord
from paipu.rules.replay import replay

VARIANTS = ("changsha", "zhuanzhuan", "sichuan")
runner = CliRunner()


def _run(
    variant: str, hands: int, seed: int, workers: int = 1
) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    for game_lines, game_stats in simulate(
        game_jobs(variant, hands, seed, DEFAULT_PLAYERS, {}), workers
    ):
        lines += game_lines
        stats.merge(game_stats)
    return lines, stats


def _audit(lines: list[str]) -> Counter[str]:
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    return verdicts


@pytest.fixture(scope="module", params=VARIANTS)
def two_hundred(request: pytest.FixtureRequest) -> tuple[str, list[str], SimulationStats]:
    lines, stats = _run(request.param, 200, seed=1)
    return request.param, lines, stats


def test_two_hundred_hands_audit_ok(two_hundred) -> None:
    _variant, lines, stats = two_hundred
    assert _audit(lines) == {"ok": 200}
    assert stats.outcomes["win"] > 150


def test_the_special_moves_are_played(two_hundred) -> None:
    variant, _lines, stats = two_hundred
    events = set(stats.events)
    rules = set(stats.rules)
    if variant == "changsha":
        assert {"chi", "bird", "start_win", "kong_reveal"} <= events
        assert {"birds", "kong_reveal", "missed_win_lock"} <= rules
        assert stats.fans["ping_hu"] and len(stats.fans) >= 6
    elif variant == "zhuanzhuan":
        assert "chi" not in events
        assert "bird" in events
        assert {"kong_payment:kong", "kong_payment:added_kong", "multiple_win"} <= rules
    else:
        assert "chi" not in events
        assert stats.events["void"] == 800
        assert {"first_win", "win_while_others_play", "cha_da_jiao"} <= rules
        assert any(k.startswith("kong_payment") for k in rules)
        assert max(stats.wins_per_hand) == 3
        assert stats.fans["full_flush"] + stats.fans["all_pungs"] > 0


def test_sichuan_bots_discard_their_void_first_and_never_claim_it() -> None:
    lines, _ = _run("sichuan", 24, seed=9)
    for line in lines:
        hand = json.loads(line)
        voids = {e[1]: e[2] for e in hand["events"] if e[0] == "void"}
        assert len(voids) == 4
        for kind, seat, *rest in hand["events"]:
            if kind in ("pong", "kong"):
                assert not rest[0].endswith(voids[seat])
        for win in hand["result"].get("wins", []):
            assert win["fans"]


def test_same_seed_same_bytes_whatever_the_workers() -> None:
    for variant in VARIANTS:
        one, _ = _run(variant, 16, seed=5)
        assert one == _run(variant, 16, seed=5, workers=2)[0]
        assert one != _run(variant, 16, seed=6)[0]


def test_hands_replay_without_their_wall() -> None:
    for variant in VARIANTS:
        for line in _run(variant, 16, seed=3)[0]:
            hand = json.loads(line)
            del hand["wall"]
            assert replay(HandRecord.from_json(hand), check=True).verdict == "ok"


def test_simulate_stats_show_rule_paths(tmp_path: Path) -> None:
    out = tmp_path / "sc.jsonl"
    result = runner.invoke(
        app,
        ["simulate", "--variant", "sichuan", "--hands", "16", "--out", str(out), "--stats", "-q"],
    )
    assert result.exit_code == 0, result.output
    assert "rule paths" in result.output
    assert "kong_payment" in result.output or "first_win" in result.output
    audit = runner.invoke(app, ["audit", str(out), "--problems"])
    assert audit.exit_code == 0, audit.output


def test_paipu_score_answers_for_the_regional_variants() -> None:
    request = {
        "variant": "changsha",
        "rules": {"dealer_bonus": True},
        "seat": 1,
        "dealer": 0,
        "from": 0,
        "hand": "111m333m555m777m9m",
        "win_tile": "9m",
        "extra": {"birds": ["5m", "3s"]},
    }
    result = runner.invoke(app, ["score", json.dumps(request), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["deltas"] == [-26, 26, 0, 0]
    assert answer["extra"]["birds"] == ["5m", "3s"]
    sichuan = {
        "variant": "sichuan",
        "seat": 1,
        "dealer": 0,
        "hand": "222m555m888m3m",
        "melds": [{"kind": "concealed_kong", "tiles": "9999m"}],
        "win_tile": "3m",
        "extra": {"void": "s"},
    }
    result = runner.invoke(app, ["score", json.dumps(sichuan)])
    assert result.exit_code == 0, result.output
    assert "清对" in result.output and "根" in result.output
    bad = {**sichuan, "extra": {"void": "m"}}
    result = runner.invoke(app, ["score", json.dumps(bad), "--json"])
    assert result.exit_code == 1
    assert "void suit" in json.loads(result.output)["reason"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_thousand_hands_audit_ok(variant: str) -> None:
    lines, stats = _run(variant, 1000, seed=1, workers=2)
    assert _audit(lines) == {"ok": 1000}
    assert stats.hands == 1000


def test_the_reports_show_each_variant_s_own_hand_types(tmp_path: Path) -> None:
    """Ingest self-play of the three variants and write the report: the fan frequencies list
    each variant with its own hand types (from its TOML), and the database keeps the
    settled deltas and the regional event kinds."""
    import duckdb

    for variant in VARIANTS:
        lines, _ = _run(variant, 60, seed=2)
        (tmp_path / f"{variant}.paipu.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    db = tmp_path / "r.duckdb"
    result = runner.invoke(
        app, ["ingest", *(str(p) for p in tmp_path.glob("*.jsonl")), "--db", str(db)]
    )
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(db), read_only=True)
    fans = dict(con.sql("SELECT variant, list(DISTINCT fan) FROM win_fans GROUP BY 1").fetchall())
    assert "ping_hu" in fans["changsha"] and "ping_hu" in fans["zhuanzhuan"]
    assert "self_draw" in fans["zhuanzhuan"]
    assert "root" in fans["sichuan"]
    kinds = {k for (k,) in con.sql("SELECT DISTINCT kind FROM events").fetchall()}
    assert {"void", "bird", "start_win", "kong_reveal"} <= kinds
    unbalanced = con.execute(
        "SELECT count(*) FROM (SELECT game, hand, sum(delta) s FROM hand_seats GROUP BY ALL) "
        "WHERE s <> 0"
    ).fetchall()
    assert unbalanced == [(0,)]
    con.close()
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = (out / "fans.html").read_text("utf-8")
    for variant, name in (("changsha", "平胡 (小胡)"), ("zhuanzhuan", "自摸"), ("sichuan", "根")):
        assert f"variant-{variant}" in page
        assert name in page
