"""Wild tiles (混儿, 精, 财神, 鬼牌) as a first-class idea: which tiles, stand-ins, permissions.

A variant describes its wilds in a ``[wilds]`` table of its TOML (:meth:`WildRule.from_toml`):

* ``fixed``: tiles that are always wild (广东 白板做鬼 ``["5z"]``, 红中麻将 ``["7z"]``);
* ``indicator``: steps along the tile set's successor order from a tile turned up after the
  deal: 天津 ``[0, 1]`` (the flipped tile and the next, 混儿), 南昌 ``[1, 2]`` (正精, 副精),
  常州 ``[1]`` (财神 = flipped + 1), 广东 翻鬼 ``[1]`` / 翻双鬼 ``[1, 2]``;
* ``stand_in``: a tile that plays as the wild's own face (常州: 白板 is the 财神's face;
  when 白板 is itself the 财神 it is simply wild);
* what wilds may do: ``claim`` (a discarded wild may be claimed), ``discard``, ``chow`` and
  ``pong`` (a wild from the hand may be used in a chow / pong or kong meld), and
  ``concealed_kong`` (four wilds declared as a concealed kong, 天津 金杠; default: as
  ``pong``). These are rules of the legal moves; the shape engine lets a wild stand for any
  tile of the set.

The rule becomes a :class:`WildSpec` for one hand once the indicator is known. Nothing here
is wired into a variant yet.

>>> from paipu.rules.core.tiles import TileSet
>>> from paipu.rules.tiles import format_tiles, parse_tile
>>> zhong_fa_bai = TileSet.from_toml({"dragon_cycle": ["中", "发", "白"]})
>>> format_tiles(sorted(WildSpec.from_indicator(zhong_fa_bai, parse_tile("9s"), (0, 1)).tiles))
'19s'
>>> caishen = WildRule.from_toml({"indicator": [1], "stand_in": "5z"}, STANDARD)
>>> spec = caishen.spec(parse_tile("4m"))
>>> format_tiles(sorted(spec.tiles)), format_tiles([spec.face(parse_tile("5z"))])
('5m', '5m')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from paipu.rules.core.tiles import STANDARD, TileSet, honor_tile
from paipu.rules.tiles import Tile, TileError, format_tiles, parse_tile, tile_name

_KEYS = ("fixed", "indicator", "stand_in", "claim", "discard", "chow", "pong", "concealed_kong")


class WildError(ValueError):
    """A ``wilds`` table, or an indicator, that cannot be meant."""


class WildSpec:
    """The wilds of one hand: wild kinds, stand-ins, and what wilds may do.

    ``tiles``: the wild kinds (every copy held is a wild); ``stand_ins``: ``(tile, face)``
    pairs, the tile playing as the natural ``face``. A frozen value: equal specs compare and
    hash equal.
    """

    __slots__ = (
        "_hash",
        "can_chow",
        "can_claim",
        "can_concealed_kong",
        "can_discard",
        "can_pong",
        "drawable",
        "ordered",
        "plain",
        "stand_ins",
        "tile_set",
        "tiles",
    )

    def __init__(
        self,
        tile_set: TileSet,
        tiles: frozenset[Tile] = frozenset(),
        stand_ins: tuple[tuple[Tile, Tile], ...] = (),
        *,
        can_claim: bool = False,
        can_discard: bool = True,
        can_chow: bool = True,
        can_pong: bool = True,
        can_concealed_kong: bool | None = None,
    ) -> None:
        for tile in (*tiles, *(t for pair in stand_ins for t in pair)):
            if tile not in tile_set.kind_set:
                raise WildError(f"{tile_name(tile)} is not a tile of {tile_set!r}")
        for tile, _ in stand_ins:
            if tile in tiles:
                raise WildError(f"{tile_name(tile)} cannot be both wild and a stand-in")
        self.tile_set = tile_set
        self.tiles: frozenset[Tile] = frozenset(tiles)
        #: The wild kinds, ascending.
        self.ordered: tuple[Tile, ...] = tuple(sorted(self.tiles))
        self.stand_ins: tuple[tuple[Tile, Tile], ...] = tuple(sorted(stand_ins))
        self.can_claim = can_claim
        self.can_discard = can_discard
        self.can_chow = can_chow
        self.can_pong = can_pong
        #: Four wilds may be declared as a concealed kong (金杠); by default as ``can_pong``.
        self.can_concealed_kong = can_pong if can_concealed_kong is None else can_concealed_kong
        #: No wilds and no stand-ins: every natural face is drawn as itself.
        self.plain = not self.tiles and not self.stand_ins
        #: Per face code, the tiles whose draw gives that natural face.
        self.drawable: tuple[tuple[Tile, ...], ...] = tuple(
            self.drawn_as(face) for face in range(tile_set.size)
        )
        self._hash = hash(self._key())

    @classmethod
    def none(cls, tile_set: TileSet = STANDARD) -> WildSpec:
        """No wilds (a plain hand)."""
        return cls(tile_set)

    @classmethod
    def fixed(
        cls,
        tile_set: TileSet,
        tiles: Sequence[Tile],
        *,
        can_claim: bool = False,
        can_discard: bool = True,
        can_chow: bool = True,
        can_pong: bool = True,
    ) -> WildSpec:
        """Fixed wild kinds (鬼牌), e.g. 红中 or 白板."""
        return cls(
            tile_set,
            frozenset(tiles),
            can_claim=can_claim,
            can_discard=can_discard,
            can_chow=can_chow,
            can_pong=can_pong,
        )

    @classmethod
    def from_indicator(
        cls,
        tile_set: TileSet,
        indicator: Tile,
        steps: Sequence[int] = (1,),
        stand_in: Tile | None = None,
        fixed: Sequence[Tile] = (),
        *,
        can_claim: bool = False,
        can_discard: bool = True,
        can_chow: bool = True,
        can_pong: bool = True,
    ) -> WildSpec:
        """The wilds an indicator makes (:func:`indicator_wilds`)."""
        tiles, stand_ins = indicator_wilds(tile_set, indicator, steps, stand_in, fixed)
        return cls(
            tile_set,
            tiles,
            stand_ins,
            can_claim=can_claim,
            can_discard=can_discard,
            can_chow=can_chow,
            can_pong=can_pong,
        )

    # ------------------------------------------------------------------ questions

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, WildSpec) and self._key() == other._key())

    def __hash__(self) -> int:
        return self._hash

    def _key(self) -> tuple[object, ...]:
        return (
            self.tile_set,
            tuple(sorted(self.tiles)),
            self.stand_ins,
            self.can_claim,
            self.can_discard,
            self.can_chow,
            self.can_pong,
            self.can_concealed_kong,
        )

    def __repr__(self) -> str:
        stand = "".join(f", {tile_name(t)} as {tile_name(f)}" for t, f in self.stand_ins)
        return f"WildSpec({format_tiles(sorted(self.tiles)) or 'no wilds'}{stand})"

    def is_wild(self, tile: Tile) -> bool:
        """Whether ``tile`` is a wild."""
        return tile in self.tiles

    def face(self, tile: Tile) -> Tile:
        """The natural tile ``tile`` plays as: its stand-in face, or itself."""
        for stand_in, face in self.stand_ins:
            if tile == stand_in:
                return face
        return tile

    def drawn_as(self, face: Tile) -> tuple[Tile, ...]:
        """The tiles that, drawn, give the natural ``face`` (not wild), ascending."""
        tiles = [t for t, f in self.stand_ins if f == face]
        if face not in self.tiles and all(t != face for t, _ in self.stand_ins):
            tiles.append(face)
        return tuple(sorted(tiles))

    def split(self, counts: Sequence[int]) -> tuple[list[int], int]:
        """``(natural counts by face, wild count)`` of a count vector indexed by code.

        Stand-ins move to their face; wilds leave the natural counts.
        """
        if self.plain:
            return list(counts), 0
        natural = list(counts)
        natural.extend([0] * (self.tile_set.size - len(natural)))
        wilds = 0
        for tile in self.tiles:
            wilds += natural[tile]
            natural[tile] = 0
        for stand_in, face in self.stand_ins:
            natural[face] += natural[stand_in]
            natural[stand_in] = 0
        return natural, wilds

    def held(self, counts: Sequence[int]) -> tuple[Tile, ...]:
        """The wild tiles a count vector holds, ascending (one entry per copy)."""
        out: list[Tile] = []
        size = len(counts)
        for tile in self.ordered:
            if tile < size and counts[tile]:
                out.extend([tile] * counts[tile])
        return tuple(out)


class WildRule:
    """A variant's wild rule, read from its TOML; :meth:`spec` makes one hand's wilds."""

    __slots__ = ("concealed_kong", "fixed", "permissions", "stand_in", "steps", "tile_set")

    def __init__(
        self,
        tile_set: TileSet,
        fixed: tuple[Tile, ...] = (),
        steps: tuple[int, ...] = (),
        stand_in: Tile | None = None,
        permissions: tuple[bool, bool, bool, bool] = (False, True, True, True),
        concealed_kong: bool | None = None,
    ) -> None:
        self.tile_set = tile_set
        self.fixed = fixed
        self.steps = steps
        self.stand_in = stand_in
        #: ``(claim, discard, chow, pong)``.
        self.permissions = permissions
        #: Four wilds as a concealed kong (金杠); None: as ``pong``.
        self.concealed_kong = concealed_kong

    @classmethod
    def from_toml(
        cls, table: Mapping[str, object], tile_set: TileSet, source: str = "wilds"
    ) -> WildRule:
        """The rule of a ``[wilds]`` table; :class:`WildError` names the key it cannot read."""
        unknown = sorted(set(table) - set(_KEYS))
        if unknown:
            raise WildError(f"{source}: unknown key {unknown[0]!r} (known: {', '.join(_KEYS)})")
        try:
            fixed = tuple(_tile(name, tile_set) for name in _names(table.get("fixed", [])))
            steps_value = table.get("indicator", [])
            if not isinstance(steps_value, list) or not all(
                isinstance(step, int) and not isinstance(step, bool) and 0 <= step <= 3
                for step in steps_value
            ):
                raise WildError(f"indicator must be a list of steps 0..3, not {steps_value!r}")
            stand_value = table.get("stand_in", None)
            if stand_value is not None and not isinstance(stand_value, str):
                raise WildError(f"stand_in must be a tile name, not {stand_value!r}")
            stand_in = _tile(stand_value, tile_set) if stand_value is not None else None
            if stand_in is not None and len(set(steps_value)) != 1:
                raise WildError("stand_in needs exactly one indicator step")
            flags: list[bool] = []
            for key, default in (
                ("claim", False),
                ("discard", True),
                ("chow", True),
                ("pong", True),
            ):
                value = table.get(key, default)
                if not isinstance(value, bool):
                    raise WildError(f"{key} must be true or false, not {value!r}")
                flags.append(value)
            kong_raw = table.get("concealed_kong", None)
            kong_value: bool | None = None
            if kong_raw is not None:
                if not isinstance(kong_raw, bool):
                    raise WildError(f"concealed_kong must be true or false, not {kong_raw!r}")
                kong_value = kong_raw
        except (TileError, WildError) as error:
            raise WildError(f"{source}: {error}") from None
        if not fixed and not steps_value:
            raise WildError(f"{source}: name fixed wilds, indicator steps, or both")
        claim, discard, chow, pong = flags
        return cls(
            tile_set,
            fixed,
            tuple(steps_value),
            stand_in,
            (claim, discard, chow, pong),
            kong_value,
        )

    @property
    def needs_indicator(self) -> bool:
        """Whether the wilds depend on a tile turned up after the deal."""
        return bool(self.steps)

    def spec(self, indicator: Tile | None = None) -> WildSpec:
        """The wilds of a hand whose indicator is ``indicator`` (``None`` if the rule has none)."""
        claim, discard, chow, pong = self.permissions
        tiles: frozenset[Tile] = frozenset(self.fixed)
        stand_ins: tuple[tuple[Tile, Tile], ...] = ()
        if not self.steps and indicator is not None:
            raise WildError("this wild rule has no indicator")
        if self.steps:
            if indicator is None:
                raise WildError("this wild rule needs the indicator tile")
            tiles, stand_ins = indicator_wilds(
                self.tile_set, indicator, self.steps, self.stand_in, self.fixed
            )
        return WildSpec(
            self.tile_set,
            tiles,
            stand_ins,
            can_claim=claim,
            can_discard=discard,
            can_chow=chow,
            can_pong=pong,
            can_concealed_kong=self.concealed_kong,
        )


def indicator_wilds(
    tile_set: TileSet,
    indicator: Tile,
    steps: Sequence[int],
    stand_in: Tile | None = None,
    fixed: Sequence[Tile] = (),
) -> tuple[frozenset[Tile], tuple[tuple[Tile, Tile], ...]]:
    """``(wild kinds, stand-ins)`` an indicator makes: the tiles ``steps`` successors after
    it (0 = its own kind) plus ``fixed``; ``stand_in`` plays as the face of the single wild
    kind so made, unless it is wild itself (常州 白板)."""
    if indicator not in tile_set.kind_set:
        raise WildError(f"indicator {tile_name(indicator)} is not a tile of {tile_set!r}")
    made: list[Tile] = []
    for step in steps:
        tile = indicator
        for _ in range(step):
            tile = tile_set.successor(tile)
        made.append(tile)
    tiles = frozenset((*made, *fixed))
    if stand_in is None or stand_in in tiles:
        return tiles, ()
    if len(set(made)) != 1:
        raise WildError("a stand-in needs exactly one wild kind from the indicator")
    return tiles, ((stand_in, made[0]),)


def _names(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise WildError(f"fixed must be a list of tile names, not {value!r}")
    return [str(name) for name in value]


def _tile(name: str, tile_set: TileSet) -> Tile:
    try:
        tile = honor_tile(name)
    except TileError:
        tile = parse_tile(name)
    if tile not in tile_set.kind_set:
        raise WildError(f"{name} is not a tile of {tile_set!r}")
    return tile
