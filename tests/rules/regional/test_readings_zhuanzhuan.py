"""转转: the readings of issue 21 — 坐飘 added to every payment the seed names ("在胡牌或输游戏币
给其他玩家后"), kong money included (``piao_on = "every_payment"``), beside the reading
before (``wins``: the win shares only); 要海底 (``haidi = "choose"``, seed 2.3C: "如果有人要了
海底牌后却没人胡则要海底牌的玩家下局当庄家"), beside the reading before (``next_seat``).

Hands written and worked by hand. Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from regional_helpers import (
    ADDED_KONG_ROUND,
    PASSED_WIN_HANDS,
    PONG_OF_4P,
    Scripted,
    apply_all,
    ev,
    record,
    request,
    scripted_hand,
    t,
)

from paipu.rules.events import Discard, Draw
from paipu.rules.mechanics.kong_money import with_bonus
from paipu.rules.replay import HandOutcome, RuleViolation, replay
from paipu.rules.score import score_json
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.variants import get_variant

V = "zhuanzhuan"
ZH = PASSED_WIN_HANDS
PIAO = {"zuo_piao": 1}


@pytest.mark.parametrize(("piao_on", "bonus"), [("every_payment", 2), ("wins", 0)])
def test_kong_money_carries_both_seats_piao(piao_on: str, bonus: int) -> None:
    """飘 1 each: a 直杠 costs the feeder 3 + 1 + 1, a 暗杠 each other seat 2 + 1 + 1 — with
    every_payment; with wins the kong money is as without 飘."""
    rules = {**PIAO, "piao_on": piao_on}
    hands = {**ZH, 3: "234m66m88m444p789p"}
    events = ev(["draw", 0, "4p"], ["discard", 0, "4p"], ["kong", 3, "4p"], ["draw", 3, "5m"])
    table = apply_all(record(V, hands, events, rules=rules))
    assert table.state.kong_money.kongs[0].payments == ((0, 3, 3 + bonus),)
    assert ("zuo_piao:kong" in table.notes) == bool(bonus)
    hands = {**ZH, 0: "1357m999m19p2468s"}
    table = apply_all(
        record(V, hands, ev(["draw", 0, "9m"], ["concealed_kong", 0, "9m"]), rules=rules)
    )
    assert table.state.kong_money.kongs[0].payments == tuple((s, 0, 2 + bonus) for s in (1, 2, 3))


PONG = PONG_OF_4P
ROUND_AFTER_PONG = ADDED_KONG_ROUND


def test_an_added_kong_with_piao_and_its_robbery() -> None:
    """North 补杠s 4筒: 1 + 2 from each other seat. Had South robbed it (抢杠胡, a self-draw
    whose three shares North pays): 3 × (2 + 2), and no kong money."""
    rules = {**PIAO, "birds": 0}
    table = apply_all(record(V, ZH, ev(*PONG, *ROUND_AFTER_PONG, ["draw", 3, "5m"]), rules=rules))
    assert table.state.kong_money.kongs[0].payments == ((0, 3, 3), (1, 3, 3), (2, 3, 3))
    robbed = apply_all(
        record(V, ZH, ev(*PONG, *ROUND_AFTER_PONG, ["win", 1, "4p", {"from": 3}]), rules=rules)
    )
    assert not robbed.state.kong_money.kongs
    assert robbed.wins[0].deltas == (0, 12, 0, -12)


def test_the_win_shares_carry_piao_under_both_readings() -> None:
    for piao_on in ("every_payment", "wins"):
        answer = score_json(
            request(V, "123m456m789m11p46p", "5p", rules={**PIAO, "piao_on": piao_on})
        )
        assert answer.deltas == (12, -4, -4, -4)  # 2 + 飘 1 + 飘 1 from each


def test_with_bonus() -> None:
    assert with_bonus({"kong": 3, "added_kong": 1, "concealed_kong": 2}, 0) == {
        "kong": 3,
        "added_kong": 1,
        "concealed_kong": 2,
    }


# ---------------------------------------------------------------------- 要海底 (haidi)

#: North is ready on 5p (13 tiles that do not win, then 5p: the wall's last tile); nobody
#: else wins. East deals.
HAIDI_HANDS = {
    0: "111m222m333m444m1p",
    1: "222p333p777p888p9p",
    2: "111s222s333s1p9p4m8m",
    3: "123s456s789s99s46p",
}
HAIDI_DRAWS = {3: "555m666m777m88m99m" + "5p"}


def _haidi_hand(takes: list[bool], north_wins: bool = True, **rules: Any) -> HandOutcome:
    """The hand played to its end: each seat takes 海底 as ``takes`` says."""
    players = [Scripted(wins=[], haidi=takes[s]) for s in range(3)]
    north = ["5p"] if north_wins else []
    players.append(Scripted(wins=north, self_draw_only=True, haidi=takes[3]))
    draws = HAIDI_DRAWS if north_wins else None
    return scripted_hand(V, HAIDI_HANDS, players, draws, rules={"birds": 2, **rules})


def _next_dealer(outcome: HandOutcome) -> int:
    setup = HandSetup(V, "g", 0, ("a", "b", "c", "d"), (Style.BALANCED,) * 4, dealer=0)
    return get_variant(V).next_setup(setup, outcome).dealer


def test_haidi_taken_and_won() -> None:
    """North takes 海底 (要海底) and self-draws on it (海底胡): the bird is the 海底 tile 5p,
    rank 5 from the dealer → East, so East pays 2 × 2 and the others 2; North deals next."""
    outcome = _haidi_hand([False, False, False, True])
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile) == (3, None, t("5p"))
    assert [f.id for f in win.fans] == ["ping_hu", "self_draw", "last_tile"]
    assert outcome.record.events[-1].tiles == (t("5p"),)
    assert win.deltas == (-4, -2, -2, 8)
    assert _next_dealer(outcome) == 3


def test_haidi_declined_by_all() -> None:
    """Nobody takes 海底, North included (he would have won on it): the hand is drawn with the
    last tile unseen, no draw event for it, and the dealer stays (seed 2.3: only a taker
    deals)."""
    outcome = _haidi_hand([False] * 4)
    assert outcome.outcome == "draw"
    assert not outcome.wins
    wall = outcome.record.wall
    assert wall is not None
    drawn = [e for e in outcome.record.events if isinstance(e, Draw)]
    assert len(drawn) == len(wall) - 1
    assert _next_dealer(outcome) == 0
    # The same log under the reading before (next_seat) is one draw short.
    with pytest.raises(RuleViolation):
        replay(replace(outcome.record, rules={**outcome.record.rules, "haidi": "next_seat"}))


def test_haidi_taker_who_does_not_win_deals_next() -> None:
    """West takes 海底 and nobody wins: West deals next (seed 2.3C). Unlike Changsha the
    taker need not discard the 海底 tile itself."""
    outcome = _haidi_hand([False, False, True, False], north_wins=False)
    assert outcome.outcome == "draw"
    last_draw = [e for e in outcome.record.events if isinstance(e, Draw)][-1]
    assert last_draw.seat == 2
    assert _next_dealer(outcome) == 2
    events = outcome.record.events
    table = apply_all(replace(outcome.record, events=events[:-1]))
    last = events[-1]
    assert isinstance(last, Discard)
    other = next(x for x in range(27) if table.seats[2].hand[x] and x != last_draw.tile)
    replay(replace(outcome.record, events=(*events[:-1], Discard(2, other))))


def test_haidi_next_seat_is_the_reading_before() -> None:
    """haidi = next_seat: the last tile goes to the next seat, who cannot pass it; North,
    next after West, draws it and wins."""
    outcome = _haidi_hand([False] * 4, haidi="next_seat")
    (win,) = outcome.wins
    assert (win.seat, win.tile) == (3, t("5p"))
    assert win.deltas == (-4, -2, -2, 8)


def test_haidi_notes_for_the_statistics() -> None:
    """paipu simulate --stats counts 要海底 by the outcome's notes."""
    assert "haidi:taken" in _haidi_hand([False, False, False, True]).notes
    assert _haidi_hand([False] * 4).notes.count("haidi:declined") == 1
    assert not {"haidi:taken", "haidi:declined"} & set(
        _haidi_hand([False] * 4, haidi="next_seat").notes
    )
