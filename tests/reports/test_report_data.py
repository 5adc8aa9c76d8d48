"""Each figure's data on the fixture database against values worked out by hand.

The hands (tests/fixtures/reports/hands.paipu.jsonl), their deltas by seat (MCR: the
discarder pays 8 + fan, the others 8; on a self-draw everyone pays 8 + fan):

=====  ======  ==============================================  ===================
hand   dealer  what happens                                    deltas
=====  ======  ==============================================  ===================
g1 #0  Ann     Bo wins 21 on Chen's 5p (Chen deals in)         Ann −8, Bo +45, Chen −29, Dai −8
g1 #1  Bo      Dai self-draws seven pairs, 25                  −33, −33, −33, Dai +99
g1 #2  Chen    exhaustive draw (Ann and Bo pass wins)          0, 0, 0, 0
g1 #3  Dai     Ann pongs 5z, wins 20 on Bo's 1p                Ann +44, Bo −28, Chen −8, Dai −8
g2 #0  Ann     Ann self-draws on her first tile, 13            Ann +63, Bo −21, Chen −21, Eve −21
g2 #1  Bo      Chen wins 29 on Bo's 9s; the record says 99     Ann −8, Bo −37, Chen +53, Eve −8
g2 #2  Chen    Chen discards a tile he does not hold: rejected
=====  ======  ==============================================  ===================

Intervals: Wilson 95 % (z = 1.96); e.g. 2 of 6 → 0.0968–0.7000, 1 of 6 → 0.0301–0.5635,
2 of 5 → 0.1176–0.7693, worked out from p̂ ± the Wilson formula by hand.
"""

from __future__ import annotations

import datetime as dt
import math

import duckdb
import polars as pl
import pytest

from paipu.pipeline.report import query, select
from paipu.pipeline.sql import apply_schema, load_queries
from paipu.reports import figures, frames
from paipu.reports.variants import variant_info


def rows(frame: pl.DataFrame, *columns: str) -> list[tuple]:
    return frame.select(columns).rows()


def close(a: float | None, b: float | None, tol: float = 1e-4) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) < tol)


def trace(fig, name: str):
    found = [t for t in fig.data if t.name == name]
    assert found, f"no trace {name!r} in {[t.name for t in fig.data]}"
    return found[0]


# --------------------------------------------------------------------------- every query


def test_every_query_plans_on_an_empty_schema() -> None:
    con = duckdb.connect()
    apply_schema(con)
    queries = load_queries()
    params = {
        "top": 5,
        "window": 10,
        "limit": 5,
        "player": None,
        "variant": None,
        "min_games": 1,
        "min_hands": 1,
        "table": "hands",
    }
    select(con)
    for name, q in queries.items():
        if name == "report-selection":
            continue
        used = {k: v for k, v in params.items() if f"${k}" in q.sql}
        con.execute(f"EXPLAIN {q.sql}", used)
        assert q.doc, f"query {name} has no documentation comment"


# --------------------------------------------------------------------------- overview


def test_overview(con) -> None:
    totals = query(con, "overview-totals").row(0, named=True)
    assert totals["hands"] == 6
    assert totals["games"] == 2
    assert totals["players"] == 5
    assert totals["variants"] == 1
    assert totals["first_time"] == dt.datetime(2026, 1, 1, 10, 0)
    assert totals["last_time"] == dt.datetime(2026, 1, 1, 10, 30)
    assert (totals["untimed"], totals["won"], totals["drawn"], totals["aborted"]) == (2, 5, 1, 0)
    assert (totals["mismatched"], totals["rejected"]) == (1, 1)
    variants = query(con, "overview-variants")
    assert rows(variants, "variant", "hands", "games", "players", "won", "drawn") == [
        ("mcr", 6, 2, 5, 5, 1)
    ]
    assert rows(variants, "ok", "mismatched", "unrecorded") == [(0, 1, 5)]
    fig = figures.outcomes(variants)
    assert list(trace(fig, "won").y) == [5]
    assert list(trace(fig, "exhaustive draw").y) == [1]
    assert list(trace(fig, "aborted").y) == [0]
    players = query(con, "overview-players")
    assert rows(players, "player", "hands", "games", "variants") == [
        ("Ann", 6, 2, "mcr"),
        ("Bo", 6, 2, "mcr"),
        ("Chen", 6, 2, "mcr"),
        ("Dai", 4, 1, "mcr"),
        ("Eve", 2, 1, "mcr"),
    ]
    assert "points" not in players.columns  # points are per variant, never summed across


