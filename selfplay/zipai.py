"""Self-play bots for 郴州字牌 (``paipu simulate``): simple, rule-abiding, deterministic.

Every move goes through :class:`~paipu.rules.variants.zipai_chenzhou.table.ZipaiTable`,
which checks it, so a simulated hand is legal by construction. The table says what is
allowed (the wins, the forced move, who may 碰 or 吃 and how); the bots choose only where
the rules leave a choice: 飘, 碰, 吃 (and its 比 sets), the discard.

A bot always wins when it may and always makes the forced moves. It judges a hand by
:func:`hand_value`: complete sets and two-card starts (partials) that fit the groups still
missing, plus the xi they earn — the same cut as a player's eye makes. It discards the card
whose loss costs least (a defensive bot prefers cards already seen on the table) and claims
a card when its hand is worth more after the claim and the discard that follows.

一二三 is a set (12) with 3 xi, 八八 a start (5, +1 for a pair):

>>> from paipu.rules.variants.zipai_chenzhou.cards import kind_counts, parse_cards
>>> hand_value(tuple(kind_counts(parse_cards("123x 88x"))), 3, False)
21
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from paipu.rules.events import Discard, Draw, Event, Win
from paipu.rules.melds import MeldKind
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, outcome_of
from paipu.rules.selfplay import Style
from paipu.rules.variants.zipai_chenzhou.cards import COPIES, Card, card_at, full_set, index, is_big
from paipu.rules.variants.zipai_chenzhou.events import Flip, Pao, Peng, Piao, Ti, Wei, XiangGong
from paipu.rules.variants.zipai_chenzhou.melds import SetKind, XiTable, chi_shape, meld_group
from paipu.rules.variants.zipai_chenzhou.table import ChiOption, Phase, ZipaiTable

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome
    from paipu.rules.selfplay import HandSetup
    from paipu.rules.variants import Options, Variant
    from paipu.rules.variants.zipai_chenzhou import ChenzhouZipai

#: Worth of a complete set and of a two-card start; xi is added to a set's worth.
SET_VALUE = 12
PARTIAL_VALUE = 5
_XI = XiTable.default()


def hand_value(counts: tuple[int, ...], slots: int, pair_is_unit: bool) -> int:
    """The best worth of loose cards cut into at most ``slots`` sets and starts.

    ``pair_is_unit``: the hand has a 提 or 跑, so one pair completes a unit (吊)."""
    return best_cut(counts, slots, pair_is_unit)[0]


@lru_cache(maxsize=1 << 18)
def best_cut(
    counts: tuple[int, ...], slots: int, pair_is_unit: bool
) -> tuple[int, tuple[int, ...]]:
    """:func:`hand_value` and the kinds the best cut leaves loose (useless cards).

    Groups are tried on the lowest kind left; "move on" leaves its remaining copies loose."""
    i = 0
    size = len(counts)
    while i < size and not counts[i]:
        i += 1
    if i == size:
        return 0, ()
    if slots == 0:
        return 0, tuple(k for k in range(i, size) for _ in range(counts[k]))
    rest = list(counts)
    rest[i] = 0
    value, loose = best_cut(tuple(rest), slots, pair_is_unit)  # its copies left loose
    best_value = value
    best_loose = (i,) * counts[i] + loose
    for worth, need, kinds, pair in _PARTS[i]:
        if pair and not pair_is_unit:
            continue
        for k, n in need:
            if counts[k] < n:
                break
        else:
            rest = list(counts)
            for k in kinds:
                rest[k] -= 1
            value, loose = best_cut(tuple(rest), slots - 1, pair_is_unit and not pair)
            if worth + value > best_value:
                best_value = worth + value
                best_loose = loose
    return best_value, best_loose


def _build_parts() -> list[list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], bool]]]:
    """For each kind, the sets and starts whose lowest card it is:
    (worth, [(kind, copies needed)], kinds, is the 吊 pair)."""
    table: list[list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], bool]]] = []
    for i in range(20):
        r = i % 10
        big = i >= 10
        groups: list[tuple[int, tuple[int, ...], bool]] = [
            (SET_VALUE + _XI.xi(SetKind.KAN, big), (i, i, i), False)
        ]
        if r <= 7:
            kind = SetKind.ONE_TWO_THREE if r == 0 else SetKind.RUN
            groups.append((SET_VALUE + _XI.xi(kind, big), (i, i + 1, i + 2), False))
        if r == 1:
            groups.append(
                (SET_VALUE + _XI.xi(SetKind.TWO_SEVEN_TEN, big), (i, i + 5, i + 8), False)
            )
        if i < 10:
            groups += [(SET_VALUE, (i, i, i + 10), False), (SET_VALUE, (i, i + 10, i + 10), False)]
        groups += [(SET_VALUE, (i, i), True), (PARTIAL_VALUE + 1, (i, i), False)]
        if r <= 8:
            groups.append((PARTIAL_VALUE + (r == 0), (i, i + 1), False))
        if r <= 7:
            groups.append((PARTIAL_VALUE + (r == 0), (i, i + 2), False))
        if r == 1:
            groups += [
                (PARTIAL_VALUE + 1, (i, i + 5), False),
                (PARTIAL_VALUE + 1, (i, i + 8), False),
            ]
        if r == 6:
            groups.append((PARTIAL_VALUE + 1, (i, i + 3), False))
        if i < 10:
            groups.append((PARTIAL_VALUE, (i, i + 10), False))
        rows = []
        for value, kinds, pair in groups:
            need = tuple(sorted({k: kinds.count(k) for k in kinds}.items()))
            rows.append((value, need, kinds, pair))
        table.append(rows)
    return table


_PARTS = _build_parts()


class ZipaiBot:
    """One seat's choices; ``style`` sets how readily it claims and how much it minds safety."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        self.style = style
        self.rng = rng

    def piao(self, choices: tuple[int, ...]) -> int:
        if self.style is Style.AGGRESSIVE:
            return choices[-1]
        if self.style is Style.DEFENSIVE:
            return choices[0]
        return self.rng.choice(choices)

    # ------------------------------------------------------------------ judging

    def state_worth(self, table: ZipaiTable, seat: int) -> int:
        """The seat's worth as it stands (before any claim)."""
        loose, fixed, units, fours = _split(table, seat)
        return _worth(table, loose, fixed, units, fours)

    def best_discard(
        self,
        table: ZipaiTable,
        seat: int,
        loose: list[int],
        fixed_xi: int,
        units: int,
        fours: int,
    ) -> tuple[int, Card | None]:
        """The discard that keeps the most worth, and that worth. When the best cut of the
        hand leaves cards loose, one of them is the answer (the worth cannot rise by
        discarding); otherwise every card is tried."""
        slots = max(0, table.rules.units - units)
        value, spare = best_cut(tuple(loose), slots, fours > 0)
        safety = {Style.AGGRESSIVE: 0.0, Style.BALANCED: 0.6, Style.DEFENSIVE: 2.0}[self.style]
        if spare:
            kinds = sorted(set(spare))
            pick = max(kinds, key=lambda k: (safety * _seen(table, card_at(k)), self.rng.random()))
            return fixed_xi + value, card_at(pick)
        best: tuple[float, int, Card | None] = (float("-inf"), 0, None)
        for i, n in enumerate(loose):
            if not n:
                continue
            loose[i] -= 1
            worth = _worth(table, loose, fixed_xi, units, fours)
            loose[i] += 1
            card = card_at(i)
            key = worth + safety * _seen(table, card) + self.rng.random() * 0.01
            if key > best[0]:
                best = (key, worth, card)
        return best[1], best[2]

    def discard(self, table: ZipaiTable, seat: int) -> Card:
        loose, fixed_xi, units, fours = _split(table, seat)
        _, card = self.best_discard(table, seat, loose, fixed_xi, units, fours)
        assert card is not None
        return card

    def _after_claim(
        self,
        table: ZipaiTable,
        seat: int,
        taken: list[Card],
        sets: list[tuple[Card, ...]],
        kinds: list[SetKind],
    ) -> int:
        """The worth after laying ``sets`` (using hand cards ``taken``) and discarding."""
        loose, fixed_xi, units, fours = _split(table, seat)
        for card in taken:
            loose[index(card)] -= 1
        fixed_xi += sum(
            SET_VALUE + _XI.xi(k, all(is_big(c) for c in s))
            for k, s in zip(kinds, sets, strict=True)
        )
        units += len(sets)
        possession = table.seats[seat].possession() + 1
        if possession > table.rest(seat) and any(loose):
            worth, _ = self.best_discard(table, seat, loose, fixed_xi, units, fours)
            return worth
        return _worth(table, loose, fixed_xi, units, fours)

    def _threshold(self) -> int:
        return {Style.AGGRESSIVE: 0, Style.BALANCED: 1, Style.DEFENSIVE: 4}[self.style]

    def wants_peng(self, table: ZipaiTable, seat: int, card: Card) -> bool:
        before = self.state_worth(table, seat)
        after = self._after_claim(table, seat, [card, card], [(card,) * 3], [SetKind.PENG])
        return after - before >= self._threshold()

    def choose_chi(
        self, table: ZipaiTable, seat: int, card: Card, options: tuple[ChiOption, ...]
    ) -> ChiOption | None:
        before = self.state_worth(table, seat)
        best: tuple[int, ChiOption | None] = (before + self._threshold(), None)
        for option in options:
            taken = list(option.main)
            taken.remove(card)
            sets = [option.main, *option.bi]
            for group in option.bi:
                taken.extend(group)
            kinds = [meld_group_kind(s) for s in sets]
            after = self._after_claim(table, seat, taken, sets, kinds)
            if after > best[0] or (after == best[0] and best[1] is None and after > before):
                best = (after, option)
        return best[1]


