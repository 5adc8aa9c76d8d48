"""Nanchang self-play: 150 simulated hands audit ``ok`` (精, streaks and 精分 replayed from
the written lines), the same seed gives the same bytes, the streak is carried from hand to
hand, and the prepared deals reach the shapes self-play rarely makes, and 杠开."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.audit import audit_parsed
from paipu.pipeline.simulate import DEFAULT_PLAYERS, SimulationStats, game_jobs, simulate
from paipu.rules.replay import replay
from paipu.rules.selfplay import HandSetup, Style, hand_rng
from paipu.rules.variants import get_variant
from paipu.selfplay import play_hand, scenarios

V = "nanchang"


def _run(
    hands: int, seed: int, rules: dict[str, object] | None = None
) -> tuple[list[str], SimulationStats]:
    stats = SimulationStats()
    lines: list[str] = []
    for game_lines, game_stats in simulate(
        game_jobs(V, hands, seed, DEFAULT_PLAYERS, rules or {}), 1
    ):
        lines += game_lines
        stats.merge(game_stats)
    return lines, stats


@pytest.fixture(scope="module")
def hundred() -> tuple[list[str], SimulationStats]:
    return _run(100, seed=3)


def test_simulated_hands_audit_ok_and_repeat(hundred: tuple[list[str], SimulationStats]) -> None:
    lines, stats = hundred
    verdicts: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parsed = parse_line(line, "sim", number)
        assert isinstance(parsed, Parsed), parsed
        entry = audit_parsed(parsed)
        assert entry.status == "ok", (entry.problems, line)
        verdicts[entry.status] += 1
    assert verdicts == {"ok": 100}
    assert stats.events["indicator"] == 100
    assert stats.events["dealer_streak"] > 0
    assert stats.rules["jing_points"] > 60
    assert {"ping_hu", "small_seven_pairs", "de_guo"} <= set(stats.fans)
    again, _ = _run(8, seed=3)
    assert again == lines[:8]


def test_the_streak_is_carried(hundred: tuple[list[str], SimulationStats]) -> None:
    """A dealer who won deals again with his streak, from his seat, before the first draw."""
    lines, _ = hundred
    streaks = []
    for line in lines:
        obj = json.loads(line)
        events = [e for e in obj["events"] if e[0] == "dealer_streak"]
        if events:
            streaks.append(events[0][2])
            assert events[0][1] == obj["dealer"]
    assert streaks and max(streaks) >= 2


def test_prepared_deals_reach_the_rare_shapes() -> None:
    variant = get_variant(V)
    options = variant.resolve_options({"tian_di_hu": False})
    seen = {}
    for i, scenario in enumerate(scenarios(variant, "nanchang-shapes")):
        setup = HandSetup(
            V, f"scenario-{i}", 0, ("Ann", "Bo", "Chen", "Dai"), (Style.BALANCED,) * 4,
            rules={"tian_di_hu": False}, scenario=scenario,
        )  # fmt: skip
        outcome = play_hand(variant, hand_rng(7, i, 0), setup, options)
        assert replay(outcome.record).deltas == outcome.deltas
        (win,) = outcome.wins
        seen[scenario.name] = {f.id for f in win.fans}
    for name, fans in seen.items():
        assert name in fans, (name, fans)


def test_next_setup_keeps_the_dealer_and_his_streak() -> None:
    """连庄: the dealer wins → he deals again, streak + 1; a 闲 wins or the hand is drawn →
    the next seat deals, streak 1; after a 闲's self-draw the winner deals with
    dealer_after_self_draw = winner."""
    from types import SimpleNamespace

    variant = get_variant(V)
    setup = HandSetup(V, "g", 0, ("Ann", "Bo", "Chen", "Dai"), (Style.BALANCED,) * 4, dealer=2)

    def after(setup: HandSetup, *wins: tuple[int, int | None]) -> HandSetup:
        outcome = SimpleNamespace(wins=[SimpleNamespace(seat=s, from_seat=f) for s, f in wins])
        return variant.next_setup(setup, outcome)  # type: ignore[arg-type]

    kept = after(after(setup, (2, 0)), (2, None))
    assert (kept.dealer, kept.extra["streak"]) == (2, 3)
    assert variant.setup_events(kept)[0].to_array() == ["dealer_streak", 2, 3]
    passed = after(kept, (1, 2))
    assert (passed.dealer, passed.extra["streak"]) == (3, 1)
    assert variant.setup_events(passed) == []
    assert after(kept).dealer == 3  # a drawn hand
    rules = HandSetup(V, "g", 0, setup.players, setup.styles, dealer=2,
                      rules={"dealer_after_self_draw": "winner"})  # fmt: skip
    assert after(rules, (0, None)).dealer == 0
    assert after(setup, (0, None)).dealer == 3