# --------------------------------------------------------------------------- win rates


def test_winrates_per_player(con) -> None:
    rates = frames.winrates(query(con, "winrates-player-variants"))
    assert rows(rates, "player", "hands", "wins", "self_drawn", "deal_ins", "drawn") == [
        ("Ann", 6, 2, 1, 0, 1),
        ("Bo", 6, 1, 0, 2, 1),
        ("Chen", 6, 1, 0, 1, 1),
        ("Dai", 4, 1, 1, 0, 1),
        ("Eve", 2, 0, 0, 0, 0),
    ]
    ann = rates.row(0, named=True)
    assert close(ann["win_rate"], 2 / 6)
    assert close(ann["win_rate_lo"], 0.0968) and close(ann["win_rate_hi"], 0.7000)
    assert close(ann["self_draw"], 0.5)
    assert close(ann["deal_in_rate"], 0.0) and close(ann["deal_in_rate_hi"], 0.3903)
    assert close(ann["drawn_rate"], 1 / 6)
    # Ann's deltas −8, −33, 0, +44, +63, −8: won per hand 107/6, lost per hand 49/6.
    assert close(ann["won"], 107 / 6)
    assert close(ann["lost"], 49 / 6)
    won = [0, 0, 0, 44, 63, 0]
    sd = math.sqrt(sum((w - 107 / 6) ** 2 for w in won) / 5)
    assert close(ann["won_hi"], 107 / 6 + 1.96 * sd / math.sqrt(6))
    bo = rates.row(1, named=True)
    assert close(bo["deal_in_rate"], 2 / 6)
    assert close(bo["lost"], (33 + 28 + 21 + 37) / 6)
    eve = rates.row(4, named=True)
    assert eve["self_draw"] is None  # no wins: the share is undefined
    assert close(eve["lost"], 14.5)
    fig = figures.player_rates(rates)
    win = trace(fig, "win rate")
    assert list(win.y) == ["Ann", "Bo", "Chen", "Dai", "Eve"]
    assert [round(x, 4) for x in win.x] == [33.3333, 16.6667, 16.6667, 25.0, 0.0]
    assert win.error_x.array[0] == pytest.approx(100 * (0.7000 - 2 / 6), abs=0.01)
    assert win.error_x.arrayminus[0] == pytest.approx(100 * (2 / 6 - 0.0968), abs=0.01)
    assert [round(x, 4) for x in trace(fig, "deal-in rate").x] == [0.0, 33.3333, 16.6667, 0, 0]


def test_winrates_by_seat_and_dealer(con) -> None:
    seats = frames.winrates(query(con, "winrates-seat-variants"))
    assert rows(seats, "seat", "is_dealer", "hands", "wins", "self_drawn", "deal_ins", "drawn") == [
        (0, True, 2, 1, 1, 0, 0),
        (0, False, 4, 1, 0, 0, 1),
        (1, True, 2, 0, 0, 1, 0),
        (1, False, 4, 1, 0, 1, 1),
        (2, True, 1, 0, 0, 0, 1),
        (2, False, 5, 1, 0, 1, 0),
        (3, True, 1, 0, 0, 0, 0),
        (3, False, 5, 1, 1, 0, 1),
    ]
    fig = figures.seat_rates(seats)
    dealer = [t for t in fig.data if t.name == "dealer"]
    assert list(dealer[0].x) == ["seat 0", "seat 1", "seat 2", "seat 3"]
    assert [round(y, 4) for y in dealer[0].y] == [50.0, 0.0, 0.0, 0.0]  # win rate
    assert [round(y, 4) for y in dealer[1].y] == [0.0, 50.0, 0.0, 0.0]  # deal-in rate
    others = [t for t in fig.data if t.name == "not dealer"]
    assert [round(y, 4) for y in others[0].y] == [25.0, 25.0, 20.0, 20.0]


