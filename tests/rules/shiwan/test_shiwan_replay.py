"""十万麻将 on the replay table, event by event: hands counted on the 1–10 tile set, a chi of
8-9-10 accepted and 9-10-1 refused with the rule named, pongs of tens, the core's waits over
ten ranks, the legal moves' runs, and a win on a ten settled as the options say.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import pytest
from shiwan_helpers import V, apply_all, record, t

from paipu.rules import legal
from paipu.rules.legal import MoveKind
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.tiles import N_KINDS, standard_set, tile_names
from paipu.rules.variants import get_variant

#: South holds 8m 9m for a chi of East's 10m, then waits on 10s alone; West holds 10s.
HANDS = {
    0: "01m246p246s234z00p",
    1: "89m123p567s111z0s4z",
    2: "1357m357p139s23z0s",
}
CHI_ROUND = [
    ["draw", 0, "4z"],
    ["discard", 0, "10m"],
    ["chi", 1, ["8m", "9m", "10m"]],
    ["discard", 1, "4z"],
]


def test_the_table_counts_hands_on_the_ten_rank_set() -> None:
    table = apply_all(record(HANDS, []))
    assert table.kind_count == 45 and len(table.seats[0].hand) == 45 and len(table.visible) == 45
    assert table.seats[0].hand[t("10m")] == 1 and table.seats[0].hand[t("10p")] == 2
    assert tile_names(table.seats[1].concealed())[:3] == ["8m", "9m", "1p"]
    other = get_variant("zhuanzhuan")
    wall = tile_names(standard_set(honors=False))
    rec = HandRecord.from_json(
        {
            "paipu": 1,
            "variant": "zhuanzhuan",
            "game": "x",
            "hand": 0,
            "players": ["A", "B", "C", "D"],
            "dealer": 0,
            "deal": [wall[13 * k : 13 * k + 13] for k in range(4)],
            "events": [],
        }
    )
    standard = other.new_table(rec, other.resolve_options())
    assert standard.kind_count == N_KINDS and standard.tile_set is None
    assert len(standard.seats[0].hand) == N_KINDS


def test_a_chi_of_8_9_10_is_legal_and_listed() -> None:
    before = apply_all(record(HANDS, CHI_ROUND[:2]))
    moves = legal.claims(before, t("10m"), 0)
    chis = [m for m in moves if m.kind is MoveKind.CHI]
    assert [tile_names(m.tiles) for m in chis] == [["8m", "9m", "10m"]]
    table = apply_all(record(HANDS, CHI_ROUND))
    (meld,) = table.seats[1].melds
    assert tile_names(meld.tiles) == ["8m", "9m", "10m"] and meld.from_seat == 0
    assert table.seats[1].waits == (t("10s"),)


def test_a_chi_of_9_10_1_is_refused_with_the_rule_named() -> None:
    hands = {**HANDS, 1: "19m123p567s111z0s4z"}
    events = [*CHI_ROUND[:2], ["chi", 1, ["9m", "10m", "1m"]]]
    with pytest.raises(RuleViolation) as caught:
        apply_all(record(hands, events))
    error = caught.value
    assert error.index == 2 and "10 and 1 are not connected" in error.rule
    assert "8-9-10 is a chow" in str(error)
    assert legal.claims(apply_all(record(hands, events[:2])), t("10m"), 0) == []


def test_runs_over_ten_ranks_for_each_rank_of_the_claimed_tile() -> None:
    """8m claimed with 6m 7m 9m 10m in hand: 6-7-8, 7-8-9 and 8-9-10; 10m with 9m 1m: none."""
    hands = {0: "8m246p246s234z00p2m", 1: "6790m123p567s111z"}
    table = apply_all(record(hands, [["draw", 0, "4z"], ["discard", 0, "8m"]]))
    runs = [tile_names(m.tiles) for m in legal.claims(table, t("8m"), 0) if m.kind is MoveKind.CHI]
    assert runs == [["6m", "7m", "8m"], ["7m", "8m", "9m"], ["8m", "9m", "10m"]]


def test_a_pong_of_a_ten_and_a_discard_win_on_a_ten() -> None:
    events = [
        *CHI_ROUND,
        ["draw", 2, "4m"],
        ["discard", 2, "10s"],
        ["win", 1, "10s", {"from": 2}],
    ]
    result = {
        "outcome": "win",
        "wins": [{"seat": 1, "from": 2, "total": 1}],
        "deltas": [0, 1, -1, 0],
    }
    outcome = replay(record(HANDS, events, result=result), check=True)
    assert outcome.verdict == "ok", outcome.problems
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["basic_win"] and win.tile == t("10s")
    everyone = replay(record(HANDS, events, rules={"discard_payer": "everyone"}))
    assert everyone.deltas == (-1, 3, -1, -1)
    pong = [*CHI_ROUND, ["draw", 2, "4m"], ["discard", 2, "4m"], ["draw", 3, "1s"]]
    pong_hands = {**HANDS, 3: "0p2468m2468p4455s"}
    events = [*pong, ["discard", 3, "10p"]]
    table = apply_all(record(pong_hands, events))
    claims = legal.claims(table, t("10p"), 3)
    assert [(m.seat, m.kind) for m in claims] == [(0, MoveKind.PONG)]
    table = apply_all(record(pong_hands, [*events, ["pong", 0, "10p"], ["discard", 0, "2p"]]))
    assert tile_names(table.seats[0].melds[0].tiles) == ["10p"] * 3
    assert table.visible[t("10p")] == 3


def test_tiles_outside_the_set_are_refused() -> None:
    with pytest.raises(RuleViolation, match="7z is not a tile of shiwan"):
        apply_all(record(HANDS, [["draw", 0, "7z"]]))
    with pytest.raises(RuleViolation, match="does not hold 5z"):
        apply_all(record(HANDS, [["draw", 0, "4z"], ["discard", 0, "5z"]]))
    with pytest.raises(RuleViolation, match="events do not exist in shiwan"):
        apply_all(record(HANDS, [["draw", 0, "4z"], ["flower", 0, "1f"]]))


def test_waits_over_ten_ranks() -> None:
    table = apply_all(record({0: "89m123p567s111z0s0s"}, []))
    assert tile_names(table.seats[0].waits) == ["7m", "10m"]
    table = apply_all(record({0: "90m123p567s111z0s0s"}, []))
    assert tile_names(table.seats[0].waits) == ["8m"]  # 10-1 does not connect: no 1m wait


def test_a_self_draw_on_a_ten() -> None:
    events = [["draw", 0, "10m"], ["win", 0, "10m"]]
    outcome = replay(record({0: "89m123p567s111z0s0s"}, events), check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["basic_win", "self_draw"]
    assert outcome.deltas == (3, -1, -1, -1)
    assert outcome.record.variant == V
