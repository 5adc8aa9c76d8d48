"""Tile sets (牌组) described by a variant's TOML: suits, honours, flowers, successors.

A :class:`TileSet` says which tiles a variant plays with, in the codes of
:mod:`paipu.rules.tiles`: suits of ranks 1–9 or 1–10 (十万麻将), any subset of the seven
honours (all, none, 红中 only for Harbin's 112 tiles), flowers or not. The tens keep the
codes they already have (10m 42, 10p 43, 10s 44), so the codes of 1–9 never change; a suit
is therefore a tuple of codes by rank, and chow arithmetic is done on ranks, never on
codes: 8-9-10 is a chow, 10-1 is not.

It also gives the successor order that indicators use (翻牌 → 混 / 精 / 财神): 9→1 (or
10→1), 东→南→西→北→东, and the dragon cycle the variant names (天津: 中→发→白→中).

>>> tiles = TileSet.from_toml({"ranks": 10, "honors": ["winds"]})
>>> len(tiles.wall()), tiles.format(tiles.chow_from(tiles.parse("8m")[0]) or ())
(136, '890m')
>>> tiles.chow_from(tiles.parse("9m")[0]) is None
True
>>> red_only = TileSet.from_toml({"honors": ["7z"]})
>>> len(red_only.wall()), tile_name(red_only.successor(parse_tile("7z")))
(112, '7z')
>>> zhong_fa_bai = TileSet.from_toml({"dragon_cycle": ["中", "发", "白"]})
>>> [tile_name(zhong_fa_bai.successor(parse_tile(name))) for name in ("9s", "4z", "5z")]
['1s', '1z', '7z']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

from paipu.rules.tiles import (
    DRAGONS,
    FLOWERS,
    HONORS,
    MAN,
    PIN,
    SOU,
    TEN_FIRST,
    WINDS,
    Tile,
    TileError,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_name_zh,
)

#: The suit letters a tile set may name, and the first code of each.
SUIT_BASES: dict[str, Tile] = {"m": MAN, "p": PIN, "s": SOU}
#: The code of each suit's ten (十万麻将): codes after every other tile, so 1–9 keep theirs.
TEN_CODES: dict[str, Tile] = {"m": TEN_FIRST, "p": TEN_FIRST + 1, "s": TEN_FIRST + 2}
#: The orders seasons 春夏秋冬 and plants 梅兰竹菊 follow, each its own cycle.
_FLOWER_CYCLES = (FLOWERS[:4], FLOWERS[4:])
_HONOR_WORDS: dict[str, tuple[Tile, ...]] = {
    "winds": WINDS,
    "dragons": DRAGONS,
    "东": (WINDS[0],),
    "南": (WINDS[1],),
    "西": (WINDS[2],),
    "北": (WINDS[3],),
    "白": (DRAGONS[0],),
    "发": (DRAGONS[1],),
    "中": (DRAGONS[2],),
    "红中": (DRAGONS[2],),
    "白板": (DRAGONS[0],),
}
_KEYS = ("suited", "suits", "ranks", "honors", "flowers", "copies", "dragon_cycle")


class TileSetError(ValueError):
    """A ``tiles`` table a variant's TOML cannot mean."""


def honor_tile(name: str) -> Tile:
    """An honour by name: ``7z``, ``中`` or ``红中``; :class:`TileError` if it is none."""
    found = _HONOR_WORDS.get(name)
    if found is not None and len(found) == 1:
        return found[0]
    tile = parse_tile(name)
    if tile not in HONORS:
        raise TileError(f"{name!r} is not an honour tile (字牌)")
    return tile


