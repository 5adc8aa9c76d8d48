"""Self-play engine for the mahjong variants (自动对局): deal, play and record one hand.

:func:`play_hand` shuffles the variant's tiles, deals, and plays the hand move by move
through the replay state machine :class:`~paipu.rules.replay.Table`, so that every event
is checked by the rules engine as it is played; it returns the table's
:class:`~paipu.rules.replay.HandOutcome`, whose record holds the deal, the full wall and
every event.

The loop follows the table's phase:

* draw / replacement draw: the seat to move draws from the wall (ordinary draws from its
  front, replacement draws after a kong or a flower from its end);
* own turn: held flowers are set aside first (补花, each followed by a replacement draw),
  then the seat's :class:`Player` wins by self-draw, declares a concealed or added kong,
  or discards;
* after a discard the other seats are asked in priority order — win (和) > pong / kong
  (碰 / 杠) > chi (吃, the next seat only); one winner, the first after the discarder,
  unless the variant allows multiple wins (一炮多响);
* after an added kong the other seats may rob it (抢杠);
* the hand is drawn (荒庄) when the variant says the wall cannot supply the next draw.

A variant adds moves by naming them in its TOML (``[bot] steps``, :class:`Step`); the loop
takes each at its point of the hand, and the variant's own rules say what it may do:

* ``reveal_wilds`` (翻鬼 / 翻混 / 翻精) before the first draw, where the room's wilds come
  from an indicator: the wall's last tile is turned up (it stays in the wall);
* ``void_suits`` (定缺) before the first draw; ``opening_wins`` (起手胡) after the dealer's
  first draw, and in play right after a draw those the variant lets a seat show then (中途);
* ``kong_reveal`` (开杠) in place of a replacement draw, when the player wants it;
* ``last_tile_choice`` (要海底) before the last draw; nobody may want the last tile;
* ``play_on`` (血战): after a robbed kong's wins the others play on;
* ``birds`` (扎鸟) and ``turn_up`` (翻牌) after the end;
* ``ready`` (听 / 报听): on its turn, a seat that may declare ready is asked
  (:meth:`Player.declare_ready`) and declares before its discard; a chi that declares ready
  (吃听, the ``ready_chi`` claim) is the ready event and the chi;
* ``bao`` (宝牌): the indicator (role ``bao``) of the wall's last tile whenever the table
  expects one: after the deal, and at each 换宝.

The loop itself names no variant; the players (:class:`Player`) make every choice.

A :class:`~paipu.rules.selfplay.Scenario` stacks the deck: its seat (counted from the
dealer: 0 is the dealer) is dealt the prepared hand and its first draws are the prepared
tiles, moved into place in the undrawn wall as they are needed. Since the wall is then
only final at the end, a scenario hand is played on a table that counts the wall, and the
finished record (with its wall) is replayed once more to check it.
"""

from __future__ import annotations

import gc
import json
import operator
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import mypyc_attr

from paipu.rules.core import decompose as core_decompose
from paipu.rules.core import shanten as core_shanten
from paipu.rules.events import (
    AddedKong,
    Bird,
    Chi,
    ConcealedKong,
    Discard,
    Draw,
    Event,
    Flower,
    Indicator,
    Kong,
    Pong,
    Ready,
    StartWin,
    Void,
    Win,
)
from paipu.rules.legal import (
    TURN_ORDER,
    Move,
    MoveKind,
    claims,
    discard_problem,
    rob_claims,
    turn_moves,
)
from paipu.rules.mechanics.dice import roll
from paipu.rules.mechanics.exchange import Exchange, directions
from paipu.rules.mechanics.kong_reveal import REVEAL_TILES, KongReveal
from paipu.rules.mechanics.ready import ready_waits
from paipu.rules.mechanics.turn_up import TurnUp
from paipu.rules.mechanics.wilds import needs_indicator
from paipu.rules.record import HandRecord
from paipu.rules.replay import HandOutcome, Phase, Table, outcome_of, replay
from paipu.rules.score import ScoreAnswer, WinFlags
from paipu.rules.selfplay import HandSetup, Scenario
from paipu.rules.shanten import caches_full, clear_caches
from paipu.rules.tiles import N_CODES, Tile, TileError, parse_tiles, tile_name
from paipu.rules.variants import RegionalVariant, VariantError
from paipu.rules.wall import DuplicateWall, SharedWall, Wall

if TYPE_CHECKING:
    from paipu.rules.core.wild import WildSpec
    from paipu.rules.melds import Meld
    from paipu.rules.shanten import Shape
    from paipu.rules.variants import Options, Variant

#: Deals tried before giving up (a deal is retried only when the hand reaches a dead end).
MAX_DEALS = 20
#: Moves after which a hand that has not ended is a bug in a player.
MAX_MOVES = 2000
#: Ranks in a suit; a run (chi) needs three consecutive ranks of one suit.
SUIT_SIZE = 9
#: The phases as module names: the enum member look-up is slower on hot paths.
_ACT, _DRAW, _REPLACE, _ROB, _ENDED = Phase.ACT, Phase.DRAW, Phase.REPLACE, Phase.ROB, Phase.ENDED


@mypyc_attr(native_class=False)  # compiled, a class cannot derive from RuntimeError
class SelfPlayError(RuntimeError):
    """The engine cannot go on: a player that stalls or chooses what it was not offered."""


class ScenarioError(VariantError):
    """A scenario that cannot be read or dealt in its variant."""


class DeadEndError(Exception):
    """The replay table allows no legal continuation (a safety net: a flower drawn as the
    last tile now ends the hand as an exhaustive draw). :func:`play_hand` deals again."""


# ---------------------------------------------------------------------- decisions


