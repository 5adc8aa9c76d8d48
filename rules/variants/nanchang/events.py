"""The event kind Nanchang adds to paipu log v1: the dealer's streak (连庄).

``["dealer_streak", 0, 3]``: the dealer (seat 0) deals his third hand in a row; every
payment of the hand's win is × 3 (爬楼, ``t = max(streak, 1)``). It comes before the first
draw, at most once, from the dealer's seat; a hand without it is a fresh dealer's (× 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind


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
