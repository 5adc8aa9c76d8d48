"""``paipu report``: write the HTML report pages of a paipu database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    LAKE_HELP,
    default_jobs,
    err_console,
    out_console,
    store_path,
)

#: Nothing matched the filters: no page was written.
EXIT_NO_HANDS = 4


def report(
    out: Annotated[Path, typer.Option("--out", "-o", help="The folder to write the pages into.")],
    db: Annotated[
        Path | None, typer.Option("--db", help="The DuckDB file written by `paipu ingest`.")
    ] = None,
    lake: Annotated[Path | None, typer.Option("--lake", help=LAKE_HELP)] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", help="Only this variant, e.g. mcr.")
    ] = None,
    player: Annotated[
        str | None,
        typer.Option("--player", help="Only the hands this player sat in; one player page."),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Only hands from this date on (2026-01-31 or 2026-01-31T18:00); hands "
            "without a recorded time are then left out.",
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            "--until",
            help="Only hands up to this date, the whole day included (2026-01-31), or up to "
            "this moment (2026-01-31T18:00); hands without a recorded time are then left out.",
        ),
    ] = None,
    self_contained: Annotated[
        bool,
        typer.Option(
            "--self-contained",
            help="Inline plotly.js, the styles, the replay script and a hand's data into "
            "every page, so any page can be sent alone (pages with figures grow by 4.6 MB "
            "each, hand pages by about 120 KB: the replay script, its tile drawings, the "
            "hand).",
        ),
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Threads of the database engine.")
    ] = default_jobs(),
    min_games: Annotated[
        int,
        typer.Option(
            "--min-games",
            min=1,
            help="Placed games a player needs to be on a variant's ranking page (and in the "
            "population of its percentiles).",
        ),
    ] = 10,  # paipu.pipeline.report.MIN_GAMES (not imported here: the CLI starts fast)
) -> None:
    """Write the report pages: an overview (`index.html`), win rates, fan frequencies,
    deal-in risk, a page per player, a replay page per hand and the audit; the competition
    standings, a ranking page per variant and the table-mates.

    Pages open from disk with no network: plotly.js and the replay script are written once
    into `OUT/assets/`, each game's hands into a script of `OUT/data/`, all loaded by
    relative path (keep the folder together, or use `--self-contained`). The database is
    opened read-only; the same database and options give the same files.

    The filters combine: `--variant mcr --player Ann --since 2026-01-01 --until 2026-01-31`
    is Ann's MCR hands of January. Every page splits its rates and points by variant (a
    variant's points are in its own units); a player page has one section per variant played.

    **Exit codes**: 0 written; 4 no hand matches the filters (nothing written);
    2 usage error (missing database, bad date, --since after --until); 1 the database could
    not be read or the pages could not be written; 130 interrupted.
    """
    import duckdb

    from paipu.pipeline.report import NoHandsError, ReportOptions, check_period, write_report

    source = store_path("report", db, lake)
    try:
        check_period(since, until)
    except ValueError as exc:
        err_console.print(f"paipu report: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    options = ReportOptions(
        variant=variant,
        player=player,
        since=since,
        until=until,
        inline=self_contained,
        jobs=jobs,
        min_games=min_games,
    )
    try:
        with err_console.status("writing the report") as status:
            summary = write_report(
                source, out, options, lambda stage: status.update(f"report: {stage}")
            )
    except NoHandsError as exc:
        err_console.print(f"paipu report: {exc}; nothing written")
        raise typer.Exit(EXIT_NO_HANDS) from None
    except (duckdb.Error, OSError) as exc:
        err_console.print(f"paipu report: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    err_console.print(
        f"{summary.pages:,} pages for {summary.hands:,} hands and {summary.players:,} players"
    )
    out_console.print(str(summary.index.resolve()), markup=False)
    raise typer.Exit(EXIT_OK)
