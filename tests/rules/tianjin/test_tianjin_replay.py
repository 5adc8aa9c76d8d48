"""天津麻将 replay: hand-written records checked event by event — 坐庄 / 拉庄, the 混
indicator, kong money (金杠 too) and 铲 with their multipliers, and the moves refused with
the rule named (a pong of a 混, a win on a discard, a 坐庄 by a 闲 …).

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import pytest
from tianjin_helpers import OPENING, apply_all, record, turns

from paipu.rules.replay import RuleViolation, replay

# The worked example played: East 暗杠 1万 on its first draw, South self-draws 5万 on its
# second turn (素 捉五, 6).
WORKED = [
    *OPENING,
    ["draw", 0, "1m"],
    ["concealed_kong", 0, "1m"],
    ["draw", 0, "1z"],
    ["discard", 0, "1z"],
    *turns((1, "9s", "9s"), (2, "5z", "5z"), (3, "4z", "4z"), (0, "1z", "1z")),
    ["draw", 1, "5m"],
    ["win", 1, "5m"],
]


def test_the_worked_example_replayed_event_by_event() -> None:
    """South's 素 捉五 (6) pays as §9 says: East 24, West 6, North 6; East's 暗杠 (2) is paid
    by each × M: South 2 × 2 × 2 = 8, West 2 × 2 = 4, North 2 × 2 × 4 = 16."""
    rec = record(WORKED)
    apply_all(rec)  # the invariants after every event
    outcome = replay(rec, check=True)
    (win,) = outcome.wins
    assert (win.seat, win.total, win.deltas) == (1, 6, (-24, 36, -6, -6))
    assert [f.id for f in win.fans] == ["zhuo_wu", "su"]
    assert outcome.deltas == (-24 + 28, 36 - 8, -6 - 4, -6 - 16)
    assert {"zuo_zhuang", "la_zhuang:1", "la_zhuang:2", "wilds:indicator"} <= set(outcome.notes)


def test_without_the_stakes_everything_is_single() -> None:
    rec = record([e for e in WORKED if e[0] not in ("zuo_zhuang", "la_zhuang")])
    outcome = replay(rec)
    assert outcome.wins[0].deltas == (-6, 18, -6, -6)
    assert outcome.deltas == (-6 + 6, 18 - 2, -6 - 2, -6 - 2)


def test_a_wild_held_makes_the_win_not_su() -> None:
    """Flip 白 instead: 白 and 中 are the 混; South holds neither: still 素. Flip 2筒: 2筒 and
    3筒 are the 混 and South holds 2筒 and 3筒: 捉五 alone (3)."""
    swapped = [
        ["indicator", None, "2p", {"role": "wild"}] if e[0] == "indicator" else e for e in WORKED
    ]
    win = replay(record(swapped)).wins[0]
    assert [f.id for f in win.fans] == ["zhuo_wu"] and win.total == 3
    assert win.detail["wild"] == ["2p", "3p"]


def test_a_win_on_a_discard_is_refused_with_the_rule() -> None:
    events = [*OPENING, ["draw", 0, "5m"], ["discard", 0, "5m"], ["win", 1, "5m", {"from": 0}]]
    with pytest.raises(RuleViolation) as caught:
        replay(record(events))
    assert "自摸" in str(caught.value) and caught.value.index == 7


def test_a_pong_of_a_wild_is_refused_with_the_rule() -> None:
    """North holds two 发 (a 混): East's discarded 发 cannot be ponged."""
    events = [*OPENING, ["draw", 0, "6z"], ["discard", 0, "6z"], ["pong", 3, "6z"]]
    with pytest.raises(RuleViolation) as caught:
        apply_all(record(events))
    assert "wild" in str(caught.value) and caught.value.index == 7


def test_a_pong_of_a_natural_tile_is_allowed_and_chi_is_not() -> None:
    events = [*OPENING, ["draw", 0, "2z"], ["discard", 0, "2z"]]
    hands = {3: "777m888m666p2z2z3z6z"}
    table = apply_all(record([*events, ["pong", 3, "2z"]], hands=_with(hands)))
    assert len(table.seats[3].melds) == 1
    with pytest.raises(RuleViolation) as caught:
        apply_all(record([*events, ["chi", 1, ["1z", "2z", "3z"]]]))
    assert "chi" in str(caught.value)


def _with(changes: dict[int, str]) -> dict[int, str]:
    from tianjin_helpers import HANDS

    return {**HANDS, **changes}


