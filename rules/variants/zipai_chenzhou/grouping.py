"""The grouping of a winning hand that earns the most 胡息 (xi).

A hand wins when every card — the declared melds, the concealed cards and the winning
card — falls into groups: sets of three, 提 / 跑 (four alike) and at most one pair, which
is required exactly when the hand holds a 提 or 跑 (吊). Three players need seven such
units (21 cards, one more for each 提 / 跑 beyond the first); four players five.

The winning card first completes what the rules force: with the seat's 偎 it becomes 提
(its own flip) or 跑; with its 碰 it becomes 跑 (a flip only); with a 坎 in hand it becomes
提 or 跑. Otherwise it joins the hand, and a set of three alike made with it counts as 偎
(own flip, 3 / 6 xi) or 碰 (another's card, 1 / 3 xi). With ``kan_locked`` each 坎 stays a
坎. Among the remaining ways to cut the hand the one with the most xi is kept; ties go to
the first found in a fixed order, so the answer is deterministic.

>>> from paipu.rules.melds import Meld
>>> from paipu.rules.variants.zipai_chenzhou.cards import parse_cards, kind_counts
>>> from paipu.rules.variants.zipai_chenzhou.melds import XiTable
>>> hand = kind_counts(parse_cards("555x 123x 270x 8x"))
>>> melds = [Meld.of("ti", "2222d"), Meld.of("peng", "000d", 1), Meld.of("chi", "456x", 2)]
>>> g = best_grouping(hand, melds, parse_cards("8x")[0], Source.SELF, XiTable.default())
>>> g.xi, " ".join(x.label() for x in g.groups)
(24, '提 贰贰贰贰 碰 拾拾拾 顺子 四五六 坎 五五五 一二三 一二三 二七十 二七十 对子 八八')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from paipu.rules.melds import Meld, MeldKind
from paipu.rules.variants.zipai_chenzhou.cards import N_KINDS, Card, card_at, index
from paipu.rules.variants.zipai_chenzhou.melds import CardGroup, SetKind, XiTable, meld_group

#: Units (groups and the pair) of a complete hand, by cards dealt to a non-dealer.
UNITS_BY_HAND = {20: 7, 14: 5}


class Source(StrEnum):
    """Where the winning card comes from."""

    SELF = "self"  # the winner's own flip, or the dealer's own card (自摸, 天胡)
    FLIP = "flip"  # another seat's flip
    DISCARD = "discard"  # another seat's discard (放炮)


@dataclass(frozen=True, slots=True)
class Grouping:
    """A complete hand cut into groups, with its xi."""

    groups: tuple[CardGroup, ...]
    xi: int

    def to_json(self, table: XiTable) -> list[dict[str, Any]]:
        return [g.to_json(table) for g in self.groups]


@dataclass(frozen=True, slots=True)
class NotWinning:
    """Why the cards are not a complete hand, in a player's words."""

    reason: str


def expected_cards(units: int, fours: int) -> int:
    """Cards of a complete hand: three per unit, one more per 提 / 跑 beyond the first."""
    return 3 * units + max(0, fours - 1)


@dataclass(frozen=True, slots=True)
class _Prepared:
    counts: tuple[int, ...]  # cards left to cut into sets of three and the pair
    fixed: tuple[CardGroup, ...]  # the melds, completed by the winning card where forced
    concealed: tuple[CardGroup, ...]  # dealt four-alikes and (if locked) 坎
    win_i: int  # kind of the winning card when it joined the hand, else -1
    fours: int
    cards: int


def _prepare(
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: Card | None,
    source: Source,
    kan_locked: bool,
) -> _Prepared:
    counts = list(hand)
    fixed: list[CardGroup] = [meld_group(m) for m in melds]
    win_i = -1
    if win is not None:
        wi = index(win)
        upgraded = _complete_meld(fixed, win, source)
        if upgraded is not None:
            fixed[upgraded[0]] = upgraded[1]
        elif counts[wi] == 3:
            kind = SetKind.TI if source is Source.SELF else SetKind.PAO
            counts[wi] = 0
            fixed.append(CardGroup(kind, (win,) * 4, exposed=True))
        else:
            counts[wi] += 1
            win_i = wi
    concealed: list[CardGroup] = []
    for i, n in enumerate(counts):
        if n == 4:
            concealed.append(CardGroup(SetKind.TI, (card_at(i),) * 4))
            counts[i] = 0
        elif n == 3 and kan_locked and i != win_i:
            concealed.append(CardGroup(SetKind.KAN, (card_at(i),) * 3))
            counts[i] = 0
    groups = (*fixed, *concealed)
    return _Prepared(
        tuple(counts),
        tuple(fixed),
        tuple(concealed),
        win_i,
        sum(1 for g in groups if g.kind.four_alike),
        sum(counts) + sum(len(g.cards) for g in groups),
    )


def count_problem(
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: Card | None,
    source: Source,
    *,
    units: int = 7,
    kan_locked: bool = True,
) -> str | None:
    """Why the number of cards cannot make a complete hand, or None."""
    return _count_problem(_prepare(hand, melds, win, source, kan_locked), units)


