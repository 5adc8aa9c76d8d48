"""哈尔滨麻将 replayed event by event: 听 and 吃听, the 宝 and 换宝, 截胡, the last tiles, the
escape penalty; every illegal record is refused with the rule named (a RuleViolation)."""

from __future__ import annotations

from typing import Any

import pytest

from paipu.rules.legal import MoveKind, claims
from paipu.rules.record import HandRecord
from paipu.rules.registry import get_variant
from paipu.rules.replay import RuleViolation
from tests.rules.harbin.harbin_helpers import play, record

#: Seat 1 holds 23m 456p 789p 11s 999s: on the dealer's 1m it may chi 123m and, discarding
#: 4p, wait on 4p and 7p (two suits, 9s, the 刻 999s and a 顺): a 吃听.
SEAT1 = "23m456p789p11s999s"
READY_CHI = [
    ["draw", 0, "1m"],
    ["discard", 0, "1m"],
    ["ready", 1],
    ["chi", 1, ["1m", "2m", "3m"]],
    ["discard", 1, "4p"],
]


def harbin(events: list[list[Any]], draws: str = "1m", **kw: Any) -> HandRecord:
    hands = kw.pop("hands", {1: SEAT1})
    return record(hands, draws, kw.pop("bao", "9m"), events, **kw)


def refused(rec: HandRecord) -> str:
    with pytest.raises(RuleViolation) as info:
        play(rec)
    return str(info.value)


def test_a_ready_chi_then_a_win_on_an_unready_discard_is_chu_chong() -> None:
    """吃听, then seat 2 (not ready) discards 7p: 出冲, seat 2 pays 3 and 包赔 the 站立 seats
    0 and 3 (3 each): the seed's row "b 未听; c, d 站立": +9 / −9."""
    out = play(
        harbin(
            [*READY_CHI, ["draw", 2, "7p"], ["discard", 2, "7p"], ["win", 1, "7p", {"from": 2}]],
            "1m7p",
        )
    )
    assert out.outcome == "win"
    assert out.deltas == (0, 9, -9, 0)
    assert [f.id for f in out.wins[0].fans] == ["ping_hu"]
    assert "ready_chi" in out.notes and "chu_chong" in out.notes


def test_ready_chi_is_listed_above_pong_and_chi() -> None:
    """胡 > 杠 > 吃听 > 碰 > 吃: the legal claims on the dealer's 1m."""
    from paipu.rules.variants import get_variant as variant_of

    rec = harbin(READY_CHI[:2])
    variant = variant_of("harbin")
    table = variant.new_table(rec, variant.resolve_options())
    for index, event in enumerate(rec.events):
        table.apply(index, event)
    moves = claims(table, 0, 0)
    kinds = [m.kind for m in moves if m.seat == 1]
    assert kinds[0] is MoveKind.READY_CHI
    assert MoveKind.CHI in kinds
    assert get_variant("harbin").spec.raw["claim_priority"] == [
        "win",
        "kong",
        "ready_chi",
        "pong",
        "chi",
    ]


def test_a_win_without_ready_declared_is_refused() -> None:
    events = [
        *READY_CHI[:2],
        READY_CHI[3],
        READY_CHI[4],
        ["draw", 2, "7p"],
        ["discard", 2, "7p"],
        ["win", 1, "7p", {"from": 2}],
    ]
    message = refused(harbin(events, "1m7p"))
    assert "false win (诈和)" in message and "报听" in message


def test_a_single_suit_hand_may_not_declare_and_the_rule_is_named() -> None:
    """清一色不能听: seat 1's hand is all 筒."""
    hands = {1: "23p456p789p11p999p"}
    events = [
        ["draw", 0, "1p"],
        ["discard", 0, "1p"],
        ["chi", 1, ["1p", "2p", "3p"]],
        ["discard", 1, "4p"],
        ["draw", 2, "5m"],
        ["discard", 2, "5m"],
        ["draw", 3, "5m"],
        ["discard", 3, "5m"],
        ["draw", 0, "5m"],
        ["discard", 0, "5m"],
        ["draw", 1, "6m"],
        ["ready", 1],
    ]
    message = refused(harbin(events, "1p5m5m5m6m", hands=hands))
    assert "cannot declare 听" in message and "two suits" in message
    ready_chi = [
        ["draw", 0, "1p"],
        ["discard", 0, "1p"],
        ["ready", 1],
        ["chi", 1, ["1p", "2p", "3p"]],
    ]
    assert "吃听" in refused(harbin(ready_chi, "1p", hands=hands))


