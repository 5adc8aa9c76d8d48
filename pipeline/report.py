"""Report: open a paipu database read-only, run the named report queries, write the pages.

The pages (see ``docs/reports.md``): ``index.html`` (overview), ``winrates.html``,
``fans.html``, ``dealin.html``, ``audit.html``, ``players/index.html`` and one page per
player under ``players/``, one replay page per hand under ``hands/`` with one data script
per game under ``data/``, and the shared ``assets/`` (plotly.js, the style sheet, the replay
script) unless pages inline them.

Every query reads the hands through the temporary table ``report_hands`` that
``report-selection`` makes from the filters (the rejects through ``report_rejects``). The
per-player queries run once for all players and are cut per page in Python. The hand pages
are streamed a batch of whole games at a time, in game order (``replay-games``, then
``replay-hands`` per batch), so that memory stays flat however many hands there are; the
browser rebuilds each hand from its record (:mod:`paipu.reports.replay`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from paipu.pipeline.review import ensure_table as ensure_review_table
from paipu.pipeline.sql import load_queries
from paipu.reports import frames, pages
from paipu.reports.html import Assets, player_file, render_page, replay_js
from paipu.reports.replay import HandPages, tile_list
from paipu.reports.variants import fan_names, variant_info

#: Hands read from the database at a time for the replay pages (whole games: a longer game
#: makes a batch of its own).
HAND_BATCH = 4000
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
    jobs: int = 1  # threads of the database engine


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


def select(
    con: duckdb.DuckDBPyConnection,
    variant: str | None = None,
    player: str | None = None,
    since: str | None = None,
) -> None:
    """Make ``report_hands``, the hands a report with these filters covers, and set the
    session variables ``report_variant`` and ``report_player`` that the queries of rejected
    hands filter by (rejects are not hands of ``report_hands``)."""
    execute(con, "report-selection", variant=variant, player=player, since=since)
    con.execute("SET VARIABLE report_variant = ?::VARCHAR", [variant])
    con.execute("SET VARIABLE report_player = ?::VARCHAR", [player])


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
        con.execute(f"SET threads = {max(1, options.jobs)}")
        con.execute("SET enable_progress_bar = false")
        ensure_review_table(con)  # the replay pages join discard_reviews
        select(con, options.variant, options.player, since)
        totals = query(con, "overview-totals").row(0, named=True)
        if not totals["hands"]:
            raise NoHandsError("no hand of the database matches the filters")
        summary = ReportSummary(out, hands=totals["hands"], players=totals["players"])
        for folder in (out, out / "players", out / "hands"):
            folder.mkdir(parents=True, exist_ok=True)
        variants = query(con, "overview-variants")
        script = replay_js(
            tile_list(), {v: variant_info(v).script_data() for v in variants["variant"]}
        )
        assets = Assets(inline=options.inline, replay=script)
        assets.write(out)
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
                frames.win_sources(query(con, "winrates-sources")),
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
        with HandPages(out, assets, footer, linked) as writer:
            summary.pages += write_hand_pages(con, writer)
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


# --------------------------------------------------------------------------- hand pages


def write_hand_pages(
    con: duckdb.DuckDBPyConnection, writer: HandPages, batch: int = HAND_BATCH
) -> int:
    """Every hand's replay page and every game's data script, a batch of whole games at a
    time in game order: only the batch's records are read, sorted and held. The database
    reads the next batch (in a thread: DuckDB works outside the GIL) while this one's files
    are written; at most three batches are in memory."""
    batches = list(game_batches(query(con, "replay-games"), batch))
    ready: queue.Queue[Any] = queue.Queue(maxsize=1)  # Arrow tables, an error, None: done
    stop = threading.Event()

    def read() -> None:
        try:
            for first, last in batches:
                if stop.is_set():
                    return
                ready.put(replay_table(con, first, last))
            ready.put(None)
        except BaseException as exc:  # handed to the writing thread, which raises it
            ready.put(exc)

    reader = threading.Thread(target=read, name="replay-reader", daemon=True)
    reader.start()
    written = 0
    try:
        while (table := ready.get()) is not None:
            if isinstance(table, BaseException):
                raise table
            for game, hands, players, entries in _rows(table):
                written += writer.write_game(game, hands, players, entries)
    finally:
        stop.set()
        while reader.is_alive():  # let a reader blocked on a full queue finish
            with contextlib.suppress(queue.Empty):
                ready.get(timeout=0.1)
        reader.join()
    return written


def replay_table(con: duckdb.DuckDBPyConnection, first: str, last: str) -> Any:
    """The ``replay-hands`` rows (game, hands, players, entries) of the games from ``first``
    to ``last``, which the query reads from two session variables, as an Arrow table (made
    without holding Python's GIL)."""
    con.execute("SET VARIABLE replay_first = ?::VARCHAR", [first])
    con.execute("SET VARIABLE replay_last = ?::VARCHAR", [last])
    return con.sql(load_queries()["replay-hands"].sql).to_arrow_table()


def replay_rows(con: duckdb.DuckDBPyConnection, first: str, last: str) -> list[tuple[Any, ...]]:
    """:func:`replay_table` as a list of tuples."""
    return _rows(replay_table(con, first, last))


def _rows(table: Any) -> list[tuple[Any, ...]]:
    return list(zip(*(table.column(i).to_pylist() for i in range(table.num_columns)), strict=True))


def game_batches(games: pl.DataFrame, size: int) -> Iterator[tuple[str, str]]:
    """(first, last) game ids of consecutive runs of whole games of about ``size`` hands.

    >>> games = pl.DataFrame({"game": ["a", "b", "c", "d"], "hands": [3, 2, 9, 1]})
    >>> list(game_batches(games, 5))
    [('a', 'b'), ('c', 'c'), ('d', 'd')]
    """
    first: str | None = None
    count = 0
    last = ""
    for game, hands in games.select("game", "hands").iter_rows():
        if first is None:
            first = game
        last = game
        count += hands
        if count >= size:
            yield first, last
            first, count = None, 0
    if first is not None:
        yield first, last
