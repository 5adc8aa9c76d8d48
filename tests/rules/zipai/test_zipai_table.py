"""The zipai replay table: legal moves pass, every broken rule is named.

The base deal (zipai_helpers.BASE), dealer seat 0:

* seat 0: 一二三五六七八九十十 壹贰叁肆伍陆柒捌玖拾
* seat 1: 一一一 (坎) 二三 五五 六七八 壹壹 叁肆伍陆 捌捌 玖拾
* seat 2: 二三 四四四 (坎) 六 七七 八九十 贰贰 叁肆伍陆 柒柒 玖

The wall starts with the cards a test names (the dealer's 21st card first).
"""

from __future__ import annotations

import pytest
from zipai_helpers import BASE, apply_all, play, record

from paipu.rules.events import EventError, decode
from paipu.rules.melds import MeldKind
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.tiles import parse_tile
from paipu.rules.variants.zipai_chenzhou.table import Phase

DRAW = ["draw", 0, "1d"]

# Seat 1 holds six 坎 and a pair of 七; the 七 it flips completes a hand of 21 xi.
SIX_KAN = {1: "11122233344455566677x"}
# The dealer holds the same: its 21st card 七 is a 天胡.
HEAVENLY = {0: "11122233344455566677x"}


def _fails(
    events: list, message: str, hands: dict | None = None, head: str = "1d", **kwargs: object
) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        apply_all(hands or BASE, head, events, **kwargs)
    assert message in info.value.rule, info.value.rule
    return info.value


# ---------------------------------------------------------------- forced moves


def test_pao_on_a_discard_is_forced() -> None:
    """Seat 1 holds 一一一: the dealer's 一 must be 跑'd; nothing else may happen first."""
    events = [DRAW, ["discard", 0, "1x"]]
    error = _fails([*events, ["flip", 1, "2x"]], "seat 1 must 跑 (pao) 一 first")
    assert error.index == 2 and "跑 cannot be declined" in error.rule
    _fails([*events, ["peng", 2, "1x"]], "seat 1 must 跑 (pao) 一 first")
    table = apply_all(BASE, "1d", [*events, ["pao", 1, "1x"], ["discard", 1, "9d"]])
    assert table.seats[1].melds[0].kind is MeldKind.PAO
    assert table.seats[1].melds[0].from_seat == 0
    assert table.phase is Phase.OFFER and table.offer.card == 9 + 55 - 1  # 玖 on the table


def test_wei_on_ones_own_flip_is_forced() -> None:
    """Seat 1 holds 五五 and flips 五: it must 偎, then discard."""
    events = [DRAW, ["discard", 0, "1d"], ["flip", 1, "5x"]]
    head = "1d 5x"
    _fails([*events, ["flip", 2, "2x"]], "seat 1 must 偎 (wei) 五 first", head=head)
    _fails([*events, ["pao", 1, "5x"]], "the forced move on 五 is seat 1's 偎 (wei)", head=head)
    _fails([*events, ["peng", 1, "5x"]], "seat 1 cannot 碰 its own card", head=head)
    table = apply_all(BASE, head, [*events, ["wei", 1, "5x"]])
    assert table.must_discard(1)
    _fails([*events, ["wei", 1, "5x"], ["flip", 2, "2x"]], "must discard first", head=head)


def test_ti_on_ones_own_flip_of_a_kan_is_forced() -> None:
    events = [DRAW, ["discard", 0, "1d"], ["flip", 1, "10d"], ["flip", 2, "4x"]]
    head = "1d 10d 4x"
    _fails([*events, ["flip", 0, "2x"]], "seat 2 must 提 (ti) 四 first", head=head)
    _fails([*events, ["pao", 2, "4x"]], "is seat 2's 提 (ti), not seat 2's 跑", head=head)
    table = apply_all(BASE, head, [*events, ["ti", 2, "4x"]])
    assert [m.kind for m in table.seats[2].melds] == [MeldKind.TI]
    assert table.must_discard(2)  # the first 提 is followed by a discard


def test_pao_without_a_kan_is_refused() -> None:
    _fails([DRAW, ["discard", 0, "2x"], ["pao", 1, "2x"]], "seat 1 cannot 跑 二")


# ---------------------------------------------------------------- 吃, 比, 碰, 臭牌


