"""A law over the bundled Harbin hands: every logged move is among the moves
``rules/legal.py`` lists at its point — a 吃听 (``ready`` then ``chi``) is a listed
``ready_chi``, a declaring discard one the state allows (``ready_discards``), a ready seat's
discard the tile it drew."""

from __future__ import annotations

from pathlib import Path

from paipu.parsers import Parsed
from paipu.parsers.paipu import parse_line
from paipu.rules.events import AddedKong, Chi, ConcealedKong, Discard, Kong, Pong, Ready, Win
from paipu.rules.legal import MoveKind, claims, turn_moves
from paipu.rules.replay import Phase
from paipu.rules.variants import get_variant

DATA = Path(__file__).resolve().parents[3] / "data" / "harbin.paipu.jsonl"
OWN = {
    Discard: MoveKind.DISCARD,
    ConcealedKong: MoveKind.CONCEALED_KONG,
    AddedKong: MoveKind.ADDED_KONG,
}
CLAIM = {Pong: MoveKind.PONG, Kong: MoveKind.KONG}


def test_every_logged_move_was_listed() -> None:
    variant = get_variant("harbin")
    checked = {"ready_chi": 0, "ready": 0, "ready_discard": 0}
    for number, line in enumerate(DATA.read_text(encoding="utf-8").splitlines()[:30], 1):
        parsed = parse_line(line, str(DATA), number)
        assert isinstance(parsed, Parsed)
        record = parsed.record
        table = variant.new_table(record, variant.resolve_options(record.rules))
        events = record.events
        for index, event in enumerate(events):
            state = table.state
            assert state is not None
            kind = type(event)
            if kind is Ready and table.phase is Phase.CLAIM:
                chi = events[index + 1]
                assert isinstance(chi, Chi) and chi.seat == event.seat
                listed = claims(table, table.last_discard, table.discarder)
                assert any(
                    m.kind is MoveKind.READY_CHI and m.seat == chi.seat and m.tiles == chi.tiles
                    for m in listed
                ), (number, index)
                checked["ready_chi"] += 1
            elif kind is Ready:
                assert state.ready_discards(event.seat), (number, index)
                following = events[index + 1]
                assert isinstance(following, Discard)
                assert following.tile in state.ready_discards(event.seat)
                checked["ready"] += 1
            elif kind in OWN and table.phase is Phase.ACT:
                moves = turn_moves(table, event.seat)
                assert any(m.kind is OWN[kind] and m.tile == event.tile for m in moves), (
                    number,
                    index,
                )
                if kind is Discard and state.ready_pending(event.seat):
                    checked["ready_discard"] += 1
            elif kind in CLAIM:
                listed = claims(table, table.last_discard, table.discarder)
                assert any(m.kind is CLAIM[kind] and m.seat == event.seat for m in listed)
            elif kind is Win and event.from_seat is None:
                moves = turn_moves(table, event.seat)
                assert any(m.kind is MoveKind.SELF_DRAWN_WIN for m in moves), (number, index)
            table.apply(index, event)
    assert min(checked.values()) > 0, checked
