"""南昌麻将 (Nanchang): 精 wilds, 德国, the seed's payment table, 精分 settled apart.

Data — the 136 tiles, the calls, the 精 rule (``[wilds]``), the hand types, the payments,
the options — is in ``nanchang.toml``; the shapes are :mod:`paipu.rules.variants.nanchang.
fans`, the formulas :mod:`paipu.rules.variants.nanchang.settlement`; the rules as
implemented: ``docs/variants/nanchang.md``.

The digest's worked example: East (dealer) discards, South wins 德国 平胡 (u = 1 × 2):
East pays 13, West and North 2 each (the seed: 捉庄放炮的庄家13个闲家每家2个 13+2+2=17).

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "nanchang", "seat": 1, "dealer": 0, "from": 0,
...     "hand": "123m456p789s234s5z", "win_tile": "5z", "extra": {"wild": ["1z", "2z"]}})
>>> answer.total, [(f.id, f.points) for f in answer.fans], answer.deltas
(2, [('ping_hu', 1), ('de_guo', 2)], (-13, 17, -2, -2))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paipu.rules.core import shanten as core
from paipu.rules.events import Draw, Event, Indicator
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics import dealer_streak
from paipu.rules.mechanics.dealer_streak import DealerStreak, Streak
from paipu.rules.mechanics.first_turn import first_turn_facts
from paipu.rules.mechanics.wilds import ROLE, Wilds, route_indicator, wild_rule
from paipu.rules.melds import MeldKind
from paipu.rules.replay import ComputedWin, Handler, Phase, VariantState
from paipu.rules.score import ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.settlement import transfers
from paipu.rules.tiles import EAST, Tile, tile_names
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.nanchang import fans as nanchang_fans
from paipu.rules.variants.nanchang.fans import Jing
from paipu.rules.variants.nanchang.scoring import Scorer
from paipu.rules.variants.nanchang.settlement import BaWang, Feed, jing_payments, jing_value

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: The shapes' fan ids, the ones whose u the hand takes (the largest that fits).
SHAPES = ("ping_hu", "small_seven_pairs", "big_seven_pairs", "thirteen_lan", "seven_star_lan")
FIRST_TURN = ("heavenly", "earthly")
#: Prepared deals for ``paipu simulate --scenario nanchang-shapes`` (the dealer's 13 tiles and
#: his first draws): the shapes self-play rarely reaches, and 杠开 (a concealed kong, the
#: replacement completing the hand). Play them with ``--rules
#: '{"tian_di_hu": false}'``, or the dealer's first-draw win is 天胡 (u 20, the shape's
#: u replaced).
SCENARIO_SETS = {
    "nanchang-shapes": {
        "thirteen_lan": ("147m258p369s1234z", "5z"),
        "seven_star_lan": ("147m258p3s123456z", "7z"),
        "big_seven_pairs": ("111m222p333s444z5z", "5z"),
        "small_seven_pairs": ("1122m3344p5566s7z", "7z"),
        "kong_bloom": ("1111m234p567s789s", "5z5z"),
    },
}


@register
class Nanchang(RegionalVariant):
    """南昌麻将 — 精 (正精 / 副精) wild, 德国, 十三烂, the dealer streak, 精分."""

    id = "nanchang"
    scenario_sets = SCENARIO_SETS
    extra_facts = ("wild", "streak", "others_hold_jing", "heavenly", "earthly")

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, nanchang_fans.REGISTRY, self.id)
        self.points = {f.id: f.points for f in self.spec.fans.fans}
        payments = self.spec.raw["payments"]
        self.payments = {name: int(value) for name, value in payments.items()}
        self.scorer = Scorer(
            self.id,
            self.spec.name_zh,
            self.spec.players,
            self.spec.hand_size,
            self.spec.calls,
            self.points,
            self.payments,
            {f.id: (f.name_zh, f.name_en) for f in self.spec.fans.fans},
            self.extra_facts,
        )

    def check(self, request: ScoreRequest) -> None:
        """Raise :class:`RequestError` for seats, tiles, melds and facts that cannot be."""
        self.scorer.check(request)

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        """The answer, by the compiled :class:`~paipu.rules.variants.nanchang.scoring.Scorer`:
        every shape the hand fits settled, the one the winner gains most from counted."""
        return self.scorer.score(request, options)

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> NanchangState:
        return NanchangState(table, self)

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """The core's waits with the hand's 精 (standard, 七对), and the 十三烂 ones."""
        s = table.seats[seat]
        hand = s.hand
        melds = len(s.melds)
        if sum(hand) != self.spec.hand_size - 3 * melds:
            return ()
        spec = table.wilds or nanchang_fans.PLAIN
        found = core.waits(hand, spec, melds, self.replay_shapes())
        if melds:
            return found
        loose = nanchang_fans.loose_waits(hand, spec)
        if not loose:
            return found
        return tuple(sorted(set(found) | set(loose)))

    def replay_last_tile(self, table: Table, seat: int, from_seat: int | None) -> bool:
        """The last tile before 荒庄 (``dead_wall`` tiles stay)."""
        return table.wall.left() <= int(table.options["dead_wall"])

    def setup_events(self, setup: HandSetup) -> list[Event]:
        """连庄: a dealer dealing again opens the hand with his streak (self-play)."""
        return dealer_streak.setup_events(setup)

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """A dealer who wins stays (连庄) and his streak grows; after any other hand the next
        seat deals (after a 闲's self-draw the winner, with ``dealer_after_self_draw``)
        and the streak starts again."""
        options = self.resolve_options(setup.rules)
        players = len(setup.players)
        dealer = setup.dealer
        streak = int(setup.extra.get("streak", 1))
        first = outcome.wins[0] if outcome.wins else None
        if first is not None and first.seat == dealer:
            streak += 1
        elif (
            first is not None
            and first.from_seat is None
            and options["dealer_after_self_draw"] == "winner"
        ):
            dealer, streak = first.seat, 1
        else:
            dealer, streak = (dealer + 1) % players, 1
        following = setup.hand + 1
        return replace(
            setup,
            dealer=dealer,
            round_wind=EAST + (following // players) % 4,
            extra={**setup.extra, "streak": streak},
        )


class NanchangState(VariantState):
    """Nanchang on the table: the 精 (:class:`~paipu.rules.mechanics.wilds.Wilds`, turned up
    by the indicator), the dealer's streak (``dealer_streak``), the facts a win's request
    needs (the 精 in order, the streak, 德中德, 天胡 / 地胡), and 精分 at the end of every
    hand, won or drawn (:meth:`payments`)."""

    def __init__(self, table: Table, variant: Nanchang) -> None:
        super().__init__(table)
        self.variant = variant
        self.wilds = Wilds(table, wild_rule(variant, table.options))
        self.streak = Streak(table)
        self.noted = False

    def handlers(self) -> dict[type[Event], Handler]:
        return {
            Indicator: route_indicator(self.table, {ROLE: self.wilds.reveal}),
            DealerStreak: self.streak.declare,  # type: ignore[dict-item]
        }

    def before(self, event: Event) -> bool:
        self.wilds.before(event)
        if type(event) is Draw:
            table = self.table
            if table.phase is Phase.CLAIM and table.wall.left() <= table.options["dead_wall"]:
                raise table.fail(
                    event,
                    f"the hand is drawn (荒庄) with {table.options['dead_wall']} tiles left "
                    "in the wall: no more draws",
                )
        return False

    def exhausted(self) -> bool | None:
        """荒庄 once the wall is down to ``dead_wall`` tiles after an unclaimed discard."""
        table = self.table
        if table.phase is Phase.CLAIM and table.wall.left() <= table.options["dead_wall"]:
            return True
        return None

    def jing(self) -> Jing | None:
        """The hand's 正精 and 副精, once the indicator is turned up."""
        indicator = self.wilds.indicator
        if indicator is None:
            return None
        tile_set = nanchang_fans.TILE_SET
        zheng = tile_set.successor(indicator)
        fu = tile_set.successor(zheng) if self.table.options["fu_jing"] else None
        return Jing.of(zheng, fu)

    def holds(self, seat: int, jing: Jing, discards: bool) -> list[int]:
        """What ``seat`` holds as counts: hand and melds (and its pool with ``discards``)."""
        s = self.table.seats[seat]
        tiles = list(s.hand)
        for meld in s.melds:
            for tile in meld.tiles:
                tiles[tile] += 1
        if discards:
            for tile in s.pool:
                tiles[tile] += 1
        return tiles

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        table = self.table
        jing = self.jing()
        extra: dict[str, Any] = first_turn_facts(table, seat, from_seat, own_draw=True)
        if jing is None:
            extra["wild"] = []
            return flags, extra
        kinds = [t for t in (jing.zheng, jing.fu) if t is not None]
        extra["wild"] = tile_names(kinds)
        extra.update(self.streak.extra())
        others = any(
            self.holds(other, jing, False)[kind]
            for other in range(table.players)
            if other != seat
            for kind in kinds
        )
        if not others:
            extra["others_hold_jing"] = False
        return flags, extra

    def after_win(self, win: ComputedWin) -> None:
        """A win ends the hand: its 精分 (settled apart, :meth:`payments`) joins the win's
        facts, each seat's points and what each gains or pays by them, for the replay page."""
        table = self.table
        if win.flags.robbing_kong:
            table.notes.append("robbing_kong")
        points, payments = self.jing_settlement()
        if points:
            detail = {
                **win.detail,
                "jing_points": points,
                "jing_deltas": list(transfers(table.players, payments)),
            }
            table.wins[-1] = replace(win, detail=detail)

    def payments(self) -> list[tuple[int, int, int]]:
        """精分 of the hand (won or drawn): each seat's 精 held (and discarded, by option),
        冲关, 霸王精, the feeder of a 冲关 and 包杠精."""
        points, payments = self.jing_settlement()
        if points and not self.noted:
            self.noted = True
            self.note(points, self.feeds(), bool(payments))
        return payments

    def jing_settlement(self) -> tuple[list[int], list[tuple[int, int, int]]]:
        """Each seat's 精分 points and the payments they make (([], []) before the 精)."""
        table = self.table
        jing = self.jing()
        if jing is None:
            return [], []
        options = table.options
        amounts = self.variant.payments
        discards = bool(options["discards_count_jing"])
        points = [
            jing.points(self.holds(seat, jing, discards), amounts["zheng_jing"], amounts["fu_jing"])
            for seat in range(table.players)
        ]
        payments = jing_payments(
            points,
            ba_wang=BaWang(options["ba_wang_jing"]),
            feeds=self.feeds(),
            chong_guan_from=amounts["chong_guan_from"],
            ba_wang_plus=amounts["ba_wang_plus"],
            feeder_factor=amounts["chong_guan_feeder_factor"],
            bao_gang_jing=amounts["bao_gang_jing"],
        )
        return points, payments

    def feeds(self) -> dict[int, Feed]:
        """By holder, the last 精 he claimed (碰 / 杠) from another seat."""
        table = self.table
        jing = self.jing()
        feeds: dict[int, Feed] = {}
        if jing is None or not table.options["chong_guan_feeder"]:
            return feeds
        amounts = self.variant.payments
        for seat, s in enumerate(table.seats):
            for meld in s.melds:
                base = meld.base
                if meld.from_seat is None or meld.kind is MeldKind.CHI:
                    continue
                if base in (jing.zheng, jing.fu):
                    value = amounts["zheng_jing"] if base == jing.zheng else amounts["fu_jing"]
                    feeds[seat] = Feed(seat, meld.from_seat, value, meld.kind is MeldKind.KONG)
        return feeds

    def note(self, points: list[int], feeds: Mapping[int, Feed], paid: bool) -> None:
        """The 精分 paths taken, for paipu simulate --stats."""
        notes = self.table.notes
        threshold = self.variant.payments["chong_guan_from"]
        holders = [p for p in points if p > 0]
        if paid:
            notes.append("jing_points" if self.table.wins else "jing_points:drawn_hand")
        if any(p >= threshold for p in points):
            notes.append("jing_points:chong_guan")
        if len(holders) == 1:
            notes.append("jing_points:ba_wang")
        for holder, feed in feeds.items():
            if points[holder] >= threshold and points[holder] - feed.value < threshold:
                notes.append("jing_points:bao_gang_jing" if feed.kong else "jing_points:fed")


__all__ = ["BaWang", "Nanchang", "NanchangState", "jing_value"]
