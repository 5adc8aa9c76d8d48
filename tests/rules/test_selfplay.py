"""MCR self-play: every simulated hand replays as ``ok``, the same seed gives the same
bytes whatever the number of workers, the tiles are conserved, the bots win, take every
legal win and play their styles, and the mcr-88 scenarios end in each 88-fan hand."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.cli import app
from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, seat_players, simulate
from paipu.rules.record import HandRecord
from paipu.rules.replay import replay
from paipu.rules.selfplay import HandSetup, Scenario, Style, hand_rng
from paipu.rules.tiles import FLOWER_FIRST, parse_tiles
from paipu.rules.variants import VariantError, get_variant
from paipu.selfplay import play_hand
from paipu.selfplay import scenarios as scenarios_of
from paipu.selfplay.bots.fans import make_bots
from paipu.selfplay.loop import (
    Deal,
    ScenarioError,
    SelfPlayHand,
    deal_tiles,
)

VARIANT = "mcr"
HANDS = 256
SEED = 7
MCR_88 = (
    "big_four_winds",
    "big_three_dragons",
    "all_green",
    "nine_gates",
    "four_kongs",
    "seven_shifted_pairs",
    "thirteen_orphans",
)

ORPHANS_BY_NAME = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]

runner = CliRunner()


def _lines(hands: int, seed: int, workers: int = 1, scenarios: tuple = ()) -> list[str]:
    jobs = game_jobs(VARIANT, hands, seed, DEFAULT_PLAYERS, {}, scenarios)
    return [line for lines, _ in simulate(jobs, workers) for line in lines]


def _record(line: str) -> HandRecord:
    parsed = parse_line(line, "sim", 1)
    assert isinstance(parsed, Parsed), parsed
    return parsed.record


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return _lines(HANDS, SEED)


@pytest.fixture(scope="module")
def records(lines: list[str]) -> list[HandRecord]:
    return [_record(line) for line in lines]


def _setup(scenario: Scenario | None = None, dealer: int = 0) -> HandSetup:
    return HandSetup(
        variant=VARIANT,
        game="test",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.AGGRESSIVE, Style.BALANCED, Style.DEFENSIVE, Style.BALANCED),
        dealer=dealer,
        scores_before=(0, 0, 0, 0),
        scenario=scenario,
    )


# ---------------------------------------------------------------- legality


def test_every_hand_replays_ok_and_takes_every_legal_win(records: list[HandRecord]) -> None:
    assert len(records) == HANDS
    for record in records:
        outcome = replay(record, check=True)  # the table's invariants after every event
        assert outcome.verdict == "ok", (record.key, outcome.problems)
        assert outcome.missed == (), (record.key, outcome.missed)  # bots never pass a win


def test_tiles_are_conserved(records: list[HandRecord]) -> None:
    variant = get_variant(VARIANT)
    full = sorted(variant.wall_tiles(variant.resolve_options()))
    for record in records:
        assert record.wall is not None
        dealt = [t for hand in record.deal for t in hand]
        assert sorted([*dealt, *record.wall]) == full
        assert len(record.wall) == len(full) - 13 * 4
        draws = sum(1 for e in record.events if type(e).kind == "draw")
        assert draws <= len(record.wall)


def test_games_rotate_the_deal_and_carry_scores(records: list[HandRecord]) -> None:
    games: dict[str, list[HandRecord]] = {}
    for record in records:
        games.setdefault(record.game, []).append(record)
    for hands in games.values():
        scores = [0, 0, 0, 0]
        for index, record in enumerate(hands):
            assert record.hand == index and record.dealer == index % 4
            assert list(record.scores_before or ()) == scores
            assert record.result is not None and record.result.deltas is not None
            assert sum(record.result.deltas) == 0
            scores = [s + d for s, d in zip(scores, record.result.deltas, strict=True)]


# ---------------------------------------------------------------- determinism


def test_same_seed_same_bytes_whatever_the_workers() -> None:
    one = _lines(48, seed=3)
    assert one == _lines(48, seed=3)
    assert one == _lines(48, seed=3, workers=2)
    assert one != _lines(48, seed=4)


# ---------------------------------------------------------------- how the bots play


def test_hands_look_like_mcr(records: list[HandRecord]) -> None:
    outcomes: Counter[str] = Counter()
    events: Counter[str] = Counter()
    fans: Counter[str] = Counter()
    for record in records:
        assert record.result is not None
        outcomes[record.result.outcome] += 1
        events.update(type(e).kind for e in record.events)
        for win in record.result.wins:
            assert win.total is not None and win.total >= 8
            fans.update(f.id for f in win.fans)
    assert 0.55 * HANDS < outcomes["win"] < 0.95 * HANDS
    assert outcomes["draw"] > 0
    assert {"draw", "discard", "flower", "chi", "pong", "win"} <= set(events)
    assert {"half_flush", "seven_pairs", "mixed_triple_chow", "self_drawn"} <= set(fans)


def test_styles_play_differently(records: list[HandRecord]) -> None:
    """Aggressive bots call far more than defensive ones and deal in more often."""
    style = {name: Style.for_player(name, i) for i, name in enumerate(DEFAULT_PLAYERS)}
    seats: Counter[Style] = Counter()
    calls: Counter[Style] = Counter()
    dealt_in: Counter[Style] = Counter()
    for record in records:
        styles = [style[p] for p in record.players]
        seats.update(styles)
        for event in record.events:
            if type(event).kind in ("chi", "pong", "kong"):
                calls[styles[event.seat]] += 1  # type: ignore[attr-defined]
        assert record.result is not None
        for win in record.result.wins:
            if win.from_seat is not None:
                dealt_in[styles[win.from_seat]] += 1

    def rate(counter: Counter[Style], s: Style) -> float:
        return counter[s] / seats[s]

    assert rate(calls, Style.AGGRESSIVE) > 3 * rate(calls, Style.DEFENSIVE)
    assert rate(dealt_in, Style.DEFENSIVE) < 0.8 * rate(dealt_in, Style.AGGRESSIVE)


def test_seats_get_the_pool_styles() -> None:
    job = game_jobs(VARIANT, 16, 1, DEFAULT_PLAYERS, {})[0]
    names, styles = seat_players(job, 4)
    assert [Style.for_player(n, DEFAULT_PLAYERS.index(n)) for n in names] == list(styles)


# ---------------------------------------------------------------- scenarios


@pytest.mark.parametrize("dealer", [0, 2])
def test_mcr88_scenarios_end_in_each_88_fan_hand(dealer: int) -> None:
    variant = get_variant(VARIANT)
    options = variant.resolve_options()
    scenarios = scenarios_of(variant, "mcr-88")
    assert tuple(s.name for s in scenarios) == MCR_88
    for scenario in scenarios:
        outcome = play_hand(variant, hand_rng(1, 0, dealer), _setup(scenario, dealer), options)
        assert outcome.verdict == "unrecorded" and not outcome.problems
        (win,) = outcome.wins
        assert win.seat == dealer and win.from_seat is None
        fans = {f.id: f.points for f in win.fans}
        assert fans.get(scenario.name) == 88, (scenario.name, fans)
        assert replay(outcome.record).wins == outcome.wins
        if scenario.name == "four_kongs":
            kinds = [type(e).kind for e in outcome.record.events]
            assert kinds.count("concealed_kong") == 4 and win.flags.kong_replacement


def test_scenarios_run_through_the_pipeline() -> None:
    scenarios = scenarios_of(get_variant(VARIANT), "mcr-88")
    lines = _lines(7, seed=2, scenarios=scenarios)
    for line, name in zip(lines, MCR_88, strict=True):
        record = _record(line)
        assert replay(record).verdict == "ok"
        assert record.result is not None
        assert name in {f.id for f in record.result.wins[0].fans}


def test_scenario_file(tmp_path: Path) -> None:
    path = tmp_path / "scenarios.json"
    path.write_text(
        json.dumps(
            [
                {"name": "nine gates", "seat": 1, "hand": "1112345678999p", "draws": ["9p"]},
                {
                    "name": "orphans",
                    "hand": ORPHANS_BY_NAME,
                },
            ]
        ),
        encoding="utf-8",
    )
    variant = get_variant(VARIANT)
    first, second = scenarios_of(variant, str(path))
    assert first == Scenario("nine gates", 1, tuple(parse_tiles("1112345678999p")), (17,))
    assert second.seat == 0 and second.draws == ()
    outcome = play_hand(variant, random.Random(5), _setup(first), variant.resolve_options())
    assert replay(outcome.record).verdict == "unrecorded"
    assert outcome.record.deal[1] == first.hand  # seat 1 counts from the dealer, seat 0
    (win,) = outcome.wins
    assert win.seat == 1 and "nine_gates" in {f.id for f in win.fans}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[]", "non-empty"),
        ('[{"hand": "123m"}]', "13"),
        ('[{"hand": "11111m23456789p"}]', "5 × 1m"),
        ('[{"hand": "1112345678999m", "draws": "1x"}]', "1x"),
        ('[{"hand": "1112345678999m", "wall": []}]', "unknown field"),
        ('[{"hand": "1112345678999m", "seat": 4}]', "seat 4"),
        ("{", "cannot read"),
    ],
)
def test_bad_scenarios_are_usage_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ScenarioError, match=message):
        scenarios_of(get_variant(VARIANT), str(path))
    with pytest.raises(VariantError, match="no scenario set"):
        scenarios_of(get_variant(VARIANT), "no-such-set")


# ---------------------------------------------------------------- the engine


def test_the_deal_is_fixed_by_the_random_source() -> None:
    variant = get_variant(VARIANT)
    options = variant.resolve_options()
    a = deal_tiles(variant, options, _setup(), random.Random(9))
    b = deal_tiles(variant, options, _setup(), random.Random(9))
    assert a == b and len(a.wall) == 144 - 52 and all(len(h) == 13 for h in a.hands)


def _dead_end_hand() -> SelfPlayHand:
    """A hand whose wall ends with a flower: whoever draws it cannot go on."""
    variant = get_variant(VARIANT)
    tiles = [t for t in variant.wall_tiles(variant.resolve_options()) if t < FLOWER_FIRST]
    random.Random(0).shuffle(tiles)
    hands = tuple(tuple(tiles[13 * i : 13 * i + 13]) for i in range(4))
    deal = Deal(hands, (tiles[52], tiles[53], FLOWER_FIRST))
    setup = _setup()
    return SelfPlayHand(
        variant,
        variant.resolve_options(),
        setup,
        deal,
        make_bots(variant, variant.resolve_options(), setup.styles),
    )


def test_a_flower_drawn_as_the_last_tile_ends_the_hand_in_a_draw() -> None:
    outcome = _dead_end_hand().play()
    assert outcome.outcome == "draw"
    assert [type(e).kind for e in outcome.record.events[-2:]] == ["draw", "flower"]
    assert replay(outcome.record).outcome == "draw"


# ---------------------------------------------------------------- the command


def test_cli_simulate_with_stats(tmp_path: Path) -> None:
    out = tmp_path / "mcr.paipu.jsonl"
    result = runner.invoke(
        app,
        [
            *("simulate", "--variant", "mcr", "--hands", "20", "--seed", "3"),
            *("--out", str(out), "--stats", "--quiet"),
        ],
    )
    assert result.exit_code == 0, result.output
    for title in ("outcomes", "win situations", "events", "fans / hand types"):
        assert title in result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == _lines(20, seed=3)
    audited = runner.invoke(app, ["audit", str(out), "--problems"])
    assert audited.exit_code == 0, audited.output
    assert "20 ok" in audited.output


def test_cli_simulate_scenarios(tmp_path: Path) -> None:
    out = tmp_path / "mcr88.paipu.jsonl"
    args = ["simulate", "-v", "mcr", "-n", "7", "-o", str(out), "--scenario", "mcr-88", "-q"]
    result = runner.invoke(app, [*args, "--stats"])
    assert result.exit_code == 0, result.output
    for name in MCR_88:
        assert name in result.output
    bad = runner.invoke(app, [*args[:-3], "--scenario", str(tmp_path / "missing.json")])
    assert bad.exit_code == 2


def test_full_shanten_tables_are_emptied_and_the_output_does_not_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Long runs empty the shanten tables once full, to bound memory: same bytes."""
    from paipu.rules import shanten

    shanten.clear_caches()
    expected = _lines(300, seed=8)
    grown = sum(shanten.cache_sizes().values())
    monkeypatch.setattr(shanten, "CACHE_ENTRIES", 2_000)
    assert shanten.caches_full()
    shanten.clear_caches()
    assert _lines(300, seed=8) == expected
    assert sum(shanten.cache_sizes().values()) < grown  # emptied at least once on the way
