"""``paipu simulate``: self-play records for any variant, deterministic by seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from paipu.pipeline.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    err_console,
    open_output,
    out_console,
)

if TYPE_CHECKING:  # self-play and its bots are imported when the command runs, not at start
    from rich.console import Console

    from paipu.pipeline.simulate import SimulationStats


def simulate(
    variant: Annotated[str, typer.Option("--variant", "-v", help="Variant id, e.g. mcr.")],
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="How many hands to play.")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The paipu log to write ('-' for standard output).")
    ],
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Random seed: the same seed gives the same bytes.")
    ] = 0,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="Comma-separated player pool; each game seats players "
            "from it. Styles cycle aggressive, balanced, defensive "
            "in pool order.",
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Variant options as JSON, e.g. '{\"birds\": 4}'; zipai's '{\"players\": 2}' "
            "(or 4) seats that many.",
        ),
    ] = None,
    scenario: Annotated[
        str | None,
        typer.Option(
            "--scenario",
            help="Deal prepared hands: a scenario set name (see "
            "docs/simulate.md) or a JSON file of scenarios.",
        ),
    ] = None,
    stats: Annotated[
        bool,
        typer.Option(
            "--stats",
            help="Print how often each outcome, fan (with its Chinese and English names; "
            "the variant's fans never seen are listed too) and event kind occurred (on "
            "standard error when the log goes to standard output).",
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="The statistics as one JSON object instead of tables (implies --stats).",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play N hands with rule-abiding bots and write them as a paipu log.

    Hands are grouped into games with the variant's dealer rotation and running scores.
    Every hand carries its full wall and its result as the rules engine scored it.

    **Exit codes**: 0 done; 2 usage error (unknown variant or option, bad scenario);
    1 a bot produced an illegal hand (a bug: please report it with the seed);
    130 interrupted.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from paipu.pipeline.simulate import (
        DEFAULT_PLAYERS,
        SimulationError,
        SimulationStats,
        game_jobs,
    )
    from paipu.pipeline.simulate import simulate as run_simulation
    from paipu.rules.variants import VariantError, get_variant
    from paipu.selfplay import scenarios as scenarios_of

    try:
        spec = get_variant(variant)
        options = json.loads(rules) if rules else {}
        spec.resolve_options(options)
        scenarios = scenarios_of(spec, scenario) if scenario else ()
    except (VariantError, json.JSONDecodeError, ValueError) as exc:
        err_console.print(f"paipu simulate: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    pool = (
        tuple(p.strip() for p in players.split(",") if p.strip()) if players else (DEFAULT_PLAYERS)
    )
    games = game_jobs(variant, hands, seed, pool, options, scenarios)
    totals = SimulationStats()
    to_stdout = str(out) == "-"
    stream = open_output(out, "simulate")
    progress = Progress(
        TextColumn("[bold]simulate[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeRemainingColumn(),
        console=err_console,
        disable=quiet,
        transient=True,
    )
    try:
        with stream as output, progress:
            task = progress.add_task("simulate", total=hands)
            for lines, game_stats in run_simulation(games, jobs):
                output.write("".join(line + "\n" for line in lines))
                totals.merge(game_stats)
                progress.update(task, advance=len(lines))
    except SimulationError as exc:
        err_console.print(f"paipu simulate: {exc}")
        raise typer.Exit(EXIT_FAILED) from None
    err_console.print(f"{totals.hands:,} hands in {totals.games:,} games written to {out}")
    if stats or as_json:  # on standard error when the log goes to standard output
        if as_json:
            text = json.dumps(stats_json(totals, variant), ensure_ascii=False, sort_keys=True)
            typer.echo(text, err=to_stdout)
        else:
            _print_stats(totals, variant, err_console if to_stdout else out_console)
    raise typer.Exit(EXIT_OK)


def _fan_names(variant: str) -> dict[str, tuple[str, str]]:
    """Fan id → (Chinese, English) from the variant's TOML, in the TOML's order."""
    from paipu.reports.variants import variant_info

    return variant_info(variant).fans


def stats_json(stats: SimulationStats, variant: str) -> dict[str, object]:
    """The statistics as ``--json`` prints them: every counter by key, and the variant's
    fans that no hand scored (``fans_not_seen``, in the TOML's order)."""
    names = _fan_names(variant)
    return {
        "variant": variant,
        "hands": stats.hands,
        "games": stats.games,
        "outcomes": dict(stats.outcomes),
        "win_situations": dict(stats.flags),
        "wins_per_hand": {str(k): n for k, n in stats.wins_per_hand.items()},
        "events": dict(stats.events),
        "fans": dict(stats.fans),
        "fans_not_seen": [fan for fan in names if fan not in stats.fans],
        "rule_paths": dict(stats.rules),
    }


def _print_stats(stats: SimulationStats, variant: str, console: Console) -> None:
    """The counters as tables. A share is of the hands played; a kind that can occur
    several times a hand (events, rule paths) is counted per hand instead."""
    from rich.table import Table

    names = _fan_names(variant)
    total = stats.hands or 1
    for title, counter, per_hand in (
        ("outcomes", stats.outcomes, False),
        ("win situations", stats.flags, False),
        ("wins per hand", stats.wins_per_hand, False),
        ("events", stats.events, True),
        ("fans / hand types 番种", stats.fans, False),
        ("rule paths", stats.rules, True),
    ):
        fans = counter is stats.fans
        table = Table(title=title, title_justify="left")
        table.add_column("what")
        if fans:
            table.add_column("name")
        table.add_column("count", justify="right")
        table.add_column("per hand" if per_hand else "share", justify="right")
        for key, n in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            share = f"{n / total:.2f}" if per_hand else f"{n / total:.1%} of hands"
            name = [" ".join(names.get(str(key), ("", ""))).strip()] if fans else []
            table.add_row(str(key), *name, f"{n:,}", share)
        if fans:
            for fan, (zh, en) in names.items():
                if fan not in counter:
                    table.add_row(fan, f"{zh} {en}".strip(), "0", "not seen")
        console.print(table)
