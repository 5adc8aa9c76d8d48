"""The legal moves (合法动作): at any point of a hand, which moves each seat may make, and
in which priority. One source for the replay (which checks a logged move against it) and
for self-play (which chooses among what it lists); it knows no variant, only the
variant's data and the state its table holds.

The API:

* :class:`MoveKind`: what a move is (``win``, ``kong``, ``ready_chi``, ``pong``, ``chi``,
  ``pass_``, ``discard``, ``concealed_kong``, ``added_kong``, ``flower``,
  ``self_drawn_win``);
* :class:`Move`: ``seat``, ``kind``, ``tiles`` (the tiles taken from the hand with the
  claimed tile, for a chi the run; the discard; the kong's tile) and ``priority``: the
  place of its kind in the variant's claim order, **0 the best** (a win before a kong
  before a pong before a chi); lists are sorted best first, then by seat in turn order
  after the discarder;
* :func:`claims` ``(table, tile, from_seat)``: every seat's legal claims on a discard;
* :func:`rob_claims` ``(table, tile, konger)``: the wins robbing an added kong (抢杠);
* :func:`turn_moves` ``(table, seat)``: the moves of a seat on its own turn: the
  self-drawn win, concealed and added kongs, flowers, discards;
* :func:`reveal_wins` ``(table, konger, tiles)``: the konger's 杠上开花 on the tiles of its
  kong reveal (开杠);
* :func:`claim_priority` ``(variant)``: the variant's order of claims, its TOML's
  ``claim_priority`` (default ``["win", "kong", "pong", "chi"]``);
* :func:`claim_problem` and :func:`discard_problem`: why one move is not legal (None when
  it is), the questions the replay table asks of a logged move; the lists above are made
  of the same answers.

The rules of this module:

* a claim's kind must be one of the variant's ``calls``; a chi only by the next seat (下家
  of the discarder: "chi is claimed only from the previous seat (上家)");
* a kong needs a replacement tile left in the wall;
* a seat that has won (血战) claims and moves nothing;
* the rules of the variant's own table state (its mechanics, ``Table.move_problem``): no
  pong or kong of a tile of the seat's void suit (定缺), and a seat holding its void suit
  must discard from it; a seat that passed a win may not win on a discard until its own
  next draw (漏胡, the wins are scored by the table, which asks the lock); a 补杠 only on
  the draw of the fourth tile where the room says so (过时不候); nothing but wins on the
  tiles of a 开杠;
* the hand's wilds (``Table.wilds``, a :class:`~paipu.rules.core.wild.WildSpec`, set by
  :mod:`paipu.rules.mechanics.wilds`): a discarded wild may not be claimed (chi, pong,
  kong) unless its ``claim`` allows it; a wild may not go into a pong or kong (claimed or
  added) unless ``pong``, nor four wilds into a concealed kong unless ``concealed_kong``
  (天津 金杠), nor a wild from the hand into a chi unless ``chow``
  (:func:`chi_wild_problem`); a wild may not be discarded unless ``discard``;
* ready declarations (听 / 报听: :mod:`paipu.rules.mechanics.ready`): a chi that declares
  ready (吃听) is listed as ``ready_chi`` where the variant's ``claim_priority`` names the
  kind, for the runs its state answers (``VariantState.ready_chi_runs``); the declaration
  on a seat's own turn is the ``ready`` event before its discard, the discards it allows
  the state's ``ready_discards`` (self-play's ``ready`` step).

What it does not decide: the tiles a move takes must be held (the table checks that, with
its own messages), and the order of the events around a move (the phase). A call on the
last discard of the hand is legal (the table accepts it; the hand is then drawn), though
self-play does not offer it. The zipai games have their own table and moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from paipu.rules.melds import MeldKind
from paipu.rules.tiles import N_KINDS, Tile, is_suited, tile_name

if TYPE_CHECKING:
    from paipu.rules.core.tiles import TileSet
    from paipu.rules.replay import Table
    from paipu.rules.variants import Variant

#: Ranks in a suit; a chi is three consecutive ranks of one suit.
SUIT_SIZE = 9


class MoveKind(StrEnum):
    """What a move is: the claims on another seat's tile, then the moves of one's turn."""

    WIN = "win"  # 和 on a discard, or robbing a kong (抢杠)
    KONG = "kong"  # 明杠 of a discard
    READY_CHI = "ready_chi"  # 吃听: a chi declaring ready (rules/mechanics/ready.py)
    PONG = "pong"
    CHI = "chi"
    PASS = "pass_"  # let the tile go (not listed: always open)
    DISCARD = "discard"
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    FLOWER = "flower"
    SELF_DRAWN_WIN = "self_drawn_win"  # 自摸


#: The claim order of a variant whose TOML names none.
DEFAULT_CLAIM_PRIORITY = ("win", "kong", "pong", "chi")
#: The order of the moves of a turn (a list order only: one seat chooses one of them).
TURN_ORDER = (
    MoveKind.SELF_DRAWN_WIN,
    MoveKind.FLOWER,
    MoveKind.CONCEALED_KONG,
    MoveKind.ADDED_KONG,
    MoveKind.DISCARD,
)


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move: ``tiles`` are the claimed run for a chi, else the one tile."""

    seat: int
    kind: MoveKind
    tiles: tuple[Tile, ...]
    priority: int = 0

    @property
    def tile(self) -> Tile:
        """The tile the move is about: the claimed or discarded tile, the kong's tile (for
        a chi, the lowest of its run)."""
        return self.tiles[0]


