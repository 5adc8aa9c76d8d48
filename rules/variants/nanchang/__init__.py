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

from collections.abc import Mapping, Sequence
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
from paipu.rules.request_checks import check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.settlement import transfers
from paipu.rules.tiles import EAST, Tile, TileError, parse_tile, tile_name, tile_names
from paipu.rules.variants import Options, RegionalVariant, VariantError, register
from paipu.rules.variants.nanchang import fans as nanchang_fans
from paipu.rules.variants.nanchang.fans import Candidate, Jing, NanchangHand, Situation
from paipu.rules.variants.nanchang.settlement import (
    BaWang,
    DiscardPays,
    Feed,
    jing_payments,
    jing_value,
    win_payments,
)

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
        self._units: dict[int, dict[str, int]] = {}
        self._jing: dict[tuple[object, ...], Jing] = {}
        self._extra_known = frozenset(self.extra_facts)
        #: Each fan's FanScore by (id, points), made once (a frozen value).
        self._fan_scores: dict[tuple[str, int], FanScore] = {}

    def units(self, options: Options) -> dict[str, int]:
        """Each fan's points with the room's 大七对 base."""
        base = int(options["da_qi_dui_base"])
        found = self._units.get(base)
        if found is None:
            if base < 1:
                raise VariantError(f"option 'da_qi_dui_base' must be at least 1, not {base}")
            found = self._units[base] = {**self.points, "big_seven_pairs": base}
        return found

    # ------------------------------------------------------------------ the request

    def check(self, request: ScoreRequest) -> None:
        """Raise :class:`RequestError` for seats, tiles, melds and facts that cannot be."""
        check_request(request, self.spec.players, self.spec.hand_size, self.spec.calls)
        if request.flowers:
            raise RequestError(f"{self.spec.name_zh} has no flowers")
        if self._extra_known.issuperset(request.extra):
            return
        unknown = sorted(set(request.extra) - self._extra_known)
        if unknown:
            known = ", ".join(self.extra_facts)
            raise RequestError(
                f"unknown extra fact(s) {', '.join(unknown)} ({self.id} knows {known})"
            )

    def jing_of(self, request: ScoreRequest, options: Options) -> Jing:
        """The 精 of ``extra.wild``: [正精, 副精] (one tile under 无下精)."""
        raw = request.extra.get("wild")
        wanted = 2 if options["fu_jing"] else 1
        plain = isinstance(raw, list) and all(isinstance(t, str) for t in raw)
        key = (tuple(raw), wanted) if plain and isinstance(raw, list) else None
        found = self._jing.get(key) if key is not None else None
        if found is not None:
            return found
        jing = self._read_jing(raw, wanted)
        if key is not None:
            self._jing[key] = jing
        return jing

    @staticmethod
    def _read_jing(raw: object, wanted: int) -> Jing:
        example = '["3m", "4m"]' if wanted == 2 else '["3m"]'
        if (
            not isinstance(raw, list)
            or len(raw) != wanted
            or not all(isinstance(t, str) for t in raw)
        ):
            raise RequestError(
                f"extra 'wild' lists the {'正精 and 副精' if wanted == 2 else '正精'} "
                f"(e.g. {example}; fu_jing = {str(wanted == 2).lower()})"
            )
        try:
            tiles = [parse_tile(t) for t in raw]
        except TileError as exc:
            raise RequestError(f"extra 'wild': {exc}") from None
        if any(t not in nanchang_fans.TILE_SET for t in tiles):
            raise RequestError("extra 'wild': the 精 are tiles of the 136-tile set")
        zheng = tiles[0]
        fu = tiles[1] if wanted == 2 else None
        if fu is not None and nanchang_fans.TILE_SET.successor(zheng) != fu:
            follows = tile_name(nanchang_fans.TILE_SET.successor(zheng))
            raise RequestError(
                f"extra 'wild': the 副精 follows the 正精 {tile_name(zheng)} ({follows}), "
                f"not {tile_name(fu)}"
            )
        return Jing.of(zheng, fu)

    @staticmethod
    def streak_of(request: ScoreRequest) -> int:
        value = request.extra.get("streak", 1)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RequestError("extra 'streak' is the dealer streak, a whole number (1 = none)")
        return max(value, 1)

    def situation(self, request: ScoreRequest, options: Options) -> Situation:
        first = options["tian_di_hu"]
        return Situation(
            self_drawn=request.self_drawn,
            kong_bloom=request.flags.kong_replacement,
            robbing_kong=request.flags.robbing_kong,
            heavenly=first and self.flag_fact(request, "heavenly"),
            earthly=first and self.flag_fact(request, "earthly"),
            others_hold_jing=self.others_flag(request),
        )

    @staticmethod
    def others_flag(request: ScoreRequest) -> bool:
        value = request.extra.get("others_hold_jing", True)
        if not isinstance(value, bool):
            raise RequestError("extra 'others_hold_jing' is true or false")
        return value

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        jing = self.jing_of(request, options)
        streak = self.streak_of(request)
        situation = self.situation(request, options)
        hand = NanchangHand.of(request.hand, request.melds, request.win_tile)
        found = nanchang_fans.candidates(hand, jing)
        if not found:
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form a winning hand (4 sets and a pair, 七对 or "
                "十三烂), even with the 精 standing in",
            )
        units = self.units(options)
        first = nanchang_fans.first_turn(situation)
        best: tuple[int, Candidate, list[tuple[str, int]], list[tuple[int, int, int]]] | None
        best = None
        for candidate in found:
            fans = self.fans_of(candidate, situation, first, units, options)
            u = 1
            for _, points in fans:
                u *= points
            payments = self.win_payments(request, u, candidate.natural, streak, options)
            gain = sum(amount for _, _, amount in payments)
            if best is None or gain > best[0]:
                best = (gain, candidate, fans, payments)
        assert best is not None
        _, candidate, fans, payments = best
        total = 1
        for _, points in fans:
            total *= points
        deltas = transfers(self.spec.players, payments)
        held = jing.spec.held(hand.concealed)
        extra: dict[str, Any] = {
            "unit": "u",
            "shape": candidate.shape,
            "de_guo": candidate.natural,
            "wild": tile_names([t for t in (jing.zheng, jing.fu) if t is not None]),
            "wilds_held": tile_names(held),
            "substitutions": self.substitutions(hand, jing, candidate, held),
        }
        if streak > 1:
            extra["streak"] = streak
        if candidate.natural:
            extra["de_guo_bonus"] = self.payments["de_guo_bonus"]
        return ScoreAnswer(
            legal=True,
            total=total,
            fans=tuple(self._fan(fan_id, points) for fan_id, points in fans),
            deltas=deltas,
            extra=extra,
        )

    def fans_of(
        self,
        candidate: Candidate,
        situation: Situation,
        first: list[str],
        units: Mapping[str, int],
        options: Options,
    ) -> list[tuple[str, int]]:
        """The fans a candidate counts, each with its points (a base u, then factors)."""
        base = candidate.shape
        if first and units[first[0]] > units[base]:
            base = first[0]
        out = [(base, units[base])]
        for fan_id in nanchang_fans.doublings(candidate, situation):
            if fan_id == "de_zhong_de" and options["de_zhong_de"] == "extra":
                out.append(("de_guo", units["de_guo"]))
            out.append((fan_id, units[fan_id]))
        return out

    def win_payments(
        self, request: ScoreRequest, u: int, de_guo: bool, streak: int, options: Options
    ) -> list[tuple[int, int, int]]:
        return win_payments(
            self.spec.players,
            winner=request.seat,
            dealer=request.dealer,
            from_seat=request.from_seat,
            u=u,
            de_guo=de_guo,
            streak=streak,
            discard_pays=DiscardPays(options["discard_pays"]),
            robbed=request.flags.robbing_kong,
            rob_pays_all=options["rob_kong_pays_all"],
            de_guo_bonus=self.payments["de_guo_bonus"],
        )

    def _fan(self, fan_id: str, points: int) -> FanScore:
        key = (fan_id, points)
        found = self._fan_scores.get(key)
        if found is None:
            fan = self.spec.fans.by_id[fan_id]
            found = self._fan_scores[key] = FanScore(fan.id, fan.name_zh, fan.name_en, points, 1)
        return found

    @staticmethod
    def substitutions(
        hand: NanchangHand, jing: Jing, candidate: Candidate, held: Sequence[Tile]
    ) -> list[str]:
        """What each 精 ``held`` stood for in one reading of the winning shape ("5z→3m";
        "any" for a place any tile fills), [] on 德国."""
        if candidate.natural:
            return []
        natural, wilds = jing.spec.split(hand.concealed)
        faces: list[Tile | None] = []
        if candidate.shape == "ping_hu":
            faces += nanchang_fans.standard_faces(natural, wilds) or []
        elif candidate.shape == "big_seven_pairs":
            faces = nanchang_fans.pung_faces(natural, wilds, 4 - hand.melds)
        elif candidate.shape == "small_seven_pairs":
            faces += [t for t, n in enumerate(natural) if n % 2]
        return _matched(held, faces)

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


def _matched(held: Sequence[Tile], faces: Sequence[Tile | None]) -> list[str]:
    """Each 精 held with a face it stood for, a 精 standing for its own kind first."""
    left = list(faces)
    out: list[str] = []
    rest: list[Tile] = []
    for wild in held:
        if wild in left:
            left.remove(wild)
            out.append(f"{tile_name(wild)}→{tile_name(wild)}")
        else:
            rest.append(wild)
    for i, wild in enumerate(rest):
        face = left[i] if i < len(left) else None
        out.append(f"{tile_name(wild)}→{'any' if face is None else tile_name(face)}")
    return sorted(out)


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
