"""The replay state machine (牌局复盘): apply a hand's events one by one and check each.

:class:`Table` holds what is on the table — each seat's concealed tiles, melds, discards and
flowers, whose move it is, the wall when the record has one — and :meth:`Table.apply`
takes one event. An event the rules do not allow raises :class:`RuleViolation` naming the
event index, the event and the rule broken, with a one-line summary of the table.

While replaying, the table derives each win's situation (self-draw, kong replacement,
robbing a kong, last tile, last of its kind), scores it with the variant, and records what
deal-in analytics need: a :class:`DiscardFact` per discard and a :class:`MissedWin` for
every legal win a player passed over. :func:`replay` runs a whole hand and compares the
result with the record: :class:`HandOutcome`.

One table serves every mahjong variant. A variant plugs in two ways:

* the methods of :class:`~paipu.rules.variants.Variant` whose names start with
  ``replay_`` (the wall, the waits, the scoring, the last tile): rules that read no state
  of their own;
* its :class:`VariantState` (``Variant.new_state``): an object of the variant's own code,
  held by the table as :attr:`Table.state`, which keeps what the variant adds to the
  table (void suits, 漏胡 locks, kong money, birds, a kong reveal …, most of them
  mechanics of :mod:`paipu.rules.mechanics` it composes) and answers the table's hooks
  with the rules that read it; its event kinds come as handlers it registers
  (:meth:`VariantState.handlers`, event type → handler), merged into the table's dispatch.

Which claims, kongs and discards are legal is :mod:`paipu.rules.legal`'s answer: the
handlers ask it of each logged move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from mypy_extensions import mypyc_attr

from paipu.rules import legal
from paipu.rules.core import shanten as core_shanten
from paipu.rules.events import (
    AddedKong,
    Chi,
    ConcealedKong,
    Discard,
    Draw,
    Event,
    Flower,
    Kong,
    Pong,
    Win,
)
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.record import HandRecord
from paipu.rules.registry import VariantError, get_variant
from paipu.rules.score import FanScore, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.shanten import waits
from paipu.rules.tiles import N_KINDS, TEN_FIRST, Tile, format_tiles, is_flower, tile_name

if TYPE_CHECKING:
    from paipu.rules.core.tiles import TileSet
    from paipu.rules.core.wild import WildSpec
    from paipu.rules.variants import Options, Variant


class RuleViolation(Exception):  # noqa: N818 (the name says what it is)
    """An event the rules do not allow, with where and why."""

    def __init__(self, index: int | None, event: Event | None, rule: str, state: str = "") -> None:
        self.index = index
        self.event = event
        self.rule = rule
        self.state = state
        super().__init__(self.describe())

    def describe(self) -> str:
        where = "" if self.index is None else f"event {self.index}"
        what = "" if self.event is None else f" {_show(self.event)}"
        state = f" [{self.state}]" if self.state else ""
        head = f"{where}{what}: " if where or what else ""
        return f"{head}{self.rule}{state}"


def _show(event: Event) -> str:
    import json

    return json.dumps(event.to_array(), ensure_ascii=False)


class Phase(Enum):
    """Whose move it is and what kind of move."""

    DRAW = "draw"  # ``turn`` must draw
    ACT = "act"  # ``turn`` holds a full hand: discard, kong, flower or self-draw win
    CLAIM = "claim"  # the last discard may be claimed, else the next seat draws
    REPLACE = "replace"  # ``turn`` must draw a replacement tile (after a kong or flower)
    ROB = "rob"  # an added kong may be robbed, else its replacement draw
    ENDED = "ended"


@dataclass(init=False)
class SeatState:
    """What one seat holds (a seat at the start of a hand: the table makes four a hand, so
    the fields are set by a plain ``__init__`` rather than the dataclass's factories)."""

    hand: list[int]
    melds: list[Meld]
    discards: list[Tile]  # every discard, claimed or not
    pool: list[Tile]  # discards still lying on the table
    flowers: list[Tile]  # flowers set aside
    held_flowers: list[Tile]  # flowers in hand, not yet declared
    set_aside: list[Tile]  # tiles won on by a seat playing on (血流)
    draws: int
    won: bool
    waits: tuple[Tile, ...]
    exposed: int  # melds shown on the table (not concealed kongs)
    #: What the hand gained since its waits were worked out: :data:`_NO_DRAW` (nothing),
    #: the one tile drawn, or :data:`_DRAWS` (more; see :meth:`Table._discard`).
    since_waits: int

    def __init__(self, kinds: int = N_KINDS) -> None:
        self.hand = [0] * kinds
        self.melds = []
        self.discards = []
        self.pool = []
        self.flowers = []
        self.held_flowers = []
        self.set_aside = []
        self.draws = 0
        self.won = False
        self.waits = ()
        self.exposed = 0
        self.since_waits = _NO_DRAW

    @property
    def tile_count(self) -> int:
        return sum(self.hand) + len(self.held_flowers)

    def concealed(self) -> list[Tile]:
        hand = self.hand
        return [t for t in range(len(hand)) for _ in range(hand[t])]


@dataclass(frozen=True, slots=True)
class ComputedWin:
    """A win as the engine scores it."""

    seat: int
    from_seat: int | None
    tile: Tile
    total: int
    fans: tuple[FanScore, ...]
    deltas: tuple[int, ...]
    flags: WinFlags
    index: int = -1  # the win event's index in the hand
    source: str = ""  # self_draw | discard | robbing_kong (zipai also: flip, another's flip)
    detail: Mapping[str, Any] = field(default_factory=dict)  # the score answer's extra facts


class DiscardFact(NamedTuple):
    """What deal-in analytics need about one discard (放铳风险)."""

    index: int  # type: ignore[assignment]  # the event index (shadows tuple.index)
    seat: int
    turn: int  # the discarder's own discard count, 1-based (巡)
    tile: Tile
    visible: int  # other copies the discarder could see: own hand, discards, exposed melds
    tiles_left: int  # tiles still to draw after this discard
    opponent_melds: tuple[int, ...]  # exposed melds of each other seat, in seat order after
    opponent_ready: tuple[bool, ...]  # each other seat was ready (听牌) by shape
    opponent_can_win: tuple[bool, ...]  # the tile completes that seat's hand with enough fan
    won_on: bool  # someone won on it (放铳)
    claimed: bool  # someone chi/pong/konged it


_new_tuple = tuple.__new__  # a DiscardFact from its fields (what its ``_make`` does, inline)


def tile_total(counts: list[int]) -> int:
    """``sum(counts)`` as a compiled loop: the builtin, called from compiled code, cost
    about twice as much on a hand's 34 counts (the waits ask it after every discard)."""
    total = 0
    for count in counts:
        total += count
    return total


#: A score request's parts that vary on one table (:meth:`Table._asked`): the seat, the
#: tile, the seat it is won from, the hand, the melds, the flowers, the flags, the extra facts.
_Asked = tuple[
    int,
    Tile,
    int | None,
    tuple[Tile, ...],
    tuple[Meld, ...],
    tuple[Tile, ...],
    WinFlags,
    Mapping[str, Any],
]
#: Every situation of a win, made once (:meth:`Table.win_flags`): a frozen dataclass is built
#: by its interpreted ``__init__``, even from compiled code.
_WIN_FLAGS: dict[tuple[bool, bool, bool, bool], WinFlags] = {
    (a, b, c, d): WinFlags(a, b, c, d)
    for a in (False, True)
    for b in (False, True)
    for c in (False, True)
    for d in (False, True)
}
#: The claimed melds, made once for each set of tiles and seat claimed from and shared
#: (frozen, like the events): a few hundred at most.
_CHI_MELDS: dict[tuple[tuple[Tile, ...], int | None], Meld] = {}
_PONG_MELDS: dict[tuple[tuple[Tile, ...], int | None], Meld] = {}
_KONG_MELDS: dict[tuple[tuple[Tile, ...], int | None], Meld] = {}


def _shared_meld(
    kind: MeldKind,
    melds: dict[tuple[tuple[Tile, ...], int | None], Meld],
    tiles: tuple[Tile, ...],
    from_seat: int | None,
) -> Meld:
    """``Meld(kind, tiles, from_seat)``, the one made before when there is one in ``melds``."""
    key = (tiles, from_seat)
    meld = melds.get(key)
    if meld is None:
        meld = melds[key] = Meld(kind, tiles, from_seat)
    return meld


#: :attr:`SeatState.since_waits`: nothing drawn since the waits; several tiles (or unknown).
_NO_DRAW = -1
_DRAWS = -2
#: Score answers a table keeps (:meth:`Table._score`).
_RECENT_SCORES = 4


def _seat_orders(players: int) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]:
    """The other seats after each seat, in seat order, and "no other seat wins" (kept for
    each number of players: every table of a corpus asks the same)."""
    orders = _SEAT_ORDERS.get(players)
    if orders is None:
        others = tuple(
            tuple((seat + k) % players for k in range(1, players)) for seat in range(players)
        )
        orders = _SEAT_ORDERS[players] = (others, (False,) * (players - 1))
    return orders


