"""哈尔滨麻将 (Harbin): 112 tiles, 听 declared before a win, the hidden 宝, 站立 and 出冲.

Data — tiles, calls, claim priority, payments, options — is in ``harbin.toml``; the
requirements and readings are :mod:`paipu.rules.variants.harbin.fans`, the payments
:mod:`paipu.rules.variants.harbin.settlement`; the rules as implemented are in
``docs/variants/harbin.md``. The table composes two mechanics: the ready declaration
(:mod:`paipu.rules.mechanics.ready`) and the hidden 宝 (:mod:`paipu.rules.mechanics.treasure`).

The seed's worked example: a 卡当 self-draw; b 站立, c and d opened.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "harbin", "seat": 0, "dealer": 0,
...     "hand": "123456p79m55s", "win_tile": "8m",
...     "melds": [{"kind": "pong", "tiles": ["1s", "1s", "1s"], "from": 2}],
...     "extra": {"ready": [0], "concealed_seats": [1], "bao": "4s"}})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(4, ['self_draw', 'ka_dang'], (14, -6, -4, -4))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from paipu.rules.events import Draw, Event, Indicator, Ready
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.ready import ReadyDeclaration
from paipu.rules.mechanics.treasure import HiddenTreasure
from paipu.rules.mechanics.wilds import route_indicator
from paipu.rules.replay import ComputedWin, Handler, Phase, VariantState
from paipu.rules.request_checks import check_extra, check_no_flowers, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.shanten import waits
from paipu.rules.tiles import Tile, TileError, counts, parse_tile, tile_name
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.harbin import fans as harbin_fans
from paipu.rules.variants.harbin.events import Escape
from paipu.rules.variants.harbin.settlement import harbin_deltas

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: 红中, and the tiles of the set: the suits and four 红中.
RED = harbin_fans.RED
SUITED = harbin_fans.SUITED
EXTRA_FACTS = ("ready", "concealed_seats", "bao", "ready_discard")
#: A hand keeps at least this many concealed tiles: no call leaves a single tile (不能单吊).
MAX_MELDS = 3


@register
class Harbin(RegionalVariant):
    """哈尔滨麻将 — 112 tiles, 报听 to win, 宝牌, no 一炮多响."""

    id = "harbin"
    extra_facts = EXTRA_FACTS

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, harbin_fans.REGISTRY, self.id)
        payments = self.spec.raw["payments"]
        self.values: Mapping[str, int] = {k: int(v) for k, v in payments.items()}
        self._fans = {
            fan.id: FanScore(fan.id, fan.name_zh, fan.name_en, fan.points, 1)
            for fan in self.spec.fans.fans
        }

    def wall_tiles(self, options: Options) -> list[Tile]:
        """112 tiles: 万 筒 条 1-9 and 红中, four of each."""
        return [t for t in [*range(SUITED), RED] for _ in range(4)]

    # ------------------------------------------------------------------ scoring

    def check(self, request: ScoreRequest) -> None:
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        for tile in (*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles)):
            if tile >= SUITED and tile != RED:
                raise RequestError(
                    f"{tile_name(tile)} is not a tile of {spec.name_zh}: "
                    "112 tiles, 万 筒 条 and 红中"
                )
        check_no_flowers(request, spec.name_zh)
        check_extra(request, self.id, EXTRA_FACTS)

    def _seats(self, request: ScoreRequest, name: str) -> frozenset[int]:
        raw = request.extra.get(name, [])
        players = self.spec.players
        if not isinstance(raw, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in raw
        ):
            raise RequestError(f"extra {name!r} lists seats 0-{players - 1}, e.g. [1, 3]")
        return frozenset(raw)

    def facts(
        self, request: ScoreRequest
    ) -> tuple[frozenset[int], frozenset[int], Tile | None, bool]:
        """``extra``'s ready seats, 站立 seats, 宝 and ready_discard, checked."""
        ready = self._seats(request, "ready")
        standing = self._seats(request, "concealed_seats")
        if request.seat in standing:
            raise RequestError("extra 'concealed_seats' lists losers only, not the winner")
        if standing & ready:
            raise RequestError(
                "extra 'concealed_seats' and 'ready' overlap: a seat that declared 听 has opened"
            )
        raw = request.extra.get("bao")
        bao: Tile | None = None
        if raw is not None:
            if not isinstance(raw, str):
                raise RequestError("extra 'bao' is a tile such as \"5m\", or null")
            try:
                bao = parse_tile(raw)
            except TileError as exc:
                raise RequestError(f"extra 'bao': {exc}") from None
            if bao >= SUITED and bao != RED:
                raise RequestError(f"extra 'bao': {raw} is not a tile of {self.spec.name_zh}")
        ready_discard = self.flag_fact(request, "ready_discard")
        if ready_discard and (request.from_seat is None or request.flags.robbing_kong):
            raise RequestError("extra 'ready_discard' is about a win on a discard: give 'from'")
        return ready, standing, bao, ready_discard

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        ready, standing, bao, ready_discard = self.facts(request)
        seat = request.seat
        if seat not in ready:
            return ScoreAnswer(legal=False, reason="a win needs 听 declared first (报听)")
        if not harbin_fans.opened(request.melds):
            return ScoreAnswer(
                legal=False,
                reason="a concealed hand cannot win (开门: chi, pong or an exposed kong)",
            )
        hand = counts(request.hand)
        melds = len(request.melds)
        shape_waits = waits(hand, melds)
        if not shape_waits:
            return ScoreAnswer(legal=False, reason="the hand was not ready (不听)")
        flags = request.flags
        win = request.win_tile
        self_drawn = request.self_drawn
        treasure = self_drawn and bao is not None and win == bao
        ka_dang_wait = len(shape_waits) == 1 and harbin_fans.is_ka_dang(hand, melds, shape_waits[0])
        if treasure:
            problem = None
            for wait in shape_waits:
                full = hand.copy()
                full[wait] += 1
                problem = harbin_fans.requirement_problem(full, request.melds)
                if problem is None:
                    break
            if problem is not None:
                return ScoreAnswer(legal=False, reason=problem)
            base = harbin_fans.treasure(ka_dang_wait, shape_waits[0] == win)
        else:
            if win not in shape_waits:
                return ScoreAnswer(
                    legal=False, reason="these tiles do not form a winning hand (四组一对)"
                )
            full = hand.copy()
            full[win] += 1
            problem = harbin_fans.requirement_problem(full, request.melds)
            if problem is not None:
                return ScoreAnswer(legal=False, reason=problem)
            base = harbin_fans.how_won(self_drawn, flags.robbing_kong, flags.kong_replacement)
        ka_dang = ka_dang_wait and (treasure or win == shape_waits[0])
        double = harbin_fans.doubled(ka_dang, base)
        factor = self.values["ka_dang"] if double else 1
        per_loser = self._fans[base].points
        discarder = None if self_drawn or flags.robbing_kong else request.from_seat
        chu_chong = discarder is not None and (discarder not in ready or ready_discard)
        deltas = harbin_deltas(
            self.spec.players,
            seat,
            discarder,
            per_loser,
            standing,
            chu_chong=chu_chong,
            factor=factor,
            standing_floor=self.values["standing"],
            chu_chong_base=self.values["chu_chong"],
        )
        fans = [self._fans[base]]
        if double:
            fans.append(self._fans["ka_dang"])
        extra: dict[str, Any] = {"unit": "番"}
        if chu_chong:
            extra["chu_chong"] = discarder
        if standing:
            extra["standing"] = sorted(standing)
        return ScoreAnswer(
            legal=True, total=per_loser * factor, fans=tuple(fans), deltas=deltas, extra=extra
        )

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> HarbinState:
        return HarbinState(table, self)

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """The waits by shape, and for a ready seat the 宝 too (摸宝 wins on it)."""
        found = super().replay_waits(table, seat)
        state = cast("HarbinState", table.state)
        bao = state.bao.tile
        if found and bao is not None and state.ready.declared[seat] and bao not in found:
            return tuple(sorted((*found, bao)))
        return found

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The dealer stays when he wins or the hand is drawn (连庄); else the winner deals."""
        if not outcome.wins:
            return setup
        return replace(setup, dealer=outcome.wins[0].seat)


class HarbinState(VariantState):
    """Harbin on the table: the ready declarations (听 / 吃听), the 宝 and 换宝, the last four
    tiles dealt in turn (self-draw only), the calls a hand of four tiles may not make, 截胡,
    and the escape penalty."""

    def __init__(self, table: Table, variant: Harbin) -> None:
        super().__init__(table)
        self.variant = variant
        same_waits = table.options["ready_kong"] == "same_waits"
        self.ready = ReadyDeclaration(table, self._ready_condition, same_waits=same_waits)
        self.bao = HiddenTreasure(table)
        self.bao.listeners.append(self._bao_changed)
        self.last_tiles = int(table.options["last_tiles"])
        #: The last tiles are being dealt in turn (最后四张): self-draw wins only.
        self.in_last = False
        self.escaped: int | None = None

    # -- the mechanics' rules

    def _ready_condition(
        self, seat: int, hand: list[int], melds: Any, found: tuple[Tile, ...]
    ) -> str | None:
        if not harbin_fans.opened(melds):
            return "a concealed hand cannot declare 听 (开门 first)"
        problem = None
        for wait in found:
            hand[wait] += 1
            try:
                problem = harbin_fans.requirement_problem(hand, melds)
            finally:
                hand[wait] -= 1
            if problem is None:
                return None
        return problem

    def _bao_changed(self, tile: Tile) -> None:
        table = self.table
        for seat in self.ready.seats():
            table.refresh_waits(seat)

    def handlers(self) -> dict[type[Event], Handler]:
        return {
            Ready: self.ready.declare,
            Indicator: route_indicator(self.table, {"bao": self.bao.turn_up}),
            Escape: self.escape,
        }

    def escape(self, event: Escape) -> None:
        table = self.table
        self.escaped = event.seat
        table.notes.append("escape")
        table.phase = Phase.ENDED

    def before(self, event: Event) -> bool:
        table = self.table
        problem = self.bao.before(event)
        if problem:
            raise table.fail(event, problem)
        event_type = type(event)
        if event_type is Draw and self.bao.tile is None:
            raise table.fail(
                event, "the 宝 is turned up (indicator, role bao) right after the deal"
            )
        if event_type is Ready and self.in_last:
            raise table.fail(event, "最后四张: the last tiles are dealt in turn, no 听 is declared")
        self.ready.before(event)
        return False

    def after(self, event: Event) -> None:
        self.ready.after(event)
        table = self.table
        if (
            type(event) is Draw
            and not self.in_last
            and not table.replacement_from_kong
            and table.wall.left() < self.last_tiles
        ):
            self.in_last = True
            table.notes.append("last_tiles")

    def due_indicator(self) -> str | None:
        bao = self.bao
        if self.table.phase is Phase.ENDED:
            return None
        if bao.tile is None:
            return "bao" if not any(s.draws for s in self.table.seats) else None
        return "bao" if bao.change_due() else None

    def ready_seats(self) -> tuple[int, ...]:
        return self.ready.seats()

    def ready_pending(self, seat: int) -> bool:
        return self.ready.pending == seat

    def ready_discards(self, seat: int) -> tuple[Tile, ...]:
        table = self.table
        if table.phase is not Phase.ACT or table.turn != seat:
            return ()
        ready = self.ready
        if ready.pending == seat:
            return ready.discards(seat)
        if (
            self.in_last
            or ready.declared[seat]
            or ready.pending is not None
            or not harbin_fans.opened(table.seats[seat].melds)  # 开门 first: nothing to ask
        ):
            return ()
        return ready.discards(seat)

    def ready_chi_runs(
        self, seat: int, tile: Tile, runs: list[tuple[Tile, ...]]
    ) -> list[tuple[Tile, ...]]:
        return self.ready.chi_runs(seat, tile, runs)

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        if self.in_last:
            return f"最后四张: the last tiles are dealt in turn, no {kind}"
        if len(self.table.seats[seat].melds) >= MAX_MELDS and kind != "added_kong":
            return (
                f"seat {seat} has {MAX_MELDS} melds: its last four tiles stay in hand "
                "(no 吃碰杠 that would leave a single tile, 不能单吊)"
            )
        return self.ready.move_problem(seat, kind, tile)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        table = self.table
        if self.in_last and table.drawn is not None and tile != table.drawn:
            return (
                f"最后四张: the tile drawn, {tile_name(table.drawn)}, is discarded if it does "
                f"not win, not {tile_name(tile)}"
            )
        return self.ready.discard_problem(seat, tile)

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        if from_seat is None:
            return None
        table = self.table
        if self.in_last and table.phase is not Phase.ROB:
            return "最后四张: only self-drawn wins on the last tiles (their discards are dead)"
        players = table.players
        for k in range(1, players):
            other = (from_seat + k) % players
            if other == seat:
                break
            if tile in table.seats[other].waits and table.would_win(other, tile, from_seat):
                return (
                    f"截胡: seat {other}, nearer the discarder in turn, takes the "
                    f"{tile_name(tile)} (no 一炮多响)"
                )
        return None

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        table = self.table
        ready = self.ready.seats()
        standing = [
            other
            for other, s in enumerate(table.seats)
            if other != seat and s.exposed == 0 and other not in ready
        ]
        bao = self.bao.tile
        ready_discard = (
            from_seat is not None
            and table.phase is Phase.CLAIM
            and self.ready.declaring_discard == from_seat
        )
        extra: dict[str, Any] = {
            "ready": list(ready),
            "concealed_seats": standing,
            "bao": None if bao is None else tile_name(bao),
        }
        if ready_discard:
            extra["ready_discard"] = True
        return flags, extra

    def after_win(self, win: ComputedWin) -> None:
        notes = self.table.notes
        if "chu_chong" in win.detail:
            notes.append("chu_chong")
        if win.detail.get("standing"):
            notes.append("standing")

    def tiles_off_seats(self) -> list[Tile]:
        return self.bao.tiles_off_seats()

    def penalties(self) -> list[tuple[int, int]]:
        if self.escaped is None:
            return []
        return [(self.escaped, self.variant.values["escape"])]
