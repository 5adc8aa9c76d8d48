"""常州 / 常山 财神: hand-written logs replayed event by event — 跟庄, kong money and 连杠,
承包, the discard win refused, the dead wall and the last four tiles, 庄家赔付."""

from __future__ import annotations

from typing import Any

import pytest
from changzhou_helpers import log, rest_of

from paipu.rules.replay import RuleViolation, replay
from paipu.rules.tiles import parse_tiles, tile_names
from paipu.rules.variants import get_variant

FOLLOW_HANDS = {
    0: "123m456m789m11p4s1z",
    1: "1z258m258p258s369m",
    2: "1z147p147s369p69s2z",
    3: "1z3z3z4z4z6z6z7z7z9s9s8s7s",
}


def _follow_events(third: str = "1z") -> list[list[Any]]:
    return [
        ["draw", 0, "6s"],
        ["discard", 0, "1z"],
        ["draw", 1, "2z"],
        ["discard", 1, "1z"],
        ["draw", 2, "5z"],
        ["discard", 2, third],
        ["draw", 3, "8p"],
        ["discard", 3, "1z"],
        ["draw", 0, "5s"],
        ["win", 0, "5s"],
    ]


def test_follow_the_dealer_and_a_single_gap_self_draw() -> None:
    """All three follow the dealer's 东 (跟庄: he pays each 1); then his 46s draws 5s (独卡):
    2 × 2 = 4 from each."""
    outcome = replay(log(FOLLOW_HANDS, _follow_events()), check=True)
    (win,) = outcome.wins
    assert [(f.id, f.points) for f in win.fans] == [("plain", 2), ("single_gap", 2)]
    assert win.deltas == (12, -4, -4, -4)
    assert outcome.deltas == (9, -3, -3, -3) and "follow_dealer" in outcome.notes


def test_no_follow_when_one_seat_plays_another_tile() -> None:
    outcome = replay(log(FOLLOW_HANDS, _follow_events(third="2z")), check=True)
    assert outcome.deltas == (12, -4, -4, -4) and "follow_dealer" not in outcome.notes


def test_a_discard_win_is_refused_with_the_rule() -> None:
    hands = {0: "123m456m789m11p4s1z", 1: "123p456p789p11s4z4z"}
    events = [["draw", 0, "4z"], ["discard", 0, "4z"], ["win", 1, "4z", {"from": 0}]]
    with pytest.raises(RuleViolation, match="自摸胡 and 抢杠胡 only"):
        replay(log(hands, events))
    allowed = replay(log(hands, events, rules={"discard_win": True}))
    assert allowed.deltas == (-2, 2, 0, 0)


def test_kong_money_doubles_for_a_kong_on_the_replacement() -> None:
    """暗杠 2 each, then 连暗杠 on its replacement 4 each: +18; the kongs break 跟庄 though all
    three follow the dealer's 西; he then wins 1z (plain 2)."""
    hands = {
        0: "1111m2222m345p6s1z",
        1: "3p4p5p6p7p8p3s4s5s6s7s8s4z",
        2: "3p4p5p6p7p8p3s4s5s6s7s8s4z",
        3: "999m888m777m666m5m",
    }
    events: list[list[Any]] = [
        ["draw", 0, "7s"],
        ["concealed_kong", 0, "1m"],
        ["draw", 0, "5s"],
        ["concealed_kong", 0, "2m"],
        ["draw", 0, "3z"],
        ["discard", 0, "3z"],
    ]
    for seat in (1, 2, 3):
        events += [["draw", seat, "3z"], ["discard", seat, "3z"]]
    events += [["draw", 0, "1z"], ["win", 0, "1z"]]
    outcome = replay(log(hands, events), check=True)
    assert outcome.wins[0].deltas == (6, -2, -2, -2)
    assert outcome.deltas == (24, -8, -8, -8)
    assert "lian_gang" in outcome.notes and "follow_dealer" not in outcome.notes


def test_liability_the_seat_fed_three_times_pays_all() -> None:
    """South pongs 1p, 2p and 9s from East, then self-draws 7z: East pays the three shares."""
    hands = {
        0: "1p2p9s147m258m369s5z",
        1: "11p22p99s456m7z1z2z3z",
        2: "3p4p5p6p7p8p3s4s5s6s7s8s4z",
        3: "3p4p5p6p7p8p3s4s5s6s7s8s4z",
    }
    rounds = [("2z", "3z", "2p", "2z"), ("1z", "2z", "9s", "3z"), ("3z", "1z", "6z", None)]
    events: list[list[Any]] = [
        ["draw", 0, "6z"],
        ["discard", 0, "1p"],
        ["pong", 1, "1p"],
        ["discard", 1, "1z"],
    ]
    for west, north, east, south in rounds:
        events += [["draw", 2, west], ["discard", 2, west], ["draw", 3, north]]
        events += [["discard", 3, north], ["draw", 0, "6z"], ["discard", 0, east]]
        if south is not None:
            events += [["pong", 1, east], ["discard", 1, south]]
    events += [["draw", 1, "7z"], ["win", 1, "7z"]]
    outcome = replay(log(hands, events), check=True)
    (win,) = outcome.wins
    assert win.deltas == (-6, 6, 0, 0) and win.detail["liable"] == [0]
    assert "liability" in outcome.notes


def _wall_hand(quad: bool = False) -> tuple[dict[int, str], list[str]]:
    hands = {1: "9p9p9p9p1m4m7m2p5p8p3s6s1z"} if quad else {}
    return rest_of(hands, "", seed=7)


