"""上海麻将 (Shanghai): 清混碰 and 敲麻, flowers, 勒子 caps, 承包, 开宝 and 黄番 carried.

Data — tiles, calls, the fan table, the rulesets, the caps, the options — is in
``shanghai.toml``; the fans are :mod:`paipu.rules.variants.shanghai.fans`, the payments
:mod:`paipu.rules.variants.shanghai.settlement`; the rules as implemented, what comes from
the seed and what is inferred: ``docs/variants/shanghai.md``.

The digest's worked example (清混碰, 底 2, 勒子 20): South self-draws 混碰 (4 番) with three
flowers and a pung of 东: a share is (2 + 3 + 1) × 16 = 96, capped at 20.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "shanghai", "seat": 1, "dealer": 0,
...     "hand": "222m333m55m99m", "melds": [{"kind": "pong", "tiles": "111z", "from": 2}],
...     "win_tile": "9m", "flowers": ["1f", "2f", "5f"]})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(4, ['half_flush_all_pungs'], (-20, 60, -20, -20))
>>> answer.extra["share"], answer.extra["uncapped"], answer.extra["flowers"]
(20, 96, 4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from paipu.rules.events import (
    AddedKong,
    ConcealedKong,
    Discard,
    Draw,
    Event,
    Flower,
    Kong,
    Ready,
)
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.dice import Dice, roll
from paipu.rules.mechanics.missed_win_lock import MissedWinLock
from paipu.rules.mechanics.ready import ReadyDeclaration
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.replay import Handler, Phase, VariantState
from paipu.rules.request_checks import check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.shanten import waits
from paipu.rules.tiles import EAST, HONORS, N_KINDS, Tile
from paipu.rules.variants import Options, Variant, VariantError, register
from paipu.rules.variants.shanghai import fans as shanghai_fans
from paipu.rules.variants.shanghai.settlement import capped_share, share_of, win_deltas

if TYPE_CHECKING:
    from paipu.rules.replay import ComputedWin, HandOutcome, Table
    from paipu.rules.score import WinFlags
    from paipu.rules.selfplay import HandSetup

#: The facts a score request's ``extra`` may hold (docs/variants/shanghai.md).
EXTRA_FACTS = ("kaibao", "huang_fan", "chengbao", "ready")
#: The counters a hand carries into the next (the ``dice`` event's extra, HandSetup.extra).
CARRIED = ("kaibao", "huang_fan")
#: The kongs: a replacement draw follows each.
KONGS = (Kong, ConcealedKong, AddedKong)
#: Every tile kind: the waits of a seat holding all eight flowers (八花齐 wins on any draw).
EVERY_KIND = tuple(range(N_KINDS))

#: ``--scenario shanghai-fans``: the dealer is dealt a hand one tile from each rare fan and
#: draws the tile (or, for 八花齐, seven flowers are dealt and the eighth is drawn).
SCENARIO_SETS = {
    "shanghai-fans": {
        "all_honors_all_pungs": ("111z222z333z555z6z", "6z"),
        "all_honors": ("112233z445566z7z", "7z"),
        "full_flush_all_pungs": ("111p333p555p777p9p", "9p"),
        "full_flush": ("1112345678999s", "5s"),
        "eight_flowers": ("1234567f159m268p", "8f"),
        "half_flush_all_pungs": ("111m555m999m111z5z", "5z"),
        "kong_replacement": ("111m234m567m9m111z", "1z9m"),
    },
}


class WinBy(Enum):
    """What a hand wins by: its tiles (4 sets and a pair, or 乱风), its flowers alone (八花齐),
    or nothing."""

    TILES = "tiles"
    FLOWERS = "flowers"
    NONE = "none"


#: The options of the 花 values, in :attr:`Room.points` order.
POINT_OPTIONS = (
    "flower_points",
    "honor_pung_points",
    "kong_points",
    "concealed_kong_points",
    "honor_kong_points",
    "honor_concealed_kong_points",
)
#: Options objects whose reading is kept (one per replayed hand with rules of its own).
ROOMS_KEPT = 256
#: Hands whose reading and fans are kept.
READINGS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What a ruleset (清混碰 / 敲麻) counts, what a win needs, and whether 敲 is required."""

    counted: frozenset[str]
    qualifying: frozenset[str]
    ready: bool