class TileSet:
    """The tiles of one variant: suits by rank, honours, flowers, copies of each.

    ``suits`` holds each suit's codes by rank (9 or 10 of them), ``honors`` the honour codes
    present, in code order, ``dragon_cycle`` the dragons' successor order (default 白→发→中).
    ``groups`` is what the decomposer splits a hand into: each suit (chows allowed), then
    the honours (no chows), if any.
    """

    def __init__(
        self,
        suits: Sequence[Sequence[Tile]],
        honors: Sequence[Tile] = HONORS,
        flowers: Sequence[Tile] = (),
        copies: int = 4,
        dragon_cycle: Sequence[Tile] = DRAGONS,
    ) -> None:
        self.suits: tuple[tuple[Tile, ...], ...] = tuple(tuple(suit) for suit in suits)
        self.honors: tuple[Tile, ...] = tuple(sorted(honors))
        self.flowers: tuple[Tile, ...] = tuple(sorted(flowers))
        self.copies = copies
        self.dragon_cycle: tuple[Tile, ...] = tuple(t for t in dragon_cycle if t in self.honors)
        self.kinds: tuple[Tile, ...] = tuple(
            sorted({t for suit in self.suits for t in suit} | set(self.honors))
        )
        self.kind_set: frozenset[Tile] = frozenset(self.kinds)
        every = (*self.kinds, *self.flowers)
        #: Length of a count vector indexed by code that holds every tile of the set.
        self.size = max(every) + 1 if every else 0
        groups: list[tuple[tuple[Tile, ...], bool]] = [(suit, True) for suit in self.suits]
        if self.honors:
            groups.append((self.honors, False))
        self.groups: tuple[tuple[tuple[Tile, ...], bool], ...] = tuple(groups)
        self._hash = hash(self._key())
        self._successor: dict[Tile, Tile] = self._successors()
        self._next_rank: dict[Tile, Tile] = {
            low: high for suit in self.suits for low, high in itertools.pairwise(suit)
        }
        self._previous_rank: dict[Tile, Tile] = {high: low for low, high in self._next_rank.items()}

    # ------------------------------------------------------------------ construction

    @classmethod
    def standard(cls, *, honors: bool = True, flowers: bool = False) -> TileSet:
        """The usual set: three suits 1–9, the seven honours or none, flowers or not."""
        return cls.from_toml({"honors": honors, "flowers": flowers})

    @classmethod
    def from_toml(cls, table: Mapping[str, object], source: str = "tiles") -> TileSet:
        """A tile set from a variant's ``tiles`` table; :class:`TileSetError` names the key.

        Keys (all optional): ``suited`` (bool, default true), ``suits`` (letters, default
        ``["m", "p", "s"]``), ``ranks`` (9 or 10), ``honors`` (true / ``"all"``, false /
        ``"none"``, or a list of ``"winds"``, ``"dragons"`` and honour names such as
        ``"7z"`` or ``"中"``), ``flowers`` (bool: the eight 春夏秋冬梅兰竹菊), ``copies``
        (default 4), ``dragon_cycle`` (the dragons' successor order, e.g. ``["中", "发",
        "白"]``).
        """
        unknown = sorted(set(table) - set(_KEYS))
        if unknown:
            raise TileSetError(f"{source}: unknown key {unknown[0]!r} (known: {', '.join(_KEYS)})")
        try:
            suits = _suits(table) if _boolean(table, "suited", True) else []
            honors = _honors(table.get("honors", True))
            flowers = FLOWERS if _boolean(table, "flowers", False) else ()
            copies = table.get("copies", 4)
            if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= 4:
                raise TileSetError(f"copies must be 1..4, not {copies!r}")
            cycle = table.get("dragon_cycle", None)
            dragon_cycle = DRAGONS if cycle is None else _dragon_cycle(cycle)
        except (TileError, TileSetError) as error:
            raise TileSetError(f"{source}: {error}") from None
        if not suits and not honors:
            raise TileSetError(f"{source}: a tile set needs suits or honours")
        return cls(suits, honors, flowers, copies, dragon_cycle)

    def _successors(self) -> dict[Tile, Tile]:
        cycles: list[tuple[Tile, ...]] = [*self.suits]
        cycles.append(tuple(t for t in WINDS if t in self.honors))
        cycles.append(self.dragon_cycle)
        cycles.extend(tuple(t for t in cycle if t in self.flowers) for cycle in _FLOWER_CYCLES)
        return {
            tile: cycle[(index + 1) % len(cycle)]
            for cycle in cycles
            for index, tile in enumerate(cycle)
        }

    # ------------------------------------------------------------------ questions

    def __contains__(self, tile: object) -> bool:
        return tile in self.kind_set or tile in self.flowers

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, TileSet) and self._key() == other._key())

    def __hash__(self) -> int:
        return self._hash

    def _key(self) -> tuple[object, ...]:
        return (self.suits, self.honors, self.flowers, self.copies, self.dragon_cycle)

    def __repr__(self) -> str:
        ranks = len(self.suits[0]) if self.suits else 0
        honors = format_tiles(self.honors) or "none"
        return (
            f"TileSet({len(self.suits)} suits of {ranks}, honours {honors}, "
            f"{len(self.flowers)} flowers, {len(self.wall())} tiles)"
        )

    @property
    def ranks(self) -> int:
        """Ranks per suit: 9, or 10 for 十万麻将 (0 without suits)."""
        return len(self.suits[0]) if self.suits else 0

    def wall(self) -> list[Tile]:
        """Every tile of a full set: ``copies`` of each kind, one of each flower."""
        return [t for t in self.kinds for _ in range(self.copies)] + list(self.flowers)

    def successor(self, tile: Tile) -> Tile:
        """The tile after ``tile`` in the indicator order: 9→1 (10→1), 东→南→西→北→东,
        the dragon cycle, 春→夏→秋→冬→春, 梅→兰→竹→菊→梅."""
        try:
            return self._successor[tile]
        except KeyError:
            raise TileError(f"{tile_name(tile)} is not a tile of {self!r}") from None

    def next_rank(self, tile: Tile) -> Tile | None:
        """The next rank of the same suit (no wrap: 10m, or 9m in 1–9 suits, has none)."""
        return self._next_rank.get(tile)

    def previous_rank(self, tile: Tile) -> Tile | None:
        """The rank below in the same suit (no wrap: a 1 has none)."""
        return self._previous_rank.get(tile)

    def chow_from(self, tile: Tile) -> tuple[Tile, Tile, Tile] | None:
        """The chow (顺子) whose lowest tile is ``tile``, or ``None`` if there is none."""
        middle = self._next_rank.get(tile)
        high = self._next_rank.get(middle) if middle is not None else None
        if middle is None or high is None:
            return None
        return (tile, middle, high)

    def is_chow(self, tiles: Iterable[Tile]) -> bool:
        """Whether three tiles, in any order, are consecutive ranks of one suit."""
        ordered = sorted(tiles, key=self.rank_key)
        return len(ordered) == 3 and self.chow_from(ordered[0]) == tuple(ordered)

    def rank_key(self, tile: Tile) -> tuple[int, int]:
        """``(suit index, rank index)`` of a suited tile; honours and flowers after the suits."""
        for index, suit in enumerate(self.suits):
            if tile in suit:
                return (index, suit.index(tile))
        return (len(self.suits), tile)

    def counts(self, tiles: Iterable[Tile]) -> list[int]:
        """Count vector of ``tiles`` indexed by code, :attr:`size` long."""
        table = [0] * self.size
        for tile in tiles:
            if tile not in self:
                raise TileError(f"{tile_name(tile)} is not a tile of {self!r}")
            table[tile] += 1
        return table

    def parse(self, spec: str | Iterable[str]) -> list[Tile]:
        """:func:`~paipu.rules.tiles.parse_tiles`, refusing tiles the set does not have."""
        tiles = parse_tiles(spec)
        for tile in tiles:
            if tile not in self:
                raise TileError(f"{tile_name(tile)} ({tile_name_zh(tile)}) is not in {self!r}")
        return tiles

    def format(self, tiles: Iterable[Tile]) -> str:
        """The compact notation, which :meth:`parse` reads back."""
        return format_tiles(tiles)