def test_winrates_by_variant_and_over_time(con) -> None:
    variants = frames.winrates(query(con, "winrates-variants"))
    assert rows(variants, "variant", "hands", "wins", "self_drawn", "deal_ins", "drawn") == [
        ("mcr", 24, 5, 2, 3, 4)
    ]
    mcr = variants.row(0, named=True)
    assert close(mcr["win_rate_lo"], 0.0924) and close(mcr["win_rate_hi"], 0.4047)
    fig = figures.variant_rates(variants)
    assert [round(y, 4) for y in trace(fig, "win rate").y] == [20.8333]
    assert [round(y, 4) for y in trace(fig, "self-draw share of wins").y] == [40.0]
    # 5 wins: Dai g1 #1 and Ann g2 #0 self-drawn; Bo g1 #0, Ann g1 #3, Chen g2 #1 on discards
    sources = frames.win_sources(query(con, "winrates-sources"))
    assert rows(sources, "variant", "source", "wins", "variant_wins") == [
        ("mcr", "self_draw", 2, 5),
        ("mcr", "discard", 3, 5),
    ]
    assert close(sources["share_lo"][0], 0.1176)  # 2 of 5
    fig = figures.win_sources(sources)
    assert [round(y, 4) for y in trace(fig, "self-draw 自摸").y] == [40.0]
    assert [round(y, 4) for y in trace(fig, "on a discard 点炮").y] == [60.0]
    rolling = query(con, "winrates-rolling-variants", top=2, window=3)
    # The two players with most hands (6 each; ties by name): Ann and Bo, over their last
    # 3 hands. Ann: g1 #0-#3 (won #3), then g2 #0 (won), g2 #1.
    ann = rolling.filter(pl.col("player") == "Ann")
    assert rows(ann, "n", "window_hands") == [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3), (6, 3)]
    assert [round(r, 4) for r in ann["win_rate"]] == [0, 0, 0, 0.3333, 0.6667, 0.6667]
    assert rolling["player"].unique(maintain_order=True).to_list() == ["Ann", "Bo"]
    fig = figures.rolling_rates(rolling, 3)
    assert [round(y, 2) for y in trace(fig, "Ann").y] == [0, 0, 0, 33.33, 66.67, 66.67]


# --------------------------------------------------------------------------- fans


def test_fan_frequencies(con) -> None:
    freq = frames.fan_frequency(query(con, "fans-frequency"))
    counts = dict(rows(freq, "fan", "with_fan"))
    assert counts == {
        "pure_straight": 2,  # Bo g1 #0, Ann g1 #3
        "concealed_hand": 2,  # Bo g1 #0, Chen g2 #1
        "one_voided_suit": 2,  # Bo g1 #0, Ann g1 #3
        "single_wait": 2,  # Ann g1 #3, Ann g2 #0
        "full_flush": 1,
        "seven_pairs": 1,
        "mixed_straight": 1,
        "fully_concealed_hand": 1,
        "all_chows": 1,
        "dragon_pung": 1,
        "pung_of_terminals_or_honors": 1,
        "self_drawn": 1,
        "short_straight": 1,
    }
    assert set(freq["wins"]) == {5}
    top = freq.row(0, named=True)
    assert (top["fan"], top["name_zh"], top["name_en"], top["points"]) == (
        "pure_straight",
        "清龙",
        "Pure Straight",
        16,
    )
    assert close(top["share"], 0.4) and close(top["share_lo"], 0.1176)
    fig = figures.fan_frequency(freq, "mcr")
    bar = fig.data[0]
    assert bar.y[0] == "清龙 Pure Straight"
    assert [round(x, 4) for x in bar.x[:4]] == [40.0, 40.0, 40.0, 40.0]
    assert [round(x, 4) for x in bar.x[4:]] == [20.0] * 9


