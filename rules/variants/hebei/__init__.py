"""河北麻将 (Hebei): the QQ game's basics, the named fans with provisional values, 带混儿.

Data — tiles, calls, the wilds, the options and their provisional values — is in
``hebei.toml``; the fans are :mod:`paipu.rules.variants.hebei.fans`; the rules as
implemented, and which values are in no source, are in ``docs/variants/hebei.md``.

The digest's provisional worked example: South self-draws 门清 捉五魁: 1 × 2 × 2 = 4 from
each other seat.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "hebei", "seat": 1, "dealer": 0,
...     "hand": "46m123p789p111s99s", "win_tile": "5m"})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(4, ['ping_hu', 'men_qing', 'zhuo_wu_kui', 'self_draw'], (-4, 12, -4, -4))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paipu.rules.core.wild import WildError, WildSpec
from paipu.rules.events import Event, Indicator, Ready
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.kong_money import KongMoney
from paipu.rules.mechanics.ready import ReadyDeclaration
from paipu.rules.mechanics.wilds import (
    ROLE,
    Wilds,
    kinds_of_extra,
    route_indicator,
    spec_of_kinds,
    tile_set_of,
    wild_rule,
)
from paipu.rules.melds import MeldKind
from paipu.rules.registry import VariantError
from paipu.rules.replay import Handler, Phase, VariantState
from paipu.rules.request_checks import check_extra, check_no_flowers, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import Tile, counts, standard_set, tile_name
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.hebei import fans as hebei_fans
from paipu.rules.variants.hebei.settlement import hebei_win_deltas

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: The fans whose multiplier is a room option of the same name.
VALUED = ("men_qing", "bian_ka_diao", "zhuo_wu_kui", "su_hu", "hun_diao")
HONORS_FROM = 27


@register
class Hebei(RegionalVariant):
    """河北麻将 — no chi by default, optional 听, 门清 边卡吊 捉五魁 素胡 混儿吊, 带混儿."""

    id = "hebei"
    extra_facts = ("wild",)

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, hebei_fans.REGISTRY, self.id)
        self.kong_amounts = {k: int(v) for k, v in self.spec.raw["kong_payments"].items()}

    def values(self, options: Options) -> dict[str, int]:
        """Each fan's multiplier in this room (平胡 and 七对 are 1)."""
        out = {"ping_hu": 1, "seven_pairs": 1}
        for name in VALUED:
            value = int(options[name])
            if value < 1:
                raise VariantError(f"option {name!r} is a multiplier ≥ 1, not {value}")
            out[name] = value
        return out

    def wall_tiles(self, options: Options) -> list[Tile]:
        return standard_set(honors=bool(options["honors"]), flowers=False)

    def check(self, request: ScoreRequest) -> None:
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        check_extra(request, self.id, self.extra_facts)
        check_no_flowers(request, spec.name_zh)

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        tiles = (*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles))
        if not options["honors"] and any(t >= HONORS_FROM for t in tiles):
            bad = next(t for t in tiles if t >= HONORS_FROM)
            raise RequestError(f"{tile_name(bad)}: this room plays without honours (honors)")
        if any(m.kind is MeldKind.CHI for m in request.melds) and not options["chi"]:
            raise RequestError("this room plays without 吃 (option chi)")
        rule = wild_rule(self, options)
        tile_set = tile_set_of(self)
        try:
            wilds = spec_of_kinds(rule, kinds_of_extra(request.extra), tile_set)
        except WildError as exc:
            raise RequestError(f"extra 'wild': {exc}") from None
        if request.from_seat is not None and not options["dianpao_hu"]:
            return ScoreAnswer(
                legal=False, reason="this room wins by self-draw only (点炮可胡 off)"
            )
        hand = hebei_fans.Hand(
            counts([*request.hand, request.win_tile]),
            request.melds,
            request.win_tile,
            wilds if wilds is not None else WildSpec.none(tile_set),
            rule is not None,
        )
        values = self.values(options)
        found = hand.best(values, seven_pairs=bool(options["seven_pairs"]))
        if found is None:
            shapes = "4 sets and a pair" + (" or seven pairs" if options["seven_pairs"] else "")
            return ScoreAnswer(
                legal=False, reason=f"these tiles do not form a winning hand ({shapes})"
            )
        total, names = found
        fans = [self._fan(n, values[n]) for n in names]
        if request.self_drawn:
            fans.append(self._fan("self_draw", 0))
        deltas = hebei_win_deltas(
            self.spec.players,
            request.seat,
            request.from_seat,
            total,
            dealer=request.dealer,
            dianpao=str(options["dianpao"]),
            zhuang_xian=bool(options["zhuang_xian"]),
        )
        extra: dict[str, Any] = {"unit": "底"}
        if wilds is not None:
            extra["wild"] = [tile_name(t) for t in sorted(wilds.tiles)]
        return ScoreAnswer(legal=True, total=total, fans=tuple(fans), deltas=deltas, extra=extra)

    def _fan(self, fan_id: str, points: int) -> FanScore:
        fan = self.spec.fans.by_id[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, points, 1)

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> HebeiState:
        return HebeiState(table, self)

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The dealer stays when it wins or the hand is drawn; when another seat wins the
        dealer's next seat (下家) deals (seed)."""
        dealer = setup.dealer
        if outcome.wins and outcome.wins[0].seat != dealer:
            dealer = (dealer + 1) % len(setup.players)
        return replace(setup, dealer=dealer)


