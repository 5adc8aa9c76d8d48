"""``paipu standings``: the competition standings of a paipu database in the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from paipu.pipeline.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, err_console, out_console

#: No placed four-player sitting matches: nothing to rank.
EXIT_NO_STANDINGS = 4

#: (key, header): Chinese beside English, in the order printed.
COLUMNS = (
    ("place", "名次\nplace"),
    ("player", "选手\nplayer"),
    ("games", "局数\ngames"),
    ("standard_score", "标准分\nstandard"),
    ("score", "比赛分\nscore"),
    ("firsts", "一位\n1st"),
    ("seconds", "二位\n2nd"),
    ("thirds", "三位\n3rd"),
    ("fourths", "四位\n4th"),
    ("best", "最高\nbest"),
)


def standings(
    db: Annotated[Path, typer.Option("--db", help="The DuckDB file written by `paipu ingest`.")],
    variant: Annotated[
        str | None, typer.Option("--variant", help="Only this variant, e.g. mcr.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", help="Only sittings with a hand from this date on (2026-01-31)."),
    ] = None,
    sittings: Annotated[
        bool,
        typer.Option("--sittings", help="Also print every sitting: places, 比赛分, 标准分."),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the standings and every sitting as JSON."),
    ] = False,
) -> None:
    """Print the competition standings (比赛排名) over every sitting (game) of the database,
    per four-player variant, as 国标小助手 and MCR tournaments compute them: each sitting
    gives its players 标准分 4 / 2 / 1 / 0 by place (ties share the points of the places they
    span) and 比赛分 = their score in it; players are ordered by Σ 标准分, then Σ 比赛分, then
    the number of 1st, 2nd, 3rd and 4th places, then the best single sitting.

    A sitting counts when the same four names sit at its four seats throughout
    (docs/reports.md). `--sittings` prints every sitting too, `--json` both.

    **Exit codes**: 0 printed; 4 no four-player sitting matches (nothing to rank);
    2 usage error (missing database, bad date); 1 the database could not be read.
    """
    import duckdb

    from paipu.pipeline.standings import NoStandingsError
    from paipu.pipeline.standings import standings as compute

    if not db.is_file():
        err_console.print(f"paipu standings: {db}: no such database file")
        raise typer.Exit(EXIT_USAGE)
    try:
        result = compute(db, variant, since)
    except NoStandingsError as exc:
        err_console.print(f"paipu standings: {exc}")
        raise typer.Exit(EXIT_NO_STANDINGS) from None
    except ValueError as exc:  # a bad --since
        err_console.print(f"paipu standings: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    except duckdb.Error as exc:  # unreadable, or not a paipu database
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        err_console.print(f"paipu standings: {db}: not a readable paipu database ({first})")
        raise typer.Exit(EXIT_FAILED) from None
    if as_json:
        out_console.print_json(json.dumps({"variants": result}, ensure_ascii=False, default=str))
    else:
        for part in result:
            if sittings:
                out_console.print(_sittings(part))
            out_console.print(_table(part))
    raise typer.Exit(EXIT_OK)


def _sittings(part: dict[str, Any]) -> Table:
    """Every sitting in the order played, one row per player by place."""
    table = Table(title="sittings 各局", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("局\nsitting", max_width=30, overflow="fold")
    table.add_column("开始\nstarted")
    table.add_column("名次\nplace", justify="right")
    table.add_column("选手\nplayer", max_width=16, overflow="fold")
    table.add_column("比赛分\nscore", justify="right")
    table.add_column("标准分\nstandard", justify="right")
    for sitting in part["sittings"]:
        for k, p in enumerate(sitting["players"]):
            first = k == 0
            table.add_row(
                sitting["game"] if first else "",
                (sitting["started"] or "–")[:16].replace("T", " ") if first else "",
                str(p["place"]),
                p["player"],
                f"{p['score']:+d}",
                f"{p['standard_score']:.2f}",
                end_section=k == len(sitting["players"]) - 1,
            )
    return table


def _table(part: dict[str, Any]) -> Table:
    from paipu.reports.variants import variant_info

    sittings = len(part["sittings"])
    note = f", {part['unplaced']} left out" if part["unplaced"] else ""
    table = Table(
        title=f"{variant_info(part['variant']).title}: {sittings} sittings{note}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for key, header in COLUMNS:
        if key == "player":
            table.add_column(header, max_width=16, overflow="fold")
        else:
            table.add_column(header, justify="right")
    for row in part["standings"]:
        table.add_row(
            *(
                f"{row[key]:.2f}"
                if key == "standard_score"
                else f"{row[key]:+d}"
                if key in ("score", "best")
                else str(row[key])
                for key, _ in COLUMNS
            )
        )
    return table
