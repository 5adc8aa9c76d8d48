"""``paipu convert``: write paipu logs from any supported format."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from paipu.pipeline.cli.common import (
    EXIT_OK,
    EXIT_REJECTED,
    err_console,
    existing_paths,
    open_output,
)


def convert(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders of records (Botzone text or JSON, paipu).", show_default=False
        ),
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The paipu log to write ('-' for standard output).")
    ],
) -> None:
    """Convert records to the paipu log format (`.paipu.jsonl`), one hand per line.

    Conversion only reads the source format; `paipu audit` checks the rules. A hand that
    cannot be read is reported on standard error and left out.

    **Exit codes**: 0 every hand converted; 3 some could not be read; 2 usage error;
    130 interrupted.
    """
    from paipu.parsers import Parsed, parse_any
    from paipu.parsers.paipu import dumps
    from paipu.pipeline.ingest import expand

    files = expand(existing_paths(paths, "convert"))
    written = rejected = 0
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