def test_win_totals_average_and_combinations(con) -> None:
    totals = query(con, "fans-totals")
    assert rows(totals, "total", "wins") == [(13, 1), (20, 1), (21, 1), (25, 1), (29, 1)]
    fig = figures.win_totals(totals, "mcr", variant_info("mcr").total_unit)
    assert list(fig.data[0].x) == [13, 20, 21, 25, 29]
    assert list(fig.data[0].y) == [1, 1, 1, 1, 1]
    assert fig.layout.xaxis.title.text == "win total, 番 fan"
    assert not figures.win_totals(totals, "zipai_chenzhou").data[0].x  # never mixed
    average = frames.fan_average(query(con, "fans-average")).row(0, named=True)
    assert (average["wins"], average["plain"]) == (5, 0)  # every MCR win has fans
    assert close(average["total"], 108 / 5)  # (21 + 25 + 20 + 13 + 29) / 5
    assert close(average["points"], 304 / 5)  # (45 + 99 + 44 + 63 + 53) / 5
    combos = frames.fan_combinations(query(con, "fans-combinations", top=2))
    assert rows(combos, "fans", "with_combo", "wins") == [
        ("full_flush + concealed_hand + pung_of_terminals_or_honors + short_straight", 1, 5),
        ("mixed_straight + fully_concealed_hand + single_wait", 1, 5),
    ]
    assert combos["names_zh"][1] == "花龙 + 不求人 + 独听・单钓"


def test_fan_profile_against_population(con) -> None:
    profile = frames.fan_profile(query(con, "fans-players", player=None))
    ann = profile.filter(pl.col("player") == "Ann")
    assert set(ann["wins"]) == {2} and set(ann["population_wins"]) == {5}
    shares = {
        r["fan"]: (r["with_fan"], r["population_with_fan"]) for r in ann.iter_rows(named=True)
    }
    assert shares["single_wait"] == (2, 2)
    assert shares["pure_straight"] == (1, 2)
    assert shares["seven_pairs"] == (0, 1)
    assert len(shares) == 13  # every fan seen in the variant, 0 where Ann never had it
    assert profile["player"].unique(maintain_order=True).to_list() == ["Ann", "Bo", "Chen", "Dai"]
    fig = figures.fan_player_heatmap(profile, "mcr")
    assert list(fig.data[0].y) == ["Ann", "Bo", "Chen", "Dai"]  # most wins first
    x = list(fig.data[0].x)
    ann_row = fig.data[0].z[0]
    assert round(ann_row[x.index("独听・单钓 Single Wait")], 4) == 60.0  # 100% − 40%
    assert round(ann_row[x.index("七对 Seven Pairs")], 4) == -20.0  # 0% − 20%
    player = figures.player_fans(profile, "mcr", "Ann")
    mine, everyone = player.data
    assert mine.name == "Ann" and everyone.name == "all players"
    assert round(mine.x[list(mine.y).index("独听・单钓 Single Wait")], 4) == 100.0
    assert round(everyone.x[list(everyone.y).index("独听・单钓 Single Wait")], 4) == 40.0


# --------------------------------------------------------------------------- deal-in


