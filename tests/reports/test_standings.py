"""Placements, competition standings (issue 16) and rankings (issue 19) on hand-made
sittings whose figures are worked out by hand below (``sittings.py`` writes them as
recorded-only hands, as a score sheet or a 国标小助手 record is loaded).

The four sittings (two hands each, the seats turned between them, so that a player's game
score is summed over seats), with each player's game score (比赛分), place and 标准分:

    s1  A +40 (1st, 4)   B +10 (2nd, 2)   C -20 (3rd, 1)   D -30 (4th, 0)
    s2  B +30 (1st, 4)   A, C, E -10: tied 2nd-4th, (2 + 1 + 0) / 3 = 1 each
    s3  B, C +20: tied 1st-2nd, (4 + 2) / 2 = 3 each   D -15 (3rd, 1)   E -25 (4th, 0)
    s4  C +16 (1st, 4)   A, D 0: tied 2nd-3rd, (2 + 1) / 2 = 1.5 each   E -16 (4th, 0)

Standings (Σ 标准分, then Σ 比赛分, then 1st places, …):

    1 B  9.0 (2 + 4 + 3)        60   two 1st, one 2nd
    2 C  9.0 (1 + 1 + 3 + 4)     6   B and C tie on 标准分: B's 比赛分 is higher
    3 A  6.5 (4 + 1 + 1.5)      30
    4 D  2.5 (0 + 1 + 1.5)     -45
    5 E  1.0 (1 + 0 + 0)       -51
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sittings import Hand, connect, write
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.pipeline.report import query, select

SITTINGS = {
    "s1": [
        Hand("ABCD", (32, -8, -16, -8), [(0, 2)]),  # A wins on C's discard
        Hand("BADC", (18, 8, -22, -4), [(0, 2)]),  # B wins on D's discard (a penalty on C)
    ],
    "s2": [
        Hand("ABCE", (-10, 30, -10, -10), [(1, None)]),  # B self-draws
        Hand("ECBA", (0, 0, 0, 0)),  # drawn
    ],
    "s3": [
        Hand("BCDE", (20, 0, 0, -20), [(0, 3)]),  # B on E's discard
        Hand("CDEB", (20, -15, -5, 0), [(0, 1)]),  # C on D's discard
    ],
    "s4": [
        Hand("ACDE", (0, 16, 0, -16), [(1, 3)]),  # C on E's discard
        Hand("DEAC", (0, 0, 0, 0)),
    ],
}


@pytest.fixture(scope="module")
def sittings_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("sittings") / "club.duckdb", SITTINGS)


@pytest.fixture
def club(sittings_db: Path) -> duckdb.DuckDBPyConnection:
    con = connect(sittings_db)
    yield con
    con.close()


def test_each_sitting_places_and_standard_scores(club) -> None:
    rows = query(club, "game-placements").rows(named=True)
    got = {
        (r["game"], r["player"]): (r["score"], r["place"], r["tied"], r["standard_score"])
        for r in rows
    }
    assert got == {
        ("s1", "A"): (40, 1, 1, 4.0),
        ("s1", "B"): (10, 2, 1, 2.0),
        ("s1", "C"): (-20, 3, 1, 1.0),
        ("s1", "D"): (-30, 4, 1, 0.0),
        ("s2", "B"): (30, 1, 1, 4.0),
        ("s2", "A"): (-10, 2, 3, 1.0),
        ("s2", "C"): (-10, 2, 3, 1.0),
        ("s2", "E"): (-10, 2, 3, 1.0),
        ("s3", "B"): (20, 1, 2, 3.0),
        ("s3", "C"): (20, 1, 2, 3.0),
        ("s3", "D"): (-15, 3, 1, 1.0),
        ("s3", "E"): (-25, 4, 1, 0.0),
        ("s4", "C"): (16, 1, 1, 4.0),
        ("s4", "A"): (0, 2, 2, 1.5),
        ("s4", "D"): (0, 2, 2, 1.5),
        ("s4", "E"): (-16, 4, 1, 0.0),
    }
    assert [r["game"] for r in rows][::4] == ["s1", "s2", "s3", "s4"]  # in the order played
    assert {r["hands"] for r in rows} == {2}


def test_standings_of_the_four_sittings(club) -> None:
    rows = query(club, "standings").rows(named=True)
    table = [
        (
            r["place"],
            r["player"],
            r["games"],
            r["standard_score"],
            r["score"],
            (r["firsts"], r["seconds"], r["thirds"], r["fourths"]),
            r["best"],
        )
        for r in rows
    ]
    assert table == [
        (1, "B", 3, 9.0, 60, (2, 1, 0, 0), 30),
        (2, "C", 4, 9.0, 6, (2, 1, 1, 0), 20),
        (3, "A", 3, 6.5, 30, (1, 2, 0, 0), 40),
        (4, "D", 3, 2.5, -45, (0, 1, 1, 1), 0),
        (5, "E", 3, 1.0, -51, (0, 1, 0, 2), -10),
    ]
    assert [r["standard_score12"] for r in rows] == [108, 108, 78, 30, 12]
    assert rows[0]["mean_standard_score"] == 3.0 and rows[0]["mean_score"] == 20.0


def test_rankings_standard_scores_places_and_percentiles(club) -> None:
    """Issue 19: 标准分 per game of the same four games, worked by hand; the places, the
    rates per hand and each player's percentile in the population of five."""
    rows = {r["player"]: r for r in query(club, "ranking-players", min_games=1).rows(named=True)}
    assert list(rows) == ["B", "A", "C", "D", "E"]  # by mean place: 4/3, 5/3, 7/4, 3, 10/3
    mean_ss = {p: round(r["mean_standard_score"], 4) for p, r in rows.items()}
    assert mean_ss == {"A": 2.1667, "B": 3.0, "C": 2.25, "D": 0.8333, "E": 0.3333}
    assert {p: round(r["mean_place"], 4) for p, r in rows.items()} == {
        "A": 1.6667,
        "B": 1.3333,
        "C": 1.75,
        "D": 3.0,
        "E": 3.3333,
    }
    assert [(rows["A"][k]) for k in ("firsts", "seconds", "thirds", "fourths")] == [1, 2, 0, 0]
    assert rows["E"]["last_rate"] == pytest.approx(2 / 3)
    assert rows["C"]["mean_score"] == 1.5  # (-20 - 10 + 20 + 16) / 4
    # Rates per hand: A 1 win in 6 hands, B 3 in 6, C 2 in 8, D and E none.
    assert {p: r["win_rate"] for p, r in rows.items()} == {
        "A": 1 / 6,
        "B": 0.5,
        "C": 0.25,
        "D": 0.0,
        "E": 0.0,
    }
    assert {p: r["deal_in_rate"] for p, r in rows.items()} == {
        "A": 0.0,
        "B": 0.0,
        "C": 1 / 8,
        "D": 2 / 6,
        "E": 2 / 6,
    }
    assert (
        rows["B"]["self_draw_share"] == pytest.approx(1 / 3)
        and rows["D"]["self_draw_share"] is None
    )
    assert {r["population"] for r in rows.values()} == {5}
    # percent_rank: (rank - 1) / (5 - 1), ascending, ties sharing the lower rank.
    assert {p: r["mean_standard_score_pct"] for p, r in rows.items()} == {
        "E": 0.0,
        "D": 0.25,
        "A": 0.5,
        "C": 0.75,
        "B": 1.0,
    }
    assert {p: r["win_rate_pct"] for p, r in rows.items()} == {
        "D": 0.0,
        "E": 0.0,
        "A": 0.5,
        "C": 0.75,
        "B": 1.0,
    }
    assert rows["C"]["self_draw_share_pct"] == 0.0 and rows["D"]["self_draw_share_pct"] is None