def meld_group_kind(cards: tuple[Card, ...]) -> SetKind:
    """The kind of a legal 吃 set."""
    kind = chi_shape(cards)
    assert kind is not None
    return kind


def _worth(table: ZipaiTable, loose: list[int], fixed: int, units: int, fours: int) -> int:
    """The worth of loose cards beside fixed groups worth ``fixed`` making ``units``."""
    slots = max(0, table.rules.units - units)
    return fixed + hand_value(tuple(loose), slots, fours > 0)


def _split(table: ZipaiTable, seat: int) -> tuple[list[int], int, int, int]:
    """A seat's loose cards, the worth of its fixed groups (melds, 坎), how many units they
    make, and its four-alikes."""
    s = table.seats[seat]
    loose = table.free(seat)
    fixed_xi = 0
    units = 0
    for meld in s.melds:
        fixed_xi += SET_VALUE + meld_group(meld).xi(_XI)
        units += 1
    for i, n in enumerate(s.hand):
        if n > loose[i]:  # a 坎 or a dealt four-alike
            kind = SetKind.TI if n == COPIES else SetKind.KAN
            fixed_xi += SET_VALUE + _XI.xi(kind, i >= 10)
            units += 1
    return loose, fixed_xi, units, s.fours()


def _seen(table: ZipaiTable, card: Card) -> int:
    """Copies of a card lying open: discards and shown melds."""
    seen = 0
    for s in table.seats:
        seen += s.discards.count(card)
        seen += sum(m.tiles.count(card) for m in s.melds if m.kind not in (MeldKind.TI,))
    return seen


