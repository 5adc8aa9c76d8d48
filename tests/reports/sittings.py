"""Hand-made sittings written straight into a paipu database, as recorded-only hands (a
score sheet's or a 国标小助手 record's: no events, verdict ``unrecorded``): the players by
seat, each seat's delta, and who won from whom. The standings, rankings and table-mates
tests build their tables with it, so that every figure can be worked out by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from paipu.pipeline.report import select
from paipu.pipeline.sql import apply_schema


@dataclass(frozen=True)
class Hand:
    """One hand: names by seat, deltas by seat, and the wins as (winner, from) seats, from
    ``None`` for a self-draw."""

    players: Sequence[str]
    deltas: Sequence[int]
    wins: Sequence[tuple[int, int | None]] = ()


def write(
    db: Path, games: dict[str, Sequence[Hand]], variants: dict[str, str] | None = None
) -> Path:
    """Write the games (id → hands in order) into a new database file, MCR unless
    ``variants`` names another variant for a game; hand k of a game is timed k minutes after
    the game's start, games a day apart in the order given."""
    con = duckdb.connect(str(db))
    apply_schema(con)
    for day, (game, hands) in enumerate(games.items(), start=1):
        variant = (variants or {}).get(game, "mcr")
        for number, hand in enumerate(hands):
            _hand(con, variant, game, number, f"2026-03-{day:02d} 19:{number:02d}:00", hand)
    con.close()
    return db


def connect(db: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to ``db`` with every hand selected (``report_hands`` and
    ``report_placements``), as the report makes them."""
    con = duckdb.connect(str(db), read_only=True)
    select(con)
    return con


def _hand(
    con: duckdb.DuckDBPyConnection, variant: str, game: str, number: int, time: str, hand: Hand
) -> None:
    assert sum(hand.deltas) == 0 and len(hand.deltas) == len(hand.players)
    outcome = "win" if hand.wins else "draw"
    con.execute(
        "INSERT INTO hands (game, hand, variant, time, players, dealer, outcome, winners, "
        "verdict, n_events, source_format) VALUES (?, ?, ?, ?, ?, 0, ?, ?, 'unrecorded', 0, "
        "'score-sheet')",
        [game, number, variant, time, list(hand.players), outcome, len(hand.wins)],
    )
    winners = {seat for seat, _ in hand.wins}
    fed = {source for _, source in hand.wins if source is not None}
    for seat, (player, delta) in enumerate(zip(hand.players, hand.deltas, strict=True)):
        con.execute(
            "INSERT INTO hand_seats (game, hand, seat, player, is_dealer, delta, won, dealt_in, "
            "melds, ready_at_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, false)",
            [game, number, seat, player, seat == 0, delta, seat in winners, seat in fed],
        )
    for seq, (seat, source) in enumerate(hand.wins):
        con.execute(
            "INSERT INTO wins (game, hand, seat, player, seq, source, from_seat, tile, total, "
            "points, self_drawn, last_tile, kong_replacement, robbing_kong, last_of_kind) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, '1m', 8, ?, ?, false, false, false, false)",
            [
                game,
                number,
                seat,
                hand.players[seat],
                seq,
                "self_draw" if source is None else "discard",
                source,
                hand.deltas[seat],
                source is None,
            ],
        )
