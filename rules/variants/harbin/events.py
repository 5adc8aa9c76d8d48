"""哈尔滨麻将's own event kind: the escape (逃跑), ``["escape", seat]``.

A seat that leaves the table before the hand ends loses the escape penalty (逃跑扣分, 36 in
the seed) and nobody is paid for it ("有玩家逃跑后，游戏结束，其他玩家不能获得积分补偿"); the
hand ends there.

>>> from paipu.rules.events import decode
>>> decode(["escape", 2]).to_array()
['escape', 2]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind


@event_kind
@dataclass(frozen=True, slots=True)
class Escape(Event):
    """The seat leaves the table during the hand (逃跑): it loses the escape penalty."""

    kind: ClassVar[str] = "escape"
    seat: int

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None:
            raise EventError("escape: a seat is required")
        return cls(seat)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat]
