"""The zipai event kinds of the paipu log (``docs/zipai.md`` shows each with an example).

Every move of 郴州字牌 that mahjong lacks is one explicit event, so that the replay can
check that each forced move (偎, 提, 跑, 比) was made and that every flipped card was used
only by a seat entitled to it. ``draw``, ``discard``, ``chi`` (with its 比 sets in extra
``bi``) and ``win`` are the shared kinds of :mod:`paipu.rules.events`.

>>> from paipu.rules.events import decode
>>> decode(["flip", 1, "5x"])
Flip(seat=1, card=49)
>>> decode(["pao", 2, "10d"]).to_array()
['pao', 2, '10d']
>>> decode(["piao", 0, 2]).to_array()
['piao', 0, 2]
>>> decode(["wei", 0, "5p"])
Traceback (most recent call last):
...
paipu.rules.events.EventError: wei: 5p is not a zipai card (1x-10x small, 1d-10d big)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from paipu.rules.events import Event, EventError, event_kind
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name
from paipu.rules.variants.zipai_chenzhou.cards import is_card


def _card(payload: Any, kind: str) -> Tile:
    if not isinstance(payload, str):
        raise EventError(f'{kind}: the payload must be one card such as "5x", not {payload!r}')
    try:
        card = parse_tile(payload)
    except TileError as exc:
        raise EventError(f"{kind}: {exc}") from None
    if not is_card(card):
        raise EventError(f"{kind}: {payload} is not a zipai card (1x-10x small, 1d-10d big)")
    return card


@dataclass(frozen=True, slots=True)
class _CardEvent(Event):
    seat: int
    card: Tile

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None:
            raise EventError(f"{cls.kind}: a seat is required")
        if extra:
            raise EventError(f"{cls.kind}: takes no extra part, got {dict(extra)!r}")
        return cls(seat, _card(payload, cls.kind))  # type: ignore[call-arg]

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, tile_name(self.card)]


@event_kind
@dataclass(frozen=True, slots=True)
class Flip(_CardEvent):
    """The seat turns the next card of the stock face up for the table (翻牌 / 示众)."""

    kind: ClassVar[str] = "flip"


@event_kind
@dataclass(frozen=True, slots=True)
class Ti(_CardEvent):
    """提 / 垄: four alike, three hidden and one shown. Either declared from four dealt
    cards (开垄) or made with the seat's own flip on its 坎 or 偎."""

    kind: ClassVar[str] = "ti"


@event_kind
@dataclass(frozen=True, slots=True)
class Wei(_CardEvent):
    """偎: the seat's own flip on a pair in its hand; one shown, two hidden."""

    kind: ClassVar[str] = "wei"


@event_kind
@dataclass(frozen=True, slots=True)
class Pao(_CardEvent):
    """跑: the card on the table makes four with the seat's 坎 or 偎 (any flip or discard)
    or with its 碰 (a flip only); all four shown."""

    kind: ClassVar[str] = "pao"


@event_kind
@dataclass(frozen=True, slots=True)
class Peng(_CardEvent):
    """碰: another seat's flip or discard on a pair in the seat's hand; all shown."""

    kind: ClassVar[str] = "peng"


@event_kind
@dataclass(frozen=True, slots=True)
class Piao(Event):
    """飘: the points the seat stakes on this hand, chosen before the deal's first card."""

    kind: ClassVar[str] = "piao"
    seat: int
    amount: int

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or not isinstance(payload, int) or isinstance(payload, bool):
            raise EventError(f"piao: a seat and a whole number are required, not {payload!r}")
        if payload < 0:
            raise EventError(f"piao: the amount cannot be negative ({payload})")
        return cls(seat, payload)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat, self.amount]


@event_kind
@dataclass(frozen=True, slots=True)
class XiangGong(Event):
    """相公: the seat must discard but every card it holds is locked in a 坎; its hand is
    dead (it cannot win, 吃 or 碰) and it pays the 相公 penalty at settlement."""

    kind: ClassVar[str] = "xiang_gong"
    seat: int

    @classmethod
    def decode(cls, seat: int | None, payload: Any, extra: Mapping[str, Any]) -> Event:
        if seat is None or payload is not None:
            raise EventError("xiang_gong: a seat and no payload are required")
        return cls(seat)

    def to_array(self) -> list[Any]:
        return [self.kind, self.seat]