#: The kinds of move as module names: the enum member look-up is slower on hot paths.
_WIN, _KONG, _PONG, _CHI = MoveKind.WIN, MoveKind.KONG, MoveKind.PONG, MoveKind.CHI
_DISCARD, _SELF_DRAWN_WIN, _FLOWER = MoveKind.DISCARD, MoveKind.SELF_DRAWN_WIN, MoveKind.FLOWER
_CONCEALED_KONG, _ADDED_KONG = MoveKind.CONCEALED_KONG, MoveKind.ADDED_KONG
_READY_CHI = MoveKind.READY_CHI


def move_event(move: Move, from_seat: int | None = None) -> Event:
    """The event of a move :mod:`paipu.rules.legal` listed (``from_seat``: the seat whose
    tile a claim takes)."""
    seat, kind, tile = move.seat, move.kind, move.tiles[0]
    if kind is _DISCARD:
        return _DISCARDS[seat][tile] if seat < _EVENT_SEATS else Discard(seat, tile)
    if kind is _WIN:
        return Win(seat, tile, from_seat)
    if kind is _PONG:
        return Pong(seat, tile)
    if kind is _KONG:
        return Kong(seat, tile)
    if kind is _CHI:
        return Chi(seat, move.tiles)  # type: ignore[arg-type]
    if kind is _SELF_DRAWN_WIN:
        return Win(seat, tile)
    if kind is _CONCEALED_KONG:
        return ConcealedKong(seat, tile)
    if kind is _ADDED_KONG:
        return AddedKong(seat, tile)
    if kind is _FLOWER:
        return Flower(seat, tile)
    raise SelfPlayError(f"seat {seat}: self-play has no event for a {kind.value} move")


#: No situational fan (a value: the flags are frozen).
_NO_FLAGS = WinFlags()
#: The draw and discard events of each seat and tile code, made once (events are values):
#: a hand has about 150 of them.
_EVENT_SEATS = 4
_DRAWS = tuple(tuple(Draw(seat, t) for t in range(N_CODES)) for seat in range(_EVENT_SEATS))
_DISCARDS = tuple(tuple(Discard(seat, t) for t in range(N_CODES)) for seat in range(_EVENT_SEATS))


class TurnMoves:
    """A seat's legal moves on its own turn, by :mod:`paipu.rules.legal`: the whole list
    (:func:`~paipu.rules.legal.turn_moves`, made on first need), or one move at a time by
    the same rules (the self-drawn win, one discard), which is all most turns ask: a
    turn's list costs as much as the bot's whole decision, and most turns discard a tile
    every rule allows. The moves are equal to the listed ones (same kind, tiles and
    priority)."""

    __slots__ = ("_listed", "_table", "_win", "_win_known", "seat")

    def __init__(self, table: Table, seat: int) -> None:
        self._table = table
        self.seat = seat
        self._listed: list[Move] | None = None
        self._win: Move | None = None
        self._win_known = False

    def listed(self) -> list[Move]:
        """Every legal move of the turn, in :data:`~paipu.rules.legal.TURN_ORDER`."""
        if self._listed is None:
            self._listed = turn_moves(self._table, self.seat)
        return self._listed

    def self_drawn_win(self) -> Move | None:
        """The self-drawn win (自摸) on the tile just drawn, when it is legal."""
        if not self._win_known:
            self._win_known = True
            table = self._table
            drawn = table.drawn
            if drawn is not None and table.self_draw_answer(self.seat) is not None:
                self._win = Move(self.seat, _SELF_DRAWN_WIN, (drawn,), _WIN_PRIORITY)
        return self._win

    def discard(self, tile: Tile) -> Move | None:
        """The discard of ``tile``, when the seat holds it and the rules allow it."""
        table = self._table
        seat = self.seat
        if not table.seats[seat].hand[tile] or discard_problem(table, seat, tile) is not None:
            return None
        return _DISCARD_MOVES[seat][tile] if seat < _EVENT_SEATS else _discard_move(seat, tile)

    def discards(self) -> list[Move]:
        """Every legal discard, in tile order."""
        return [m for m in self.listed() if m.kind is _DISCARD]

    def kongs(self) -> list[Move]:
        """The legal concealed kongs (in tile order), then the added ones (in meld order)."""
        return [m for m in self.listed() if m.kind is _CONCEALED_KONG or m.kind is _ADDED_KONG]

    def allows(self, move: Move) -> bool:
        """Whether ``move`` is one of the seat's legal moves now."""
        if move.seat != self.seat:
            return False
        if move.kind is _DISCARD:
            return move == self.discard(move.tiles[0])
        if move.kind is _SELF_DRAWN_WIN:
            return move == self.self_drawn_win()
        return move in self.listed()


#: The priorities :func:`~paipu.rules.legal.turn_moves` gives a self-drawn win and a discard.
_WIN_PRIORITY = TURN_ORDER.index(MoveKind.SELF_DRAWN_WIN)


def _discard_move(seat: int, tile: Tile) -> Move:
    return Move(seat, _DISCARD, (tile,), TURN_ORDER.index(_DISCARD))


#: The discard move of each seat and tile code, made once (a move is a value).
_DISCARD_MOVES = tuple(
    tuple(_discard_move(seat, t) for t in range(N_CODES)) for seat in range(_EVENT_SEATS)
)


# ---------------------------------------------------------------------- what a seat sees


