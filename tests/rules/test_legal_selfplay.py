"""A law of the legal moves (rules/legal.py) over self-played hands of every mahjong variant:
every move the log holds is among the moves legal.py lists at its point, and a claim taken
is the best the seats wanted: every claim listed before it (better priority, or as good
and nearer the discarder) was offered to its seat and passed.

The bots are wrapped to record what each seat was offered and chose; the hands are then
replayed event by event, the lists asked before each event is applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.events import (
    AddedKong,
    Chi,
    ConcealedKong,
    Discard,
    Event,
    Flower,
    Kong,
    Pong,
    Win,
)
from paipu.rules.legal import Move, claims, rob_claims, turn_moves
from paipu.rules.mechanics.kong_reveal import KongReveal
from paipu.rules.record import HandRecord
from paipu.rules.replay import Phase
from paipu.rules.selfplay import HandSetup, Style, hand_rng
from paipu.rules.variants import get_variant
from paipu.selfplay import MAHJONG_FAMILIES, play_hand
from paipu.selfplay.loop import Player, SeatView, TurnMoves

VARIANTS = ("mcr", "changsha", "zhuanzhuan", "sichuan", "shanghai")
Key = tuple[str, tuple[int, ...]]
#: (event index when asked, seat) → [(the claims offered, the one chosen or None)]
Log = dict[tuple[int, int], list[tuple[list[Key], Key | None]]]


class Recording(Player):
    """A bot whose claim decisions are written to a log."""

    def __init__(self, bot: Player, seat: int, log: Log) -> None:
        self._bot = bot
        self._seat = seat
        self._log = log

    def turn(self, view: SeatView, moves: TurnMoves) -> Move:
        return self._bot.turn(view, moves)

    def void_suit(self, view: SeatView) -> str:
        return self._bot.void_suit(view)

    def reveal(self, view: SeatView) -> bool:
        return self._bot.reveal(view)

    def take_haidi(self, view: SeatView) -> bool:
        return self._bot.take_haidi(view)

    def claim(self, view: Any, tile: int, from_seat: int, options: Sequence[Any]) -> Any:
        choice = self._bot.claim(view, tile, from_seat, options)
        offered = [(o.kind.value, tuple(o.tiles)) for o in options]
        chosen = None if choice is None else (choice.kind.value, tuple(choice.tiles))
        self._log.setdefault((view._table.index, self._seat), []).append((offered, chosen))
        return choice


def _played(variant_id: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[HandRecord, Log]:
    log: Log = {}
    for family, make in list(MAHJONG_FAMILIES.items()):

        def wrapped(*args: Any, _make: Any = make) -> list[Recording]:
            return [Recording(bot, seat, log) for seat, bot in enumerate(_make(*args))]

        monkeypatch.setitem(MAHJONG_FAMILIES, family, wrapped)
    variant = get_variant(variant_id)
    setup = HandSetup(
        variant=variant_id,
        game="legal",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.AGGRESSIVE, Style.BALANCED, Style.DEFENSIVE, Style.AGGRESSIVE),
        dealer=seed % 4,
        scores_before=(0, 0, 0, 0),
    )
    outcome = play_hand(variant, hand_rng(seed, 0, 0), setup, variant.resolve_options())
    monkeypatch.undo()
    return outcome.record, log


def _key(move: Move) -> tuple[int, str, tuple[int, ...]]:
    return move.seat, move.kind.value, move.tiles


TURN = {Discard: "discard", ConcealedKong: "concealed_kong", AddedKong: "added_kong"}
TURN_KINDS = (*TURN, Flower)


def check_hand(record: HandRecord, log: Log) -> int:
    """Replay ``record`` checking each move against the legal lists; the claims checked."""
    variant = get_variant(record.variant)
    table = variant.new_table(record, variant.resolve_options(record.rules))
    offered_at = -1  # the event that offered the tile now claimable
    took: set[int] = set()  # seats that took a claim on it
    checked = 0
    for index, event in enumerate(record.events):
        kind = type(event)
        if kind in TURN_KINDS:
            name = "flower" if kind is Flower else TURN[kind]
            move = (event.seat, name, (event.tile,))  # type: ignore[attr-defined]
            listed = [_key(m) for m in turn_moves(table, event.seat)]  # type: ignore[attr-defined]
            assert move in listed, (record.variant, index, event, listed)
        elif kind is Win and event.from_seat is None:  # type: ignore[attr-defined]
            if table.phase is Phase.ACT:
                move = (event.seat, "self_drawn_win", (event.tile,))  # type: ignore[attr-defined]
                assert move in [_key(m) for m in turn_moves(table, event.seat)], (index, event)
            else:  # 杠上开花 on the tiles of a kong reveal
                assert table.would_win(event.seat, event.tile, None) is not None, (index, event)
        elif kind in (Win, Pong, Kong, Chi):
            checked += _check_claim(table, event, log, offered_at, took)
        table.apply(index, event)
        if kind in (Discard, AddedKong, KongReveal):
            offered_at, took = index, set()
    return checked


def _check_claim(table: Any, event: Event, log: Log, offered_at: int, took: set[int]) -> int:
    seat: int = event.seat  # type: ignore[attr-defined]
    if type(event) is Chi:
        move = (seat, "chi", tuple(event.tiles))  # type: ignore[attr-defined]
    else:
        move = (seat, type(event).kind, (event.tile,))  # type: ignore[attr-defined]
    phase = table.phase
    if phase is Phase.ENDED and table.win_phase is not None:
        table.phase = table.win_phase  # a further winner on the same tile (一炮多响)
    try:
        if table.phase is Phase.ROB:
            listed = rob_claims(table, table.robbed_tile, table.turn)
        else:
            listed = claims(table, table.last_discard, table.discarder)
    finally:
        table.phase = phase
    keys = [_key(m) for m in listed]
    assert move in keys, (table.index + 1, event, keys)
    for better in keys[: keys.index(move)]:
        if better[0] in took:
            continue  # a winner before it on the same tile
        asked = log.get((offered_at, better[0]), [])
        passed = any(
            (better[1], better[2]) in offered and chosen is None for offered, chosen in asked
        )
        passed = passed or any(
            (better[1], better[2]) in offered and chosen is not None and chosen != better[1:]
            for offered, chosen in asked
        )
        assert passed, f"{event}: {better} is better and its seat was not asked or did not pass"
    took.add(seat)
    return 1


@pytest.mark.parametrize("variant_id", VARIANTS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_logged_move_is_legal_and_the_best_claim_wanted(variant_id: str, seed: int) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        record, log = _played(variant_id, seed, monkeypatch)
    check_hand(record, log)


def test_claims_are_checked_at_all() -> None:
    """The law is not empty: over a few hands of each variant, claims were taken and checked."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        for variant_id in VARIANTS:
            total = 0
            for seed in range(4):
                record, log = _played(variant_id, seed, monkeypatch)
                total += check_hand(record, log)
            assert total > 0, variant_id
