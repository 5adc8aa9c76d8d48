"""天津麻将 fans: the additive base term, the multipliers, and what each 混 stood for.

A hand's value is its best *layout*: the groups a fan needs, placed first, and the rest of
the tiles completing the hand (四副 + 一将) by the wild-aware tables of
:mod:`paipu.rules.core.decompose` (:func:`~paipu.rules.core.decompose.completion_masks`,
whatever the 混 stand for):

* the base term: 捉五 3 (the 5万 won into 4-5-6万, whose 4万 / 6万 may be 混) + 龙 4 (1-2-3,
  4-5-6, 7-8-9 of one suit), or 提溜 1 when neither fits;
* the multipliers: 本混龙 ×2 (the 龙 in the 混's suit), 双混吊 / 混吊 ×2 (the tile drawn
  closes a set on two standing 混, or the pair on one), 素 × ``su_multiplier`` (no 混 held),
  杠开 ×2;
* 天和 / 地和: flat 28, or × 4 (option ``first_turn_win``).

Each layout's groups take natural tiles first and 混 for the rest (a 混 can do whatever a
natural tile can, so nothing is lost), and the layouts are tried from the most valuable
down: the first that completes is the hand's value, without listing every reading of a hand
full of 混 (which grow as the product of each suit's). The 混 of the layout found are then
placed one by one (each where the rest still completes, never a fifth copy of a kind), which
gives the reading the answer shows.

The digest's worked example: 素 捉五 is (3) × 2 = 6.

>>> from paipu.rules.core.tiles import TileSet
>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.tiles import parse_tile, parse_tiles
>>> tiles = TileSet.from_toml({"dragon_cycle": ["中", "发", "白"]})
>>> wilds = WildSpec.from_indicator(tiles, parse_tile("7z"), (0, 1))  # 中 and 发
>>> hand = parse_tiles("46m123p789p22s345s") + [parse_tile("5m")]
>>> result = evaluate(hand, wilds, (), parse_tile("5m"), Situation(), Scoring())
>>> result.total, [(f, p) for f, p in result.fans], result.reading.describe()
(6, [('zhuo_wu', 3), ('su', 2)], '456m 123p 789p 345s 22s')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from paipu.rules.core.shanten import OneMore, Reading, completion
from paipu.rules.core.tiles import TileSet
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import N_KINDS, Tile

REGISTRY: dict[str, str] = {}

#: Suited kinds (万 筒 条), tiles per suit, copies of a kind.
SUITED: Final = 27
SUIT_SIZE: Final = 9
COPIES: Final = 4
#: 5万 and the lowest tile of 4-5-6万 (捉五).
FIVE_CHARACTERS: Final = 4
FOUR_CHARACTERS: Final = 3
#: The values of the fans (the TOML's ``points``; a test compares them).
ZHUO_WU: Final = 3
LONG: Final = 4
TI_LIU: Final = 1
DOUBLE: Final = 2
HEAVENLY_FLAT: Final = 28
FIRST_TURN_FACTOR: Final = 4

#: How a place of a group is filled: a natural tile if one is left, else a 混 (NATURAL); a
#: 混 (WILD); the tile won (WON: the natural tile drawn, or the 混 drawn standing there).
NATURAL: Final = 0
WILD: Final = 1
WON: Final = 2
#: The face of a place whose 混 may stand for anything (a pair or set of 混 alone).
ANY: Final = -1

#: One group a fan needs: its places as (face, how filled).
Group = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Situation:
    """How the hand was won, beside its tiles."""

    kong_bloom: bool = False  # 杠开: on a kong's replacement draw
    heavenly: bool = False  # 天和: the dealer on its first tiles
    earthly: bool = False  # 地和: a 闲 on its own first draw


@dataclass(frozen=True, slots=True)
class Scoring:
    """The room's options that change a hand's value."""

    su_multiplier: int = 2
    su_none_substituted: bool = False  # 素 read as "no 混 stands for another tile"
    ben_hun_long: bool = True
    first_turn_flat: bool = True  # 天和 / 地和 flat 28 (else × 4)
    zhuo_wu_wild_five: bool = False  # a drawn 混 standing for the 5万 also 捉五


@dataclass(frozen=True, slots=True)
class Layout:
    """The groups some fans need, and what they are worth: ``fans`` as (id, points),
    ``value`` = base × factor; ``pair`` whether the groups hold the pair (the rest is then
    sets only); ``suit`` the 龙's suit (-1: no 龙)."""

    fans: tuple[tuple[str, int], ...]
    base: int
    value: int
    groups: tuple[Group, ...]
    pair: bool
    suit: int = -1
    #: What the groups ask of the hand, for a quick look before taking the tiles: the 混
    #: places (WILD, and the WON place when the tile won is a 混), natural places by face.
    wild_places: int = 0
    won: bool = False
    natural_places: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(
        cls,
        fans: tuple[tuple[str, int], ...],
        base: int,
        value: int,
        groups: tuple[Group, ...],
        pair: bool,
        suit: int = -1,
    ) -> Layout:
        wild_places = 0
        won = False
        natural: dict[int, int] = {}
        for group in groups:
            for face, how in group:
                if how == WILD:
                    wild_places += 1
                elif how == WON:
                    won = True
                else:
                    natural[face] = natural.get(face, 0) + 1
        return cls(
            fans,
            base,
            value,
            groups,
            pair,
            suit,
            wild_places,
            won,
            tuple(sorted(natural.items())),
        )

    def fits(self, natural: Sequence[int], wilds: int, win_tile: Tile, win_is_wild: bool) -> bool:
        """Whether the hand has the tiles the groups take (混 for the natural places it
        lacks): what :func:`_take` would find, without taking them."""
        left = wilds - self.wild_places - (1 if self.won and win_is_wild else 0)
        if left < 0:
            return False
        taken = self.won and not win_is_wild  # the natural tile won is the WON place's
        for face, count in self.natural_places:
            have = natural[face] - (1 if taken and face == win_tile else 0)
            if count > have:
                left -= count - have
                if left < 0:
                    return False
        return True


