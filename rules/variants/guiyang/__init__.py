"""贵阳捉鸡麻将 (Guiyang): scoring, 豆 paid as they stand, 热炮 and 抢杠, the 鸡 layer, 查叫.

Data — tiles, calls, the two value profiles, 豆 amounts, 鸡 values, options — is in
``guiyang.toml``; the hand types are :mod:`paipu.rules.variants.guiyang.fans`; the rules as
implemented are in ``docs/variants/guiyang.md``.

The digest's worked example (seed profile): South self-draws a 大对子; each other seat pays
30 for the hand (South's 闷豆 is kong money, paid when it stood, not part of this answer).

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "guiyang", "seat": 1, "dealer": 0,
...     "hand": "111m444p77s99m", "melds": [{"kind": "concealed_kong", "tiles": "2222s"}],
...     "win_tile": "7s"})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(30, ['all_pungs', 'self_draw'], (-30, 90, -30, -30))

On West's discard right after West's 转弯豆 (热炮), West also pays its whole value, 30:

>>> answer = score_json({"variant": "guiyang", "seat": 1, "dealer": 0, "from": 2,
...     "hand": "111m444p77s99m", "melds": [{"kind": "concealed_kong", "tiles": "2222s"}],
...     "win_tile": "7s", "extra": {"hot_dou": "added_kong"}})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(30, ['all_pungs', 'hot_discard'], (0, 60, -60, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Discard, Event, Kong, Pong
from paipu.rules.fans import check_coverage
from paipu.rules.fans.regional import RegionalHand
from paipu.rules.mechanics.first_turn import first_turn_facts
from paipu.rules.mechanics.kong_money import KongMoney
from paipu.rules.mechanics.turn_up import TurnedTile, TurnUp, next_rank
from paipu.rules.melds import MeldKind
from paipu.rules.replay import ComputedWin, Handler, Phase, VariantState
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import Tile, tile_name
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.guiyang import fans as guiyang_fans
from paipu.rules.variants.guiyang.settlement import (
    cha_jiao_payments,
    chicken_payments,
    dou_value,
    guiyang_win_deltas,
)

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: 幺鸡: 1条, a 鸡 in every hand.
YAO_JI: Tile = 18
DOU_KINDS = ("concealed_kong", "added_kong", "kong")
DOU_ZH = {"concealed_kong": "闷豆", "added_kong": "转弯豆", "kong": "点豆"}
#: Prepared deals for ``paipu simulate --scenario guiyang-rare``: the rare hand types, each
#: dealt to the dealer, who may win them on the first draw (天胡 in the app profile).
SCENARIO_SETS = {
    "guiyang-rare": {
        "pure_dragon_seven_pairs": ("1111m22m33m55m77m9m", "9m"),
        "pure_seven_pairs": ("1122335577889m", "9m"),
        "pure_pungs": ("111m222m333m555m9m", "9m"),
        "heavenly": ("123m456p789s11s45s", "6s"),
    },
}
#: The options that may say "by_profile", and the profile settings they then take.
BY_PROFILE = ("chickens", "dou_needs_ready", "hot_burn", "dou_on_draw")


@register
class Guiyang(RegionalVariant):
    """贵阳捉鸡 — no chi, 豆 money, the best hand type, 热炮 / 抢杠, the 鸡 layer."""

    id = "guiyang"
    scenario_sets = SCENARIO_SETS
    extra_facts = ("hot_dou", "heavenly", "earthly")

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, guiyang_fans.REGISTRY, self.id)
        raw = self.spec.raw
        self.values: dict[str, dict[str, int]] = {
            p: {k: int(v) for k, v in table.items()} for p, table in raw["values"].items()
        }
        self.dou: dict[str, dict[str, int]] = {
            p: {k: int(v) for k, v in table.items()} for p, table in raw["dou"].items()
        }
        self.profiles: dict[str, dict[str, Any]] = dict(raw["profiles"])
        self.chicken_values = {k: int(v) for k, v in raw["chicken_values"].items()}
        profiles = set(self.spec.options["profile"].choices or ())
        for name in ("values", "dou", "profiles"):
            if set(raw[name]) != profiles:
                raise ValueError(f"guiyang.toml: [{name}.*] must name the profiles {profiles}")
        unknown = {f for v in self.values.values() for f in v} - set(self.spec.fans.by_id)
        if unknown:
            raise ValueError(f"guiyang.toml: [values] name unknown fans {sorted(unknown)}")

    def setting(self, options: Options, name: str) -> Any:
        """An option's value, or the profile's where the option says ``by_profile``."""
        value = options[name]
        if value != "by_profile":
            return value
        own = self.profiles[options["profile"]][name]
        return ("on" if own else "off") if isinstance(own, bool) else own

    def chickens_on(self, options: Options) -> bool:
        return bool(self.setting(options, "chickens") == "on")

    def unit(self, options: Options) -> int:
        return int(self.profiles[options["profile"]]["unit"])

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        profile = options["profile"]
        values = self.values[profile]
        flags = request.flags
        robbing = flags.robbing_kong
        hot = _hot_dou(request)
        situation = guiyang_fans.Situation(
            self_drawn=request.self_drawn,
            kong_bloom=flags.kong_replacement and request.self_drawn,
            robbing_kong=robbing,
            hot_discard=hot is not None,
            heavenly=self.flag_fact(request, "heavenly"),
            earthly=self.flag_fact(request, "earthly"),
        )
        hand = RegionalHand.of(request.hand, request.melds, request.win_tile)
        found = guiyang_fans.best(hand, situation, values)
        if found is None:
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form a winning hand (4 sets and a pair, or seven pairs)",
            )
        base, value = found
        on_discard = request.from_seat is not None and not robbing
        if (
            on_discard
            and base == "ping_hu"
            and options["ping_hu_discard"] == "with_dou"
            and not hand.kongs
            and hot is None
        ):
            return ScoreAnswer(
                legal=False,
                reason="平胡 wins on a discard only with a 豆 (有豆允许点胡), on a 热炮 or by 抢杠",
            )
        fans = [self._fan(base, value)]
        total = value
        for tag in guiyang_fans.how_won(situation):
            points = values.get(tag, 0) if tag == "kong_bloom" else 0
            total += points
            fans.append(self._fan(tag, points))
        players = self.spec.players
        penalty = 0 if hot is None else dou_value(self.dou[profile], hot, players)
        deltas = guiyang_win_deltas(
            players,
            request.seat,
            request.from_seat,
            total,
            robbing=robbing,
            penalty=penalty,
            dealer=request.dealer,
            dealer_bonus=self.unit(options) if options["dealer_bonus"] else 0,
        )
        extra: dict[str, Any] = {"unit": "番" if profile == "qq_zhuoji" else "底"}
        if hot is not None:
            extra["hot_dou"] = hot
            extra["hot_dou_penalty"] = penalty
        return ScoreAnswer(legal=True, total=total, fans=tuple(fans), deltas=deltas, extra=extra)

    def _fan(self, fan_id: str, points: int) -> FanScore:
        fan = self.spec.fans.by_id[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, points, 1)

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> GuiyangState:
        return GuiyangState(table, self)

    def turns_up(self, options: Options) -> bool:
        return self.chickens_on(options) and bool(options["flip_chicken"])

    # ------------------------------------------------------------------ the next hand

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The winner deals next (seed: 胡牌者接庄; after several wins on one discard the
        first in turn from the discarder); after a drawn hand the dealer stays."""
        dealer = outcome.wins[0].seat if outcome.wins else setup.dealer
        return replace(setup, dealer=dealer)


