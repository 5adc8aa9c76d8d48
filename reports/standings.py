"""The standings page (``standings.html``, 比赛排名): per four-player variant, the
competition standings over every placed sitting, and each sitting with its places, 标准分
and 比赛分 — from the ``standings``, ``game-placements`` and ``games-unplaced`` queries of
``sql/reports/standings.sql``. Definitions: docs/reports.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import polars as pl

from paipu.reports.html import Column, Html, esc, join, num, signed, table, tag
from paipu.reports.pages import player_link, when
from paipu.reports.variants import variant_info

#: Sittings listed per variant on the page (most recent first); the standings use them all.
SITTINGS_LIMIT = 200

#: (term, definition) of the page's figures.
TERMS = (
    (
        "sitting 局",
        "a game: the hands one table played together (国标小助手's record, a score "
        "sheet's sitting); placed when the same four names sit at its four seats throughout",
    ),
    (
        "比赛分 game score",
        "the sum of the player's points over the sitting's hands, penalties included",
    ),
    (
        "名次 place",
        "1 + the players who scored strictly more in the sitting: tied players share a place",
    ),
    (
        "标准分 standard score",
        "4 / 2 / 1 / 0 for the 1st to 4th place; tied players share the "
        "points of the places they span (a tie for 2nd-3rd: 1.5 each, all four: 1.75); a sitting "
        "always gives 7",
    ),
    (
        "standings order",
        "Σ 标准分, then Σ 比赛分, then the number of 1st, 2nd, 3rd and 4th "
        "places, then the best single sitting (国标小助手's competition rules); players equal on "
        "all of them share a place",
    ),
)


def terms(items: Iterable[tuple[str, str]]) -> Html:
    """A definitions list, as the other pages show theirs."""
    body = "".join(f"<dt>{esc(t)}</dt><dd>{esc(d)}</dd>" for t, d in items)
    return Html(f'<dl class="definitions">{body}</dl>')


def page(
    standings: pl.DataFrame,
    placements: pl.DataFrame,
    unplaced: pl.DataFrame,
    linked: Callable[[str], bool],
) -> Html:
    """The page body: a section per variant with standings."""
    parts: list[Any] = [
        tag(
            "p",
            "Competition standings as 国标小助手 and MCR tournaments compute them, over every "
            "sitting of the report. Three-player tables have no 标准分: their places are on "
            "the rankings pages.",
            class_="lead",
        ),
        terms(TERMS),
    ]
    variants = standings["variant"].unique(maintain_order=True).to_list()
    if not variants:
        parts.append(tag("p", "No placed four-player sitting in this report.", class_="note"))
    left_out = {r["variant"]: r for r in unplaced.iter_rows(named=True)}
    for variant in variants:
        parts += _variant(
            variant,
            standings.filter(pl.col("variant") == variant),
            placements.filter((pl.col("variant") == variant) & (pl.col("seats") == 4)),
            left_out.get(variant),
            linked,
        )
    return join(parts)


def _variant(
    variant: str,
    standings: pl.DataFrame,
    placements: pl.DataFrame,
    unplaced: Mapping[str, Any] | None,
    linked: Callable[[str], bool],
) -> list[Any]:
    games = placements["game"].n_unique()
    note = f"{games:,} sittings placed"
    if unplaced and unplaced["unplaced"]:
        note += f"; {unplaced['unplaced']:,} left out (a name at two seats or players changing)"
    rows = (
        (
            r["place"],
            player_link("", r["player"], linked),
            r["games"],
            num(r["standard_score"], 2),
            signed(r["score"]),
            num(r["mean_standard_score"], 2),
            r["firsts"],
            r["seconds"],
            r["thirds"],
            r["fourths"],
            signed(r["best"]),
        )
        for r in standings.iter_rows(named=True)
    )
    parts: list[Any] = [
        tag("h2", f"{variant_info(variant).title}: standings", id=f"standings-{variant}"),
        tag("p", note + ".", class_="note"),
        table(
            [
                Column("名次 place", True),
                Column("选手 player"),
                Column("局数 sittings", True),
                Column("标准分 standard", True, "Σ 标准分 over the sittings"),
                Column("比赛分 score", True, "Σ 比赛分, in the variant's points"),
                Column("标准分 / sitting", True),
                Column("1st", True),
                Column("2nd", True),
                Column("3rd", True),
                Column("4th", True),
                Column("best 最高", True, "the best single sitting's 比赛分"),
            ],
            rows,
            id_=f"standings-table-{variant}",
        ),
        tag("h3", "Sittings"),
        sittings_table(placements, 4, linked),
    ]
    return parts


def sittings_table(
    placements: pl.DataFrame,
    seats: int,
    linked: Callable[[str], bool],
    limit: int = SITTINGS_LIMIT,
) -> Html:
    """The most recent ``limit`` games of ``game-placements`` rows, newest first: each with
    its players by place (tied players together), their 比赛分 and, at four-player tables,
    标准分."""
    by_game = placements.partition_by("game", maintain_order=True) if placements.height else []
    note: Any = ""
    if len(by_game) > limit:
        note = tag("p", f"The {limit} most recent of {len(by_game):,}.", class_="note")
    names = (("1st", "一"), ("2nd", "二"), ("3rd", "三"), ("4th", "四"))[:seats]
    return join(
        [
            note,
            table(
                [
                    Column("sitting"),
                    Column("started"),
                    Column("hands", True),
                    *(Column(f"{n} 名次 {k}") for n, k in names),
                ],
                (_sitting(g, seats, linked) for g in list(reversed(by_game))[:limit]),
            ),
        ]
    )


def _sitting(game: pl.DataFrame, seats: int, linked: Callable[[str], bool]) -> list[Any]:
    first = game.row(0, named=True)
    cells: list[Any] = [first["game"], when(first["started"]), first["hands"]]
    for place in range(1, seats + 1):
        at = game.filter(pl.col("place") == place).rows(named=True)
        if not at:
            cells.append("")
            continue
        names = join((player_link("", r["player"], linked) for r in at), ", ")
        figures = [signed(at[0]["score"])]
        if at[0]["standard_score"] is not None:
            figures.append(num(at[0]["standard_score"], 2))
        cells.append(Html(f"{names} <span class=ci>({esc(', '.join(figures))})</span>"))
    return cells