def test_dealin_grid(con) -> None:
    grid = frames.dealin_grid(query(con, "dealin-grid"))
    # 13 discards, all on the discarder's first turn: 7 honors nobody else had shown,
    # 5 terminals, 1 three-to-seven (Chen's 5p, won on).
    assert rows(grid, "kind", "turns", "discards", "dangerous", "won_on") == [
        ("honor, 0 visible", "1-3", 7, 2, 0),
        ("terminal 1/9", "1-3", 5, 2, 2),
        ("3 to 7", "1-3", 1, 1, 1),
    ]
    fig = figures.dealin_heatmap(grid, "mcr", "danger")
    heat = fig.data[0]
    assert list(heat.x) == ["1-3"]  # the only turn bucket with discards
    assert fig.layout.xaxis.type == "category"  # "1-3" is not a date
    assert list(heat.y) == ["honor, 0 visible", "terminal 1/9", "3 to 7"]
    assert [round(v[0], 4) for v in heat.z] == [28.5714, 40.0, 100.0]
    assert heat.text[1][0] == "40.0%<br>n=5"
    won = figures.dealin_heatmap(grid, "mcr", "won_on_rate").data[0]
    assert [round(row[0], 4) for row in won.z] == [0.0, 40.0, 100.0]


def test_dealin_by_opponent_melds(con) -> None:
    melds = frames.dealin_melds(query(con, "dealin-melds"))
    # 13 discards × 3 opponents = 39 pairs; only Bo's 1p in g1 #3 met an opponent (Ann)
    # with an exposed meld (her pong), and Ann won on it.
    assert rows(melds, "melds", "pairs", "won_by", "could_win") == [("0", 38, 2, 5), ("1", 1, 1, 1)]
    fig = figures.dealin_melds(melds, "mcr")
    bars = trace(fig, "won on by that opponent")
    assert list(bars.x) == ["0", "1"]
    assert fig.layout.xaxis.type == "category"
    assert [round(y, 4) for y in bars.y] == [round(200 / 38, 4), 100.0]
    assert [round(y, 4) for y in trace(fig, "completed that opponent's hand").y] == [
        round(500 / 38, 4),
        100.0,
    ]


def test_dealin_per_player(con) -> None:
    players = frames.dealin_players(query(con, "dealin-player-variants"))
    assert rows(players, "player", "hands", "deal_ins", "discards", "dangerous", "into_open") == [
        ("Ann", 6, 0, 3, 0, 0),
        ("Bo", 6, 2, 5, 2, 1),
        ("Chen", 6, 1, 3, 2, 0),
        ("Dai", 4, 0, 2, 1, 0),
        ("Eve", 2, 0, 0, 0, 0),
    ]
    bo = players.row(1, named=True)
    assert close(bo["lost"], 32.5)  # (28 + 37) / 2
    assert close(bo["lost_hi"], 32.5 + 1.96 * math.sqrt(40.5) / math.sqrt(2))
    fig = figures.dealin_players(players)
    assert [round(x, 4) for x in trace(fig, "deal-in rate (per hand)").x] == [
        0.0,
        33.3333,
        16.6667,
        0.0,
        0.0,
    ]
    danger = trace(fig, "dangerous discards (per discard)").x
    assert [round(x, 4) if x is not None else None for x in danger] == [
        0.0,
        40.0,
        66.6667,
        50.0,
        None,
    ]


# --------------------------------------------------------------------------- player pages


def test_player_sections(con) -> None:
    cumulative = query(con, "player-cumulative", player="Ann")
    assert rows(cumulative, "n", "game", "hand", "score") == [
        (1, "g1", 0, -8),
        (2, "g1", 1, -41),
        (3, "g1", 2, -41),
        (4, "g1", 3, 3),
        (5, "g2", 0, 66),
        (6, "g2", 1, 58),
    ]
    fig = figures.cumulative_score(cumulative, "Ann")
    assert list(fig.data[0].y) == [-8, -41, -41, 3, 66, 58]
    games = query(con, "player-games", player="Ann", limit=10)
    assert rows(games, "game", "hands", "wins", "deal_ins", "points", "games_total") == [
        ("g2", [0, 1], 1, 0, 55, 2),
        ("g1", [0, 1, 2, 3], 1, 0, 3, 2),
    ]
    assert query(con, "player-games", player="Ann", limit=1)["game"].to_list() == ["g2"]
    extremes = query(con, "player-extremes", player="Ann", top=2)
    assert rows(extremes, "kind", "rank", "game", "hand", "delta") == [
        ("win", 1, "g2", 0, 63),
        ("win", 2, "g1", 3, 44),
        ("loss", 1, "g1", 1, -33),
        ("loss", 2, "g1", 0, -8),
    ]
    assert (
        extremes["detail"][0]
        == "花龙 Mixed Straight, 不求人 Fully Concealed Hand, 独听・单钓 Single Wait"
    )
    assert extremes["detail"][2] == "won by Dai (25)"