def _walk(wall: list[str], draws: int) -> list[list[Any]]:
    """Each seat in turn draws the wall's next tile and lays it down."""
    events: list[list[Any]] = []
    for i in range(draws):
        seat = i % 4
        events += [["draw", seat, wall[i]], ["discard", seat, wall[i]]]
    return events


def test_the_dead_wall_and_the_dealers_drawn_hand_payment() -> None:
    """64 live tiles (84 left after the deal, the dealer's 14th among them, 20 dead): after
    the last, 流局 and the dealer pays each 1 (庄家赔付); a 65th draw does not exist."""
    hands, wall = _wall_hand()
    outcome = replay(log(hands, _walk(wall, 64), wall=wall), check=True)
    assert outcome.outcome == "draw" and outcome.deltas == (-3, 1, 1, 1)
    assert "drawn_dealer_pays" in outcome.notes
    too_many = _walk(wall, 65)[:-1]
    with pytest.raises(RuleViolation, match="no tile is left"):
        replay(log(hands, too_many, wall=wall))


def test_a_last_four_tile_is_laid_down_as_drawn_and_never_claimed() -> None:
    hands, wall = _wall_hand()
    events = _walk(wall, 60)
    held = next(t for t in tile_names(parse_tiles(hands[0])) if t != wall[60])
    events += [["draw", 0, wall[60]], ["discard", 0, held]]
    with pytest.raises(RuleViolation, match="海底"):
        replay(log(hands, events, wall=wall))
    events = [*_walk(wall, 61), ["pong", 2, wall[60]]]
    with pytest.raises(RuleViolation, match="laid down, not claimed"):
        replay(log(hands, events, wall=wall))


def test_no_kong_with_six_live_tiles_or_fewer() -> None:
    """South holds four 9p: his kong with 10 live tiles left stands, with 6 it is refused."""
    hands, wall = _wall_hand(quad=True)
    events = [*_walk(wall, 53), ["draw", 1, wall[53]], ["concealed_kong", 1, "9p"]]
    record = log(hands, events, wall=wall)
    variant = get_variant("changzhou")
    table = variant.new_table(record, variant.resolve_options({}))
    for index, event in enumerate(record.events):
        table.apply(index, event)
    assert table.wall.left() == 10 and "kong_payment:concealed_kong" in table.notes
    late = [*_walk(wall, 57), ["draw", 1, wall[57]], ["concealed_kong", 1, "9p"]]
    with pytest.raises(RuleViolation, match="no kong with 6 live tiles"):
        replay(log(hands, late, wall=wall))


PIAO_HANDS = {
    0: "1z2m4m6m8m1s3s5s7s2s4s6s9s",
    1: "123p456p789s111z3m",
    2: "1p1p4p4p7p7p1m1m4m4m9m9m6z",
    3: "2p2p5p5p8p8p3s3s6s6s9s9s7z",
}


def _piao_events(second_caishen_discard: bool = True) -> list[list[Any]]:
    events: list[list[Any]] = [
        ["draw", 0, "5m"],
        ["discard", 0, "1z"],
        ["kong", 1, "1z"],
        ["draw", 1, "6z"],
        ["discard", 1, "6z"],
    ]
    for seat in (2, 3, 0):
        events += [["draw", seat, "4z"], ["discard", seat, "4z"]]
    kept = "3m" if second_caishen_discard else "6m"
    events += [["draw", 1, kept], ["discard", 1, kept]]
    for seat in (2, 3, 0):
        events += [["draw", seat, "7z"], ["discard", seat, "7z"]]
    return [*events, ["draw", 1, "7m"], ["win", 1, "7m"]]


def test_worked_example_cai_yi_piao_on_the_table() -> None:
    """The digest's example played: 2m flipped, the 财神 is 3m. South's 明杠 of East's 东
    earns 1 from each; in 财头 (a 财神 and three sets beside the kong) he draws a second
    财神 and discards it (财一飘), then self-draws 7m: 8倍 from each."""
    outcome = replay(log(PIAO_HANDS, _piao_events(), indicator="2m"), check=True)
    (win,) = outcome.wins
    assert [(f.id, f.count) for f in win.fans] == [("plain", 1), ("caitou", 1), ("cai_piao", 1)]
    assert win.total == 8 and win.deltas == (-8, 24, -8, -8)
    assert outcome.deltas == (-9, 27, -9, -9)
    assert "cai_piao:1" in outcome.notes and "kong_payment:kong" in outcome.notes


def test_no_piao_when_the_caitou_seat_discards_another_tile() -> None:
    """He draws 6m and lets it go: 财头 still, no 飘 stage: 4倍."""
    outcome = replay(log(PIAO_HANDS, _piao_events(False), indicator="2m"), check=True)
    assert outcome.wins[0].total == 4 and "cai_piao:1" not in outcome.notes


def test_a_caishen_is_never_claimed() -> None:
    hands = {0: "3m1z2m4m6m8m1s3s5s7s2s4s6s", 1: "3m3m1p1p4p4p7p7p1m1m4m9m9m"}
    events = [["draw", 0, "5m"], ["discard", 0, "3m"], ["pong", 1, "3m"]]
    with pytest.raises(RuleViolation, match="wild here: a discarded wild may not be claimed"):
        replay(log(hands, events, indicator="2m"))


def test_a_draw_before_the_indicator_is_refused() -> None:
    with pytest.raises(RuleViolation, match="indicator is turned up before the first draw"):
        replay(log(FOLLOW_HANDS, _follow_events(), indicator=None))
