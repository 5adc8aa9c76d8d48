"""``paipu audit``: replay records without a database and report hand by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from paipu.pipeline.cli.common import EXIT_FAILED, EXIT_OK, out_console, record_files

_STYLE = {"ok": "green", "mismatch": "yellow", "invalid": "red"}


def audit(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders of records, in any supported format; folders are read "
            "recursively, leaving out hidden files and documents (README.md, PDFs, images).",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="One JSON object per hand: game, hand, variant, status, "
            "recorded, computed, problems.",
        ),
    ] = False,
    only_problems: Annotated[
        bool, typer.Option("--problems", help="List only hands that are not ok.")
    ] = False,
) -> None:
    """Say for each hand: `ok`, `mismatch` (the record disagrees with the rules: fans,
    totals and deltas, fan by fan) or `invalid` (the rule it breaks, with the event).

    Score sheets (CSV) and 国标小助手 records have no events: each hand is audited from its
    claim (fans, total, deltas, penalties, the winner's tiles where given) and across its
    sitting, with findings in Chinese and English (docs/clubs.md); 国标小助手's hands
    never played (超时) are not listed.

    **Exit codes**: 0 every hand is ok; 1 some hand is a mismatch or invalid;
    2 usage error; 130 interrupted.
    """
    from paipu.parsers import location
    from paipu.pipeline.audit import audit as run_audit

    counts = {"ok": 0, "mismatch": 0, "invalid": 0}
    for entry in run_audit(record_files(paths, "audit")):
        counts[entry.status] += 1
        if only_problems and entry.status == "ok":
            continue
        if as_json:
            typer.echo(json.dumps(entry.to_json(), ensure_ascii=False))
            continue
        where = (
            f"{entry.game} #{entry.hand}"
            if entry.game is not None
            else location(entry.source, entry.line)
        )
        out_console.print(
            f"[{_STYLE[entry.status]}]{entry.status:8}[/] {where} [dim]{entry.variant or ''}[/]"
        )
        for problem in entry.problems:
            out_console.print(f"           {problem}", markup=False)
    if not as_json:
        summary = ", ".join(f"{n:,} {status}" for status, n in counts.items())
        out_console.print(f"[bold]{sum(counts.values()):,} hands:[/] {summary}")
    raise typer.Exit(EXIT_OK if counts["mismatch"] + counts["invalid"] == 0 else EXIT_FAILED)
