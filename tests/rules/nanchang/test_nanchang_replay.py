"""Nanchang logs replayed event by event: the indicator and its 精, the dealer's streak,
精分 in the hand's deltas (won and drawn), 冲关 fed by a pong, 荒庄 with 34 tiles left; the
illegal ones refused with the rule named.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from nanchang_helpers import WORKED_DEAL, log

from paipu.pipeline.ingest import ingest
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.tiles import parse_tiles, standard_set, tile_name

INDICATOR = ["indicator", None, "9m", {"role": "wild"}]  # 正精 1万, 副精 2万


def run(obj: dict[str, Any], **kwargs: Any) -> Any:
    return replay(HandRecord.from_json(obj), check=True, **kwargs)


def refused(obj: dict[str, Any]) -> str:
    with pytest.raises(RuleViolation) as caught:
        run(obj)
    return str(caught.value)


GO_ROUND = [
    ["draw", 0, "8m"],
    ["discard", 0, "7p"],
    ["draw", 1, "9p"],
    ["discard", 1, "9p"],
    ["draw", 2, "1p"],
    ["discard", 2, "1p"],
    ["draw", 3, "4p"],
    ["discard", 3, "4p"],
]
WORKED_EVENTS = [INDICATOR, *GO_ROUND, ["draw", 0, "1s"], ["discard", 0, "5z"],
                 ["win", 1, "5z", {"from": 0}]]  # fmt: skip


def test_earthly_hand_on_the_dealers_first_discard() -> None:
    """地胡 (pub-nc1 20): South wins on East's first discard: u = 20 × 2 (德国)."""
    events = [INDICATOR, ["draw", 0, "8m"], ["discard", 0, "5z"], ["win", 1, "5z", {"from": 0}]]
    (win,) = run(log(WORKED_DEAL, events)).wins
    assert [f.id for f in win.fans] == ["earthly", "de_guo"]
    assert win.deltas == (-165, 245, -40, -40)
    plain = run(log(WORKED_DEAL, events, rules={"tian_di_hu": False})).wins[0]
    assert plain.deltas == (-13, 17, -2, -2)


def test_the_worked_example_hand() -> None:
    """South wins 德国 平胡 on East's 白 (East 13, West 2, North 2); 精分 apart: West's 5 is
    冲关 10, and as the only holder (霸王精) 20 from each other player."""
    outcome = run(log(WORKED_DEAL, WORKED_EVENTS))
    (win,) = outcome.wins
    assert (win.seat, win.from_seat, win.total) == (1, 0, 2)
    assert [f.id for f in win.fans] == ["ping_hu", "de_guo"]
    assert win.deltas == (-13, 17, -2, -2)
    assert outcome.deltas == (-13 - 20, 17 - 20, -2 + 60, -2 - 20)
    assert {
        "wilds:indicator",
        "jing_points",
        "jing_points:chong_guan",
        "jing_points:ba_wang",
    } <= set(outcome.notes)


def test_a_recorded_result_is_compared() -> None:
    result = {
        "outcome": "win",
        "wins": [{"seat": 1, "from": 0, "tile": "5z", "total": 2,
                  "fans": [["ping_hu", 1, 1], ["de_guo", 2, 1]]}],
        "deltas": [-33, -3, 58, -22],
    }  # fmt: skip
    assert run(log(WORKED_DEAL, WORKED_EVENTS, result=result)).verdict == "ok"
    wrong = {**result, "deltas": [-13, 17, -2, -2]}  # the win alone, without 精分
    assert run(log(WORKED_DEAL, WORKED_EVENTS, result=wrong)).verdict == "mismatch"


def test_the_dealer_streak_multiplies_the_win_not_the_jing_points() -> None:
    events = [INDICATOR, ["dealer_streak", 0, 3], *WORKED_EVENTS[1:]]
    outcome = run(log(WORKED_DEAL, events))
    assert outcome.wins[0].deltas == (-39, 51, -6, -6)
    assert outcome.deltas == (-39 - 20, 51 - 20, -6 + 60, -6 - 20)
    assert "dealer_streak" in outcome.notes


