"""Report: open a paipu database read-only, run the named report queries, write the pages.

The pages (see ``docs/reports.md``): ``index.html`` (overview), ``winrates.html``,
``fans.html``, ``dealin.html``, ``audit.html``, ``players/index.html`` and one page per
player under ``players/``, one replay page per hand under ``hands/``, and the shared
``assets/`` (plotly.js, the style sheet, the replay script) unless pages inline them.

Every query reads the hands through the temporary table ``report_hands`` that
``report-selection`` makes from the filters. The per-player queries run once for all
players and are cut per page in Python. The hand pages are streamed: the main process reads
the ``replay-hands`` rows in Arrow batches and worker processes turn each batch into pages,
a bounded number of batches in flight, so memory stays flat however many hands there are.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from paipu.pipeline.sql import load_queries
from paipu.reports import frames, pages
from paipu.reports.html import Assets, hand_file, player_file, render_page
from paipu.reports.replay import replay_steps, tile_table

#: Rows of the replay query handed to a worker at a time.
HAND_BATCH = 400
#: Rolling window of the win-rate-over-time figure, and how many players it draws.
ROLLING_WINDOW = 100
ROLLING_PLAYERS = 12
#: Biggest wins and losses listed per player.
EXTREMES = 10
#: Combinations listed per variant.
COMBINATIONS = 20
#: Mismatched hands and rejects listed on the audit page.
AUDIT_LIMIT = 2000


class NoHandsError(ValueError):
    """No hand of the database matches the report's filters."""


@dataclass(frozen=True)
class ReportOptions:
    """What to cover and how to write it."""

    variant: str | None = None
    player: str | None = None
    since: str | None = None  # ISO date or date-time
    inline: bool = False  # every page self-contained (scripts and styles inlined)
    jobs: int = 1