def _count_problem(prepared: _Prepared, units: int) -> str | None:
    need = expected_cards(units, prepared.fours)
    if prepared.cards == need:
        return None
    return (
        f"the hand holds {prepared.cards} cards with its melds and the winning card; a "
        f"complete hand of {units} groups with {prepared.fours} 提/跑 holds {need} (one more "
        "for each 提/跑 beyond the first)"
    )


def best_grouping(
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: Card | None,
    source: Source,
    table: XiTable,
    *,
    units: int = 7,
    kan_locked: bool = True,
) -> Grouping | NotWinning:
    """The grouping with the most xi of ``hand`` (counts by kind, winning card apart),
    the declared ``melds`` and the winning card, or why there is none."""
    prepared = _prepare(hand, melds, win, source, kan_locked)
    problem = _count_problem(prepared, units)
    if problem is not None:
        return NotWinning(problem)
    win_kind = SetKind.WEI if source is Source.SELF else SetKind.PENG
    found = _best(prepared.counts, 1 if prepared.fours else 0, prepared.win_i, win_kind, table)
    if found is None:
        pair = (
            "and one pair (吊) beside its 提/跑" if prepared.fours else "and no pair (no 提 or 跑)"
        )
        return NotWinning(
            "these cards do not all fall into groups: sets of three (坎, 碰, 偎, runs of one "
            f"size, 二七十, 大小三搭), 提/跑, {pair}"
        )
    _, parts = found
    concealed = list(prepared.concealed)
    for kind, kinds in parts:
        concealed.append(CardGroup(kind, tuple(card_at(k) for k in kinds)))
    groups = (*prepared.fixed, *sorted(concealed, key=_order))
    return Grouping(groups, sum(g.xi(table) for g in groups))


def _order(group: CardGroup) -> tuple[int, tuple[Card, ...]]:
    return (list(SetKind).index(group.kind), group.cards)


def _complete_meld(
    fixed: list[CardGroup], win: Card, source: Source
) -> tuple[int, CardGroup] | None:
    """The seat's 偎 or 碰 that the winning card turns into 提 / 跑, as the rules force."""
    for i, group in enumerate(fixed):
        if group.cards[0] != win or len(group.cards) != 3:
            continue
        if group.kind is SetKind.WEI:
            kind = SetKind.TI if source is Source.SELF else SetKind.PAO
            return i, CardGroup(kind, (win,) * 4, exposed=True)
        if group.kind is SetKind.PENG and source is not Source.DISCARD:
            return i, CardGroup(SetKind.PAO, (win,) * 4, exposed=True)
    return None


_Parts = tuple[tuple[SetKind, tuple[int, ...]], ...]


@lru_cache(maxsize=1 << 16)
def _best(
    counts: tuple[int, ...], pairs: int, win_i: int, win_kind: SetKind, table: XiTable
) -> tuple[int, _Parts] | None:
    """Most xi over the ways to cut ``counts`` into sets of three and ``pairs`` pairs."""
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return (0, ()) if pairs == 0 else None
    best: tuple[int, _Parts] | None = None
    for kind, kinds in _candidates(counts, i, pairs, win_i, win_kind):
        rest = list(counts)
        for k in kinds:
            rest[k] -= 1
        sub = _best(tuple(rest), pairs - (kind is SetKind.PAIR), win_i, win_kind, table)
        if sub is None:
            continue
        value = table.xi(kind, i >= 10 and kind is not SetKind.MIXED) + sub[0]
        if best is None or value > best[0]:
            best = (value, ((kind, kinds), *sub[1]))
    return best


def _candidates(
    counts: Sequence[int], i: int, pairs: int, win_i: int, win_kind: SetKind
) -> list[tuple[SetKind, tuple[int, ...]]]:
    """The groups that may hold the lowest card left, kind ``i``."""
    out: list[tuple[SetKind, tuple[int, ...]]] = []
    n = counts[i]
    r = i % 10  # rank - 1
    if n >= 3:
        out.append((win_kind if i == win_i else SetKind.KAN, (i, i, i)))
    if r <= 7 and counts[i + 1] and counts[i + 2]:
        out.append((SetKind.ONE_TWO_THREE if r == 0 else SetKind.RUN, (i, i + 1, i + 2)))
    if r == 1 and counts[i + 5] and counts[i + 8]:
        out.append((SetKind.TWO_SEVEN_TEN, (i, i + 5, i + 8)))
    if i < 10:
        big = i + 10
        if n >= 2 and counts[big]:
            out.append((SetKind.MIXED, (i, i, big)))
        if counts[big] >= 2:
            out.append((SetKind.MIXED, (i, big, big)))
    if n >= 2 and pairs:
        out.append((SetKind.PAIR, (i, i)))
    return out


def is_complete(
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: Card,
    source: Source,
    table: XiTable,
    *,
    units: int = 7,
    kan_locked: bool = True,
) -> bool:
    """Whether the winning card completes the hand by shape (xi not considered)."""
    found = best_grouping(hand, melds, win, source, table, units=units, kan_locked=kan_locked)
    return isinstance(found, Grouping)


def fours_of(melds: Sequence[Meld]) -> int:
    """The 提 and 跑 among declared melds."""
    return sum(1 for m in melds if m.kind in (MeldKind.TI, MeldKind.PAO))


assert N_KINDS == 20  # the candidates above assume ten ranks in two sizes
