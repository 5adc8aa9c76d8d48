"""The wild-tile mechanic (rules/mechanics/wilds.py) on a test variant built from a TOML
string (tests/rules/wilds/wilds_helpers.py): the indicator event, fixed wilds, the legal
moves with wilds, wild-aware waits, ``extra.wild``, and self-play with wilds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paipu.rules import legal
from paipu.rules.core import shanten as core
from paipu.rules.core.tiles import STANDARD
from paipu.rules.core.wild import WildError
from paipu.rules.events import Indicator
from paipu.rules.mechanics.wilds import indicators_for, rule_of, spec_of_kinds, wild_rule
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.shanten import waits as plain_waits
from paipu.rules.tiles import parse_tile, parse_tiles, tile_names
from paipu.selfplay.bots.regional import make_bots
from paipu.selfplay.loop import play_hand
from tests.rules.wilds.wilds_helpers import PLAYERS, VARIANT, full_wall, record

# 3m turned up: 4m is wild. Seat 3 is ready only with its wild 4m (123m 567p 111z 99p + 4m 7m).
DEAL = [
    "6m123p789p123s777z",
    "45m11p456789s123z",
    "4m999m23s8m3z55z66z4z",
    "1234m567p99p111z7m",
]
FLIP = ["indicator", None, "3m", {"role": "wild"}]


def table_after(events: list[list[Any]], **kw: Any) -> Any:
    rec = record(DEAL, events, **kw)
    table = VARIANT.new_table(rec, VARIANT.resolve_options(rec.rules))
    for index, event in enumerate(rec.events):
        table.apply(index, event)
        table.check_invariants()
    return table


def violation(events: list[list[Any]], **kw: Any) -> str:
    with pytest.raises(RuleViolation) as caught:
        table_after(events, **kw)
    return caught.value.rule


def t(name: str) -> int:
    return parse_tile(name)


def test_the_indicator_reveals_the_wilds_and_the_waits_count_them() -> None:
    before = table_after([])
    assert before.wilds is None
    assert before.seats[3].waits == ()  # without the wild, 1234m 7m is not ready
    table = table_after([FLIP])
    assert table.wilds is not None and tile_names(sorted(table.wilds.tiles)) == ["4m"]
    hand = table.seats[3].hand
    assert table.seats[3].waits == core.waits(hand, table.wilds, 0)
    assert tile_names(table.seats[3].waits) == ["4m", "5m", "6m", "7m", "8m", "9m", "9p"]
    assert plain_waits(hand) == ()
    assert "wilds:indicator" in table.notes


def test_a_self_drawn_win_with_the_wild_and_extra_wild() -> None:
    events = [FLIP, ["draw", 0, "2m"], ["discard", 0, "2m"], ["draw", 1, "1s"]]
    events += [["discard", 1, "1s"], ["draw", 2, "2s"], ["discard", 2, "2s"]]
    events += [["draw", 3, "9m"], ["win", 3, "9m"]]
    rec = record(DEAL, events)
    outcome = replay(rec, VARIANT, check=True)
    assert outcome.deltas == (-1, -1, -1, 3)
    table = table_after(events[:-1])
    request = table.request_for(3, t("9m"), None, table.win_flags(3, t("9m"), None))
    assert request.extra == {"wild": ["4m"]}


def test_the_indicator_at_the_wrong_point_is_refused() -> None:
    draw = ["draw", 0, "2m"]
    assert "before the first draw" in violation([draw])
    assert "before the first draw" in violation([draw, FLIP])
    assert "already turned up (3m)" in violation([FLIP, FLIP])
    bao = ["indicator", None, "3m", {"role": "bao"}]
    assert "turns up no bao indicator" in violation([bao])


def test_the_indicator_is_a_tile_of_the_wall() -> None:
    # the deal holds 1z three times and seat 1 once: no copy is left for the indicator
    assert "every copy of 1z is already placed" in violation(
        [["indicator", None, "1z", {"role": "wild"}]]
    )
    wall = full_wall(DEAL)
    # a recorded wall: the flipped tile stays in it (and is drawn in its turn)
    table = table_after([FLIP], wall=wall)
    assert table.wall.left() == len(wall)
    wall_without = [x for x in wall if x != "6s"]
    assert "is not in the wall" in violation(
        [["indicator", None, "6s", {"role": "wild"}]], wall=wall_without
    )


def test_fixed_wilds_are_set_from_the_start_and_no_indicator_is_turned_up() -> None:
    table = table_after([], wilds="white")
    assert table.wilds is not None and tile_names(sorted(table.wilds.tiles)) == ["5z"]
    assert "fixed here (5z)" in violation([FLIP], wilds="white")
    # white: 5z may not be discarded (wilds.discard = false), by the table and the list
    events = [["draw", 0, "5z"], ["discard", 0, "5z"]]
    assert "5z is wild here: wilds may not be discarded" in violation(events, wilds="white")
    table = table_after(events[:1], wilds="white")
    listed = {m.tile for m in legal.turn_moves(table, 0) if m.kind is legal.MoveKind.DISCARD}
    assert t("5z") not in listed and t("6m") in listed


def test_no_wilds_in_a_room_without() -> None:
    assert "plays without wilds" in violation([FLIP], wilds="none")
    assert table_after([], wilds="none").wilds is None


def test_a_pong_of_a_discarded_wild_is_refused_with_the_rule_named() -> None:
    flip8 = ["indicator", None, "8m", {"role": "wild"}]  # 9m is wild; seat 2 holds 999m
    events = [flip8, ["draw", 0, "9m"], ["discard", 0, "9m"]]
    table = table_after(events)
    assert not [m for m in legal.claims(table, t("9m"), 0) if m.seat == 2]
    rule = violation([*events, ["pong", 2, "9m"]])
    assert "9m is wild here: a discarded wild may not be claimed" in rule
    # flip_free lets wilds be claimed: the pong is listed and stands
    table = table_after([*events, ["pong", 2, "9m"]], wilds="flip_free")
    assert table.seats[2].melds[0].tiles == (t("9m"),) * 3


def test_a_chi_using_a_wild_is_refused_where_wilds_stay_out_of_chis() -> None:
    events = [FLIP, ["draw", 0, "2m"], ["discard", 0, "6m"]]
    table = table_after(events)
    assert not [m for m in legal.claims(table, t("6m"), 0) if m.kind is legal.MoveKind.CHI]
    chi = ["chi", 1, ["4m", "5m", "6m"]]
    assert "4m is wild here: wilds may not go into a chi" in violation([*events, chi])
    table = table_after([*events, chi], wilds="flip_free")
    assert table.seats[1].melds[0].tiles == tuple(parse_tiles("456m"))


def test_the_rule_and_the_kinds_of_a_request() -> None:
    raw = VARIANT.spec.raw["wilds"]
    options = VARIANT.resolve_options({"wilds": "flip"})
    rule = wild_rule(VARIANT, options)
    assert rule is not None and rule.needs_indicator
    assert wild_rule(VARIANT, VARIANT.resolve_options({"wilds": "none"})) is None
    assert [tile_names([i])[0] for i in indicators_for(rule, [t("1s")])] == ["9s"]
    assert spec_of_kinds(rule, [t("1s")], STANDARD).tiles == frozenset([t("1s")])
    with pytest.raises(WildError, match="no indicator makes exactly"):
        spec_of_kinds(rule, [t("1s"), t("2s")], STANDARD)
    white = rule_of(raw, STANDARD, "white")
    assert white is not None
    with pytest.raises(WildError, match="the wilds of this room are 5z"):
        spec_of_kinds(white, [t("6z")], STANDARD)
    with pytest.raises(WildError, match="without wilds"):
        spec_of_kinds(None, [t("6z")], STANDARD)
    with pytest.raises(WildError, match="unknown key 'pongs'"):
        rule_of({"fixed": ["5z"], "pongs": True}, STANDARD)


def _play(hands: int, wilds: str) -> list[Any]:
    options = VARIANT.resolve_options({"wilds": wilds})
    styles = (Style.BALANCED, Style.AGGRESSIVE, Style.DEFENSIVE, Style.BALANCED)
    out = []
    for hand in range(hands):
        setup = HandSetup("wildtest", "g", hand, tuple(PLAYERS), styles, rules={"wilds": wilds})
        bots = lambda: make_bots(VARIANT, options, styles)  # noqa: E731
        outcome = play_hand(VARIANT, options, setup, random.Random(hand), bots)
        out.append(outcome)
    return out


@pytest.mark.parametrize("wilds", ["flip", "white"])
def test_self_play_turns_the_indicator_up_and_keeps_its_wilds(wilds: str) -> None:
    outcomes = _play(12, wilds)
    wins = 0
    for outcome in outcomes:
        rec = outcome.record
        first = rec.events[0]
        if wilds == "flip":
            assert isinstance(first, Indicator) and first.tile == rec.wall[-1]
        else:
            assert not any(isinstance(e, Indicator) for e in rec.events)
        again = replay(rec, VARIANT, check=True)  # every event legal, tiles conserved
        assert again.deltas == outcome.deltas
        wins += bool(outcome.wins)
    assert wins >= 6
    # deterministic: the same seeds give the same records
    assert [o.record for o in _play(2, wilds)] == [o.record for o in outcomes[:2]]