def _hot_dou(request: ScoreRequest) -> str | None:
    raw = request.extra.get("hot_dou")
    if raw is None:
        return None
    if raw not in DOU_KINDS:
        raise RequestError(
            "extra 'hot_dou' is the kind of 豆 the discarder made just before the discard "
            '(热炮): "concealed_kong" (闷豆), "added_kong" (转弯豆) or "kong" (点豆)'
        )
    if request.from_seat is None or request.flags.robbing_kong:
        raise RequestError("extra 'hot_dou' is for a win on a discard (热炮): give 'from'")
    return str(raw)


class GuiyangState(VariantState):
    """Guiyang on the table: 豆 (kong money) as they stand, voided by a 热炮; the first
    幺鸡 discarded (冲锋鸡, 责任鸡); the tile turned up after the win (翻鸡); 查叫."""

    def __init__(self, table: Table, variant: Guiyang) -> None:
        super().__init__(table)
        self.guiyang = variant
        options = table.options
        profile = options["profile"]
        self.amounts = variant.dou[profile]
        self.kong_money = KongMoney(table, self.amounts)
        self.konger_pays = options["dian_dou_payer"] == "konger"
        self.chickens = variant.chickens_on(options)
        self.turned = TurnedTile(table, variant.turns_up(options))
        #: The first 幺鸡 discarded: its seat and the event index; who claimed it.
        self.first_chicken: tuple[int, int] | None = None
        self.chicken_claimer: int | None = None
        self.void_kongs: set[int] = set()  # indexes into kong_money.kongs
        self.burned: set[int] = set()  # 热炮 全烧: seats whose 鸡 and 豆 do not count

    def handlers(self) -> dict[type[Event], Handler]:
        return {TurnUp: self.turned.turn_up}

    def after(self, event: Event) -> None:
        kind = type(event)
        if kind is Discard:
            if self.first_chicken is None and event.tile == YAO_JI:  # type: ignore[attr-defined]
                self.first_chicken = (event.seat, self.table.index)  # type: ignore[attr-defined]
        elif kind is Pong or kind is Kong:
            first = self.first_chicken
            if (
                first is not None
                and self.chicken_claimer is None
                and first[1] == self.table.index - 1
                and event.tile == YAO_JI  # type: ignore[attr-defined]
            ):
                self.chicken_claimer = event.seat  # type: ignore[attr-defined]
                if self.chickens:
                    self.table.notes.append("liable_chicken")

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        money = self.kong_money
        money.add(seat, kind, from_seat)
        if self.konger_pays and kind is MeldKind.KONG:
            last = money.kongs[-1]
            money.kongs[-1] = replace(last, payments=tuple((r, p, a) for p, r, a in last.payments))

    def hot_kong(self, from_seat: int | None) -> int | None:
        """The index of the 豆 the discarder made just before this discard (热炮), if any."""
        table = self.table
        kongs = self.kong_money.kongs
        if (
            from_seat is None
            or table.phase is not Phase.CLAIM
            or from_seat != table.discarder
            or not table.replacement_from_kong
            or not kongs
            or kongs[-1].seat != from_seat
        ):
            return None
        return len(kongs) - 1

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        extra: dict[str, Any] = dict(first_turn_facts(self.table, seat, from_seat, own_draw=True))
        hot = self.hot_kong(from_seat)
        if hot is not None:
            extra["hot_dou"] = self.kong_money.kongs[hot].kind.value
        return flags, extra

    def after_win(self, win: ComputedWin) -> None:
        table = self.table
        notes = table.notes
        if len(table.wins) > 1:
            notes.append("multiple_win")
        for fan in win.fans:
            if fan.id in ("robbing_kong", "hot_discard", "kong_bloom"):
                notes.append(fan.id)
        if "hot_dou" in win.detail:
            kongs = self.kong_money.kongs
            assert kongs and win.from_seat is not None and kongs[-1].seat == win.from_seat
            hot = len(kongs) - 1
            if self.guiyang.setting(table.options, "hot_burn") == "all":
                self.burned.add(win.from_seat)
                self.void_kongs.update(
                    i for i, k in enumerate(self.kong_money.kongs) if k.seat == win.from_seat
                )
                notes.append("hot_burn:all")
            else:
                self.void_kongs.add(hot)

    # ------------------------------------------------------------------ settlement

    def ready_at_end(self) -> set[int]:
        """Seats that won or are 听 at the hand's end."""
        table = self.table
        variant = self.guiyang
        return {s for s, st in enumerate(table.seats) if st.won or variant.replay_waits(table, s)}

    def payments(self) -> list[tuple[int, int, int]]:
        """豆 that still count, then with a win the 鸡 layer, or on a drawn hand 查叫."""
        table = self.table
        self.turned.check_settled()
        options = table.options
        variant = self.guiyang
        ready = self.ready_at_end()
        counted = []
        dou_void_on_draw = not table.wins and variant.setting(options, "dou_on_draw") == "void"
        needs_ready = variant.setting(options, "dou_needs_ready") == "on"
        for i, kong in enumerate(self.kong_money.kongs):
            if i in self.void_kongs or dou_void_on_draw or (needs_ready and kong.seat not in ready):
                table.notes.append("dou_void")
                continue
            counted.append(kong)
        out = [p for kong in counted for p in kong.payments]
        dou = [
            {
                "seat": k.seat,
                "kind": DOU_ZH[k.kind.value],
                "from": k.from_seat,
                "payments": [list(p) for p in k.payments],
                "counted": k in counted,
            }
            for k in self.kong_money.kongs
        ]
        detail: dict[str, Any] = {"dou": dou} if dou else {}
        if table.wins:
            if self.chickens:
                chicken_out, chicken_detail = self.chicken_payments(ready)
                out += chicken_out
                detail.update(chicken_detail)
            if detail:
                table.wins[0] = replace(table.wins[0], detail={**table.wins[0].detail, **detail})
        else:
            out += self.cha_jiao()
        return out

    def chicken_values(self) -> tuple[list[int], Tile | None, bool]:
        """Each seat's 鸡 held (in units), the 翻鸡 kind, and whether it is 金鸡."""
        table = self.table
        values = self.guiyang.chicken_values
        options = table.options
        flipped = None if self.turned.tile is None else next_rank(self.turned.tile)
        gold = flipped == YAO_JI and bool(options["gold_chicken"])
        yao = values["gold"] if gold else values["chicken"]
        held = []
        for st in table.seats:
            counts = list(st.hand)
            for meld in st.melds:
                for t in meld.tiles:
                    counts[t] += 1
            value = counts[YAO_JI] * yao
            if flipped is not None and flipped != YAO_JI:
                value += counts[flipped] * values["chicken"]
            held.append(value)
        return held, flipped, gold

    def chicken_payments(
        self, ready: set[int]
    ) -> tuple[list[tuple[int, int, int]], dict[str, Any]]:
        table = self.table
        options = table.options
        unit = self.guiyang.unit(options)
        values = self.guiyang.chicken_values
        held, flipped, gold = self.chicken_values()
        held = [h * unit for h in held]
        eligible = {s for s in range(table.players) if s not in self.burned}
        if options["chickens_need_ready"]:
            eligible &= ready
        factor = 2 if gold else 1
        charging = liable = None
        first = self.first_chicken
        if first is not None:
            seat = first[0]
            if self.chicken_claimer is not None and options["liable_chicken"]:
                liable = (seat, self.chicken_claimer, values["liable"] * factor * unit)
            elif options["charging_chicken"]:
                charging = (seat, values["charging"] * factor * unit)
        out = chicken_payments(table.players, held, eligible, charging=charging, liable=liable)
        notes = table.notes
        if any(held[s] for s in eligible):
            notes.append("chickens")
        if flipped is not None:
            notes.append("flip_chicken")
        if gold:
            notes.append("gold_chicken")
        if charging is not None and charging[0] in eligible:
            notes.append("charging_chicken")
        detail: dict[str, Any] = {"chickens": held, "chickens_counted": sorted(eligible)}
        if flipped is not None:
            detail["flip_chicken"] = tile_name(flipped)
        if gold:
            detail["gold_chicken"] = True
        if charging is not None:
            detail["charging_chicken"] = charging[0]
        if liable is not None:
            detail["liable_chicken"] = list(liable)
        return out, detail

    def cha_jiao(self) -> list[tuple[int, int, int]]:
        """查叫: each seat not ready pays each ready seat its best self-drawn hand value."""
        table = self.table
        variant = self.guiyang
        best: dict[int, int] = {}
        for seat, st in enumerate(table.seats):
            for tile in variant.replay_waits(table, seat):
                request = ScoreRequest(
                    variant=variant.id,
                    seat=seat,
                    dealer=table.record.dealer,
                    from_seat=None,
                    hand=tuple(st.concealed()),
                    melds=tuple(st.melds),
                    win_tile=tile,
                    rules=table.record.rules,
                )
                answer = variant.replay_score_request(request, table.options)
                if answer.legal and answer.total is not None:
                    best[seat] = max(best.get(seat, 0), answer.total)
        not_ready = [s for s in range(table.players) if s not in best]
        out = cha_jiao_payments(best, not_ready)
        if out:
            table.notes.append("cha_jiao")
        return out