@dataclass
class ReportSummary:
    """What a report run wrote."""

    out: Path
    hands: int = 0
    players: int = 0
    pages: int = 0
    files: list[str] = field(default_factory=list)

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def query(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> pl.DataFrame:
    """Run a named query of ``sql/reports`` with the ``$params`` it uses; a Polars frame."""
    sql = load_queries()[name].sql
    used = {k: v for k, v in params.items() if f"${k}" in sql}
    return con.sql(sql, params=used or None).pl()


def execute(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> None:
    """Run a named statement that returns nothing (``report-selection``)."""
    sql = load_queries()[name].sql
    con.execute(sql, {k: v for k, v in params.items() if f"${k}" in sql})


def check_since(since: str | None) -> str | None:
    """``since`` as an ISO date-time DuckDB reads, or ValueError naming the expected form."""
    if since is None:
        return None
    try:
        return dt.datetime.fromisoformat(since).isoformat(sep=" ")
    except ValueError:
        raise ValueError(f"--since {since!r}: expected a date such as 2026-01-31") from None


def write_report(
    db: Path,
    out: Path,
    options: ReportOptions = ReportOptions(),
    progress: Callable[[str], None] | None = None,
) -> ReportSummary:
    """Write every page of the report on ``db`` into ``out``; NoHandsError if nothing matches."""
    tell = progress or (lambda _stage: None)
    since = check_since(options.since)
    con = duckdb.connect(str(db), read_only=True)
    try:
        execute(
            con, "report-selection", variant=options.variant, player=options.player, since=since
        )
        totals = query(con, "overview-totals").row(0, named=True)
        if not totals["hands"]:
            raise NoHandsError("no hand of the database matches the filters")
        summary = ReportSummary(out, hands=totals["hands"], players=totals["players"])
        for folder in (out, out / "players", out / "hands"):
            folder.mkdir(parents=True, exist_ok=True)
        assets = Assets(inline=options.inline)
        assets.write(out, tile_table())
        filters = pages.Filters(options.variant, options.player, options.since)
        footer = f"paipu report of {db.name} · {filters.describe()}"
        players = query(con, "overview-players")
        with_pages = {options.player} if options.player else set(players["player"].to_list())

        def linked(player: str) -> bool:
            return player in with_pages

        def write(
            name: str, title: str, body: str, *, figures: bool = True, root: str = ""
        ) -> None:
            text = render_page(
                title=title,
                body=pages.Html(body),
                root=root,
                assets=assets,
                figures=figures,
                current=name,
                footer=footer,
            )
            (out / name).write_text(text, encoding="utf-8")
            summary.pages += 1
            summary.files.append(name)

        tell("overview")
        variants = query(con, "overview-variants")
        write("index.html", "Overview", pages.overview(totals, variants, players, filters, linked))
        write(
            "players/index.html",
            "Players",
            pages.players_index(players.filter(pl.col("player").is_in(list(with_pages))), linked),
            figures=False,
            root="../",
        )
        tell("win rates")
        rates = frames.winrates(query(con, "winrates-players"))
        write(
            "winrates.html",
            "Win rates",
            pages.winrates(
                rates,
                frames.winrates(query(con, "winrates-seats")),
                frames.winrates(query(con, "winrates-variants")),
                query(con, "winrates-rolling", top=ROLLING_PLAYERS, window=ROLLING_WINDOW),
                ROLLING_WINDOW,
                linked,
            ),
        )
        tell("fans")
        profile = frames.fan_profile(query(con, "fans-players", player=None))
        write(
            "fans.html",
            "Fan frequencies",
            pages.fans(
                frames.fan_frequency(query(con, "fans-frequency")),
                query(con, "fans-totals"),
                frames.fan_average(query(con, "fans-average")),
                frames.fan_combinations(query(con, "fans-combinations", top=COMBINATIONS)),
                profile,
            ),
        )
        tell("deal-in risk")
        dealin_players = frames.dealin_players(query(con, "dealin-players"))
        write(
            "dealin.html",
            "Deal-in risk",
            pages.dealin(
                frames.dealin_grid(query(con, "dealin-grid")),
                frames.dealin_melds(query(con, "dealin-melds")),
                dealin_players,
                linked,
            ),
        )
        tell("audit")
        write(
            "audit.html",
            "Audit",
            pages.audit(
                query(con, "audit-mismatches", limit=AUDIT_LIMIT),
                query(con, "audit-computed"),
                query(con, "audit-rejects", limit=AUDIT_LIMIT),
                fan_names,
            ),
            figures=False,
        )
        tell("players")
        _player_pages(con, options.player, rates, dealin_players, profile, linked, write)
        tell("hands")
        summary.pages += write_hand_pages(
            con, out / "hands", assets, footer, frozenset(with_pages), options.jobs
        )
    finally:
        con.close()
    return summary


def _player_pages(
    con: duckdb.DuckDBPyConnection,
    player: str | None,
    rates: pl.DataFrame,
    dealin: pl.DataFrame,
    profile: pl.DataFrame,
    linked: Callable[[str], bool],
    write: Callable[..., None],
) -> None:
    limit = pages.LIST_LIMIT
    parts = {
        "cumulative": query(con, "player-cumulative", player=player),
        "games": query(con, "player-games", player=player, limit=limit),
        "extremes": query(con, "player-extremes", player=player, top=EXTREMES),
        "deal_ins": query(con, "player-dealins", player=player, limit=limit),
        "missed": query(con, "player-missed", player=player, limit=limit),
        "profile": profile if player is None else profile.filter(pl.col("player") == player),
    }
    split = {name: _by_player(frame) for name, frame in parts.items()}
    rates_by = {r["player"]: r for r in rates.iter_rows(named=True)}
    dealin_by = {r["player"]: r for r in dealin.iter_rows(named=True)}
    names = [player] if player is not None else rates["player"].to_list()
    for name in names:
        data = pages.PlayerData(
            player=name,
            rates=rates_by.get(name),
            dealin=dealin_by.get(name),
            **{k: split[k].get(name, parts[k].clear()) for k in parts},
        )
        write(
            f"players/{player_file(name)}",
            name,
            pages.player_page(data, linked),
            root="../",
        )


def _by_player(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    return {key[0]: part for key, part in frame.partition_by("player", as_dict=True).items()}


@cache
def _fan_table(variant: str) -> dict[str, tuple[str, str]]:
    from paipu.rules.variants import VariantError, VariantSpec

    try:
        spec = VariantSpec.load(variant)
    except VariantError:
        return {}
    return {fan.id: (fan.name_zh, fan.name_en) for fan in spec.fans.fans}


def fan_names(variant: str, fan: str) -> tuple[str, str]:
    """A fan's Chinese and English names from the variant's table (the id when unknown)."""
    return _fan_table(variant).get(fan, (fan, fan))


# --------------------------------------------------------------------------- hand pages


def write_hand_pages(
    con: duckdb.DuckDBPyConnection,
    folder: Path,
    assets: Assets,
    footer: str,
    linked_players: frozenset[str],
    jobs: int = 1,
) -> int:
    """Stream ``replay-hands`` in batches to workers that write one page per hand."""
    sql = load_queries()["replay-hands"].sql
    reader = con.sql(sql).to_arrow_reader(HAND_BATCH)
    batches = (batch.to_pylist() for batch in reader)
    job = _HandJob(str(folder), assets.inline, footer, linked_players)
    return sum(_ordered(job, batches, jobs))


@dataclass(frozen=True)
class _HandJob:
    folder: str
    inline: bool
    footer: str
    linked_players: frozenset[str]

    def __call__(self, rows: list[dict[str, Any]]) -> int:
        assets = Assets(inline=self.inline)
        tiles = tile_table() if self.inline else {}
        script = assets.replay_script("../", tiles)
        folder = Path(self.folder)
        linked = self.linked_players.__contains__
        for row in rows:
            steps = replay_steps(json.loads(row["record"]))
            body = pages.replay_page(row, steps, linked, (row["prev_hand"], row["next_hand"]))
            text = render_page(
                title=pages.replay_title(row),
                body=body,
                root="../",
                assets=assets,
                scripts=script,
                footer=self.footer,
            )
            (folder / hand_file(row["game"], row["hand"])).write_text(text, encoding="utf-8")
        return len(rows)


def _ordered(job: _HandJob, batches: Iterator[list[dict[str, Any]]], jobs: int) -> Iterator[int]:
    if jobs <= 1:
        for batch in batches:
            yield job(batch)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        window: deque[Future[int]] = deque()
        for batch in batches:
            window.append(pool.submit(job, batch))
            if len(window) >= 2 * jobs:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()


def default_jobs() -> int:
    return os.cpu_count() or 1