_SEAT_ORDERS: dict[int, tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]] = {}


class MissedWin(NamedTuple):
    """A legal win a player passed over (漏胡 / 不胡)."""

    index: int  # type: ignore[assignment]  # event index of the discard or draw offering it
    seat: int
    tile: Tile
    from_seat: int | None  # None: a self-draw that was not declared
    total: int


class ReplayTable(Protocol):
    """What :func:`replay` needs from a variant's state machine (:class:`Table` for the
    mahjong variants; the zipai games bring their own)."""

    wins: list[ComputedWin]
    discard_facts: list[DiscardFact]
    missed: list[MissedWin]

    def apply(self, index: int, event: Event) -> None: ...

    def finish(self) -> tuple[str, tuple[int, ...]]: ...

    def melds_per_seat(self) -> tuple[int, ...]: ...

    def ready_per_seat(self) -> tuple[bool, ...]: ...


#: An event handler: takes the event, checks it and changes the table (or raises).
Handler = Callable[[Any], None]


@mypyc_attr(allow_interpreted_subclasses=True)  # the variants' states derive from it
class VariantState:
    """What a variant keeps on the table beside the mahjong state, and the rules that read
    it: the table calls these hooks; each default is "nothing to add". A variant's
    ``new_state(table)`` returns its own subclass, whose code (in the variant's folder,
    composing :mod:`paipu.rules.mechanics`) owns its fields; the table holds it as
    :attr:`Table.state`."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def handlers(self) -> dict[type[Event], Handler]:
        """The variant's own event kinds: event type → handler (merged into the table's
        dispatch, for the kinds the variant's TOML lists)."""
        return {}

    def before(self, event: Event) -> bool:
        """Rules an event breaks before the table looks at it (raise), and effects of its
        arrival (a passed win locks its seat); True when the state has applied the event
        itself (a win on the tiles of a kong reveal)."""
        return False

    def after(self, event: Event) -> None:
        """Effects of an event the table has applied (a draw clears a lock)."""

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        """Why a claim or kong (``kind``: a :class:`~paipu.rules.legal.MoveKind` value) of
        ``tile`` by ``seat`` is not allowed now (定缺, 过时不候 …); None when it is."""
        return None

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        """Why ``seat`` may not discard ``tile`` now (the void suit first, the 海底 tile)."""
        return None

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        """Why a win the tiles allow is not allowed now (漏胡)."""
        return None

    def win_flags(self, seat: int, tile: Tile, from_seat: int | None) -> WinFlags | None:
        """The situation of a win the state knows better than the table (on the tiles of a
        kong reveal); None: the table's."""
        return None

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        """The facts the state adds to a score request: situational flags and ``extra``."""
        return flags, {}

    def next_seat(self, after: int | None) -> int | None:
        """The seat that draws next after ``after``'s discard when the state decides it
        (要海底, 血战); None: the next seat still playing."""
        return None

    def exhausted(self) -> bool | None:
        """Whether the hand is drawn now when the state decides it; None: the table's rule."""
        return None

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        """A kong stood (kong money is paid here)."""

    def after_win(self, win: ComputedWin) -> None:
        """Effects of a win beside its own deltas (呼叫转移, notes)."""

    def continues_after_win(self, event: Win) -> bool:
        """Whether the hand goes on after this win (血战到底)."""
        return False

    def payments(self) -> list[tuple[int, int, int]]:
        """Payments of the hand beside its wins (payer, receiver, amount): kong money,
        opening wins, the checks of a drawn hand; raise when the record lacks a part."""
        return []

    def opening_wins(self, seat: int) -> list[tuple[str, tuple[Tile, ...]]]:
        """The opening wins (起手胡) ``seat`` can show now, with the tiles it shows."""
        return []

    # -- the ready declaration (听 / 报听, rules/mechanics/ready.py)

    def ready_seats(self) -> tuple[int, ...]:
        """The seats that have declared ready (听), in seat order."""
        return ()

    def ready_discards(self, seat: int) -> tuple[Tile, ...]:
        """The discards with which ``seat`` may now declare ready on its turn, or must
        complete the declaration it made on a chi (吃听); () when neither."""
        return ()

    def ready_pending(self, seat: int) -> bool:
        """Whether ``seat`` has declared ready and its declaring discard is still to come."""
        return False

    def ready_chi_runs(
        self, seat: int, tile: Tile, runs: list[tuple[Tile, ...]]
    ) -> list[tuple[Tile, ...]]:
        """Of the runs ``seat`` could chi ``tile`` with, those that declare ready (吃听)."""
        return []

    def due_indicator(self) -> str | None:
        """The role of an indicator event the table expects next (``bao``: the 宝 after the
        deal, a 换宝), for self-play to turn it up; None when none is due."""
        return None

    def penalties(self) -> list[tuple[int, int]]:
        """Amounts seats lose to nobody (seat, amount): an escape penalty (逃跑扣分)."""
        return []

    def tiles_off_seats(self) -> list[Tile]:
        """Tiles taken from the wall that lie on no seat (the hidden 宝): the invariants
        count them as placed."""
        return []


