"""The ready declaration (rules/mechanics/ready.py) on its own, in a test variant built from
a TOML string: 136 tiles, every call, 吃听 in the claim order, any ready hand may declare
(no condition), and a win needs no declaration (an optional 听, as Hebei's)."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from paipu.rules.events import Event, Ready
from paipu.rules.legal import MoveKind, claims
from paipu.rules.mechanics.ready import ReadyDeclaration
from paipu.rules.record import HandRecord
from paipu.rules.registry import VariantSpec
from paipu.rules.replay import Handler, RuleViolation, Table, VariantState, replay
from paipu.rules.score import ScoreAnswer, ScoreRequest
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.shanten import is_complete
from paipu.rules.tiles import Tile, counts, parse_tiles, standard_set, tile_names
from paipu.rules.variants import Options, Variant
from paipu.selfplay.bots.regional import make_bots
from paipu.selfplay.loop import play_hand

TOML = """
id = "readytest"
name_zh = "报听测试"
name_en = "Ready test"
players = 4
hand_size = 13
tiles = { suited = true, honors = true, flowers = false }
calls = ["chi", "pong", "kong", "added_kong", "concealed_kong"]
claim_priority = ["win", "kong", "ready_chi", "pong", "chi"]
shapes = ["standard"]
events = ["ready"]

