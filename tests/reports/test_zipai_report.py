"""The zipai figures' data (郴州字牌: 胡息 totals, 名堂, wins on flipped cards) against values
worked out from the records themselves, with plain Python over the log lines, and the example
hand of docs/zipai.md by hand.

What a zipai record says, read as a player would: a win's card comes from the winner's own
flip (自摸), another seat's flip (not a deal-in) or another seat's discard (放炮, a deal-in):
whichever of ``draw`` (the dealer's card, 天胡), ``flip`` or ``discard`` came last before
the ``win``. A win's ``total`` is its 胡息, its ``fans`` are the 名堂 ([id, multiplier,
count]); the hand's ``deltas`` are the points (no hand here has a 相公, whose penalty would
be added to them).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from reports_fixture import ZIPAI, ZIPAI_EXAMPLE

from paipu.pipeline.report import query, replay_rows
from paipu.reports import figures, frames
from paipu.reports.variants import variant_info

EXAMPLE_GAME = "sim-zipai_chenzhou-1-000000"


def rows(frame: pl.DataFrame, *columns: str) -> list[tuple]:
    return frame.select(columns).rows()


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def source_of(record: dict[str, Any], seat: int) -> tuple[str, int | None, int]:
    """(source, the seat whose card it was, the index of the discard or flip) of a win."""
    events = record["events"]
    at = next(i for i, e in enumerate(events) if e[0] == "win" and e[1] == seat)
    before = next(i for i in range(at - 1, -1, -1) if events[i][0] in ("draw", "flip", "discard"))
    kind, owner = events[before][0], events[before][1]
    if kind == "discard":
        return "discard", owner, before
    if kind == "flip" and owner != seat:
        return "flip", owner, before
    return "self_draw", None, before


@pytest.fixture(scope="module")
def hands(zipai_file: Path) -> list[dict[str, Any]]:
    found = load(zipai_file)
    assert len(found) == 61
    assert not any(e[0] == "xiang_gong" for r in found for e in r["events"])
    return found


def wins_of(hands: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(r, w) for r in hands for w in r["result"].get("wins", [])]


def test_overview(zcon, hands) -> None:
    totals = query(zcon, "overview-totals").row(0, named=True)
    games = {r["game"] for r in hands}
    players = {p for r in hands for p in r["players"]}
    drawn = sum(r["result"]["outcome"] == "draw" for r in hands)
    assert (totals["hands"], totals["games"], totals["players"]) == (61, len(games), len(players))
    assert (totals["won"], totals["drawn"], totals["variants"]) == (61 - drawn, drawn, 1)
    variants = query(zcon, "overview-variants")
    assert rows(variants, "variant", "hands", "ok", "mismatched") == [(ZIPAI, 61, 61, 0)]


def test_win_rates_and_how_hands_are_won(zcon, hands) -> None:
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    own_flip: Counter[str] = Counter()
    dealt_in: Counter[str] = Counter()
    drawn: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    for record in hands:
        names = record["players"]
        played.update(names)
        if record["result"]["outcome"] == "draw":
            drawn.update(names)
        for win in record["result"].get("wins", []):
            source, owner, _ = source_of(record, win["seat"])
            sources[source] += 1
            won[names[win["seat"]]] += 1
            own_flip[names[win["seat"]]] += source == "self_draw"
            if source == "discard":
                assert owner == win["from"]
                dealt_in[names[owner]] += 1
    rates = frames.winrates(query(zcon, "winrates-player-variants"))
    assert {
        r[0]: r[1:]
        for r in rows(rates, "player", "hands", "wins", "self_drawn", "deal_ins", "drawn")
    } == {p: (played[p], won[p], own_flip[p], dealt_in[p], drawn[p]) for p in played}
    first = rates.row(0, named=True)
    assert first["win_rate"] == pytest.approx(won[first["player"]] / played[first["player"]])
    by_source = frames.win_sources(query(zcon, "winrates-sources"))
    assert rows(by_source, "source", "wins") == [
        (s, sources[s]) for s in ("self_draw", "discard", "flip") if sources[s]
    ]
    assert sources["flip"] > 0 and sources["discard"] > 0  # both kinds occur in the fixture
    total = sum(sources.values())
    fig = figures.win_sources(by_source)
    flip = next(t for t in fig.data if t.name == "on another's flip (zipai)")
    assert list(flip.x) == [ZIPAI]
    assert flip.y[0] == pytest.approx(100 * sources["flip"] / total)
    variants = frames.winrates(query(zcon, "winrates-variants")).row(0, named=True)
    assert variants["deal_ins"] == sources["discard"]  # a win on a flip is no deal-in


def test_xi_distribution_and_mingtang(zcon, hands) -> None:
    wins = wins_of(hands)
    xi = Counter(w["total"] for _, w in wins)
    totals = query(zcon, "fans-totals")
    assert rows(totals, "variant", "total", "wins") == [(ZIPAI, t, xi[t]) for t in sorted(xi)]
    unit = variant_info(ZIPAI).total_unit
    assert unit == "胡息 xi"
    fig = figures.win_totals(totals, ZIPAI, unit)
    assert list(fig.data[0].x) == sorted(xi)
    assert list(fig.data[0].y) == [xi[t] for t in sorted(xi)]
    assert fig.layout.xaxis.title.text == "win total, 胡息 xi"
    named: Counter[str] = Counter()
    multiplier: dict[str, int] = {}
    for _, w in wins:
        for fan, points, _count in w["fans"]:
            named[fan] += 1
            multiplier[fan] = points
    assert named  # the fixture has 名堂 (红胡, 一点红)
    freq = frames.fan_frequency(query(zcon, "fans-frequency"))
    assert {r[0]: r[1:] for r in rows(freq, "fan", "with_fan", "points", "wins")} == {
        f: (n, multiplier[f], len(wins)) for f, n in named.items()
    }
    hong = freq.filter(pl.col("fan") == "hong_hu").row(0, named=True)
    assert (hong["name_zh"], hong["points"]) == ("红胡", 3)
    assert hong["share"] == pytest.approx(named["hong_hu"] / len(wins))
    bars = figures.fan_frequency(freq, ZIPAI, "名堂").data[0]
    assert bars.y[0].startswith(freq["name_zh"][0])
    assert bars.x[0] == pytest.approx(100 * freq["with_fan"][0] / len(wins))
    average = frames.fan_average(query(zcon, "fans-average")).row(0, named=True)
    plain = sum(not w["fans"] for _, w in wins)
    points = [r["result"]["deltas"][w["seat"]] for r, w in wins]
    assert (average["wins"], average["plain"]) == (len(wins), plain)
    assert average["total"] == pytest.approx(sum(w["total"] for _, w in wins) / len(wins))
    assert average["points"] == pytest.approx(sum(points) / len(points))


def test_deal_in_risk(zcon, hands) -> None:
    cells: Counter[tuple[str, str]] = Counter()
    won_on: Counter[tuple[str, str]] = Counter()
    for record in hands:
        turns: Counter[int] = Counter()
        dealt = {
            source_of(record, w["seat"])[2]
            for w in record["result"].get("wins", [])
            if source_of(record, w["seat"])[0] == "discard"
        }
        for i, (kind, seat, card, *_) in enumerate(record["events"]):
            if kind != "discard":
                continue
            turns[seat] += 1
            size = "big" if card.endswith("d") else "small"
            colour = "red" if int(card[:-1]) in (2, 7, 10) else "black"
            bucket = ("1-3", "4-6", "7-9", "10-12", "13+")[min((turns[seat] - 1) // 3, 4)]
            cells[f"{size} {colour}", bucket] += 1
            won_on[f"{size} {colour}", bucket] += i in dealt
    grid = frames.dealin_grid(query(zcon, "dealin-grid"))
    labels = {
        "small red": "small red 小红 (二七十)",
        "small black": "small black 小黑",
        "big red": "big red 大红 (贰柒拾)",
        "big black": "big black 大黑",
    }
    expected = sorted(
        ((labels[k], b, n, won_on[k, b]) for (k, b), n in cells.items()),
        key=lambda r: (
            list(labels.values()).index(r[0]),
            ("1-3", "4-6", "7-9", "10-12").index(r[1]),
        ),
    )
    assert rows(grid, "kind", "turns", "discards", "won_on") == expected
    heat = figures.dealin_heatmap(grid, ZIPAI, "won_on_rate").data[0]
    assert list(heat.y) == [k for k in labels.values() if any(c[0] == k for c in expected)]
    first = expected[0]
    assert heat.z[0][0] == pytest.approx(100 * first[3] / first[2])
    players = frames.dealin_players(query(zcon, "dealin-player-variants"))
    dealt_in: Counter[str] = Counter()
    for record in hands:
        for w in record["result"].get("wins", []):
            source, owner, _ = source_of(record, w["seat"])
            if source == "discard":
                dealt_in[record["players"][owner]] += 1
    assert dict(rows(players, "player", "deal_ins")) == {
        p: dealt_in[p] for p in players["player"].to_list()
    }
    melds = frames.dealin_melds(query(zcon, "dealin-melds"))
    assert sum(melds["pairs"]) == 2 * sum(cells.values())  # three players: two opponents
    assert sum(melds["won_by"]) == sum(dealt_in.values()) == sum(won_on.values())
    assert melds["melds"].to_list() == sorted(melds["melds"].to_list())


def test_the_example_hand(zcon) -> None:
    """docs/zipai.md's hand: Emi's second discard 肆 (event 9) is won on by Fang (event 10),
    whose 跑 was her one exposed meld; 15 胡息, Emi pays 9."""
    deal_ins = query(zcon, "player-dealins", player="Emi", limit=100).filter(
        pl.col("game") == EXAMPLE_GAME
    )
    assert rows(
        deal_ins, "hand", "source", "seq", "win_seq", "tile", "turn", "winner", "winner_melds"
    ) == [(1, "discard", 9, 10, "4d", 2, "Fang", 1)]
    assert rows(deal_ins, "total", "lost") == [(15, 9)]
    [(game, hands, players, entries)] = replay_rows(zcon, EXAMPLE_GAME, EXAMPLE_GAME)
    assert (game, hands, players) == (EXAMPLE_GAME, [1], ["Ann", "Emi", "Fang"])
    entry = json.loads("{" + entries[0].decode() + "}")["1"]
    assert entry["record"] == ZIPAI_EXAMPLE  # the record, as loaded
    info = entry["info"]
    [win] = info["wins"]
    detail = win.pop("detail")
    assert win == {
        "seat": 0,
        "from_seat": 1,
        "source": "discard",
        "seq": 10,
        "tile": "4d",
        "total": 15,
        "points": 9,
        "fans": [],
    }
    # the grouping the replay page shows: 跑 9 + two 坎 3 + 3, runs and the pair 0 = 15 胡息
    groups = [(g["name"], "".join(g["cards"]), g["exposed"], g["xi"]) for g in detail["groups"]]
    assert groups[:3] == [
        ("跑", "3d3d3d3d", True, 9),
        ("坎", "3x3x3x", False, 3),
        ("坎", "6x6x6x", False, 3),
    ]
    assert sum(g[3] for g in groups) == 15
    assert sum(len(g["cards"]) for g in detail["groups"]) == 21
    assert [s["delta"] for s in info["seats"]] == [9, -9, 0]
    assert (info["prev"], info["next"], info["dealer"]) == (None, None, 1)
    by_player: dict[str, Any] = defaultdict(list)
    for r in query(zcon, "player-extremes", player="Fang", top=100).iter_rows(named=True):
        by_player[r["game"]].append((r["kind"], r["delta"], r["detail"]))
    assert by_player[EXAMPLE_GAME] == [("win", 9, None)]  # no 名堂 to list