def test_player_deal_ins_and_missed_wins(con) -> None:
    deal_ins = query(con, "player-dealins", player="Bo", limit=10)
    assert rows(
        deal_ins,
        "game",
        "hand",
        "seq",
        "win_seq",
        "tile",
        "winner",
        "winner_melds",
        "total",
        "lost",
    ) == [
        ("g2", 1, 1, 2, "9s", "Chen", 0, 29, 37),
        ("g1", 3, 5, 6, "1p", "Ann", 1, 20, 28),
    ]
    assert rows(deal_ins, "source", "turn") == [("discard", 1), ("discard", 1)]
    missed = query(con, "player-missed", player=None, limit=10)
    assert rows(missed, "player", "game", "hand", "seq", "tile", "from_player", "total") == [
        ("Ann", "g1", 2, 1, "1z", "Chen", 24),  # 全不靠 (knitted + honors) on Chen's 1z
        ("Ann", "g1", 2, 3, "6z", "Dai", 24),
        ("Bo", "g2", 1, 0, "7z", None, 25),  # 七星不靠 self-drawn, not declared
        ("Bo", "g1", 2, 3, "6z", "Dai", 12),  # 花龙 + 箭刻 on Dai's 6z
    ]


# --------------------------------------------------------------------------- audit


def test_audit(con) -> None:
    mismatches = query(con, "audit-mismatches", limit=10)
    assert rows(mismatches, "game", "hand", "deltas", "recorded_deltas") == [
        ("g2", 1, [-8, -37, 53, -8], [-8, -107, 123, -8])
    ]
    assert "seat 2: recorded total 99, computed 29" in mismatches["problems"][0]
    computed = query(con, "audit-computed")
    assert rows(computed, "fan", "fan_points", "count") == [
        ("full_flush", 24, 1),
        ("concealed_hand", 2, 1),
        ("pung_of_terminals_or_honors", 1, 2),
        ("short_straight", 1, 1),
    ]
    rejects = query(con, "audit-rejects", limit=10)
    assert rows(rejects, "line", "game", "hand", "variant", "event_index") == [
        (7, "g2", 2, "mcr", 1)
    ]
    assert rejects["players"][0].to_list() == ["Ann", "Bo", "Chen", "Eve"]
    assert "does not hold 7z" in rejects["reason"][0]


# --------------------------------------------------------------------------- filters


@pytest.mark.parametrize(
    ("filters", "hands", "rejected"),
    [
        ({"variant": "mcr"}, 6, 1),
        ({"variant": "sichuan"}, 0, 0),  # the reject is an MCR hand
        ({"player": "Eve"}, 2, 1),  # Eve sat in the rejected hand
        ({"player": "Dai"}, 4, 0),  # Dai did not
        ({"since": "2026-01-01 10:15:00"}, 2, 1),  # g1 #2, #3; rejects have no time
    ],
)
def test_selection_filters(fixture_db, filters, hands, rejected) -> None:
    con = duckdb.connect(str(fixture_db), read_only=True)
    select(con, **filters)
    totals = query(con, "overview-totals").row(0, named=True)
    assert (totals["hands"], totals["rejected"]) == (hands, rejected)
    assert query(con, "audit-rejects", limit=10).height == rejected
    con.close()
