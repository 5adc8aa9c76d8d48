"""The ``paipu`` command line: a root Typer app composed from one module per command group.

No command module imports this one; each exposes plain functions (or a Typer app for a
group) that the root registers here.
"""

from __future__ import annotations

from typing import Annotated

import typer

from paipu.pipeline.cli import (
    audit,
    convert,
    demo,
    export,
    ingest,
    report,
    score,
    simulate,
    sql,
    standings,
)
from paipu.pipeline.cli import review as review_command

app = typer.Typer(
    name="paipu",
    help=(
        "牌谱 paipu — replay, score and analyse game records of Chinese mahjong variants "
        "and 郴州字牌.\n\nStart with `paipu score --help` to score one hand."
    ),
    no_args_is_help=True,
    rich_markup_mode="markdown",
    pretty_exceptions_enable=False,
    add_completion=False,
)

app.command(name="score", no_args_is_help=True)(score.score)
app.command(name="ingest", no_args_is_help=True)(ingest.ingest)
app.command(name="audit", no_args_is_help=True)(audit.audit)
app.command(name="convert", no_args_is_help=True)(convert.convert)
app.command(name="simulate", no_args_is_help=True)(simulate.simulate)
app.command(name="report", no_args_is_help=True)(report.report)
app.command(name="sql", no_args_is_help=True)(sql.sql)
app.command(name="export", no_args_is_help=True)(export.export)
app.command(name="standings", no_args_is_help=True)(standings.standings)
app.command(name="demo")(demo.demo)
app.command(name="review", no_args_is_help=True)(review_command.review)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        import paipu.rules

        # compiled (mypyc), pure (plain Python) or stale (edited since compiled: plain Python)
        typer.echo(f"paipu {version('paipu')} (rules engine: {paipu.rules.ENGINE})")
        raise typer.Exit


@app.callback()
def root(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """牌谱 paipu: analytics for mahjong and zipai game records."""


def main() -> None:
    """Console entry point."""
    app()