@pytest.mark.parametrize(
    ("events", "words"),
    [
        ([["zuo_zhuang", 1, True]], "dealer's choice"),
        ([["la_zhuang", 0, 1]], "dealer does not 拉庄"),
        ([["la_zhuang", 1, 1], ["la_zhuang", 1, 2]], "already chosen"),
        (
            [
                ["indicator", None, "7z", {"role": "wild"}],
                ["draw", 0, "1m"],
                ["zuo_zhuang", 0, True],
            ],
            "before the first draw",
        ),
        ([["draw", 0, "1m"]], "indicator is turned up before the first draw"),
    ],
)
def test_the_stakes_and_the_indicator_come_before_the_first_draw(events, words) -> None:
    with pytest.raises(RuleViolation) as caught:
        apply_all(record(events))
    assert words in str(caught.value)


def test_chan_the_dealer_pays_each_xian_a_ming_gang() -> None:
    """铲: the three 闲 follow the dealer's first discard (东): the dealer pays 1 × M each:
    South (拉一庄) 1 × 2 × 2 = 4, West 2, North (拉两庄) 8 — the seed's 2 / 4 / 8."""
    hands = _with({1: "46m123p789p22s34s1z", 2: "222m333m444p55p1z9s", 3: "777m888m666p1z3z6z6z"})
    events = [
        *OPENING,
        *turns((0, "5z", "1z"), (1, "5s", "1z"), (2, "5p", "1z"), (3, "4z", "1z")),
    ]
    table = apply_all(record(events, hands=hands))
    assert "chan" in table.notes
    assert table.state.payments() == [(0, 1, 4), (0, 2, 2), (0, 3, 8)]
    off = apply_all(record(events, hands=hands, rules={"chan": "off"}))
    assert off.state.payments() == []


def test_no_chan_when_a_xian_does_not_follow() -> None:
    hands = _with({1: "46m123p789p22s34s1z", 2: "222m333m444p55p1z9s"})
    events = [*OPENING, *turns((0, "5z", "1z"), (1, "5s", "1z"), (2, "5p", "1z"), (3, "4z", "4z"))]
    table = apply_all(record(events, hands=hands))
    assert "chan" not in table.notes and table.state.payments() == []


def test_gold_kong_of_four_wilds_pays_eight() -> None:
    """金杠: North declares its four 发 (a 混) as a concealed kong: 8 from each, × M (East
    坐庄 and North 拉两庄: 8 × 8 = 64 from East), settled on the table's payments."""
    hands = _with({3: "777m888m666p6z6z6z1z"})
    events = [*OPENING, *turns((0, "1z", "1z"), (1, "9s", "9s"), (2, "5z", "5z"))]
    events += [["draw", 3, "6z"], ["concealed_kong", 3, "6z"], ["draw", 3, "4z"]]
    table = apply_all(record(events, hands=hands))
    assert "gold_kong" in table.notes
    assert table.state.payments() == [(0, 3, 64), (1, 3, 8), (2, 3, 8)]
    cheap = apply_all(record(events, hands=hands, rules={"gold_kong_value": 4}))
    assert cheap.state.payments()[0] == (0, 3, 32)


def test_wild_discard_option_refuses_a_discarded_wild() -> None:
    events = [*OPENING, ["draw", 0, "6z"], ["discard", 0, "6z"]]
    apply_all(record(events))  # allowed by default (the seed is silent)
    with pytest.raises(RuleViolation) as caught:
        apply_all(record(events, rules={"wild_discard": "forbidden"}))
    assert "wild" in str(caught.value)


def test_heavenly_and_earthly_hands() -> None:
    """天和: East wins on its first draw (28); 地和: South on its own first draw (28)."""
    heavenly = record(
        [*OPENING, ["draw", 0, "5m"], ["win", 0, "5m"]],
        hands=_with({0: "46m123p789p22s345s", 1: "111m999m234s678s1z"}),
    )
    win = replay(heavenly).wins[0]
    assert [f.id for f in win.fans] == ["heavenly"] and win.total == 28
    assert win.deltas == (28 * 4 + 28 * 2 + 28 * 8, -28 * 4, -28 * 2, -28 * 8)
    earthly = record([*OPENING, *turns((0, "1z", "1z")), ["draw", 1, "5m"], ["win", 1, "5m"]])
    win = replay(earthly).wins[0]
    assert [f.id for f in win.fans] == ["earthly"] and win.total == 28
