"""The dealer's streak (连庄): how many hands in a row the dealer has dealt by keeping the
deal, carried from hand to hand.

paipu log v1 has no field for it, so a hand that opens on a streak says so with a seat
event ``["dealer_streak", 0, 3]``: the dealer (seat 0) deals his third hand in a row. It
comes before the first draw, at most once, from the dealer's seat; a hand without it is a
fresh dealer's (streak 1). What keeps the deal and what the streak pays are the variant's
(a multiplier of every payment, a bonus per payer); self-play carries the streak in
``HandSetup.extra["streak"]`` and opens each hand with the event
(:meth:`~paipu.rules.variants.Variant.setup_events`, the ``setup_events`` step); a score
request carries it as ``extra.streak`` (an int, default 1).

>>> from paipu.rules.events import decode
>>> decode(["dealer_streak", 0, 3]).to_array()
['dealer_streak', 0, 3]
>>> streak_of_extra({"streak": 2}), streak_of_extra({})
(2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind
from paipu.rules.score import RequestError

if TYPE_CHECKING:
    from paipu.rules.replay import Table
    from paipu.rules.selfplay import HandSetup

#: The key of the streak in ``HandSetup.extra`` and in a score request's ``extra``.
KEY = "streak"
#: The note the table records for a hand dealt on a streak.
NOTE = "dealer_streak"


@event_kind
@dataclass(frozen=True, slots=True)
class DealerStreak(Event):
    """The dealer's streak (连庄): how many hands in a row he deals, this one included."""

    kind: ClassVar[str] = "dealer_streak"
    seat: int
    streak: int

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None:
            raise EventError("dealer_streak: the dealer's seat is required")
        if not isinstance(payload, int) or isinstance(payload, bool) or payload < 1:
            raise EventError(
                f"dealer_streak: the payload is the hands the dealer deals in a row (1, 2 …), "
                f"not {payload!r}"
            )
        return cls(seat, payload)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, self.streak]


def streak_of_setup(setup: HandSetup) -> int:
    """The streak a self-played hand carries in (1: a fresh dealer)."""
    return int(setup.extra.get(KEY, 1))


def setup_events(setup: HandSetup) -> list[Event]:
    """The event a self-played hand opens with: the streak, when the dealer deals again."""
    streak = streak_of_setup(setup)
    return [DealerStreak(setup.dealer, streak)] if streak > 1 else []


def streak_of_extra(extra: Mapping[str, Any]) -> int:
    """A score request's ``extra.streak`` (default 1), checked."""
    value = extra.get(KEY, 1)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RequestError("extra 'streak' is the dealer streak, a whole number ≥ 1 (1 = none)")
    return value


class Streak:
    """The streak on a table: set once by the ``dealer_streak`` event, before the first
    draw, from the dealer's seat (refused otherwise, the rule named); 1 without it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.count = 1
        self.given = False

    def declare(self, event: DealerStreak) -> None:
        table = self.table
        if self.given:
            raise table.fail(event, f"the dealer's streak is given once (already {self.count})")
        if event.seat != table.record.dealer:
            raise table.fail(
                event,
                f"the streak is the dealer's (seat {table.record.dealer}), not seat {event.seat}'s",
            )
        if any(s.draws for s in table.seats) or table.discard_count:
            raise table.fail(event, "the dealer's streak (连庄) is given before the first draw")
        self.count = event.streak
        self.given = True
        if event.streak > 1:
            table.notes.append(NOTE)

    def extra(self) -> dict[str, Any]:
        """The win request's fact: ``{"streak": n}`` when n > 1."""
        return {KEY: self.count} if self.count > 1 else {}
