"""Report: open a paipu database read-only, run the named report queries, write the pages.

The pages (see ``docs/reports.md``): ``index.html`` (overview), ``winrates.html``,
``fans.html``, ``dealin.html``, ``audit.html``, ``players/index.html`` and one page per
player under ``players/``, one replay page per hand under ``hands/`` with one data script
per game under ``data/``, and the shared ``assets/`` (plotly.js, the style sheet, the replay
script) unless pages inline them. Beside them the competition pages: ``standings.html``,
``rankings.html`` with a ``rankings-<variant>.html`` per variant, and ``tablemates.html``.

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

from paipu.pipeline.lake import connect_read
from paipu.pipeline.review import ensure_table as ensure_review_table
from paipu.pipeline.sql import QueryError, load_queries
from paipu.reports import club_audit, dealin_ready, frames, pages
from paipu.reports import rankings as rankings_page
from paipu.reports import standings as standings_page
from paipu.reports import tablemates as tablemates_page
from paipu.reports.html import Assets, hand_file, player_file, render_page, replay_js
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
#: Placed games a player needs to be ranked (``paipu report --min-games``).
MIN_GAMES = 10
#: Hands a pair must share to be tested on the table-mates page; table-mates per player.
PAIR_MIN_HANDS = 20
TABLE_MATES = 5


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
    until: str | None = None  # ISO date (the whole day) or date-time, inclusive
    min_games: int = MIN_GAMES  # placed games a player needs to be ranked


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


def check_until(until: str | None) -> str | None:
    """``until`` as the last ISO date-time a report covers: a date stands for its whole day.

    >>> check_until("2026-01-31"), check_until("2026-01-31T18:00"), check_until(None)
    ('2026-01-31 23:59:59.999999', '2026-01-31 18:00:00', None)
    """
    if until is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(until)
    except ValueError:
        raise ValueError(f"--until {until!r}: expected a date such as 2026-01-31") from None
    if len(until) <= len("2026-01-31"):
        moment = moment.replace(hour=23, minute=59, second=59, microsecond=999999)
    return moment.isoformat(sep=" ")


def check_period(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """:func:`check_since` and :func:`check_until`, and ValueError if since is after until."""
    first, last = check_since(since), check_until(until)
    if first is not None and last is not None and first > last:
        raise ValueError(f"--since {since} is after --until {until}: no day in between")
    return first, last


def select(
    con: duckdb.DuckDBPyConnection,
    variant: str | None = None,
    player: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> None:
    """Make ``report_hands``, the hands a report with these filters covers (``since`` and
    ``until`` as :func:`check_since` and :func:`check_until` give them), and set the
    session variables ``report_variant`` and ``report_player`` that the queries of rejected
    hands filter by (rejects are not hands of ``report_hands``); then ``report_placements``,
    the places of every game those hands belong to (``sql/reports/standings.sql``)."""
    execute(con, "report-selection", variant=variant, player=player, since=since, until=until)
    con.execute("SET VARIABLE report_variant = ?::VARCHAR", [variant])
    con.execute("SET VARIABLE report_player = ?::VARCHAR", [player])
    execute(con, "report-placements")  # every game's places: standings, rankings, table-mates


def named_defaults() -> dict[str, Any]:
    """The parameters of a named query run alone (``paipu sql --named``) when not given: no
    filter, and the report's own limits."""
    return {
        "variant": None,
        "player": None,
        "since": None,
        "limit": pages.LIST_LIMIT,
        "top": TABLE_MATES,
        "window": ROLLING_WINDOW,
        "min_games": MIN_GAMES,
        "min_hands": PAIR_MIN_HANDS,
    }