def claim_priority(variant: Variant) -> tuple[str, ...]:
    """The variant's order of claims on a discard, best first (its TOML's
    ``claim_priority``)."""
    cached = variant.__dict__.get("_claim_priority")
    if cached is None:
        raw = variant.spec.raw.get("claim_priority", DEFAULT_CLAIM_PRIORITY)
        known = {k.value for k in MoveKind}
        unknown = [k for k in raw if k not in known]
        if unknown:
            raise ValueError(
                f"{variant.id}.toml: claim_priority names {unknown}, not kinds of move "
                f"({', '.join(sorted(known))})"
            )
        cached = variant.__dict__["_claim_priority"] = tuple(raw)
    return cached


def _priority(variant: Variant, kind: MoveKind) -> int:
    order = claim_priority(variant)
    return order.index(kind.value) if kind.value in order else len(order)


# ---------------------------------------------------------------------- one move


def claim_problem(
    table: Table, seat: int, kind: MoveKind, tile: Tile, from_seat: int
) -> str | None:
    """Why ``seat`` may not claim ``from_seat``'s ``tile`` as ``kind`` (a chi, pong or kong)
    by the rules of the variant and its table state; None when it may. The tiles held are
    the table's to check (its messages name the tile missing)."""
    variant = table.variant
    if seat == from_seat:
        return f"seat {seat} cannot claim its own discard"
    if table.seats[seat].won:
        return f"seat {seat} has already won and left the hand"
    if kind.value not in variant.spec.calls:
        return f"{variant.id} has no {kind.value}"
    if kind is MoveKind.CHI and seat != (from_seat + 1) % table.players:
        return "chi is claimed only from the previous seat (上家)"
    wilds = table.wilds
    if wilds is not None and wilds.is_wild(tile):
        if not wilds.can_claim:
            return f"{tile_name(tile)} is wild here: a discarded wild may not be claimed"
        if kind is not MoveKind.CHI and not wilds.can_pong:
            return f"{tile_name(tile)} is wild here: wilds may not go into a pong or kong"
    if kind is MoveKind.KONG and not table.wall.can_replace(seat):
        return "no tile is left for the kong's replacement draw"
    return table.move_problem(seat, kind.value, tile)


def chi_wild_problem(table: Table, run: tuple[Tile, ...], tile: Tile) -> str | None:
    """Why a chi of ``tile`` with ``run`` may not use the wilds of the run's other tiles (the
    hand's :class:`~paipu.rules.core.wild.WildSpec` forbids wilds in a chi); None when it
    may. The claimed tile itself is :func:`claim_problem`'s."""
    wilds = table.wilds
    if wilds is None or wilds.can_chow:
        return None
    rest = list(run)
    rest.remove(tile)
    for t in rest:
        if wilds.is_wild(t):
            return f"{tile_name(t)} is wild here: wilds may not go into a chi"
    return None


def discard_problem(table: Table, seat: int, tile: Tile) -> str | None:
    """Why ``seat`` may not discard ``tile`` now (a void suit to discard first, the 海底
    tile that must go, a wild that may not be discarded); None when it may."""
    wilds = table.wilds
    if wilds is not None and wilds.is_wild(tile) and not wilds.can_discard:
        return f"{tile_name(tile)} is wild here: wilds may not be discarded"
    return table.discard_problem(seat, tile)


