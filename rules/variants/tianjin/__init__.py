"""天津麻将 (Tianjin): 混儿 wilds, self-draw only, 坐庄 / 拉庄, kong money, 铲, 天和 / 地和.

Data — the 136 tiles, the 混 rule (``[wilds]``), the calls, kong money, the options, the
fans — is in ``tianjin.toml``; the readings and fans are
:mod:`paipu.rules.variants.tianjin.fans`, the payments
:mod:`paipu.rules.variants.tianjin.settlement`, the 坐庄 / 拉庄 events
:mod:`paipu.rules.variants.tianjin.events`; the rules as implemented are in
``docs/variants/tianjin.md``.

The digest's worked example (§9): East deals and sits 坐庄; South 拉一庄, West 不拉, North
拉两庄; South self-draws 素 捉五 (3 × 2 = 6): East pays 24, West and North 6 each.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "tianjin", "seat": 1, "dealer": 0,
...     "hand": "46m123p789p22s345s", "win_tile": "5m",
...     "extra": {"wild": ["7z", "6z"], "zuo_zhuang": True, "la_zhuang": [0, 1, 0, 2]}})
>>> answer.legal, answer.total, [(f.id, f.points) for f in answer.fans], answer.deltas
(True, 6, [('zhuo_wu', 3), ('su', 2)], (-24, 36, -6, -6))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from paipu.rules.core.wild import WildError, WildSpec
from paipu.rules.events import Discard, Event, Indicator, Kong, Pong
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.first_turn import first_turn_facts
from paipu.rules.mechanics.kong_money import KongMoney
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
from paipu.rules.replay import Handler, VariantState
from paipu.rules.request_checks import check_extra, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import Tile, TileError, tile_name, tile_names
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.tianjin import fans as tianjin_fans
from paipu.rules.variants.tianjin.events import MOST_LA, LaZhuang, ZuoZhuang
from paipu.rules.variants.tianjin.settlement import (
    Stakes,
    chan_payments,
    kong_payments,
    win_deltas,
)

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: How many distinct ``extra.wild`` values the variant keeps worked out (a game has 34
#: pairs of 混, written in two orders).
WILD_SPECS_KEPT = 256
#: The most fan lists and substitution lists :meth:`Tianjin.score` keeps named.
ANSWER_PARTS_KEPT = 4096
#: 铲 is worth one 明杠 (digest §10.4).
CHAN_AMOUNT = 1
#: The discards of the first go-round (the dealer's and the three 闲's).
FIRST_ROUND = 4
SELF_DRAW_ONLY = (
    "天津麻将只能自摸 (self-draw only): no win on a discard (点炮) or on a robbed kong (抢杠)"
)


@register
class Tianjin(RegionalVariant):
    """天津麻将 — 混儿 wilds, no chi, self-draw only, 坐庄 / 拉庄 doublings."""

    id = "tianjin"
    extra_facts = ("wild", "zuo_zhuang", "la_zhuang", "heavenly", "earthly")
    #: ``paipu simulate --scenario``: prepared deals for the dealer (hand, draws).
    scenario_sets: ClassVar[Mapping[str, Any]] = {
        "tianjin": {
            "heavenly": ("46m123p789p22s345s", "5m"),  # 天和 on the first draw
            "zhuo_wu": ("46m123p789p22s34s1z", "5s5m"),  # 捉五 on the second draw
            "long": ("123456789m1z1z3z3z", "5z1z"),  # 龙 on the second draw
        },
    }

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, tianjin_fans.REGISTRY, self.id)
        raw = self.spec.raw
        self.tile_set = tile_set_of(self)
        self.kong_amounts: Mapping[str, int] = {k: int(v) for k, v in raw["kong_payments"].items()}
        self._scorings: dict[tuple[Any, ...], tianjin_fans.Scoring] = {}
        self._last_scoring: tuple[Options, tianjin_fans.Scoring] | None = None
        #: The 混 of a request's ``extra.wild`` (as written) and ``wild_discard``, worked
        #: out once: the rule's indicators are tried for each new pair of kinds.
        self._wild_specs: dict[tuple[Any, ...], WildSpec] = {}
        fans = self.spec.fans.by_id
        self._fan_names = {f: (d.name_zh, d.name_en) for f, d in fans.items()}
        #: Each fan's FanScore by (id, points), made once (a frozen value).
        self._fan_scores: dict[tuple[str, int], FanScore] = {}
        self._wild_orders: dict[WildSpec, tuple[str, ...]] = {}
        #: A result's fans as FanScores, and a reading's 混 as "5m→3p" names, by value
        #: (few distinct ones; at most ANSWER_PARTS_KEPT of each are kept).
        self._fan_lists: dict[tuple[tuple[str, int], ...], tuple[FanScore, ...]] = {}
        self._substitutions: dict[tuple[tuple[Tile, Tile], ...], tuple[str, ...]] = {}

    # ------------------------------------------------------------------ the 混

    def wild_order(self, wilds: WildSpec) -> tuple[Tile, ...]:
        """The 混 kinds as ``[flipped, next]`` (the score request's ``extra.wild``)."""
        kinds = sorted(wilds.tiles)
        for first in kinds:
            second = self.tile_set.successor(first)
            if second in wilds.tiles and second != first:
                return (first, second)
        return tuple(kinds)

    # ------------------------------------------------------------------ scoring

    def check(self, request: ScoreRequest) -> None:
        """Seats, tiles and melds that cannot be, and the facts ``extra`` may hold."""
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        if request.flowers:
            raise RequestError(f"{spec.name_zh} is played without flowers (136 tiles)")
        check_extra(request, self.id, self.extra_facts)

    def request_wilds(self, request: ScoreRequest, options: Options) -> WildSpec:
        """``extra.wild``: the two 混 kinds, the flipped tile and the next, in either order
        (none if absent: the hand is read without 混)."""
        raw = request.extra.get("wild")
        key = (tuple(raw) if isinstance(raw, list) else (), options["wild_discard"])
        known = self._wild_specs.get(key)
        if known is not None:
            return known
        spec = self._request_wilds(request, options)
        if len(self._wild_specs) < WILD_SPECS_KEPT:
            self._wild_specs[key] = spec
        return spec

    def _request_wilds(self, request: ScoreRequest, options: Options) -> WildSpec:
        try:
            kinds = kinds_of_extra(request.extra)
            if not kinds:
                return WildSpec.none(self.tile_set)
            if len(kinds) != 2:
                raise WildError(
                    "extra 'wild' lists the two 混 kinds, the flipped tile and the next: "
                    '["3p", "4p"]'
                )
            successor = self.tile_set.successor
            first, second = kinds
            if successor(first) != second and successor(second) != first:
                raise WildError(
                    f"extra 'wild': the 混 are the flipped tile and the next one (9→1, 东南西北, "
                    f"中→发→白→中), not {tile_name(first)} and {tile_name(second)}"
                )
            spec = spec_of_kinds(wild_rule(self, options), kinds, self.tile_set)
        except (WildError, TileError) as exc:
            raise RequestError(str(exc)) from None
        return spec if spec is not None else WildSpec.none(self.tile_set)

    def request_stakes(self, request: ScoreRequest, options: Options) -> Stakes:
        """``extra.zuo_zhuang`` and ``extra.la_zhuang``, checked."""
        players = self.spec.players
        zuo = self.flag_fact(request, "zuo_zhuang")
        always = bool(options["dealer_always_double"])
        if "la_zhuang" not in request.extra:
            return Stakes(request.dealer, zuo, (0,) * players, always)
        raw = request.extra["la_zhuang"]
        if (
            not isinstance(raw, list)
            or len(raw) != players
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MOST_LA for v in raw
            )
        ):
            raise RequestError(
                f"extra 'la_zhuang' lists each seat's 拉庄 level 0, 1 or 2 ({players} of them)"
            )
        if raw[request.dealer]:
            raise RequestError("extra 'la_zhuang': the dealer does not 拉庄 (its level is 0)")
        return Stakes(request.dealer, zuo, tuple(raw), always)

    def scoring(self, options: Options) -> tianjin_fans.Scoring:
        """The room's options that change a hand's value, made once per options object (the
        default options are one object: most calls find it by identity)."""
        last = self._last_scoring
        if last is not None and last[0] is options:
            return last[1]
        key = (
            options["su_multiplier"],
            options["su_reading"],
            options["ben_hun_long"],
            options["first_turn_win"],
            options["zhuo_wu_wild_five"],
        )
        scoring = self._scorings.get(key)
        if scoring is None:
            scoring = self._scorings[key] = tianjin_fans.Scoring(
                su_multiplier=int(key[0]),
                su_none_substituted=key[1] == "none_substituted",
                ben_hun_long=key[2] == "double",
                first_turn_flat=key[3] == "flat_28",
                zhuo_wu_wild_five=bool(key[4]),
            )
        self._last_scoring = (options, scoring)
        return scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        wilds = self.request_wilds(request, options)
        stakes = self.request_stakes(request, options)
        for i, meld in enumerate(request.melds, 1):
            if meld.tiles[0] in wilds.tiles and meld.kind is not MeldKind.CONCEALED_KONG:
                raise RequestError(
                    f"meld {i}: {tile_name(meld.tiles[0])} is a 混; a 混 is never used in a "
                    "碰 or 杠 (only four of them as a concealed 金杠)"
                )
        if request.from_seat is not None:
            return ScoreAnswer(legal=False, reason=SELF_DRAW_ONLY)
        heavenly = self.flag_fact(request, "heavenly")
        earthly = self.flag_fact(request, "earthly")
        if heavenly and request.seat != request.dealer:
            raise RequestError("extra 'heavenly' (天和) is the dealer's win")
        if earthly and request.seat == request.dealer:
            raise RequestError("extra 'earthly' (地和) is a 闲's win; the dealer's is 天和")
        situation = tianjin_fans.Situation(
            kong_bloom=request.flags.kong_replacement, heavenly=heavenly, earthly=earthly
        )
        result = tianjin_fans.evaluate(
            (*request.hand, request.win_tile),
            wilds,
            request.melds,
            request.win_tile,
            situation,
            self.scoring(options),
        )
        if result is None:
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form four sets and a pair, whatever the 混 stand for",
            )
        fans = self._fan_lists.get(result.fans)
        if fans is None:
            fans = tuple(self._fan(fan, points) for fan, points in result.fans)
            if len(self._fan_lists) < ANSWER_PARTS_KEPT:
                self._fan_lists[result.fans] = fans
        if result.total < self.spec.min_fan:
            named = " ".join(f.name_zh for f in fans)
            return ScoreAnswer(
                legal=False,
                fans=fans,
                total=result.total,
                reason=f"起和 {self.spec.min_fan}: this hand is worth {result.total} ({named})",
            )
        deltas = win_deltas(self.spec.players, request.seat, result.total, stakes)
        reading = result.reading
        extra: dict[str, Any] = {
            "unit": "分",
            "base": result.base,
            "multiplier": result.total // result.base,
            "reading": reading.describe(),
        }
        if wilds.tiles:
            names = self._wild_orders.get(wilds)
            if names is None:
                names = tuple(tile_names(self.wild_order(wilds)))
                if len(self._wild_orders) < WILD_SPECS_KEPT:
                    self._wild_orders[wilds] = names
            extra["wild"] = list(names)
            substituted = self._substitutions.get(reading.wilds)
            if substituted is None:
                substituted = tuple(f"{tile_name(w)}→{tile_name(f)}" for w, f in reading.wilds)
                if len(self._substitutions) < ANSWER_PARTS_KEPT:
                    self._substitutions[reading.wilds] = substituted
            extra["substitutions"] = list(substituted)
        return ScoreAnswer(legal=True, total=result.total, fans=fans, deltas=deltas, extra=extra)

    def _fan(self, fan_id: str, points: int) -> FanScore:
        key = (fan_id, points)
        found = self._fan_scores.get(key)
        if found is None:
            name_zh, name_en = self._fan_names[fan_id]
            found = self._fan_scores[key] = FanScore(fan_id, name_zh, name_en, points, 1)
        return found

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> TianjinState:
        return TianjinState(table, self)

    # ------------------------------------------------------------------ self-play

    def stake_choices(self, table: Table, seat: int) -> tuple[int, ...]:
        """坐庄 (0 or 1) for the dealer, 拉庄 (0, 1 or 2) for each 闲."""
        return (0, 1) if seat == table.record.dealer else tuple(range(MOST_LA + 1))

    def stake_event(self, table: Table, seat: int, level: int) -> Event:
        if seat == table.record.dealer:
            return ZuoZhuang(seat, bool(level))
        return LaZhuang(seat, level)

    # ------------------------------------------------------------------ the next hand

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The dealer keeps the deal when it wins; a 闲's win passes it to the next seat;
        after a drawn hand the dealer stays (option ``draw_rotation``)."""
        options = self.resolve_options(setup.rules)
        players = len(setup.players)
        if outcome.wins:
            moves = outcome.wins[0].seat != setup.dealer
        else:
            moves = options["draw_rotation"] == "next_seat"
        if not moves:
            return setup
        return replace(setup, dealer=(setup.dealer + 1) % players)


class TianjinState(VariantState):
    """Tianjin on the table: 坐庄 / 拉庄 (before the first draw), kong money (金杠 among
    them) and 铲 with their multipliers, the 混 that may not be discarded where the room
    says so, and the facts a win's score needs (the 混, the stakes, 天和 / 地和)."""

    def __init__(self, table: Table, variant: Tianjin) -> None:
        super().__init__(table)
        self.variant = variant
        options = table.options
        self.zuo_zhuang = False
        self.la_zhuang = [0] * table.players
        self.chosen: set[int] = set()
        self.kong_money = KongMoney(table, variant.kong_amounts)
        self.gold_kongs: set[int] = set()  # indexes into kong_money.kongs: 金杠
        self.first_round: list[tuple[int, Tile]] = []
        self.claimed_early = False
        self.chan = False
        self.chan_on = options["chan"] == "first_round"
        self.wilds = Wilds(table, wild_rule(variant, options))
        self.always_double = bool(options["dealer_always_double"])
        self.gold_value = int(options["gold_kong_value"])

    def handlers(self) -> dict[type[Event], Handler]:
        return {
            ZuoZhuang: self.sit,
            LaZhuang: self.pull,
            Indicator: route_indicator(self.table, {ROLE: self.wilds.reveal}),
        }

    def before(self, event: Event) -> bool:
        self.wilds.before(event)
        return False

    # ------------------------------------------------------------------ 坐庄 / 拉庄

    def _before_first_draw(self, event: Event, what: str) -> None:
        table = self.table
        if any(s.draws for s in table.seats) or table.discard_count:
            raise table.fail(event, f"{what} is chosen before the first draw (玩家拿牌前)")
        seat: int = event.seat  # type: ignore[attr-defined]
        if seat in self.chosen:
            raise table.fail(event, f"seat {seat} has already chosen (坐庄 / 拉庄 once a hand)")
        self.chosen.add(seat)

    def sit(self, event: ZuoZhuang) -> None:
        """The ``zuo_zhuang`` event: the dealer's choice."""
        dealer = self.table.record.dealer
        if event.seat != dealer:
            raise self.table.fail(
                event, f"坐庄 is the dealer's choice: seat {dealer} deals, not seat {event.seat}"
            )
        self._before_first_draw(event, "坐庄")
        self.zuo_zhuang = event.sits
        if event.sits:
            self.table.notes.append("zuo_zhuang")

    def pull(self, event: LaZhuang) -> None:
        """The ``la_zhuang`` event: a 闲's level."""
        if event.seat == self.table.record.dealer:
            raise self.table.fail(event, "the dealer does not 拉庄; each 闲 pulls the dealer")
        self._before_first_draw(event, "拉庄")
        self.la_zhuang[event.seat] = event.level
        if event.level:
            self.table.notes.append(f"la_zhuang:{event.level}")

    def stakes(self) -> Stakes:
        return Stakes(
            self.table.record.dealer, self.zuo_zhuang, tuple(self.la_zhuang), self.always_double
        )

    # ------------------------------------------------------------------ play

    def after(self, event: Event) -> None:
        event_type = type(event)
        if len(self.first_round) >= FIRST_ROUND:
            return
        if event_type is Pong or event_type is Kong:
            self.claimed_early = True
        elif event_type is Discard:
            assert isinstance(event, Discard)
            self.first_round.append((event.seat, event.tile))
            if len(self.first_round) == FIRST_ROUND:
                self.chan = self.chan_on and self._is_chan()
                if self.chan:
                    self.table.notes.append("chan")

    def _is_chan(self) -> bool:
        """铲: the first four discards are the dealer's and each 闲's in turn, one tile, no
        claim between them."""
        if self.claimed_early:
            return False
        table = self.table
        dealer = table.record.dealer
        seats = [(dealer + k) % table.players for k in range(FIRST_ROUND)]
        first_tile = self.first_round[0][1]
        return [s for s, _ in self.first_round] == seats and all(
            t == first_tile for _, t in self.first_round
        )

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        table = self.table
        money = self.kong_money
        money.add(seat, kind, from_seat)
        wilds = table.wilds
        gold = (
            kind is MeldKind.CONCEALED_KONG
            and wilds is not None
            and table.seats[seat].melds[-1].tiles[0] in wilds.tiles
        )
        if gold:
            self.gold_kongs.add(len(money.kongs) - 1)
            table.notes.append("gold_kong")

    # ------------------------------------------------------------------ the win

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        table = self.table
        extra: dict[str, Any] = self.wilds.extra()
        if self.zuo_zhuang:
            extra["zuo_zhuang"] = True
        if any(self.la_zhuang):
            extra["la_zhuang"] = list(self.la_zhuang)
        extra.update(first_turn_facts(table, seat, from_seat, own_draw=True))
        return flags, extra

    def payments(self) -> list[tuple[int, int, int]]:
        """Kong money (金杠 at its own value) and 铲, each × the 坐庄 / 拉庄 multiplier;
        paid on a drawn hand too."""
        table = self.table
        amounts = self.variant.kong_amounts
        kongs = [
            (k.seat, self.gold_value if i in self.gold_kongs else amounts[k.kind.value])
            for i, k in enumerate(self.kong_money.kongs)
        ]
        stakes = self.stakes()
        out = kong_payments(table.players, kongs, stakes)
        if self.chan:
            out += chan_payments(table.players, CHAN_AMOUNT, stakes)
        return out
