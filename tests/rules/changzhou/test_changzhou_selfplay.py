"""常州 / 常山 财神 self-play: simulated hands audit ``ok`` and repeat byte for byte, the bots
keep the 财神 and float one (财飘) where it pays."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest
from changzhou_helpers import log
from test_changzhou_replay import PIAO_HANDS, _piao_events
from typer.testing import CliRunner

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.legal import MoveKind
from paipu.rules.selfplay import Style
from paipu.rules.tiles import parse_tile
from paipu.rules.variants import get_variant
from paipu.selfplay.bots.regional import RegionalBot, rules_for
from paipu.selfplay.loop import SeatView, TurnMoves

HANDS = 16


def _run(hands: int, seed: int) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    for game_lines, game_stats in simulate(
        game_jobs("changzhou", hands, seed, DEFAULT_PLAYERS, {}), 1
    ):
        lines += game_lines
        stats.merge(game_stats)
    return lines, stats


@pytest.fixture(scope="module")
def simulated() -> tuple[list[str], SimulationStats]:
    return _run(HANDS, seed=3)


def test_simulated_hands_audit_ok_and_repeat(simulated: tuple[list[str], SimulationStats]) -> None:
    lines, stats = simulated
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    assert verdicts == {"ok": HANDS}
    assert stats.events["indicator"] == HANDS and stats.outcomes["win"] > HANDS // 2
    again, _ = _run(2, seed=3)
    assert again == lines[:2]


def _south_at_the_second_caishen(left_cut: int = 0) -> tuple[SeatView, TurnMoves]:
    """The worked example's table when South, in 财头, has just drawn a second 财神."""
    events = _piao_events()
    cut = next(i for i, e in enumerate(events) if e == ["draw", 1, "3m"]) + 1
    record = log(PIAO_HANDS, events, indicator="2m")
    variant = get_variant("changzhou")
    table = variant.new_table(record, variant.resolve_options({}))
    for index, event in enumerate(record.events[: cut + 1]):
        table.apply(index, event)
    table.wall.front += left_cut  # a later point of the wall (the counted wall's tiles)
    return SeatView(table, 1), TurnMoves(table, 1)


def _bot() -> RegionalBot:
    variant = get_variant("changzhou")
    return RegionalBot(Style.BALANCED, rules_for(variant, variant.resolve_options({})))


def test_the_bot_floats_a_caishen_where_it_pays() -> None:
    view, moves = _south_at_the_second_caishen()
    assert moves.self_drawn_win() is not None
    move = _bot().turn(view, moves)
    assert (move.kind, move.tiles) == (MoveKind.DISCARD, (parse_tile("3m"),))


def test_the_bot_takes_the_win_late_in_the_wall() -> None:
    view, moves = _south_at_the_second_caishen(left_cut=50)
    assert view.tiles_left() < 16
    assert _bot().turn(view, moves).kind is MoveKind.SELF_DRAWN_WIN


def test_ingest_and_the_reports_list_the_hand_types(
    simulated: tuple[list[str], SimulationStats], tmp_path: Path
) -> None:
    """The simulated hands load (settled zero-sum, the indicator among the events) and the
    fan page lists 常州's own hand types."""
    lines, _ = simulated
    log_file = tmp_path / "changzhou.paipu.jsonl"
    log_file.write_text("\n".join(lines) + "\n", "utf-8")
    db = tmp_path / "cz.duckdb"
    runner = CliRunner()
    result = runner.invoke(app, ["ingest", str(log_file), "--db", str(db)])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(db), read_only=True)
    kinds = {k for (k,) in con.sql("SELECT DISTINCT kind FROM events").fetchall()}
    unbalanced = con.execute(
        "SELECT count(*) FROM (SELECT game, hand, sum(delta) s FROM hand_seats GROUP BY ALL) "
        "WHERE s <> 0"
    ).fetchall()
    con.close()
    assert "indicator" in kinds and unbalanced == [(0,)]
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = (out / "fans.html").read_text("utf-8")
    assert "variant-changzhou" in page and "普通牌型" in page


def test_the_bot_follows_the_dealer_where_it_costs_nothing() -> None:
    """East's first discard is 北; South holds a lone 北 too and lets it go (跟庄)."""
    hands = {
        0: "123m456m789m11p4s4z",
        1: "4z258m258p258s369m",
        2: "1z147p147s369p69s2z",
        3: "1z3z3z7z7z6z6z7z9s9s8s7s1s",
    }
    events = [["draw", 0, "6s"], ["discard", 0, "4z"], ["draw", 1, "2z"]]
    record = log(hands, events, indicator="2m")
    variant = get_variant("changzhou")
    rules = rules_for(variant, variant.resolve_options({}))
    for follow, tile in ((True, "4z"), (False, "2z")):  # without the rule: the later 南
        table = variant.new_table(record, variant.resolve_options({}))
        for index, event in enumerate(record.events):
            table.apply(index, event)
        bot = RegionalBot(Style.BALANCED, replace(rules, follow_dealer=follow))
        move = bot.turn(SeatView(table, 1), TurnMoves(table, 1))
        assert (move.kind, move.tiles) == (MoveKind.DISCARD, (parse_tile(tile),))
