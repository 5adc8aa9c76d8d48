"""Simulate: play games of bots in worker processes and write paipu logs, deterministically.

Game ``g`` of a run is played from :func:`~paipu.rules.selfplay.hand_rng` (seed, g, hand)
alone, so games can be spread over processes and written back in order: the same seed
gives byte-identical output whatever ``jobs`` is. Each hand the variant plays is replayed
by the rules engine before it is written; its ``result`` is what the engine computed.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from paipu.parsers.paipu import dumps
from paipu.rules.record import HandRecord, RecordedFan, RecordedResult, RecordedWin
from paipu.rules.replay import HandOutcome, RuleViolation
from paipu.rules.selfplay import HandSetup, Scenario, Style, hand_rng
from paipu.rules.variants import get_variant
from paipu.selfplay import play_hand

EPOCH = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)
DEFAULT_PLAYERS = ("Ann", "Bo", "Chen", "Dai", "Emi", "Fang")


class SimulationError(RuntimeError):
    """A bot produced a hand the rules engine rejects: a bug in the simulator."""


@dataclass
class SimulationStats:
    """How often each hand type and each event kind occurred."""

    hands: int = 0
    games: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    fans: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    wins_per_hand: Counter[int] = field(default_factory=Counter)
    flags: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)  # special rule paths (outcome notes)

    def add(self, outcome: HandOutcome) -> None:
        self.hands += 1
        self.outcomes[outcome.outcome] += 1
        self.wins_per_hand[len(outcome.wins)] += 1
        for event in outcome.record.events:
            self.events[type(event).kind] += 1
        for win in outcome.wins:
            for fan in win.fans:
                self.fans[fan.id] += 1
            for flag in ("last_tile", "kong_replacement", "robbing_kong", "last_of_kind"):
                if getattr(win.flags, flag):
                    self.flags[flag] += 1
            self.flags["self_drawn" if win.from_seat is None else "discard_win"] += 1
        self.rules.update(outcome.notes)

    def merge(self, other: SimulationStats) -> None:
        self.hands += other.hands
        self.games += other.games
        for name in ("outcomes", "fans", "events", "wins_per_hand", "flags", "rules"):
            getattr(self, name).update(getattr(other, name))


@dataclass(frozen=True, slots=True)
class GameJob:
    variant: str
    seed: int
    game: int
    hands: int
    pool: tuple[str, ...]
    rules: Mapping[str, Any]
    scenarios: tuple[Scenario, ...] = ()


def seat_players(job: GameJob, players: int) -> tuple[tuple[str, ...], tuple[Style, ...]]:
    """Who sits where in this game: drawn from the pool by the game's own random source."""
    rng = hand_rng(job.seed, job.game, -1)
    indexes = (
        rng.sample(range(len(job.pool)), players)
        if len(job.pool) >= players
        else [i % len(job.pool) for i in range(players)]
    )
    names = tuple(job.pool[i] for i in indexes)
    styles = tuple(Style.for_player(job.pool[i], i) for i in indexes)
    return names, styles


def with_result(record: HandRecord, outcome: HandOutcome) -> HandRecord:
    """The record with its ``result`` set to what the engine computed."""
    wins = tuple(
        RecordedWin(
            w.seat,
            w.from_seat,
            w.tile,
            w.total,
            tuple(RecordedFan(f.id, f.points, f.count) for f in w.fans),
        )
        for w in outcome.wins
    )
    from dataclasses import replace

    return replace(record, result=RecordedResult(outcome.outcome, wins, outcome.deltas))


def play_game(job: GameJob) -> tuple[list[str], SimulationStats]:
    """Play one game; return its hands as paipu lines, and its statistics."""
    variant = get_variant(job.variant)
    options = variant.resolve_options(job.rules)
    # A variant with a `players` option (zipai: 2, 3 or 4) seats that many; others their TOML's.
    names, styles = seat_players(job, int(options.get("players", variant.spec.players)))
    setup = HandSetup(
        variant=job.variant,
        game=f"sim-{job.variant}-{job.seed}-{job.game:06d}",
        hand=0,
        players=names,
        styles=styles,
        dealer=0,
        scores_before=(0,) * len(names),
        rules=dict(job.rules),
    )
    lines: list[str] = []
    stats = SimulationStats(games=1)
    for hand in range(job.hands):
        start = EPOCH + dt.timedelta(hours=job.game * 3, minutes=hand * 4)
        scenario = (
            job.scenarios[(job.game * job.hands + hand) % len(job.scenarios)]
            if (job.scenarios)
            else None
        )
        setup = HandSetup(
            **{
                **_fields(setup),
                "time": start.isoformat().replace("+00:00", "Z"),
                "scenario": scenario,
            }
        )
        try:
            # The bots act through the variant's replay table, which checks every event.
            outcome = play_hand(variant, hand_rng(job.seed, job.game, hand), setup, options)
        except RuleViolation as exc:  # the simulator must only write legal hands
            raise SimulationError(f"game {job.game} hand {hand}: {exc}") from exc
        record = with_result(outcome.record, outcome)
        lines.append(dumps(record))
        stats.add(outcome)
        scores = tuple(s + d for s, d in zip(setup.scores_before, outcome.deltas, strict=True))
        setup = variant.next_setup(setup, outcome).next(scores_before=scores)
    return lines, stats


def _fields(setup: HandSetup) -> dict[str, Any]:
    return {name: getattr(setup, name) for name in HandSetup.__slots__}


def game_jobs(
    variant: str,
    hands: int,
    seed: int,
    pool: Sequence[str],
    rules: Mapping[str, Any],
    scenarios: Sequence[Scenario] = (),
) -> list[GameJob]:
    """Split ``hands`` into games of the variant's length."""
    per_game = int(get_variant(variant).spec.raw.get("game_hands", 8))
    jobs = []
    game = 0
    left = hands
    while left > 0:
        n = min(per_game, left)
        jobs.append(GameJob(variant, seed, game, n, tuple(pool), dict(rules), tuple(scenarios)))
        left -= n
        game += 1
    return jobs


def simulate(
    jobs_list: Sequence[GameJob], workers: int = 1
) -> Iterator[tuple[list[str], SimulationStats]]:
    """Play the games, yielding each game's lines in game order."""
    if workers <= 1:
        for job in jobs_list:
            yield play_game(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        window: list[Future[tuple[list[str], SimulationStats]]] = []
        pending = iter(jobs_list)
        for job in pending:
            window.append(pool.submit(play_game, job))
            if len(window) >= 2 * workers:
                yield window.pop(0).result()
        for future in window:
            yield future.result()