@dataclass(frozen=True, slots=True)
class Result:
    """The hand's value: its fans as (id, points), the base term, the total, the reading
    (what each 混 held stood for)."""

    fans: tuple[tuple[str, int], ...]
    base: int
    total: int
    reading: Reading


# ---------------------------------------------------------------------- the fans' groups


def _run(low: int, modes: tuple[int, int, int] = (NATURAL, NATURAL, NATURAL)) -> Group:
    return ((low, modes[0]), (low + 1, modes[1]), (low + 2, modes[2]))


def _closing(low: int, win_tile: Tile) -> tuple[int, int, int]:
    """The places of a run from ``low`` that the tile won closes on two 混."""
    return (
        WON if low == win_tile else WILD,
        WON if low + 1 == win_tile else WILD,
        WON if low + 2 == win_tile else WILD,
    )


@produces(REGISTRY, "zhuo_wu")
def zhuo_wu(win_tile: Tile, win_is_wild: bool, scoring: Scoring) -> bool:
    """捉五: the 5万 won sits in a 4-5-6万 (its 4万 / 6万 may be 混); with
    ``zhuo_wu_wild_five`` a drawn 混 standing for that 5万 counts too (pub-tj2's panel)."""
    if win_tile == FIVE_CHARACTERS:
        return True
    return win_is_wild and scoring.zhuo_wu_wild_five


@produces(REGISTRY, "long", "ben_hun_long")
def dragon(suit: int, wild_suits: frozenset[int], scoring: Scoring) -> list[tuple[str, int]]:
    """龙 (+4): 1-2-3, 4-5-6, 7-8-9 of ``suit`` (混 may stand in it); 本混龙 (×2): that suit
    is the 混's own (the flipped tile's suit)."""
    if scoring.ben_hun_long and suit in wild_suits:
        return [("long", LONG), ("ben_hun_long", DOUBLE)]
    return [("long", LONG)]


