"""The replay state machine: legal hands replay with their invariants, illegal events fail
loudly with the event and the rule."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paipu.parsers import Parsed, parse_any
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, replay

sys.path.insert(0, str(Path(__file__).parents[1] / "pipeline"))
import hands


def _replay(obj: dict) -> object:
    return replay(HandRecord.from_json(obj), check=True)


def _events(obj: dict, events: list) -> dict:
    out = hands.variant_of(obj)
    out["events"] = events
    return out


@pytest.mark.parametrize("builder", [hands.quick_win, hands.discard_win, hands.exhaustive_draw])
def test_built_hands_replay_with_invariants(builder) -> None:
    outcome = _replay(builder())
    assert outcome.outcome in ("win", "draw")
    assert sum(outcome.deltas) == 0


def test_real_records_keep_their_invariants_after_every_event(botzone_dir: Path) -> None:
    count = 0
    for path in sorted(p for p in botzone_dir.rglob("*") if p.is_file()):
        for item in parse_any(path):
            assert isinstance(item, Parsed), item
            outcome = replay(item.record, check=True)
            assert outcome.verdict == "ok", outcome.problems
            assert sum(outcome.deltas) == 0
            count += 1
    assert count == 26


def test_a_discard_of_the_drawn_tile_keeps_waits_worked_out_anew(botzone_dir: Path) -> None:
    """The waits a seat keeps when it discards the tile it has just drawn (摸切, not worked
    out again) are the waits of its hand worked out from scratch, after every discard of
    the real records."""
    from paipu.rules.replay import Table
    from paipu.rules.shanten import waits
    from paipu.rules.variants import get_variant

    variant = get_variant("mcr")
    kept = 0
    for path in sorted(p for p in botzone_dir.rglob("*") if p.is_file()):
        for item in parse_any(path):
            record = item.record
            table = Table(record, variant, variant.resolve_options(record.rules))
            for index, event in enumerate(record.events):
                drawn = table.seats[getattr(event, "seat", 0)].since_waits
                table.apply(index, event)
                if event.kind != "discard":
                    continue
                s = table.seats[event.seat]
                kept += drawn == event.tile
                full = sum(s.hand) == 13 - 3 * len(s.melds)
                fresh = waits(s.hand, len(s.melds), variant.replay_shapes()) if full else ()
                assert s.waits == fresh, (path.name, index)
    assert kept > 100  # the records discard the drawn tile often


def test_discard_facts_and_deal_in() -> None:
    outcome = _replay(hands.discard_win())
    (fact,) = outcome.discards
    assert fact.seat == 0
    assert fact.won_on
    assert not fact.claimed
    assert fact.opponent_can_win == (True, False, False)
    assert fact.opponent_ready[0] is True


def test_a_passed_win_is_a_missed_win() -> None:
    from paipu.rules.events import decode
    from paipu.rules.replay import Table
    from paipu.rules.variants import get_variant

    obj = hands.discard_win()
    record = HandRecord.from_json(obj)
    variant = get_variant("mcr")
    table = Table(record, variant, variant.resolve_options(record.rules))
    events = [["draw", 0, "9s"], ["discard", 0, "9s"], ["draw", 1, obj["wall"][1]]]
    for index, array in enumerate(events):
        table.apply(index, decode(array))
    (missed,) = table.missed
    assert (missed.seat, missed.tile, missed.from_seat, missed.index) == (1, 26, 0, 1)
    assert missed.total == 18


BASE = hands.discard_win()
WALL = BASE["wall"]


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([["draw", 1, "9s"]], "seat 1's turn to draw"),
        ([["discard", 0, "1m"]], "may not discard now"),
        ([["draw", 0, "1m"]], "the wall gives 9s here"),
        ([["draw", 0, "9s"], ["discard", 0, "2m"]], "does not hold 2m"),
        (
            [["draw", 0, "9s"], ["discard", 0, "9s"], ["chi", 2, ["7s", "8s", "9s"]]],
            "previous seat",
        ),
        ([["draw", 0, "9s"], ["discard", 0, "9s"], ["pong", 1, "9s"]], "does not hold 9s"),
        ([["draw", 0, "9s"], ["discard", 0, "9s"], ["pong", 1, "1m"]], "last discard is 9s"),
        ([["draw", 0, "9s"], ["discard", 0, "9s"], ["kong", 2, "9s"]], "does not hold"),
        ([["draw", 0, "9s"], ["win", 0, "9s"]], "false win"),
        (
            [
                ["draw", 0, "9s"],
                ["discard", 0, "9s"],
                ["win", 1, "9s", {"from": 0}],
                ["draw", 2, WALL[1]],
            ],
            "already ended",
        ),
        (
            [
                ["draw", 0, "9s"],
                ["discard", 0, "9s"],
                ["win", 1, "9s", {"from": 0}],
                ["win", 2, "9s", {"from": 0}],
            ],
            "one winner",
        ),
        ([["draw", 0, "9s"], ["added_kong", 0, "1m"]], "no exposed pung"),
        ([["draw", 0, "9s"], ["concealed_kong", 0, "1m"]], "does not hold 1m"),
        (
            [["draw", 0, "9s"], ["discard", 0, "9s"], ["win", 1, "9s", {"from": 2}]],
            "seat 0's, not seat 2's",
        ),
        ([["draw", 0, "9s"], ["flower", 0, "1f"]], "does not hold 1f"),
        ([["draw", 0, "9s"], ["void", 0, "m"]], "void events do not exist in mcr"),
    ],
)
def test_illegal_events_are_named_with_the_rule(events: list, message: str) -> None:
    with pytest.raises(RuleViolation) as info:
        _replay(_events(BASE, events))
    text = str(info.value)
    assert message in text, text
    assert text.startswith("event ")


def test_a_wrong_deal_size_is_named() -> None:
    obj = hands.variant_of(BASE)
    obj["deal"][2] = obj["deal"][2][:12]
    with pytest.raises(RuleViolation, match="seat 2 is dealt 12 tiles"):
        _replay(obj)


def test_recorded_result_differences_are_listed_fan_by_fan() -> None:
    obj = hands.variant_of(BASE)
    obj["result"] = {
        "outcome": "win",
        "wins": [
            {
                "seat": 1,
                "from": 0,
                "total": 17,
                "fans": [
                    ["mixed_straight", 8, 1],
                    ["all_types", 6, 1],
                    ["concealed_hand", 2, 1],
                    ["dragon_pung", 2, 1],
                ],
            }
        ],
        "deltas": [-25, 41, -8, -8],
    }
    outcome = _replay(obj)
    assert outcome.verdict == "mismatch"
    assert "seat 1: recorded total 17, computed 18" in outcome.problems
    assert "seat 1: fan dragon_pung recorded ×1, computed ×0" in outcome.problems
    assert "seat 1: fan prevalent_wind recorded ×0, computed ×1" in outcome.problems
    assert any(p.startswith("deltas: recorded") for p in outcome.problems)


MULTIPLE_WINS = Path(__file__).parents[1] / "fixtures" / "multiple_wins"


@pytest.mark.parametrize("variant_id", ["zhuanzhuan", "changsha", "sichuan"])
def test_multiple_wins_on_one_discard_where_the_variant_allows_them(variant_id: str) -> None:
    """一炮多响: a hand of each variant that allows it (from the bundled self-play, kept in
    tests/fixtures/multiple_wins/) where two seats win on one discard. It replays, both wins
    are scored and paid as the record says; with multiple_wins off the second is refused."""
    import copy
    import json
    from dataclasses import replace

    from paipu.rules.variants import get_variant

    text = (MULTIPLE_WINS / f"{variant_id}.paipu.jsonl").read_text(encoding="utf-8")
    record = HandRecord.from_json(json.loads(text))
    variant = get_variant(variant_id)
    assert variant.spec.multiple_wins
    outcome = replay(record, check=True)
    assert outcome.verdict == "ok", outcome.problems  # fans, totals and deltas as recorded
    *_, first, second = (w for w in outcome.wins if w.from_seat is not None)
    assert (first.from_seat, first.tile) == (second.from_seat, second.tile)
    assert first.seat != second.seat
    assert len(outcome.wins) == len(record.result.wins) >= 2
    assert outcome.deltas[first.from_seat] < 0 and sum(outcome.deltas) == 0
    single = copy.copy(variant)
    single.spec = replace(variant.spec, multiple_wins=False)
    with pytest.raises(RuleViolation, match="allows one winner per tile"):
        replay(record, single)
