"""The variant base class (玩法): what a variant is asked by scoring, the replay and self-play.

Each variant is a folder ``rules/variants/<id>/`` (see :mod:`paipu.rules.registry`): its
TOML data, and an ``__init__.py`` defining a :class:`Variant` subclass registered with
:func:`register`, which adds only what cannot be data: the fan evaluator, the settlement,
special events. Beside it the variant keeps its own modules (``fans.py``,
``settlement.py``, ``events.py`` …); what several variants share is a mechanic
(:mod:`paipu.rules.mechanics`). A variant that adds state to the replay table (void suits,
locks, kong money, birds …) returns it from :meth:`Variant.new_state`: a
:class:`~paipu.rules.replay.VariantState` of its own code, which registers the handlers of
its event kinds.

The bases the 108-tile games share are here too: :class:`RegionalVariant` (request checks,
self-play's questions) and :class:`HunanVariant` with its table state :class:`HunanState`
(birds and the 漏胡 lock).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from paipu.rules import legal
from paipu.rules.core import shanten as core_shanten
from paipu.rules.events import AddedKong, Bird, Discard, Draw, Event
from paipu.rules.mechanics.birds import Birds
from paipu.rules.mechanics.kong_reveal import REVEAL_TILES, KongReveal
from paipu.rules.mechanics.missed_win_lock import MissedWinLock
from paipu.rules.registry import (
    Options,
    OptionSpec,
    VariantError,
    VariantSpec,
    get_variant,
    register,
    toml_path,
    variant_ids,
    variants_dir,
)
from paipu.rules.replay import ComputedWin, Handler, Phase, Table, TableSetup, VariantState
from paipu.rules.request_checks import check_extra, check_no_flowers, check_request
from paipu.rules.score import RequestError, ScoreAnswer
from paipu.rules.shanten import Shape, waits
from paipu.rules.tiles import EAST, Tile, TileError, parse_tile, standard_set, tile_name
from paipu.rules.wall import SharedWall, Wall

if TYPE_CHECKING:
    from paipu.rules.core.tiles import TileSet
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import HandOutcome, ReplayTable
    from paipu.rules.score import ScoreRequest, WinFlags
    from paipu.rules.selfplay import HandSetup

#: Suited tile kinds (the 108-tile games have no honours).
SUITED = 27
#: Sets of rules (and the options derived from each) a variant remembers before it forgets
#: them all (:meth:`Variant.resolve_options`, :meth:`Variant.per_options`).
_REMEMBERED = 256
_T = TypeVar("_T")

__all__ = [
    "HunanState",
    "HunanVariant",
    "OptionSpec",
    "Options",
    "RegionalVariant",
    "Variant",
    "VariantError",
    "VariantSpec",
    "get_variant",
    "register",
    "toml_path",
    "variant_ids",
    "variants_dir",
]


class Variant(ABC):
    """A playable variant: its :class:`VariantSpec` plus the behaviour that is code."""

    id: ClassVar[str]
    spec: VariantSpec
    #: Named sets of prepared deals for ``paipu simulate --scenario`` (data of the variant;
    #: :func:`paipu.selfplay.scenarios` reads them).
    scenario_sets: ClassVar[Mapping[str, Any]] = {}

    def __init__(self) -> None:
        self.spec = VariantSpec.load(self.id)

    def keeps_default(self, hook: str) -> bool:
        """Whether this variant keeps the base class's replay hook named ``hook`` (the replay
        table then runs the default behaviour inline, off the per-event path)."""
        return getattr(type(self), hook) is getattr(Variant, hook)

    def resolve_options(self, rules: Mapping[str, Any] | None = None) -> Options:
        """Defaults overridden by ``rules``; an unknown option is an error.

        The answer is remembered for each ``rules`` of hashable values (a corpus's hands
        share a few: Botzone's are all ``{"wall": "duplicate"}``), keyed by each value's
        type too (``True`` is not ``1`` to an option), so the hands of one set of rules
        share one :class:`Options` and what :meth:`per_options` keeps for it."""
        if not rules:
            defaults = self.__dict__.get("_defaults")
            if defaults is None:
                defaults = self.__dict__["_defaults"] = self._resolve({})
            return defaults
        try:
            key = tuple([(name, type(value), value) for name, value in rules.items()])
            resolved = self.__dict__.setdefault("_resolved", {})
            options = resolved.get(key)
        except TypeError:  # an unhashable value (a list): resolved every time
            return self._resolve(rules)
        if options is None:
            options = self._resolve(rules)
            if len(resolved) >= _REMEMBERED:
                resolved.clear()
            resolved[key] = options
        return options

    def per_options(self, name: str, options: Options, build: Callable[[], _T]) -> _T:
        """``build()``, remembered for this very ``options`` object under ``name``: what the
        replay derives from the options alone (the tile kinds, the event kinds, the size of
        a counted wall) is worked out once for the hands that share them
        (:meth:`resolve_options` hands out one object per set of rules)."""
        memo = self.__dict__.setdefault("_per_options", {})
        key = (name, id(options))
        kept = memo.get(key)
        if kept is not None and kept[0] is options:
            return cast("_T", kept[1])
        value = build()
        if len(memo) >= _REMEMBERED:
            memo.clear()
        memo[key] = (options, value)  # the options held, so their id is not reused
        return value

    def _resolve(self, rules: Mapping[str, Any]) -> Options:
        values = {name: spec.default for name, spec in self.spec.options.items()}
        for name, value in (rules or {}).items():
            if name not in self.spec.options:
                known = ", ".join(self.spec.options) or "none"
                raise VariantError(f"unknown option {name!r} for {self.id} (options: {known})")
            values[name] = self.spec.options[name].check(value)
        return Options(values)

    def wall_tiles(self, options: Options) -> list[Tile]:
        """Every tile of a full set for this variant."""
        tiles = self.spec.tiles
        return standard_set(
            honors=bool(tiles.get("honors", True)), flowers=bool(tiles.get("flowers", False))
        )

    @abstractmethod
    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        """Score one finished hand."""

    # -------------------------------------------------------------- replay hooks
    # The replay state machine (rules/replay.py) asks the variant through these; the
    # defaults describe a plain game: one shared wall, one winner, the win's deltas.

    # -------------------------------------------------------------- the next hand
    # Self-play (paipu.selfplay) plays hands; the rules say who deals the next one.

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """Who deals the next hand and in which round: by default the deal passes to the
        next seat after every hand and the round wind changes once everyone has dealt."""
        players = len(setup.players)
        following = setup.hand + 1
        return replace(
            setup, dealer=(setup.dealer + 1) % players, round_wind=EAST + (following // players) % 4
        )

    def setup_events(self, setup: HandSetup) -> list[Event]:
        """The table events a self-played hand opens with, from what its setup carries from
        the hands before (``setup.extra``: a dealer's streak); none by default (the
        ``setup_events`` step of ``[bot] steps`` asks)."""
        return []

    def new_table(self, record: HandRecord, options: Options) -> ReplayTable:
        """The state machine that replays a hand of this variant."""
        return Table(record, self, options)

    def replay_setup(self, options: Options) -> TableSetup:
        """What the replay table takes from this variant and ``options`` alone (its tile
        set and kinds, its event kinds, which hooks keep their defaults), remembered for
        ``options`` (:meth:`per_options`)."""
        return self.per_options("table_setup", options, lambda: TableSetup(self, options))

    def replay_wall(self, record: HandRecord, options: Options) -> Wall:
        """The wall the hand is drawn from: the record's, or a counted one."""
        if record.wall is not None:
            return SharedWall(len(record.wall), record.wall)
        dealt = self.spec.hand_size * len(record.players)
        return SharedWall(self.wall_size(options) - dealt)

    def wall_size(self, options: Options) -> int:
        """How many tiles a full set has (``len(wall_tiles(options))``, remembered)."""
        return self.per_options("wall_size", options, lambda: len(self.wall_tiles(options)))

    def replay_tile_allowed(self, tile: Tile, options: Options) -> bool:
        return tile in self.tile_kinds(options)

    def tile_kinds(self, options: Options) -> frozenset[Tile]:
        """The kinds of tile (or card) a game of this variant uses."""
        return self.per_options("tile_kinds", options, lambda: frozenset(self.wall_tiles(options)))

    def replay_event_kinds(self, options: Options) -> frozenset[str]:
        """Event kinds a log of this variant may hold (remembered for ``options``)."""
        return self.per_options("event_kinds", options, lambda: self._event_kinds(options))

    def _event_kinds(self, options: Options) -> frozenset[str]:
        kinds = {"draw", "discard", "win", *self.spec.calls}
        if self.spec.tiles.get("flowers"):
            kinds.add("flower")
        kinds.update(self.spec.raw.get("events", ()))
        return frozenset(kinds)

    def new_state(self, table: Table) -> VariantState | None:
        """The variant's own state on ``table`` and the rules that read it (void suits,
        locks, kong money, birds …: a :class:`~paipu.rules.replay.VariantState` of the
        variant's code); None for a variant that adds nothing to the mahjong table."""
        return None

    def replay_next_seat(self, table: Table, after: int | None) -> int:
        """The seat that draws after ``after``'s unclaimed discard: winners are skipped, and
        the variant's state may choose (:meth:`paipu.rules.replay.Table.next_seat`)."""
        return table.next_seat(after)

    def replay_shapes(self) -> frozenset[Shape]:
        shapes = self.__dict__.get("_shapes")
        if shapes is None:
            shapes = self.__dict__["_shapes"] = frozenset(Shape(name) for name in self.spec.shapes)
        return shapes

    def replay_tile_set(self, options: Options) -> TileSet | None:
        """The variant's tile set when the table must count hands on it rather than on the
        34 standard kinds (十万麻将's 1–10 suits); None for the standard tiles."""
        return None

    def replay_chow_problem(self, tiles: tuple[Tile, ...], options: Options) -> str | None:
        """Why ``tiles`` (ascending codes) are not a chi, asked when they are not three
        consecutive standard ranks; None when the variant's tile set makes them one."""
        return "a chi is three consecutive tiles of one suit"

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """Tiles completing ``seat``'s hand by shape; () when not ready or not waiting."""
        s = table.seats[seat]
        hand = s.hand
        if sum(hand) != self.spec.hand_size - 3 * len(s.melds):
            return ()
        wilds = table.wilds
        if wilds is not None and not wilds.plain:  # the wilds count (rules/core/)
            return core_shanten.waits(hand, wilds, len(s.melds), self.replay_shapes())
        return waits(hand, len(s.melds), self.replay_shapes())

    def replay_score(
        self, table: Table, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> ScoreAnswer:
        return self.replay_score_request(
            table.request_for(seat, tile, from_seat, flags), table.options
        )

    def replay_score_request(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        try:
            return self.score(request, options)
        except RequestError as exc:
            return ScoreAnswer.failure(str(exc))

    def replay_last_tile(self, table: Table, seat: int, from_seat: int | None) -> bool:
        """Whether a win now is on the last tile (妙手回春 / 海底捞月)."""
        return table.wall.left() == 0

    def replay_discard_problem(self, table: Table, seat: int, tile: Tile) -> str | None:
        """A rule a discard breaks now (the void suit first …): :mod:`paipu.rules.legal`'s
        answer, which asks the variant's state; None when the discard is allowed."""
        return legal.discard_problem(table, seat, tile)

    def replay_exhausted(self, table: Table) -> bool:
        """An exhaustive draw (荒庄) now (:meth:`Table.exhausted
        <paipu.rules.replay.Table.exhausted>`, the variant's state's rule included)."""
        return table.exhausted()


# ---------------------------------------------------------------------- the 108-tile games


class RegionalVariant(Variant):
    """What the 108-tile regional variants share: the checks of a score request, and the
    answers self-play asks of them (void suits, kong reveals, 要海底, birds). Their table
    state is each variant's own :class:`~paipu.rules.replay.VariantState`."""

    #: Keys a score request's ``extra`` may hold in this variant.
    extra_facts: tuple[str, ...] = ()

    def check(self, request: ScoreRequest) -> None:
        """Raise :class:`RequestError` for seats, tiles, melds and facts that cannot be."""
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        for tile in (*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles)):
            if tile >= SUITED:
                raise RequestError(
                    f"{tile_name(tile)} is not a tile of {spec.name_zh}: 108 tiles, 万 筒 条 only"
                )
        check_no_flowers(request, spec.name_zh)
        check_extra(request, self.id, self.extra_facts)

    @staticmethod
    def birds_of(request: ScoreRequest) -> tuple[Tile, ...]:
        raw = request.extra.get("birds", [])
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise RequestError('extra \'birds\' lists the bird tiles, e.g. ["5m", "3s"]')
        try:
            birds = tuple(parse_tile(t) for t in raw)
        except TileError as exc:
            raise RequestError(f"extra 'birds': {exc}") from None
        if any(t >= SUITED for t in birds):
            raise RequestError("extra 'birds': birds are tiles of the 108-tile set")
        return birds

    @staticmethod
    def flag_fact(request: ScoreRequest, name: str) -> bool:
        value = request.extra.get(name, False)
        if not isinstance(value, bool):
            raise RequestError(f"extra {name!r} is true or false")
        return value

    # ------------------------------------------------------------------ for self-play

    def reveal_problem(self, table: Table, seat: int) -> str | None:
        """Why ``seat`` may not reveal tiles (开杠) after its kong now."""
        return f"{self.id} has no 开杠 (kong reveal)"

    def reveals(self, options: Options) -> bool:
        """Whether a kong may be followed by a reveal (开杠) instead of a replacement."""
        return False

    def haidi_choice(self, options: Options) -> bool:
        """Whether the last tile is offered in turn and may be declined (要海底)."""
        return False

    def declares_voids(self) -> bool:
        """Whether each seat declares a void suit before play (定缺)."""
        return False

    def exchange_setting(self, options: Options) -> str:
        """换三张: ``off``, the direction the room passes in, or ``dice`` (one per hand):
        :data:`paipu.rules.mechanics.exchange.SETTINGS`."""
        return "off"

    def opening_wins(self, table: Table, seat: int) -> list[tuple[str, tuple[Tile, ...]]]:
        """The opening wins (起手胡) a seat can show now, with the tiles it shows."""
        state = table.state
        return [] if state is None else state.opening_wins(seat)

    def bird_count(self, options: Options) -> int:
        """Birds drawn after a win (扎鸟); 0 for none."""
        return 0

    def turns_up(self, options: Options) -> bool:
        """Whether a tile is turned up from the wall after a win (翻牌, e.g. 翻鸡)."""
        return False

    def stake_choices(self, table: Table, seat: int) -> tuple[int, ...]:
        """The stake levels ``seat`` chooses among before the first draw (the doubling bets
        of the ``stakes`` step, 坐庄 / 拉庄), the first meaning none; () for no choice."""
        return ()

    def stake_event(self, table: Table, seat: int, level: int) -> Event:
        """The event that records ``seat``'s stake ``level`` (one of :meth:`stake_choices`)."""
        raise NotImplementedError(f"{self.id} has no stakes")


class HunanVariant(RegionalVariant):
    """What Changsha and Zhuanzhuan share: birds (扎鸟) after the win, 漏胡 locks, the 海底
    taker, and the deal passing to the winner (their table state: :class:`HunanState`)."""

    def bird_count(self, options: Options) -> int:
        return int(options["birds"])

    def bird_origin(self, table: Table, win: ComputedWin) -> int:
        """The seat a bird of rank 1 lands on: the winner or the dealer (option)."""
        return win.seat if table.options["bird_origin"] == "winner" else table.record.dealer

    def win_deltas_of(
        self, table: Table, win: ComputedWin, birds: tuple[Tile, ...]
    ) -> tuple[int, ...]:
        """A win's deltas once the birds are known."""
        raise NotImplementedError

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The winner deals next; after several wins on one tile (通炮) the discarder; after
        a draw the seat that took the last tile (海底), else the dealer stays."""
        dealer = setup.dealer
        if outcome.wins:
            first = outcome.wins[0]
            several = len({w.seat for w in outcome.wins}) > 1
            dealer = first.from_seat if several and first.from_seat is not None else first.seat
        else:
            taker = haidi_taker(outcome.record, self.spec.hand_size)
            if taker is not None:
                dealer = taker
        return replace(setup, dealer=dealer)


class HunanState(VariantState):
    """The table state of the Hunan games: the birds (扎鸟, :class:`~paipu.rules.mechanics.
    birds.Birds`) and the 漏胡 lock (:class:`~paipu.rules.mechanics.missed_win_lock.
    MissedWinLock`, unless the room plays without it)."""

    def __init__(self, table: Table, variant: HunanVariant) -> None:
        super().__init__(table)
        self.variant = variant
        options = table.options
        self.birds = Birds(
            table,
            variant.bird_count(options),
            lambda win, birds: variant.win_deltas_of(table, win, birds),
            lambda win: variant.bird_origin(table, win),
        )
        lock = options["missed_win_lock"]
        self.lock: MissedWinLock | None = (
            None if lock == "off" else MissedWinLock(table, any_tile=lock == "any_tile")
        )

    def handlers(self) -> dict[type[Event], Handler]:
        return {Bird: self.birds.turn_up}

    def before(self, event: Event) -> bool:
        if self.lock is not None and not event.table_event:
            self.lock.before(event)
        return False

    def after(self, event: Event) -> None:
        lock = self.lock
        if lock is None:
            return
        lock.after(event)
        event_type = type(event)
        if event_type is Discard or (event_type is AddedKong and self.table.phase is Phase.ROB):
            lock.offer(event.seat, (event.tile,))  # type: ignore[attr-defined]

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        return None if self.lock is None else self.lock.win_problem(seat, tile, from_seat)

    def after_win(self, win: ComputedWin) -> None:
        notes = self.table.notes
        if len(self.table.wins) > 1:
            notes.append("multiple_win")
        if win.flags.robbing_kong:
            notes.append("robbing_kong")

    def payments(self) -> list[tuple[int, int, int]]:
        self.birds.check_settled()
        return []


def haidi_taker(record: HandRecord, hand_size: int) -> int | None:
    """The seat that took the last tile of the wall (海底), from the record's events."""
    size = (
        len(record.wall)
        if record.wall is not None
        else SUITED * 4 - hand_size * len(record.players)
    )
    taken = 0
    for event in record.events:
        if isinstance(event, Draw):
            taken += 1
        elif isinstance(event, KongReveal):
            taken += REVEAL_TILES
        else:
            continue
        if taken >= size:
            return event.seat
    return None
