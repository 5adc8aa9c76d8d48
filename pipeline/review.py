"""Decision review (复盘): every discard of a player against the best one and the danger it
took, computed on demand from the hands' records (``hands.record``).

Each hand is replayed through its variant's own table (the replay that checked it at
ingest). Before each discard of a reviewed seat, the seat's hand and what it could see give
its choices (:mod:`paipu.rules.efficiency`: shanten and live useful tiles); after the
replay, the table's discard facts give the true danger (the tile completed a ready
opponent's hand with enough to win), the opponents ready by shape, and whether the tile was
won on. A deal-in is *avoidable* when some other legal discard of that moment would have
completed no opponent's hand. Opponents that declared ready (a ``ready`` event, in the
variants that have one) are counted apart.

Zipai (郴州字牌) has no shanten in the rules engine: its discards get the danger facts and
no efficiency (``docs/reports.md``).

The rows go to DuckDB as an Arrow table named ``discard_reviews``, and the named queries of
``sql/reports/review.sql`` add them up, so that the figures are SQL like every report's.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import sys
from collections.abc import Collection, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.pipeline.sql import apply_schema, run
from paipu.rules.efficiency import (
    best_choice,
    best_tiles,
    discard_choices,
    loss,
    wild_discard_choices,
)
from paipu.rules.events import Discard, Ready
from paipu.rules.melds import MeldKind
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, Table, outcome_of
from paipu.rules.tiles import N_KINDS, Tile, tile_name
from paipu.rules.variants import get_variant


class ReviewError(ValueError):
    """A stored hand the review cannot replay (its record, or the rules, changed since)."""


#: Hands sent to a worker at a time.
CHUNK = 200
#: The schema file of the table ``discard_reviews``.
SCHEMA_FILE = "003_review.sql"


@dataclass(frozen=True, slots=True)
class Efficiency:
    """The tile-efficiency facts of one discard (牌效)."""

    shanten: int  # of the hand the discard left (0: ready)
    live: int  # live useful tiles (进张) of that hand
    best: tuple[Tile, ...]  # the discards as efficient as the best
    best_shanten: int
    best_live: int
    loss: int  # live useful tiles given up against the best (efficiency.loss)


@dataclass(frozen=True, slots=True)
class DiscardReview:
    """One discard of a player: its efficiency against the best and the danger it took."""

    game: str
    hand: int
    seq: int  # the discard's event index
    seat: int
    player: str
    variant: str
    turn: int  # the seat's own discard count, 1-based (巡)
    tile: str
    shanten: int | None  # efficiency: None for zipai
    live: int | None
    best: list[str] | None
    best_shanten: int | None
    best_live: int | None
    loss: int | None
    efficient: bool | None  # the discard was as efficient as the best
    ready_opponents: int  # opponents ready (听牌) by shape when the tile landed
    declared_opponents: int  # opponents that had declared ready (报听)
    dangerous: bool  # true danger: the tile completed a ready opponent's hand
    won_on: bool  # a deal-in (放铳)
    safe_existed: bool | None  # some legal discard was safe; None: the tile was not dangerous
    record_md5: str = ""  # of the record reviewed (hands.record), when it came from one

    @property
    def avoidable(self) -> bool:
        """A deal-in that a safe tile would have avoided."""
        return self.won_on and bool(self.safe_existed)


COLUMNS = tuple(f.name for f in fields(DiscardReview))


def _seat_view(table: Table, seat: int) -> tuple[list[int], int, list[int]]:
    """The seat's concealed counts, its melds and the copies of each kind it can see (its
    hand, every pool and exposed meld, its own concealed kongs): the one place the review
    reads the replay table's state."""
    s = table.seats[seat]
    seen = [held + shown for held, shown in zip(s.hand, table.visible, strict=False)]
    for meld in s.melds:
        if meld.kind is MeldKind.CONCEALED_KONG:
            seen[meld.tiles[0]] += len(meld.tiles)
    return list(s.hand[:N_KINDS]), len(s.melds), seen


def _efficiency(
    table: Table, seat: int, tile: Tile, memo: dict[tuple[int, ...], tuple[Tile, ...]]
) -> tuple[Efficiency | None, list[Tile]]:
    """The discard's efficiency and the discards the rules allowed at that moment (``memo``:
    the seat's, for :func:`~paipu.rules.efficiency.discard_choices`)."""
    variant = table.variant
    problem = variant.replay_discard_problem
    if table.tile_set is not None:  # 1–10 suits (十万麻将): tiles the efficiency tables lack
        held = table.seats[seat].hand
        kinds = range(table.kind_count)
        return None, [t for t in kinds if held[t] and problem(table, seat, t) is None]
    hand, melds, seen = _seat_view(table, seat)
    allowed = [t for t in range(N_KINDS) if hand[t] and problem(table, seat, t) is None]
    if sum(hand) != variant.spec.hand_size + 1 - 3 * melds or tile not in allowed:
        # not a full hand (a variant's own path): no efficiency rather than a wrong one
        return None, allowed
    wilds = table.wilds
    if wilds is not None and not wilds.plain:  # 混 / 精 / 财神 / 鬼牌: the wild-aware count
        choices = wild_discard_choices(
            hand,
            melds,
            wilds,
            seen=seen,
            shapes=variant.replay_shapes(),
            kinds=table.tile_kinds,
            discards=allowed,
            wanted=(tile,),
        )
    else:
        choices = discard_choices(
            hand,
            melds,
            seen=seen,
            shapes=variant.replay_shapes(),
            kinds=table.tile_kinds,
            discards=allowed,
            wanted=(tile,),
            memo=memo,
        )
    best = best_choice(choices)
    mine = choices[tile]
    facts = Efficiency(
        mine.shanten, mine.live, best_tiles(choices), best.shanten, best.live, loss(mine, best)
    )
    return facts, allowed