@produces(REGISTRY, "hun_diao", "shuang_hun_diao")
def diao_groups(win_tile: Tile, win_is_wild: bool, fan: str) -> list[Group]:
    """The group the tile drawn closes on standing 混: 双混吊, a set with two 混 (a pung of
    the tile, or a run through it; a drawn 混 with two more, a set of 混 alone); 混吊, the
    pair with one 混 (a drawn 混 with another)."""
    if fan == "hun_diao":
        if win_is_wild:
            return [((ANY, WON), (ANY, WILD))]
        return [((win_tile, WON), (win_tile, WILD))]
    if win_is_wild:
        return [((ANY, WON), (ANY, WILD), (ANY, WILD))]
    out: list[Group] = [((win_tile, WON), (win_tile, WILD), (win_tile, WILD))]
    if win_tile < SUITED:
        rank = win_tile % SUIT_SIZE
        for low in range(max(0, rank - 2), min(rank, SUIT_SIZE - 3) + 1):
            base = win_tile - rank + low
            out.append(_run(base, _closing(base, win_tile)))
    return out


@produces(REGISTRY, "su")
def su(wilds_held: int, reading_natural: bool, scoring: Scoring) -> bool:
    """素: no 混 held (or, with ``su_reading = none_substituted``, none standing for another
    tile in the reading)."""
    return reading_natural if scoring.su_none_substituted else wilds_held == 0


@produces(REGISTRY, "kong_bloom", "heavenly", "earthly", "ti_liu")
def situational(situation: Situation) -> list[str]:
    """杠开, 天和, 地和 (提溜 is the base 1 of a hand with no additive fan)."""
    out = []
    if situation.kong_bloom:
        out.append("kong_bloom")
    if situation.heavenly:
        out.append("heavenly")
    elif situation.earthly:
        out.append("earthly")
    return out


def _layouts_of(
    win_tile: Tile, win_is_wild: bool, wild_suits: frozenset[int], scoring: Scoring
) -> list[Layout]:
    """Every layout worth trying for a hand won on ``win_tile``, most valuable first (ties
    in the order made: 双混吊 before 混吊, 捉五 and 龙 before the plain hand)."""
    out: list[Layout] = []
    zhuo_ok = zhuo_wu(win_tile, win_is_wild, scoring)
    for zhuo in (True, False) if zhuo_ok else (False,):
        for suit in (0, 1, 2, -1):
            for diao in ("shuang_hun_diao", "hun_diao", ""):
                if zhuo and diao == "hun_diao":
                    continue  # the tile won sits in the 4-5-6万, not in the pair
                fans: list[tuple[str, int]] = []
                base = 0
                factor = 1
                if zhuo:
                    fans.append(("zhuo_wu", ZHUO_WU))
                    base += ZHUO_WU
                if suit >= 0:
                    for fan, points in dragon(suit, wild_suits, scoring):
                        fans.append((fan, points))
                        if fan == "long":
                            base += points
                        else:
                            factor *= points
                if base == 0:
                    fans.insert(0, ("ti_liu", TI_LIU))
                    base = TI_LIU
                if diao:
                    fans.append((diao, DOUBLE))
                    factor *= DOUBLE
                for groups in _groups(win_tile, win_is_wild, zhuo, suit, diao):
                    out.append(
                        Layout.of(
                            tuple(fans), base, base * factor, groups, diao == "hun_diao", suit
                        )
                    )
    out.sort(key=lambda layout: -layout.value)
    return out