@dataclass(frozen=True, slots=True)
class Room:
    """A room's options as scoring reads them (:meth:`Shanghai.room`)."""

    name: str  # the ruleset's
    ruleset: Ruleset
    honors_any_shape: bool
    kaibao: bool
    huang_fan: bool
    base: int
    lezi: int
    min_flowers: int
    chengbao_calls: int
    points: tuple[int, ...]  # 花 values, in POINT_OPTIONS order


@register
class Shanghai(Variant):
    """上海麻将 — 清混碰 (a win needs a fan) or 敲麻 (declare ready first)."""

    id = "shanghai"
    scenario_sets = SCENARIO_SETS

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, shanghai_fans.REGISTRY, self.id)
        raw = self.spec.raw
        self.rulesets = {
            name: Ruleset(
                frozenset(table["fans"]), frozenset(table["qualifying"]), bool(table["ready"])
            )
            for name, table in raw["rulesets"].items()
        }
        self.double_caps = frozenset(raw["caps"]["double"])
        self.quadruple_caps = frozenset(raw["caps"]["quadruple"])
        named = [
            *(f for r in self.rulesets.values() for f in (*r.counted, *r.qualifying)),
            *self.double_caps,
            *self.quadruple_caps,
        ]
        unknown = sorted(set(named) - set(self.spec.fans.by_id))
        if unknown:
            raise VariantError(f"shanghai.toml: [rulesets] / [caps] name no fan {unknown}")
        self._rooms: dict[int, tuple[Options, Room]] = {}
        self._reading = lru_cache(maxsize=READINGS_KEPT)(self._analysis)

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        kaibao, huang_fan, chengbao, ready = self.facts(request)
        room = self.room(options)
        ruleset = room.ruleset
        shape, scores, fan, ids = self._reading(
            tuple(sorted(request.hand)),
            request.melds,
            request.win_tile,
            len(request.flowers),
            room.name,
            room.honors_any_shape,
            request.flags.kong_replacement,
            kaibao if room.kaibao else 0,
            huang_fan if room.huang_fan else 0,
        )
        if shape is WinBy.NONE:
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form a winning hand (4 sets and a pair"
                + (", or 14 honours" if room.honors_any_shape else "")
                + ")",
            )
        if shape is WinBy.FLOWERS and not request.self_drawn:
            return ScoreAnswer(
                legal=False, reason="八花齐 without a winning shape wins on one's own draw"
            )
        if ruleset.qualifying and not ids & ruleset.qualifying:
            return ScoreAnswer(
                legal=False,
                total=fan,
                fans=scores,
                reason="清混碰: a win needs 碰碰胡, 混一色, 清一色, 风一色 or all eight flowers",
            )
        if ruleset.ready and not ready:
            return ScoreAnswer(
                legal=False,
                total=fan,
                fans=scores,
                reason="敲麻: a seat wins only after 敲 (declaring ready)",
            )
        flowers = self.flower_points(request, room)
        if flowers < room.min_flowers:
            return ScoreAnswer(
                legal=False,
                total=fan,
                fans=scores,
                reason=f"{flowers} 花: this room needs {room.min_flowers} to win",
            )
        caps = 4 if ids & self.quadruple_caps else 2 if ids & self.double_caps else 1
        share = capped_share(room.base, flowers, fan, lezi=room.lezi, caps=caps)
        if chengbao is None and "chengbao" not in request.extra:
            chengbao = liable_seat(
                [request.melds if s == request.seat else () for s in range(spec.players)],
                request.seat,
                request.from_seat,
                room.chengbao_calls,
                either=False,
            )
        deltas = win_deltas(
            spec.players,
            request.seat,
            request.from_seat,
            share,
            robbing=request.flags.robbing_kong,
            liable=chengbao,
        )
        extra: dict[str, Any] = {
            "share": share,
            "uncapped": share_of(room.base, flowers, fan),
            "flowers": flowers,
            "caps": caps if room.lezi > 0 else 0,
        }
        if chengbao is not None:
            extra["chengbao"] = chengbao
        return ScoreAnswer(legal=True, total=fan, fans=scores, deltas=deltas, extra=extra)

    def room(self, options: Options) -> Room:
        """The options as scoring reads them, once per options object (a replayed hand asks
        many times with the same one); the cache holds the object, so its id stays its own."""
        cache = self._rooms
        known = cache.get(id(options))
        if known is not None and known[0] is options:
            return known[1]
        if len(cache) >= ROOMS_KEPT:
            cache.clear()
        name = str(options["ruleset"])
        room = Room(
            name=name,
            ruleset=self.rulesets[name],
            honors_any_shape=bool(options["all_honors_any_shape"]),
            kaibao=bool(options["kaibao"]),
            huang_fan=bool(options["huang_fan"]),
            base=int(options["base"]),
            lezi=int(options["lezi"]),
            min_flowers=int(options["min_flowers"]),
            chengbao_calls=int(options["chengbao_calls"]),
            points=tuple(int(options[key]) for key in POINT_OPTIONS),
        )
        cache[id(options)] = (options, room)
        return room

    def _analysis(
        self,
        hand: tuple[Tile, ...],
        melds: tuple[Meld, ...],
        win_tile: Tile,
        flowers: int,
        ruleset_name: str,
        honors_any_shape: bool,
        kong_replacement: bool,
        kaibao: int,
        huang_fan: int,
    ) -> tuple[WinBy, tuple[FanScore, ...], int, frozenset[str]]:
        """What the tiles win by and the fans they count (remembered: a ready hand is asked
        again on every tile it waits on, and the same wins recur)."""
        ruleset = self.rulesets[ruleset_name]
        tiles = shanghai_fans.ShanghaiHand.of(hand, melds, win_tile, flowers)
        flowers_win = "eight_flowers" in ruleset.counted and shanghai_fans.eight_flowers(tiles)
        if shanghai_fans.shape_wins(tiles, honors_any_shape=honors_any_shape):
            shape = WinBy.TILES
        else:
            shape = WinBy.FLOWERS if flowers_win else WinBy.NONE
            if shape is WinBy.NONE:
                return shape, (), 0, frozenset()
        fans = shanghai_fans.evaluate(
            tiles,
            self.spec.fans,
            ruleset.counted,
            kong_replacement_win=kong_replacement,
            kaibao=kaibao,
            huang_fan=huang_fan,
        )
        scores = tuple(self._fan(fan_id, n) for fan_id, n in fans)
        return (
            shape,
            scores,
            sum(f.points * f.count for f in scores),
            frozenset(f for f, _ in fans),
        )

    def _fan(self, fan_id: str, count: int) -> FanScore:
        fan = self.spec.fans.by_id[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, fan.points, count, fan.excludes)

    def facts(self, request: ScoreRequest) -> tuple[int, int, int | None, bool]:
        """The request's ``extra``: 开宝 and 黄番 doublings, the 承包 seat, 敲 declared."""
        extra = request.extra
        unknown = sorted(set(extra) - set(EXTRA_FACTS))
        if unknown:
            raise RequestError(
                f"unknown extra fact(s) {', '.join(unknown)} (shanghai knows "
                f"{', '.join(EXTRA_FACTS)})"
            )
        counts = []
        for name in CARRIED:
            value = extra.get(name, 0)
            if type(value) is not int or value < 0:
                raise RequestError(f"extra {name!r} counts doublings (0, 1, 2 …), not {value!r}")
            counts.append(value)
        chengbao = extra.get("chengbao")
        if chengbao is not None and (
            type(chengbao) is not int
            or not 0 <= chengbao < self.spec.players
            or chengbao == request.seat
        ):
            raise RequestError("extra 'chengbao' is the liable seat (another seat) or null")
        ready = extra.get("ready", True)
        if not isinstance(ready, bool):
            raise RequestError("extra 'ready' is true or false")
        return counts[0], counts[1], chengbao, ready

    @staticmethod
    def flower_points(request: ScoreRequest, room: Room) -> int:
        """花: each flower tile, each exposed pung of honours, each kong [seed-B: "碰出来的风、
        字，尚有杠牌，都算花"], at the room's values."""
        flower, honor_pung, kong, concealed_kong, honor_kong, honor_concealed_kong = room.points
        points = len(request.flowers) * flower
        for meld in request.melds:
            honor = meld.base >= EAST
            kind = meld.kind
            if kind is MeldKind.PONG:
                points += honor_pung if honor else 0
            elif kind is MeldKind.CONCEALED_KONG:
                points += honor_concealed_kong if honor else concealed_kong
            elif kind is not MeldKind.CHI:
                points += honor_kong if honor else kong
        return points

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> ShanghaiState:
        return ShanghaiState(table, self)

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """The shape's waits; every honour for an all-honour hand (乱风); every tile for a
        seat with all eight flowers (八花齐 wins on its next draw)."""
        s = table.seats[seat]
        hand = s.hand
        if sum(hand) != self.spec.hand_size - 3 * len(s.melds):
            return ()
        options = table.options
        if len(s.flowers) >= shanghai_fans.ALL_FLOWERS and options["ruleset"] == "qinghunpeng":
            return EVERY_KIND
        found = waits(hand, len(s.melds))
        if (
            options["all_honors_any_shape"]
            and not any(hand[:EAST])
            and all(m.base >= EAST for m in s.melds)
        ):
            return tuple(sorted({*found, *(t for t in HONORS if hand[t] < 4)}))
        return found

    def setup_events(self, setup: HandSetup) -> list[Event]:
        """A self-played hand opens with the dealer's dice (rolled from the hand's id) and
        the 开宝 / 黄番 doublings the game carries into it (``setup.extra``)."""
        dice = roll(random.Random(f"{setup.game}:{setup.hand}:dice"))
        return [Dice.of(dice, {k: int(v) for k, v in setup.extra.items() if k in CARRIED})]

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The winner deals (强盗庄); after several wins on one discard the room's rule;
        after a drawn hand the dealer stays [seed-A 3.1, seed-C 1.4]. 开宝 and 黄番 are
        carried into the next hand while hands are drawn, and cleared by a win."""
        dealer = setup.dealer
        options = self.resolve_options(setup.rules)
        if outcome.wins:
            dealer = self.next_dealer(outcome.wins, setup.dealer, options)
            carry = dict.fromkeys(CARRIED, 0)
        else:
            kaibao, huang_fan = carried_in(outcome.record.events, options)
            carry = {"kaibao": kaibao, "huang_fan": huang_fan + 1 if options["huang_fan"] else 0}
        return replace(setup, dealer=dealer, extra=carry)

    def next_dealer(self, wins: tuple[ComputedWin, ...], dealer: int, options: Options) -> int:
        first = wins[0]
        winners = {w.seat for w in wins}
        if len(winners) == 1 or first.from_seat is None:
            return first.seat
        if options["multi_win_dealer"] == "discarder":
            return first.from_seat
        players = self.spec.players
        nearest = min(winners, key=lambda seat: (seat - first.from_seat) % players)
        return (nearest + 1) % players


def carried_in(events: tuple[Event, ...], options: Options) -> tuple[int, int]:
    """The 开宝 and 黄番 doublings a hand carries: its dice event's counters, 开宝 plus one
    when this hand's dice are doubles."""
    for event in events:
        if type(event) is Dice:
            dice: Dice = event  # type: ignore[assignment]
            kaibao = dice.counter("kaibao") + (1 if dice.doubles else 0)
            return (
                kaibao if options["kaibao"] else 0,
                dice.counter("huang_fan") if options["huang_fan"] else 0,
            )
    return 0, 0