def named(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> duckdb.DuckDBPyRelation:
    """A named query of ``sql/reports`` run alone on the whole database, as a relation: the
    selection of every hand (``report_hands``, ``report_placements``) is made first, and the
    parameters not given take :func:`named_defaults`. QueryError for an unknown name or a
    statement that returns no rows (``report-selection``)."""
    queries = load_queries()
    if name not in queries:
        raise QueryError(f"no query named {name!r} (paipu sql --list shows them)")
    sql = queries[name].sql
    if sql.lstrip().upper().startswith("CREATE"):
        raise QueryError(f"{name!r} makes a table for the other queries and returns no rows")
    select(con)
    values = {**named_defaults(), **params}
    return con.sql(sql, params={k: v for k, v in values.items() if f"${k}" in sql} or None)


def _filters_said(options: ReportOptions) -> str:
    """The filters given, in words, for the message that nothing matches them."""
    given = [
        f"{what} {value!r}"
        for what, value in (
            ("variant", options.variant),
            ("player", options.player),
            ("since", options.since),
            ("until", options.until),
        )
        if value is not None
    ]
    return f" ({', '.join(given)})" if given else ""


def write_report(
    db: Path,
    out: Path,
    options: ReportOptions = ReportOptions(),
    progress: Callable[[str], None] | None = None,
) -> ReportSummary:
    """Write every page of the report on ``db`` (a database file or a lake folder) into
    ``out``; NoHandsError if nothing matches."""
    tell = progress or (lambda _stage: None)
    since, until = check_period(options.since, options.until)
    con = connect_read(db)
    try:
        con.execute(f"SET threads = {max(1, options.jobs)}")
        con.execute("SET enable_progress_bar = false")
        ensure_review_table(con)  # the replay pages join discard_reviews
        select(con, options.variant, options.player, since, until)
        totals = query(con, "overview-totals").row(0, named=True)
        if not totals["hands"]:
            raise NoHandsError(
                "no hand of the database matches the filters" + _filters_said(options)
            )
        summary = ReportSummary(out, hands=totals["hands"], players=totals["players"])
        for folder in (out, out / "players", out / "hands", out / club_audit.FOLDER):
            folder.mkdir(parents=True, exist_ok=True)
        variants = query(con, "overview-variants")
        script = replay_js(
            tile_list(), {v: variant_info(v).script_data() for v in variants["variant"]}
        )
        assets = Assets(inline=options.inline, replay=script)
        assets.write(out)
        filters = pages.Filters(options.variant, options.player, options.since, options.until)
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
        rates = frames.winrates(query(con, "winrates-player-variants"))
        write(
            "winrates.html",
            "Win rates",
            pages.winrates(
                rates,
                frames.winrates(query(con, "winrates-seat-variants")),
                frames.winrates(query(con, "winrates-variants")),
                frames.win_sources(query(con, "winrates-sources")),
                query(con, "winrates-rolling-variants", top=ROLLING_PLAYERS, window=ROLLING_WINDOW),
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
        recorded = int(query(con, "clubs-count")["recorded"][0] or 0)
        tell("deal-in risk")
        dealin_players = frames.dealin_players(query(con, "dealin-player-variants"))
        write(
            "dealin.html",
            "Deal-in risk",
            club_audit.events_note(recorded, "the deal-in analytics (they need the discards)")
            + pages.dealin(
                frames.dealin_grid(query(con, "dealin-grid")),
                frames.dealin_melds(query(con, "dealin-melds")),
                dealin_players,
                linked,
            )
            + dealin_ready.section(dealin_ready.frame(query(con, "dealin-ready"))),
        )
        tell("audit")
        write(
            "audit.html",
            "Audit",
            club_audit.events_note(recorded, "this page: the clubs' pages audit them")
            + pages.audit(
                query(con, "audit-mismatches", limit=AUDIT_LIMIT),
                query(con, "audit-computed"),
                query(con, "audit-rejects", limit=AUDIT_LIMIT),
                fan_names,
            ),
            figures=False,
        )
        tell("rankings")
        _ranking_pages(con, options.min_games, linked, write)
        tell("clubs")
        _club_pages(con, write)
        tell("players")
        _player_pages(con, options.player, players, rates, dealin_players, profile, linked, write)
        tell("hands")
        with HandPages(out, assets, footer, linked) as writer:
            summary.pages += write_hand_pages(con, writer)
    finally:
        con.close()
    return summary


def _club_pages(con: duckdb.DuckDBPyConnection, write: Callable[..., None]) -> None:
    """The clubs' audit pages (:mod:`paipu.reports.club_audit`) and the pages of the
    recorded-only hands under ``hands/``, which have no replay."""
    sittings = club_audit.sittings_of(query(con, "clubs-hands"))
    write(
        f"{club_audit.FOLDER}/index.html",
        "Clubs: recorded hands",
        club_audit.clubs_index(sittings),
        figures=False,
        root="../",
    )

    def hand_href(game: str, hand: int) -> str:
        return f"../hands/{hand_file(game, hand)}"

    for sitting in sittings:
        write(
            f"{club_audit.FOLDER}/{sitting.file}",
            f"Sitting {sitting.game}",
            club_audit.sitting_page(sitting, hand_href),
            figures=False,
            root="../",
        )
        for hand in sitting.hands:
            write(
                f"hands/{hand_file(sitting.game, hand.row['hand'])}",
                f"{sitting.game} #{hand.row['hand']}",
                club_audit.recorded_hand_page(sitting, hand, "../"),
                figures=False,
                root="../",
            )


def _player_pages(
    con: duckdb.DuckDBPyConnection,
    player: str | None,
    players: pl.DataFrame,
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
    rates_by: dict[str, list[dict[str, Any]]] = {}
    for r in rates.iter_rows(named=True):
        rates_by.setdefault(r["player"], []).append(r)
    dealin_by: dict[str, list[dict[str, Any]]] = {}
    for r in dealin.iter_rows(named=True):
        dealin_by.setdefault(r["player"], []).append(r)
    totals_by = {r["player"]: r for r in players.iter_rows(named=True)}
    review_by: dict[str, list[dict[str, Any]]] = {}
    for r in query(con, "review-report-players").iter_rows(named=True):
        review_by.setdefault(r["player"], []).append(r)
    names = [player] if player is not None else players["player"].to_list()
    for name in names:
        data = pages.PlayerData(
            player=name,
            rates=sorted(rates_by.get(name, []), key=lambda r: r["variant"]),
            dealin=dealin_by.get(name, []),
            totals=totals_by.get(name),
            review=review_by.get(name, []),
            **{k: split[k].get(name, parts[k].clear()) for k in parts},
        )
        write(
            f"players/{player_file(name)}",
            name,
            pages.player_page(data, linked),
            root="../",
        )


def _ranking_pages(
    con: duckdb.DuckDBPyConnection,
    min_games: int,
    linked: Callable[[str], bool],
    write: Callable[..., None],
) -> None:
    """The standings, the rankings (an index and a page per variant) and the table-mates."""
    unplaced = query(con, "games-unplaced")
    placements = query(con, "game-placements")
    write(
        "standings.html",
        "Standings 比赛排名",
        standings_page.page(query(con, "standings"), placements, unplaced, linked),
        figures=False,
    )
    ranked = query(con, "ranking-players", min_games=min_games)
    write(
        "rankings.html", "Rankings", rankings_page.index(ranked, unplaced, min_games), figures=False
    )
    for row in unplaced.iter_rows(named=True):
        variant = row["variant"]
        body = rankings_page.page(
            variant,
            ranked.filter(pl.col("variant") == variant),
            placements.filter(pl.col("variant") == variant),
            row,
            min_games,
            linked,
        )
        write(rankings_page.page_file(variant), f"Rankings: {variant_info(variant).title}", body)
    write(
        "tablemates.html",
        "Table-mates",
        tablemates_page.page(
            query(con, "table-mates", top=TABLE_MATES),
            query(con, "pair-dealins", min_hands=PAIR_MIN_HANDS),
            PAIR_MIN_HANDS,
            linked,
        ),
        figures=False,
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
