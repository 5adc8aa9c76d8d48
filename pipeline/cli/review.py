"""``paipu review``: a player's decisions, discard by discard (复盘), in the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    default_jobs,
    err_console,
    out_console,
)


def review(
    db: Annotated[Path, typer.Option("--db", help="The DuckDB file written by `paipu ingest`.")],
    player: Annotated[
        str | None,
        typer.Option(
            "--player", "-p", help="The player to review (by name); every player when omitted."
        ),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Only this variant's hands (mcr, sichuan, …)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON (for programs).")
    ] = False,
    worst: Annotated[
        int, typer.Option("--worst", min=0, help="How many of the costliest discards to list.")
    ] = 10,
    save: Annotated[
        bool,
        typer.Option(
            "--save",
            help="Also keep the rows in the database (table discard_reviews), where "
            "`paipu report` annotates each discard of the hand replays with them.",
        ),
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Worker processes replaying the hands.")
    ] = default_jobs(),
) -> None:
    """Review a player's discards: each one against the most efficient discard of that
    moment, and the danger it took; then the sums per variant and the costliest discards.

    Every hand the player sat in is replayed from its record. At each of the player's
    discards the hand is weighed as a reviewer counts tiles (牌效): the **shanten** (向听)
    the discard leaves and its **live useful tiles** (进张: the kinds whose draw would
    lower the shanten, each worth the copies the player could not see). The best discard
    has the lowest shanten, then the most live useful tiles; a discard's **loss** is the
    live useful tiles it gave up (all of the best's when it raised the shanten). The
    danger is the truth the replay knows: a **dangerous** discard completed some ready
    opponent's hand (enough to win); **vs ready** counts only discards made while an
    opponent was ready by shape; a deal-in (放铳) is **avoidable** when another legal
    discard would have completed no opponent's hand.

    Columns: **best** share of discards as efficient as the best; **loss** average live
    tiles given up; **back** share that raised the shanten (退向听); **danger** share of
    dangerous discards; **vs ready** the same among discards made while an opponent was
    ready; **dealt in** deal-ins; **safe** of those, how many a safe tile would have
    avoided. Zipai (郴州字牌) has no shanten: its discards show only the danger.
    Definitions: docs/reports.md, "Decision review".

    Nothing is computed at ingest: the review replays the hands each time (one player over
    10,000 MCR hands: about 25 s of CPU, shared by two workers; every player: about two
    minutes of CPU;
    docs/benchmarks.md). With `--save` its rows are kept in
    the table `discard_reviews` (replacing the player's earlier ones), and the replay pages
    that `paipu report` writes next show, beside each of those discards, the best choice
    and the loss.

    Examples: `paipu review --db paipu.duckdb --player Ann`;
    `paipu review --db paipu.duckdb -v mcr --json` (every player of the MCR hands);
    `paipu review --db paipu.duckdb --save` then `paipu report --db paipu.duckdb --out r`.

    **Exit codes**: 0 reviewed; 1 nothing to review (no hand of that player or variant), a
    stored hand no longer replays (named), or the database could not be read (or, with
    `--save`, written); 2 usage error (no such database file, unknown variant).
    """
    import duckdb

    from paipu.pipeline.review import ReviewError, review_db
    from paipu.pipeline.review import save as save_review
    from paipu.rules.variants import variant_ids

    if not db.is_file():
        err_console.print(f"paipu review: {db}: no such database file")
        raise typer.Exit(EXIT_USAGE)
    if variant is not None and variant not in variant_ids():
        known = ", ".join(variant_ids())
        err_console.print(f"paipu review: unknown variant {variant!r} (known: {known})")
        raise typer.Exit(EXIT_USAGE)
    try:
        con = duckdb.connect(str(db), read_only=not save)
    except duckdb.Error as exc:
        err_console.print(f"paipu review: {db}: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    try:
        result = review_db(con, player, variant, jobs=jobs, worst=worst)
        if save and result.rows.num_rows:
            save_review(con, result, player, variant)
            err_console.print(f"{result.rows.num_rows:,} reviewed discards kept in {db}")
    except (duckdb.Error, ReviewError) as exc:
        err_console.print(f"paipu review: {db}: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    finally:
        con.close()
    if result.summary.is_empty():
        who = f"of {player}" if player else "at all"
        where = f" in {variant}" if variant else ""
        err_console.print(f"paipu review: {db} holds no discard {who}{where} to review")
        raise typer.Exit(EXIT_FAILED)
    if as_json:
        document = {
            "player": player,
            "variant": variant,
            "summary": result.summary.to_dicts(),
            "worst": result.worst.to_dicts(),
        }
        typer.echo(json.dumps(document, ensure_ascii=False, indent=1, default=str))
    else:
        _print_summary(result.summary.to_dicts(), with_player=player is None)
        if worst and not result.worst.is_empty():
            _print_worst(result.worst.to_dicts())
    raise typer.Exit(EXIT_OK)


def _share(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _print_summary(rows: list[dict[str, Any]], *, with_player: bool) -> None:
    table = Table(box=None, pad_edge=False, header_style="bold", title_justify="left")
    if with_player:
        table.add_column("player")
    table.add_column("variant")
    for name in ("discards", "best", "loss", "back", "danger", "vs ready", "dealt in", "safe"):
        table.add_column(name, justify="right")
    for row in rows:
        cells = [] if not with_player else [row["player"]]
        cells += [
            row["variant"],
            f"{row['discards']:,}",
            _share(row["efficient"]),
            "" if row["avg_loss"] is None else f"{row['avg_loss']:.2f}",
            _share(row["backward"]),
            _share(row["dangerous"]),
            _share(row["danger_when_exposed"]),
            f"{row['deal_ins']:,}",
            "" if row["avoidable"] is None else f"{row['avoidable']:,}",
        ]
        table.add_row(*cells)
    out_console.print(table)


def _print_worst(rows: list[dict[str, Any]]) -> None:
    table = Table(
        box=None,
        pad_edge=False,
        header_style="bold",
        title="costliest discards",
        title_justify="left",
    )
    for name, justify in (
        ("game", "left"),
        ("hand", "right"),
        ("turn", "right"),
        ("tile", "left"),
        ("best", "left"),
        ("shanten", "right"),
        ("live", "right"),
        ("loss", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        best = " ".join(row["best"][:3]) + (" …" if len(row["best"]) > 3 else "")
        table.add_row(
            row["game"],
            str(row["hand"]),
            str(row["turn"]),
            row["tile"] + (" 放铳" if row["won_on"] else ""),
            best,
            f"{row['shanten']}/{row['best_shanten']}",
            f"{row['live']}/{row['best_live']}",
            str(row["loss"]),
        )
    out_console.print()
    out_console.print(table)