def _groups(
    win_tile: Tile, win_is_wild: bool, zhuo: bool, suit: int, diao: str
) -> list[tuple[Group, ...]]:
    """The alternative group lists of one combination of fans."""
    # 捉五's run: the 5万 won (or the 混 drawn standing for it); with 双混吊 its 4万 / 6万 are 混
    zhuo_modes = (WILD, WON, WILD) if diao == "shuang_hun_diao" else (NATURAL, WON, NATURAL)
    zhuo_run = _run(FOUR_CHARACTERS, zhuo_modes) if zhuo else None
    runs: list[Group] = []
    if suit >= 0:
        low = suit * SUIT_SIZE
        runs = [_run(low), _run(low + 3), _run(low + 6)]
        if zhuo_run is not None and suit == 0:
            runs[1] = zhuo_run  # the 龙's 4-5-6万 is 捉五's
            zhuo_run = None
    fixed: list[Group] = list(runs)
    if zhuo_run is not None:
        fixed.append(zhuo_run)
    if not diao or zhuo:  # with 捉五, 双混吊 is its run's
        return [tuple(fixed)]
    out = [(*fixed, group) for group in diao_groups(win_tile, win_is_wild, diao)]
    if diao == "shuang_hun_diao" and suit >= 0:
        # or one of the 龙's runs is the set closed on two 混
        for index in range(3):
            low = suit * SUIT_SIZE + 3 * index
            if win_is_wild:
                modes = (WILD, WON, WILD)
            elif low <= win_tile < low + 3:
                modes = _closing(low, win_tile)
            else:
                continue
            inside = list(runs)
            inside[index] = _run(low, modes)
            out.append(tuple(inside))
    return out


_LAYOUTS: Final[dict[tuple[Tile, bool, frozenset[int], Scoring], list[Layout]]] = {}


def layouts(
    win_tile: Tile, win_is_wild: bool, wild_suits: frozenset[int], scoring: Scoring
) -> list[Layout]:
    """:func:`_layouts_of`, made once per winning tile, 混 suits and options."""
    key = (win_tile, win_is_wild, wild_suits, scoring)
    found = _LAYOUTS.get(key)
    if found is None:
        found = _LAYOUTS[key] = _layouts_of(win_tile, win_is_wild, wild_suits, scoring)
    return found


# ---------------------------------------------------------------------- completing the rest


def completes(tile_set: TileSet, natural: Sequence[int], wilds: int, pair: bool) -> bool:
    """Whether ``natural`` tiles and ``wilds`` 混 split into sets (and one pair when
    ``pair``), the 混 standing for anything: the per-group masks of the core, summed."""
    sets_mask, pair_mask = completion(natural, tile_set)
    return bool(((pair_mask if pair else sets_mask) >> wilds) & 1)


def _take(
    groups: tuple[Group, ...], natural: list[int], wilds: int, win_tile: Tile, win_is_wild: bool
) -> tuple[list[int], int, list[int]] | None:
    """The tiles left once ``groups`` took theirs (the tile won first, then the 混 they
    need, then natural tiles where some are left, 混 where none is); with the faces the 混
    they took stand for. None when the hand has not the tiles."""
    rest = natural.copy()
    left = wilds
    stood: list[int] = []
    for group in groups:
        for face, how in group:
            if how == WON:
                if win_is_wild:
                    left -= 1
                    stood.append(face)
                else:
                    rest[win_tile] -= 1
            elif how == WILD:
                left -= 1
                stood.append(face)
    if left < 0:
        return None
    for group in groups:
        for face, how in group:
            if how == NATURAL:
                if rest[face] > 0:
                    rest[face] -= 1
                else:
                    left -= 1
                    stood.append(face)
    if left < 0:
        return None
    return rest, left, stood


def _place(
    tile_set: TileSet, rest: list[int], wilds: int, pair: bool, faces: list[int]
) -> list[int] | None:
    """Faces for the rest's 混, one by one, each where the rest still completes and no kind
    reaches a fifth copy (``faces``: every face already taken); None when none is found.
    The faces are tried in :func:`_first_face`'s order."""
    placed: list[int] = []
    counts = rest.copy()
    kinds = tile_set.kinds
    for left in range(wilds - 1, -1, -1):
        more = OneMore(counts, tile_set)  # the counts with one more tile, face by face
        face = _first_face(more, counts, kinds, faces, pair, left)
        if face < 0:
            return None
        counts[face] += 1
        faces[face] += 1
        placed.append(face)
    return placed