# ---------------------------------------------------------------------- one hand


def deal_cards(
    rng: random.Random, players: int, dealer: int, hand_size: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Shuffle the 80 cards: each seat's dealt cards (sorted) and the stock in order (the
    dealer's 21st card first)."""
    cards = full_set()
    rng.shuffle(cards)
    deal: list[tuple[Card, ...]] = [()] * players
    pos = 0
    for k in range(players):
        seat = (dealer + k) % players
        deal[seat] = tuple(sorted(cards[pos : pos + hand_size]))
        pos += hand_size
    return tuple(deal), tuple(cards[pos:])


def play(variant: Variant, rng: random.Random, setup: HandSetup, options: Options) -> HandOutcome:
    """:func:`play_hand` for a variant whose TOML names this family of bots (``[bot]
    family = "zipai"``): the zipai variant class."""
    return play_hand(cast("ChenzhouZipai", variant), rng, setup, options)


def play_hand(
    variant: ChenzhouZipai, rng: random.Random, setup: HandSetup, options: Options
) -> HandOutcome:
    """Play one hand with bots through the replay table; the outcome's record has its wall."""
    try:
        rules = variant.rules_for(options)
    except ValueError as exc:
        raise RuleViolation(None, None, str(exc)) from None
    players = rules.players
    if len(setup.players) != players:
        # `paipu simulate` seats the variant's default number of players; a RuleViolation
        # makes it stop with this message rather than a traceback.
        raise RuleViolation(
            None,
            None,
            f"{variant.id} with players = {players} needs {players} seats, the setup has "
            f"{len(setup.players)} (paipu simulate seats the TOML's default of "
            f"{variant.spec.players}; play other counts through Variant.self_play)",
        )
    deal, wall = deal_cards(rng, players, setup.dealer, rules.hand_size)
    record = HandRecord(
        variant=variant.id,
        game=setup.game,
        hand=setup.hand,
        players=setup.players,
        dealer=setup.dealer,
        deal=deal,
        events=(),
        rules=dict(setup.rules),
        time=setup.time,
        scores_before=setup.scores_before or None,
        wall=wall,
    )
    table = ZipaiTable(record, variant, options)
    styles = setup.styles or tuple(Style.for_player(p, i) for i, p in enumerate(setup.players))
    bots = [ZipaiBot(styles[seat % len(styles)], rng) for seat in range(players)]
    events: list[Event] = []

    def play(event: Event) -> None:
        table.apply(len(events), event)
        events.append(event)

    def declare(seat: int) -> None:
        """开垄: a seat's dealt four-alikes, before its first move (or at the deal)."""
        if table.seats[seat].moved and rules.open_ti == "own_turn":
            return
        for i, n in enumerate(table.seats[seat].hand):
            if n == COPIES:
                play(Ti(seat, card_at(i)))

    if len(rules.piao) > 1:
        for seat in range(players):
            play(Piao(seat, bots[seat].piao(rules.piao)))
    play(Draw(setup.dealer, wall[0]))
    if rules.open_ti == "deal":
        for k in range(players):
            declare((setup.dealer + k) % players)
    while table.phase is not Phase.ENDED:
        if table.phase is Phase.ACT:
            seat = table.turn
            if table.heavenly_win() is not None:
                declare(seat)
                play(Win(seat, table.dealer_card))  # type: ignore[arg-type]
                continue
            if table.must_discard(seat):
                declare(seat)
                if not any(table.free(seat)):
                    play(XiangGong(seat))
                    continue
                play(Discard(seat, bots[seat].discard(table, seat)))
                continue
            if table.left() == 0:
                break
            flipper = table.next_flipper()
            declare(flipper)
            play(_flip(table, flipper))
            continue
        offer = table.offer
        assert offer is not None
        if offer.wins:
            winner = offer.wins[0][0]
            play(Win(winner, offer.card, offer.from_for(winner)))
            continue
        if offer.forced is not None:
            declare(offer.forced.seat)
            kind = {"ti": Ti, "wei": Wei, "pao": Pao}[offer.forced.kind]
            play(kind(offer.forced.seat, offer.card))
            continue
        if _claim(table, bots, offer.card, declare, play):
            continue
        if table.left() == 0:
            break
        flipper = table.next_flipper()
        declare(flipper)
        play(_flip(table, flipper))
    return outcome_of(table, replace(record, events=tuple(events)))


def _flip(table: ZipaiTable, seat: int) -> Event:
    card = table.next_card()
    assert card is not None
    return Flip(seat, card)


def _claim(
    table: ZipaiTable,
    bots: list[ZipaiBot],
    card: Card,
    declare: Callable[[int], None],
    play: Callable[[Event], None],
) -> bool:
    """Offer the card to those who may 碰, then 吃; True when one took it."""
    offer = table.offer
    assert offer is not None
    for seat in offer.peng:
        if bots[seat].wants_peng(table, seat, card):
            declare(seat)
            play(Peng(seat, card))
            return True
    for seat, options in offer.chi:
        choice = bots[seat].choose_chi(table, seat, card, options)
        if choice is not None:
            declare(seat)
            play(choice.event(seat))
            return True
    return False