class SeatView:
    """The table as one seat sees it: its own hand, everything face up, and counts.

    Players get only this; other seats' concealed tiles, the face of their concealed
    kongs and the wall are not reachable through it.
    """

    __slots__ = ("_after", "_table", "seat")

    def __init__(self, table: Table, seat: int) -> None:
        self._table = table
        self.seat = seat
        n = len(table.seats)
        self._after = tuple((seat + k) % n for k in range(1, n))  # the others in turn order

    # -- who and where
    @property
    def players(self) -> int:
        return self._table.players

    @property
    def variant(self) -> Variant:
        return self._table.variant

    @property
    def options(self) -> Options:
        return self._table.options

    @property
    def dealer(self) -> int:
        return self._table.record.dealer

    @property
    def seat_wind(self) -> Tile:
        return self._table.record.seat_wind(self.seat)

    @property
    def round_wind(self) -> Tile:
        return self._table.record.round_wind

    def shapes(self) -> frozenset[Shape]:
        return self._table.variant.replay_shapes()

    def minimum(self) -> int:
        """The fan a win needs (flowers not counted), 0 where any complete hand wins."""
        options = self._table.options
        return int(options["min_fan"]) if "min_fan" in options else self.variant.spec.min_fan

    # -- own tiles
    def hand(self) -> list[int]:
        """A copy of the seat's concealed tile counts (flowers not included)."""
        return self._table.seats[self.seat].hand.copy()

    def melds(self) -> list[Meld]:
        """The seat's own declared melds, concealed kongs included."""
        return self._table.seats[self.seat].melds

    @property
    def drawn(self) -> Tile | None:
        """The tile just drawn, on the seat's own turn after a draw; else None."""
        table = self._table
        return table.drawn if table.turn == self.seat and table.phase is _ACT else None

    def waits(self) -> tuple[Tile, ...]:
        """The tiles that complete the seat's hand as it stood before its last draw."""
        return self._table.seats[self.seat].waits

    def wilds(self) -> WildSpec | None:
        """The hand's wilds once known (fixed ones, or the indicator's), else None."""
        return self._table.wilds

    # -- the table
    def exposed_melds(self, seat: int) -> list[Meld]:
        """Another seat's melds that lie face up (concealed kongs left out)."""
        return [m for m in self._table.seats[seat].melds if not m.concealed]

    def concealed_kongs(self, seat: int) -> int:
        return sum(1 for m in self._table.seats[seat].melds if m.concealed)

    def meld_count(self, seat: int) -> int:
        """How many melds a seat has declared, concealed kongs included (they show as
        face-down sets)."""
        return len(self._table.seats[seat].melds)

    def opponents(self) -> list[tuple[int, int, int]]:
        """Each other seat still playing, in turn order: (seat, melds declared, discards)."""
        seats = self._table.seats
        return [
            (other, len(s.melds), len(s.discards))
            for other in self._after
            if not (s := seats[other]).won
        ]

    def discards(self, seat: int) -> list[Tile]:
        """Every tile ``seat`` discarded, claimed ones included, in order."""
        return self._table.seats[seat].discards

    def flowers(self, seat: int) -> list[Tile]:
        return self._table.seats[seat].flowers

    def has_won(self, seat: int) -> bool:
        return self._table.seats[seat].won

    def declared_ready(self) -> tuple[int, ...]:
        """The seats that declared ready (听) so far, for all to see."""
        state = self._table.state
        return () if state is None else state.ready_seats()

    def tiles_left(self) -> int:
        return self._table.wall.left()

    def seen(self) -> list[int]:
        """Copies of each tile this seat can see: its hand, its kongs, everything face up."""
        table = self._table
        own = table.seats[self.seat]
        seen = list(map(operator.add, table.visible, own.hand))
        for meld in own.melds:
            if meld.concealed:
                seen[meld.base] += 4
        return seen

    # -- wins
    def claim_answer(self, tile: Tile, from_seat: int) -> ScoreAnswer | None:
        """The score if the seat won on another seat's ``tile`` now, when that is legal."""
        return self._table.would_win(self.seat, tile, from_seat)

    def score_if(self, hand: Sequence[Tile], tile: Tile, self_drawn: bool) -> ScoreAnswer:
        """The score of a hypothetical win on ``tile`` with the concealed ``hand`` (13 tiles
        less 3 per meld) and the seat's melds, without situational fans."""
        table = self._table
        from_seat = None if self_drawn else (self.seat + 1) % table.players
        request = table.request_for(self.seat, tile, from_seat, _NO_FLAGS, hand)
        return table.variant.replay_score_request(request, table.options)


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' scripted players derive from it
class Player:
    """A seat's decision maker (a bot): sees only its :class:`SeatView`.

    ``turn`` and ``claim`` are every variant's; the other decisions belong to the steps a
    variant adds (:class:`Step`) and have defaults, so a player need only override those
    its game asks for."""

    def turn(self, view: SeatView, moves: TurnMoves) -> Move:
        """Own turn with a full hand and no held flowers: one of ``moves``, the seat's legal
        moves as :func:`paipu.rules.legal.turn_moves` lists them (the self-drawn win, the
        kongs, the discards the rules allow), asked as the player needs them."""
        raise NotImplementedError

    def claim(
        self, view: SeatView, tile: Tile, from_seat: int, options: Sequence[Move]
    ) -> Move | None:
        """Take another seat's ``tile`` by one of ``options`` (the seat's legal claims as
        :mod:`paipu.rules.legal` lists them, best first), or pass (None)."""
        raise NotImplementedError

    def void_suit(self, view: SeatView) -> str:
        """定缺 (:attr:`Step.VOID_SUITS`): the suit to void, ``m``, ``p`` or ``s``; by
        default the suit held fewest (the first of them on a tie)."""
        hand = view.hand()
        held = [sum(hand[s * SUIT_SIZE : (s + 1) * SUIT_SIZE]) for s in range(len(SUIT_LETTERS))]
        return SUIT_LETTERS[held.index(min(held))]

    def exchange_tiles(self, view: SeatView) -> tuple[Tile, ...]:
        """换三张 (:attr:`Step.EXCHANGE`): three tiles of one suit to pass; by default the
        first three of the suit held fewest among those held three times or more."""
        hand = view.hand()
        suits = [range(s * SUIT_SIZE, (s + 1) * SUIT_SIZE) for s in range(len(SUIT_LETTERS))]
        held = [sum(hand[t] for t in suit) for suit in suits]
        suit = suits[min((n, s) for s, n in enumerate(held) if n >= 3)[1]]
        return tuple([t for t in suit for _ in range(hand[t])][:3])

    def reveal(self, view: SeatView) -> bool:
        """开杠 (:attr:`Step.KONG_REVEAL`): turn up the wall's last tiles rather than draw
        one after a kong; by default when the hand is ready."""
        return bool(view.waits())

    def take_haidi(self, view: SeatView) -> bool:
        """要海底 (:attr:`Step.LAST_TILE_CHOICE`): take the last tile of the wall; by default
        when the hand is ready."""
        return bool(view.waits())

    def declare_ready(self, view: SeatView, discards: Sequence[Tile]) -> Tile | None:
        """听 (:attr:`Step.READY`): declare ready with one of ``discards`` (those the rules
        allow after a declaration), or not (None). By default it declares when it pays: with
        the discard leaving the most live copies of its waits, if any is live. A seat that
        declared on a chi (吃听) must choose one; None then takes the first."""
        hand = view.hand()
        melds = len(view.melds())
        seen = view.seen()
        best: tuple[int, Tile] | None = None
        for tile in discards:
            hand[tile] -= 1
            found = ready_waits(hand, melds, view.shapes(), view.wilds())
            live = sum(max(0, 4 - seen[w]) for w in found)
            hand[tile] += 1
            if live and (best is None or live > best[0]):
                best = (live, tile)
        return None if best is None else best[1]

    def stake(self, view: SeatView, choices: Sequence[int]) -> int:
        """坐庄 / 拉庄 (:attr:`Step.STAKES`): one of ``choices``, the stake levels offered
        (the first: none); by default none."""
        return choices[0]