def _first_face(
    more: OneMore,
    counts: list[int],
    kinds: tuple[Tile, ...],
    faces: list[int],
    pair: bool,
    left: int,
) -> int:
    """The first face, below a fifth copy, where the counts with one more tile there
    complete with ``left`` 混; -1 if none. Every kind is tried, those a 混 could join a
    natural tile at first (the tile itself, its neighbours in a suit, kind by kind), then
    the rest: where a 混 of a completing hand mostly stands."""
    seen = [False] * len(faces)
    for tile in kinds:
        if counts[tile]:
            if tile < SUITED:
                low = tile - tile % SUIT_SIZE
                for face in range(max(low, tile - 2), min(low + SUIT_SIZE, tile + 3)):
                    if not seen[face]:
                        seen[face] = True
                        if _completes_with(more, faces, face, pair, left):
                            return face
            elif not seen[tile]:
                seen[tile] = True
                if _completes_with(more, faces, tile, pair, left):
                    return tile
    for tile in kinds:
        if not seen[tile] and _completes_with(more, faces, tile, pair, left):
            return tile
    return -1


def _completes_with(more: OneMore, faces: list[int], face: Tile, pair: bool, left: int) -> bool:
    """Whether a 混 may stand for ``face`` (below a fifth copy) and the rest complete."""
    if faces[face] >= COPIES:
        return False
    sets_mask, pair_mask = more.masks(face)
    return bool(((pair_mask if pair else sets_mask) >> left) & 1)


def _split(counts: list[int], pair: bool) -> tuple[list[int], list[int], int] | None:
    """One plain split of ``counts`` into runs (their lowest tiles), pungs and, when
    ``pair``, the pair's tile (-1 without)."""
    first = next((t for t, n in enumerate(counts) if n), -1)
    if first < 0:
        return ([], [], -1) if not pair else None
    if pair:
        for tile in range(first, N_KINDS):
            if counts[tile] >= 2:
                counts[tile] -= 2
                found = _split(counts, False)
                counts[tile] += 2
                if found is not None:
                    return found[0], found[1], tile
        return None
    if counts[first] >= 3:
        counts[first] -= 3
        found = _split(counts, False)
        counts[first] += 3
        if found is not None:
            return found[0], [first, *found[1]], -1
    run = first < SUITED and first % SUIT_SIZE <= SUIT_SIZE - 3
    if run and counts[first + 1] and counts[first + 2]:
        for t in (first, first + 1, first + 2):
            counts[t] -= 1
        found = _split(counts, False)
        for t in (first, first + 1, first + 2):
            counts[t] += 1
        if found is not None:
            return [first, *found[0]], found[1], -1
    return None


def _match(held: list[Tile], faces: list[int]) -> tuple[tuple[Tile, Tile], ...]:
    """Each 混 held with the face it stood for: its own kind where it can, then in order."""
    left = sorted(faces)
    pairs: list[tuple[Tile, Tile]] = []
    rest: list[Tile] = []
    for wild in held:
        if wild in left:
            left.remove(wild)
            pairs.append((wild, wild))
        else:
            rest.append(wild)
    pairs.extend(zip(rest, left, strict=True))
    return tuple(sorted(pairs))


def _reading(
    tile_set: TileSet,
    layout: Layout,
    natural: list[int],
    wilds: int,
    held: list[Tile],
    win_tile: Tile,
    win_is_wild: bool,
) -> Reading | None:
    """The layout's reading of the hand, or None when its groups and rest do not fit (the
    tiles, or a fifth copy of a kind)."""
    if not layout.fits(natural, wilds, win_tile, win_is_wild):
        return None
    taken = _take(layout.groups, natural, wilds, win_tile, win_is_wild)
    if taken is None:
        return None
    rest, left, stood = taken
    if not completes(tile_set, rest, left, not layout.pair):
        return None
    faces = rest.copy()
    for group in layout.groups:
        for face, _ in group:
            if face != ANY:
                faces[face] += 1
    if max(faces) > COPIES:
        return None
    placed = _place(tile_set, rest, left, not layout.pair, faces)
    if placed is None:
        return None
    chows: list[int] = []
    pungs: list[int] = []
    pair = -1
    for group in layout.groups:
        tiles = [face for face, _ in group]
        if ANY in tiles:  # 混 alone: the pair or a pung of a kind with room
            need = len(tiles)
            face = next((t for t in tile_set.kinds if faces[t] + need <= COPIES), -1)
            if face < 0:
                return None
            faces[face] += need
            stood = [face if f == ANY else f for f in stood]
            tiles = [face] * need
        if len(tiles) == 2:
            pair = tiles[0]
        elif tiles[0] == tiles[1]:
            pungs.append(tiles[0])
        else:
            chows.append(min(tiles))
    counts = rest.copy()
    for face in placed:
        counts[face] += 1
    split = _split(counts, not layout.pair)
    if split is None:
        return None
    chows += split[0]
    pungs += split[1]
    if split[2] >= 0:
        pair = split[2]
    return Reading(tuple(sorted(chows)), tuple(sorted(pungs)), pair, _match(held, stood + placed))


