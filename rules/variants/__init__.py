"""The variant base class (玩法): what a variant is asked by scoring, the replay and self-play.

Each variant is a folder ``rules/variants/<id>/`` (see :mod:`paipu.rules.registry`): its
TOML data, and an ``__init__.py`` defining a :class:`Variant` subclass registered with
:func:`register`, which adds only what cannot be data: the fan evaluator, the settlement,
special events. Beside it the variant keeps its own modules (``fans.py``,
``settlement.py``, ``events.py`` …); what several variants share is a mechanic
(:mod:`paipu.rules.mechanics`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

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
from paipu.rules.replay import Phase, Table
from paipu.rules.score import RequestError, ScoreAnswer
from paipu.rules.shanten import Shape, waits
from paipu.rules.tiles import EAST, Tile, standard_set
from paipu.rules.wall import SharedWall, Wall

if TYPE_CHECKING:
    from paipu.rules.events import Event, Win
    from paipu.rules.melds import MeldKind
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import HandOutcome, ReplayTable
    from paipu.rules.score import ScoreRequest, WinFlags
    from paipu.rules.selfplay import HandSetup

__all__ = [
    "OptionSpec",
    "Options",
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
        """Defaults overridden by ``rules``; an unknown option is an error."""
        if not rules:
            defaults = self.__dict__.get("_defaults")
            if defaults is None:
                defaults = self.__dict__["_defaults"] = self._resolve({})
            return defaults
        return self._resolve(rules)

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

    def new_table(self, record: HandRecord, options: Options) -> ReplayTable:
        """The state machine that replays a hand of this variant."""
        return Table(record, self, options)

    def replay_wall(self, record: HandRecord, options: Options) -> Wall:
        """The wall the hand is drawn from: the record's, or a counted one."""
        if record.wall is not None:
            return SharedWall(len(record.wall), record.wall)
        dealt = self.spec.hand_size * len(record.players)
        return SharedWall(len(self.wall_tiles(options)) - dealt)

    def replay_tile_allowed(self, tile: Tile, options: Options) -> bool:
        return tile in self.tile_kinds(options)

    def tile_kinds(self, options: Options) -> frozenset[Tile]:
        """The kinds of tile (or card) a game of this variant uses."""
        key = tuple(sorted(options.items()))
        cache = self.__dict__.setdefault("_kinds_cache", {})
        if key not in cache:
            cache[key] = frozenset(self.wall_tiles(options))
        return cache[key]

    def replay_event_kinds(self, options: Options) -> frozenset[str]:
        """Event kinds a log of this variant may hold."""
        kinds = {"draw", "discard", "win", *self.spec.calls}
        if self.spec.tiles.get("flowers"):
            kinds.add("flower")
        kinds.update(self.spec.raw.get("events", ()))
        return frozenset(kinds)

    def replay_next_seat(self, table: Table, after: int | None) -> int:
        """The seat that draws after ``after``'s unclaimed discard (winners are skipped)."""
        seat = table.record.dealer if after is None else after
        for _ in range(table.players):
            seat = (seat + 1) % table.players
            if not table.seats[seat].won:
                return seat
        return seat

    def replay_discard_problem(self, table: Table, seat: int, tile: Tile) -> str | None:
        """A rule a discard breaks (e.g. Sichuan's void suit first), or None."""
        return None

    def replay_kong(  # noqa: B027 (a hook: most variants do nothing here)
        self, table: Table, seat: int, kind: MeldKind, from_seat: int | None
    ) -> None:
        """Called after each kong (kong payments live here in variants that have them)."""

    def replay_shapes(self) -> frozenset[Shape]:
        shapes = self.__dict__.get("_shapes")
        if shapes is None:
            shapes = self.__dict__["_shapes"] = frozenset(Shape(name) for name in self.spec.shapes)
        return shapes

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """Tiles completing ``seat``'s hand by shape; () when not ready or not waiting."""
        s = table.seats[seat]
        hand = s.hand
        if sum(hand) != self.spec.hand_size - 3 * len(s.melds):
            return ()
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

    def replay_continues_after_win(self, table: Table, event: Win) -> bool:
        return False

    def replay_exhausted(self, table: Table) -> bool:
        """An exhaustive draw (荒庄): the last discard went unclaimed and no one can draw, or
        a flower drawn as the last tile has nothing left to replace it."""
        if table.phase is Phase.REPLACE:  # a flower or kong on the last tile: no replacement
            return not table.wall.can_replace(table.turn)
        if table.phase is not Phase.CLAIM:
            return False
        return table.wall.left_for(self.replay_next_seat(table, table.discarder)) <= 0

    def replay_settle(self, table: Table) -> tuple[int, ...]:
        """The hand's deltas: by default the sum of its wins' deltas."""
        deltas = [0] * table.players
        for win in table.wins:
            for seat, delta in enumerate(win.deltas):
                deltas[seat] += delta
        return tuple(deltas)

    def replay_special(self, table: Table, event: Event) -> None:
        """Events beyond draws, discards, calls and wins (void, bird, …)."""
        raise table.fail(event, f"{type(event).kind} events are not handled by {self.id}")
