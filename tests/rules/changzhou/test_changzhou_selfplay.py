"""常州 / 常山 财神 self-play: simulated hands audit ``ok`` and repeat byte for byte, the bots
keep the 财神 and float one (财飘) where it pays."""

from __future__ import annotations

from collections import Counter

from changzhou_helpers import log
from test_changzhou_replay import PIAO_HANDS, _piao_events

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
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


def test_simulated_hands_audit_ok_and_repeat() -> None:
    lines, stats = _run(HANDS, seed=3)
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
