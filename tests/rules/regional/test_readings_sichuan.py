"""四川: the readings of issue 21 — 呼叫转移 moves all the konger's kong income
(``call_transfer``), 地胡 is a self-draw on one's own first draw (``earthly_win``), 换三张
(``exchange_three``).

Hands written and worked by hand. Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest
from regional_helpers import apply_all, ev, record, request

from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, simulate
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.score import score_json
from paipu.rules.tiles import counts, parse_tiles

V = "sichuan"
VOIDS = [["void", 0, "s"], ["void", 1, "m"], ["void", 2, "m"], ["void", 3, "s"]]


def net(payments: Iterable[tuple[int, int, int]], players: int = 4) -> list[int]:
    out = [0] * players
    for payer, receiver, amount in payments:
        out[payer] -= amount
        out[receiver] += amount
    return out


# ---------------------------------------------------------------------- 呼叫转移

# East (void 条) 暗杠s 1筒 and 9筒 (+2 from each seat, twice), draws 3条 on the second
# replacement, must discard it (his void suit) and South wins on it: 平胡 × 杠上炮 = ×2.
TRANSFER_HANDS = {
    0: "1111p9999p23456m",
    1: "123s456s789s88p12s",  # void 万, waits on 3条
}
TRANSFER = [
    *VOIDS,
    ["draw", 0, "7m"],
    ["concealed_kong", 0, "1p"],
    ["draw", 0, "8m"],
    ["concealed_kong", 0, "9p"],
    ["draw", 0, "3s"],
    ["discard", 0, "3s"],
    ["win", 1, "3s", {"from": 0}],
]


def transfer_table(rules: dict[str, object] | None = None) -> object:
    return apply_all(record(V, TRANSFER_HANDS, ev(*TRANSFER), rules=rules))


def test_call_transfer_moves_all_the_kongers_kong_income_by_default() -> None:
    """all_kongs (the source): both kongs' 12 go to South. Kong money: West and North pay
    4 each to South (South's own 4 come back to it), East keeps nothing; the win: East 2."""
    table = transfer_table()
    (win,) = table.wins
    assert {f.id for f in win.fans} == {"ping_hu", "kong_discard"}
    assert (win.total, win.deltas) == (2, (-2, 2, 0, 0))
    assert [k.moved_to for k in table.state.kong_money.kongs] == [1, 1]
    assert net(table.state.kong_money.transfers()) == [0, 8, -4, -4]
    assert {"hu_jiao_zhuan_yi", "hu_jiao_zhuan_yi:several_kongs"} <= set(table.notes)


def test_call_transfer_last_kong_moves_only_the_kong_just_made() -> None:
    """last_kong: East keeps the 6 of 1筒; the 6 of 9筒 go to South (4 from West and North)."""
    table = transfer_table({"call_transfer": "last_kong"})
    assert [k.moved_to for k in table.state.kong_money.kongs] == [None, 1]
    assert net(table.state.kong_money.transfers()) == [6, 2, -4, -4]
    assert "hu_jiao_zhuan_yi:several_kongs" not in table.notes


def test_without_hu_jiao_zhuan_yi_nothing_moves() -> None:
    table = transfer_table({"hu_jiao_zhuan_yi": False})
    assert [k.moved_to for k in table.state.kong_money.kongs] == [None, None]
    assert net(table.state.kong_money.transfers()) == [12, -4, -4, -4]


def test_call_transfer_in_a_score_request() -> None:
    """``extra.kong_income`` (the discarder's income per kong) → the answer's
    ``extra.call_transfer``; the deltas stay the win's own."""
    fields = {"seat": 1, "from": 0, "extra": {"void": "m", "kong_discard": True}}
    base = request(V, "123s456s789s88p12s", "3s", **fields)
    base["extra"]["kong_income"] = [6, 6]
    answer = score_json(base)
    assert answer.error is None, answer.error
    assert (answer.total, answer.deltas) == (2, (-2, 2, 0, 0))
    assert answer.extra["call_transfer"] == 12
    assert score_json({**base, "rules": {"call_transfer": "last_kong"}}).extra["call_transfer"] == 6
    assert "call_transfer" not in score_json({**base, "rules": {"hu_jiao_zhuan_yi": False}}).extra
    bad = request(V, "123s456s789s88p12s", "3s", seat=1, extra={"void": "m", "kong_income": [6]})
    assert "杠上炮" in score_json(bad).error
    worse = {**base, "extra": {**base["extra"], "kong_income": [-1]}}
    assert "kong_income" in score_json(worse).error


# ---------------------------------------------------------------------- 地胡

EARTHLY_HANDS = {
    0: "123m456m789m1p2p5p9p",
    1: "123456789s1p1p9p9p",  # void 万, ready on 1p / 9p
    2: "123s456s789s4p6p8p8p",
    3: "234567m888m4p6p2p2p",
}
FIRST_DISCARD = [*VOIDS, ["draw", 0, "3p"], ["discard", 0, "5p"]]


@pytest.mark.parametrize("reading", ["first_draw", "first_draw_or_first_discard"])
def test_earthly_win_on_ones_own_first_draw(reading: str) -> None:
    """South self-draws 9筒 on its first draw, nothing claimed: 地胡 ×32 under both
    readings; every other seat pays 32 + 1 (自摸加底)."""
    events = [*FIRST_DISCARD, ["draw", 1, "9p"], ["win", 1, "9p"]]
    table = apply_all(record(V, EARTHLY_HANDS, ev(*events), rules={"earthly_win": reading}))
    (win,) = table.wins
    assert [f.id for f in win.fans] == ["earthly"]
    assert win.deltas == (-33, 99, -33, -33)


def test_a_win_on_the_dealers_first_discard_is_earthly_only_with_the_option() -> None:
    """West wins 5筒 off East's first discard (平胡 ×1); 地胡 ×32 only when the room also
    counts the dealer's first discard."""
    hands = {**EARTHLY_HANDS, 2: "123s456s789s4p6p8p8p"}
    events = [*FIRST_DISCARD, ["win", 2, "5p", {"from": 0}]]
    plain = apply_all(record(V, hands, ev(*events)))
    assert [f.id for f in plain.wins[0].fans] == ["ping_hu"]
    assert plain.wins[0].deltas == (-1, 0, 1, 0)
    wide = apply_all(
        record(V, hands, ev(*events), rules={"earthly_win": "first_draw_or_first_discard"})
    )
    assert [f.id for f in wide.wins[0].fans] == ["earthly"]
    assert wide.wins[0].deltas == (-32, 0, 32, 0)


def test_earthly_in_a_score_request() -> None:
    hand = "123s456s789s4p6p8p8p"
    self_drawn = request(V, hand, "5p", seat=2, extra={"void": "m", "earthly": True})
    answer = score_json(self_drawn)
    assert (answer.total, answer.deltas) == (32, (-33, -33, 99, -33))
    on_discard = {**self_drawn, "from": 0}
    assert "earthly_win = first_draw" in score_json(on_discard).error
    wide = score_json({**on_discard, "rules": {"earthly_win": "first_draw_or_first_discard"}})
    assert (wide.total, wide.deltas) == (32, (-32, 0, 32, 0))


# ---------------------------------------------------------------------- 换三张

EXCHANGE_HANDS = {
    0: "123m456m789m3344p",
    1: "111p234p567s8899s",
    2: "345m678p12399s55s",
    3: "999m555p666s777s2m",
}
PASSED = [["1m", "2m", "3m"], ["8s", "8s", "9s"], ["6p", "7p", "8p"], ["5p", "5p", "5p"]]
NEXT = ["exchange", None, "next", {"tiles": PASSED}]
EXCHANGE_VOIDS = [["void", 0, "s"], ["void", 1, "m"], ["void", 2, "p"], ["void", 3, "p"]]
ON = {"exchange_three": "next"}


def test_three_tiles_of_one_suit_pass_to_the_next_seat_all_at_once() -> None:
    table = apply_all(record(V, EXCHANGE_HANDS, ev(NEXT, *EXCHANGE_VOIDS), rules=ON))
    after = {
        0: "456m789m3344555p",
        1: "123m111p234p567s9s",
        2: "345m1235588999s",
        3: "999m2m678p666777s",
    }
    for seat, tiles in after.items():
        assert table.seats[seat].hand == counts(parse_tiles(tiles)), seat
    assert "exchange:next" in table.notes
    # the dice may choose any direction; a room's direction is the only one it plays
    dice = {"exchange_three": "dice"}
    back = ["exchange", None, "previous", {"tiles": PASSED}]
    assert apply_all(record(V, EXCHANGE_HANDS, ev(back, *EXCHANGE_VOIDS), rules=dice))


@pytest.mark.parametrize(
    ("events", "rules", "rule"),
    [
        ([NEXT, *EXCHANGE_VOIDS], {}, "option exchange_three = off"),
        ([NEXT, *EXCHANGE_VOIDS], {"exchange_three": "across"}, "passes across .*not next"),
        ([*EXCHANGE_VOIDS, NEXT], ON, "换三张 comes first: the exchange event is missing"),
        ([NEXT, NEXT], ON, "换三张 happens once a hand"),
        (
            [["exchange", None, "next", {"tiles": [["1m", "2m", "3p"], *PASSED[1:]]}]],
            ON,
            "seat 0 passes three tiles of one suit, not 12m3p",
        ),
        (
            [["exchange", None, "next", {"tiles": [["1m", "1m", "2m"], *PASSED[1:]]}]],
            ON,
            "seat 0 passes 1m, which it does not hold",
        ),
        ([["exchange", None, "next", {"tiles": PASSED[:3]}]], ON, "every seat passes three"),
    ],
)
def test_the_exchange_is_checked(events: list, rules: dict[str, str], rule: str) -> None:
    with pytest.raises(RuleViolation, match=rule):
        apply_all(record(V, EXCHANGE_HANDS, ev(*events), rules=rules))


def test_self_play_passes_three_tiles_and_every_hand_audits_ok() -> None:
    directions: set[str] = set()
    jobs = game_jobs(V, 30, 9, DEFAULT_PLAYERS, {"exchange_three": "dice"})
    for lines, _stats in simulate(jobs):
        for line in lines:
            obj = json.loads(line)
            (exchange,) = [e for e in obj["events"] if e[0] == "exchange"]
            assert obj["events"].index(exchange) < min(
                i for i, e in enumerate(obj["events"]) if e[0] == "void"
            )
            directions.add(exchange[2])
            for tiles in exchange[3]["tiles"]:
                assert len({t[-1] for t in tiles}) == 1  # one suit
            assert replay(HandRecord.from_json(obj)).verdict == "ok"
    assert directions == {"next", "previous", "across"}


# ---------------------------------------------------------------------- 血流成河

# South (void 万) waits on 2条 or 3条 with 1112条; East (void 条) must throw its 3条 first.
XUELIU_HANDS = {
    0: "123m456m789m66p7p3s",
    1: "1112s345s678s999p",
    2: "111p222p333p444p5p",
    3: "555m666m777m88p9m9m",
}
XUELIU_VOIDS = [["void", 0, "s"], ["void", 1, "m"], ["void", 2, "m"], ["void", 3, "s"]]
FIRST_WIN = [*XUELIU_VOIDS, ["draw", 0, "8m"], ["discard", 0, "3s"], ["win", 1, "3s", {"from": 0}]]
ROUND = [
    ["draw", 2, "5p"],
    ["discard", 2, "5p"],
    ["draw", 3, "4m"],
    ["discard", 3, "4m"],
    ["draw", 0, "8m"],
    ["discard", 0, "8m"],
]
XUELIU = {"mode": "xueliu"}


def test_under_xueliu_a_winner_plays_on_and_wins_again() -> None:
    """South wins on East's 3条, sets it aside, plays on with 1112条 and wins again on East's
    2条; each win is paid by its discarder, and South is never out."""
    second = [["draw", 1, "9s"], ["discard", 1, "9s"], ["draw", 2, "6p"], ["discard", 2, "6p"]]
    again = [["draw", 3, "3m"], ["discard", 3, "3m"], ["draw", 0, "2s"], ["discard", 0, "2s"]]
    events = [*FIRST_WIN, *ROUND, *second, *again, ["win", 1, "2s", {"from": 0}]]
    table = apply_all(record(V, XUELIU_HANDS, ev(*events), rules=XUELIU))
    south = table.seats[1]
    assert [(w.seat, w.from_seat, w.tile) for w in table.wins] == [
        (1, 0, t) for t in parse_tiles("3s2s")
    ]
    assert south.set_aside == parse_tiles("3s2s") and not south.won
    assert south.hand == counts(parse_tiles("1112s345s678s999p"))
    assert table.state.play_on.wins == [0, 2, 0, 0]
    assert "win_again" in table.notes
    for win in table.wins:
        assert win.deltas[1] > 0 and win.deltas[0] == -win.deltas[1]
    # under 血战到底 South has left after its first win
    with pytest.raises(RuleViolation, match="seat 1 has already won and left the hand"):
        apply_all(record(V, XUELIU_HANDS, ev(*FIRST_WIN, *ROUND, ["draw", 1, "9s"])))


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        (
            [["draw", 2, "9p"], ["discard", 2, "9p"], ["pong", 1, "9p"]],
            "claims nothing but a win",
        ),
        ([*ROUND, ["draw", 1, "9s"], ["discard", 1, "1s"]], "discards the tile it drew, 9s"),
        ([*ROUND, ["draw", 1, "1s"], ["concealed_kong", 1, "1s"]], "would change its waits"),
    ],
)
def test_a_winner_playing_on_keeps_its_hand(events: list, rule: str) -> None:
    """胡后不换牌: no claims but wins, each draw discarded, no kong that changes the waits."""
    with pytest.raises(RuleViolation, match=rule):
        apply_all(record(V, XUELIU_HANDS, ev(*FIRST_WIN, *events), rules=XUELIU))


def test_self_play_of_xueliu_wins_again_and_audits_ok() -> None:
    again = 0
    for lines, _stats in simulate(game_jobs(V, 40, 4, DEFAULT_PLAYERS, XUELIU)):
        for line in lines:
            obj = json.loads(line)
            outcome = replay(HandRecord.from_json(obj))
            assert outcome.verdict == "ok", outcome.problems
            seats = [w.seat for w in outcome.wins]
            again += len(seats) - len(set(seats))
            assert not obj["wall"] or outcome.outcome in ("win", "draw")
    assert again > 0
