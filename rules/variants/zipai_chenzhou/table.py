"""The zipai replay state machine (字牌复盘): apply a hand's events one by one and check each.

The hand runs: 飘 choices (``piao``), the dealer's 21st card (``draw``), the dealt
four-alikes declared (开垄, ``ti``), then the dealer discards. From then on a card is always
*on offer* — a discard, or the next card of the stock that a seat turns up (``flip``):

1. any seat entitled to it may win on it (``win``; one winner, the first in turn order
   from the card's owner has priority but may pass);
2. else the forced move on it must be made: 提 (``ti``, the flipper's own flip on its 坎 or
   偎), 偎 (``wei``, its own flip on a pair in hand) or 跑 (``pao``, another's flip or
   discard on a 坎 or 偎, any flip on a 碰);
3. else a seat may 碰 (``peng``; any other seat with a pair) or 吃 (``chi``, with the forced
   比 sets; the flipper and the next seat on a flip, the next seat on a discard);
4. else the card goes to its owner's discards (弃牌) and the next seat flips; whoever could
   have 吃 or 碰 it may not 吃 or 碰 that card later (臭牌).

A seat that took a card discards when it holds one card more than a hand at rest (20
cards, one more for each 提 / 跑 beyond the first), otherwise the seat after it flips. A
seat that must discard but whose every card is locked in a 坎 is 相公 (``xiang_gong``).
The hand is drawn (荒庄) when the stock is spent and its last card passes.

Every rule that an event breaks raises :class:`~paipu.rules.replay.RuleViolation` with the
event index, the event, the rule in a player's words and a one-line summary of the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Chi, Discard, Draw, Event, Win
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.record import HandRecord
from paipu.rules.replay import ComputedWin, DiscardFact, MissedWin, RuleViolation
from paipu.rules.score import WinFlags
from paipu.rules.tiles import tile_name
from paipu.rules.variants.zipai_chenzhou.cards import (
    ALL_CARDS,
    COPIES,
    N_KINDS,
    Card,
    card_at,
    full_set,
    index,
    is_card,
    name_zh,
    names_zh,
)
from paipu.rules.variants.zipai_chenzhou.events import Flip, Pao, Peng, Piao, Ti, Wei, XiangGong
from paipu.rules.variants.zipai_chenzhou.grouping import Grouping, Source, best_grouping
from paipu.rules.variants.zipai_chenzhou.melds import chi_shape, meld_group, shapes_with
from paipu.rules.variants.zipai_chenzhou.scoring import (
    WinScore,
    ZipaiRules,
    score_win,
    xiang_gong_deltas,
)

if TYPE_CHECKING:
    from paipu.rules.variants import Options
    from paipu.rules.variants.zipai_chenzhou import ChenzhouZipai

FORCED_NAMES = {"ti": "提", "wei": "偎", "pao": "跑"}


class Phase(Enum):
    """What the table waits for."""

    START = "start"  # 飘 choices, then the dealer's 21st card
    ACT = "act"  # ``turn`` has moved: it discards if it holds a card too many, else a flip
    OFFER = "offer"  # a flipped or discarded card lies on the table
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Forced:
    """The move the rules force on the card on offer: ``kind`` ti, wei or pao."""

    kind: str
    seat: int

    def label(self) -> str:
        return f"seat {self.seat}'s {FORCED_NAMES[self.kind]} ({self.kind})"


@dataclass(frozen=True, slots=True, order=True)
class ChiOption:
    """One legal 吃: the set with the card on offer, and the 比 sets it forces."""

    main: tuple[Card, ...]
    bi: tuple[tuple[Card, ...], ...] = ()

    def event(self, seat: int) -> Chi:
        return Chi(seat, self.main, self.bi)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Offer:
    """A card on the table and who may do what with it (computed when it appears)."""

    card: Card
    seat: int  # who flipped or discarded it
    flipped: bool
    index: int
    forced: Forced | None
    wins: tuple[tuple[int, WinScore], ...]  # legal wins, in priority order
    peng: tuple[int, ...]
    chi: tuple[tuple[int, tuple[ChiOption, ...]], ...]

    def source_for(self, seat: int) -> Source:
        if not self.flipped:
            return Source.DISCARD
        return Source.SELF if seat == self.seat else Source.FLIP

    def from_for(self, seat: int) -> int | None:
        return None if self.flipped and seat == self.seat else self.seat

    def chi_options(self, seat: int) -> tuple[ChiOption, ...]:
        return next((opts for s, opts in self.chi if s == seat), ())


@dataclass
class ZipaiSeat:
    """What one seat holds: concealed cards by kind, melds, its discards (弃牌)."""

    hand: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    melds: list[Meld] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)  # its discards and its unused flips
    chou: set[int] = field(default_factory=set)  # kinds it may no longer 吃 or 碰 (臭牌)
    piao: int = 0
    piao_declared: bool = False
    xiang_gong: bool = False
    moved: bool = False  # has made a move of its own (for 开垄 timing)
    discard_count: int = 0

    def free(self, kan_locked: bool) -> list[int]:
        """Cards it may discard or use for 吃 / 比: a 坎 (if locked) and a four-alike are not."""
        limit = 2 if kan_locked else 3
        return [n if n <= limit else 0 for n in self.hand]

    def possession(self) -> int:
        return sum(self.hand) + sum(len(m.tiles) for m in self.melds)

    def fours(self) -> int:
        """Its 提 and 跑, with dealt four-alikes not yet declared."""
        declared = sum(1 for m in self.melds if m.kind in (MeldKind.TI, MeldKind.PAO))
        return declared + sum(1 for n in self.hand if n == 4)

    def meld_of(self, kind: MeldKind, card: Card) -> int:
        return next(
            (i for i, m in enumerate(self.melds) if m.kind is kind and m.tiles[0] == card), -1
        )

    def concealed(self) -> list[Card]:
        return [card_at(i) for i, n in enumerate(self.hand) for _ in range(n)]


class ZipaiTable:
    """The state of one zipai hand while its events are applied (a ``ReplayTable``)."""

    def __init__(self, record: HandRecord, variant: ChenzhouZipai, options: Options) -> None:
        self.record = record
        self.variant = variant
        self.options = options
        try:
            self.rules: ZipaiRules = variant.rules_for(options)
        except ValueError as exc:
            raise RuleViolation(None, None, str(exc)) from None
        self.players = len(record.players)
        if self.players != self.rules.players:
            raise RuleViolation(
                None,
                None,
                f"the record names {self.players} players but its rules say players = "
                f'{self.rules.players} (set "rules": {{"players": {self.players}}})',
            )
        self.seats = [ZipaiSeat() for _ in range(self.players)]
        self.phase = Phase.START
        self.turn = record.dealer
        self.index = -1
        self.opening = True  # before the dealer's first discard or the first flip
        self.dealer_card: Card | None = None
        self.offer: Offer | None = None
        self.wins: list[ComputedWin] = []
        self.discard_facts: list[DiscardFact] = []
        self.missed: list[MissedWin] = []
        self.pending_fact: dict[str, Any] | None = None
        self.seen: Counter[Card] = Counter()
        self.stock: tuple[Card, ...] | None = record.wall
        self.drawn = 0
        self._waits: dict[int, tuple[Any, tuple[Card, ...]]] = {}
        self._deal()

    # ------------------------------------------------------------------ set-up

    def _deal(self) -> None:
        rules = self.rules
        dealt = rules.hand_size * self.players
        for seat, cards in enumerate(self.record.deal):
            if len(cards) != rules.hand_size:
                raise RuleViolation(
                    None,
                    None,
                    f"seat {seat} is dealt {len(cards)} cards; with {self.players} players "
                    f"each seat is dealt {rules.hand_size} (the dealer's extra card is the "
                    "first event, a draw)",
                )
            for card in cards:
                self._check_card(card, None)
                self.seats[seat].hand[index(card)] += 1
        if self.stock is not None:
            for card in self.stock:
                self._check_card(card, None)
            if sorted([*(c for d in self.record.deal for c in d), *self.stock]) != full_set():
                raise RuleViolation(
                    None, None, "the deal and the wall together are not the 80 cards, 4 of each"
                )
            self.stock_size = len(self.stock) - rules.buried
        else:
            self.stock_size = len(ALL_CARDS) * COPIES - dealt - rules.buried
        for seat, s in enumerate(self.seats):
            over = [i for i, n in enumerate(s.hand) if n > COPIES]
            if over:
                raise RuleViolation(
                    None, None, f"seat {seat} is dealt more than 4 of {name_zh(card_at(over[0]))}"
                )
        totals = Counter(c for d in self.record.deal for c in d)
        over = [c for c, n in totals.items() if n > COPIES]
        if over:
            raise RuleViolation(None, None, f"the deal holds more than 4 of {name_zh(over[0])}")
        self.seen.update(totals)

    def _check_card(self, card: Card, event: Event | None) -> None:
        if not is_card(card):
            raise RuleViolation(
                self.index if event else None,
                event,
                f"{tile_name(card)} is not a card of {self.variant.id} (1x-10x, 1d-10d)",
                self.brief() if event else "",
            )

    # ------------------------------------------------------------------ queries

    def left(self) -> int:
        """Cards still to be drawn or flipped."""
        return self.stock_size - self.drawn

    def next_card(self) -> Card | None:
        """The next card of the stock when the record gives the wall."""
        if self.stock is None or self.left() <= 0:
            return None
        return self.stock[self.drawn]

    def rest(self, seat: int) -> int:
        """Cards the seat holds at rest: the hand size, one more per 提 / 跑 beyond the first."""
        return self.rules.hand_size + max(0, self.seats[seat].fours() - 1)

    def must_discard(self, seat: int) -> bool:
        s = self.seats[seat]
        return not s.xiang_gong and s.possession() > self.rest(seat)

    def next_flipper(self) -> int:
        """The seat that flips next when nobody takes the card on offer (or after a move
        that needs no discard)."""
        if self.phase is Phase.OFFER and self.offer is not None:
            return (self.offer.seat + 1) % self.players
        return (self.turn + 1) % self.players

    def free(self, seat: int) -> list[int]:
        return self.seats[seat].free(self.rules.kan_locked)

    def score(
        self,
        seat: int,
        card: Card,
        source: Source,
        from_seat: int | None,
        hand: Sequence[int] | None = None,
    ) -> WinScore:
        """How the rules score ``seat`` winning on ``card`` as the table stands."""
        s = self.seats[seat]
        return score_win(
            self.rules,
            hand=s.hand if hand is None else hand,
            melds=s.melds,
            win=card,
            source=source,
            winner=seat,
            from_seat=from_seat,
            piao=[x.piao for x in self.seats],
        )

    def heavenly_win(self) -> WinScore | None:
        """The dealer's 天胡 on its own 21 cards, when it is legal now."""
        if not self._heavenly_possible(self.record.dealer):
            return None
        hand, card = self._heavenly_hand()
        answer = self.score(self.record.dealer, card, Source.SELF, None, hand)
        return answer if answer.legal else None

    def _heavenly_hand(self) -> tuple[list[int], Card]:
        """The dealer's cards for a 天胡 and the card scored as the winning one: its own 21st
        card, or — when that went into a 提 at 开垄 — its lowest concealed card (on one's own
        card a set with the winning card counts as 偎 = 坎 and a four as 提, so the choice
        changes nothing)."""
        hand = self.seats[self.record.dealer].hand
        card = self.dealer_card
        assert card is not None
        if not hand[index(card)]:
            card = card_at(next(i for i, n in enumerate(hand) if n))
        return self._without(hand, card), card

    def _heavenly_possible(self, seat: int) -> bool:
        return (
            self.phase is Phase.ACT
            and self.opening
            and seat == self.record.dealer == self.turn
            and self.dealer_card is not None
        )

    @staticmethod
    def _without(hand: Sequence[int], card: Card) -> list[int]:
        out = list(hand)
        out[index(card)] -= 1
        return out

    def waits(self, seat: int) -> tuple[Card, ...]:
        """Cards that would complete the seat's hand by shape (xi not considered)."""
        s = self.seats[seat]
        key = (tuple(s.hand), tuple(s.melds))
        cached = self._waits.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        rules = self.rules
        candidates = _related(s.hand)
        candidates.update(index(m.tiles[0]) for m in s.melds if len(set(m.tiles)) == 1)
        found = tuple(
            card_at(i)
            for i in sorted(candidates)
            if s.hand[i] < COPIES
            and isinstance(
                best_grouping(
                    s.hand,
                    s.melds,
                    card_at(i),
                    Source.FLIP,
                    rules.xi,
                    units=rules.units,
                    kan_locked=rules.kan_locked,
                ),
                Grouping,
            )
        )
        self._waits[seat] = (key, found)
        return found

    def chi_options(self, seat: int, card: Card) -> tuple[ChiOption, ...]:
        """Every legal 吃 of ``card`` by ``seat`` with the 比 sets it forces."""
        free = self.free(seat)
        options: set[ChiOption] = set()
        for shape in shapes_with(card):
            rest = list(free)
            need = list(shape)
            need.remove(card)
            if not _take(rest, need):
                continue
            for bi in _bi_sets(rest, card):
                options.add(ChiOption(tuple(shape), bi))
        return tuple(sorted(options))

    # ------------------------------------------------------------------ messages

    def brief(self) -> str:
        """One line about the table, for error messages (cards by their Chinese names)."""
        parts = [f"phase {self.phase.value} seat {self.turn}", f"{self.left()} cards to flip"]
        if self.phase is Phase.OFFER and self.offer is not None:
            how = "flipped" if self.offer.flipped else "discarded"
            parts.append(f"on the table {name_zh(self.offer.card)} {how} by seat {self.offer.seat}")
        for seat, s in enumerate(self.seats):
            melds = " ".join(f"{_MELD_ZH[m.kind]}{names_zh(m.tiles)}" for m in s.melds)
            flag = " 相公" if s.xiang_gong else ""
            parts.append(
                f"s{seat}{flag}: {names_zh(s.concealed())}{' | ' + melds if melds else ''}"
            )
        return "; ".join(parts)

    def fail(self, event: Event | None, rule: str) -> RuleViolation:
        return RuleViolation(self.index, event, rule, self.brief())

    # ------------------------------------------------------------------ apply

    def apply(self, index_: int, event: Event) -> None:
        """Apply one event or raise :class:`RuleViolation`."""
        self.index = index_
        kind = type(event).kind
        if self.phase is Phase.ENDED:
            raise self.fail(event, "the hand has already ended")
        if kind not in self.variant.replay_event_kinds(self.options):
            raise self.fail(event, f"{kind} events do not exist in {self.variant.id}")
        seat = getattr(event, "seat", None)
        if seat is None or not 0 <= seat < self.players:
            raise self.fail(event, f"{kind} needs a seat 0-{self.players - 1}")
        if self.seats[seat].xiang_gong and kind in ("win", "chi", "peng", "discard"):
            raise self.fail(event, f"seat {seat} is 相公 (a dead hand): it cannot {kind}")
        handler = _HANDLERS.get(type(event))
        if handler is None:  # pragma: no cover - every listed kind has a handler
            raise self.fail(event, f"{kind} events are not handled by {self.variant.id}")
        handler(self, event)

    def _piao(self, event: Piao) -> None:
        s = self.seats[event.seat]
        choices = self.rules.piao
        if len(choices) == 1:
            raise self.fail(event, "飘 is not played in this hand (option piao = none)")
        if self.phase is not Phase.START:
            raise self.fail(event, "飘 is chosen before the dealer's first card")
        if s.piao_declared:
            raise self.fail(event, f"seat {event.seat} has already chosen its 飘")
        if event.amount not in choices:
            allowed = ", ".join(map(str, choices))
            raise self.fail(event, f"飘 is one of {allowed}, not {event.amount}")
        s.piao = event.amount
        s.piao_declared = True

    def _draw(self, event: Draw) -> None:
        dealer = self.record.dealer
        if self.phase is not Phase.START:
            raise self.fail(
                event,
                "only the dealer's 21st card is drawn in private; every later card is flipped "
                "face up (flip)",
            )
        if event.seat != dealer:
            raise self.fail(event, f"the dealer (seat {dealer}) takes the first card")
        if len(self.rules.piao) > 1:
            waiting = [i for i, s in enumerate(self.seats) if not s.piao_declared]
            if waiting:
                raise self.fail(event, f"seat {waiting[0]} has not chosen its 飘 (piao) yet")
        self._take_stock(event, event.tile)
        self.seats[dealer].hand[index(event.tile)] += 1
        self.dealer_card = event.tile
        self.phase = Phase.ACT
        self.turn = dealer

    def _take_stock(self, event: Event, card: Card) -> None:
        self._check_card(card, event)
        if self.left() <= 0:
            raise self.fail(event, "the stock is spent: the hand is drawn (荒庄)")
        expected = self.next_card()
        if expected is not None and expected != card:
            raise self.fail(event, f"the stock gives {name_zh(expected)} here, not {name_zh(card)}")
        self.drawn += 1
        if self.stock is None:
            self.seen[card] += 1
            if self.seen[card] > COPIES:
                raise self.fail(event, f"a fifth {name_zh(card)}: the set has 4")

    # -------------------------------------------------------------- own moves

    def _own_move(self, seat: int, event: Event) -> None:
        """The seat's own move: its dealt four-alikes must be declared by now (开垄)."""
        s = self.seats[seat]
        if not s.moved:
            s.moved = True
            if self.rules.open_ti == "own_turn":
                self._check_declared(seat, event, "before its first move")

    def _check_declared(self, seat: int, event: Event, when: str) -> None:
        quads = [i for i, n in enumerate(self.seats[seat].hand) if n == COPIES]
        if quads:
            raise self.fail(
                event,
                f"seat {seat} holds four {name_zh(card_at(quads[0]))} and must declare 提 "
                f"(开垄, ti) {when}",
            )

    def _end_opening(self, event: Event) -> None:
        if not self.opening:
            return
        self.opening = False
        if self.rules.open_ti == "deal":
            for seat in range(self.players):
                self._check_declared(seat, event, "before the first discard")

    def _discard(self, event: Discard) -> None:
        seat = event.seat
        if self.phase is not Phase.ACT or seat != self.turn:
            raise self.fail(event, f"seat {seat} may not discard now ({self._waiting_for()})")
        if not self.must_discard(seat):
            raise self.fail(
                event,
                f"seat {seat} holds no card too many ({self.seats[seat].possession()} with its "
                f"melds, {self.rest(seat)} at rest): seat {self.next_flipper()} flips next",
            )
        self._check_card(event.tile, event)
        i = index(event.tile)
        s = self.seats[seat]
        if s.hand[i] == 0:
            raise self.fail(event, f"seat {seat} does not hold {name_zh(event.tile)}")
        if self.free(seat)[i] == 0:
            what = "four-alike (提)" if s.hand[i] == COPIES else "坎 (three alike dealt)"
            raise self.fail(
                event, f"{name_zh(event.tile)} is in seat {seat}'s {what}, which cannot be broken"
            )
        self._end_opening(event)
        self._own_move(seat, event)
        s.hand[i] -= 1
        s.discard_count += 1
        if self.rules.chou == "declined_and_discarded":
            s.chou.add(i)
        self._open_fact(seat, event.tile)
        self._new_offer(event.tile, seat, flipped=False)

    def _xiang_gong(self, event: XiangGong) -> None:
        seat = event.seat
        if self.phase is not Phase.ACT or seat != self.turn or not self.must_discard(seat):
            raise self.fail(event, f"seat {seat} has no discard to make now")
        free = self.free(seat)
        if any(free):
            can = next(card_at(i) for i, n in enumerate(free) if n)
            raise self.fail(
                event,
                f"seat {seat} can still discard {name_zh(can)}: 相公 is only for a hand whose "
                "every card is locked in a 坎",
            )
        self._end_opening(event)
        self._own_move(seat, event)
        self.seats[seat].xiang_gong = True

    def _flip(self, event: Flip) -> None:
        seat = event.seat
        if self.phase is Phase.OFFER:
            offer = self.offer
            assert offer is not None
            if offer.forced is not None:
                raise self.fail(event, self._forced_first(offer))
            self._check_must_win(event)
            expected = (offer.seat + 1) % self.players
            if seat != expected:
                raise self.fail(event, f"seat {expected} flips next, not seat {seat}")
            self._pass_offer()
        elif self.phase is Phase.ACT:
            if self.must_discard(self.turn):
                raise self.fail(
                    event, f"seat {self.turn} holds a card too many and must discard first"
                )
            expected = (self.turn + 1) % self.players
            if seat != expected:
                raise self.fail(event, f"seat {expected} flips next, not seat {seat}")
        else:
            raise self.fail(event, f"no card is flipped now ({self._waiting_for()})")
        self._end_opening(event)
        self._own_move(seat, event)
        self._take_stock(event, event.card)
        self._new_offer(event.card, seat, flipped=True)

    def _waiting_for(self) -> str:
        if self.phase is Phase.START:
            return "the hand has not started: 飘, then the dealer's card"
        if self.phase is Phase.OFFER and self.offer is not None:
            return f"{name_zh(self.offer.card)} is on the table"
        if self.must_discard(self.turn):
            return f"seat {self.turn} is to discard"
        return f"seat {self.next_flipper()} is to flip"

    # -------------------------------------------------------------- offers

    def _new_offer(self, card: Card, seat: int, *, flipped: bool) -> None:
        self.offer = self._make_offer(card, seat, flipped, self.index)
        self.phase = Phase.OFFER
        self.turn = seat
        if self.pending_fact is not None:
            self.pending_fact["opponent_can_win"] = tuple(
                any(w == o for w, _ in self.offer.wins) for o in self.pending_fact["others"]
            )

    def _make_offer(self, card: Card, seat: int, flipped: bool, at: int) -> Offer:
        n = self.players
        order = [(seat + k) % n for k in range(n)]
        wins = []
        for other in order:
            if other == seat and not flipped:
                continue
            if self.seats[other].xiang_gong:
                continue
            source = (
                Source.SELF
                if flipped and other == seat
                else (Source.FLIP if flipped else Source.DISCARD)
            )
            answer = self.score(other, card, source, None if source is Source.SELF else seat)
            if answer.legal:
                wins.append((other, answer))
        forced = self._forced(card, seat, flipped, order)
        peng: list[int] = []
        chi: list[tuple[int, tuple[ChiOption, ...]]] = []
        i = index(card)
        if forced is None:
            for other in order[1:]:
                s = self.seats[other]
                if not s.xiang_gong and i not in s.chou and self.free(other)[i] == 2:
                    peng.append(other)
            chi_seats = [(seat + 1) % n]
            if flipped and self.rules.flip_chi == "drawer_and_next":
                chi_seats.insert(0, seat)
            for other in dict.fromkeys(chi_seats):
                s = self.seats[other]
                if s.xiang_gong or i in s.chou:
                    continue
                options = self.chi_options(other, card)
                if options:
                    chi.append((other, options))
        return Offer(card, seat, flipped, at, forced, tuple(wins), tuple(peng), tuple(chi))

    def _forced(self, card: Card, seat: int, flipped: bool, order: list[int]) -> Forced | None:
        i = index(card)
        if flipped:
            s = self.seats[seat]
            if s.hand[i] == 3 or s.meld_of(MeldKind.WEI, card) >= 0:
                return Forced("ti", seat)
            if s.hand[i] == 2:
                return Forced("wei", seat)
            if s.meld_of(MeldKind.PENG, card) >= 0:
                return Forced("pao", seat)
        for other in order[1:]:
            s = self.seats[other]
            if (
                s.hand[i] == 3
                or s.meld_of(MeldKind.WEI, card) >= 0
                or (flipped and s.meld_of(MeldKind.PENG, card) >= 0)
            ):
                return Forced("pao", other)
        return None

    def _forced_first(self, offer: Offer) -> str:
        assert offer.forced is not None
        name = FORCED_NAMES[offer.forced.kind]
        return (
            f"seat {offer.forced.seat} must {name} ({offer.forced.kind}) "
            f"{name_zh(offer.card)} first: {name} cannot be declined"
        )

    def _check_must_win(self, event: Event) -> None:
        offer = self.offer
        if offer is None or not offer.wins:
            return
        rule = self.rules.must_win
        if rule == "always" or (rule == "on_discard" and not offer.flipped):
            seat = offer.wins[0][0]
            raise self.fail(
                event,
                f"seat {seat} can win on {name_zh(offer.card)} and must (必胡: must_win = {rule})",
            )

    def _pass_offer(self) -> None:
        """Nobody takes the card: it goes to its owner's discards; 臭牌; missed wins."""
        offer = self.offer
        assert offer is not None
        self.seats[offer.seat].discards.append(offer.card)
        if self.rules.chou != "off":
            for seat in (*offer.peng, *(s for s, _ in offer.chi)):
                self.seats[seat].chou.add(index(offer.card))
        self._record_missed(offer)
        self._close_fact(claimed=False, won=False)
        self.offer = None

    def _record_missed(self, offer: Offer, taker: int | None = None) -> None:
        for seat, answer in offer.wins:
            if seat != taker:
                self.missed.append(
                    MissedWin(offer.index, seat, offer.card, offer.from_for(seat), answer.total)
                )

    def _claim_check(self, event: Event, seat: int, card: Card, what: str) -> Offer:
        """The common checks of a move on the card on offer."""
        offer = self.offer
        if self.phase is not Phase.OFFER or offer is None:
            raise self.fail(event, f"there is no card on the table to {what}")
        if card != offer.card:
            raise self.fail(
                event, f"the card on the table is {name_zh(offer.card)}, not {name_zh(card)}"
            )
        return offer

    def _took(self, seat: int, event: Event) -> None:
        """The card on offer was taken by ``seat`` (a forced move, 碰 or 吃)."""
        offer = self.offer
        assert offer is not None
        self._check_must_win(event)
        self._record_missed(offer)
        self._close_fact(claimed=True, won=False)
        self._end_opening(event)
        self._own_move(seat, event)
        self.offer = None
        self.phase = Phase.ACT
        self.turn = seat

    # -------------------------------------------------------------- forced moves

    def _ti(self, event: Ti) -> None:
        seat, card = event.seat, event.card
        s = self.seats[seat]
        i = index(card)
        if s.hand[i] == COPIES:
            self._open_ti(event)
            return
        offer = self._claim_check(event, seat, card, "提")
        if offer.forced != Forced("ti", seat):
            raise self.fail(event, self._not_forced(offer, "ti", seat))
        self._took(seat, event)
        wei = s.meld_of(MeldKind.WEI, card)
        if wei >= 0:
            del s.melds[wei]
        else:
            s.hand[i] = 0
        s.melds.append(Meld(MeldKind.TI, (card,) * 4))

    def _open_ti(self, event: Ti) -> None:
        """开垄: four alike dealt, declared before the first discard (or the seat's first move)."""
        seat, card = event.seat, event.card
        s = self.seats[seat]
        if self.phase is Phase.START:
            raise self.fail(event, "开垄 comes after the dealer's 21st card")
        if self.rules.open_ti == "deal" and not self.opening:
            raise self.fail(
                event, "开垄 (declaring dealt four-alikes) is over: the first card is out"
            )
        if self.rules.open_ti == "own_turn" and s.moved:
            raise self.fail(
                event, f"seat {seat} has moved already: 开垄 comes before its first move"
            )
        s.hand[index(card)] = 0
        s.melds.append(Meld(MeldKind.TI, (card,) * 4))
        if self.offer is not None:  # the seat's hand changed: who may do what changes too
            self.offer = self._make_offer(
                self.offer.card, self.offer.seat, self.offer.flipped, self.offer.index
            )

    def _wei(self, event: Wei) -> None:
        seat, card = event.seat, event.card
        offer = self._claim_check(event, seat, card, "偎")
        if offer.forced != Forced("wei", seat):
            raise self.fail(event, self._not_forced(offer, "wei", seat))
        self._took(seat, event)
        self.seats[seat].hand[index(card)] -= 2
        self.seats[seat].melds.append(Meld(MeldKind.WEI, (card,) * 3))

    def _pao(self, event: Pao) -> None:
        seat, card = event.seat, event.card
        offer = self._claim_check(event, seat, card, "跑")
        if offer.forced != Forced("pao", seat):
            raise self.fail(event, self._not_forced(offer, "pao", seat))
        self._took(seat, event)
        s = self.seats[seat]
        for kind in (MeldKind.WEI, MeldKind.PENG):
            at = s.meld_of(kind, card)
            if at >= 0:
                del s.melds[at]
                break
        else:
            s.hand[index(card)] = 0
        s.melds.append(Meld(MeldKind.PAO, (card,) * 4, offer.seat))

    def _not_forced(self, offer: Offer, kind: str, seat: int) -> str:
        name = FORCED_NAMES[kind]
        if offer.forced is not None:
            return (
                f"the forced move on {name_zh(offer.card)} is {offer.forced.label()}, "
                f"not seat {seat}'s {name}"
            )
        why = {
            "ti": "提 takes the seat's own flip on its 坎 (three in hand) or its 偎",
            "wei": "偎 takes the seat's own flip on a pair in its hand",
            "pao": "跑 takes a card on the seat's 坎 or 偎, or a flipped card on its 碰",
        }[kind]
        return f"seat {seat} cannot {name} {name_zh(offer.card)}: {why}"

    # -------------------------------------------------------------- claims

    def _claim_blocked(self, event: Event, offer: Offer, seat: int, what: str) -> None:
        if offer.forced is not None:
            raise self.fail(event, self._forced_first(offer))
        if index(offer.card) in self.seats[seat].chou:
            raise self.fail(
                event,
                f"{name_zh(offer.card)} is 臭牌 for seat {seat}: it let that card pass or "
                f"discarded it earlier, so it may not {what} it",
            )

    def _peng(self, event: Peng) -> None:
        seat, card = event.seat, event.card
        offer = self._claim_check(event, seat, card, "碰")
        if seat == offer.seat:
            raise self.fail(event, f"seat {seat} cannot 碰 its own card")
        self._claim_blocked(event, offer, seat, "碰")
        if seat not in offer.peng:
            raise self.fail(
                event, f"碰 needs a pair of {name_zh(card)} in seat {seat}'s hand (not in a 坎)"
            )
        self._took(seat, event)
        self.seats[seat].hand[index(card)] -= 2
        self.seats[seat].melds.append(Meld(MeldKind.PENG, (card,) * 3, offer.seat))

    def _chi(self, event: Chi) -> None:
        seat = event.seat
        offer = self.offer
        if self.phase is not Phase.OFFER or offer is None:
            raise self.fail(event, "there is no card on the table to 吃")
        card = offer.card
        allowed = {(offer.seat + 1) % self.players}
        if offer.flipped and self.rules.flip_chi == "drawer_and_next":
            allowed.add(offer.seat)
        if seat not in allowed:
            who = "the next seat" if len(allowed) == 1 else "the seat that flipped it and the next"
            raise self.fail(event, f"{name_zh(card)} may be 吃'd only by {who}, not seat {seat}")
        self._claim_blocked(event, offer, seat, "吃")
        option = ChiOption(tuple(event.tiles), tuple(event.bi))
        if option not in offer.chi_options(seat):
            raise self.fail(event, self._chi_problem(seat, card, option))
        self._took(seat, event)
        s = self.seats[seat]
        used = list(option.main)
        used.remove(card)
        for group in option.bi:
            used.extend(group)
        for c in used:
            s.hand[index(c)] -= 1
        s.melds.append(Meld(MeldKind.CHI, option.main, offer.seat))
        s.melds.extend(Meld(MeldKind.CHI, group) for group in option.bi)

    def _chi_problem(self, seat: int, card: Card, option: ChiOption) -> str:
        """Why a 吃 is not one of the legal ones, in a player's words."""
        if card not in option.main:
            return (
                f"the 吃 {names_zh(option.main)} does not hold the card on the table "
                f"({name_zh(card)})"
            )
        for group in (option.main, *option.bi):
            if chi_shape(group) is None:
                return (
                    f"{names_zh(group)} is not a set 吃 can make (a run of one size, 二七十 of "
                    "one size, or 大小三搭)"
                )
        for group in option.bi:
            if card not in group:
                return f"the 比 set {names_zh(group)} holds no {name_zh(card)}"
        need = list(option.main)
        need.remove(card)
        for group in option.bi:
            need.extend(group)
        rest = self.free(seat)
        if not _take(rest, need):
            return (
                f"seat {seat} does not hold {names_zh(sorted(need))} outside its 坎 "
                "(a 坎 cannot be split)"
            )
        if rest[index(card)]:
            return (
                f"比: seat {seat} still holds {name_zh(card)} after this 吃; each copy must go "
                "into a further set of three (比牌), which is forced"
            )
        return f"{names_zh(option.main)} is not a legal 吃 here"  # pragma: no cover

    # -------------------------------------------------------------- wins

    def _win(self, event: Win) -> None:
        seat, card = event.seat, event.tile
        self._check_card(card, event)
        hand: list[int] | None = None
        scored = card  # the card the hand is scored with
        offer = self.offer
        if self._heavenly_possible(seat) and self.phase is Phase.ACT:
            own = self.dealer_card
            if own is not None and card != own:
                raise self.fail(event, f"天胡 is declared on the dealer's own card {name_zh(own)}")
            if event.from_seat is not None:
                raise self.fail(event, "天胡 is on the dealer's own card: leave 'from' out")
            source = Source.SELF
            hand, scored = self._heavenly_hand()
        elif self.phase is Phase.OFFER and offer is not None:
            if card != offer.card:
                raise self.fail(
                    event, f"the card on the table is {name_zh(offer.card)}, not {name_zh(card)}"
                )
            if not offer.flipped and seat == offer.seat:
                raise self.fail(event, f"seat {seat} cannot win on its own discard")
            source = offer.source_for(seat)
            expected = offer.from_for(seat)
            if event.from_seat != expected:
                if expected is None:
                    raise self.fail(
                        event, "a win on one's own flip is a self-draw (自摸): leave 'from' out"
                    )
                how = "flipped" if offer.flipped else "discarded"
                raise self.fail(
                    event,
                    f"{name_zh(card)} was {how} by seat {expected}: the win needs "
                    f'{{"from": {expected}}}',
                )
        else:
            raise self.fail(event, f"seat {seat} cannot win now: no card is on the table for it")
        self.opening = False
        from_seat = None if source is Source.SELF else event.from_seat
        answer = self.score(seat, scored, source, from_seat, hand)
        if not answer.legal:
            raise self.fail(event, f"false win (诈和): {answer.reason}")
        self.wins.append(
            ComputedWin(
                seat,
                from_seat,
                card,
                answer.total,
                answer.fans,
                answer.deltas or (0,) * self.players,
                WinFlags(last_tile=self.left() == 0 and source is not Source.DISCARD),
                index=self.index,
                source={Source.SELF: "self_draw", Source.FLIP: "flip", Source.DISCARD: "discard"}[
                    source
                ],
                detail=answer.extra(self.rules),
            )
        )
        if offer is not None:
            self._record_missed(offer, taker=seat)
            self._close_fact(claimed=False, won=True)
            self.offer = None
            self.seats[seat].hand[index(card)] += 1  # the winning card joins the winner's hand
        self.phase = Phase.ENDED

    # -------------------------------------------------------------- analytics

    def _open_fact(self, seat: int, card: Card) -> None:
        others = [(seat + k) % self.players for k in range(1, self.players)]
        self.pending_fact = {
            "index": self.index,
            "seat": seat,
            "turn": self.seats[seat].discard_count,
            "tile": card,
            "visible": self._visible_to(seat, card),
            "tiles_left": self.left(),
            "opponent_melds": tuple(len(self.seats[o].melds) for o in others),
            "opponent_ready": tuple(
                bool(self.waits(o)) and not self.seats[o].xiang_gong for o in others
            ),
            "others": others,
        }

    def _visible_to(self, seat: int, card: Card) -> int:
        """Other copies of ``card`` that ``seat`` can see: its hand, every discard pile and
        the shown cards of the melds (a 提 and a 偎 show one card; one's own, all)."""
        i = index(card)
        seen = self.seats[seat].hand[i] - 1
        for other, s in enumerate(self.seats):
            seen += s.discards.count(card)
            for m in s.melds:
                if card in m.tiles:
                    hidden = other != seat and m.kind in (MeldKind.TI, MeldKind.WEI)
                    seen += 1 if hidden else m.tiles.count(card)
        return max(seen, 0)

    def _close_fact(self, *, claimed: bool, won: bool) -> None:
        fact = self.pending_fact
        if fact is None:
            return
        fact = dict(fact)
        others = fact.pop("others")
        fact.setdefault("opponent_can_win", (False,) * len(others))
        self.discard_facts.append(DiscardFact(**fact, won_on=won, claimed=claimed))
        self.pending_fact = None

    # ------------------------------------------------------------------ invariants

    def check_invariants(self) -> None:
        """Recompute what must hold from scratch (tests call this after every event).

        Cards are conserved: every card is in exactly one place (a hand, a meld, a discard
        pile, on the table, the stock) and no card has more than 4 copies; every meld is a
        legal group; no seat holds more than one card over a hand at rest, and only the seat
        that is to discard, the winner (the winning card joins its hand) or a 相公 seat holds
        that one card more.
        """
        placed: Counter[Card] = Counter()
        for seat, s in enumerate(self.seats):
            placed.update({card_at(i): n for i, n in enumerate(s.hand) if n})
            placed.update(s.discards)
            for meld in s.melds:
                placed.update(meld.tiles)
                try:
                    meld_group(meld)
                except ValueError as exc:
                    raise self.fail(None, f"invariant: seat {seat}'s meld: {exc}") from None
            over = s.possession() - self.rest(seat)
            to_discard = self.phase is Phase.ACT and self.turn == seat
            winner = any(w.seat == seat for w in self.wins)
            if over > 1 or (over == 1 and not (to_discard or winner or s.xiang_gong)):
                raise self.fail(
                    None, f"invariant: seat {seat} holds {s.possession()} cards, {over} over rest"
                )
        if self.offer is not None:
            placed[self.offer.card] += 1
        for card, n in placed.items():
            if n > COPIES:
                raise self.fail(None, f"invariant: {n} copies of {name_zh(card)} on the table")
        if self.stock is not None:
            expected = Counter(full_set())
            expected.subtract(self.stock[self.drawn :])
            if placed != +expected:
                raise self.fail(
                    None, "invariant: the cards on the table are not the deal plus the flips"
                )
        if len(self.wins) > (1 if self.phase is Phase.ENDED else 0):
            raise self.fail(None, "invariant: a hand has at most one win, and it ends the hand")

    # ------------------------------------------------------------------ end

    def melds_per_seat(self) -> tuple[int, ...]:
        return tuple(len(s.melds) for s in self.seats)

    def ready_per_seat(self) -> tuple[bool, ...]:
        winners = {w.seat for w in self.wins}
        return tuple(
            seat not in winners and not s.xiang_gong and bool(self.waits(seat))
            for seat, s in enumerate(self.seats)
        )

    def exhausted(self) -> bool:
        """The stock is spent and nothing is owed: an exhaustive draw (荒庄)."""
        if self.left() > 0:
            return False
        if self.phase is Phase.OFFER:
            return self.offer is not None and self.offer.forced is None
        return self.phase is Phase.ACT and not self.must_discard(self.turn)

    def finish(self) -> tuple[str, tuple[int, ...]]:
        """The outcome and the hand's deltas once the events are exhausted."""
        if self.phase is Phase.ENDED:
            deltas = list(self.wins[0].deltas)
            penalty = xiang_gong_deltas(
                self.players,
                [i for i, s in enumerate(self.seats) if s.xiang_gong],
                self.rules.xiang_gong_penalty,
            )
            return "win", tuple(d + p for d, p in zip(deltas, penalty, strict=True))
        if not self.exhausted():
            what = (
                self._waiting_for() if self.phase is not Phase.START else "the hand has not started"
            )
            if self.phase is Phase.OFFER and self.offer is not None and self.offer.forced:
                what = self._forced_first(self.offer)
            raise RuleViolation(
                None,
                None,
                f"the hand has no ending: the events stop before a win or an exhaustive draw "
                f"({what})",
                self.brief(),
            )
        if self.phase is Phase.OFFER:
            offer = self.offer
            assert offer is not None
            rule = self.rules.must_win
            if offer.wins and (rule == "always" or (rule == "on_discard" and not offer.flipped)):
                raise RuleViolation(
                    None,
                    None,
                    f"seat {offer.wins[0][0]} can win on the last card {name_zh(offer.card)} "
                    f"and must (必胡: must_win = {rule})",
                    self.brief(),
                )
            self._pass_offer()
        return "draw", (0,) * self.players