class TableSetup:
    """What a :class:`Table` takes from its variant and options alone, worked out once for
    the hands that share them (:meth:`~paipu.rules.variants.Variant.replay_setup`)."""

    def __init__(self, variant: Variant, options: Options) -> None:
        #: :meth:`~paipu.rules.variants.Variant.replay_tile_set`
        self.tile_set: TileSet | None = variant.replay_tile_set(options)
        self.kind_count = N_KINDS if self.tile_set is None else max(N_KINDS, self.tile_set.size)
        self.kinds: frozenset[str] = variant.replay_event_kinds(options)
        self.tile_kinds: frozenset[Tile] = variant.tile_kinds(options)
        #: (waits function, shapes, hand size) when the variant computes waits the default way.
        self.plain_waits: tuple[Any, frozenset[Any], int] | None = (
            (waits, variant.replay_shapes(), variant.spec.hand_size)
            if variant.keeps_default("replay_waits")
            else None
        )
        self.plain_score: bool = variant.keeps_default("replay_score")
        self._every_kind: bool | None = None

    def allows_every(self, handlers: Mapping[type[Event], Handler]) -> bool:
        """Whether the options allow every kind of event the table's own ``handlers`` take
        (worked out for the first table, the same for every other)."""
        every = self._every_kind
        if every is None:
            every = self._every_kind = all(event_type.kind in self.kinds for event_type in handlers)
        return every