def _safe_exists(table: Table, seat: int, tile: Tile, allowed: Sequence[Tile]) -> bool | None:
    """None when ``tile`` completes no opponent's hand; else whether another allowed
    discard would have completed none."""
    others = [(seat + k) % table.players for k in range(1, table.players)]

    def wins_on(candidate: Tile) -> bool:
        return any(table.would_win(other, candidate, seat) is not None for other in others)

    if not wins_on(tile):
        return None
    return any(not wins_on(c) for c in allowed if c != tile)


def review_record(
    record: HandRecord, players: Collection[str] | None = None, record_md5: str = ""
) -> list[DiscardReview]:
    """The review of every discard of ``players`` (all seats when None) in one hand."""
    variant = get_variant(record.variant)
    options = variant.resolve_options(record.rules)
    table = variant.new_table(record, options)
    mahjong = isinstance(table, Table)
    seats = {s for s, p in enumerate(record.players) if players is None or p in players}
    declared: set[int] = set()
    memos: dict[tuple[int, int], dict[tuple[int, ...], tuple[Tile, ...]]] = {}
    facts: dict[int, tuple[Efficiency | None, bool | None, int]] = {}
    for index, event in enumerate(record.events):
        if isinstance(event, Ready):
            declared.add(event.seat)
        elif isinstance(event, Discard) and event.seat in seats:
            efficiency: Efficiency | None = None
            safe: bool | None = None
            if mahjong:
                assert isinstance(table, Table)
                memo = memos.setdefault((event.seat, len(table.seats[event.seat].melds)), {})
                efficiency, allowed = _efficiency(table, event.seat, event.tile, memo)
                safe = _safe_exists(table, event.seat, event.tile, allowed)
            facts[index] = (efficiency, safe, len(declared - {event.seat}))
        table.apply(index, event)
    outcome = outcome_of(table, record)
    rows = []
    for fact in outcome.discards:
        found = facts.get(fact.index)
        if found is None:
            continue
        efficiency, safe, declared_count = found
        rows.append(
            DiscardReview(
                game=record.game,
                hand=record.hand,
                seq=fact.index,
                seat=fact.seat,
                player=record.players[fact.seat],
                variant=record.variant,
                turn=fact.turn,
                tile=tile_name(fact.tile),
                **_efficiency_columns(efficiency),
                ready_opponents=sum(fact.opponent_ready),
                declared_opponents=declared_count,
                dangerous=any(fact.opponent_can_win),
                won_on=fact.won_on,
                safe_existed=safe,
                record_md5=record_md5,
            )
        )
    return rows


def _efficiency_columns(efficiency: Efficiency | None) -> dict[str, Any]:
    if efficiency is None:
        return dict.fromkeys(
            ("shanten", "live", "best", "best_shanten", "best_live", "loss", "efficient")
        )
    return {
        "shanten": efficiency.shanten,
        "live": efficiency.live,
        "best": [tile_name(t) for t in efficiency.best],
        "best_shanten": efficiency.best_shanten,
        "best_live": efficiency.best_live,
        "loss": efficiency.loss,
        "efficient": efficiency.loss == 0,
    }


# ---------------------------------------------------------------------- many hands


def _review_lines(job: tuple[list[str], frozenset[str] | None]) -> pa.Table:
    """A worker's share: the review table of the hands of ``lines`` (paipu log lines as
    stored), as Arrow, whose columns cross between processes as whole buffers."""
    lines, players = job
    rows: list[DiscardReview] = []
    for line in lines:
        parsed = parse_line(line, "hands.record", 1)
        if not isinstance(parsed, Parsed):
            where = f"game {parsed.game} hand {parsed.hand}"
            raise ReviewError(f"{where}: hands.record cannot be read: {parsed.reason}")
        digest = hashlib.md5(line.encode(), usedforsecurity=False).hexdigest()
        try:
            rows.extend(review_record(parsed.record, players, digest))
        except RuleViolation as exc:
            record = parsed.record
            raise ReviewError(
                f"game {record.game} hand {record.hand} no longer replays ({exc}): "
                "ingest its file again"
            ) from None
    return review_table(rows)


