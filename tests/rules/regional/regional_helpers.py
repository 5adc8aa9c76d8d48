"""Helpers for the regional tests (长沙, 转转, 四川): score requests, hand-written records,
and scripted hands played through the self-play engine with a stacked wall.

A *scripted hand* is dealt the hands a test names; each seat's draws come first from its
queue (the tiles a test names, in order), the other draws from the rest of the set,
shuffled by a fixed seed, never taking a tile a queue still needs; ``tail`` tiles end the
wall (replacement draws and Changsha's 开杠 take them first). The seats are
:class:`Scripted` players: they do what the test says and otherwise discard their void
suit first, then the tile they drew. The hand is replayed at the end with its final wall
and with the invariants checked after every event.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from paipu.rules.events import decode
from paipu.rules.legal import Move, MoveKind
from paipu.rules.record import HandRecord
from paipu.rules.replay import HandOutcome, replay
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.tiles import Tile, parse_tile, parse_tiles, standard_set, tile_names
from paipu.rules.variants import get_variant
from paipu.selfplay.loop import (
    Deal,
    Player,
    SeatView,
    SelfPlayHand,
    TurnMoves,
    _draw_position,
    _undrawn,
)

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


def t(name: str) -> Tile:
    return parse_tile(name)


def request(variant: str, hand: str, win: str, **fields: Any) -> dict[str, Any]:
    """A score request: seat 0 wins, seat 0 deals, unless the fields say otherwise."""
    melds = fields.pop("melds", [])
    return {
        "variant": variant,
        "seat": 0,
        "dealer": 0,
        "hand": hand,
        "win_tile": win,
        "melds": [
            {"kind": kind, "tiles": tiles, **({"from": frm} if frm is not None else {})}
            for kind, tiles, frm in melds
        ],
        **fields,
    }


def deal_rest(hands: dict[int, str], seed: int = 1) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands for every seat (those not named are filled at random) and the rest, shuffled."""
    pool = standard_set(honors=False)
    fixed = {seat: parse_tiles(spec) for seat, spec in hands.items()}
    for tiles in fixed.values():
        assert len(tiles) == 13
        for tile in tiles:
            pool.remove(tile)
    rng = random.Random(seed)
    rng.shuffle(pool)
    out = []
    for seat in range(4):
        if seat in fixed:
            out.append(fixed[seat])
        else:
            out.append([pool.pop() for _ in range(13)])
    return out, pool


def record(
    variant: str,
    hands: dict[int, str],
    events: list[list[Any]],
    *,
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
) -> HandRecord:
    """A hand-written record without a wall (the replay counts the wall's tiles)."""
    deal, _ = deal_rest(hands, seed)
    obj = {
        "paipu": 1,
        "variant": variant,
        "game": "test",
        "hand": 0,
        "players": PLAYERS,
        "dealer": dealer,
        "deal": [tile_names(sorted(h)) for h in deal],
        "events": events,
    }
    if rules:
        obj["rules"] = rules
    return HandRecord.from_json(obj)


def apply_all(rec: HandRecord) -> Any:
    """The replay table after every event of ``rec`` (no ending needed), invariants checked."""
    variant = get_variant(rec.variant)
    table = variant.new_table(rec, variant.resolve_options(rec.rules))
    for index, event in enumerate(rec.events):
        table.apply(index, event)
        table.check_invariants()
    return table


def ev(*arrays: list[Any]) -> list[Any]:
    for array in arrays:
        decode(array)  # fail early on a malformed event
    return list(arrays)


# ---------------------------------------------------------------------- scripted hands


class Scripted(Player):
    """A player that does what it is told.

    ``wins``: tiles it wins on (None: any legal win; by self-draw only with
    ``self_draw_only``); ``kongs`` / ``pongs`` / ``chis``: tiles it declares or claims;
    ``discards``: tiles to discard first, in order (else: its void suit, then the tile
    drawn, then its highest tile); ``reveal`` / ``haidi``: Changsha's 开杠 and 要海底.
    """

    def __init__(
        self,
        void: str | None = None,
        wins: Iterable[str] | None = (),
        *,
        self_draw_only: bool = False,
        kongs: Iterable[str] = (),
        pongs: Iterable[str] = (),
        chis: Iterable[str] = (),
        discards: Iterable[str] = (),
        reveal: bool = False,
        haidi: bool = False,
    ) -> None:
        self.void = void
        self.wins = None if wins is None else {t(x) for x in wins}
        self.self_draw_only = self_draw_only
        self.kongs = {t(x) for x in kongs}
        self.pongs = {t(x) for x in pongs}
        self.chis = [tuple(parse_tiles(x)) for x in chis]
        self.discards = [t(x) for x in discards]
        self.reveals = reveal
        self.haidi = haidi

    def _wants(self, tile: Tile) -> bool:
        return self.wins is None or tile in self.wins

    def void_suit(self, view: SeatView) -> str:
        assert self.void is not None
        return self.void

    def reveal(self, view: SeatView) -> bool:
        return self.reveals

    def take_haidi(self, view: SeatView) -> bool:
        return self.haidi

    def turn(self, view: SeatView, turn: TurnMoves) -> Move:
        moves = turn.listed()

        def listed(kind: MoveKind, tile: Tile) -> Move | None:
            return next((m for m in moves if m.kind is kind and m.tile == tile), None)

        drawn = view.drawn
        if drawn is not None and self._wants(drawn):
            win = listed(MoveKind.SELF_DRAWN_WIN, drawn)
            if win is not None:
                return win
        hand = view.hand()
        if drawn is not None:
            for tile in sorted(self.kongs):
                kong = listed(MoveKind.CONCEALED_KONG, tile) or listed(MoveKind.ADDED_KONG, tile)
                if kong is not None:
                    self.kongs.discard(tile)
                    return kong
        discards = [m for m in moves if m.kind is MoveKind.DISCARD]
        while self.discards:
            move = listed(MoveKind.DISCARD, self.discards.pop(0))
            if move is not None:
                return move
        base = "mps".index(self.void) * 9 if self.void else 0
        voids = [x for x in range(base, base + 9) if hand[x]] if self.void else []
        if voids and drawn not in voids:
            return listed(MoveKind.DISCARD, voids[0]) or discards[0]
        if drawn is not None:
            return listed(MoveKind.DISCARD, drawn) or discards[0]
        return discards[-1]

    def claim(
        self, view: SeatView, tile: Tile, from_seat: int, options: Sequence[Move]
    ) -> Move | None:
        for option in options:
            if option.kind is MoveKind.WIN:
                return option if self._wants(tile) and not self.self_draw_only else None
            if option.kind is MoveKind.KONG and tile in self.kongs:
                self.kongs.discard(tile)
                return option
            if option.kind is MoveKind.PONG and tile in self.pongs:
                self.pongs.discard(tile)
                return option
            if option.kind is MoveKind.CHI and option.tiles in self.chis:
                self.chis.remove(option.tiles)
                return option
        return None