def win_problem(table: Table, seat: int, tile: Tile, from_seat: int | None) -> str | None:
    """Why ``seat`` may not win on ``tile`` now though its tiles would (a seat that has
    left, 漏胡: the lock of the variant's state); None when it may. The scoring decides
    the rest (the table asks this before scoring)."""
    if table.seats[seat].won:
        return f"seat {seat} has already won"
    state = table.state
    return None if state is None else state.win_problem(seat, tile, from_seat)


def own_kong_problem(table: Table, seat: int, kind: MoveKind, tile: Tile) -> str | None:
    """Why ``seat`` may not declare a concealed or added kong of ``tile`` on its turn."""
    if kind.value not in table.variant.spec.calls:
        return f"{table.variant.id} has no {kind.value}"
    wilds = table.wilds
    if wilds is not None and wilds.is_wild(tile):
        if kind is MoveKind.CONCEALED_KONG and not wilds.can_concealed_kong:
            return f"{tile_name(tile)} is wild here: four wilds may not be declared a kong"
        if kind is MoveKind.ADDED_KONG and not wilds.can_pong:
            return f"{tile_name(tile)} is wild here: wilds may not go into a pong or kong"
    if not table.wall.can_replace(seat):
        return "no tile is left for the kong's replacement draw"
    return table.move_problem(seat, kind.value, tile)


# ---------------------------------------------------------------------- the lists


def claims(table: Table, tile: Tile, from_seat: int) -> list[Move]:
    """Every seat's legal claims on ``from_seat``'s discard ``tile``, best priority first
    (then by seat in turn order after the discarder)."""
    variant = table.variant
    players = table.players
    seats = table.seats
    found: list[Move] = []
    for k in range(1, players):
        seat = (from_seat + k) % players
        s = seats[seat]
        if s.won:
            continue
        if tile in s.waits and table.would_win(seat, tile, from_seat) is not None:
            found.append(Move(seat, MoveKind.WIN, (tile,), _priority(variant, MoveKind.WIN)))
        if tile >= N_KINDS and tile >= table.kind_count:
            continue
        held = s.hand[tile]
        for kind, needed in ((MoveKind.KONG, 3), (MoveKind.PONG, 2)):
            if held >= needed and claim_problem(table, seat, kind, tile, from_seat) is None:
                found.append(Move(seat, kind, (tile,), _priority(variant, kind)))
        if k == 1 and (is_suited(tile) or table.tile_set is not None):
            runs = _runs(s.hand, tile) if table.tile_set is None else set_runs(table, seat, tile)
            if runs and table.wilds is not None:
                runs = [r for r in runs if chi_wild_problem(table, r, tile) is None]
            if runs and claim_problem(table, seat, MoveKind.CHI, tile, from_seat) is None:
                priority = _priority(variant, MoveKind.CHI)
                found.extend(Move(seat, MoveKind.CHI, run, priority) for run in runs)
                found.extend(_ready_chis(table, seat, tile, runs))
    order = {(from_seat + k) % players: k for k in range(players)}
    found.sort(key=lambda m: (m.priority, order[m.seat]))
    return found


def _ready_chis(table: Table, seat: int, tile: Tile, runs: list[tuple[Tile, ...]]) -> list[Move]:
    """The chis of ``tile`` that declare ready (吃听, ``ready_chi``) where the variant's
    ``claim_priority`` names the kind: the runs its state says leave a ready hand."""
    state = table.state
    variant = table.variant
    if state is None or MoveKind.READY_CHI.value not in claim_priority(variant):
        return []
    priority = _priority(variant, MoveKind.READY_CHI)
    return [
        Move(seat, MoveKind.READY_CHI, run, priority)
        for run in state.ready_chi_runs(seat, tile, runs)
    ]


def _runs(hand: list[int], tile: Tile) -> list[tuple[Tile, ...]]:
    """The runs a chi of ``tile`` can make with the hand: the tile last, in the middle,
    first (as its rank allows)."""
    rank = tile % SUIT_SIZE
    runs: list[tuple[Tile, ...]] = []
    if rank >= 2 and hand[tile - 2] > 0 and hand[tile - 1] > 0:
        runs.append((tile - 2, tile - 1, tile))
    if 1 <= rank <= SUIT_SIZE - 2 and hand[tile - 1] > 0 and hand[tile + 1] > 0:
        runs.append((tile - 1, tile, tile + 1))
    if rank <= SUIT_SIZE - 3 and hand[tile + 1] > 0 and hand[tile + 2] > 0:
        runs.append((tile, tile + 1, tile + 2))
    return runs


