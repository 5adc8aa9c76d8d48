"""Who sits with whom (issue 19, item 5): table-mates, and per pair the deal-ins of one into
the other against the number the pair's overall rates predict, with a Poisson p-value.

The hand-worked table: A, B, C, D at ten hands; A deals in to B three times, C to D once, B
self-draws once, five hands are drawn. Per hand played: A's deal-in rate d = 3/10, C's
1/10; B wins on a discard at r = 3/10, D at 1/10, A and C never. In every hand A's expected
deal-ins into B are d_A · r_B / (r_B + r_C + r_D) = 0.3 · 0.3 / 0.4 = 0.225, so 2.25 over
the ten hands, against 3 observed: P(X ≥ 3) for X ~ Poisson(2.25) = 1 − e^−2.25 (1 + 2.25 +
2.25²/2) = 0.3907. C into D: 0.1 · 0.1 / 0.4 × 10 = 0.25 expected, 1 observed: 1 − e^−0.25.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest
from sittings import Hand, connect, write
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.pipeline.report import query


@pytest.fixture(scope="module")
def ten_hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    hands = (
        [Hand("ABCD", (-16, 32, -8, -8), [(1, 0)])] * 3  # A deals in to B
        + [Hand("ABCD", (-8, -8, -16, 32), [(3, 2)])]  # C deals in to D
        + [Hand("ABCD", (-10, 30, -10, -10), [(1, None)])]  # B self-draws
        + [Hand("ABCD", (0, 0, 0, 0))] * 5
    )
    return write(tmp_path_factory.mktemp("pairs") / "pairs.duckdb", {"t": hands})


def test_pair_dealins_against_expectation_worked_by_hand(ten_hands) -> None:
    con = connect(ten_hands)
    rows = {
        (r["discarder"], r["winner"]): r
        for r in query(con, "pair-dealins", min_hands=1).rows(named=True)
    }
    con.close()
    assert len(rows) == 12  # every ordered pair of the four
    ab = rows["A", "B"]
    assert (ab["hands"], ab["deal_ins"]) == (10, 3)
    assert ab["expected"] == pytest.approx(2.25)
    assert ab["ratio"] == pytest.approx(3 / 2.25)
    p = 1 - math.exp(-2.25) * (1 + 2.25 + 2.25**2 / 2)
    assert ab["p_value"] == pytest.approx(p) and round(p, 4) == 0.3907
    assert ab["pairs_tested"] == 12 and ab["p_bonferroni"] == 1.0
    assert (ab["discarder_deal_in_rate"], ab["winner_discard_win_rate"]) == (0.3, 0.3)
    cd = rows["C", "D"]
    assert cd["expected"] == pytest.approx(0.25) and cd["deal_ins"] == 1
    assert cd["p_value"] == pytest.approx(1 - math.exp(-0.25))
    assert rows["A", "D"]["expected"] == pytest.approx(0.75) and rows["A", "D"]["p_value"] == 1.0
    assert rows["B", "A"]["expected"] == 0 and rows["B", "A"]["ratio"] is None
    # sorted by p-value: the two pairs with deal-ins first
    con = connect(ten_hands)
    order = query(con, "pair-dealins", min_hands=1)
    con.close()
    assert list(zip(order["discarder"][:2], order["winner"][:2], strict=True)) == [
        ("C", "D"),
        ("A", "B"),
    ]


def test_the_far_tail_and_the_minimum_of_shared_hands(tmp_path) -> None:
    """40 hands: A deals in to B 8 times, C to D 30 times. d_A = 8/40, r_B = 8/40, r_D =
    30/40, so A's expected deal-ins into B are 40 · 0.2 · 0.2 / 0.95 = 1.684 against 8: the
    p-value is the upper tail summed term by term (no 1 − lower cancellation), ≈ 3.6e-4."""
    hands = (
        [Hand("ABCD", (-16, 32, -8, -8), [(1, 0)])] * 8
        + [Hand("ABCD", (-8, -8, -16, 32), [(3, 2)])] * 30
        + [Hand("ABCD", (0, 0, 0, 0))] * 2
    )
    con = connect(write(tmp_path / "feed.duckdb", {"t": hands}))
    rows = {
        (r["discarder"], r["winner"]): r
        for r in query(con, "pair-dealins", min_hands=1).rows(named=True)
    }
    expected = 40 * 0.2 * 0.2 / 0.95
    tail = sum(math.exp(-expected) * expected**k / math.factorial(k) for k in range(8, 60))
    ab = rows["A", "B"]
    assert ab["expected"] == pytest.approx(expected)
    assert ab["p_value"] == pytest.approx(tail, rel=1e-9) and 3.6e-4 < tail < 3.7e-4
    assert ab["p_bonferroni"] == pytest.approx(12 * tail, rel=1e-9)
    assert next(iter(rows)) == ("A", "B")  # the most significant pair first
    assert query(con, "pair-dealins", min_hands=41).height == 0  # they shared 40 hands
    con.close()


def _random_club(seed: int) -> dict[str, list[Hand]]:
    rng = random.Random(seed)
    names = "ABCDE"
    games: dict[str, list[Hand]] = {}
    for g in range(12):
        players = rng.sample(names, 4)
        hands = []
        for _ in range(6):
            roll = rng.random()
            if roll < 0.3:
                hands.append(Hand(players, (0, 0, 0, 0)))
                continue
            winner = rng.randrange(4)
            if roll < 0.45:
                deltas = [-10] * 4
                deltas[winner] = 30
                hands.append(Hand(players, tuple(deltas), [(winner, None)]))
                continue
            source = rng.choice([s for s in range(4) if s != winner])
            deltas = [-8] * 4
            deltas[winner], deltas[source] = 32, -16
            hands.append(Hand(players, tuple(deltas), [(winner, source)]))
        games[f"g{g:02d}"] = hands
    return games


def test_expectations_and_table_mates_match_a_direct_count(tmp_path) -> None:
    games = _random_club(11)
    con = connect(write(tmp_path / "club.duckdb", games))
    pairs = query(con, "pair-dealins", min_hands=1).rows(named=True)
    mates = query(con, "table-mates", top=10).rows(named=True)
    con.close()
    hands = [h for g in games.values() for h in g]
    played, dealt, won_on = Counter(), Counter(), Counter()
    for h in hands:
        for seat, name in enumerate(h.players):
            played[name] += 1
            dealt[name] += any(source == seat for _, source in h.wins)
            won_on[name] += any(w == seat and source is not None for w, source in h.wins)
    d = {p: dealt[p] / played[p] for p in played}
    r = {p: won_on[p] / played[p] for p in played}
    expected: dict[tuple[str, str], float] = defaultdict(float)
    observed: Counter[tuple[str, str]] = Counter()
    shared: Counter[tuple[str, str]] = Counter()
    for h in hands:
        for a in h.players:
            others = [o for o in h.players if o != a]
            total = sum(r[o] for o in others)
            for b in others:
                shared[a, b] += 1
                expected[a, b] += d[a] * r[b] / total if total else 0.0
        for w, source in h.wins:
            if source is not None:
                observed[h.players[source], h.players[w]] += 1
    assert len(pairs) == len(shared)
    for row in pairs:
        key = (row["discarder"], row["winner"])
        assert row["hands"] == shared[key]
        assert row["deal_ins"] == observed[key]
        assert row["expected"] == pytest.approx(expected[key], abs=1e-12)
        if row["deal_ins"] and row["expected"]:
            lower = sum(
                math.exp(-row["expected"]) * row["expected"] ** k / math.factorial(k)
                for k in range(row["deal_ins"])
            )
            assert row["p_value"] == pytest.approx(1 - lower, abs=1e-9)
    assert {(m["player"], m["mate"]): m["hands"] for m in mates} == dict(shared)
    first = [m for m in mates if m["player"] == "A"]
    assert [m["rank"] for m in first] == list(range(1, len(first) + 1))
    assert [m["hands"] for m in first] == sorted((m["hands"] for m in first), reverse=True)


def test_paipu_sql_runs_the_named_query(ten_hands, tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "pairs.csv"
    args = ["sql", "--named", "pair-dealins", "-p", "min_hands=5", "--db", str(ten_hands)]
    result = runner.invoke(app, [*args, "--csv", str(out)])
    assert result.exit_code == 0, result.output
    frame = pl.read_csv(out)
    assert frame.height == 12 and frame.row(1, named=True)["discarder"] == "A"
    assert (
        runner.invoke(app, [*args[:-2], "-p", "min_hands=11", "--db", str(ten_hands)]).exit_code
        == 0
    )
    listed = runner.invoke(app, ["sql", "--list"])
    assert listed.exit_code == 0 and "pair-dealins" in listed.stdout
    assert "table-mates" in listed.stdout and "game-placements" in listed.stdout
    for bad in (
        ["sql", "--named", "nope", "--db", str(ten_hands)],
        ["sql", "--named", "report-placements", "--db", str(ten_hands)],
        ["sql", "--named", "table-mates", "-p", "top", "--db", str(ten_hands)],
        ["sql", "SELECT 1", "--named", "table-mates", "--db", str(ten_hands)],
        ["sql", "--db", str(ten_hands)],
    ):
        assert runner.invoke(app, bad).exit_code == 2, bad