def test_chi_must_lay_every_copy_with_bi() -> None:
    """Seat 1 holds 五五 and 吃s the dealer's 五 with 六七: its other two 五 must go into a
    further set (比): 五五伍."""
    events = [DRAW, ["discard", 0, "5x"]]
    _fails([*events, ["chi", 1, ["5x", "6x", "7x"]]], "比: seat 1 still holds 五")
    _fails([*events, ["chi", 2, ["5x", "6x", "7x"]]], "吃'd only by the next seat, not seat 2")
    legal = ["chi", 1, ["5x", "6x", "7x"], {"bi": [["5x", "5x", "5d"]]}]
    table = apply_all(BASE, "1d", [*events, legal])
    melds = table.seats[1].melds
    assert [(m.kind, m.from_seat) for m in melds] == [(MeldKind.CHI, 0), (MeldKind.CHI, None)]
    assert table.must_discard(1)


def test_chi_cannot_split_a_kan() -> None:
    """一二三 with the 一 of seat 1's 坎 一一一 is not allowed."""
    _fails(
        [DRAW, ["discard", 0, "2x"], ["chi", 1, ["1x", "2x", "3x"]]],
        "does not hold 一三 outside its 坎",
    )


def test_chi_of_a_declined_card_is_chou() -> None:
    """Seat 2 could 吃 the first 拾 (贰柒拾) and let it pass: the second is 臭牌 for it."""
    head = "1d 10d 4x 2x 10d"
    events = [
        DRAW,
        ["discard", 0, "1d"],
        ["flip", 1, "10d"],  # seat 2 could 吃 贰柒拾
        ["flip", 2, "4x"],
        ["ti", 2, "4x"],
        ["discard", 2, "9x"],
        ["flip", 0, "2x"],
        ["flip", 1, "10d"],
    ]
    error = _fails([*events, ["chi", 2, ["2d", "7d", "10d"]]], "拾 is 臭牌 for seat 2", head=head)
    assert error.index == 8
    first = apply_all(BASE, head, [*events[:3], ["chi", 2, ["2d", "7d", "10d"]]])
    assert first.seats[2].melds[0].tiles == (56, 61, 64)


def test_ones_own_discard_is_chou() -> None:
    """Seat 2 碰s the dealer's 七 and discards 玖: 玖 is 臭 for it from then on."""
    events = [DRAW, ["discard", 0, "7x"], ["peng", 2, "7x"]]
    table = apply_all(BASE, "1d", events)
    assert table.seats[2].melds[0].kind is MeldKind.PENG
    table = apply_all(BASE, "1d", [*events, ["discard", 2, "9d"]])
    assert table.seats[2].chou == {18}  # 玖: big, rank 9


def test_a_kan_card_cannot_be_discarded() -> None:
    events = [DRAW, ["discard", 0, "7x"], ["peng", 2, "7x"], ["discard", 2, "4x"]]
    _fails(events, "四 is in seat 2's 坎 (three alike dealt), which cannot be broken")


# ---------------------------------------------------------------- turns


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([["discard", 0, "1d"]], "the hand has not started"),
        ([DRAW, ["discard", 1, "9d"]], "seat 1 may not discard now (seat 0 is to discard)"),
        ([DRAW, ["flip", 1, "2x"]], "seat 0 holds a card too many and must discard first"),
        ([DRAW, ["discard", 0, "1d"], ["flip", 2, "2x"]], "seat 1 flips next, not seat 2"),
        ([DRAW, ["discard", 0, "1d"], ["flip", 1, "3x"]], "the stock gives 二 here, not 三"),
        ([["draw", 0, "2x"]], "the stock gives 壹 here, not 二"),
        ([["draw", 1, "1d"]], "the dealer (seat 0) takes the first card"),
        (
            [DRAW, ["discard", 0, "1d"], ["flip", 1, "2x"], ["draw", 2, "3x"]],
            "only the dealer's 21st card is drawn in private",
        ),
        ([DRAW, ["discard", 0, "4x"]], "seat 0 does not hold 四"),
        ([DRAW, ["xiang_gong", 0]], "seat 0 can still discard 一"),
        ([DRAW, ["pong", 1, "1d"]], "pong events do not exist in zipai_chenzhou"),
        ([DRAW, ["piao", 0, 1]], "飘 is not played in this hand"),
    ],
)
def test_moves_out_of_turn(events: list, message: str) -> None:
    _fails(events, message)


def test_piao_comes_first_from_every_seat() -> None:
    rules = {"piao": "2-3-5"}
    _fails([DRAW], "seat 0 has not chosen its 飘", rules=rules)
    _fails([["piao", 0, 4]], "飘 is one of 0, 2, 3, 5, not 4", rules=rules)
    table = apply_all(
        BASE, "1d", [["piao", 0, 5], ["piao", 1, 0], ["piao", 2, 2], DRAW], rules=rules
    )
    assert [s.piao for s in table.seats] == [5, 0, 2]