def _boolean(table: Mapping[str, object], key: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise TileSetError(f"{key} must be true or false, not {value!r}")
    return value


def _suits(table: Mapping[str, object]) -> list[tuple[Tile, ...]]:
    letters = table.get("suits", ["m", "p", "s"])
    ranks = table.get("ranks", 9)
    if ranks not in (9, 10) or isinstance(ranks, bool):
        raise TileSetError(f"ranks must be 9 or 10, not {ranks!r}")
    if not isinstance(letters, list) or not letters:
        raise TileSetError(f"suits must be a list of m, p, s, not {letters!r}")
    suits: list[tuple[Tile, ...]] = []
    for letter in letters:
        if letter not in SUIT_BASES or letters.count(letter) > 1:
            raise TileSetError(f"suits: {letter!r} is not a suit letter m, p or s (once each)")
        base = SUIT_BASES[str(letter)]
        tens = (TEN_CODES[str(letter)],) if ranks == 10 else ()
        suits.append((*range(base, base + 9), *tens))
    return suits


def _honors(value: object) -> tuple[Tile, ...]:
    if value is True or value == "all":
        return HONORS
    if value is False or value == "none":
        return ()
    if not isinstance(value, list):
        raise TileSetError(f"honors must be true, false, 'all', 'none' or a list, not {value!r}")
    found: set[Tile] = set()
    for name in value:
        if not isinstance(name, str):
            raise TileSetError(f"honors: {name!r} is not a name")
        words = _HONOR_WORDS.get(name)
        found.update(words if words is not None else (honor_tile(name),))
    return tuple(sorted(found))


def _dragon_cycle(value: object) -> tuple[Tile, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise TileSetError(f"dragon_cycle must be a list of dragon names, not {value!r}")
    cycle = tuple(honor_tile(str(name)) for name in value)
    if sorted(cycle) != sorted(DRAGONS):
        raise TileSetError("dragon_cycle must name 白, 发 and 中 once each")
    return cycle


#: The standard 136-tile set (no flowers).
STANDARD = TileSet.standard()
