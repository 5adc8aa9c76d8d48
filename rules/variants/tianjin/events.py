"""天津's own event kinds: 坐庄 and 拉庄, the doublings chosen before the first draw.

``["zuo_zhuang", dealer, true]``: the dealer sits 坐庄 (``false``: it does not);
``["la_zhuang", seat, 1]``: a 闲 pulls the dealer once (0 不拉, 1 拉一庄, 2 拉两庄).
A record that leaves one out means 不坐 / 不拉.

>>> from paipu.rules.events import decode
>>> decode(["zuo_zhuang", 0, True]), decode(["la_zhuang", 3, 2]).to_array()
(ZuoZhuang(seat=0, sits=True), ['la_zhuang', 3, 2])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind

#: The highest 拉庄 level (拉两庄).
MOST_LA = 2


@event_kind
@dataclass(frozen=True, slots=True)
class ZuoZhuang(Event):
    """The dealer chooses 坐庄 (``sits``) or not, before the first draw."""

    kind: ClassVar[str] = "zuo_zhuang"
    seat: int
    sits: bool

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or not isinstance(payload, bool):
            raise EventError(
                f"zuo_zhuang: the dealer's seat and true (坐庄) or false are required, not "
                f"{payload!r}"
            )
        return cls(seat, payload)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, self.sits]


@event_kind
@dataclass(frozen=True, slots=True)
class LaZhuang(Event):
    """A 闲 chooses its 拉庄 level (0 不拉, 1 拉一庄, 2 拉两庄) before the first draw."""

    kind: ClassVar[str] = "la_zhuang"
    seat: int
    level: int

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if (
            seat is None
            or not isinstance(payload, int)
            or isinstance(payload, bool)
            or not 0 <= payload <= MOST_LA
        ):
            raise EventError(
                f"la_zhuang: a seat and a level 0 (不拉), 1 (拉一庄) or 2 (拉两庄) are required, "
                f"not {payload!r}"
            )
        return cls(seat, payload)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, self.level]