#: The suits' letters, in code order (定缺 names a suit by its letter).
SUIT_LETTERS = ("m", "p", "s")


class Step(StrEnum):
    """A move of the hand beyond draw, turn, claim and rob, as a variant's ``[bot] steps``
    names it; the loop takes the steps its variant declares, each at its point of the hand.
    """

    EXCHANGE = "exchange"  # 换三张: before 定缺 each seat passes three tiles of one suit
    VOID_SUITS = "void_suits"  # 定缺: each seat declares a void suit before the first draw
    OPENING_WINS = "opening_wins"  # 起手胡: after the dealer's first draw, the opening wins
    KONG_REVEAL = "kong_reveal"  # 开杠: a ready konger may turn up tiles instead of drawing
    LAST_TILE_CHOICE = "last_tile_choice"  # 要海底: the last tile is offered in turn
    PLAY_ON = "play_on"  # 血战: after a robbed kong's wins the others play on
    BIRDS = "birds"  # 扎鸟: birds drawn after the win
    TURN_UP = "turn_up"  # 翻牌: a tile turned up from the wall after the win (翻鸡)
    READY = "ready"  # 听: a seat declares ready before its discard, or with a chi (吃听)
    BAO = "bao"  # 宝牌: the wall's last tile turned up as the 宝 after the deal, and at 换宝
    REVEAL_WILDS = "reveal_wilds"  # 翻鬼 / 翻混: the wild indicator before the first draw
    SETUP_EVENTS = "setup_events"  # the table events a hand opens with: what the game carries
    # into it from the hands before (the dealer's dice and 开宝 / 黄番, a dealer's streak 连庄)
    STAKES = "stakes"  # 坐庄 / 拉庄: each seat's doubling bet, before the tiles are taken


@dataclass(frozen=True, slots=True)
class Steps:
    """Which :class:`Step` s a variant's hands take (read once per variant)."""

    exchange: bool = False
    void_suits: bool = False
    opening_wins: bool = False
    kong_reveal: bool = False
    last_tile_choice: bool = False
    play_on: bool = False
    birds: bool = False
    turn_up: bool = False
    ready: bool = False
    bao: bool = False
    reveal_wilds: bool = False
    setup_events: bool = False
    stakes: bool = False


_STEPS: dict[str, Steps] = {}


def steps_of(variant: Variant) -> Steps:
    """The steps of ``variant``'s hands: the ``steps`` list of its TOML's ``[bot]`` table."""
    known = _STEPS.get(variant.id)
    if known is not None:
        return known
    names = variant.spec.raw.get("bot", {}).get("steps", [])
    try:
        taken = {Step(name) for name in names}
    except ValueError:
        known_steps = ", ".join(s.value for s in Step)
        raise VariantError(
            f"{variant.id}.toml [bot] steps {names!r}: each is one of {known_steps}"
        ) from None
    steps = Steps(
        exchange=Step.EXCHANGE in taken,
        void_suits=Step.VOID_SUITS in taken,
        opening_wins=Step.OPENING_WINS in taken,
        kong_reveal=Step.KONG_REVEAL in taken,
        last_tile_choice=Step.LAST_TILE_CHOICE in taken,
        play_on=Step.PLAY_ON in taken,
        birds=Step.BIRDS in taken,
        turn_up=Step.TURN_UP in taken,
        ready=Step.READY in taken,
        bao=Step.BAO in taken,
        reveal_wilds=Step.REVEAL_WILDS in taken,
        setup_events=Step.SETUP_EVENTS in taken,
        stakes=Step.STAKES in taken,
    )
    _STEPS[variant.id] = steps
    return steps


# ---------------------------------------------------------------------- the deal


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles of one hand before play: each seat's hand and the wall in drawing order."""

    hands: tuple[tuple[Tile, ...], ...]
    wall: tuple[Tile, ...]
    stacked_seat: int | None = None  # a scenario's seat, whose first draws are prepared
    stacked_draws: tuple[Tile, ...] = ()


def deal_tiles(variant: Variant, options: Options, setup: HandSetup, rng: random.Random) -> Deal:
    """Shuffle the variant's tiles and deal ``hand_size`` to each seat from the dealer on.

    The wall is what is left, in drawing order. With a scenario its seat gets the prepared
    hand, and its prepared draws are kept in the wall (they are moved into place when that
    seat draws).
    """
    players = variant.spec.players
    size = variant.spec.hand_size
    tiles = list(variant.wall_tiles(options))
    scenario = setup.scenario
    stacked: int | None = None
    if scenario is not None:
        stacked = (setup.dealer + scenario.seat) % players
        check_scenario(scenario, variant, options)
        for tile in (*scenario.hand, *scenario.draws):
            tiles.remove(tile)
    rng.shuffle(tiles)
    hands: list[tuple[Tile, ...]] = [() for _ in range(players)]
    taken = 0
    for k in range(players):
        seat = (setup.dealer + k) % players
        if seat == stacked and scenario is not None:
            hands[seat] = scenario.hand
            continue
        hands[seat] = tuple(tiles[taken : taken + size])
        taken += size
    wall = tiles[taken:]
    if scenario is not None:
        middle = len(wall) // 2
        wall[middle:middle] = scenario.draws
    return Deal(tuple(hands), tuple(wall), stacked, scenario.draws if scenario else ())


