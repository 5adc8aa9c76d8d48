"""The dice at the start of a hand (掷骰), with the game state a hand carries in.

A table event ``["dice", null, [d1, d2], {counter: n, …}]``: the two dice the dealer threw
before the deal, and the counters the game carried into this hand from the hands before
(doublings that accumulate while hands are drawn, say). The counters are the variant's own
names; this module only reads and writes them. A record without the event threw no dice
the engine knows of, and carries nothing.

>>> from paipu.rules.events import decode
>>> event = decode(["dice", None, [3, 3], {"carried": 1}])
>>> event.doubles, event.counter("carried"), event.to_array()
(True, 1, ['dice', None, [3, 3], {'carried': 1}])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind

#: The faces of a die.
FACES = 6


@event_kind
@dataclass(frozen=True, slots=True)
class Dice(Event):
    """Table event: the dealer's two dice (掷骰) and the counters carried into the hand."""

    kind: ClassVar[str] = "dice"
    table_event: ClassVar[bool] = True
    dice: tuple[int, int]
    #: The carried counters as (name, count), sorted by name (an event stays hashable).
    carry: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, dice: tuple[int, int], carry: Mapping[str, int]) -> Dice:
        """The event with ``carry`` given as a mapping."""
        return cls(dice, tuple(sorted(carry.items())))

    def counter(self, name: str) -> int:
        """A carried counter, 0 when the event does not carry it."""
        return next((n for key, n in self.carry if key == name), 0)

    @property
    def doubles(self) -> bool:
        """Both dice show the same face."""
        return self.dice[0] == self.dice[1]

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is not None:
            raise EventError("dice: a table event (seat null)")
        if (
            not isinstance(payload, list)
            or len(payload) != 2
            or not all(type(d) is int and 1 <= d <= FACES for d in payload)
        ):
            raise EventError(f"dice: the payload is two dice 1-6 such as [3, 5], not {payload!r}")
        for name, value in extra.items():
            if type(value) is not int or value < 0:
                raise EventError(f"dice: carried {name!r} must be a count (0, 1, 2 …)")
        return cls.of((payload[0], payload[1]), extra)

    def to_array(self) -> list[Any]:
        out: list[Any] = [self.kind, None, list(self.dice)]
        if self.carry:
            out.append(dict(self.carry))
        return out


def roll(rng: random.Random) -> tuple[int, int]:
    """Two dice from ``rng``."""
    return rng.randint(1, FACES), rng.randint(1, FACES)
