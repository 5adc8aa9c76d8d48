"""Declared melds (副露) and the sets a hand decomposes into (面子, 雀头).

A :class:`Meld` is what a player declared at the table: a chow (吃), a pung (碰), an
exposed kong (明杠), an added kong (加杠 / 补杠) or a concealed kong (暗杠).
A :class:`Group` is one part of a decomposed hand: a chow, pung, kong or pair, concealed
or not; fan evaluators work on groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import NamedTuple

from paipu.rules.tiles import TEN_FIRST, ZIPAI_SMALL_FIRST, Tile, parse_tiles, tile_names


class MeldKind(StrEnum):
    """The kinds of declared meld, named as in the paipu log and the score request."""

    CHI = "chi"
    PONG = "pong"
    KONG = "kong"
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"
    # 字牌 (zipai) melds: 提/垄 four alike, 跑 four alike shown, 偎 three alike, 碰 three alike.
    TI = "ti"
    PAO = "pao"
    WEI = "wei"
    PENG = "peng"

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)

    @property
    def size(self) -> int:
        return 4 if self in _FOUR_ALIKE else 3


_FOUR_ALIKE = frozenset(
    {MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG, MeldKind.TI, MeldKind.PAO}
)


class MeldError(ValueError):
    """A meld whose tiles do not make the declared kind."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld. ``tiles`` are sorted; ``from_seat`` is None for a concealed kong."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    from_seat: int | None = None

    @classmethod
    def of(cls, kind: str | MeldKind, tiles: str | list[str], from_seat: int | None = None) -> Meld:
        """Build and check a meld from names: ``Meld.of("pong", "555z", 3)``."""
        try:
            meld_kind = MeldKind(kind)
        except ValueError:
            known = ", ".join(k.value for k in MeldKind)
            raise MeldError(f"unknown meld kind {kind!r} (known: {known})") from None
        meld = cls(meld_kind, tuple(sorted(parse_tiles(tiles))), from_seat)
        meld.check()
        return meld

    @property
    def concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def base(self) -> Tile:
        """The lowest tile: the pung/kong tile, or the first tile of a chow."""
        return self.tiles[0]

    def check(self) -> None:
        """Raise :class:`MeldError` unless the tiles form the declared kind."""
        tiles = self.tiles
        names = " ".join(tile_names(tiles))
        if len(tiles) != self.kind.size:
            raise MeldError(
                f"a {self.kind.value} has {self.kind.size} tiles, got {len(tiles)} ({names})"
            )
        if self.kind is MeldKind.CHI and tiles[0] >= ZIPAI_SMALL_FIRST:
            return  # zipai runs (一二三, 二七十, 大小三搭 …) are checked by the zipai rules
        if self.kind is MeldKind.CHI:
            first = tiles[0]
            if (
                first >= 27 or first % 9 > 6 or tiles != (first, first + 1, first + 2)
            ) and not is_ten_chow(tiles):
                raise MeldError(f"a chi is three consecutive tiles of one suit, not {names}")
        elif len(set(tiles)) != 1:
            raise MeldError(f"a {self.kind.value} is {self.kind.size} identical tiles, not {names}")

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind.value, "tiles": tile_names(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return out


def is_ten_chow(tiles: tuple[Tile, ...]) -> bool:
    """Whether ascending ``tiles`` are 8-9-10 of one suit, the one chow of the 1–10 suits
    (十万麻将) that holds a ten (codes 42–44); 10 and 1 are not connected.

    >>> is_ten_chow((7, 8, 42)), is_ten_chow((0, 8, 42))
    (True, False)
    """
    if len(tiles) != 3 or not TEN_FIRST <= tiles[2] < TEN_FIRST + 3:
        return False
    nine = (tiles[2] - TEN_FIRST) * 9 + 8
    return tiles[0] == nine - 1 and tiles[1] == nine


class GroupKind(IntEnum):
    """Parts of a decomposed hand."""

    CHOW = 0
    PUNG = 1
    KONG = 2
    PAIR = 3


class Group(NamedTuple):
    """One set or the pair of a decomposed hand; ``tile`` is the lowest tile."""

    kind: GroupKind
    tile: Tile
    concealed: bool = True

    def tiles(self) -> list[Tile]:
        if self.kind is GroupKind.CHOW:
            return [self.tile, self.tile + 1, self.tile + 2]
        size = {GroupKind.PUNG: 3, GroupKind.KONG: 4, GroupKind.PAIR: 2}[self.kind]
        return [self.tile] * size

    @classmethod
    def from_meld(cls, meld: Meld) -> Group:
        if meld.kind is MeldKind.CHI:
            return cls(GroupKind.CHOW, meld.base, concealed=False)
        if meld.kind is MeldKind.PONG:
            return cls(GroupKind.PUNG, meld.base, concealed=False)
        return cls(GroupKind.KONG, meld.base, concealed=meld.concealed)