class StackedPlay(SelfPlayHand):
    """A regional hand whose seats draw their queued tiles first."""

    queues: dict[int, list[Tile]]
    protected: int = 0  # the wall's last tiles stay where the test put them

    def draw(self, seat: int) -> None:
        table = self.table
        replacement = table.phase.value in ("replace", "rob")
        position = _draw_position(table.wall, seat, replacement)
        if position is not None:
            reserved = Counter(x for q in self.queues.values() for x in q)
            queue = self.queues.get(seat)
            want = queue.pop(0) if queue else None
            wall = self.wall
            if want is not None and wall[position] != want:
                j = next(j for j in self._free() if j != position and wall[j] == want)
                wall[position], wall[j] = wall[j], wall[position]
            elif want is None:
                left = Counter(wall[j] for j in _undrawn(table.wall))
                if left[wall[position]] <= reserved[wall[position]]:  # a queue needs it
                    j = next(
                        j
                        for j in self._free()
                        if j != position and left[wall[j]] > reserved[wall[j]]
                    )
                    wall[position], wall[j] = wall[j], wall[position]
        super().draw(seat)

    def _free(self) -> list[int]:
        end = len(self.wall) - self.protected
        return [j for j in _undrawn(self.table.wall) if j < end]


def scripted_hand(
    variant: str,
    hands: dict[int, str],
    players: Sequence[Scripted],
    draws: dict[int, str] | None = None,
    *,
    tail: str = "",
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
) -> HandOutcome:
    """Play a scripted hand; return its outcome, replayed with every invariant checked."""
    v = get_variant(variant)
    options = v.resolve_options(rules or {})
    deal, rest = deal_rest(hands, seed)
    end = parse_tiles(tail)
    for tile in end:
        rest.remove(tile)
    rest += reversed(end)  # replacement draws and 开杠 take the wall's end first
    setup = HandSetup(
        variant=variant,
        game="scripted",
        hand=0,
        players=tuple(PLAYERS),
        styles=(Style.BALANCED,) * 4,
        dealer=dealer,
        rules=dict(rules or {}),
    )
    stacked = Deal(tuple(tuple(h) for h in deal), tuple(rest), stacked_seat=dealer)
    hand = StackedPlay(v, options, setup, stacked, list(players))
    hand.queues = {seat: parse_tiles(spec) for seat, spec in (draws or {}).items()}
    hand.pending = []
    hand.protected = len(end)
    outcome = hand.play()
    checked = replay(outcome.record, check=True)
    assert checked.deltas == outcome.deltas
    assert sum(checked.deltas) == 0
    return checked


def kinds(outcome: HandOutcome) -> list[str]:
    return [type(e).kind for e in outcome.record.events]


# ---------------------------------------------------------------------- the 漏胡 deal

#: A deal of the three regional variants' tests: South (seat 1) is ready on 4筒, and in
#: :data:`PASSED_WIN_ROUND` lets North's 4筒 pass (漏胡). Zhuanzhuan's, Changsha's and the
#: legal-move tests play on from here.
PASSED_WIN_HANDS = {
    0: "135m79m19p2468s99s",
    1: "123s456s789s22p35p",  # ready on 4p
    2: "2468m3678p1135s7s",
    3: "234m66m88m44p6789p",
}
PASSED_WIN_ROUND = [
    ["draw", 0, "5p"],
    ["discard", 0, "5p"],
    ["draw", 1, "9m"],
    ["discard", 1, "9m"],
    ["draw", 2, "9p"],
    ["discard", 2, "9p"],
    ["draw", 3, "1m"],
    ["discard", 3, "4p"],  # South could win (4p), and lets it pass
]
#: North pongs East's 4筒, then adds the fourth (补杠) in :data:`ADDED_KONG_ROUND`.
PONG_OF_4P = [["draw", 0, "4p"], ["discard", 0, "4p"], ["pong", 3, "4p"], ["discard", 3, "6p"]]
ADDED_KONG_ROUND = [
    ["draw", 0, "1m"],
    ["discard", 0, "1m"],
    ["draw", 1, "9m"],
    ["discard", 1, "9m"],
    ["draw", 2, "9p"],
    ["discard", 2, "9p"],
    ["draw", 3, "4p"],
    ["added_kong", 3, "4p"],
]
