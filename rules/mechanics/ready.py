"""The ready declaration (听 / 报听 / 吃听): a seat declares its hand ready, and from then on
the hand may not change except by kongs that keep it ready.

The ``ready`` event (:class:`~paipu.rules.events.Ready`, ``["ready", seat]``) comes

* on the seat's own turn, right before its discard (报听): the discard that follows must
  leave a ready hand, and the seat is ready once it lands (that discard is its *declaring
  discard*, which some rules treat apart: :attr:`ReadyDeclaration.declaring_discard`);
* on another seat's discard, right before the seat's chi of it (吃听, the legal move
  ``ready_chi``): the chi is then followed by a discard that leaves a ready hand.

A ready seat then discards the tile it draws (its hand may not change: 报听后不能换牌), may
not chi or pong, and may declare a kong only when the hand stays ready after it. The seats
that declared are known to the table (:meth:`ReadyDeclaration.seats`): for a score
request's ``extra.ready``, for self-play, for the analytics of the discards made against a
declared hand.

What makes a hand one a seat may declare is the variant's: ``condition`` (the seat, the
concealed counts of a waiting hand, its melds and its waits by shape) answers why a hand
with waits may still not declare (None when it may); by default any hand with a wait may.

>>> from paipu.rules.tiles import counts, parse_tiles
>>> ready_waits(counts(parse_tiles("1112345678999m")), 0, frozenset())
(0, 1, 2, 3, 4, 5, 6, 7, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from paipu.rules.core import shanten as core_shanten
from paipu.rules.events import Chi, Discard, Event, Ready
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.replay import Phase
from paipu.rules.shanten import Shape, waits
from paipu.rules.tiles import N_KINDS, Tile, tile_name

if TYPE_CHECKING:
    from paipu.rules.core.wild import WildSpec
    from paipu.rules.replay import Table

#: Why a seat's waiting hand (concealed counts, melds, waits by shape) may not declare.
ReadyCondition = Callable[[int, list[int], Sequence[Meld], tuple[Tile, ...]], "str | None"]
#: The kinds of kong a ready seat may declare when its hand stays ready.
KONG_KINDS = ("kong", "concealed_kong", "added_kong")
SET_SIZE = 3


def ready_waits(
    counts: list[int], melds: int, shapes: Collection[Shape], wilds: WildSpec | None = None
) -> tuple[Tile, ...]:
    """The waits of a hand of ``13 − 3 × melds`` concealed tiles (standard shape, and the
    variant's other shapes), through the hand's ``wilds`` when it has any: a hand ready
    only by its 混 is ready."""
    shapes = shapes or (Shape.STANDARD,)
    if wilds is None or wilds.plain:
        return waits(counts, melds, shapes)
    return core_shanten.waits(counts, wilds, melds, shapes)


class ReadyDeclaration:
    """听 on the table: who declared, who is declaring, and the rules of a ready hand."""

    def __init__(
        self, table: Table, condition: ReadyCondition | None = None, *, same_waits: bool = False
    ) -> None:
        self.table = table
        self.condition = condition
        #: A ready seat's kong must keep the very waits it had (else: any ready hand).
        self.same_waits = same_waits
        players = table.players
        #: Each seat's declaration, once its declaring discard has landed.
        self.declared = [False] * players
        #: The event index of each seat's ready event (-1: none).
        self.declared_at = [-1] * players
        #: The seat that declared and has not discarded yet.
        self.pending: int | None = None
        #: Whether the pending seat declared on a discard (吃听): its chi comes next.
        self.pending_chi = False
        #: The seat whose last discard was its declaring discard, while that discard can
        #: still be won on (None otherwise).
        self.declaring_discard: int | None = None
        self.shapes = table.variant.replay_shapes()

    # ------------------------------------------------------------------ queries

    def _waits(self, counts: list[int], melds: int) -> tuple[Tile, ...]:
        return ready_waits(counts, melds, self.shapes, self.table.wilds)

    def seats(self) -> tuple[int, ...]:
        """The seats that have declared (their declaring discard landed), in seat order."""
        return tuple(seat for seat, ready in enumerate(self.declared) if ready)

    def is_ready(self, seat: int) -> bool:
        return self.declared[seat]

    def hand_problem(self, seat: int, counts: list[int], melds: Sequence[Meld]) -> str | None:
        """Why ``seat`` may not be ready with the waiting hand ``counts`` and ``melds``."""
        found = self._waits(counts, len(melds))
        if not found:
            return "the hand would wait on nothing (not 听)"
        condition = self.condition
        return None if condition is None else condition(seat, counts, melds, found)

    def discards(self, seat: int) -> tuple[Tile, ...]:
        """The discards after which ``seat`` (holding a full hand) is ready as the rules
        allow: what a declaration may be followed by; () when there is none."""
        s = self.table.seats[seat]
        hand = s.hand
        if sum(hand) + SET_SIZE * len(s.melds) != self.table.variant.spec.hand_size + 1:
            return ()
        out = []
        for tile in range(N_KINDS):
            if not hand[tile]:
                continue
            hand[tile] -= 1
            try:
                if self.hand_problem(seat, hand, s.melds) is None:
                    out.append(tile)
            finally:
                hand[tile] += 1
        return tuple(out)

    def may_declare(self, seat: int) -> bool:
        """Whether ``seat`` may declare now on its own turn (报听, then one of
        :meth:`discards`)."""
        table = self.table
        return (
            not self.declared[seat]
            and self.pending is None
            and table.phase is Phase.ACT
            and table.turn == seat
            and not table.seats[seat].won
            and bool(self.discards(seat))
        )

    def chi_runs(
        self, seat: int, tile: Tile, runs: Sequence[tuple[Tile, ...]]
    ) -> list[tuple[Tile, ...]]:
        """Of the runs ``seat`` could chi with ``tile``, those after which a discard leaves
        a ready hand (吃听)."""
        if self.declared[seat] or self.pending is not None:
            return []
        s = self.table.seats[seat]
        hand = s.hand.copy()
        out = []
        for run in runs:
            rest = list(run)
            rest.remove(tile)
            for t in rest:
                hand[t] -= 1
            melds = [*s.melds, Meld(MeldKind.CHI, tuple(run), None)]
            if any(self._after_discard_ok(seat, hand, melds, t) for t in range(N_KINDS) if hand[t]):
                out.append(tuple(run))
            for t in rest:
                hand[t] += 1
        return out

    def _after_discard_ok(
        self, seat: int, hand: list[int], melds: Sequence[Meld], tile: Tile
    ) -> bool:
        hand[tile] -= 1
        try:
            return self.hand_problem(seat, hand, melds) is None
        finally:
            hand[tile] += 1

    # ------------------------------------------------------------------ the event

    def declare(self, event: Ready) -> None:
        """The handler of the ``ready`` event."""
        table = self.table
        seat = event.seat
        if self.declared[seat] or self.pending == seat:
            raise table.fail(event, f"seat {seat} has already declared 听 (ready)")
        if table.phase is Phase.ACT and table.turn == seat:
            if not self.discards(seat):
                raise table.fail(event, self._why_not(seat))
            self.pending_chi = False
        elif table.phase is Phase.CLAIM and table.discarder not in (None, seat):
            self.pending_chi = True
        else:
            raise table.fail(
                event,
                f"seat {seat} may declare 听 only on its own turn before its discard, or on "
                "a discard it chis (吃听)",
            )
        self.pending = seat
        self.declared_at[seat] = table.index
        table.notes.append("ready_chi" if self.pending_chi else "ready")

    def _why_not(self, seat: int) -> str:
        s = self.table.seats[seat]
        hand = s.hand
        reasons = []
        for tile in range(N_KINDS):
            if hand[tile]:
                hand[tile] -= 1
                reason = self.hand_problem(seat, hand, s.melds)
                hand[tile] += 1
                if reason and reason not in reasons:
                    reasons.append(reason)
        said = "; ".join(reasons[:2]) or "no discard leaves a ready hand"
        return f"seat {seat} cannot declare 听: no discard leaves a hand it may declare ({said})"

    # ------------------------------------------------------------------ hooks

    def before(self, event: Event) -> None:
        """A 吃听 declaration is followed by the seat's chi, which must leave a hand that
        can discard into a ready one."""
        pending = self.pending
        if pending is None or not self.pending_chi:
            return
        table = self.table
        if type(event) is not Chi or event.seat != pending:  # type: ignore[attr-defined]
            raise table.fail(
                event, f"吃听: seat {pending} declared 听 on the discard, so its chi must follow"
            )
        tile = table.last_discard
        if tile is not None and not self.chi_runs_pending(pending, tile, event.tiles):  # type: ignore[attr-defined]
            raise table.fail(
                event,
                f"吃听: after this chi no discard leaves seat {pending} a hand it may declare",
            )

    def chi_runs_pending(self, seat: int, tile: Tile, run: tuple[Tile, ...]) -> bool:
        pending, self.pending = self.pending, None
        try:
            return bool(self.chi_runs(seat, tile, [run]))
        finally:
            self.pending = pending

    def after(self, event: Event) -> None:
        """The declaring discard makes the seat ready; any later move closes the window in
        which that discard counts as the declaring one."""
        event_type = type(event)
        if event.table_event:
            return
        if event_type is Discard:
            seat: int = event.seat  # type: ignore[attr-defined]
            if seat == self.pending:
                self.declared[seat] = True
                self.pending = None
                self.pending_chi = False
                self.declaring_discard = seat
                self.table.refresh_waits(seat)
                return
        if event_type is Chi and self.pending_chi and event.seat == self.pending:  # type: ignore[attr-defined]
            self.pending_chi = False  # 吃听: the chi is made, the declaring discard follows
        if event_type is not Ready:
            self.declaring_discard = None

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        """A ready seat may not chi or pong; a kong only when the hand stays ready. A seat
        declaring on its turn discards first."""
        if self.pending == seat and not self.pending_chi:
            return f"seat {seat} declared 听: its discard comes next"
        if not self.declared[seat]:
            return None
        if kind not in KONG_KINDS:
            return f"seat {seat} declared 听: its hand may not change (no {kind} after 报听)"
        s = self.table.seats[seat]
        hand = s.hand.copy()
        melds = list(s.melds)
        if kind == "added_kong":
            taken = 1
        else:
            taken = 3 if kind == "kong" else 4
            meld_kind = MeldKind.KONG if kind == "kong" else MeldKind.CONCEALED_KONG
            melds.append(Meld(meld_kind, (tile,) * 4, None))
        if hand[tile] < taken:
            return None  # the table names the missing tile
        before = self._waits(self._waiting(s.hand, len(s.melds)), len(s.melds))
        hand[tile] -= taken
        if sum(hand) + SET_SIZE * len(melds) != self.table.variant.spec.hand_size:
            return None  # not a hand the question applies to
        if self.hand_problem(seat, hand, melds) is not None or (
            self.same_waits and self._waits(hand, len(melds)) != before
        ):
            return (
                f"seat {seat} declared 听: a kong of {tile_name(tile)} would leave its hand "
                "not ready (听后杠牌须不影响听牌)"
            )
        return None

    def _waiting(self, hand: list[int], melds: int) -> list[int]:
        """The hand as it waited: without the tile just drawn when it holds a full hand."""
        drawn = self.table.drawn
        if (
            sum(hand) + SET_SIZE * melds == self.table.variant.spec.hand_size + 1
            and drawn is not None
        ):
            out = hand.copy()
            out[drawn] -= 1
            return out
        return hand

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        """A declaring seat's discard leaves a ready hand; a ready seat discards what it drew."""
        table = self.table
        s = table.seats[seat]
        if self.pending == seat:
            hand = s.hand
            full = sum(hand) + SET_SIZE * len(s.melds) == table.variant.spec.hand_size + 1
            if full:
                if not hand[tile]:
                    return None
                hand[tile] -= 1
            try:
                problem = self.hand_problem(seat, hand, s.melds)
            finally:
                if full:
                    hand[tile] += 1
            if problem:
                return (
                    f"seat {seat} declared 听: discarding {tile_name(tile)} leaves a hand it "
                    f"may not declare ({problem})"
                )
            return None
        if self.declared[seat]:
            drawn = table.drawn
            if drawn is not None and tile != drawn:
                return (
                    f"seat {seat} declared 听: its hand may not change, it discards the "
                    f"{tile_name(drawn)} it drew, not {tile_name(tile)}"
                )
        return None