def check_scenario(scenario: Scenario, variant: Variant, options: Options) -> None:
    """Raise :class:`ScenarioError` if the scenario cannot be dealt in this variant."""
    if not 0 <= scenario.seat < variant.spec.players:
        raise ScenarioError(f"scenario {scenario.name}: seat {scenario.seat} does not exist")
    if len(scenario.hand) != variant.spec.hand_size:
        raise ScenarioError(
            f"scenario {scenario.name}: the hand has {len(scenario.hand)} tiles, "
            f"{variant.id} deals {variant.spec.hand_size}"
        )
    available = Counter(variant.wall_tiles(options))
    needed = Counter([*scenario.hand, *scenario.draws])
    for tile, n in sorted(needed.items()):
        if n > available[tile]:
            raise ScenarioError(
                f"scenario {scenario.name}: {n} × {tile_name(tile)}, "
                f"the {variant.id} set has {available[tile]}"
            )


def scenarios_from(
    name: str, sets: Mapping[str, Mapping[str, tuple[str, str]]], variant: Variant
) -> tuple[Scenario, ...]:
    """The scenarios of ``--scenario NAME``: a named set of the variant (``{scenario name:
    (hand, draws)}``, dealt to the dealer), or a JSON file (docs/simulate.md)."""
    if name in sets:
        raw: Any = [
            {"name": key, "seat": 0, "hand": hand, "draws": draws}
            for key, (hand, draws) in sets[name].items()
        ]
    else:
        path = Path(name)
        if not path.is_file():
            known = ", ".join(sorted(sets)) or "none"
            raise ScenarioError(
                f"no scenario set {name!r} in {variant.id} (sets: {known}) and no such file"
            )
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ScenarioError(f"{name}: cannot read scenarios: {exc}") from None
    if not isinstance(raw, list) or not raw:
        raise ScenarioError(f"{name}: a scenario file is a non-empty JSON list of objects")
    options = variant.resolve_options()
    out = []
    for i, item in enumerate(raw):
        scenario = _scenario(item, f"{name}[{i}]")
        check_scenario(scenario, variant, options)
        out.append(scenario)
    return tuple(out)


def _scenario(item: Any, where: str) -> Scenario:
    if not isinstance(item, Mapping) or "hand" not in item:
        raise ScenarioError(
            f"{where}: a scenario is an object with 'hand' (and 'name', 'seat', 'draws')"
        )
    unknown = sorted(set(item) - {"name", "seat", "hand", "draws"})
    if unknown:
        raise ScenarioError(f"{where}: unknown field(s) {', '.join(unknown)}")
    seat = item.get("seat", 0)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ScenarioError(f"{where}: 'seat' counts seats from the dealer (0, 1, …)")
    try:
        hand = tuple(parse_tiles(_tile_field(item["hand"], where)))
        draws = tuple(parse_tiles(_tile_field(item.get("draws", []), where)))
    except TileError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    return Scenario(str(item.get("name", where)), seat, hand, draws)


def _tile_field(value: Any, where: str) -> str | list[str]:
    if isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(t, str) for t in value)
    ):
        return value
    raise ScenarioError(f'{where}: tiles are a string such as "123m45p" or a list of names')


# ---------------------------------------------------------------------- one hand

#: Hands between two settlings of the heap (:func:`_settle_heap`).
SETTLE_EVERY = 128
_hands_started = 0


def _settle_heap() -> None:
    """Keep Python's cyclic garbage collector off the long-lived caches, and bound them.

    A run fills large caches (the shanten tables, the bots' per-suit facts) and every full
    collection walks all of them: about a tenth of the CPU time of a long run. So every
    ``SETTLE_EVERY`` hands, between two hands, the garbage is collected and what is still
    alive is frozen (:func:`gc.freeze`): later collections skip it. Nothing of a hand is
    alive then, so no hand's cycles are frozen; the output does not change.

    The shanten tables grow with every new suit pattern met; once full
    (:func:`shanten.caches_full`, and the core's wild tables by
    :func:`paipu.rules.core.shanten.caches_full`) they are emptied, so that memory stays
    bounded however many hands a process plays. They only remember answers: the output
    does not change.
    """
    global _hands_started  # noqa: PLW0603 (a process-wide count, like the collector's own)
    _hands_started += 1
    if _hands_started % SETTLE_EVERY == 0:
        if caches_full():
            gc.unfreeze()  # what is cleared may hold cycles: let the collector see them
            clear_caches()
        if core_shanten.caches_full():  # the wild tables (rules/core/), where wilds play
            gc.unfreeze()
            core_shanten.clear_caches()
            core_decompose.clear_caches()
        gc.collect()
        gc.freeze()


def _draw_position(wall: Wall, seat: int, replacement: bool) -> int | None:
    """Where in the wall list the seat's next draw comes from; None when it cannot draw."""
    if isinstance(wall, SharedWall):
        if wall.left() <= 0:
            return None
        return wall.size - 1 - wall.back if replacement else wall.front
    if wall.left_for(seat) <= 0:
        return None
    return seat * wall.per_seat + wall.drawn[seat]