def set_runs(table: Table, seat: int, tile: Tile) -> list[tuple[Tile, ...]]:
    """:func:`_runs` on the table's own tile set (十万麻将's 1–10 suits: 8-9-10 is a run,
    10 and 1 are not connected), by the set's ranks rather than code arithmetic."""
    tile_set = table.tile_set
    assert tile_set is not None
    return runs_in(tile_set, table.seats[seat].hand, tile)


def runs_in(tile_set: TileSet, hand: Sequence[int], tile: Tile) -> list[tuple[Tile, ...]]:
    """The chows of ``tile_set`` that ``tile`` completes with two tiles of ``hand`` (counts
    by code), lowest first."""
    runs: list[tuple[Tile, ...]] = []
    below = tile_set.previous_rank(tile)
    lowest = tile_set.previous_rank(below) if below is not None else None
    for first in (lowest, below, tile):
        run = tile_set.chow_from(first) if first is not None else None
        if run is not None and all(t == tile or hand[t] > 0 for t in run):
            runs.append(run)
    return runs


def rob_claims(table: Table, tile: Tile, konger: int) -> list[Move]:
    """The wins robbing ``konger``'s added kong of ``tile`` (抢杠), in turn order after the
    konger (the table must be in its rob phase: the wins are scored as robbing)."""
    priority = _priority(table.variant, MoveKind.WIN)
    out = []
    for k in range(1, table.players):
        seat = (konger + k) % table.players
        s = table.seats[seat]
        if not s.won and tile in s.waits and table.would_win(seat, tile, konger) is not None:
            out.append(Move(seat, MoveKind.WIN, (tile,), priority))
    return out


def reveal_wins(table: Table, konger: int, tiles: tuple[Tile, ...]) -> list[Move]:
    """The konger's self-drawn wins on the tiles its kong reveal (开杠) turned up (杠上开花),
    one per winning tile; the other seats' wins on them are :func:`claims` from the
    konger (杠上炮)."""
    priority = TURN_ORDER.index(MoveKind.SELF_DRAWN_WIN)
    return [
        Move(konger, MoveKind.SELF_DRAWN_WIN, (tile,), priority)
        for tile in dict.fromkeys(tiles)
        if table.would_win(konger, tile, None) is not None
    ]


def turn_moves(table: Table, seat: int) -> list[Move]:
    """The moves of ``seat`` on its own turn (it holds a full hand): the self-drawn win on
    the tile just drawn, flowers to set aside (then nothing else: a held flower goes first),
    concealed and added kongs, and the discards the rules allow (定缺: from the void suit
    while the seat holds it). Empty when it is not the seat's turn to act."""
    if table.turn != seat or table.phase.value != "act" or table.seats[seat].won:
        return []
    s = table.seats[seat]
    order = {kind: i for i, kind in enumerate(TURN_ORDER)}
    out: list[Move] = []
    drawn = table.drawn
    if drawn is not None and drawn in s.waits and table.self_draw_answer(seat) is not None:
        out.append(Move(seat, MoveKind.SELF_DRAWN_WIN, (drawn,), order[MoveKind.SELF_DRAWN_WIN]))
    if s.held_flowers:
        priority = order[MoveKind.FLOWER]
        out.extend(
            Move(seat, MoveKind.FLOWER, (f,), priority) for f in dict.fromkeys(s.held_flowers)
        )
        return out
    hand = s.hand
    kinds = table.kind_count
    for tile in range(kinds):
        if hand[tile] == 4 and own_kong_problem(table, seat, MoveKind.CONCEALED_KONG, tile) is None:
            out.append(Move(seat, MoveKind.CONCEALED_KONG, (tile,), order[MoveKind.CONCEALED_KONG]))
    for meld in s.melds:
        tile = meld.base
        if (
            meld.kind is MeldKind.PONG
            and hand[tile]
            and own_kong_problem(table, seat, MoveKind.ADDED_KONG, tile) is None
        ):
            out.append(Move(seat, MoveKind.ADDED_KONG, (tile,), order[MoveKind.ADDED_KONG]))
    priority = order[MoveKind.DISCARD]
    for tile in range(kinds):
        if hand[tile] and discard_problem(table, seat, tile) is None:
            out.append(Move(seat, MoveKind.DISCARD, (tile,), priority))
    return out
