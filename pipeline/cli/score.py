"""``paipu score``: score one finished hand, or a batch of them (score-request.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the rules engine is imported when the command runs, not at start
    from paipu.rules.score import ScoreAnswer

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE = 0, 1, 2

EPILOG = """
**Exit codes**: 0 every hand is a legal win; 1 a hand is not a legal win or a request
could not be read (the answer says why); 2 usage error (no input, unreadable file);
130 interrupted.

**Examples**

    paipu score '{"variant": "mcr", "seat": 1, "from": 2, "hand": "123m456p789s1z", ...}'

    paipu score request.json --json

    paipu score --jsonl requests.jsonl > answers.jsonl
"""


def score(
    request: Annotated[
        str | None,
        typer.Argument(
            help="The request: a JSON object, or the path of a file holding one.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the answer as one JSON object.")
    ] = False,
    jsonl: Annotated[
        str | None,
        typer.Option(
            "--jsonl",
            help="Score many requests: a file with one JSON request per line ('-' for "
            "standard input). Prints one JSON answer per line, in order.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Score one finished hand: fans (番种) with Chinese and English names, total, deltas.

    The request format is ../shared/spec/score-request.md: variant, seat, dealer, from
    (null for a self-draw), hand (without the winning tile), melds, win_tile, flags,
    winds, flowers. A request that cannot be read, or a hand that is not a legal win,
    is answered with `error` or `legal: false` and the reason.
    """
    if jsonl is not None:
        raise typer.Exit(_score_batch(jsonl))
    if request is None:
        typer.echo("paipu score: give a request (JSON or a file) or --jsonl FILE", err=True)
        raise typer.Exit(EXIT_USAGE)
    from paipu.rules.score import ScoreAnswer, score_json

    text, source = _read_request(request)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        answer = ScoreAnswer.failure(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        )
    else:
        answer = score_json(obj)
    if as_json:
        typer.echo(json.dumps(answer.to_json(), ensure_ascii=False))
    else:
        _render(answer, source)
    raise typer.Exit(EXIT_OK if answer.legal else EXIT_ILLEGAL)


score.__doc__ = (score.__doc__ or "") + EPILOG


def _read_request(request: str) -> tuple[str, str | None]:
    """The request's text, and the file it was read from (None: given inline)."""
    if request.lstrip().startswith("{"):
        return request, None
    path = Path(request)
    try:
        return path.read_text(encoding="utf-8"), request
    except OSError as exc:
        typer.echo(f"paipu score: cannot read {path}: {exc.strerror}", err=True)
        raise typer.Exit(EXIT_USAGE) from None


def _score_batch(source: str) -> int:
    from paipu.rules.score import score_line

    try:
        stream = sys.stdin if source == "-" else Path(source).open(encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        typer.echo(f"paipu score: cannot read {source}: {exc.strerror}", err=True)
        return EXIT_USAGE
    status = EXIT_OK
    out = sys.stdout
    with stream:
        for line in stream:
            if not line.strip():
                continue
            answer = score_line(line)
            if not answer.legal:
                status = EXIT_ILLEGAL
            out.write(json.dumps(answer.to_json(), ensure_ascii=False) + "\n")
    return status


def _render(answer: ScoreAnswer, source: str | None = None) -> None:
    """The answer as tables; ``source``: the request's file, named in an error."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from paipu.rules.tiles import parse_tile, tile_name_zh

    console = Console(highlight=False)
    if answer.error:
        where = f" {escape(source)}" if source else ""
        console.print(f"[bold red]Cannot score{where}:[/] {escape(answer.error)}")
        return
    if answer.fans:
        table = Table(title="番种 Fans", title_justify="left", show_lines=False)
        table.add_column("番种", no_wrap=True)
        table.add_column("Fan")
        table.add_column("番", justify="right")
        table.add_column("×", justify="right")
        table.add_column("计", justify="right")
        table.add_column("不计 (not counted with it)", overflow="fold", max_width=40)
        for fan in answer.fans:
            table.add_row(
                fan.name_zh,
                fan.name_en,
                str(fan.points),
                str(fan.count),
                str(fan.points * fan.count),
                fan.note or "",
            )
        console.print(table)
    groups = answer.extra.get("groups")
    if isinstance(groups, list) and groups:
        table = Table(title="组牌 Groups", title_justify="left")
        for column in ("组", "Cards 牌", "shown", "息 xi"):
            table.add_column(column, justify="right" if column == "息 xi" else "left")
        for group in groups:
            cards = " ".join(tile_name_zh(parse_tile(c)) for c in group.get("cards", []))
            table.add_row(
                str(group.get("name", "")),
                cards,
                "yes" if group.get("exposed") else "",
                str(group.get("xi", "")),
            )
        console.print(table)
    unit = str(answer.extra.get("unit", "fan"))
    details = "  ".join(
        f"{k}: {v}"
        for k, v in sorted(answer.extra.items())
        if k != "unit" and isinstance(v, int | str)
    )
    if answer.legal:
        console.print(
            f"[bold]Total 合计: {answer.total} {unit}[/]" + (f"  ({details})" if details else "")
        )
        deltas = "  ".join(f"seat {i}: {d:+d}" for i, d in enumerate(answer.deltas or ()))
        console.print(f"Deltas 得失: {deltas}")
    else:
        total = f" ({answer.total} {unit})" if answer.total is not None else ""
        console.print(f"[bold red]Not a legal win{total}:[/] {answer.reason}")