# ---------------------------------------------------------------------- the hand


def _best(
    tile_set: TileSet,
    natural: list[int],
    wilds: int,
    held: list[Tile],
    win_tile: Tile,
    win_is_wild: bool,
    wild_suits: frozenset[int],
    scoring: Scoring,
) -> tuple[Layout, Reading] | None:
    if not completes(tile_set, natural, wilds, True):
        return None
    # a 龙 takes each kind of its suit, a natural tile or a 混: the suits it cannot be in
    no_long = [
        sum(1 for t in range(low, low + SUIT_SIZE) if not natural[t]) > wilds
        for low in range(0, SUITED, SUIT_SIZE)
    ]
    for layout in layouts(win_tile, win_is_wild, wild_suits, scoring):
        if layout.suit >= 0 and no_long[layout.suit]:
            continue
        reading = _reading(tile_set, layout, natural, wilds, held, win_tile, win_is_wild)
        if reading is not None:
            return layout, reading
    return None


def evaluate(
    concealed: Sequence[Tile],
    wilds: WildSpec,
    melds: Sequence[Meld],
    win_tile: Tile,
    situation: Situation,
    scoring: Scoring,
) -> Result | None:
    """The value of a self-drawn hand (``concealed`` holds the winning tile); None when the
    tiles are not four sets and a pair by any substitution of the 混. It depends on the
    tiles' counts only, not on their order."""
    tile_set = wilds.tile_set
    wild_tiles = wilds.tiles
    counts = [0] * N_KINDS
    for tile in concealed:
        counts[tile] += 1
    natural = counts.copy()
    held: list[Tile] = []
    for tile in sorted(wild_tiles):
        held.extend([tile] * counts[tile])
        natural[tile] = 0
    gold = sum(4 for m in melds if m.kind is MeldKind.CONCEALED_KONG and m.tiles[0] in wild_tiles)
    win_is_wild = win_tile in wild_tiles
    wild_suits = frozenset(t // SUIT_SIZE for t in wild_tiles if t < SUITED)
    found = _best(tile_set, natural, len(held), held, win_tile, win_is_wild, wild_suits, scoring)
    if found is None:
        return None
    layout, reading = found
    is_su = su(len(held) + gold, not held, scoring)
    if scoring.su_none_substituted and held:
        # 素 on a reading where every 混 stands as itself: the hand read with no 混 at all
        plain = _best(tile_set, counts, 0, [], win_tile, False, wild_suits, scoring)
        if plain is not None and plain[0].value * scoring.su_multiplier >= layout.value:
            layout, reading = (
                plain[0],
                Reading(plain[1].chows, plain[1].pungs, plain[1].pair, tuple((t, t) for t in held)),
            )
            is_su = True
    fans = list(layout.fans)
    factor = layout.value // layout.base
    if is_su:
        fans.append(("su", scoring.su_multiplier))
        factor *= scoring.su_multiplier
    for fan in situational(situation):
        if fan == "kong_bloom":
            fans.append((fan, DOUBLE))
            factor *= DOUBLE
        elif scoring.first_turn_flat:  # 天和 / 地和: the hand is worth 28, whatever it holds
            return Result(((fan, HEAVENLY_FLAT),), HEAVENLY_FLAT, HEAVENLY_FLAT, reading)
        else:
            fans.append((fan, FIRST_TURN_FACTOR))
            factor *= FIRST_TURN_FACTOR
    return Result(tuple(fans), layout.base, layout.base * factor, reading)