def test_the_minimum_games_sets_the_population(club) -> None:
    rows = query(club, "ranking-players", min_games=4).rows(named=True)
    assert [(r["player"], r["population"], r["win_rate_pct"]) for r in rows] == [("C", 1, 0.0)]


TIES = {
    # X and Y: 4 标准分 and 12 比赛分 each; X has a 1st place, Y none: X ranks higher.
    "u": [Hand("XYZW", (30, 22, -22, -30), [(0, 3)])],
    "v": [Hand("ZYWX", (40, -10, -12, -18), [(0, 3)])],
    # All square: 1.75 each, all four share 1st; in the standings they share a place.
    "w": [Hand("KLMN", (0, 0, 0, 0))],
    # Not placeable: one name at two seats, and a substitute in the second hand.
    "bots": [Hand(["bot", "bot", "Q", "R"], (8, -8, 0, 0), [(0, 1)])],
    "sub": [Hand("KLMN", (0, 0, 0, 0)), Hand("KLMO", (0, 0, 0, 0))],
}


@pytest.fixture(scope="module")
def ties_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # and a three-player zipai game: places, no 标准分
    games = {**TIES, "z": [Hand("XYZ", (12, -6, -6), [(0, 1)])]}
    db = tmp_path_factory.mktemp("ties") / "ties.duckdb"
    return write(db, games, variants={"z": "zipai_chenzhou"})