[bot]
family = "regional"
steps = ["ready"]
chi = true
"""


class ReadyState(VariantState):
    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.ready = ReadyDeclaration(table)

    def handlers(self) -> dict[type[Event], Handler]:
        return {Ready: self.ready.declare}

    def before(self, event: Event) -> bool:
        self.ready.before(event)
        return False

    def after(self, event: Event) -> None:
        self.ready.after(event)

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        return self.ready.move_problem(seat, kind, tile)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        return self.ready.discard_problem(seat, tile)

    def ready_seats(self) -> tuple[int, ...]:
        return self.ready.seats()

    def ready_pending(self, seat: int) -> bool:
        return self.ready.pending == seat

    def ready_discards(self, seat: int) -> tuple[Tile, ...]:
        if self.ready.pending == seat or self.ready.may_declare(seat):
            return self.ready.discards(seat)
        return ()

    def ready_chi_runs(
        self, seat: int, tile: Tile, runs: list[tuple[Tile, ...]]
    ) -> list[tuple[Tile, ...]]:
        return self.ready.chi_runs(seat, tile, runs)


class ReadyTest(Variant):
    """Any four sets and a pair; 1 from each loser."""

    id = "readytest"

    def __init__(self) -> None:
        self.spec = VariantSpec.from_data(self.id, tomllib.loads(TOML))

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        if not is_complete(counts([*request.hand, request.win_tile]), len(request.melds)):
            return ScoreAnswer(legal=False, reason="not a winning hand")
        deltas = [-1] * 4
        deltas[request.seat] = 3
        return ScoreAnswer(legal=True, total=1, fans=(), deltas=tuple(deltas))

    def new_state(self, table: Table) -> ReadyState:
        return ReadyState(table)


VARIANT = ReadyTest()
#: Seat 0 deals 123m 456p 789s 11z 23s: after a draw of 9m it may declare, discarding 9m, and
#: wait on 1s and 4s. Seat 1 holds 23m 456p 789p 111s 99s: on a 1m it may chi 123m and,
#: discarding 9s, wait on 9s (吃听); on its own turn, a 7z drawn and discarded, it waits on
#: 1m and 4m. The other seats hold what is left once the tests' draws are set aside.
SEATS = ["123m456p789s11z23s", "23m456p789p111s99s"]
DRAWN = "9m6666m7z9s1s1m8m"


def _deal() -> list[str]:
    pool = standard_set(honors=True)
    for tile in parse_tiles("".join(SEATS) + DRAWN):
        pool.remove(tile)
    random.Random(5).shuffle(pool)
    return [*SEATS, *("".join(tile_names(sorted(pool[k * 13 : (k + 1) * 13]))) for k in range(2))]


DEAL = _deal()


def record(events: list[list[Any]], wall: list[str] | None = None) -> HandRecord:
    obj: dict[str, Any] = {
        "paipu": 1,
        "variant": "readytest",
        "game": "t",
        "hand": 0,
        "players": ["A", "B", "C", "D"],
        "dealer": 0,
        "deal": DEAL,
        "events": events,
    }
    if wall is not None:
        obj["wall"] = wall
    return HandRecord.from_json(obj)


def table_after(events: list[list[Any]]) -> Table:
    rec = record(events)
    table = Table(rec, VARIANT, VARIANT.resolve_options())
    for index, event in enumerate(rec.events):
        table.apply(index, event)
    return table


def refused(events: list[list[Any]]) -> str:
    with pytest.raises(RuleViolation) as info:
        table_after(events)
    return str(info.value)


def test_a_declaration_then_the_hand_does_not_change() -> None:
    table = table_after([["draw", 0, "9m"], ["ready", 0], ["discard", 0, "9m"]])
    state = table.state
    assert isinstance(state, ReadyState) and state.ready_seats() == (0,)
    assert state.ready.declaring_discard == 0
    assert "leaves a hand it" in refused([["draw", 0, "9m"], ["ready", 0], ["discard", 0, "1m"]])
    moves = [
        ["draw", 0, "9m"],
        ["ready", 0],
        ["discard", 0, "9m"],
        ["draw", 1, "6m"],
        ["discard", 1, "6m"],
        ["draw", 2, "6m"],
        ["discard", 2, "6m"],
        ["draw", 3, "6m"],
        ["discard", 3, "6m"],
        ["draw", 0, "8m"],
    ]
    assert "may not change" in refused([*moves, ["discard", 0, "1m"]])
    table = table_after([*moves, ["discard", 0, "8m"]])
    assert table.state is not None and table.state.ready_seats() == (0,)
    assert table.state.ready.declaring_discard is None


def test_ready_chi_is_listed_and_declared_with_the_chi() -> None:
    events = [["draw", 0, "1m"], ["discard", 0, "1m"]]
    table = table_after(events)
    listed = [m for m in claims(table, parse_tiles("1m")[0], 0) if m.seat == 1]
    # seat 1 already waits on 1m: 胡 first, then 吃听, then the plain chis
    assert [m.kind for m in listed][:2] == [MoveKind.WIN, MoveKind.READY_CHI]
    assert listed[1].tiles == tuple(parse_tiles("123m"))
    assert listed[-1].kind is MoveKind.CHI
    done = table_after(
        [*events, ["ready", 1], ["chi", 1, ["1m", "2m", "3m"]], ["discard", 1, "9s"]]
    )
    assert done.state is not None and done.state.ready_seats() == (1,)
    assert "its chi must follow" in refused([*events, ["ready", 1], ["draw", 1, "6m"]])
    assert "only on its own turn" in refused([["draw", 0, "1m"], ["ready", 2]])


def test_kongs_that_keep_the_hand_ready_only() -> None:
    """Seat 1, ready on 1m and 4m, may not pong; a concealed kong of 1s keeps it waiting."""
    events = [
        ["draw", 0, "6m"],
        ["discard", 0, "6m"],
        ["draw", 1, "7z"],
        ["ready", 1],
        ["discard", 1, "7z"],
        ["draw", 2, "6m"],
        ["discard", 2, "6m"],
        ["draw", 3, "6m"],
        ["discard", 3, "6m"],
        ["draw", 0, "9s"],
        ["discard", 0, "9s"],
    ]
    assert "no pong after 报听" in refused([*events, ["pong", 1, "9s"]])
    table = table_after([*events, ["draw", 1, "1s"], ["concealed_kong", 1, "1s"]])
    assert table.state is not None and table.state.ready_seats() == (1,)


def test_self_play_with_the_ready_step() -> None:
    setup = HandSetup(
        variant="readytest",
        game="t",
        hand=0,
        players=("A", "B", "C", "D"),
        styles=(Style.BALANCED,) * 4,
    )
    options = VARIANT.resolve_options()
    declared = 0
    for seed in range(6):
        out = play_hand(
            VARIANT,
            options,
            setup,
            random.Random(seed),
            lambda: make_bots(VARIANT, options, setup.styles),
        )
        again = replay(out.record, VARIANT)
        assert again.deltas == out.deltas
        declared += sum(1 for e in out.record.events if isinstance(e, Ready))
    assert declared > 0
