"""``paipu convert``: write paipu logs from any supported format."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from paipu.pipeline.cli.common import (
    EXIT_OK,
    EXIT_REJECTED,
    err_console,
    open_output,
    record_files,
)


def convert(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders of records (Botzone text or JSON, paipu, score sheets, "
            "国标小助手 records); folders are read recursively, leaving out hidden files and "
            "documents (README.md, PDFs, images).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The paipu log to write ('-' for standard output).")
    ],
    sheet: Annotated[
        bool,
        typer.Option(
            "--sheet",
            help="Write a score sheet (CSV, docs/clubs.md) instead: one row per hand; an "
            "event log is replayed and its computed result written. Implied by an --out "
            "ending in .csv.",
        ),
    ] = False,
) -> None:
    """Convert records to the paipu log format (`.paipu.jsonl`), one hand per line, or to
    a club's score sheet (`--sheet`, or an `--out` ending in `.csv`).

    Conversion only reads the source format; `paipu audit` checks the rules. A hand that
    cannot be read (or, for a sheet, replayed) is reported on standard error and left out.

    **Exit codes**: 0 every hand converted; 3 some could not be read; 2 usage error;
    130 interrupted.
    """
    from paipu.parsers import Parsed, parse_any
    from paipu.parsers.paipu import dumps

    files = record_files(paths, "convert")
    written = rejected = 0
    if sheet or out.suffix.lower() == ".csv":
        with open_output(out, "convert") as output:
            written, rejected = _write_sheet(files, output)
        err_console.print(f"{written:,} hands written to {out}, {rejected:,} skipped")
        raise typer.Exit(EXIT_REJECTED if rejected else EXIT_OK)
    with open_output(out, "convert") as output:
        for path in files:
            for item in parse_any(path):
                if isinstance(item, Parsed):
                    output.write(dumps(item.record) + "\n")
                    written += 1
                else:
                    rejected += 1
                    err_console.print(f"skipped {item.describe()}", markup=False)
    err_console.print(f"{written:,} hands written to {out}, {rejected:,} skipped")
    raise typer.Exit(EXIT_REJECTED if rejected else EXIT_OK)


def _write_sheet(files: list[Path], stream: Any) -> tuple[int, int]:
    """Every readable hand of ``files`` as one score sheet; (written, skipped)."""
    from paipu.parsers import Parsed, parse_any
    from paipu.parsers.recorded import is_recorded, recorded_facts, unplayed
    from paipu.parsers.score_sheet import as_recorded, write_sheet
    from paipu.pipeline.simulate import with_result
    from paipu.rules.replay import RuleViolation, replay

    records = []
    rejected = 0
    for path in files:
        for item in parse_any(path):
            if not isinstance(item, Parsed):
                rejected += 1
                err_console.print(f"skipped {item.describe()}", markup=False)
                continue
            if unplayed(item.record) and not recorded_facts(item.record).get("penalties"):
                continue  # 国标小助手's 超时: never played, nothing moved
            try:
                if is_recorded(item.record):
                    records.append(item.record)
                    continue
                outcome = replay(item.record)
                claim = _sheet_claim(with_result(item.record, outcome).result, outcome)
                robbed = any(w.source == "robbing_kong" for w in outcome.wins)
                deltas = [w.deltas for w in outcome.wins]
                records.append(as_recorded(item.record, claim, deltas, robbed=robbed))
            except RuleViolation as exc:
                rejected += 1
                err_console.print(f"skipped {item.path}:{item.line}: {exc.describe()}")
    return write_sheet(records, stream), rejected


def _sheet_claim(result: Any, outcome: Any) -> Any:
    """The computed result as a sheet states it: ``from`` is the seat that dealt in, so a
    zipai win on another seat's flipped card has none unless that seat alone pays."""
    from dataclasses import replace

    wins = []
    for claimed, win in zip(result.wins, outcome.wins, strict=True):
        payers = [seat for seat, delta in enumerate(win.deltas) if delta < 0]
        flipped = win.source == "flip" and payers != [win.from_seat]
        wins.append(replace(claimed, from_seat=None) if flipped else claimed)
    return replace(result, wins=tuple(wins))