class HebeiState(VariantState):
    """Hebei on the table: 带混儿 (the wild indicator), 吃 only where the room allows it,
    the optional 听 (:class:`~paipu.rules.mechanics.ready.ReadyDeclaration`: after it the
    hand changes only by kongs that keep it ready; it adds nothing to the win), kong money
    where the room plays it (void on a drawn hand with 黄庄黄杠)."""

    def __init__(self, table: Table, variant: Hebei) -> None:
        super().__init__(table)
        options = table.options
        self.wilds = Wilds(table, wild_rule(variant, options))
        self.chi = bool(options["chi"])
        self.ready = ReadyDeclaration(table) if options["ting"] else None
        self.kong_money = KongMoney(table, variant.kong_amounts) if options["kong_money"] else None
        self.void_on_draw = bool(options["huang_zhuang_huang_gang"])

    def handlers(self) -> dict[type[Event], Handler]:
        return {
            Indicator: route_indicator(self.table, {ROLE: self.wilds.reveal}),
            Ready: self.declare,
        }

    def declare(self, event: Ready) -> None:
        """The ``ready`` event: 听 where the room plays it (option ``ting``)."""
        if self.ready is None:
            raise self.table.fail(event, "this room plays without 听 (option ting)")
        self.ready.declare(event)

    def before(self, event: Event) -> bool:
        self.wilds.before(event)
        if self.ready is not None:
            self.ready.before(event)
        return False

    def after(self, event: Event) -> None:
        if self.ready is not None:
            self.ready.after(event)

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        if kind == "chi" and not self.chi:
            return "this room plays without 吃 (不能吃牌; option chi)"
        return None if self.ready is None else self.ready.move_problem(seat, kind, tile)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        return None if self.ready is None else self.ready.discard_problem(seat, tile)

    # -- the ready declaration, as the legal moves and self-play ask it

    def ready_seats(self) -> tuple[int, ...]:
        return () if self.ready is None else self.ready.seats()

    def ready_pending(self, seat: int) -> bool:
        return self.ready is not None and self.ready.pending == seat

    def ready_discards(self, seat: int) -> tuple[Tile, ...]:
        ready = self.ready
        table = self.table
        if ready is None or table.phase is not Phase.ACT or table.turn != seat:
            return ()
        if ready.pending != seat and not ready.may_declare(seat):
            return ()
        return ready.discards(seat)

    def ready_chi_runs(
        self, seat: int, tile: Tile, runs: list[tuple[Tile, ...]]
    ) -> list[tuple[Tile, ...]]:
        if self.ready is None or not self.chi:
            return []
        return self.ready.chi_runs(seat, tile, runs)

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        return flags, self.wilds.extra()

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        if self.kong_money is not None:
            self.kong_money.add(seat, kind, from_seat)

    def payments(self) -> list[tuple[int, int, int]]:
        money = self.kong_money
        if money is None:
            return []
        if not self.table.wins and self.void_on_draw:
            if money.kongs:
                self.table.notes.append("huang_zhuang_huang_gang")
            return []
        return money.transfers()