def _undrawn(wall: Wall) -> Iterator[int]:
    """Positions of the wall list not drawn yet."""
    if isinstance(wall, SharedWall):
        yield from range(wall.front, wall.size - wall.back)
        return
    assert isinstance(wall, DuplicateWall)
    for seat in range(wall.players):
        yield from range(seat * wall.per_seat + wall.drawn[seat], (seat + 1) * wall.per_seat)


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' stacked hands derive from it
class SelfPlayHand:
    """One hand being played: the table, the wall, the players and the events so far."""

    def __init__(
        self,
        variant: Variant,
        options: Options,
        setup: HandSetup,
        deal: Deal,
        players: Sequence[Player],
    ) -> None:
        self.variant = variant
        self.options = options
        self.players = players
        self.steps = steps_of(variant)
        self.setup = setup
        self.wall = list(deal.wall)
        self.stacked = deal.stacked_seat
        self.pending = list(deal.stacked_draws)
        known = self.stacked is None
        self.base = HandRecord(
            variant=setup.variant,
            game=setup.game,
            hand=setup.hand,
            players=setup.players,
            dealer=setup.dealer,
            deal=deal.hands,
            events=(),
            round_wind=setup.round_wind,
            rules=dict(setup.rules),
            time=setup.time,
            scores_before=setup.scores_before or None,
            wall=tuple(self.wall) if known else None,
        )
        table = variant.new_table(self.base, options)
        if not isinstance(table, Table):
            raise SelfPlayError(f"{variant.id} does not replay on the mahjong table")
        table.analytics = False  # the written hand is replayed with analytics when ingested
        self.table = table
        self.views = [SeatView(table, seat) for seat in range(table.players)]
        n = table.players
        #: For each seat, the other seats in turn order after it.
        self.after = [tuple((seat + k) % n for k in range(1, n)) for seat in range(n)]
        self.events: list[Event] = []
        self.claims_open = False
        #: Whether the hand was exhausted when :meth:`claims` last returned False (nothing
        #: has happened since then when the loop asks again).
        self.exhausted_after_claims = False

    def apply(self, event: Event) -> None:
        """Apply one event to the table (which checks it) and record it."""
        self.table.apply(len(self.events), event)
        self.events.append(event)
        if isinstance(event, Discard):
            self.claims_open = True
        if self.steps.bao:
            self.treasure()

    # -- moves

    def draw(self, seat: int) -> None:
        table = self.table
        phase = table.phase
        replacement = phase is _REPLACE or phase is _ROB
        position = _draw_position(table.wall, seat, replacement)
        if position is None:
            # Only a replacement can find the wall empty: a flower drawn as the last tile
            # must be set aside before discarding, and then nothing can replace it.
            raise DeadEndError
        if self.stacked is not None:
            self._stack(seat, position)
        tile = self.wall[position]
        self.apply(_DRAWS[seat][tile] if seat < _EVENT_SEATS else Draw(seat, tile))
        if self.steps.opening_wins and self.table.discard_count:
            self.show_wins(seat)  # 中途四喜 / 中途六六顺, where the variant has them

    def _stack(self, seat: int, position: int) -> None:
        """Scenario hands: give the stacked seat its next prepared tile, keep the others'
        hands off the prepared tiles still to come."""
        wall = self.wall
        if seat == self.stacked and self.pending:
            want = self.pending.pop(0)
            if wall[position] == want:
                return
            for j in _undrawn(self.table.wall):
                if j != position and wall[j] == want:
                    wall[position], wall[j] = wall[j], wall[position]
                    return
            return
        if wall[position] in self.pending:
            for j in _undrawn(self.table.wall):
                if j != position and wall[j] not in self.pending:
                    wall[position], wall[j] = wall[j], wall[position]
                    return

    def turn(self, seat: int) -> None:
        """The seat's own turn: a held flower is set aside first (a forced move), else its
        player chooses one of the moves :func:`~paipu.rules.legal.turn_moves` lists."""
        moves = TurnMoves(self.table, seat)
        if self.table.seats[seat].held_flowers:
            flower = next(m for m in moves.listed() if m.kind is _FLOWER)
            self.apply(Flower(seat, flower.tiles[0]))
            return
        if self.steps.ready and self.ready(seat, moves):
            return
        move = self.players[seat].turn(self.views[seat], moves)
        if not moves.allows(move):
            raise SelfPlayError(f"seat {seat} chose {move}, not one of its legal moves")
        self.apply(move_event(move))

    def _wins(self, wins: list[Move], tile: Tile, from_seat: int) -> bool:
        """Offer each seat its legal win on ``tile`` in turn order; apply the wins taken
        (the first only, unless the variant allows multiple wins)."""
        winners = []
        for move in wins:
            seat = move.seat
            choice = self.players[seat].claim(self.views[seat], tile, from_seat, (move,))
            if choice is not None:
                if choice is not move and choice != move:
                    raise SelfPlayError(f"seat {seat} chose {choice}, not its win")
                winners.append(seat)
                if not self.variant.spec.multiple_wins:
                    break
        for winner in winners:
            self.apply(Win(winner, tile, from_seat))
        return bool(winners)

    def claims(self) -> bool:
        """After a discard: the claims :func:`~paipu.rules.legal.claims` lists, best
        priority first (wins, then each other seat's calls); the last discard of the hand
        only a win may take. True if the tile was taken."""
        table = self.table
        tile, discarder = table.last_discard, table.discarder
        assert tile is not None and discarder is not None
        moves = claims(table, tile, discarder)
        if moves and moves[0].kind is _WIN:
            wins = [m for m in moves if m.kind is _WIN]
            if self._wins(wins, tile, discarder):
                return True
            moves = moves[len(wins) :]
        self.exhausted_after_claims = self.variant.replay_exhausted(table)
        if not moves or self.exhausted_after_claims:
            return False  # the last discard of the hand: only a win may take it
        for seat in dict.fromkeys(m.seat for m in moves):
            options = [m for m in moves if m.seat == seat]
            choice = self.players[seat].claim(self.views[seat], tile, discarder, options)
            if choice is None:
                continue
            if choice not in options:
                raise SelfPlayError(f"seat {seat} chose {choice}, not one of its claims")
            if choice.kind is _READY_CHI:  # 吃听: the declaration, then the chi
                self.apply(Ready(seat))
                self.apply(Chi(seat, choice.tiles))  # type: ignore[arg-type]
                return True
            self.apply(move_event(choice, discarder))
            return True
        return False

    def robs(self) -> bool:
        """After an added kong: the seats that can win on the added tile may rob it."""
        table = self.table
        tile = table.robbed_tile
        assert tile is not None
        wins = rob_claims(table, tile, table.turn)
        return bool(wins) and self._wins(wins, tile, table.turn)

    # -- the whole hand

    def play(self) -> HandOutcome:
        table = self.table
        steps = self.steps
        if steps.setup_events:
            self.setup_events()
        if steps.stakes:
            self.stakes()
        if steps.reveal_wilds:
            self.reveal_wilds()
        if steps.exchange:
            self.exchange()
        if steps.void_suits:
            self.void_suits()
        if steps.bao:
            self.treasure()
        opening = steps.opening_wins
        for _ in range(MAX_MOVES):
            phase = table.phase
            if phase is _ENDED:
                break
            if phase is _DRAW:
                self.draw(table.turn)
                if opening:
                    opening = False
                    self.opening_wins()
            elif phase is _REPLACE:
                if self.variant.replay_exhausted(table):
                    break  # a flower drawn as the last tile: nothing can replace it
                self.replace(table.turn)
            elif phase is _ACT:
                self.turn(table.turn)
            elif phase is _ROB:
                if not self.robs():
                    self.replace(table.turn)
                elif table.phase is _ROB:  # the robbers left and the others play on (血战)
                    if not steps.play_on:
                        raise SelfPlayError(
                            f"{self.variant.id} plays on after a robbed kong: its TOML's"
                            " [bot] steps need play_on"
                        )
                    self.table.resume_after_rob()
            elif not self.after_discard():
                break
        else:
            raise SelfPlayError(f"the hand did not end within {MAX_MOVES} moves")
        if steps.birds:
            self.birds()
        if steps.turn_up:
            self.turn_up()
        record = replace(self.base, events=tuple(self.events), wall=tuple(self.wall))
        if self.stacked is None:
            return outcome_of(table, record)
        return replay(record, self.variant)  # the stacked wall is final only now: check it

    def after_discard(self) -> bool:
        """The claim phase (after a discard, or a kong reveal nobody won on): claims, then
        the last-tile choice where the variant has it, then the next draw. False when the
        hand is over."""
        table = self.table
        exhausted: bool | None = None
        if self.claims_open:
            self.claims_open = False
            if self.claims():
                return True
            exhausted = self.exhausted_after_claims
        if self.steps.last_tile_choice and table.wall.left() == 1:
            regional = self._regional()
            if regional.haidi_choice(table.options):
                return self.last_tile_choice()
        if exhausted is None:
            exhausted = self.variant.replay_exhausted(table)
        if exhausted:
            return False
        assert table.discarder is not None
        self.draw(self.variant.replay_next_seat(table, table.discarder))
        return True

    def replace(self, seat: int) -> None:
        """A replacement draw after a kong or a flower, or the kong reveal (开杠) where the
        variant has it and the player wants it."""
        if self.steps.kong_reveal and self.kong_reveal(seat):
            return
        self.draw(seat)

    # -- the steps a variant adds (:class:`Step`)

    def treasure(self) -> None:
        """宝牌: the indicator of the wall's last tile when the table expects one (the 宝
        after the deal, a 换宝 once three copies are visible)."""
        table = self.table
        state = table.state
        wall = table.wall
        if state is None or state.due_indicator() != "bao" or not isinstance(wall, SharedWall):
            return
        if wall.left() <= 0:
            return
        self.apply(Indicator(self.wall[wall.size - 1 - wall.back], "bao"))

    def ready(self, seat: int, moves: TurnMoves) -> bool:
        """听: a seat that may declare ready now (or declared on a chi and must discard
        into a ready hand) is asked; it declares and discards. False when it does not (a
        self-drawn win is the player's turn to take first)."""
        table = self.table
        state = table.state
        if state is None:
            return False
        pending = state.ready_pending(seat)
        if not pending and moves.self_drawn_win() is not None:
            return False
        tiles = state.ready_discards(seat)
        if not tiles:
            return False
        choice = self.players[seat].declare_ready(self.views[seat], tiles)
        if choice is None:
            if not pending:
                return False
            choice = tiles[0]
        if choice not in tiles:
            raise SelfPlayError(f"seat {seat} declared 听 with {tile_name(choice)}, not allowed")
        if not pending:
            self.apply(Ready(seat))
        self.apply(_DISCARDS[seat][choice] if seat < _EVENT_SEATS else Discard(seat, choice))
        return True

    def _regional(self) -> RegionalVariant:
        """The variant as the steps it declared ask it (their rules live there)."""
        return cast("RegionalVariant", self.variant)

    def exchange(self) -> None:
        """换三张, where the room plays it: every seat chooses its three tiles of one suit,
        passed at once in the room's direction, or one the dice choose (rolled from the
        hand's id, not from the deal's random stream)."""
        table = self.table
        setting = self._regional().exchange_setting(self.options)
        if setting == "off":
            return
        direction = setting
        if setting == "dice":
            rng = random.Random(f"{self.base.game}:{self.base.hand}:exchange")
            direction = rng.choice(directions(table.players))
        tiles = tuple(
            self.players[seat].exchange_tiles(self.views[seat]) for seat in range(table.players)
        )
        self.apply(Exchange(direction, tiles))

    def reveal_wilds(self) -> None:
        """翻鬼 / 翻混 / 翻精: where the room's wilds come from an indicator, the wall's last
        tile (its tail, where replacement draws come from) is turned up; it stays there."""
        if not needs_indicator(self.variant, self.options):
            return
        self.apply(Indicator(self.wall[-1], "wild"))

    def setup_events(self) -> None:
        """The table events the variant opens a hand with from its setup (a dealer's streak,
        连庄, carried from hand to hand in the setup's ``extra``), before the first draw."""
        for event in self.variant.setup_events(self.setup):
            self.apply(event)

    def stakes(self) -> None:
        """坐庄 / 拉庄: each seat from the dealer on chooses its stake level among those the
        variant offers it (:meth:`RegionalVariant.stake_choices`), recorded as the variant's
        event."""
        table = self.table
        regional = self._regional()
        for k in range(table.players):
            seat = (table.record.dealer + k) % table.players
            choices = regional.stake_choices(table, seat)
            if choices:
                level = self.players[seat].stake(self.views[seat], choices)
                if level not in choices:
                    raise SelfPlayError(f"seat {seat} chose stake {level}, not one of {choices}")
                self.apply(regional.stake_event(table, seat, level))

    def void_suits(self) -> None:
        """定缺: each seat from the dealer on declares its void suit."""
        table = self.table
        for k in range(table.players):
            seat = (table.record.dealer + k) % table.players
            self.apply(Void(seat, self.players[seat].void_suit(self.views[seat])))

    def opening_wins(self) -> None:
        """起手胡: after the dealer's first draw each seat shows the opening wins it has."""
        table = self.table
        for k in range(table.players):
            self.show_wins((table.record.dealer + k) % table.players)

    def show_wins(self, seat: int) -> None:
        """``seat`` shows the opening wins the variant lets it show now (before the first
        discard, or in play right after its draw: 中途), each with the two dice rolled for
        it (the variant may count them as its birds). The dice come from the hand's id and
        the event's place, not from the deal's random stream, so a hand plays the same with
        or without them."""
        for kind, tiles in self._regional().opening_wins(self.table, seat):
            rng = random.Random(f"{self.base.game}:{self.base.hand}:{len(self.events)}")
            dice = roll(rng)
            self.apply(StartWin(seat, kind, tiles, dice, during=self.table.discard_count > 0))

    def kong_reveal(self, seat: int) -> bool:
        """开杠: a ready konger may turn up the wall's last tiles instead of drawing one,
        then wins on one of them (杠上开花) or another seat may (杠上炮). True if it did."""
        table = self.table
        regional = self._regional()
        if not (
            regional.reveals(table.options)
            and table.wall.left() >= REVEAL_TILES
            and bool(table.seats[seat].waits)
            and regional.reveal_problem(table, seat) is None
            and self.players[seat].reveal(self.views[seat])
        ):
            return False
        front = table.wall.size - table.wall.back  # type: ignore[union-attr]
        tiles = tuple(self.wall[front - 1 - k] for k in range(REVEAL_TILES))
        self.apply(KongReveal(seat, tiles))
        self._reveal_wins(seat, tiles)
        return True

    def _reveal_wins(self, konger: int, tiles: tuple[Tile, ...]) -> None:
        table = self.table
        best: tuple[int, Tile] | None = None
        for tile in tiles:
            answer = table.would_win(konger, tile, None)
            if answer is not None and (best is None or (answer.total or 0) > best[0]):
                best = (answer.total or 0, tile)
        if best is not None:
            self.apply(Win(konger, best[1]))
            return
        for k in range(1, table.players):  # 杠上炮: each other seat's legal wins on them
            other = (konger + k) % table.players
            for tile in dict.fromkeys(tiles):
                move = next(
                    (m for m in claims(table, tile, konger) if m.kind is _WIN and m.seat == other),
                    None,
                )
                if move is None:
                    continue
                choice = self.players[other].claim(self.views[other], tile, konger, (move,))
                if choice is not None:
                    self.apply(Win(other, tile, konger))
                    break

    def last_tile_choice(self) -> bool:
        """要海底: the last tile is offered in turn from the next seat; nobody may want it
        (then the hand is drawn: False)."""
        table = self.table
        assert table.discarder is not None
        following = self.variant.replay_next_seat(table, table.discarder)
        for k in range(table.players):
            seat = (following + k) % table.players
            if not table.seats[seat].won and self.players[seat].take_haidi(self.views[seat]):
                self.draw(seat)
                return True
        return False

    def birds(self) -> None:
        """扎鸟: after a win, the birds from the wall's front (the last tile if it is empty)."""
        table = self.table
        if not table.wins:
            return
        count = self._regional().bird_count(table.options)
        if not count:
            return
        wall = table.wall
        left = wall.left()
        if left:
            front = wall.front  # type: ignore[union-attr]
            birds = tuple(self.wall[front : front + min(count, left)])
        else:
            assert table.last_wall_tile is not None
            birds = (table.last_wall_tile,)
        self.apply(Bird(birds))

    def turn_up(self) -> None:
        """翻牌: after a win, the wall's next tile is turned up (the last tile if it is empty),
        where the variant's room turns one."""
        table = self.table
        if not table.wins or not self._regional().turns_up(table.options):
            return
        wall = table.wall
        if wall.left():
            tile = self.wall[wall.front]  # type: ignore[union-attr]
        else:
            assert table.last_wall_tile is not None
            tile = table.last_wall_tile
        self.apply(TurnUp(tile))


def play_hand(
    variant: Variant,
    options: Options,
    setup: HandSetup,
    rng: random.Random,
    players: Callable[[], Sequence[Player]],
) -> HandOutcome:
    """Deal and play one hand; ``players`` makes each seat's player afresh for each deal.

    A deal is played again with a new shuffle only if the hand reaches a dead end the
    replay table cannot leave (none is known). The result is fixed by ``rng``'s state alone.
    """
    _settle_heap()
    for _ in range(MAX_DEALS):
        deal = deal_tiles(variant, options, setup, rng)
        hand = SelfPlayHand(variant, options, setup, deal, players())
        try:
            return hand.play()
        except DeadEndError:
            continue
    raise SelfPlayError(f"no playable deal in {MAX_DEALS} shuffles")