def test_a_concealed_hand_may_not_declare() -> None:
    """开门: the dealer's concealed ready hand may not declare 听."""
    hands = {0: "123m456p789p11s99s"}
    message = refused(harbin([["draw", 0, "9s"], ["ready", 0]], "9s", hands=hands))
    assert "开门" in message


def test_a_ready_hand_may_not_change() -> None:
    """报听后: the seat discards what it draws, and may not pong."""
    events = [
        *READY_CHI,
        ["draw", 2, "5m"],
        ["discard", 2, "5m"],
        ["draw", 3, "5m"],
        ["discard", 3, "5m"],
        ["draw", 0, "5m"],
        ["discard", 0, "5m"],
        ["draw", 1, "6m"],
        ["discard", 1, "5p"],
    ]
    assert "may not change" in refused(harbin(events, "1m5m5m5m6m"))
    pong = [*READY_CHI, ["draw", 2, "1s"], ["discard", 2, "1s"], ["pong", 1, "1s"]]
    assert "no pong after 报听" in refused(harbin(pong, "1m1s"))


def test_a_ready_seat_may_kong_when_it_stays_ready() -> None:
    """听后杠: a concealed kong of 9s keeps seat 1 waiting on 4p and 7p."""
    events = [
        *READY_CHI,
        ["draw", 2, "5m"],
        ["discard", 2, "5m"],
        ["draw", 3, "5m"],
        ["discard", 3, "5m"],
        ["draw", 0, "5m"],
        ["discard", 0, "5m"],
        ["draw", 1, "9s"],
        ["concealed_kong", 1, "9s"],
        ["draw", 1, "2s"],
        ["discard", 1, "2s"],
        ["draw", 2, "7p"],
        ["discard", 2, "7p"],
        ["win", 1, "7p", {"from": 2}],
    ]
    out = play(harbin(events, "1m5m5m5m9s7p", tail="2s"))
    assert out.deltas == (0, 9, -9, 0)


def test_nearest_seat_takes_the_tile_jie_hu() -> None:
    """截胡 (no 一炮多响): seats 1 and 2 both wait on 7p; on seat 3's 7p seat 1, the first after
    seat 3 in turn but the dealer, takes it; seat 2's win is refused."""
    hands = {1: SEAT1, 2: "44p678m99m777z56p3s"}
    events = [
        *READY_CHI,
        ["pong", 2, "4p"],
        ["ready", 2],
        ["discard", 2, "3s"],
        ["draw", 3, "7p"],
        ["discard", 3, "7p"],
    ]
    message = refused(harbin([*events, ["win", 2, "7p", {"from": 3}]], "1m7p", hands=hands))
    assert "截胡" in message and "seat 1" in message
    out = play(harbin([*events, ["win", 1, "7p", {"from": 3}]], "1m7p", hands=hands))
    # seat 3 not ready: 出冲, 3 + 站立 seat 0 (3) + open seat 2 (1)
    assert out.deltas == (0, 7, 0, -7)


def test_touch_bao_a_ready_seat_draws_the_bao() -> None:
    """摸宝: seat 1, ready, draws a 9m (the 宝): each seat pays 3."""
    events = [
        *READY_CHI,
        ["draw", 2, "5m"],
        ["discard", 2, "5m"],
        ["draw", 3, "5m"],
        ["discard", 3, "5m"],
        ["draw", 0, "5m"],
        ["discard", 0, "5m"],
        ["draw", 1, "9m"],
        ["win", 1, "9m"],
    ]
    out = play(harbin(events, "1m5m5m5m9m"))
    assert [f.id for f in out.wins[0].fans] == ["touch_bao"]
    assert out.deltas == (-3, 9, -3, -3)


CHANGE = [
    *READY_CHI,
    ["draw", 2, "5m"],
    ["discard", 2, "5m"],
    ["draw", 3, "5m"],
    ["discard", 3, "5m"],
    ["draw", 0, "5m"],
    ["discard", 0, "5m"],
]