def test_standings_tie_breaks_and_shared_places(ties_db) -> None:
    with connect(ties_db) as con:
        rows = query(con, "standings").rows(named=True)
        assert [(r["place"], r["player"], r["standard_score"], r["score"]) for r in rows] == [
            (1, "Z", 5.0, 18),
            (2, "X", 4.0, 12),
            (3, "Y", 4.0, 12),
            (4, "K", 1.75, 0),
            (4, "L", 1.75, 0),
            (4, "M", 1.75, 0),
            (4, "N", 1.75, 0),
            (8, "W", 1.0, -42),
        ]
        unplaced = query(con, "games-unplaced").rows(named=True)
        assert [(r["variant"], r["games"], r["placed"], r["unplaced"]) for r in unplaced] == [
            ("mcr", 5, 3, 2),
            ("zipai_chenzhou", 1, 1, 0),
        ]
        three = query(con, "game-placements").filter(variant="zipai_chenzhou").rows(named=True)
        assert [(r["player"], r["place"], r["standard_score"]) for r in three] == [
            ("X", 1, None),
            ("Y", 2, None),
            ("Z", 2, None),
        ]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=4))
def test_standard_scores_always_add_up_to_seven(games: list[list[int]]) -> None:
    """Any four scores: the 标准分 add up to 7, tied players get equal ones, and a higher score
    never gets fewer."""
    con = duckdb.connect()
    from paipu.pipeline.sql import apply_schema

    apply_schema(con)
    for number, first_three in enumerate(games):
        deltas = [*first_three, -sum(first_three)]
        for seat, delta in enumerate(deltas):
            con.execute(
                "INSERT INTO hand_seats (game, hand, seat, player, is_dealer, delta, won, "
                "dealt_in, melds, ready_at_end) VALUES (?, 0, ?, ?, false, ?, false, false, 0, "
                "false)",
                [f"g{number}", seat, "PQRS"[seat], delta],
            )
        con.execute(
            "INSERT INTO hands (game, hand, variant, players, dealer, outcome, verdict, "
            "n_events) VALUES (?, 0, 'mcr', ['P', 'Q', 'R', 'S'], 0, 'draw', 'unrecorded', 0)",
            [f"g{number}"],
        )
    select(con)
    rows = query(con, "game-placements").rows(named=True)
    for game in {r["game"] for r in rows}:
        seats = [r for r in rows if r["game"] == game]
        assert sum(r["standard_score12"] for r in seats) == 84
        for a in seats:
            for b in seats:
                if a["score"] == b["score"]:
                    assert a["standard_score12"] == b["standard_score12"]
                elif a["score"] > b["score"]:
                    assert a["standard_score12"] > b["standard_score12"]
    con.close()


def test_paipu_standings_prints_the_table_and_json(sittings_db) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["standings", "--db", str(sittings_db), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [mcr] = data["variants"]
    assert mcr["variant"] == "mcr"
    assert [
        (p["place"], p["player"], p["standard_score"], p["score"]) for p in mcr["standings"]
    ] == [
        (1, "B", 9.0, 60),
        (2, "C", 9.0, 6),
        (3, "A", 6.5, 30),
        (4, "D", 2.5, -45),
        (5, "E", 1.0, -51),
    ]
    assert [s["game"] for s in mcr["sittings"]] == ["s1", "s2", "s3", "s4"]
    assert mcr["sittings"][1]["players"][1] == {
        "player": "A",
        "place": 2,
        "tied": 3,
        "score": -10,
        "standard_score": 1.0,
    }
    text = runner.invoke(app, ["standings", "--db", str(sittings_db)])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("标准分" in line for line in lines) and any("standard" in line for line in lines)
    assert [line.split()[1] for line in lines if line.split()[:1] in (["1"], ["2"], ["5"])][:3] == [
        "B",
        "C",
        "E",
    ]


def test_paipu_standings_prints_every_sitting(sittings_db) -> None:
    result = CliRunner().invoke(app, ["standings", "--db", str(sittings_db), "--sittings"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    s2 = next(i for i, line in enumerate(lines) if line.split()[:1] == ["s2"])
    assert [line.split()[-4:] for line in lines[s2 : s2 + 4]] == [
        ["1", "B", "+30", "4.00"],
        ["2", "A", "-10", "1.00"],
        ["2", "C", "-10", "1.00"],
        ["2", "E", "-10", "1.00"],
    ]


def test_paipu_standings_exit_codes(ties_db, tmp_path) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["standings", "--db", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 2
    nothing = runner.invoke(app, ["standings", "--db", str(ties_db), "--variant", "zipai_chenzhou"])
    assert nothing.exit_code == 4  # three players: no 标准分, no standings
    assert "four-player" in nothing.output
    bad_date = runner.invoke(app, ["standings", "--db", str(ties_db), "--since", "March"])
    assert bad_date.exit_code == 2 and "--since 'March'" in bad_date.output
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).close()  # a DuckDB file without paipu's tables
    broken = runner.invoke(app, ["standings", "--db", str(other)])
    assert broken.exit_code == 1 and "not a readable paipu database" in broken.output
