"""转转麻将 (Zhuanzhuan): scoring, birds counted from the dealer, 漏胡, kong money, self-play.

Data — tiles, calls, payments, kong money, options — is in ``zhuanzhuan.toml``; the hand
types are :mod:`paipu.rules.variants.zhuanzhuan.fans`; the rules as implemented are in
``docs/regional.md``.

The digest's worked example (4 birds, ×(1 + hits)): West self-draws; birds 9条 (East), 3万
(West), 6筒 (South), 7万 (West): East and South pay 2 × 4, North 2 × 3.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "zhuanzhuan", "rules": {"birds": 4}, "seat": 2,
...     "dealer": 0, "hand": "123m456m789m11p45p", "win_tile": "6p",
...     "extra": {"birds": ["9s", "3m", "6p", "7m"]}})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(2, ['ping_hu', 'self_draw'], (-8, -8, 22, -6))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Draw, Event
from paipu.rules.fans import check_coverage
from paipu.rules.fans.regional import RegionalHand
from paipu.rules.mechanics.birds import BirdMode
from paipu.rules.mechanics.haidi import Haidi
from paipu.rules.mechanics.kong_money import KongMoney, with_bonus
from paipu.rules.replay import Phase
from paipu.rules.score import FanScore, ScoreAnswer, ScoreRequest
from paipu.rules.tiles import Tile, tile_name, tile_names
from paipu.rules.variants import HunanState, HunanVariant, Options, register
from paipu.rules.variants.zhuanzhuan import fans as zhuanzhuan_fans
from paipu.rules.variants.zhuanzhuan.settlement import zhuanzhuan_win_deltas

if TYPE_CHECKING:
    from paipu.rules.melds import MeldKind
    from paipu.rules.replay import ComputedWin, Table


@register
class Zhuanzhuan(HunanVariant):
    """转转麻将 — no chi, any pair, every win the same, birds from the dealer."""

    id = "zhuanzhuan"
    extra_facts = ("birds",)

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, zhuanzhuan_fans.REGISTRY, self.id)
        self.self_draw_units = int(self.spec.raw["payments"]["self_draw"])
        self.kong_amounts: Mapping[str, int] = {
            k: int(v) for k, v in self.spec.raw["kong_payments"].items()
        }

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        birds = self.birds_of(request)
        flags = request.flags
        robbing = flags.robbing_kong
        if robbing and not options["rob_kong"]:
            return ScoreAnswer(legal=False, reason="this room plays without 抢杠胡 (rob_kong)")
        if options["self_draw_only"] and request.from_seat is not None and not robbing:
            return ScoreAnswer(legal=False, reason="只能自摸: this room wins by self-draw only")
        hand = RegionalHand.of(request.hand, request.melds, request.win_tile)
        fans = zhuanzhuan_fans.evaluate(
            hand,
            seven_pairs=bool(options["seven_pairs"]),
            self_drawn=request.self_drawn,
            robbing_kong=robbing,
            last_tile=flags.last_tile and request.self_drawn,
        )
        if fans is None:
            shapes = "4 sets and any pair" + (", or seven pairs" if options["seven_pairs"] else "")
            return ScoreAnswer(
                legal=False, reason=f"these tiles do not form a winning hand ({shapes})"
            )
        total = self.per_payer(request.from_seat, robbing, options)
        deltas = self.deltas(
            request.seat, request.from_seat, request.dealer, robbing, birds, options
        )
        extra: dict[str, Any] = {"unit": "R"}
        if birds:
            extra["birds"] = tile_names(birds)
        return ScoreAnswer(
            legal=True,
            total=total,
            fans=tuple(self._fan(f) for f, _ in fans),
            deltas=deltas,
            extra=extra,
        )

    def _fan(self, fan_id: str) -> FanScore:
        fan = self.spec.fans.by_id[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, fan.points, 1)

    def per_payer(self, from_seat: int | None, robbing: bool, options: Options) -> int:
        """A win's price per payer before birds: 2 R on a self-draw (a robbed kong counts as
        one), ``dianpao_units`` on a discard."""
        return (
            self.self_draw_units if from_seat is None or robbing else int(options["dianpao_units"])
        )

    def deltas(
        self,
        seat: int,
        from_seat: int | None,
        dealer: int,
        robbing: bool,
        birds: tuple[Tile, ...],
        options: Options,
    ) -> tuple[int, ...]:
        konger_pays = robbing and options["rob_payer"] == "konger"
        return zhuanzhuan_win_deltas(
            self.spec.players,
            seat,
            None if robbing and not konger_pays else from_seat,
            dealer,
            robbed=konger_pays,
            self_draw_units=self.self_draw_units,
            discard_units=int(options["dianpao_units"]),
            birds=birds,
            bird_mode=BirdMode(options["bird_mode"]),
            piao=int(options["zuo_piao"]),
            bird_origin=None if options["bird_origin"] == "dealer" else seat,
        )

    def win_deltas_of(
        self, table: Table, win: ComputedWin, birds: tuple[Tile, ...]
    ) -> tuple[int, ...]:
        return self.deltas(
            win.seat,
            win.from_seat,
            table.record.dealer,
            win.source == "robbing_kong",
            birds,
            table.options,
        )

    # ------------------------------------------------------------------ replay

    def haidi_choice(self, options: Options) -> bool:
        return options["haidi"] == "choose"

    def new_state(self, table: Table) -> ZhuanzhuanState:
        return ZhuanzhuanState(table, self)


class ZhuanzhuanState(HunanState):
    """Zhuanzhuan on the table: the Hunan birds and 漏胡 lock, kong money (杠钱), 补杠
    only on the draw of the fourth tile where the room says so (过时不候), and 要海底 (the
    last tile offered in turn, ``haidi = "choose"``; the taker need not discard it)."""

    def __init__(self, table: Table, variant: Zhuanzhuan) -> None:
        super().__init__(table, variant)
        options = table.options
        #: 坐飘 on every payment (piao_on = every_payment): both seats' 飘 on each kong's money.
        self.piao = int(options["zuo_piao"]) if options["piao_on"] == "every_payment" else 0
        self.kong_money = KongMoney(table, with_bonus(variant.kong_amounts, 2 * self.piao))
        self.strict_kongs = bool(table.options["strict_kongs"])
        self.haidi = Haidi(table, choose=variant.haidi_choice(options))

    def before(self, event: Event) -> bool:
        if self.table.phase is not Phase.ENDED:
            self.haidi.before(event)
            if self.haidi.taker is not None:
                self.table.notes.append("haidi:taken")
        return super().before(event)

    def after(self, event: Event) -> None:
        if type(event) is Draw:
            self.haidi.after(event)
        super().after(event)

    def next_seat(self, after: int | None) -> int | None:
        return self.haidi.next_seat()

    def exhausted(self) -> bool | None:
        declined = self.haidi.exhausted()
        notes = self.table.notes
        if declined and "haidi:declined" not in notes:
            notes.append("haidi:declined")
        return declined

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        if self.strict_kongs and kind == "added_kong" and tile != self.table.drawn:
            return (
                f"a 补杠 is declared on the draw of the fourth tile (过时不候): seat {seat} "
                f"did not just draw {tile_name(tile)}"
            )
        return None

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        self.kong_money.add(seat, kind, from_seat)
        if self.piao:
            self.table.notes.append("zuo_piao:kong")

    def payments(self) -> list[tuple[int, int, int]]:
        return super().payments() + self.kong_money.transfers()