# ---------------------------------------------------------------- 开垄


FOUR_DEALT = {**BASE, 2: "34444677890x 223456779d"}  # seat 2: 四四四四, no 二


def test_dealt_four_alike_is_declared_before_the_first_discard() -> None:
    _fails(
        [DRAW, ["discard", 0, "1d"]],
        "seat 2 holds four 四 and must declare 提 (开垄",
        hands=FOUR_DEALT,
    )
    _fails([["ti", 2, "4x"]], "开垄 comes after the dealer's 21st card", hands=FOUR_DEALT)
    table = apply_all(FOUR_DEALT, "1d", [DRAW, ["ti", 2, "4x"], ["discard", 0, "1d"]])
    assert table.seats[2].melds[0].kind is MeldKind.TI
    assert table.rest(2) == 20  # the first 提 does not change the count at rest


def test_dealt_four_alike_at_ones_own_turn() -> None:
    rules = {"open_ti": "own_turn"}
    events = [DRAW, ["discard", 0, "1d"], ["flip", 1, "2x"]]
    _fails([*events, ["flip", 2, "3x"]], "before its first move", hands=FOUR_DEALT, rules=rules)
    apply_all(FOUR_DEALT, "1d", [*events, ["ti", 2, "4x"], ["flip", 2, "3x"]], rules=rules)
    _fails(
        [*events, ["ti", 2, "4x"], ["flip", 2, "3x"], ["ti", 2, "4x"]],
        "the card on the table is 三, not 四",
        hands=FOUR_DEALT,
        rules=rules,
    )


# ---------------------------------------------------------------- wins


def test_false_win() -> None:
    events = [DRAW, ["discard", 0, "1d"]]
    _fails([*events, ["win", 2, "1d", {"from": 0}]], "false win (诈和): ")
    _fails([*events, ["win", 2, "1d", {"from": 1}]], "壹 was discarded by seat 0: the win needs")
    _fails([*events, ["win", 0, "1d", {"from": 0}]], "seat 0 cannot win on its own discard")
    _fails([DRAW, ["win", 1, "1d"]], "seat 1 cannot win now")


def test_win_on_ones_own_flip() -> None:
    """Six 坎 (6 × 3) and 七七 + one's own 七 (偎 3) = 21 xi, 5 囤, 6 red: 5 from each."""
    events = [DRAW, ["discard", 0, "10d"], ["flip", 1, "7x"]]
    outcome = play(SIX_KAN, "1d 7x", [*events, ["win", 1, "7x"]])
    assert outcome.outcome == "win"
    win = outcome.wins[0]
    assert (win.seat, win.from_seat, win.total, win.fans) == (1, None, 21, ())
    assert outcome.deltas == (-5, 10, -5)
    _fails(
        [*events, ["win", 1, "7x", {"from": 1}]],
        "is a self-draw (自摸): leave 'from' out",
        hands=SIX_KAN,
        head="1d 7x",
    )


def test_win_on_a_discard_and_its_discard_fact() -> None:
    """七七 + the dealer's 七 is 碰 (1): 19 xi, 4 囤; the dealer pays 4 × 3."""
    outcome = play(SIX_KAN, "1d", [DRAW, ["discard", 0, "7x"], ["win", 1, "7x", {"from": 0}]])
    assert outcome.wins[0].total == 19
    assert outcome.deltas == (-12, 12, 0)
    (fact,) = outcome.discards
    assert (fact.seat, fact.won_on, fact.opponent_can_win) == (0, True, (True, False))
    assert fact.opponent_ready == (True, False)


def test_heavenly_win() -> None:
    """The dealer's 21st card completes seven 坎-like sets: 天胡, paid as a self-draw."""
    outcome = play(HEAVENLY, "7x", [["draw", 0, "7x"], ["win", 0, "7x"]])
    assert (outcome.wins[0].total, outcome.wins[0].from_seat) == (21, None)
    assert outcome.deltas == (10, -5, -5)