def test_bao_change_when_three_copies_are_visible() -> None:
    """换宝: three 5m discarded, the 宝 5m goes to the dealer's row, the new last tile (6s)
    is the 宝; seat 1 then wins by 摸宝 on a drawn 6s."""
    events = [
        *CHANGE,
        ["indicator", None, "6s", {"role": "bao"}],
        ["draw", 1, "6s"],
        ["win", 1, "6s"],
    ]
    out = play(harbin(events, "1m5m5m5m6s", bao="5m", tail="6s"))
    assert [f.id for f in out.wins[0].fans] == ["touch_bao"]
    assert "bao_change" in out.notes


def test_bao_change_is_due_and_only_when_due() -> None:
    skipped = [*CHANGE, ["draw", 1, "6s"]]
    assert "换宝 is due" in refused(harbin(skipped, "1m5m5m5m6s", bao="5m", tail="6s"))
    early = [*CHANGE[:7], ["indicator", None, "6s", {"role": "bao"}]]
    assert "换宝 only when 3 copies" in refused(harbin(early, "1m5m5m5m", bao="5m", tail="6s"))


def test_the_bao_is_the_walls_last_tile_and_comes_first() -> None:
    rec = harbin([["indicator", None, "8m", {"role": "bao"}]], with_indicator=False)
    assert "last tile of the wall" in refused(rec)
    assert "宝 is turned up" in refused(harbin([["draw", 0, "1m"]], with_indicator=False))
    wild = harbin([["indicator", None, "9m", {"role": "wild"}]], with_indicator=False)
    assert "harbin turns up no wild indicator" in refused(wild)


def test_the_last_tiles_are_drawn_in_turn_and_discarded() -> None:
    """最后四张: on a wall of five tiles (宝 excluded) the second draw starts the last four:
    the tile drawn is discarded, nobody claims it, and the wall runs out to a draw (荒庄)."""
    events = [["draw", 0, "1m"], ["discard", 0, "1m"], ["draw", 1, "5m"]]
    short = {"short": True, "tail": "5m6m7m8m"}
    assert "最后四张" in refused(harbin([*events, ["discard", 1, "2m"]], "1m", **short))
    out = play(
        harbin(
            [
                *events,
                ["discard", 1, "5m"],
                ["draw", 2, "6m"],
                ["discard", 2, "6m"],
                ["draw", 3, "7m"],
                ["discard", 3, "7m"],
                ["draw", 0, "8m"],
                ["discard", 0, "8m"],
            ],
            "1m",
            **short,
        )
    )
    assert out.outcome == "draw" and "last_tiles" in out.notes and out.deltas == (0, 0, 0, 0)
    # last_tiles = 0: the room plays the wall out as usual
    free = harbin([*events, ["discard", 1, "2m"]], "1m", rules={"last_tiles": 0}, **short)
    table_out = refused(free)  # the events stop before an ending: no rule of the last tiles
    assert "no ending" in table_out


def test_the_escape_penalty() -> None:
    """逃跑扣分: the seat that leaves loses 36 and nobody is paid; the hand ends."""
    out = play(harbin([["draw", 0, "1m"], ["escape", 0]]), check=False)
    assert out.deltas == (-36, 0, 0, 0)
    assert "escape" in out.notes
    assert "ended" in refused(harbin([["draw", 0, "1m"], ["escape", 0], ["discard", 0, "1m"]]))


def test_the_dealer_stays_on_his_win_or_a_draw_else_the_winner_deals() -> None:
    """连庄: the dealer wins or 荒庄 → he deals again; otherwise the winner deals."""
    from paipu.rules.selfplay import HandSetup, Style

    setup = HandSetup("harbin", "g", 0, ("A", "B", "C", "D"), (Style.BALANCED,) * 4, dealer=0)
    variant = get_variant("harbin")
    won = play(
        harbin(
            [*READY_CHI, ["draw", 2, "7p"], ["discard", 2, "7p"], ["win", 1, "7p", {"from": 2}]],
            "1m7p",
        )
    )
    assert variant.next_setup(setup, won).dealer == 1
    escaped = play(harbin([["draw", 0, "1m"], ["escape", 0]]), check=False)
    assert variant.next_setup(setup, escaped).dealer == 0
