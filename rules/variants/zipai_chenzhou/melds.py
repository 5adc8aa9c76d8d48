"""The zipai meld grammar (组牌规则) and the 胡息 (xi) table.

A winning hand is cut into *groups*: the declared melds (提 垄, 跑, 偎, 碰, 吃 and its 比
sets) and the concealed ones (坎, sets of three, the single pair). :class:`SetKind` names
every group kind; :func:`chi_shape` says which sets of three may be claimed with 吃 (or
kept in hand): a run of one size (一二三 / 壹贰叁 earn xi, other runs none), 二七十 of one
size, and 大小三搭 (two of a rank in one size, one in the other).

The xi each kind earns, small and big, is data: the ``[xi]`` table of the variant's TOML,
read into an :class:`XiTable`.

>>> from paipu.rules.variants.zipai_chenzhou.cards import parse_cards
>>> [str(chi_shape(parse_cards(s))) for s in ("123x", "270d", "88d8x", "456x", "45x6d", "555x")]
['one_two_three', 'two_seven_ten', 'mixed', 'run', 'None', 'None']
>>> table = XiTable.default()
>>> table.xi(SetKind.TI, big=True), table.xi(SetKind.PENG, big=False)
(12, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import tile_names
from paipu.rules.variants.zipai_chenzhou.cards import Card, card_at, index, is_big, names_zh, rank


class SetKind(StrEnum):
    """The kinds of group in a zipai hand, named as in the ``[xi]`` table."""

    TI = "ti"  # 提 / 垄: four alike, declared from the hand or with one's own flip
    PAO = "pao"  # 跑: four alike, the fourth from the table
    KAN = "kan"  # 坎: three alike dealt, kept in hand
    WEI = "wei"  # 偎: a pair in hand and one's own flip
    PENG = "peng"  # 碰: a pair in hand and another's card
    ONE_TWO_THREE = "one_two_three"  # 一二三 / 壹贰叁
    TWO_SEVEN_TEN = "two_seven_ten"  # 二七十 / 贰柒拾
    RUN = "run"  # any other run of one size (顺子)
    MIXED = "mixed"  # 大小三搭 (搭子 / 绞): 捌捌八, 十十拾
    PAIR = "pair"  # 吊 / 将: the single pair, only beside a 提 or 跑

    @property
    def name_zh(self) -> str:
        return _NAMES_ZH[self]

    @property
    def size(self) -> int:
        if self in (SetKind.TI, SetKind.PAO):
            return 4
        return 2 if self is SetKind.PAIR else 3

    @property
    def four_alike(self) -> bool:
        return self in (SetKind.TI, SetKind.PAO)


_NAMES_ZH = {
    SetKind.TI: "提",
    SetKind.PAO: "跑",
    SetKind.KAN: "坎",
    SetKind.WEI: "偎",
    SetKind.PENG: "碰",
    SetKind.ONE_TWO_THREE: "一二三",
    SetKind.TWO_SEVEN_TEN: "二七十",
    SetKind.RUN: "顺子",
    SetKind.MIXED: "大小三搭",
    SetKind.PAIR: "对子",
}

#: The declared meld kinds of zipai and the group each stands for (吃 is shaped apart).
MELD_SETS = {
    MeldKind.TI: SetKind.TI,
    MeldKind.PAO: SetKind.PAO,
    MeldKind.WEI: SetKind.WEI,
    MeldKind.PENG: SetKind.PENG,
}
ZIPAI_MELDS = (MeldKind.TI, MeldKind.PAO, MeldKind.WEI, MeldKind.PENG, MeldKind.CHI)


@dataclass(frozen=True, slots=True)
class XiTable:
    """胡息 per group kind: ``values[kind] = (small, big)``; hashable, for caches."""

    values: tuple[tuple[SetKind, int, int], ...]

    def xi(self, kind: SetKind, big: bool) -> int:
        for k, small_xi, big_xi in self.values:
            if k is kind:
                return big_xi if big else small_xi
        raise KeyError(kind)

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> XiTable:
        """Read the ``[xi]`` table: ``kind = [small, big]`` for every :class:`SetKind`."""
        missing = sorted(k.value for k in SetKind if k.value not in raw)
        unknown = sorted(set(raw) - {k.value for k in SetKind})
        if missing or unknown:
            raise ValueError(f"[xi] table: missing {missing}, unknown {unknown}")
        rows = []
        for kind in SetKind:
            small_xi, big_xi = raw[kind.value]
            rows.append((kind, int(small_xi), int(big_xi)))
        return cls(tuple(rows))

    @classmethod
    def default(cls) -> XiTable:
        """The table of ``zipai_chenzhou.toml`` (used by doctests and tests)."""
        return cls.from_toml(DEFAULT_XI)


DEFAULT_XI: Mapping[str, tuple[int, int]] = {
    "ti": (9, 12),
    "pao": (6, 9),
    "kan": (3, 6),
    "wei": (3, 6),
    "peng": (1, 3),
    "one_two_three": (3, 6),
    "two_seven_ten": (3, 6),
    "run": (0, 0),
    "mixed": (0, 0),
    "pair": (0, 0),
}


@dataclass(frozen=True, slots=True)
class CardGroup:
    """One group of a hand: its kind, its cards (sorted) and whether it lies on the table."""

    kind: SetKind
    cards: tuple[Card, ...]
    exposed: bool = False

    @property
    def big(self) -> bool:
        return all(is_big(c) for c in self.cards)

    def xi(self, table: XiTable) -> int:
        return table.xi(self.kind, self.big)

    def label(self) -> str:
        """``提 贰贰贰贰``: the kind and the cards, as a player says them."""
        return f"{self.kind.name_zh} {names_zh(self.cards)}"

    def to_json(self, table: XiTable) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "name": self.kind.name_zh,
            "cards": tile_names(self.cards),
            "exposed": self.exposed,
            "xi": self.xi(table),
        }


def chi_shape(cards: Sequence[Card]) -> SetKind | None:
    """The kind of a set of three that 吃 (or a concealed set) may make, or None."""
    if len(cards) != 3:
        return None
    a, b, c = sorted(cards)
    if a == b == c:
        return None
    ranks = (rank(a), rank(b), rank(c))
    if is_big(a) == is_big(b) == is_big(c):
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return SetKind.ONE_TWO_THREE if ranks[0] == 1 else SetKind.RUN
        if ranks == (2, 7, 10):
            return SetKind.TWO_SEVEN_TEN
        return None
    if ranks[0] == ranks[1] == ranks[2]:
        return SetKind.MIXED
    return None


def shapes_with(card: Card) -> list[tuple[Card, Card, Card]]:
    """Every set of three that 吃 may make and that holds ``card`` (sorted, no repeats).

    >>> from paipu.rules.variants.zipai_chenzhou.cards import parse_cards, names_zh
    >>> [names_zh(s) for s in shapes_with(parse_cards("2x")[0])]
    ['一二三', '二三四', '二七十', '二二贰', '二贰贰']
    """
    i = index(card)
    base = i - i % 10
    r = i % 10  # rank - 1
    out: list[tuple[int, int, int]] = []
    for start in (r - 2, r - 1, r):
        if start >= 0 and start + 2 <= 9:
            out.append((base + start, base + start + 1, base + start + 2))
    if r in (1, 6, 9):
        out.append((base + 1, base + 6, base + 9))
    other = i + 10 if i < 10 else i - 10
    out.append(tuple(sorted((i, i, other))))  # type: ignore[arg-type]
    out.append(tuple(sorted((i, other, other))))  # type: ignore[arg-type]
    seen: list[tuple[Card, Card, Card]] = []
    for shape in out:
        cards = tuple(card_at(k) for k in shape)
        if cards not in seen:
            seen.append(cards)  # type: ignore[arg-type]
    return seen


@lru_cache(maxsize=4096)
def meld_group(meld: Meld) -> CardGroup:
    """The group a declared meld stands for; ValueError if its cards cannot make it."""
    if meld.kind is MeldKind.CHI:
        shape = chi_shape(meld.tiles)
        if shape is None:
            raise ValueError(
                f"{names_zh(meld.tiles)} is not a set 吃 can make (a run of one size, 二七十 "
                "of one size, or 大小三搭)"
            )
        return CardGroup(shape, tuple(sorted(meld.tiles)), exposed=True)
    kind = MELD_SETS.get(meld.kind)
    if kind is None:
        raise ValueError(f"{meld.kind.value} is not a zipai meld (ti, pao, wei, peng, chi)")
    if len(meld.tiles) != kind.size or len(set(meld.tiles)) != 1:
        raise ValueError(f"a {meld.kind.value} is {kind.size} identical cards")
    return CardGroup(kind, tuple(meld.tiles), exposed=True)
