"""转转麻将: the digest's worked example, hand-checked scores and hands, birds counted from the
dealer (the 海底 tile as the bird), 漏胡, kong money and its timing, no chi.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import pytest
from regional_helpers import (
    ADDED_KONG_ROUND,
    PASSED_WIN_HANDS,
    PASSED_WIN_ROUND,
    PONG_OF_4P,
    Scripted,
    apply_all,
    ev,
    record,
    request,
    scripted_hand,
    t,
)

from paipu.rules.replay import RuleViolation
from paipu.rules.score import score_json
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.variants import get_variant
from paipu.rules.variants.zhuanzhuan.settlement import zhuanzhuan_win_deltas

V = "zhuanzhuan"
PLAIN = "123m456m789m11p46p"  # ready on 5p, any pair


def score(hand: str, win: str, **fields: object) -> object:
    return score_json(request(V, hand, win, **fields))


# ---------------------------------------------------------------------- the worked example


def test_worked_example() -> None:
    """West self-draws with 4 birds: 9条 → East, 3万 → West, 6筒 → South, 7万 → West.
    East and South pay 2 × (1 + 3), North 2 × (1 + 2): West +22."""
    answer = score(
        PLAIN, "5p", seat=2, rules={"birds": 4}, extra={"birds": ["9s", "3m", "6p", "7m"]}
    )
    assert answer.legal
    assert [f.id for f in answer.fans] == ["ping_hu", "self_draw"]
    assert answer.total == 2
    assert answer.deltas == (-8, -8, 22, -6)


def test_worked_example_with_the_seed_s_arithmetic() -> None:
    """The seed: 4 birds all hitting pay 2 × 4 = 8 per payer (×max(1, hits))."""
    answer = score(
        PLAIN,
        "5p",
        seat=2,
        rules={"birds": 4, "bird_mode": "seed_literal"},
        extra={"birds": ["3m", "7m", "3p", "7p"]},  # all four on West, the winner
    )
    assert answer.deltas == (-8, -8, 24, -8)


def test_worked_example_hand_with_its_concealed_kong() -> None:
    """West 暗杠s early (+2 from each) and later self-draws; birds from the dealer."""
    outcome = scripted_hand(
        V,
        {2: "1111s123m456m78m5p"},  # West: 暗杠 1条, ready on 6m / 9m
        [
            Scripted(wins=[]),
            Scripted(wins=[]),
            Scripted(kongs=["1s"], wins=["9m"]),
            Scripted(wins=[]),
        ],
        {0: "2s", 1: "2s", 2: "5p3s4p9m", 3: "2s"},
        rules={"birds": 4},
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile) == (2, None, t("9m"))
    bird = outcome.record.events[-1]
    assert type(bird).kind == "bird"
    assert len(bird.tiles) == 4
    expected = zhuanzhuan_win_deltas(4, 2, None, 0, birds=bird.tiles)
    assert win.deltas == expected
    kong = (-2, -2, 6, -2)
    assert outcome.deltas == tuple(a + b for a, b in zip(expected, kong, strict=True))


# ---------------------------------------------------------------------- hand-checked scores


def test_a_discard_win_costs_the_discarder_one() -> None:
    answer = score(PLAIN, "5p", seat=1, **{"from": 0})
    assert [f.id for f in answer.fans] == ["ping_hu"]
    assert (answer.total, answer.deltas) == (1, (-1, 1, 0, 0))
    # birds from the dealer: 1m on East (the discarder), 2m on South (the winner): ×(1 + 2)
    hit = score(PLAIN, "5p", seat=1, extra={"birds": ["1m", "2m"]}, **{"from": 0})
    assert hit.deltas == (-3, 3, 0, 0)
    # a bird on a seat that does not pay does nothing
    miss = score(PLAIN, "5p", seat=1, extra={"birds": ["3m", "4m"]}, **{"from": 0})
    assert miss.deltas == (-1, 1, 0, 0)
    three = score(PLAIN, "5p", seat=1, rules={"dianpao_units": 3}, **{"from": 0})
    assert three.deltas == (-3, 3, 0, 0)


def test_robbing_a_kong_counts_as_a_self_draw_the_konger_pays() -> None:
    fields = {"seat": 1, "from": 3, "flags": {"robbing_kong": True}}
    answer = score(PLAIN, "5p", **fields)
    assert [f.id for f in answer.fans] == ["ping_hu", "robbing_kong"]
    assert answer.deltas == (0, 6, 0, -6)
    each = score(PLAIN, "5p", rules={"rob_payer": "each"}, **fields)
    assert each.deltas == (-2, 6, -2, -2)
    none = score(PLAIN, "5p", rules={"rob_kong": False}, **fields)
    assert not none.legal


def test_seven_pairs_only_with_the_option() -> None:
    assert not score("1122m3344p5566s7s", "7s").legal
    answer = score("1122m3344p5566s7s", "7s", rules={"seven_pairs": True})
    assert [f.id for f in answer.fans] == ["seven_pairs", "self_draw"]
    assert answer.deltas == (6, -2, -2, -2)


def test_any_pair_wins() -> None:
    assert score("123m456m789m99s46p", "5p", **{"from": 2}).legal


def test_self_draw_only_and_zuo_piao() -> None:
    assert not score(PLAIN, "5p", rules={"self_draw_only": True}, **{"from": 2}).legal
    assert score(PLAIN, "5p", rules={"self_draw_only": True}).legal
    piao = score(PLAIN, "5p", rules={"zuo_piao": 1})
    assert piao.deltas == (12, -4, -4, -4)  # 2 + 飘 1 + 飘 1


def test_no_honours_no_chi() -> None:
    assert (
        "chi is not allowed"
        in score("456m789m11p46p", "5p", melds=[("chi", "123m", 3)], **{"from": 3}).error
    )


# ---------------------------------------------------------------------- replay

ZH = PASSED_WIN_HANDS
ROUND = [
    *PASSED_WIN_ROUND,
    ["draw", 0, "4p"],
    ["discard", 0, "4p"],
]


def test_louhu_a_passed_win_locks_the_seat() -> None:
    with pytest.raises(RuleViolation, match="漏胡"):
        apply_all(record(V, ZH, ev(*ROUND, ["win", 1, "4p", {"from": 0}])))
    table = apply_all(
        record(V, ZH, ev(*ROUND, ["win", 1, "4p", {"from": 0}]), rules={"missed_win_lock": "off"})
    )
    assert table.wins[0].seat == 1


def test_louhu_any_tile_option() -> None:
    """With any_tile, a passed win locks every discard win until the seat draws."""
    events = ev(*ROUND[:8], ["draw", 0, "1m"])
    table = apply_all(record(V, ZH, events, rules={"missed_win_lock": "any_tile"}))
    assert table.state.lock.locks[1]


PONG = PONG_OF_4P
ROUND_AFTER_PONG = ADDED_KONG_ROUND


def test_added_kong_money_when_it_stands_and_none_when_robbed() -> None:
    table = apply_all(record(V, ZH, ev(*PONG, *ROUND_AFTER_PONG, ["draw", 3, "5m"])))
    (kong,) = table.state.kong_money.kongs
    assert kong.payments == ((0, 3, 1), (1, 3, 1), (2, 3, 1))
    robbed = apply_all(
        record(
            V, ZH, ev(*PONG, *ROUND_AFTER_PONG, ["win", 1, "4p", {"from": 3}]), rules={"birds": 0}
        )
    )
    assert not robbed.state.kong_money.kongs
    (win,) = robbed.wins
    assert win.source == "robbing_kong"
    assert win.deltas == (0, 6, 0, -6)


def test_exposed_and_concealed_kong_money() -> None:
    hands = {**ZH, 3: "234m66m88m444p789p"}
    table = apply_all(
        record(
            V,
            hands,
            ev(["draw", 0, "4p"], ["discard", 0, "4p"], ["kong", 3, "4p"], ["draw", 3, "5m"]),
        )
    )
    assert table.state.kong_money.kongs[0].payments == ((0, 3, 3),)
    hands = {**ZH, 0: "1357m999m19p2468s"}
    table = apply_all(record(V, hands, ev(["draw", 0, "9m"], ["concealed_kong", 0, "9m"])))
    assert table.state.kong_money.kongs[0].payments == ((1, 0, 2), (2, 0, 2), (3, 0, 2))


def test_an_added_kong_is_declared_on_the_draw_of_its_fourth_tile() -> None:
    hands = {**ZH, 3: "234m66m88m444p789p"}
    events = ev(
        ["draw", 0, "4p"],
        ["discard", 0, "4p"],
        ["pong", 3, "4p"],
        ["discard", 3, "7p"],
        *ROUND_AFTER_PONG[:6],
        ["draw", 3, "1m"],
        ["added_kong", 3, "4p"],
    )
    with pytest.raises(RuleViolation, match="过时不候"):
        apply_all(record(V, hands, events))
    table = apply_all(record(V, hands, events, rules={"strict_kongs": False}))
    assert table.phase.value == "rob"


def test_no_chi_in_zhuanzhuan() -> None:
    events = ev(["draw", 0, "5p"], ["discard", 0, "3m"], ["chi", 1, ["1m", "2m", "3m"]])
    with pytest.raises(RuleViolation, match="chi events do not exist"):
        apply_all(record(V, ZH, events))


def test_the_haidi_tile_is_the_bird() -> None:
    """North self-draws the last tile of the wall (海底胡): the bird is that tile."""
    north = "555m666m777m88m99m" + "5p"  # 13 tiles that do not win, then 5p
    outcome = scripted_hand(
        V,
        {
            0: "111m222m333m444m1p",
            1: "222p333p777p888p9p",
            2: "111s222s333s1p9p4m8m",
            3: "123s456s789s99s46p",
        },
        [
            Scripted(wins=[]),
            Scripted(wins=[]),
            Scripted(wins=[]),
            Scripted(wins=["5p"], self_draw_only=True, haidi=True),  # 要海底
        ],
        {3: north},
    )
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.tile) == (3, None, t("5p"))
    assert win.flags.last_tile
    assert [f.id for f in win.fans] == ["ping_hu", "self_draw", "last_tile"]
    bird = outcome.record.events[-1]
    assert bird.tiles == (t("5p"),)  # 5p: rank 5 → (5 − 1) mod 4 = 0 → the dealer
    assert win.deltas == (-4, -2, -2, 8)
    setup = HandSetup(V, "g", 0, ("a", "b", "c", "d"), (Style.BALANCED,) * 4, dealer=0)
    assert get_variant(V).next_setup(setup, outcome).dealer == 3
