"""广东推倒胡 (Guangdong Tui Dao Hu): no 吃, every win the same base (2 per payer), 鬼牌 wilds
(白板做鬼, 翻鬼, 翻双鬼) with 无鬼加倍, 七对 options, 买马 horses, 杠爆全包 and 抢杠全包, kong money
settled only when someone wins.

Data — tiles, calls, wilds, kong money, options, fans — is in ``guangdong.toml``; the hand
types are :mod:`paipu.rules.variants.guangdong.fans`, the payments
:mod:`paipu.rules.variants.guangdong.settlement`; the rules as implemented are in
``docs/variants/guangdong.md``.

The digest's worked example (no 鬼, 4 horses, 自摸): South self-draws; horses 5万, 2条, 6筒,
北; two land on South, so East, West and North each pay 2 + 2 × 2 = 6.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "guangdong", "rules": {"horses": 4}, "seat": 1,
...     "dealer": 0, "hand": "123m456p789s11z45m", "win_tile": "6m",
...     "extra": {"horse_tiles": ["5m", "2s", "6p", "4z"]}})
>>> answer.total, [(f.id, f.count) for f in answer.fans], answer.deltas
(2, [('tui_dao_hu', 1), ('self_draw', 1), ('horse', 2)], (-6, 18, -6, -6))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paipu.rules.core import shanten as core
from paipu.rules.core.wild import WildError, WildSpec
from paipu.rules.events import Bird, Discard, Indicator
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics import dealer_streak
from paipu.rules.mechanics.birds import Birds
from paipu.rules.mechanics.dealer_streak import DealerStreak, Streak
from paipu.rules.mechanics.kong_money import KongMoney
from paipu.rules.mechanics.wilds import (
    Wilds,
    kinds_of_extra,
    route_indicator,
    spec_of_kinds,
    tile_set_of,
    wild_rule,
)
from paipu.rules.melds import MeldKind
from paipu.rules.replay import VariantState
from paipu.rules.request_checks import check_extra, check_no_flowers, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import (
    Tile,
    TileError,
    counts,
    parse_tile,
    standard_set,
    tile_name,
    tile_names,
)
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.guangdong import fans as gd_fans
from paipu.rules.variants.guangdong.settlement import guangdong_deltas, horse_hits, horse_seat

if TYPE_CHECKING:
    from paipu.rules.events import Event
    from paipu.rules.replay import ComputedWin, Handler, HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: The base of every win, per payer (pub-gd Award(): points = 2).
BASE_POINTS = 2
#: The 万 (characters), codes 0-8: out of the wall with ``characters = false`` (不带万).
CHARACTERS = range(9)
#: 白板, kept in a wall without honours when it is a 鬼 (白板做鬼, pub-gd OnCreateRoom()).
WHITE = 31


@register
class Guangdong(RegionalVariant):
    """广东推倒胡 — see the module docstring."""

    id = "guangdong"
    extra_facts = ("wild", "horse_tiles", "fed_by", "first_turn", "streak")

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, gd_fans.REGISTRY, self.id)
        self.kong_amounts: Mapping[str, int] = {
            k: int(v) for k, v in self.spec.raw["kong_payments"].items()
        }
        self.tile_set = tile_set_of(self)
        self.no_wilds = WildSpec.none(self.tile_set)
        self._fans = {f.id: f for f in self.spec.fans.fans}

    # ------------------------------------------------------------------ the request

    def check(self, request: ScoreRequest) -> None:
        """Seats, tiles (the 136: suits and honours), melds and the known ``extra`` facts."""
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        check_no_flowers(request, spec.name_zh)
        check_extra(request, self.id, self.extra_facts)

    def check_tiles(self, request: ScoreRequest, options: Options) -> None:
        """Every tile of the hand and its melds is one of the room's set (不带字牌, 不带万)."""
        kinds = self.tile_kinds(options)
        tiles = (*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles))
        bad = next((t for t in tiles if t not in kinds), None)
        if bad is not None:
            raise RequestError(
                f"{tile_name(bad)} is not a tile of this room ({self.set_name(options)})"
            )

    def set_name(self, options: Options) -> str:
        """The room's tile set in words."""
        out = [f"{len(self.wall_tiles(options))} tiles"]
        if not options["honors"]:
            out.append("不带字牌 (honors = false)")
        if not options["characters"]:
            out.append("不带万 (characters = false)")
        return ", ".join(out)

    def wilds_of(self, request: ScoreRequest, options: Options) -> WildSpec:
        """The hand's 鬼 from ``extra.wild``, checked against the room's ``ghost`` mode."""
        try:
            spec = spec_of_kinds(
                wild_rule(self, options), kinds_of_extra(request.extra), self.tile_set
            )
        except WildError as exc:
            raise RequestError(f"extra 'wild' (ghost = {options['ghost']}): {exc}") from None
        # A flipped kind may be out of the room's tiles (白板 flipped without the honours):
        # a 鬼 no hand can hold, harmless.
        return self.no_wilds if spec is None else spec

    def horses_of(self, request: ScoreRequest, options: Options) -> tuple[Tile, ...]:
        """``extra.horse_tiles``: as many as ``rules.horses`` (fewer only when the wall ran
        short)."""
        raw = request.extra.get("horse_tiles", [])
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise RequestError('extra \'horse_tiles\' lists the horse tiles, e.g. ["5m", "4z"]')
        try:
            horses = tuple(parse_tile(t) for t in raw)
        except TileError as exc:
            raise RequestError(f"extra 'horse_tiles': {exc}") from None
        if len(horses) > int(options["horses"]):
            raise RequestError(
                f"extra 'horse_tiles' names {len(horses)} horses, the room buys "
                f"{options['horses']} (rules.horses)"
            )
        kinds = self.tile_kinds(options)
        if any(t not in kinds for t in horses):
            raise RequestError(
                f"extra 'horse_tiles': horses are tiles of this room ({self.set_name(options)})"
            )
        return horses

    def _seat_fact(self, request: ScoreRequest, name: str) -> int | None:
        value = request.extra.get(name)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 4:
            raise RequestError(f"extra {name!r} is a seat 0-3 or null")
        return value

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        self.check_tiles(request, options)
        wilds = self.wilds_of(request, options)
        streak = dealer_streak.streak_of_extra(request.extra)
        horses = self.horses_of(request, options)
        flags = request.flags
        robbing = flags.robbing_kong
        self_drawn = request.from_seat is None
        if robbing and not options["rob_kong"]:
            return ScoreAnswer(legal=False, reason="this room plays without 抢杠胡 (rob_kong)")
        if not self_drawn and not robbing and not options["discard_win"]:
            return ScoreAnswer(
                legal=False, reason="只许自摸: this room wins by self-draw only (discard_win)"
            )
        first_turn = self.flag_fact(request, "first_turn")
        fed_by = self._seat_fact(request, "fed_by")
        hand = counts([*request.hand, request.win_tile])
        melds = len(request.melds)
        kind = gd_fans.shape(
            hand,
            melds,
            wilds,
            seven_pairs=bool(options["seven_pairs"]),
            first_turn=first_turn and self_drawn,
            four_ghosts=bool(options["four_ghosts"]),
            prefer_pairs=bool(options["seven_pairs_double"]),
        )
        if kind is None:
            shapes = "4 sets and a pair" + (", or seven pairs" if options["seven_pairs"] else "")
            return ScoreAnswer(
                legal=False, reason=f"these tiles do not form a winning hand ({shapes})"
            )
        doubles = gd_fans.multipliers(
            kind,
            wilds,
            hand,
            no_ghost_double=bool(options["no_ghost_double"]),
            seven_pairs_double=bool(options["seven_pairs_double"]),
            melds=melds,
            melded=[t for m in request.melds for t in m.tiles],
            all_pungs_double=bool(options["all_pungs_double"]),
            full_flush_double=bool(options["full_flush_double"]),
        )
        points = BASE_POINTS * math.prod(self._fans[f].points for f in doubles)
        replacement = self_drawn and flags.kong_replacement
        hits = horse_hits(horses, request.seat, request.dealer, self.spec.players)
        payer, one_share = self.payer(request, options, replacement, fed_by)
        kept = self.kept_deal(request.seat, request.dealer, streak, options)
        units = self.kong_units(request, options)
        share = self.share(points, hits, kept, units, options)
        deltas = guangdong_deltas(
            self.spec.players,
            request.seat,
            payer,
            share,
            from_seat=request.from_seat if one_share else None,
        )
        ids = [kind, *doubles, *gd_fans.how_won(self_drawn, robbing, replacement)]
        counted = [
            *gd_fans.streak_bonus(kept),
            *gd_fans.horses(hits),
            *(gd_fans.horse_kongs(units, hits) if units is not None else ()),
        ]
        fans = [self._fan(f, 1) for f in ids] + [self._fan(f, n) for f, n in counted]
        extra: dict[str, Any] = {
            "unit": "points",
            "wild": tile_names(sorted(wilds.tiles)),
            "payer": payer,
            "one_share": one_share,
        }
        if horses:
            extra["horse_tiles"] = tile_names(horses)
            extra["horse_hits"] = hits
        if streak > 1:
            extra["streak"] = streak
        if kept:
            extra["streak_bonus"] = self._fans["jie_jie_gao"].points * kept
        if units is not None:
            extra["kong_units"] = units
        held = wilds.held(hand)
        if held and kind != "four_ghosts":
            extra["substitutions"] = self.substitutions(
                hand, wilds, melds, kind, self.tile_kinds(options)
            )
        return ScoreAnswer(legal=True, total=points, fans=tuple(fans), deltas=deltas, extra=extra)

    def payer(
        self, request: ScoreRequest, options: Options, replacement: bool, fed_by: int | None
    ) -> tuple[int | None, bool]:
        """``(the seat paying every share, or None: each pays its own; whether a discard
        win is paid by the discarder's one share)``."""
        if request.flags.robbing_kong:
            return (request.from_seat if options["rob_kong_pays_all"] else None), False
        if request.from_seat is not None:
            if options["discard_payer"] == "discarder":
                return request.from_seat, True
            return None, False
        if replacement and options["kong_bao_pays_all"]:
            feeder = fed_by
            if feeder is None and "fed_by" not in request.extra and request.melds:
                last = request.melds[-1]
                if last.kind is MeldKind.KONG:
                    feeder = last.from_seat
            return feeder, False
        return None, False

    @staticmethod
    def horse_value(points: int, options: Options) -> int:
        """What one horse on the winner adds per payer: 2, or the points (马跟底分)."""
        return points if options["horse_value"] == "points" else BASE_POINTS

    @staticmethod
    def kept_deal(seat: int, dealer: int, streak: int, options: Options) -> int:
        """节节高's count: the wins in a row the dealer kept the deal by (the streak − 1),
        when the dealer wins and the room plays 节节高; else 0 (pub-gd: only the dealer's
        连庄 count is ever above 0)."""
        if not options["jie_jie_gao"] or seat != dealer:
            return 0
        return streak - 1

    def kong_units(self, request: ScoreRequest, options: Options) -> int | None:
        """马跟杠's kong units of the winner (None when the room does not play it): per kong
        what one seat pays for it, 暗杠 2, 补杠 1, 直杠 ``direct_kong`` (pub-gd Award():
        2, 1, 1)."""
        if not options["horse_kong"]:
            return None
        amounts = {**self.kong_amounts, MeldKind.KONG.value: int(options["direct_kong"])}
        return sum(amounts.get(m.kind.value, 0) for m in request.melds if m.kind.is_kong)

    def share(self, points: int, hits: int, kept: int, units: int | None, options: Options) -> int:
        """What one payer pays: the points, + the horse value per horse on the winner,
        + 节节高 (its points per win kept), + 马跟杠 (the kong units per horse on the
        winner)."""
        share = points + self.horse_value(points, options) * hits
        share += self._fans["jie_jie_gao"].points * kept
        if units:
            share += self._fans["horse_kong"].points * units * hits
        return share

    def substitutions(
        self, hand: list[int], wilds: WildSpec, melds: int, kind: str, kinds: frozenset[Tile]
    ) -> list[list[str]]:
        """What each 鬼 stood for in one winning reading: ``[[ghost, stood for], …]``, the
        ghosts held ascending. Found ghost by ghost, each given the lowest tile (not itself
        a ghost) of the room's ``kinds`` with which the hand still wins; a ghost no such
        tile fits stands as itself. A few of the core's cached look-ups each, where listing
        every reading (``core.decompositions``) grows with the ghosts' substitutions."""
        shapes = gd_fans.SEVEN_PAIRS_ONLY if kind == "seven_pairs" else gd_fans.STANDARD_ONLY
        now = list(hand)
        out = []
        for ghost in wilds.held(hand):
            now[ghost] -= 1
            for face in self.tile_set.kinds:
                if face not in kinds or face in wilds.tiles or now[face] >= self.tile_set.copies:
                    continue
                now[face] += 1
                if core.is_win(now, wilds, melds, shapes):
                    out.append(tile_names((ghost, face)))
                    break
                now[face] -= 1
            else:
                now[ghost] += 1
                out.append(tile_names((ghost, ghost)))
        return out

    def _fan(self, fan_id: str, count: int) -> FanScore:
        fan = self._fans[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, fan.points, count)

    def win_deltas_of(
        self, table: Table, win: ComputedWin, horses: tuple[Tile, ...]
    ) -> tuple[int, ...]:
        """A win's deltas once its horses are turned up (the answer kept who pays)."""
        players = table.players
        hits = horse_hits(horses, win.seat, table.record.dealer, players)
        detail = win.detail
        kept = int(detail.get("streak_bonus", 0)) // self._fans["jie_jie_gao"].points
        units = detail.get("kong_units")
        share = self.share(win.total, hits, kept, units, table.options)
        payer = win.detail.get("payer")
        one_share = bool(win.detail.get("one_share"))
        return guangdong_deltas(
            players, win.seat, payer, share, from_seat=win.from_seat if one_share else None
        )

    # ------------------------------------------------------------------ the game

    def bird_count(self, options: Options) -> int:
        return int(options["horses"])

    def wall_tiles(self, options: Options) -> list[Tile]:
        """136 tiles; without the honours (不带字牌: 108, the four 白板 kept when they are
        鬼) or the 万 (不带万) by the room's options (pub-gd OnCreateRoom())."""
        tiles = standard_set(honors=bool(options["honors"]), flowers=False)
        if not options["honors"] and WHITE in self.fixed_ghosts(options):
            tiles += [WHITE] * self.tile_set.copies
        if not options["characters"]:
            tiles = [t for t in tiles if t not in CHARACTERS]
        return tiles

    def fixed_ghosts(self, options: Options) -> frozenset[Tile]:
        rule = wild_rule(self, options)
        return frozenset(rule.fixed) if rule is not None else frozenset()

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The winner deals next; after a drawn hand the dealer stays [seed]. With 节节高 the
        setup carries the dealer's streak: one more when he wins, 1 for a new dealer and
        after a drawn hand (pub-gd ChooseDealer(): the 连庄 count grows only when a win
        keeps the dealer)."""
        dealer = outcome.wins[0].seat if outcome.wins else setup.dealer
        if not self.resolve_options(setup.rules)["jie_jie_gao"]:
            return replace(setup, dealer=dealer)
        won = bool(outcome.wins) and dealer == setup.dealer
        streak = dealer_streak.streak_of_setup(setup) + 1 if won else 1
        return replace(setup, dealer=dealer, extra={**setup.extra, dealer_streak.KEY: streak})

    def setup_events(self, setup: HandSetup) -> list[Event]:
        """节节高: a dealer dealing again after a win opens the hand with his streak."""
        return dealer_streak.setup_events(setup)

    def new_state(self, table: Table) -> GuangdongState:
        return GuangdongState(table, self)


class Horses(Birds):
    """买马 on the table: :class:`~paipu.rules.mechanics.birds.Birds` (the ``bird`` event
    after the win, the wins rescored) with the horses' own seats, counted from the dealer
    with the honours (:func:`~paipu.rules.variants.guangdong.settlement.horse_seat`); a win
    the horses hit gains the ``horse`` fan, as ``paipu score`` counts it."""

    def __init__(self, table: Table, variant: Guangdong) -> None:
        super().__init__(
            table,
            variant.bird_count(table.options),
            lambda win, horses: variant.win_deltas_of(table, win, horses),
            lambda win: table.record.dealer,
        )
        self.variant = variant

    def turn_up(self, event: Bird) -> None:
        super().turn_up(event)
        table = self.table
        for i, win in enumerate(table.wins):
            hits = int(win.detail.get("horse_hits", 0))
            if hits and all(f.id != "horse" for f in win.fans):
                units = win.detail.get("kong_units")
                counted = [
                    *gd_fans.horses(hits),
                    *(gd_fans.horse_kongs(int(units), hits) if units is not None else ()),
                ]
                fans = [self.variant._fan(f, n) for f, n in counted]
                table.wins[i] = replace(win, fans=(*win.fans, *fans))

    def detail(self, win: ComputedWin) -> dict[str, Any]:
        horses = self.tiles or ()
        dealer = self.table.record.dealer
        players = self.table.players
        return {
            "horse_tiles": tile_names(horses),
            "horse_seats": [horse_seat(t, dealer, players) for t in horses],
            "horse_hits": horse_hits(horses, win.seat, dealer, players),
        }


class GuangdongState(VariantState):
    """Guangdong on the table: the 鬼 (:class:`~paipu.rules.mechanics.wilds.Wilds`), the
    horses (:class:`Horses`), kong money and 跟庄, both paid only when someone wins."""

    def __init__(self, table: Table, variant: Guangdong) -> None:
        super().__init__(table)
        options = table.options
        self.variant = variant
        self.wilds = Wilds(table, wild_rule(variant, options))
        self.horses = Horses(table, variant)
        self.streak = Streak(table)
        amounts = {**variant.kong_amounts, "kong": int(options["direct_kong"])}
        self.kong_money = KongMoney(table, amounts)
        self.follow = bool(options["follow_dealer"])
        #: The first go-round's discards while nothing is called (跟庄).
        self.first_discards: list[Tile] = []
        self.followed = False
        #: The last kong that stood: (seat, kind, feeder).
        self.last_kong: tuple[int, MeldKind, int | None] | None = None

    def handlers(self) -> dict[type[Event], Handler]:
        return {
            Indicator: route_indicator(self.table, {"wild": self.wilds.reveal}),
            Bird: self.horses.turn_up,
            DealerStreak: self.streak.declare,  # type: ignore[dict-item]
        }

    def before(self, event: Event) -> bool:
        self.wilds.before(event)
        return False

    def after(self, event: Event) -> None:
        if type(event) is Discard and self.follow and len(self.first_discards) < 4:
            table = self.table
            if table.calls:
                self.follow = False
                return
            self.first_discards.append(event.tile)  # type: ignore[attr-defined]
            if len(self.first_discards) == table.players and len(set(self.first_discards)) == 1:
                self.followed = True
                table.notes.append("follow_dealer")

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        self.kong_money.add(seat, kind, from_seat)
        self.last_kong = (seat, kind, from_seat)

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        table = self.table
        extra: dict[str, Any] = {**self.wilds.extra(), **self.streak.extra()}
        if from_seat is None and flags.kong_replacement and self.last_kong is not None:
            konger, kind, feeder = self.last_kong
            if konger == seat and kind is MeldKind.KONG:
                extra["fed_by"] = feeder
        if from_seat is None and not table.seats[seat].discards and self.wilds.kinds():
            extra["first_turn"] = True
        return flags, extra

    def after_win(self, win: ComputedWin) -> None:
        if win.flags.robbing_kong:
            self.table.notes.append("robbing_kong")
        if win.flags.kong_replacement:
            self.table.notes.append("kong_bao")

    def payments(self) -> list[tuple[int, int, int]]:
        self.horses.check_settled()
        table = self.table
        if not table.wins:  # 荒庄: kong money and 跟庄 are paid only when someone wins
            return []
        out = list(self.kong_money.transfers())
        if self.followed:
            dealer = table.record.dealer
            out.extend((dealer, seat, 1) for seat in range(table.players) if seat != dealer)
        return out