@pytest.mark.parametrize(
    ("dealt", "card"),
    [("11112223334445556667x", "7x"), ("11122233344455566677x", "1x")],
)
def test_heavenly_win_after_kailong(dealt: str, card: str) -> None:
    """提 一 (9) + five 坎 (15) + pair 七七: 24 xi, 6 囤, 5 red: 6 from each. The 21st card
    may be the one that made the 提."""
    events = [["draw", 0, card], ["ti", 0, "1x"], ["win", 0, card]]
    outcome = play({0: dealt}, card, events)
    assert (outcome.wins[0].total, outcome.wins[0].tile) == (24, parse_tile(card))
    assert outcome.deltas == (12, -6, -6)


def test_must_win() -> None:
    events = [DRAW, ["discard", 0, "10d"], ["flip", 1, "7x"], ["wei", 1, "7x"]]
    _fails(
        events,
        "seat 1 can win on 七 and must (必胡: must_win = always)",
        hands=SIX_KAN,
        head="1d 7x",
        rules={"must_win": "always"},
    )


def test_xiang_gong() -> None:
    """Seat 1 passes its win and must 偎 the 七: every card left is in a 坎, so it cannot
    discard: 相公. Its hand is dead: no 碰, no 吃, no win; it pays 1 to each when someone
    wins."""
    events = [DRAW, ["discard", 0, "10d"], ["flip", 1, "7x"], ["wei", 1, "7x"], ["xiang_gong", 1]]
    table = apply_all(SIX_KAN, "1d 7x", events)
    assert table.seats[1].xiang_gong
    assert [(m.seat, m.from_seat, m.total) for m in table.missed] == [(1, None, 21)]
    assert table.next_flipper() == 2
    _fails(
        [*events, ["flip", 2, "5d"], ["peng", 1, "5d"]],
        "seat 1 is 相公 (a dead hand)",
        hands=SIX_KAN,
        head="1d 7x",
    )


# ---------------------------------------------------------------- the record


def test_a_hand_without_an_ending() -> None:
    with pytest.raises(RuleViolation, match="the hand has no ending"):
        play(BASE, "1d", [DRAW])


def test_record_checks() -> None:
    rec = record(BASE, "1d", [DRAW])
    bad = rec.to_json()
    bad["deal"][0] = [*bad["deal"][0], bad["wall"].pop(0)]
    from paipu.rules.record import HandRecord

    with pytest.raises(RuleViolation, match="seat 0 is dealt 21 cards; with 3 players"):
        replay(HandRecord.from_json(bad))
    with pytest.raises(RuleViolation, match="its rules say players = 4"):
        replay(HandRecord.from_json({**rec.to_json(), "rules": {"players": 4}}))
    short = rec.to_json()
    short["wall"] = short["wall"][:-1]
    with pytest.raises(RuleViolation, match="not the 80 cards"):
        replay(HandRecord.from_json(short))


def test_event_arrays() -> None:
    chi = decode(["chi", 1, ["7x", "5x", "6x"], {"bi": [["5d", "5x", "5x"]]}])
    assert chi.to_array() == ["chi", 1, ["5x", "6x", "7x"], {"bi": [["5x", "5x", "5d"]]}]
    assert decode(["xiang_gong", 2]).to_array() == ["xiang_gong", 2]
    with pytest.raises(EventError, match="wei: 5p is not a zipai card"):
        decode(["wei", 0, "5p"])
    with pytest.raises(EventError, match="each 'bi'"):
        decode(["chi", 1, ["5x", "6x", "7x"], {"bi": [["5x"]]}])
    with pytest.raises(EventError, match="piao: a seat and a whole number"):
        decode(["piao", 0, "2"])


def test_mahjong_rejects_zipai_events_and_bi() -> None:
    from paipu.rules.record import HandRecord
    from paipu.rules.tiles import standard_set, tile_names

    tiles = tile_names(standard_set())
    deal = [tiles[13 * k : 13 * k + 13] for k in range(4)]  # seat 0 holds 1m…4m
    base = {
        "paipu": 1,
        "variant": "mcr",
        "game": "g",
        "hand": 0,
        "players": ["a", "b", "c", "d"],
        "dealer": 0,
        "deal": deal,
    }
    flip = HandRecord.from_json({**base, "events": [["flip", 0, "5x"]]})
    with pytest.raises(RuleViolation, match="flip events do not exist in mcr"):
        replay(flip)
    events = [
        ["draw", 0, "9p"],
        ["discard", 0, "1m"],
        ["chi", 1, ["1m", "2m", "3m"], {"bi": [["1m", "2m", "3m"]]}],
    ]
    with pytest.raises(RuleViolation, match="比 \\(bi\\) sets exist only in zipai"):
        replay(HandRecord.from_json({**base, "events": events}))