class Table:
    """The state of one hand while its events are applied."""

    def __init__(self, record: HandRecord, variant: Variant, options: Options) -> None:
        self.record = record
        self.variant = variant
        self.options = options
        self.players = len(record.players)
        if self.players != variant.spec.players:
            raise RuleViolation(
                None,
                None,
                f"{variant.id} is played by {variant.spec.players} "
                f"players, the record names {self.players}",
            )
        #: The variant's tile set where it is not the standard one (十万麻将's 1–10 suits:
        #: the tens are codes 42–44), else None; hands and counts are then ``kind_count``
        #: long (the standard 34 otherwise), and chows follow the set's ranks.
        setup = self._setup = variant.replay_setup(options)
        self.tile_set: TileSet | None = setup.tile_set
        self.kind_count = setup.kind_count
        self.seats = [SeatState(self.kind_count) for _ in range(self.players)]
        self.phase = Phase.DRAW
        self.turn = record.dealer
        self.index = -1
        self.last_discard: Tile | None = None
        self.discarder: int | None = None
        self.robbed_tile: Tile | None = None
        self.after_kong = False  # the pending or last draw replaces a kong
        self.replacement_from_kong = False
        self.wins: list[ComputedWin] = []
        self.discard_facts: list[DiscardFact] = []
        self.missed: list[MissedWin] = []
        self.offers: list[MissedWin] = []  # wins open to a seat right now, not yet taken
        #: The facts of the last discard until its claim window closes (DiscardFact's
        #: fields but the last two).
        self.pending_discard_fact: tuple[Any, ...] | None = None
        self.drawn: Tile | None = None
        self.win_phase: Phase | None = None  # where the last win on a discard was made
        #: Record discard facts and missed wins (self-play, which needs neither, turns it off).
        self.analytics = True
        self.visible = [0] * self.kind_count  # tiles face up: discards in pools and exposed melds
        self.seen: dict[Tile, int] = {}  # every tile whose place the table knows: copies
        self.discard_count = 0
        #: The hand's wild tiles, when the variant has wilds (set by its state's
        #: :class:`~paipu.rules.mechanics.wilds.Wilds`: fixed ones from the start, else once
        #: the indicator is turned up): the waits count them and the legal moves read what
        #: wilds may do from it.
        self.wilds: WildSpec | None = None
        self.calls = 0  # chi, pong and kongs declared so far
        self.notes: list[str] = []  # the special rule paths taken (paipu simulate --stats)
        #: The 海底 tile once the wall is empty, and the seat that took it (kept for the
        #: variants with a state: their 海底 rules and birds read them).
        self.last_wall_tile: Tile | None = None
        self.haidi_taker: int | None = None
        self.wall = variant.replay_wall(record, options)
        self.kinds = setup.kinds
        self.tile_kinds = setup.tile_kinds
        #: The variant's own state and rules on this table (None: it adds nothing).
        self.state: VariantState | None = variant.new_state(self)
        self._bind_variant_hooks()
        self._deal()
        for seat in range(self.players):
            self.refresh_waits(seat)

    # ------------------------------------------------------------------ helpers

    def _bind_variant_hooks(self) -> None:
        """Take the per-event variant hooks out of the hot path where the variant keeps the
        default behaviour (most do): the waits are computed here directly, a discard is not
        sent to a hook that has nothing to object to, and the next seat is found inline."""
        setup = self._setup
        #: (waits function, shapes, hand size) when the variant computes waits the default way.
        self._plain_waits: tuple[Any, frozenset[Any], int] | None = setup.plain_waits
        #: The variant scores a win from :meth:`request_for` alone (Variant.replay_score):
        #: then the last few answers are kept, as the win declared right after a discard or
        #: a draw asks again what the offer asked (see :meth:`_score`).
        self._plain_score = setup.plain_score
        self._recent_scores: list[tuple[_Asked, ScoreAnswer]] = []
        #: The other seats after each seat, in seat order (discard facts list them so).
        self._others, self._no_wins = _seat_orders(self.players)
        #: The event handlers of the kinds this variant allows, its state's own among them.
        handlers: dict[type[Event], Handler] = {
            Draw: self._draw,
            Discard: self._discard,
            Chi: self._chi,
            Pong: self._pong,
            Kong: self._kong,
            ConcealedKong: self._concealed_kong,
            AddedKong: self._added_kong,
            Flower: self._flower,
            Win: self._win,
        }
        if self.state is not None:
            handlers.update(self.state.handlers())
        elif setup.allows_every(handlers):
            self._handlers = handlers
            return
        self._handlers = {
            event_type: handler
            for event_type, handler in handlers.items()
            if event_type.kind in self.kinds
        }

    def release(self) -> None:
        """Break the table's reference cycles once its hand is over (its handlers are its
        own bound methods; its state points back at it), so that the table and all it holds
        are freed at once rather than by the cycle collector: freeing a few hundred objects
        a hand that way cost the replay about a third of its time. The table takes no
        further event."""
        self._handlers = {}
        self.state = None

    def brief(self) -> str:
        """One line about the table, for error messages."""
        parts = [f"phase {self.phase.value} seat {self.turn}", f"{self.wall.left()} tiles left"]
        for seat, s in enumerate(self.seats):
            melds = " ".join(format_tiles(m.tiles) for m in s.melds)
            parts.append(f"s{seat}: {format_tiles(s.concealed())}{' | ' + melds if melds else ''}")
        return "; ".join(parts)

    def fail(self, event: Event | None, rule: str) -> RuleViolation:
        return RuleViolation(self.index, event, rule, self.brief())

    def _take(self, seat: int, tile: Tile, event: Event, what: str) -> None:
        s = self.seats[seat]
        if tile >= N_KINDS:
            if is_flower(tile):
                if tile not in s.held_flowers:
                    raise self.fail(event, f"seat {seat} does not hold {tile_name(tile)} to {what}")
                s.held_flowers.remove(tile)
                return
            if tile >= self.kind_count:  # a code the hands do not count (a ten, elsewhere)
                raise self.fail(event, f"seat {seat} does not hold {tile_name(tile)} to {what}")
        if s.hand[tile] == 0:
            raise self.fail(event, f"seat {seat} does not hold {tile_name(tile)} to {what}")
        s.hand[tile] -= 1

    def _give(self, seat: int, tile: Tile) -> None:
        s = self.seats[seat]
        if tile >= N_KINDS and is_flower(tile):
            s.held_flowers.append(tile)
        else:
            s.hand[tile] += 1

    def _see(self, tile: Tile, event: Event | None) -> None:
        seen = self.seen
        count = seen.get(tile, 0) + 1
        seen[tile] = count
        limit = 1 if tile >= N_KINDS and is_flower(tile) else 4
        if count > limit:
            raise self.fail(event, f"a copy too many of {tile_name(tile)}: the set has {limit}")

    def _deal(self) -> None:
        record = self.record
        size = self.variant.spec.hand_size
        kinds = self.tile_kinds
        for seat, tiles in enumerate(record.deal):
            if len(tiles) != size:
                raise RuleViolation(
                    None,
                    None,
                    f"seat {seat} is dealt {len(tiles)} tiles, {self.variant.id} deals {size}",
                )
            if not kinds.issuperset(tiles):
                tile = next(t for t in tiles if t not in kinds)
                raise RuleViolation(
                    None, None, f"{tile_name(tile)} is not a tile of {self.variant.id}"
                )
        seen = self.seen
        for seat, tiles in enumerate(record.deal):
            for tile in tiles:
                self._give(seat, tile)
                seen[tile] = seen.get(tile, 0) + 1
        known = self.wall.known_tiles()
        if not kinds.issuperset(known):
            tile = next(t for t in known if t not in kinds)
            raise RuleViolation(
                None, None, f"the wall holds {tile_name(tile)}, not a tile of {self.variant.id}"
            )
        every = self.seen
        if known:
            every = Counter(every)
            every.update(known)
        over = sorted(t for t, n in every.items() if n > (1 if is_flower(t) else 4))
        if over:
            what = ", ".join(f"{every[t]} copies of {tile_name(t)}" for t in over)
            raise RuleViolation(
                None, None, f"the deal and wall hold {what}: a copy too many (the set has 4)"
            )

    def check_invariants(self) -> None:
        """Recompute what must hold from scratch (tests call this after every event).

        Tiles are conserved: every copy is in exactly one place (a hand, a meld, a pool, a
        flower area, the wall); no tile exceeds the set's copies; every seat still playing
        holds 13 tiles (counting a meld as 3), or 14 while it is to discard.
        """
        placed: Counter[Tile] = Counter()
        if self.state is not None:  # tiles the variant keeps off the wall and the seats (宝)
            placed.update(self.state.tiles_off_seats())
        for s in self.seats:
            placed.update({t: n for t, n in enumerate(s.hand) if n})
            placed.update(s.held_flowers)
            placed.update(s.flowers)
            placed.update(s.pool)
            placed.update(s.set_aside)
            for meld in s.melds:
                placed.update(meld.tiles)
        for tile, n in placed.items():
            if n > (1 if is_flower(tile) else 4):
                raise self.fail(None, f"invariant: {n} copies of {tile_name(tile)} on the table")
        if self.wall.known_tiles():
            dealt = Counter(t for hand in self.record.deal for t in hand)
            drawn = Counter(self.wall.known_tiles()) - Counter(self.wall.remaining())
            if placed != dealt + drawn:
                raise self.fail(
                    None,
                    "invariant: the tiles on the table are not the deal plus "
                    "the tiles drawn from the wall",
                )
        for seat, s in enumerate(self.seats):
            if s.won:
                continue
            held = sum(s.hand) + len(s.held_flowers) + 3 * len(s.melds)
            to_move = seat == self.turn and self.phase in (Phase.ACT,)
            expected = self.variant.spec.hand_size + (1 if to_move else 0)
            if held != expected:
                raise self.fail(
                    None, f"invariant: seat {seat} holds {held} tiles, expected {expected}"
                )

    def tiles_left(self) -> int:
        return self.wall.left()

    # ------------------------------------------------------------------ for legal moves

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        """A rule of the variant's state that forbids ``seat``'s claim or kong (``kind``, a
        :class:`~paipu.rules.legal.MoveKind` value) of ``tile`` now; None when none does
        (:mod:`paipu.rules.legal` asks it)."""
        state = self.state
        return None if state is None else state.move_problem(seat, kind, tile)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        """A rule of the variant's state that forbids ``seat``'s discard of ``tile`` now."""
        state = self.state
        return None if state is None else state.discard_problem(seat, tile)

    def self_draw_answer(self, seat: int) -> ScoreAnswer | None:
        """The score if ``seat`` won now on the tile it has just drawn, when that is legal."""
        tile = self.drawn
        s = self.seats[seat]
        if tile is None or self.turn != seat or self.phase is not Phase.ACT:
            return None
        if s.won or tile not in s.waits:
            return None
        hand = s.concealed()
        hand.remove(tile)
        flags = self.win_flags(seat, tile, None)
        answer = self._score(seat, tile, None, flags, hand)
        return answer if answer.legal else None

    def exposed_melds(self, seat: int) -> int:
        return self.seats[seat].exposed

    def refresh_waits(self, seat: int) -> None:
        s = self.seats[seat]
        s.since_waits = _NO_DRAW
        plain = self._plain_waits
        if plain is None:
            s.waits = self.variant.replay_waits(self, seat)
            return
        # Variant.replay_waits, inline: () unless the hand has its full count of tiles
        waits, shapes, hand_size = plain
        melds = len(s.melds)
        hand = s.hand
        if tile_total(hand) != hand_size - 3 * melds:
            s.waits = ()
            return
        wilds = self.wilds
        if wilds is None or wilds.plain:
            s.waits = waits(hand, melds, shapes)
        else:  # the hand's wilds (rules/mechanics/wilds.py): the core's waits
            s.waits = core_shanten.waits(hand, wilds, melds, shapes)

    def next_seat(self, after: int | None) -> int:
        """The seat that draws after ``after``'s unclaimed discard: the variant's state's
        choice (要海底, 血战), else the next seat still playing."""
        state = self.state
        if state is not None:
            chosen = state.next_seat(after)
            if chosen is not None:
                return chosen
        return self.seat_after(after)

    def seat_after(self, after: int | None) -> int:
        """The next seat after ``after`` (the dealer's when None) still playing."""
        seat = self.record.dealer if after is None else after
        seats = self.seats
        players = self.players
        for _ in range(players):
            seat = (seat + 1) % players
            if not seats[seat].won:
                return seat
        return seat

    # ------------------------------------------------------------------ apply

    def apply(self, index: int, event: Event) -> None:
        """Apply one event or raise :class:`RuleViolation`: the handler of its type (the
        table's or the variant state's), with the state's hooks before and after."""
        self.index = index
        state = self.state
        if state is not None and state.before(event):
            return
        event_type = type(event)
        if self.phase is Phase.ENDED and not event_type.table_event:
            self._after_end(event)
        seat = getattr(event, "seat", None)
        if seat is not None and self.seats[seat].won and event_type is not Win:
            raise self.fail(event, f"seat {seat} has already won and left the hand")
        handler = self._handlers.get(event_type)
        if handler is None:  # a kind the variant does not allow
            raise self.fail(event, f"{event_type.kind} events do not exist in {self.variant.id}")
        handler(event)
        if state is not None:
            state.after(event)

    def _after_end(self, event: Event) -> None:
        """An event after the hand ended: a further winner on the same discard or robbed
        kong (一炮多响) where the variant allows one, else :class:`RuleViolation`."""
        if isinstance(event, Win) and self.win_phase is not None:
            self.phase = self.win_phase
            if not self._continues_multiple_win(event):
                self.phase = Phase.ENDED
        if self.phase is Phase.ENDED:
            if isinstance(event, Win) and self.wins and not self.variant.spec.multiple_wins:
                raise self.fail(
                    event,
                    f"{self.variant.id} allows one winner per tile: the hand "
                    f"ended with seat {self.wins[0].seat}'s win",
                )
            raise self.fail(event, "the hand has already ended")

    def _draw(self, event: Draw) -> None:
        seat = event.seat
        tile = event.tile
        if self.offers:
            self._pass_offers()
        phase = self.phase
        if phase is Phase.CLAIM:
            self._close_discard_fact(claimed=False, won=False)
            nxt = self.next_seat(self.discarder)
            if seat != nxt:
                raise self.fail(event, f"seat {nxt} draws next, not seat {seat}")
            self.turn = seat
            self.phase = phase = Phase.DRAW
        elif phase is Phase.ROB:
            self.phase = phase = Phase.REPLACE
            # nobody robbed the added kong: it stands (kong payments where a variant has them)
            self.kong_stands(self.turn, MeldKind.ADDED_KONG, None)
        if (phase is not Phase.DRAW and phase is not Phase.REPLACE) or seat != self.turn:
            raise self.fail(
                event,
                f"it is not seat {seat}'s turn to draw (seat {self.turn} is to {phase.value})",
            )
        replacement = phase is Phase.REPLACE
        expected = self.wall.draw(seat, replacement)
        if expected is None:
            raise self.fail(event, "no tile is left to draw")
        if expected >= 0 and expected != tile:
            raise self.fail(
                event, f"the wall gives {tile_name(expected)} here, not {tile_name(tile)}"
            )
        if tile not in self.tile_kinds:
            raise self.fail(event, f"{tile_name(tile)} is not a tile of {self.variant.id}")
        if expected < 0:  # the table learns where a copy is
            self._see(tile, event)
        self._give(seat, tile)
        s = self.seats[seat]
        s.draws += 1
        s.since_waits = tile if s.since_waits == _NO_DRAW else _DRAWS
        self.replacement_from_kong = replacement and self.after_kong
        self.after_kong = False
        self.drawn = tile
        self.phase = Phase.ACT
        if self.state is not None and self.wall.left() == 0:  # 海底 (what the states read)
            self.haidi_taker = seat
            self.last_wall_tile = tile
        if self.analytics and (tile < N_KINDS or tile >= TEN_FIRST) and tile in s.waits:
            self._check_missed_self_draw(seat, tile)

    def _discard(self, event: Discard) -> None:
        seat = event.seat
        if self.phase is not Phase.ACT or seat != self.turn:
            raise self.fail(
                event,
                f"seat {seat} may not discard now (seat {self.turn} is to {self.phase.value})",
            )
        s = self.seats[seat]
        if s.held_flowers:
            raise self.fail(
                event,
                f"seat {seat} must set aside {tile_name(s.held_flowers[0])} before discarding",
            )
        if self.offers:
            self._pass_offers()
        tile = event.tile
        self._take(seat, tile, event, "discard")
        if self.state is not None or self.wilds is not None:  # else nothing can object
            problem = legal.discard_problem(self, seat, tile)
            if problem:
                raise self.fail(event, problem)
        s.discards.append(tile)
        s.pool.append(tile)
        self.visible[tile] += 1
        self.last_discard = tile
        self.discarder = seat
        self.discard_count += 1
        self.phase = Phase.CLAIM
        if (
            s.since_waits == tile  # the tile drawn since the waits, discarded (摸切)
            and self.state is None
            and self.wilds is None
            and self._plain_waits is not None
        ):
            # the hand is the one its waits were worked out for: they stand. (Without a
            # variant state, only the table's handlers change a hand, and each but the
            # draw works the waits out again; the plain waits read the hand and melds only.)
            s.since_waits = _NO_DRAW
        else:
            self.refresh_waits(seat)
        if self.analytics:
            self._open_discard_fact(event)

    def _claim_source(self, event: Event, seat: int) -> Tile:
        if self.phase is not Phase.CLAIM or self.last_discard is None or self.discarder is None:
            raise self.fail(event, "there is no discard to claim")
        if seat == self.discarder:
            raise self.fail(event, f"seat {seat} cannot claim its own discard")
        return self.last_discard

    def _take_discard(self) -> None:
        assert self.discarder is not None and self.last_discard is not None
        pool = self.seats[self.discarder].pool
        pool.pop()
        self.visible[self.last_discard] -= 1

    def _chi(self, event: Chi) -> None:
        tile = self._claim_source(event, event.seat)
        assert self.discarder is not None
        problem = legal.claim_problem(self, event.seat, legal.MoveKind.CHI, tile, self.discarder)
        if problem:
            raise self.fail(event, problem)
        if event.bi:
            raise self.fail(event, "比 (bi) sets exist only in zipai")
        tiles = event.tiles
        if tiles[0] >= 27 or tiles[0] % 9 > 6 or tiles != (tiles[0], tiles[0] + 1, tiles[0] + 2):
            chow_problem = self.variant.replay_chow_problem(tiles, self.options)
            if chow_problem is not None:
                raise self.fail(event, chow_problem)
        if tile not in tiles:
            raise self.fail(event, f"the chi does not include the claimed {tile_name(tile)}")
        if self.wilds is not None:
            problem = legal.chi_wild_problem(self, tiles, tile)
            if problem:
                raise self.fail(event, problem)
        rest = list(tiles)
        rest.remove(tile)
        for t in rest:
            self._take(event.seat, t, event, "chi")
        self._meld(event.seat, _shared_meld(MeldKind.CHI, _CHI_MELDS, tiles, self.discarder))

    def _pong(self, event: Pong) -> None:
        tile = self._claim_source(event, event.seat)
        if event.tile != tile:
            raise self.fail(
                event, f"the last discard is {tile_name(tile)}, not {tile_name(event.tile)}"
            )
        assert self.discarder is not None
        problem = legal.claim_problem(self, event.seat, legal.MoveKind.PONG, tile, self.discarder)
        if problem:
            raise self.fail(event, problem)
        for _ in range(2):
            self._take(event.seat, tile, event, "pong")
        self._meld(
            event.seat, _shared_meld(MeldKind.PONG, _PONG_MELDS, (tile,) * 3, self.discarder)
        )

    def _kong(self, event: Kong) -> None:
        tile = self._claim_source(event, event.seat)
        if event.tile != tile:
            raise self.fail(
                event, f"the last discard is {tile_name(tile)}, not {tile_name(event.tile)}"
            )
        assert self.discarder is not None
        problem = legal.claim_problem(self, event.seat, legal.MoveKind.KONG, tile, self.discarder)
        if problem:
            raise self.fail(event, problem)
        for _ in range(3):
            self._take(event.seat, tile, event, "kong")
        self._meld(
            event.seat, _shared_meld(MeldKind.KONG, _KONG_MELDS, (tile,) * 4, self.discarder)
        )
        self.phase = Phase.REPLACE
        self.after_kong = True
        self.kong_stands(event.seat, MeldKind.KONG, self.discarder)

    def kong_stands(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        """A kong stood (an added kong once nobody robbed it): the state's kong money."""
        state = self.state
        if state is not None:
            state.on_kong(seat, kind, from_seat)

    def _meld(self, seat: int, meld: Meld) -> None:
        self._pass_offers()
        self._close_discard_fact(claimed=True, won=False)
        self._take_discard()
        s = self.seats[seat]
        s.melds.append(meld)
        s.exposed += 1
        self.calls += 1
        for t in meld.tiles:
            self.visible[t] += 1
        self.turn = seat
        self.phase = Phase.ACT
        self.drawn = None
        self.refresh_waits(seat)

    def _own_kong_check(self, event: Event, seat: int, kind: legal.MoveKind, tile: Tile) -> None:
        if self.phase is not Phase.ACT or seat != self.turn:
            raise self.fail(event, f"seat {seat} may not declare a kong now")
        problem = legal.own_kong_problem(self, seat, kind, tile)
        if problem:
            raise self.fail(event, problem)
        self._pass_offers()
        self.calls += 1

    def _concealed_kong(self, event: ConcealedKong) -> None:
        self._own_kong_check(event, event.seat, legal.MoveKind.CONCEALED_KONG, event.tile)
        for _ in range(4):
            self._take(event.seat, event.tile, event, "declare a concealed kong")
        self.seats[event.seat].melds.append(Meld(MeldKind.CONCEALED_KONG, (event.tile,) * 4))
        self.phase = Phase.REPLACE
        self.after_kong = True
        self.refresh_waits(event.seat)
        self.kong_stands(event.seat, MeldKind.CONCEALED_KONG, None)

    def _added_kong(self, event: AddedKong) -> None:
        self._own_kong_check(event, event.seat, legal.MoveKind.ADDED_KONG, event.tile)
        s = self.seats[event.seat]
        i = next(
            (i for i, m in enumerate(s.melds) if m.kind is MeldKind.PONG and m.base == event.tile),
            -1,
        )
        if i < 0:
            raise self.fail(
                event, f"seat {event.seat} has no exposed pung of {tile_name(event.tile)} to add to"
            )
        meld = s.melds[i]
        self._take(event.seat, event.tile, event, "add to its pung")
        s.melds[i] = Meld(MeldKind.ADDED_KONG, (event.tile,) * 4, meld.from_seat)
        self.visible[event.tile] += 1
        self.robbed_tile = event.tile
        self.phase = Phase.ROB
        self.after_kong = True
        self.refresh_waits(event.seat)
        if self.analytics:
            self._check_missed_rob(event.seat, event.tile)

    def _flower(self, event: Flower) -> None:
        seat = event.seat
        if not is_flower(event.tile):
            raise self.fail(event, f"{tile_name(event.tile)} is not a flower")
        if self.phase is not Phase.ACT or seat != self.turn:
            raise self.fail(event, f"seat {seat} may set a flower aside only on its turn")
        self._pass_offers()
        self._take(seat, event.tile, event, "set aside")
        self.seats[seat].flowers.append(event.tile)
        self.phase = Phase.REPLACE
        self.after_kong = False

    def _win(self, event: Win) -> None:
        seat = event.seat
        if event.from_seat is None:
            if self.phase is not Phase.ACT or seat != self.turn or self.drawn is None:
                raise self.fail(
                    event, f"seat {seat} cannot win by self-draw now (it has not just drawn)"
                )
            if event.tile != self.drawn:
                raise self.fail(
                    event,
                    f"the self-drawn tile is {tile_name(self.drawn)}, not {tile_name(event.tile)}",
                )
            self._take(seat, event.tile, event, "win on")
        elif self.phase is Phase.ROB:
            if event.from_seat != self.turn or event.tile != self.robbed_tile:
                raise self.fail(
                    event,
                    f"a kong can be robbed only on the tile just added, from seat {self.turn}",
                )
            if seat == self.turn:
                raise self.fail(event, "a player cannot rob its own kong")
        else:
            tile = self._claim_source(event, seat)
            if event.from_seat != self.discarder:
                raise self.fail(
                    event,
                    f"the last discard is seat {self.discarder}'s, not seat {event.from_seat}'s",
                )
            if event.tile != tile:
                raise self.fail(
                    event, f"the last discard is {tile_name(tile)}, not {tile_name(event.tile)}"
                )
        # a further winner on the same tile (一炮多响) comes right after the win before it; a
        # later win where the hand went on after one (血战) is a new win
        again = self.wins and self.wins[-1].index == self.index - 1
        if again and not self._continues_multiple_win(event):
            raise self.fail(event, f"{self.variant.id} allows one winner per tile")
        flags = self.win_flags(seat, event.tile, event.from_seat)
        answer = self._score(seat, event.tile, event.from_seat, flags)
        source = (
            "self_draw"
            if event.from_seat is None
            else "robbing_kong"
            if self.phase is Phase.ROB
            else "discard"
        )
        self.add_win(event, flags, answer, source)
        if not self.variant.spec.multiple_wins:
            self.offers = []
        self._close_discard_fact(claimed=False, won=True)
        previous = self.wins[-2] if len(self.wins) > 1 else None
        shared = (
            previous is not None
            and previous.index == self.index - 1
            and event.from_seat is not None
            and (previous.from_seat, previous.tile) == (event.from_seat, event.tile)
        )
        if event.from_seat is None:
            self._give(seat, event.tile)  # the winning tile joins the winner's hand
        elif not shared:  # on a multiple win (一炮多响) the tile moves once
            if self.phase is Phase.ROB:
                self._unrob(event.from_seat, event.tile)
            else:
                self._take_discard()
            self._give(seat, event.tile)
        self.win_phase = self.phase if event.from_seat is not None else None
        state = self.state
        if state is None or not state.continues_after_win(event):
            self.phase = Phase.ENDED
        if state is not None:
            state.after_win(self.wins[-1])

    def add_win(self, event: Win, flags: WinFlags, answer: ScoreAnswer, source: str) -> None:
        """The win ``event`` declares, scored as ``answer``: a false win (诈和) unless the
        answer is legal; else it joins the hand's wins and its seat leaves the hand (its
        open offers with it). The one way a win is recorded, on a discard, a draw, a robbed
        kong or the 开杠 tiles (rules/mechanics/kong_reveal.py)."""
        if not answer.legal:
            raise self.fail(event, f"false win (诈和): {answer.reason or answer.error}")
        seat = event.seat
        self.wins.append(
            ComputedWin(
                seat,
                event.from_seat,
                event.tile,
                answer.total or 0,
                answer.fans,
                answer.deltas or (0,) * self.players,
                flags,
                index=self.index,
                source=source,
                detail=dict(answer.extra),
            )
        )
        self.seats[seat].won = True
        self.offers = [o for o in self.offers if o.seat != seat]

    def _unrob(self, konger: int, tile: Tile) -> None:
        """A robbed added kong goes back to being a pung (抢杠: the kong does not stand)."""
        melds = self.seats[konger].melds
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.ADDED_KONG and meld.base == tile:
                melds[i] = Meld(MeldKind.PONG, (tile,) * 3, meld.from_seat)
                self.visible[tile] -= 1
                return

    def _continues_multiple_win(self, event: Win) -> bool:
        last = self.wins[-1]
        return (
            self.variant.spec.multiple_wins
            and event.from_seat is not None
            and last.from_seat == event.from_seat
            and last.tile == event.tile
            and self.phase in (Phase.CLAIM, Phase.ROB)
        )

    # ------------------------------------------------------------------ win situation

    def win_flags(self, seat: int, tile: Tile, from_seat: int | None) -> WinFlags:
        """Derive 妙手回春/海底捞月, 杠上开花, 抢杠和 and 和绝张 from the table (or the
        variant's state, where it knows better: a win on the tiles of a kong reveal)."""
        state = self.state
        if state is not None:
            known = state.win_flags(seat, tile, from_seat)
            if known is not None:
                return known
        self_drawn = from_seat is None
        robbing = self.phase is Phase.ROB and not self_drawn
        last_tile = self.variant.replay_last_tile(self, seat, from_seat)
        shown = self.visible[tile] - (0 if self_drawn or robbing else 1)
        if robbing:
            shown = self.visible[tile] - 1
        return _WIN_FLAGS[
            (last_tile, self_drawn and self.replacement_from_kong, robbing, shown >= 3)
        ]

    def request_for(
        self,
        seat: int,
        tile: Tile,
        from_seat: int | None,
        flags: WinFlags,
        hand: Sequence[Tile] | None = None,
    ) -> ScoreRequest:
        """A score request for ``seat`` winning on ``tile`` as the table stands."""
        return self._request_of(self._asked(seat, tile, from_seat, flags, hand))

    def _asked(
        self,
        seat: int,
        tile: Tile,
        from_seat: int | None,
        flags: WinFlags,
        hand: Sequence[Tile] | None = None,
    ) -> _Asked:
        """What a score request for ``seat`` winning on ``tile`` holds beside the hand's own
        facts (the variant, the dealer, the rules, the winds): :meth:`request_for`'s parts,
        which :meth:`_score` compares with the requests it answered a moment ago before it
        builds one (a frozen dataclass's ``__init__`` is interpreted)."""
        s = self.seats[seat]
        extra: Mapping[str, Any] = {}
        state = self.state
        if state is not None:  # the facts the variant's scoring needs beside the tiles
            flags, extra = state.request_extra(seat, tile, from_seat, flags)
        return (
            seat,
            tile,
            from_seat,
            tuple(hand if hand is not None else s.concealed()),
            tuple(s.melds),
            tuple(s.flowers),
            flags,
            extra,
        )

    def _request_of(self, asked: _Asked) -> ScoreRequest:
        seat, tile, from_seat, hand, melds, flowers, flags, extra = asked
        record = self.record
        return ScoreRequest(
            variant=self.variant.id,
            seat=seat,
            dealer=record.dealer,
            from_seat=from_seat,
            hand=hand,
            melds=melds,
            win_tile=tile,
            rules=record.rules,
            flags=flags,
            round_wind=record.round_wind,
            seat_wind=record.seat_wind(seat),
            flowers=flowers,
            extra=extra,
        )

    def would_win(self, seat: int, tile: Tile, from_seat: int | None) -> ScoreAnswer | None:
        """The answer if ``seat`` declared a win on ``tile`` now, when its hand is ready for it."""
        s = self.seats[seat]
        if s.won or tile not in s.waits:
            return None
        flags = self.win_flags(seat, tile, from_seat)
        answer = self._score(seat, tile, from_seat, flags)
        return answer if answer.legal else None

    def score_win(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> ScoreAnswer:
        """The variant's answer for ``seat`` winning on ``tile`` now, with ``flags``."""
        return self._score(seat, tile, from_seat, flags)

    def _score(
        self,
        seat: int,
        tile: Tile,
        from_seat: int | None,
        flags: WinFlags,
        hand: Sequence[Tile] | None = None,
    ) -> ScoreAnswer:
        """The variant's answer for ``seat`` winning on ``tile`` as the table stands (with
        ``hand`` as its concealed tiles when given); an answer to the very same request a
        moment ago is not worked out again. A win the variant's state forbids (漏胡, a seat
        that has left) is not legal, with the rule as its reason."""
        if hand is None and self.state is not None:
            problem = legal.win_problem(self, seat, tile, from_seat)
            if problem:
                return ScoreAnswer(legal=False, reason=problem)
        if not self._plain_score:
            if hand is not None:
                request = self.request_for(seat, tile, from_seat, flags, hand)
                return self.variant.replay_score_request(request, self.options)
            return self.variant.replay_score(self, seat, tile, from_seat, flags)
        asked = self._asked(seat, tile, from_seat, flags, hand)
        recent = self._recent_scores
        for before, answer in recent:
            if before == asked:
                return answer
        answer = self.variant.replay_score_request(self._request_of(asked), self.options)
        if len(recent) >= _RECENT_SCORES:
            del recent[0]
        recent.append((asked, answer))
        return answer

    # ------------------------------------------------------------------ analytics

    def _open_discard_fact(self, event: Discard) -> None:
        """The facts of a discard as it lands, and the wins it offers the other seats."""
        seat = event.seat
        tile = event.tile
        seats = self.seats
        others = self._others[seat]
        melds = tuple([seats[other].exposed for other in others])
        ready = tuple([bool(seats[other].waits) and not seats[other].won for other in others])
        # only a seat waiting on the tile can win on it: score it for those
        if any(tile in seats[other].waits for other in others):
            can_win = []
            for other in others:
                answer = self.would_win(other, tile, seat) if tile in seats[other].waits else None
                can_win.append(answer is not None)
                if answer is not None:
                    self.offers.append(MissedWin(self.index, other, tile, seat, answer.total or 0))
            wins = tuple(can_win)
        else:
            wins = self._no_wins
        discarder = seats[seat]
        self.pending_discard_fact = (
            self.index,
            seat,
            len(discarder.discards),
            tile,
            discarder.hand[tile] + self.visible[tile] - 1,
            self.wall.left(),
            melds,
            ready,
            wins,
        )

    def _close_discard_fact(self, claimed: bool, won: bool) -> None:
        fact = self.pending_discard_fact
        if fact is not None:
            # a concatenation, not (*fact, …): compiled, that built a list first
            self.discard_facts.append(_new_tuple(DiscardFact, fact + (won, claimed)))  # noqa: RUF005
            self.pending_discard_fact = None

    def _pass_offers(self) -> None:
        """The seats that could have won and did not: missed wins."""
        if self.offers:
            self.missed.extend(self.offers)
            self.offers = []

    def _check_missed_self_draw(self, seat: int, tile: Tile) -> None:
        """Offer ``seat`` the self-drawn win on ``tile`` (just drawn) when it is legal."""
        s = self.seats[seat]
        if tile not in s.waits:
            return
        before = s.hand.copy()
        before[tile] -= 1
        hand = [t for t in range(len(before)) for _ in range(before[t])]
        flags = self.win_flags(seat, tile, None)
        answer = self._score(seat, tile, None, flags, hand)
        if answer.legal:
            self.offers.append(MissedWin(self.index, seat, tile, None, answer.total or 0))

    def _check_missed_rob(self, konger: int, tile: Tile) -> None:
        for k in range(1, self.players):
            other = (konger + k) % self.players
            answer = self.would_win(other, tile, konger)
            if answer is not None:
                self.offers.append(MissedWin(self.index, other, tile, konger, answer.total or 0))

    # ------------------------------------------------------------------ end

    def melds_per_seat(self) -> tuple[int, ...]:
        return tuple(len(s.melds) for s in self.seats)

    def ready_per_seat(self) -> tuple[bool, ...]:
        return tuple(bool(s.waits) and not s.won for s in self.seats)

    def finish(self) -> tuple[str, tuple[int, ...]]:
        """The outcome and the hand's deltas once the events are exhausted."""
        self._close_discard_fact(claimed=False, won=False)
        self._pass_offers()
        ended = self.phase is Phase.ENDED or self.exhausted()
        if not ended:
            raise RuleViolation(
                None,
                None,
                "the hand has no ending: the events stop before a win or an exhaustive draw",
                self.brief(),
            )
        outcome = "win" if self.wins else "draw"
        return outcome, self.settle()

    def exhausted(self) -> bool:
        """An exhaustive draw (荒庄) now: the variant's state's rule (要海底 declined), else
        the last discard went unclaimed and no one can draw, or a flower drawn as the last
        tile has nothing left to replace it."""
        state = self.state
        if state is not None:
            known = state.exhausted()
            if known is not None:
                return known
        if self.phase is Phase.REPLACE:  # a flower or kong on the last tile: no replacement
            return not self.wall.can_replace(self.turn)
        if self.phase is not Phase.CLAIM:
            return False
        return self.wall.left_for(self.next_seat(self.discarder)) <= 0

    def settle(self) -> tuple[int, ...]:
        """The hand's deltas: the sum of its wins' deltas, and the payments the variant's
        state adds (kong money, opening wins, the checks of a drawn hand)."""
        deltas = [0] * self.players
        for win in self.wins:
            for seat, delta in enumerate(win.deltas):
                deltas[seat] += delta
        state = self.state
        if state is not None:
            for payer, receiver, amount in state.payments():
                deltas[payer] -= amount
                deltas[receiver] += amount
            for seat, amount in state.penalties():
                deltas[seat] -= amount
        return tuple(deltas)

    # ------------------------------------------------------------------ 血战: robbed kongs

    def robbed_and_won(self) -> bool:
        """Whether the added kong now being offered has been robbed (the 4th copy went to
        a robber, so a konger cannot add that tile again: the check is unambiguous)."""
        if not self.wins:
            return False
        last = self.wins[-1]
        return (
            last.source == "robbing_kong"
            and last.tile == self.robbed_tile
            and last.from_seat == self.turn
        )

    def resume_after_rob(self) -> None:
        """血战: the robbed kong is gone; play goes on as after a discard the robbers took
        (the variant's state counts the next ordinary draw from the robbers)."""
        self.discarder = self.turn
        self.last_discard = self.robbed_tile
        self.phase = Phase.CLAIM
        self.after_kong = False

    def first_turn(self) -> bool:
        """Nothing has been claimed or declared yet (天胡 / 地胡)."""
        return self.calls == 0 and not any(s.melds for s in self.seats)


# ---------------------------------------------------------------------- whole hands


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A replayed hand: what the engine computed and how it compares with the record."""

    record: HandRecord
    outcome: str
    wins: tuple[ComputedWin, ...]
    deltas: tuple[int, ...]
    discards: tuple[DiscardFact, ...]
    missed: tuple[MissedWin, ...]
    problems: tuple[str, ...]  # differences from the record, fan by fan
    melds: tuple[int, ...] = ()  # melds each seat declared by the end
    ready_at_end: tuple[bool, ...] = ()  # each seat was ready (听牌) at the end
    notes: tuple[str, ...] = ()  # special rule paths the variant's table took (for statistics)

    @property
    def verdict(self) -> str:
        if self.record.result is None:
            return "unrecorded"
        return "mismatch" if self.problems else "ok"


def replay(
    record: HandRecord, variant: Variant | None = None, *, check: bool = False
) -> HandOutcome:
    """Replay a hand through its variant; :class:`RuleViolation` if an event is illegal.

    With ``check`` (tests), the table's invariants are verified after every event.
    """
    try:
        variant = variant or get_variant(record.variant)
        options = variant.resolve_options(record.rules)
    except VariantError as exc:
        raise RuleViolation(None, None, str(exc)) from None
    table = variant.new_table(record, options)
    checker = getattr(table, "check_invariants", None) if check else None
    apply = table.apply
    if checker is None:
        for index, event in enumerate(record.events):
            apply(index, event)
    else:
        for index, event in enumerate(record.events):
            apply(index, event)
            checker()
    outcome = outcome_of(table, record)
    if isinstance(table, Table):  # nothing but this function holds it
        table.release()
    return outcome


def outcome_of(table: ReplayTable, record: HandRecord) -> HandOutcome:
    """Finish a table whose events are all applied and compare it with the record."""
    outcome, deltas = table.finish()
    problems = tuple(compare(record, outcome, table.wins, deltas))
    return HandOutcome(
        record,
        outcome,
        tuple(table.wins),
        deltas,
        tuple(table.discard_facts),
        tuple(table.missed),
        problems,
        melds=table.melds_per_seat(),
        ready_at_end=table.ready_per_seat(),
        notes=tuple(getattr(table, "notes", ())),
    )


def compare(
    record: HandRecord, outcome: str, wins: Iterable[ComputedWin], deltas: tuple[int, ...]
) -> list[str]:
    """The differences between the recorded and the computed result, in words."""
    result = record.result
    if result is None:
        return []
    problems = []
    if result.outcome != outcome:
        problems.append(f"outcome: recorded {result.outcome}, computed {outcome}")
    computed: dict[int, list[ComputedWin]] = {}
    for w in wins:  # a seat's wins in hand order (several where winners play on: 血流成河)
        computed.setdefault(w.seat, []).append(w)
    for rec in result.wins:
        queued = computed.get(rec.seat)
        if not queued:
            problems.append(f"seat {rec.seat}: recorded a win the replay does not have")
            continue
        win = queued.pop(0)
        if rec.from_seat != win.from_seat:
            problems.append(
                f"seat {rec.seat}: recorded win from {rec.from_seat}, computed {win.from_seat}"
            )
        if rec.tile is not None and rec.tile != win.tile:
            problems.append(
                f"seat {rec.seat}: recorded winning tile {tile_name(rec.tile)}"
                f", computed {tile_name(win.tile)}"
            )
        if rec.total is not None and rec.total != win.total:
            problems.append(f"seat {rec.seat}: recorded total {rec.total}, computed {win.total}")
        if rec.fans:
            recorded = {f.id: f.count for f in rec.fans}
            mine = {f.id: f.count for f in win.fans}
            if recorded != mine:  # (the usual case, the same fans, has nothing to say)
                for fan_id in sorted(recorded.keys() | mine.keys()):
                    said, found = recorded.get(fan_id, 0), mine.get(fan_id, 0)
                    if said != found:
                        problems.append(
                            f"seat {rec.seat}: fan {fan_id} recorded ×{said}, computed ×{found}"
                        )
            # a fan both sides count must also be worth the same (a club's disputed value)
            worth = {f.id: f.points for f in win.fans}
            for fan in rec.fans:
                if fan.id in worth and fan.points != worth[fan.id]:
                    problems.append(
                        f"seat {rec.seat}: fan {fan.id} recorded worth {fan.points}"
                        f", computed {worth[fan.id]}"
                    )
    for seat, left in computed.items():
        for _ in left:
            problems.append(f"seat {seat}: the replay finds a win the record does not list")
    if result.deltas is not None and tuple(result.deltas) != tuple(deltas):
        seats = ", ".join(
            f"seat {seat} recorded {said:+d}, computed {found:+d}"
            for seat, (said, found) in enumerate(zip(result.deltas, deltas, strict=False))
            if said != found
        )
        problems.append(
            f"deltas: recorded {list(result.deltas)}, computed {list(deltas)} ({seats})"
        )
    return problems
