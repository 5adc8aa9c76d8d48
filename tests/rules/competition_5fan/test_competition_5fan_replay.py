"""The 5-fan competition rules on the replay table, event by event: 天胡 and 地胡 from the
table, a win under 5 番 refused as a false win, the false_win event and its penalty, the
dead hand after it, the false claimant paying for the true winner (the seed's rule 10), and
the winning dealer dealing again."""

from __future__ import annotations

import pytest
from competition_5fan_helpers import VARIANT, apply_all, record

from paipu.rules.replay import RuleViolation, replay
from paipu.rules.selfplay import HandSetup, Style

#: East (the dealer) ready on 8s (平胡); South not a win on 1z; West waits on 1z with 一条龙.
HANDS = {
    0: "123m456p789s234m8s",
    1: "258m258p258s1234z",
    2: "123456789p234s1z",
    3: "369m369p369s5677z",
}
FALSE_ON_1Z = [["draw", 0, "1z"], ["discard", 0, "1z"], ["false_win", 1, "1z", {"from": 0}]]
#: A first round of discards (so that a later win on East's discard is no 地胡).
ROUND = [
    ["draw", 0, "9m"],
    ["discard", 0, "9m"],
    ["draw", 1, "8m"],
    ["discard", 1, "8m"],
    ["draw", 2, "7z"],
    ["discard", 2, "7z"],
    ["draw", 3, "6z"],
    ["discard", 3, "6z"],
]


def test_heavenly_hand_from_the_table() -> None:
    outcome = replay(record(HANDS, [["draw", 0, "8s"], ["win", 0, "8s"]]), check=True)
    (win,) = outcome.wins
    assert [f.id for f in win.fans] == ["heavenly_hand", "all_chows", "self_draw"]
    assert outcome.deltas == (540, -180, -180, -180)


def test_earthly_hand_from_the_table() -> None:
    hands = {0: "258m258p258s1234z", 1: "123m456p789s234m5p"}
    events = [["draw", 0, "5p"], ["discard", 0, "5p"], ["win", 1, "5p", {"from": 0}]]
    (win,) = replay(record(hands, events), check=True).wins
    assert "earthly_hand" in [f.id for f in win.fans] and win.deltas == (-100, 100, 0, 0)


def test_a_win_under_five_fan_is_a_false_win() -> None:
    hands = {**HANDS, 1: "23m567p678s456s11z"}  # 234m 567p 678s 456s 11z: no fan but 门清
    events = [*ROUND, ["draw", 0, "4m"], ["discard", 0, "4m"], ["win", 1, "4m", {"from": 0}]]
    with pytest.raises(RuleViolation, match=r"false win .*五番才能胡牌"):
        apply_all(record(hands, events, rules={"fan_concealed_hand": 0}))
    assert apply_all(record(hands, events)).wins[0].total == 5  # 门清 alone: 5 番


def test_a_false_win_pays_ten_to_each_and_the_hand_goes_on() -> None:
    events = [*FALSE_ON_1Z, ["draw", 1, "9m"], ["discard", 1, "9m"]]
    table = apply_all(record(HANDS, events))
    assert table.state.false_claimants == [1] and "false_win" in table.notes
    assert table.settle() == (10, -30, 10, 10)


def test_a_legal_win_is_not_a_false_win() -> None:
    events = [["draw", 0, "1z"], ["discard", 0, "1z"], ["false_win", 2, "1z", {"from": 0}]]
    with pytest.raises(RuleViolation, match="this win is legal"):
        apply_all(record(HANDS, events))
    with pytest.raises(RuleViolation, match="names the last discard"):
        apply_all(
            record(
                HANDS,
                [["draw", 0, "1z"], ["discard", 0, "1z"], ["false_win", 1, "2z", {"from": 0}]],
            )
        )


def test_the_false_claimant_pays_for_the_true_winner() -> None:
    """ "上家错胡下家真胡 … 上家错胡除付给下家胡牌的分数外，还要付给三家各十分": West's 15 番
    from the dealer (× 2: 30) is paid by South, with South's 10 to each."""
    events = [*ROUND, *FALSE_ON_1Z, ["win", 2, "1z", {"from": 0}]]
    outcome = replay(record(HANDS, events), check=True)
    (win,) = outcome.wins
    assert win.total == 15 and win.deltas == (-30, 0, 30, 0)
    assert outcome.deltas == (10, -60, 40, 10)
    off = replay(record(HANDS, events, rules={"false_claim_pays_winner": False}))
    assert off.deltas == (-20, -30, 40, 10)


def test_after_a_false_win_the_hand_is_dead() -> None:
    hands = {**HANDS, 1: "123456789m11p44s"}
    rest = [
        ["draw", 1, "9z"[:0] + "7z"],
        ["discard", 1, "7z"],
        ["draw", 2, "6z"],
        ["discard", 2, "6z"],
        ["draw", 3, "4s"],
        ["discard", 3, "4s"],
    ]
    events = [*FALSE_ON_1Z, *rest, ["win", 1, "4s", {"from": 3}]]
    with pytest.raises(RuleViolation, match=r"false win .*dead"):
        apply_all(record(hands, events))
    table = apply_all(record(hands, events, rules={"false_win_then": "play_on"}))
    assert table.wins[0].seat == 1 and table.settle() == (10, -15, 10, -5)


def test_the_winning_dealer_deals_again() -> None:
    setup = HandSetup("competition_5fan", "g", 0, ("A", "B", "C", "D"), (Style.BALANCED,) * 4)
    dealer_won = replay(record(HANDS, [["draw", 0, "8s"], ["win", 0, "8s"]]))
    assert VARIANT.next_setup(setup, dealer_won).dealer == 0
    other = replay(record(HANDS, [*ROUND, *FALSE_ON_1Z, ["win", 2, "1z", {"from": 0}]]))
    assert VARIANT.next_setup(setup, other).dealer == 1