def review_lines(
    lines: Sequence[str], players: Collection[str] | None = None, jobs: int = 1
) -> pa.Table:
    """The review table of many hands (their records as stored), in order; ``jobs`` worker
    processes share them a chunk of :data:`CHUNK` hands at a time, after this process has
    reviewed the first :data:`WARM` itself."""
    who = frozenset(players) if players is not None else None
    warm = WARM if jobs > 1 and len(lines) > WARM + CHUNK else len(lines)
    # The first hands are reviewed here before the workers start: forked from this
    # process, they begin with the shape tables those hands built (the groups most hands
    # share) instead of each building its own from nothing.
    tables = [_review_lines((list(lines[:warm]), who))] if warm else []
    chunks = [(list(lines[i : i + CHUNK]), who) for i in range(warm, len(lines), CHUNK)]
    if chunks:
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=_FORK) as pool:
            tables.extend(pool.map(_review_lines, chunks))
    return pa.concat_tables(tables) if tables else review_table(())


#: Hands the parent reviews before it forks its workers (:func:`review_lines`): a worker
#: that starts with warm shape tables reviews its first hands a fifth to a quarter faster
#: (docs/benchmarks.md, "Decision review").
WARM = 300
#: Workers are forked where the platform can (they inherit the parent's shape tables);
#: elsewhere the default start method, which gives the same rows, only slower.
_FORK = (
    multiprocessing.get_context("fork")
    if "fork" in multiprocessing.get_all_start_methods() and sys.platform == "linux"
    else None
)


def review_table(rows: Iterable[DiscardReview]) -> pa.Table:
    """The rows as the Arrow table the review queries read as ``discard_reviews``."""
    rows = list(rows)
    columns = {name: [getattr(row, name) for row in rows] for name in COLUMNS}
    return pa.table(columns, schema=_SCHEMA)


_SCHEMA = pa.schema(
    [
        ("game", pa.string()),
        ("hand", pa.int32()),
        ("seq", pa.int32()),
        ("seat", pa.int32()),
        ("player", pa.string()),
        ("variant", pa.string()),
        ("turn", pa.int32()),
        ("tile", pa.string()),
        ("shanten", pa.int32()),
        ("live", pa.int32()),
        ("best", pa.list_(pa.string())),
        ("best_shanten", pa.int32()),
        ("best_live", pa.int32()),
        ("loss", pa.int32()),
        ("efficient", pa.bool_()),
        ("ready_opponents", pa.int32()),
        ("declared_opponents", pa.int32()),
        ("dangerous", pa.bool_()),
        ("won_on", pa.bool_()),
        ("safe_existed", pa.bool_()),
        ("record_md5", pa.string()),
    ]
)


@dataclass(frozen=True)
class Review:
    """A player's review: the discard rows, and their sums per variant."""

    rows: pa.Table  # discard_reviews
    summary: pl.DataFrame  # review-summary
    worst: pl.DataFrame  # review-worst


def review_db(
    con: duckdb.DuckDBPyConnection,
    player: str | None,
    variant: str | None = None,
    jobs: int = 1,
    worst: int = 10,
) -> Review:
    """Review ``player``'s discards (every player's when None) in the database's hands,
    of ``variant`` only when given."""
    hands = run(con, "review-hands", player=player, variant=variant)
    lines = hands["record"].to_list()
    return summarise(review_lines(lines, None if player is None else (player,), jobs), worst)


def summarise(rows: pa.Table, worst: int = 10) -> Review:
    """Run the review queries over ``rows``, as ``discard_reviews`` of a database in memory."""
    con = duckdb.connect()
    try:
        con.register("discard_reviews", rows)
        return Review(rows, run(con, "review-summary"), run(con, "review-worst", limit=worst))
    finally:
        con.close()


def save(
    con: duckdb.DuckDBPyConnection, review: Review, player: str | None, variant: str | None
) -> None:
    """Keep a review's rows in the table ``discard_reviews`` (for the replay pages), in
    place of those it replaces (``review-forget``), in one transaction."""
    apply_schema(con)  # a database made before the table existed
    con.execute("BEGIN TRANSACTION")
    try:
        run(con, "review-forget", player=player, variant=variant)
        con.from_arrow(review.rows).insert_into("discard_reviews")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def review_and_save(db: Path, jobs: int = 1) -> int:
    """Review every discard of the database file and keep the rows (``paipu demo``); the
    number of discards reviewed."""
    con = duckdb.connect(str(db))
    try:
        review = review_db(con, None, jobs=jobs, worst=0)
        save(con, review, None, None)
        return review.rows.num_rows
    finally:
        con.close()


def ensure_table(con: duckdb.DuckDBPyConnection) -> None:
    """Give a database made before the table ``discard_reviews`` (opened read-only, as the
    report opens it) an empty one for this session, so that the replay query finds it."""
    if not run(con, "review-table-exists").item():
        ddl = (resources.files("paipu.sql") / "schema" / SCHEMA_FILE).read_text(encoding="utf-8")
        con.execute(ddl.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE IF NOT EXISTS"))
