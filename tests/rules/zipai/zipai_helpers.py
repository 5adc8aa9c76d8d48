"""Helpers for the zipai tests: score requests, crafted deals and replays (imported by
the test modules beside it)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from paipu.rules.events import decode
from paipu.rules.record import HandRecord
from paipu.rules.replay import HandOutcome
from paipu.rules.tiles import tile_names
from paipu.rules.variants.zipai_chenzhou.cards import ALL_CARDS, COPIES, parse_cards

VARIANT = "zipai_chenzhou"


def request(hand: str, win: str, melds: list[tuple[str, str]] = (), **fields: Any) -> dict:
    """A zipai score request: seat 0 wins (dealer 0) unless the fields say otherwise."""
    return {
        "variant": VARIANT,
        "seat": 0,
        "dealer": 0,
        "hand": hand,
        "win_tile": win,
        "melds": [{"kind": kind, "tiles": tiles} for kind, tiles in melds],
        **fields,
    }


def build_deal(
    hands: dict[int, str], head: str, players: int = 3, size: int = 20
) -> tuple[list[list[str]], list[str]]:
    """Each seat's dealt cards and the wall. Seats in ``hands`` get exactly those cards; the
    others are filled from what is left, spreading the copies of a kind over the seats; the
    wall starts with ``head`` (the dealer's 21st card first), the rest follows."""
    pool = Counter(dict.fromkeys(ALL_CARDS, COPIES))
    deal: dict[int, list[int]] = {}
    for seat, spec in hands.items():
        cards = parse_cards(spec)
        assert len(cards) == size, f"seat {seat} gets {len(cards)} cards"
        deal[seat] = cards
        pool.subtract(cards)
    head_cards = parse_cards(head)
    pool.subtract(head_cards)
    assert min(pool.values()) >= 0, "more than 4 copies of a card"
    order = [c for copy in range(COPIES) for c in ALL_CARDS if pool[c] > copy]
    targets = [s for s in range(players) if s not in deal]
    for seat in targets:
        deal[seat] = []
    rest = []
    for card in order:
        open_seats = [s for s in targets if len(deal[s]) < size]
        if not open_seats:
            rest.append(card)
            continue
        seat = min(open_seats, key=lambda s: (deal[s].count(card), len(deal[s]), s))
        deal[seat].append(card)
    return (
        [tile_names(sorted(deal[s])) for s in range(players)],
        tile_names(head_cards + rest),
    )


def record(
    hands: dict[int, str],
    head: str,
    events: list[list[Any]],
    *,
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    players: int = 3,
    size: int = 20,
) -> HandRecord:
    deal, wall = build_deal(hands, head, players, size)
    obj = {
        "paipu": 1,
        "variant": VARIANT,
        "game": "test",
        "hand": 0,
        "players": [f"p{i}" for i in range(players)],
        "dealer": dealer,
        "deal": deal,
        "wall": wall,
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


def play(hands: dict[int, str], head: str, events: list[list[Any]], **kwargs: Any) -> HandOutcome:
    """Replay a crafted hand to its end, checking the table's invariants after each event."""
    return replay_checked(record(hands, head, events, **kwargs))


def replay_checked(rec: HandRecord) -> HandOutcome:
    """:func:`~paipu.rules.replay.replay` with ``check_invariants`` after every event."""
    from paipu.rules.replay import outcome_of
    from paipu.rules.variants import get_variant

    variant = get_variant(rec.variant)
    table = variant.new_table(rec, variant.resolve_options(rec.rules))
    for i, event in enumerate(rec.events):
        table.apply(i, event)
        table.check_invariants()
    return outcome_of(table, rec)


def apply_all(hands: dict[int, str], head: str, events: list[list[Any]], **kwargs: Any):
    """Apply the events to a table without finishing the hand; return the table."""
    from paipu.rules.variants import get_variant

    rec = record(hands, head, events, **kwargs)
    variant = get_variant(VARIANT)
    table = variant.new_table(rec, variant.resolve_options(rec.rules))
    for i, array in enumerate(events):
        table.apply(i, decode(array))
        table.check_invariants()
    return table


# The base deal of the table tests (see test_zipai_table.py for what each seat holds).
S0 = "1235678900x 1234567890d"  # 一二三五六七八九十十 壹贰叁肆伍陆柒捌玖拾
S1 = "1112355678x 1134568890d"  # 一一一(坎) 二三 五五 六七八 壹壹 叁肆伍陆 捌捌 玖拾
S2 = "23444677890x 223456779d"  # 二三 四四四(坎) 六 七七 八九十 贰贰 叁肆伍陆 柒柒 玖
BASE = {0: S0, 1: S1, 2: S2}