_MELD_ZH = {
    MeldKind.TI: "提",
    MeldKind.PAO: "跑",
    MeldKind.WEI: "偎",
    MeldKind.PENG: "碰",
    MeldKind.CHI: "吃",
}


def _related(hand: Sequence[int]) -> set[int]:
    """Kinds that can join a group with a card of the hand (only they can complete it)."""
    out: set[int] = set()
    for i, n in enumerate(hand):
        if not n:
            continue
        base, r = i - i % 10, i % 10
        out.update(base + k for k in range(max(0, r - 2), min(9, r + 2) + 1))
        if r in (1, 6, 9):
            out.update((base + 1, base + 6, base + 9))
        out.add(i + 10 if i < 10 else i - 10)
    return out


def _take(counts: list[int], cards: Sequence[Card]) -> bool:
    """Remove ``cards`` from ``counts`` (in place) if all are there."""
    for c in cards:
        counts[index(c)] -= 1
    if any(n < 0 for n in counts):
        for c in cards:
            counts[index(c)] += 1
        return False
    return True


def _bi_sets(counts: list[int], card: Card) -> list[tuple[tuple[Card, ...], ...]]:
    """The ways to lay every remaining copy of ``card`` into sets of three (比牌)."""
    if counts[index(card)] == 0:
        return [()]
    out: set[tuple[tuple[Card, ...], ...]] = set()
    for shape in shapes_with(card):
        rest = list(counts)
        if not _take(rest, shape):
            continue
        for more in _bi_sets(rest, card):
            out.add(tuple(sorted((tuple(shape), *more))))
    return sorted(out)


_HANDLERS: dict[type[Event], Callable[[ZipaiTable, Any], None]] = {
    Piao: ZipaiTable._piao,
    Draw: ZipaiTable._draw,
    Flip: ZipaiTable._flip,
    Discard: ZipaiTable._discard,
    Ti: ZipaiTable._ti,
    Wei: ZipaiTable._wei,
    Pao: ZipaiTable._pao,
    Peng: ZipaiTable._peng,
    Chi: ZipaiTable._chi,
    Win: ZipaiTable._win,
    XiangGong: ZipaiTable._xiang_gong,
}