def test_discards_count_toward_jing_points() -> None:
    """East discards a 正精 (1万) first: with 打出精牌算分 it is still his (2 points, so no
    霸王精 for West); without, it counts for nobody."""
    deal = {**WORKED_DEAL, 0: "345m678m1s6s23z7p5z1m"}
    events = [INDICATOR, ["draw", 0, "8m"], ["discard", 0, "1m"], ["draw", 1, "9p"],
              ["discard", 1, "9p"], ["draw", 2, "1p"], ["discard", 2, "1p"], ["draw", 3, "4p"],
              ["discard", 3, "4p"], ["draw", 0, "1s"], ["discard", 0, "5z"],
              ["win", 1, "5z", {"from": 0}]]  # fmt: skip
    counted = run(log(deal, events))
    jing = [d - w for d, w in zip(counted.deltas, counted.wins[0].deltas, strict=True)]
    assert jing == [2 + 2 + 2 - 10, -2 - 10, 10 + 10 + 10 - 2, -2 - 10]
    apart = run(log(deal, events, rules={"discards_count_jing": False}))
    jing = [d - w for d, w in zip(apart.deltas, apart.wins[0].deltas, strict=True)]
    assert jing == [-20, -20, 60, -20]


def test_chong_guan_fed_by_a_pong() -> None:
    """West pongs East's 正精 (1万). Holding 1万 1万 2万 he ends on 3 正精 + 1 副精 = 7: 冲关
    28, alone (霸王精) 56; without the fed 1万 he would still be at 5, so everyone pays him.
    Holding only 1万 1万, the pong lifts him from 4 to 6 (冲关 18, alone 36): East, the
    feeder, pays 3 × 36 alone."""
    deal = {**WORKED_DEAL, 0: "345m678m1s6s23z7p5z1m"}
    events = [INDICATOR, ["draw", 0, "8m"], ["discard", 0, "1m"], ["pong", 2, "1m"],
              ["discard", 2, "9s"], ["draw", 3, "4p"], ["discard", 3, "4p"],
              ["draw", 0, "1s"], ["discard", 0, "5z"], ["win", 1, "5z", {"from": 0}]]  # fmt: skip
    outcome = run(log(deal, events))
    jing = [d - w for d, w in zip(outcome.deltas, outcome.wins[0].deltas, strict=True)]
    assert jing == [-56, -56, 168, -56]
    fed = run(log({**deal, 2: "11m44z67z3579s89p5p"}, events))
    jing = [d - w for d, w in zip(fed.deltas, fed.wins[0].deltas, strict=True)]
    assert jing == [-108, 0, 108, 0]
    assert "jing_points:fed" in fed.notes
    plain = run(log({**deal, 2: "11m44z67z3579s89p5p"}, events, rules={"chong_guan_feeder": False}))
    jing = [d - w for d, w in zip(plain.deltas, plain.wins[0].deltas, strict=True)]
    assert jing == [-36, -36, 108, -36]


def drawn_hand(dead_wall: int | None = None) -> tuple[dict[str, Any], int]:
    """A hand where every seat discards what it draws until 荒庄; West keeps 2 正精 + 1 副精.
    Returns the log and how many draws it took."""
    rules = {} if dead_wall is None else {"dead_wall": dead_wall}
    left = standard_set(honors=True)
    for hand in WORKED_DEAL.values():
        for tile in parse_tiles(hand):
            left.remove(tile)
    left.remove(parse_tiles("9m")[0])  # keep the indicator's copy out of the draws
    for jing in parse_tiles("1m2m5z"):  # no 精 and no 白 (South's wait) is drawn
        while jing in left:
            left.remove(jing)
    wall = 136 - 52  # the dealer's 14th tile is his first draw
    draws = wall - (34 if dead_wall is None else dead_wall)
    events: list[list[Any]] = [INDICATOR]
    seat = 0
    for i in range(draws):
        tile = tile_name(left[i])
        events += [["draw", seat, tile], ["discard", seat, tile]]
        seat = (seat + 1) % 4
    return log(WORKED_DEAL, events, rules=rules), draws


def test_a_drawn_hand_settles_the_jing_points() -> None:
    obj, draws = drawn_hand()
    assert draws == 50  # 84 tiles after the deal, 34 stay
    outcome = run(obj)
    assert outcome.outcome == "draw" and not outcome.wins
    assert outcome.deltas == (-20, -20, 60, -20)
    assert "jing_points:drawn_hand" in outcome.notes


