"""转转: the reading of issue 21 — 坐飘 added to every payment the seed names ("在胡牌或输游戏币
给其他玩家后"), kong money included (``piao_on = "every_payment"``), beside the reading
before (``wins``: the win shares only).

Hands written and worked by hand. Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import pytest
from regional_helpers import apply_all, ev, record, request

from paipu.rules.mechanics.kong_money import with_bonus
from paipu.rules.score import score_json

V = "zhuanzhuan"
ZH = {
    0: "135m79m19p2468s99s",
    1: "123s456s789s22p35p",  # ready on 4p
    2: "2468m3678p1135s7s",
    3: "234m66m88m44p6789p",
}
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


PONG = [["draw", 0, "4p"], ["discard", 0, "4p"], ["pong", 3, "4p"], ["discard", 3, "6p"]]
ROUND_AFTER_PONG = [
    ["draw", 0, "1m"],
    ["discard", 0, "1m"],
    ["draw", 1, "9m"],
    ["discard", 1, "9m"],
    ["draw", 2, "9p"],
    ["discard", 2, "9p"],
    ["draw", 3, "4p"],
    ["added_kong", 3, "4p"],
]


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
