"""Competition standings (比赛排名) of a paipu database, as 国标小助手 and MCR tournaments
compute them: per sitting (a game) each player's place, 标准分 and 比赛分; over the
sittings, the standings in the competition rules' order. The figures come from the named
queries of ``sql/reports/standings.sql`` (``report-placements``, ``standings``,
``game-placements``, ``games-unplaced``); this module only groups them per variant for
``paipu standings`` and its ``--json``.

Standings exist for four-player tables (the 4 / 2 / 1 / 0 scale); a variant without placed
four-player games has none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from paipu.pipeline.report import check_since, query, select


class NoStandingsError(ValueError):
    """No placed four-player game matches the filters."""


def standings(
    db: Path, variant: str | None = None, since: str | None = None
) -> list[dict[str, Any]]:
    """Per variant with placed four-player games: ``variant``, ``standings`` (rows of the
    ``standings`` query), ``sittings`` (each game with its players by place) and
    ``unplaced`` (games left out). NoStandingsError when there is none."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute("SET enable_progress_bar = false")
        select(con, variant=variant, since=check_since(since))
        table = query(con, "standings")
        games = query(con, "game-placements")
        unplaced = {
            r["variant"]: r["unplaced"] for r in query(con, "games-unplaced").iter_rows(named=True)
        }
    finally:
        con.close()
    out: list[dict[str, Any]] = []
    for name in table["variant"].unique(maintain_order=True).to_list():
        rows = table.filter(variant=name).drop("variant").to_dicts()
        sittings: dict[str, dict[str, Any]] = {}
        for g in games.filter(variant=name, seats=4).iter_rows(named=True):
            sitting = sittings.setdefault(
                g["game"],
                {
                    "game": g["game"],
                    "started": None if g["started"] is None else g["started"].isoformat(),
                    "hands": g["hands"],
                    "players": [],
                },
            )
            sitting["players"].append(
                {k: g[k] for k in ("player", "place", "tied", "score", "standard_score")}
            )
        out.append(
            {
                "variant": name,
                "standings": rows,
                "sittings": list(sittings.values()),
                "unplaced": unplaced.get(name, 0),
            }
        )
    if not out:
        raise NoStandingsError("no placed four-player sitting matches the filters")
    return out
