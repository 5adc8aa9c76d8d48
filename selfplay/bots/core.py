"""The bots' shared core (机器人的共同部分): styles, the danger model, the safest tile and the
call decisions, for every family of mahjong bots.

A family of bots (:mod:`paipu.selfplay.bots.fans` for the 8-fan games,
:mod:`paipu.selfplay.bots.regional` for the 108-tile games) is a :class:`BotCore` with a
small plan of its own: how far the hand is from ready under the hand types its game pays
for, what it discards and what it gains by a call. What every family does alike is here:

* **styles**: a :class:`~paipu.rules.selfplay.Style` becomes numbers
  (:class:`StyleParams`; each family has its table of them): when to fold (弃和), how much
  a call must gain, how much safety weighs among equal discards;
* **the danger model**: an opponent's threat grows with its melds and with how long it
  has been discarding (:func:`threat_level`); a tile's danger starts from its rank
  (terminals safer) or, for an honour, the copies unseen (:func:`base_danger`), falls for
  suji (:func:`suji`) and for the opponent's own discards, and rises in the suit its melds
  show (:meth:`BotCore.danger`);
* **the safest tile** when folding (:meth:`BotCore.safest`);
* **calls**: a win is taken (unless the family lets it pass), a folding bot calls nothing,
  and among the calls the family's plan says gain enough the one that gains most is made
  (:meth:`BotCore.claim`);
* **the regional decisions** (定缺, 开杠, 要海底) keep the defaults of
  :class:`~paipu.selfplay.loop.Player` unless a family's plan overrides them.

The view is all a bot gets: it never sees another hand, a face-down kong or the wall.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from paipu.rules.legal import Move, MoveKind
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.selfplay import Style
from paipu.rules.tiles import N_KINDS, Tile
from paipu.selfplay.loop import Player, SeatView

HONOR_FIRST = 27
SUIT_SIZE = 9
SUITS = 3
HONOR_SUIT = 3
COPIES = 4

#: The kinds of move as module names: the enum member look-up is slower on hot paths.
_WIN, _CHI, _PONG = MoveKind.WIN, MoveKind.CHI, MoveKind.PONG
_READY_CHI = MoveKind.READY_CHI


def call_used(option: Move, tile: Tile) -> list[Tile]:
    """The tiles a call of ``tile`` takes from the hand (for a chi, the run's other two)."""
    kind = option.kind
    if kind is _CHI:
        return [t for t in option.tiles if t != tile]
    if kind is _PONG:
        return [tile, tile]
    return [tile, tile, tile]


def call_meld(option: Move, tile: Tile, from_seat: int) -> Meld:
    """The meld a call of ``from_seat``'s ``tile`` makes."""
    kind = option.kind
    if kind is _CHI:
        return Meld(MeldKind.CHI, option.tiles, from_seat)
    if kind is _PONG:
        return Meld(MeldKind.PONG, (tile,) * 3, from_seat)
    return Meld(MeldKind.KONG, (tile,) * 4, from_seat)


def discard_of(
    discards: list[Move], tile: Tile, counts: list[int], value_honors: frozenset[Tile]
) -> Move:
    """The listed discard of ``tile``; when the rules do not list it, the least useful of
    those they list (:func:`keep_value`, then the lowest tile)."""
    for move in discards:
        if move.tiles[0] == tile:
            return move
    return least_useful(discards, counts, value_honors)


def least_useful(discards: list[Move], counts: list[int], value_honors: frozenset[Tile]) -> Move:
    """Of the listed discards, the one whose tile does least for the hand (the lowest on a
    tie)."""
    return min(discards, key=lambda m: (keep_value(counts, m.tiles[0], value_honors), m.tiles[0]))


# ---------------------------------------------------------------------- styles


@dataclass(frozen=True, slots=True)
class StyleParams:
    """How a :class:`Style` turns into numbers."""

    fold_threat: float  # threat at which a hand that is not ready folds (弃和)
    fold_distance: int  # ... when it is at least this far from ready
    fold_ready_threat: float  # threat at which even a ready hand folds (above 1: never)
    call_gain: float  # how much a call must shorten the hand at least (0: keeping pace)
    safety: float  # weight of a tile's danger against its use, among equal discards


#: A family's numbers for each style.
StyleTable = dict[Style, StyleParams]

# ---------------------------------------------------------------------- the danger model

#: Threat of an opponent by its number of melds (0 … 4), before the lateness term.
MELD_THREAT = (0.02, 0.1, 0.35, 0.65, 0.9)
#: Discards after which an opponent counts as fully late, and the weight of lateness.
LATE_TURN = 18
LATE_WEIGHT = 0.7
#: Opponents below this threat are ignored when judging tiles; a tile whose summed danger
#: is below ``SAFE_ENOUGH`` needs no comparison with the others.
THREAT_FLOOR = 0.12
#: The threat of an opponent that declared ready (听 / 报听): it is known to wait.
DECLARED_THREAT = 1.0
SAFE_ENOUGH = 0.1

#: Danger of a suited tile by rank (1 … 9), of an honour by copies unseen (0 … 3).
RANK_DANGER = (0.55, 0.75, 0.9, 1.0, 1.0, 1.0, 0.9, 0.75, 0.55)
HONOR_DANGER = (0.02, 0.12, 0.45, 0.6)
UNSEEN_BASE = 0.4  # a suited tile's danger scales with 0.4 + 0.2 × copies unseen
UNSEEN_STEP = 0.2
GENBUTSU_DANGER = 0.12  # the opponent discarded it itself (no furiten in MCR: not zero)
SUJI_FACTOR = 0.6
SUJI_GAP = 3
FLUSH_SUIT_FACTOR = 1.6  # the suit an opponent's melds show, and honours
OFF_SUIT_FACTOR = 0.3

#: What discarding a tile gives up (its use in the hand).
PAIR_VALUE = 2.4
NEAR_VALUE = 1.5  # a neighbour one rank away
GAP_VALUE = 0.7  # two ranks away
CENTRAL = (0.0, 0.1, 0.2, 0.3, 0.3, 0.3, 0.2, 0.1, 0.0)
VALUE_HONOR = 0.6  # a dragon or a value wind: a possible 2-fan pung


def suit_of(tile: Tile) -> int:
    return tile // SUIT_SIZE if tile < HONOR_FIRST else HONOR_SUIT


def keep_value(counts: list[int], tile: Tile, value_honors: frozenset[Tile]) -> float:
    """What a tile does for the hand's shape: pairs, neighbours, middle ranks."""
    c = counts[tile]
    value = PAIR_VALUE * (c - 1)
    if tile >= HONOR_FIRST:
        if tile in value_honors:
            value += VALUE_HONOR * min(c, 2)
        return value
    rank = tile % SUIT_SIZE
    value += CENTRAL[rank]
    if rank > 0 and counts[tile - 1]:
        value += NEAR_VALUE
    if rank < SUIT_SIZE - 1 and counts[tile + 1]:
        value += NEAR_VALUE
    if rank > 1 and counts[tile - 2]:
        value += GAP_VALUE
    if rank < SUIT_SIZE - 2 and counts[tile + 2]:
        value += GAP_VALUE
    return value


def base_danger(tile: Tile, unseen: int) -> float:
    """A tile's danger before looking at any one opponent: by rank (terminals are
    safer), or for an honour by how many copies are still unseen."""
    if tile >= HONOR_FIRST:
        return HONOR_DANGER[unseen]
    return RANK_DANGER[tile % SUIT_SIZE] * (UNSEEN_BASE + UNSEEN_STEP * unseen)


#: :func:`base_danger` of every tile by copies unseen (0 … 3).
BASE_DANGER = tuple(tuple(base_danger(t, u) for u in range(COPIES)) for t in range(N_KINDS))
#: The same by copies seen (0 … 16, past 4 as for 4), as :meth:`Bot.danger` looks it up.
MOST_SEEN = 4 * COPIES
DANGER_BY_SEEN = tuple(
    tuple(BASE_DANGER[t][min(max(0, COPIES - seen), 3)] for seen in range(MOST_SEEN + 1))
    for t in range(N_KINDS)
)
SUIT_OF = tuple(suit_of(t) for t in range(N_KINDS))
#: The factor of each tile's danger when an opponent's melds show a suit, by that suit.
SHOWN_FACTOR = tuple(
    tuple(
        FLUSH_SUIT_FACTOR if SUIT_OF[t] in (shown, HONOR_SUIT) else OFF_SUIT_FACTOR
        for t in range(N_KINDS)
    )
    for shown in range(SUITS)
)


def suji(discarded: Iterable[Tile]) -> set[Tile]:
    """Tiles three ranks from a discard in the same suit (筋): a two-sided wait on them
    would also have taken the discarded tile."""
    out = set()
    for tile in discarded:
        if tile < HONOR_FIRST:
            rank = tile % SUIT_SIZE
            if rank >= SUJI_GAP:
                out.add(tile - SUJI_GAP)
            if rank < SUIT_SIZE - SUJI_GAP:
                out.add(tile + SUJI_GAP)
    return out


class Threat(NamedTuple):
    """An opponent still playing and how likely it is to be ready, from what shows."""

    seat: int
    level: float


def threat_level(melds: int, discards: int) -> float:
    """How likely an opponent with ``melds`` melds and ``discards`` discards is ready."""
    base = MELD_THREAT[min(melds, len(MELD_THREAT) - 1)]
    late = min(1.0, discards / LATE_TURN)
    return base + (1 - base) * LATE_WEIGHT * late * late


#: :func:`threat_level` by melds (0 … 4) and discards (0 … ``LATE_TURN``, fully late).
THREAT_LEVEL = tuple(
    tuple(threat_level(melds, discards) for discards in range(LATE_TURN + 1))
    for melds in range(len(MELD_THREAT))
)
#: The :class:`Threat` of each seat, melds (0 … 4) and discards (0 … ``MAX_DISCARDS``),
#: made once (:meth:`Bot.threats` makes the others it meets).
MAX_SEATS = 4
MAX_DISCARDS = 160
THREATS = tuple(
    tuple(
        tuple(Threat(seat, THREAT_LEVEL[melds][min(d, LATE_TURN)]) for d in range(MAX_DISCARDS))
        for melds in range(len(MELD_THREAT))
    )
    for seat in range(MAX_SEATS)
)


def _threat_danger(tile: Tile, seen: int, shown: int | None, near: bool, own: bool) -> float:
    """One opponent's danger of ``tile`` before its threat weighs it, as :meth:`Bot.danger`
    computes it: ``seen`` copies in sight, the suit ``shown`` by its melds, whether the
    tile is ``near`` (suji of) its discards, whether it is its ``own`` discard."""
    danger = DANGER_BY_SEEN[tile][seen]
    if near:
        danger = danger * SUJI_FACTOR
    if shown is not None:
        danger = danger * SHOWN_FACTOR[shown][tile]
    return GENBUTSU_DANGER if own and danger > GENBUTSU_DANGER else danger


#: :func:`_threat_danger` of each tile by copies seen (0 … ``MOST_SEEN``), for each shown
#: suit (0 … 2, then 3 for none), suji or not, own discard or not: index
#: ``[shown][near * 2 + own][tile]`` (:attr:`_Read.rows`).
THREAT_DANGER = tuple(
    tuple(
        tuple(
            tuple(
                _threat_danger(t, seen, None if shown == SUITS else shown, near, own)
                for seen in range(MOST_SEEN + 1)
            )
            for t in range(N_KINDS)
        )
        for near in (False, True)
        for own in (False, True)
    )
    for shown in range(SUITS + 1)
)


class _Read:
    """What one opponent's table shows, for :meth:`Bot.danger`: the tiles it discarded,
    their suji and the suit its melds show, and from them each tile's row of
    :data:`THREAT_DANGER`. Its discards only grow, so the sets and the rows of the tiles
    they touch are brought up to date from the discards not read yet."""

    __slots__ = ("count", "discarded", "melds", "near", "pool", "rows", "shown")

    def __init__(self, pool: list[Tile]) -> None:
        self.pool = pool  # the table's list of the opponent's discards
        self.count = 0  # discards read so far
        self.melds = -1  # melds when ``shown`` was read
        self.discarded: set[Tile] = set()
        self.near: set[Tile] = set()
        self.shown: int | None = None
        #: Each tile's danger by copies seen (before the threat weighs it).
        self.rows: list[tuple[float, ...]] = list(THREAT_DANGER[SUITS][0])

    def refresh(self, tiles: Iterable[Tile]) -> None:
        """Bring the rows of ``tiles`` up to date with the sets and the shown suit."""
        table = THREAT_DANGER[SUITS if self.shown is None else self.shown]
        discarded, near, rows = self.discarded, self.near, self.rows
        for tile in tiles:
            rows[tile] = table[(tile in near) * 2 + (tile in discarded)][tile]


class BotCore(Player):
    """What every family of bots shares: its style's numbers, its reading of the
    opponents (threats, each tile's danger), the safest tile and the call decision.

    A family overrides :meth:`turn`, :meth:`call_start` and :meth:`call_gain` (and
    :meth:`passes_win` where its game rewards passing a win)."""

    def __init__(self, style: Style, params: StyleParams) -> None:
        self.style = style
        self.params = params
        self.reads: dict[int, _Read] = {}  # by opponent seat
        self.opponents: list[tuple[int, int, int]] = []  # last seen, and their threats:
        self.threat_list: list[Threat] = []
        self.threat_level = 0.0  # the highest of them

    # -- the opponents

    def threats(self, view: SeatView) -> list[Threat]:
        """Each opponent still playing, with how likely it is to be ready (the list is
        shared until an opponent acts: do not change it)."""
        opponents = view.opponents()
        if opponents != self.opponents:
            self.opponents = opponents
            try:
                threats = [THREATS[other][melds][d] for other, melds, d in opponents]
            except IndexError:
                threats = [Threat(other, threat_level(m, d)) for other, m, d in opponents]
            declared = view.declared_ready()
            if declared:  # a declared 听 is known to be ready: the highest threat
                threats = [
                    Threat(t.seat, DECLARED_THREAT) if t.seat in declared else t for t in threats
                ]
            self.threat_list = threats
            self.threat_level = max([t.level for t in threats], default=0.0)
        return self.threat_list

    def danger(
        self,
        view: SeatView,
        tiles: Sequence[Tile],
        threats: list[Threat],
        seen: list[int] | None = None,
    ) -> list[float]:
        """Each tile's danger, summed over the threatening opponents weighted by threat:
        :func:`base_danger`, × 0.6 on suji, × 1.6 in the suit (and honours) an opponent's
        melds show and × 0.3 outside it, at most 0.12 on the opponent's own discards.
        ``seen`` is :meth:`SeatView.seen`, when the caller has it."""
        if seen is None:
            seen = view.seen()
        copies = [seen[t] for t in tiles]
        out = [0.0] * len(tiles)
        for threat in threats:
            level = threat.level
            if level < THREAT_FLOOR:
                continue
            rows = self._read(view, threat.seat).rows
            out = [o + level * rows[t][c] for o, t, c in zip(out, tiles, copies, strict=True)]
        return out

    def _read(self, view: SeatView, other: int) -> _Read:
        """The opponent's discards, their suji and its shown suit, brought up to date
        with what it discarded or declared since the last read."""
        pool = view.discards(other)
        read = self.reads.get(other)
        if read is None or read.pool is not pool:
            read = self.reads[other] = _Read(pool)
        every = False  # whether every row must be brought up to date
        melds = view.meld_count(other)
        if read.melds != melds:
            shown = self._shown_suit(view, other)
            read.melds = melds
            if shown != read.shown:
                read.shown = shown
                every = True
        if read.count != len(pool):
            new = pool[read.count :]
            near = suji(new)
            read.discarded.update(new)
            read.near.update(near)
            read.count = len(pool)
            if not every:
                read.refresh({*new, *near})
        if every:
            read.refresh(range(N_KINDS))
        return read

    def _shown_suit(self, view: SeatView, other: int) -> int | None:
        melds = view.exposed_melds(other)
        suits = {suit_of(m.base) for m in melds} - {HONOR_SUIT}
        if len(melds) >= 2 and len(suits) == 1:
            return suits.pop()
        return None

    # -- decisions
    def safest(
        self,
        view: SeatView,
        kinds: Sequence[Tile],
        uses: Sequence[float],
        threats: list[Threat],
        seen: list[int] | None = None,
    ) -> Tile:
        """Fold: of ``kinds`` (each with its use in the hand), the tile least likely to
        deal in, then the least useful, then the lowest."""
        danger = self.danger(view, kinds, threats, seen)
        return min(zip(danger, uses, kinds, strict=True))[2]

    # -- calls

    def claim(
        self, view: SeatView, tile: Tile, from_seat: int, options: Sequence[Move]
    ) -> Move | None:
        """A win when offered (unless :meth:`passes_win`), a chi that declares ready (吃听)
        when offered; else, unless the bot is folding,
        the call whose :meth:`call_gain` is highest (the first on a tie), or none."""
        for option in options:
            if option.kind is _WIN:
                return None if self.passes_win(view, tile, from_seat) else option
            if option.kind is _READY_CHI:  # 吃听: the hand is ready at once
                return option
        now = self.call_start(view, tile)
        if now is None:
            return None
        self.threats(view)
        params = self.params
        if now >= params.fold_distance and self.threat_level >= params.fold_threat:
            return None  # folding: a call would only open the hand
        best: tuple[float, Move] | None = None
        for option in options:
            gain = self.call_gain(view, option, tile, from_seat, now)
            if gain is not None and (best is None or gain > best[0]):
                best = (gain, option)
        return best[1] if best is not None else None

    def passes_win(self, view: SeatView, tile: Tile, from_seat: int) -> bool:
        """Whether to let a win on another seat's ``tile`` pass (never, by default)."""
        return False

    def call_start(self, view: SeatView, tile: Tile) -> float | None:
        """The hand's distance before a call on ``tile``; None when the bot calls nothing."""
        raise NotImplementedError

    def call_gain(
        self, view: SeatView, option: Move, tile: Tile, from_seat: int, now: float
    ) -> float | None:
        """How much the call shortens the hand's distance ``now``, when that is enough for
        the bot's style to make it; else None."""
        raise NotImplementedError
