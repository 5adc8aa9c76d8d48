"""The ranking pages: ``rankings.html`` lists the variants, ``rankings-<variant>.html`` ranks
the players of one variant who played at least the minimum of placed games — placements
(mean place, the share of each place), 标准分 and 比赛分 per game, and the rates per hand —
with each player's percentile against that population on every figure, as amae-koromo
shows it — and the variant's recent games with every player's place. From the
``ranking-players`` and ``game-placements`` queries (``sql/reports/``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import plotly.graph_objects as go
import polars as pl

from paipu.reports.figures import LAYOUT
from paipu.reports.html import (
    Column,
    Html,
    esc,
    figure_html,
    join,
    link,
    num,
    pct,
    slug,
    table,
    tag,
)
from paipu.reports.pages import player_link
from paipu.reports.standings import sittings_table, terms
from paipu.reports.variants import variant_info

#: The places' colours in the distribution figure, 1st to 4th.
PLACE_COLOURS = ("#1b7f3b", "#0b5cad", "#8a6d1d", "#b42318")


def page_file(variant: str) -> str:
    """``rankings-mcr.html``: a variant's ranking page, beside ``rankings.html``."""
    return f"rankings-{slug(variant)}.html"


def index(ranked: pl.DataFrame, unplaced: pl.DataFrame, min_games: int) -> Html:
    """``rankings.html``: one line per variant of the report, linked to its page."""
    counts = {
        r["variant"]: r["population"]
        for r in ranked.group_by("variant").agg(pl.len().alias("population")).iter_rows(named=True)
    }
    rows = (
        (
            link(page_file(r["variant"]), variant_info(r["variant"]).title),
            f"{r['placed']:,}",
            f"{r['unplaced']:,}",
            f"{counts.get(r['variant'], 0):,}",
        )
        for r in unplaced.iter_rows(named=True)
    )
    return join(
        [
            tag(
                "p",
                f"A ranking per variant, of the players with at least {min_games} placed games "
                "(paipu report --min-games N): placements, 标准分 and 比赛分 per game, rates "
                "per hand, and each player's percentile in that population.",
                class_="lead",
            ),
            table(
                [
                    Column("variant"),
                    Column("games placed", True),
                    Column("games left out", True, "a name at two seats, players changing"),
                    Column("players ranked", True),
                ],
                rows,
            ),
        ]
    )


TERMS = (
    (
        "population",
        "the players of the variant with at least the minimum of placed games; "
        "every percentile is against them, never against another variant's players",
    ),
    (
        "place 名次",
        "1 + the players who scored strictly more in the game (ties share a place); "
        "mean place = its mean, the shares count a shared place for each player sharing it",
    ),
    (
        "标准分 / 比赛分",
        "per game, the competition standard score (4 / 2 / 1 / 0 by place, ties "
        "sharing) and the game score, in the variant's points; 标准分 only at four-player tables",
    ),
    (
        "rates",
        "per hand played in the variant: win rate, self-draw share of wins, deal-in "
        "rate (放铳), points per hand (mean Δ)",
    ),
    (
        "P (percentile)",
        "the percent_rank of the player's value in the population: 0 the "
        "lowest, 100 the highest (ties share the lower); for mean place and deal-in rate lower "
        "is better",
    ),
)


#: Recent games listed on a ranking page with their places.
GAMES_LIMIT = 100


def page(
    variant: str,
    ranked: pl.DataFrame,
    placements: pl.DataFrame,
    unplaced: Mapping[str, Any] | None,
    min_games: int,
    linked: Callable[[str], bool],
) -> Html:
    """A variant's ranking page: the ranking, the placement figure, the recent games with
    their places (``placements``: the variant's ``game-placements`` rows)."""
    info = variant_info(variant)
    four = bool(ranked.height) and ranked["seats"].max() == 4
    placed = unplaced["placed"] if unplaced else 0
    parts: list[Any] = [
        tag(
            "p",
            f"{info.title}: {ranked.height:,} players with at least {min_games} of the "
            f"{placed:,} placed games, ordered by mean place.",
            class_="lead",
        ),
        terms(TERMS),
    ]
    games = [
        tag("h2", "Games and places"),
        sittings_table(
            placements,
            placements["seats"].max() if placements.height else 4,
            linked,
            GAMES_LIMIT,
        ),
    ]
    if not ranked.height:
        parts.append(
            tag("p", f"No player has {min_games} placed games of this variant.", class_="note")
        )
        return join(parts + games)
    places = ["1st", "2nd", "3rd", "4th"][: ranked["seats"].max()]
    columns = [
        Column("#", True),
        Column("player"),
        Column("games", True),
        Column("hands", True),
        Column("mean place", True),
        *(Column(p, True, f"share of games at the {p} place") for p in places),
    ]
    if four:
        columns.append(Column("标准分 / game", True))
    columns += [
        Column("比赛分 / game", True, "game score per game, in the variant's points"),
        Column("win rate", True),
        Column("self-draw", True, "self-drawn wins / wins"),
        Column("deal-in", True),
        Column("points / hand", True),
    ]
    rate_keys = ["first_rate", "second_rate", "third_rate", "fourth_rate"][: len(places)]
    rows = []
    for rank, r in enumerate(ranked.iter_rows(named=True), start=1):
        row: list[Any] = [
            rank,
            player_link("", r["player"], linked),
            r["games"],
            f"{r['hands']:,}",
            _with_p(num(r["mean_place"], 2), r["mean_place_pct"]),
            *(_share(r, k, k == rate_keys[-1]) for k in rate_keys),
        ]
        if four:
            row.append(_with_p(num(r["mean_standard_score"], 2), r["mean_standard_score_pct"]))
        row += [
            _with_p(num(r["mean_score"], 1), r["mean_score_pct"]),
            _with_p(pct(r["win_rate"]), r["win_rate_pct"]),
            _with_p(pct(r["self_draw_share"]), r["self_draw_share_pct"]),
            _with_p(pct(r["deal_in_rate"]), r["deal_in_rate_pct"]),
            _with_p(num(r["mean_delta"], 2), r["mean_delta_pct"]),
        ]
        rows.append(row)
    parts.append(table(columns, rows, id_=f"ranking-{slug(variant)}"))
    parts.append(figure_html(placement_figure(ranked, places), f"ranking-places-{slug(variant)}"))
    return join(parts + games)


def _share(row: Mapping[str, Any], key: str, last: bool) -> Html | str:
    """A place's share; the 1st and the last place with their percentiles."""
    if key == "first_rate":
        return _with_p(pct(row[key]), row["first_rate_pct"])
    if last:
        return _with_p(pct(row[key]), row["last_rate_pct"])
    return pct(row[key])


def _with_p(value: str, percentile: float | None) -> Html:
    if percentile is None:
        return esc(value)
    return Html(f"{esc(value)} <span class=ci>P{round(100 * percentile)}</span>")


def placement_figure(ranked: pl.DataFrame, places: list[str]) -> go.Figure:
    """The share of each place per ranked player, stacked (the ranking's order)."""
    fig = go.Figure(layout=LAYOUT)
    fig.update_layout(
        title={"text": "Placement distribution (share of games)", "x": 0.01},
        barmode="stack",
        yaxis={"ticksuffix": "%", "range": [0, 100]},
    )
    keys = ["first_rate", "second_rate", "third_rate", "fourth_rate"]
    for place, key, colour in zip(places, keys, PLACE_COLOURS, strict=False):
        fig.add_bar(
            x=ranked["player"].to_list(),
            y=[round(100 * v, 6) for v in ranked[key].to_list()],
            name=place,
            marker_color=colour,
        )
    return fig