def test_no_draw_after_the_dead_wall() -> None:
    obj, _ = drawn_hand()
    obj["events"].append(["draw", 1, "9m"])
    assert "荒庄" in refused(obj) and "34 tiles left" in refused(obj)


# ---------------------------------------------------------------------- refused


def test_a_draw_before_the_indicator_is_refused() -> None:
    message = refused(log(WORKED_DEAL, WORKED_EVENTS[1:]))
    assert "the wild indicator is turned up before the first draw" in message


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([INDICATOR, ["dealer_streak", 2, 2]], "the streak is the dealer's (seat 0)"),
        ([INDICATOR, ["draw", 0, "8m"], ["dealer_streak", 0, 2]], "before the first draw"),
        ([INDICATOR, ["dealer_streak", 0, 2], ["dealer_streak", 0, 2]], "given once"),
        ([INDICATOR, INDICATOR], "already turned up"),
        ([INDICATOR, ["draw", 0, "8m"], ["discard", 0, "5z"], ["win", 3, "5z", {"from": 0}]],
         "5z"),
    ],
)  # fmt: skip
def test_illegal_logs_are_refused_with_the_rule(events: list[list[Any]], message: str) -> None:
    assert message in refused(log(WORKED_DEAL, events))


def test_a_malformed_streak_is_an_error_not_a_traceback() -> None:
    from paipu.rules.record import RecordError

    with pytest.raises(RecordError, match="dealer_streak"):
        HandRecord.from_json(log(WORKED_DEAL, [INDICATOR, ["dealer_streak", 0, "two"]]))


def test_robbing_the_kong_the_konger_pays_all() -> None:
    """West pongs East's 9条, draws the fourth and adds it: South robs the kong (抢杠) with a
    德国 平胡, u = 1 × 2 × 2; the shares 13 (West, the konger) + 8 (East) + 4 (North) are all
    West's (抢杠全包). 精分 apart: West's 5 (冲关 10, 霸王精 20)."""
    deal = {
        0: "345m678m6s234z7p9s1z",
        1: "123p456p123s55z78s",
        2: "99s112m44z67z35s89p",
        3: "999m356p28s113z47m",
    }
    events = [INDICATOR, ["draw", 0, "8m"], ["discard", 0, "9s"], ["pong", 2, "9s"],
              ["discard", 2, "3s"], ["draw", 3, "4p"], ["discard", 3, "4p"],
              ["draw", 0, "1s"], ["discard", 0, "1s"], ["draw", 1, "9p"], ["discard", 1, "9p"],
              ["draw", 2, "9s"], ["added_kong", 2, "9s"],
              ["win", 1, "9s", {"from": 2}]]  # fmt: skip
    outcome = run(log(deal, events))
    (win,) = outcome.wins
    assert win.source == "robbing_kong"
    assert [f.id for f in win.fans] == ["ping_hu", "de_guo", "robbing_kong"]
    assert win.deltas == (0, 25, -25, 0)
    assert outcome.deltas == (-20, 5, 35, -20)
    assert "robbing_kong" in outcome.notes


def test_the_database_holds_the_hand_with_its_jing_points(tmp_path: Path) -> None:
    """Ingested into DuckDB, the worked hand's seats carry the win and 精分 together, and its
    win's facts the 精分 breakdown the replay page shows."""
    path = tmp_path / "nanchang.paipu.jsonl"
    path.write_text(json.dumps(log(WORKED_DEAL, WORKED_EVENTS)) + "\n", encoding="utf-8")
    db = tmp_path / "paipu.duckdb"
    assert ingest([path], db).hands == 1
    with duckdb.connect(str(db), read_only=True) as con:
        deltas = con.execute("SELECT delta FROM hand_seats ORDER BY seat").fetchall()
        detail = con.execute("SELECT detail FROM wins").fetchone()
    assert [d for (d,) in deltas] == [-33, -3, 58, -22]
    assert detail is not None and json.loads(detail[0])["jing_deltas"] == [-20, -20, 60, -20]