def liable_seat(
    melds: list[tuple[Meld, ...]] | list[list[Meld]],
    winner: int,
    from_seat: int | None,
    threshold: int,
    *,
    either: bool,
) -> int | None:
    """承包: the seat the winner made ``threshold`` calls (吃碰杠) from — or, with
    ``either``, that made as many from the winner; the discarder first when it is one, else
    the first in play order after the winner; None without one (or ``threshold`` 0)."""
    if threshold <= 0:
        return None
    players = len(melds)

    def calls(caller: int, feeder: int) -> int:
        return sum(1 for m in melds[caller] if m.from_seat == feeder)

    liable = [
        seat
        for seat in ((winner + k) % players for k in range(1, players))
        if calls(winner, seat) >= threshold or (either and calls(seat, winner) >= threshold)
    ]
    if not liable:
        return None
    return from_seat if from_seat in liable else liable[0]


class ShanghaiState(VariantState):
    """Shanghai on the table: the dice and what the hand carries (开宝, 黄番), 同圈过水 (the
    漏胡 lock of :mod:`paipu.rules.mechanics.missed_win_lock`), 承包 from every seat's calls,
    and in 敲麻 the 敲 (the ready declaration of :mod:`paipu.rules.mechanics.ready`: a seat
    declares before its discard, then discards what it draws, and wins only once declared)."""

    def __init__(self, table: Table, variant: Shanghai) -> None:
        super().__init__(table)
        self.variant = variant
        options = table.options
        lock = options["missed_win_lock"]
        self.lock: MissedWinLock | None = (
            None if lock == "off" else MissedWinLock(table, any_tile=lock == "any_tile")
        )
        self.kaibao = 0
        self.huang_fan = 0
        self.threshold = int(options["chengbao_calls"])
        self.either = options["chengbao_direction"] == "either"
        #: A kong's replacement is still to come, through any flowers it turns up (杠后也需要
        #: 补花 [seed-C 1.6]); and the tile just drawn ended such a chain (杠开).
        self.kong_pending = False
        self.kong_draw = False
        #: 敲 (敲麻 only): the seats' ready declarations and the locked hands.
        self.ready: ReadyDeclaration | None = (
            ReadyDeclaration(table) if variant.rulesets[options["ruleset"]].ready else None
        )

    def handlers(self) -> dict[type[Event], Handler]:
        ready = self.ready
        return {Dice: self.dice, Ready: self.no_ready if ready is None else ready.declare}

    def no_ready(self, event: Ready) -> None:
        raise self.table.fail(event, "清混碰 has no 敲 (ready declaration): that is 敲麻's")

    def dice(self, event: Dice) -> None:
        """The dice come first, before any draw; the counters are the two this game carries."""
        table = self.table
        if table.index != 0:
            raise table.fail(event, "the dice are thrown before the first draw (event 0)")
        unknown = sorted({name for name, _ in event.carry} - set(CARRIED))
        if unknown:
            raise table.fail(
                event,
                f"dice: unknown carried counter(s) {', '.join(unknown)} (shanghai: "
                f"{', '.join(CARRIED)})",
            )
        self.kaibao, self.huang_fan = carried_in((event,), table.options)
        if event.doubles:
            table.notes.append("dice:doubles")

    def before(self, event: Event) -> bool:
        if self.lock is not None and not event.table_event:
            self.lock.before(event)
        if self.ready is not None:
            self.ready.before(event)
        return False

    def after(self, event: Event) -> None:
        event_type = type(event)
        if event_type in KONGS:
            self.kong_pending = True
        elif event_type is Draw:
            self.kong_draw = self.kong_pending and self.table.drawn is not None
            self.kong_pending = False
        elif event_type is Flower:
            self.kong_pending = self.kong_pending or self.kong_draw
            self.kong_draw = False
            seat: int = event.seat  # type: ignore[attr-defined]
            if len(self.table.seats[seat].flowers) >= shanghai_fans.ALL_FLOWERS:
                self.table.refresh_waits(seat)  # 八花齐: the replacement draw itself wins
        elif event_type is Discard:
            self.kong_draw = False
        if self.ready is not None:
            self.ready.after(event)
        lock = self.lock
        if lock is None:
            return
        lock.after(event)
        if event_type is Discard or (event_type is AddedKong and self.table.phase is Phase.ROB):
            lock.offer(event.seat, (event.tile,))  # type: ignore[attr-defined]

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        ready = self.ready
        if ready is not None and not ready.is_ready(seat):
            return f"敲麻: seat {seat} has not declared 敲 (ready) and may not win (不敲不能胡牌)"
        if self.lock is None:
            return None
        problem = self.lock.win_problem(seat, tile, from_seat)
        return None if problem is None else problem.replace("(漏胡)", "(同圈过水)")

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        return None if self.ready is None else self.ready.move_problem(seat, kind, tile)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        return None if self.ready is None else self.ready.discard_problem(seat, tile)

    def ready_seats(self) -> tuple[int, ...]:
        return () if self.ready is None else self.ready.seats()

    def ready_pending(self, seat: int) -> bool:
        return self.ready is not None and self.ready.pending == seat

    def ready_discards(self, seat: int) -> tuple[Tile, ...]:
        ready = self.ready
        table = self.table
        if ready is None or table.phase is not Phase.ACT or table.turn != seat:
            return ()
        if ready.pending == seat or ready.may_declare(seat):
            return ready.discards(seat)
        return ()

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, dict[str, Any]]:
        table = self.table
        liable = liable_seat(
            [s.melds for s in table.seats], seat, from_seat, self.threshold, either=self.either
        )
        if from_seat is None and self.kong_draw and not flags.kong_replacement:
            flags = replace(flags, kong_replacement=True)  # a flower came between (补花)
        extra: dict[str, Any] = {
            "kaibao": self.kaibao,
            "huang_fan": self.huang_fan,
            "chengbao": liable,
        }
        if self.ready is not None:
            extra["ready"] = self.ready.is_ready(seat)
        return flags, extra

    def after_win(self, win: ComputedWin) -> None:
        notes = self.table.notes
        if len(self.table.wins) > 1:
            notes.append("multiple_win")
        if win.flags.robbing_kong:
            notes.append("robbing_kong")
        detail = win.detail
        if detail.get("chengbao") is not None:
            notes.append("chengbao")
        if detail.get("caps") and detail.get("share", 0) < detail.get("uncapped", 0):
            notes.append(f"lezi:{detail['caps']}")
