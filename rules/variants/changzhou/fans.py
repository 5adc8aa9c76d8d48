"""常州 / 常山 财神麻将 hand types and multipliers, read through the wild-aware core.

A win's 倍 is its hand type (the seed's table: 普通 2, 碰碰胡 双碰 2 / 吊头 4, 七对 4, 混一色 4,
十三幺 6, 清一色 6; the largest when several fit, or their product over plain with
``hand_types = "multiply"``) times its multipliers: 财头 (the 财神 as the pair-wait: the hand
before the draw was four sets and a 财神) ×2, each 财飘 stage ×2 more, 独卡 ×2, 海底捞月 ×2
(the factors are options). The readings come from :func:`paipu.rules.core.shanten.
decompositions` (each wild with the tile it stood for); the 财头 test asks the core's group
tables (:func:`paipu.rules.core.decompose.completion_masks`) whether the hand less one 财神
is sets only.

The digest's worked example: South holds a 财神 and four sets (财头) and, after discarding a
财神 (财一飘), self-draws: 2 × 2 × 2 = 8倍.

>>> from paipu.rules.core.tiles import STANDARD
>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.tiles import parse_tile, parse_tiles
>>> three, white = parse_tile("3m"), parse_tile("5z")
>>> caishen = WildSpec(STANDARD, frozenset({three}), ((white, three),))
>>> result = evaluate(parse_tiles("123p456p789s111z3m"), (), parse_tile("7m"), caishen,
...     Situation(piao=1), Factors.of(VALUES))
>>> result.total, [(f, n) for f, _, n in result.fans], result.wilds
(8, [('plain', 1), ('caitou', 1), ('cai_piao', 1)], ((2, 6),))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paipu.rules.core import shanten as core
from paipu.rules.core.decompose import completion_masks
from paipu.rules.core.shanten import Reading
from paipu.rules.core.shapes import Shape
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import Tile

REGISTRY: dict[str, str] = {}

#: The seed's hand types and their 倍 (the TOML's points; the variant passes its own).
VALUES: dict[str, int] = {
    "plain": 2,
    "all_pungs": 2,
    "all_pungs_single": 4,
    "seven_pairs": 4,
    "half_flush": 4,
    "thirteen_orphans": 6,
    "full_flush": 6,
}
#: Hand types in the table's order (a tie of the largest lists the later one).
HAND_TYPES = tuple(VALUES)
PLAIN = "plain"
SUITED = 27
_SEVEN_PAIRS = frozenset({Shape.SEVEN_PAIRS})
_ORPHANS = frozenset({Shape.THIRTEEN_ORPHANS})
_STANDARD = frozenset({Shape.STANDARD})
#: ``(group index, key)`` -> the group's sets-only mask (wild counts that complete it).
_SETS_MASKS: dict[tuple[int, tuple[int, ...]], int] = {}


@dataclass(frozen=True, slots=True)
class Situation:
    """What the tiles cannot show: 财飘 stages before the win, a win on the last four tiles."""

    piao: int = 0
    last_tiles: bool = False


@dataclass(frozen=True, slots=True)
class Factors:
    """The room's numbers: hand-type 倍, the multipliers, how hand types combine."""

    values: Mapping[str, int]
    caitou: int = 2
    piao: int = 2
    single_gap: int = 2
    last_tiles: int = 2
    multiply: bool = False

    @classmethod
    def of(cls, values: Mapping[str, int], **numbers: int | bool) -> Factors:
        return cls(values, **numbers)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Result:
    """A scored hand: legal or why not; the fans ``(id, points, count)``; the 倍; what each
    wild stood for in the counted reading."""

    legal: bool
    reason: str = ""
    fans: tuple[tuple[str, int, int], ...] = ()
    total: int = 0
    wilds: tuple[tuple[Tile, Tile], ...] = ()


@produces(
    REGISTRY,
    "plain",
    "all_pungs",
    "all_pungs_single",
    "seven_pairs",
    "half_flush",
    "thirteen_orphans",
    "full_flush",
)
def hand_types(
    readings: Sequence[Reading],
    faces: Sequence[Tile],
    melds: Sequence[Meld],
    win_face: Tile,
    win_wild: bool,
    seven_pairs: Sequence[Tile] | None,
    orphans: bool,
) -> list[tuple[tuple[str, ...], Reading | None]]:
    """Every way the hand can be read, as its hand types: a standard reading (碰碰胡,
    flushes on the faces the tiles and wilds play as), 七对 (flushes on the natural tiles:
    wilds pair them), 十三幺. ``faces``: the natural faces held, melds included."""
    out: list[tuple[tuple[str, ...], Reading | None]] = []
    chi = any(m.kind is MeldKind.CHI for m in melds)
    for reading in readings:
        types = [PLAIN]
        if not reading.chows and not chi:
            single = reading.wild_in_pair if win_wild else reading.pair == win_face
            types.append("all_pungs_single" if single else "all_pungs")
        flush = _flush([*faces, *(face for _, face in reading.wilds)])
        if flush:
            types.append(flush)
        out.append((tuple(types), reading))
    if seven_pairs is not None:
        flush = _flush(seven_pairs)
        out.append((("seven_pairs", flush) if flush else ("seven_pairs",), None))
    if orphans:
        out.append((("thirteen_orphans",), None))
    return out


def _flush(faces: Sequence[Tile]) -> str:
    """``full_flush`` (one suit), ``half_flush`` (one suit and honours), or ``""``."""
    suits = {t // 9 for t in faces if t < SUITED}
    if len(suits) != 1:
        return ""
    return "half_flush" if any(t >= SUITED for t in faces) else "full_flush"


@produces(REGISTRY, "caitou")
def caitou(concealed: Sequence[int], wilds: WildSpec) -> bool:
    """财头 (打宝 / 爆头): the hand before the winning draw (``concealed``, 13 − 3 × melds
    tiles) holds a 财神 and the rest is complete sets, so the 财神 waits on any tile as the
    pair. A 财头 win always has a 财神 in hand (the seed's condition for 财头 and 财飘)."""
    natural, wild_count = wilds.split(concealed)
    if wild_count == 0:
        return False
    tile_set = wilds.tile_set
    total = 1  # bit 0: no wild needed
    for index, (tiles, runs) in enumerate(tile_set.groups):
        key = tuple([natural[t] for t in tiles])
        if not any(key):
            continue
        found = _SETS_MASKS.get((index, key))
        if found is None:
            found = _SETS_MASKS[(index, key)] = completion_masks(key, runs, tile_set.copies)[0]
        total = core.sumset(total, found)
        if not total:
            return False
    return bool(total >> (wild_count - 1) & 1)


@produces(REGISTRY, "cai_piao")
def cai_piao(situation: Situation, is_caitou: bool) -> int:
    """财飘: the 财神 discarded in 财头 state before this win (大宝 1, 大大宝 2, 天宝 3); they
    count only on a 财头 win (the seed: a 财头 or 财飘 win needs a 财神 still in hand)."""
    return situation.piao if is_caitou else 0


@produces(REGISTRY, "single_gap")
def single_gap(
    readings: Sequence[Reading],
    concealed: Sequence[int],
    win_tile: Tile,
    wilds: WildSpec,
    melds: int,
) -> bool:
    """独卡: the winning tile was the hand's only wait (wilds aside) and it fills a chow's
    middle (13→2) or edge (12→3, 89→7)."""
    if wilds.is_wild(win_tile):
        return False
    face = wilds.face(win_tile)
    if face >= SUITED or not any(_gap(chow, face) for r in readings for chow in r.chows):
        return False
    waits = {wilds.face(t) for t in core.waits(concealed, wilds, melds) if not wilds.is_wild(t)}
    return waits == {face}


def _gap(chow: Tile, face: Tile) -> bool:
    rank = chow % 9
    return face == chow + 1 or (rank == 0 and face == chow + 2) or (rank == 6 and face == chow)


@produces(REGISTRY, "last_tiles")
def last_tiles(situation: Situation) -> bool:
    """海底捞月: a win on one of the last four tiles (the seed: 抓到最后4张牌)."""
    return situation.last_tiles


def evaluate(
    hand: Sequence[Tile],
    melds: Sequence[Meld],
    win_tile: Tile,
    wilds: WildSpec,
    situation: Situation,
    factors: Factors,
) -> Result:
    """Score a win: ``hand`` the concealed tiles without ``win_tile``; the 倍 is the best
    reading's hand type times the multipliers that apply to it."""
    tile_set = wilds.tile_set
    concealed = tile_set.counts(hand)
    full = list(concealed)
    full[win_tile] += 1
    n_melds = len(melds)
    readings = core.decompositions(full, wilds, n_melds)
    natural, wild_count = wilds.split(full)
    seven: list[Tile] | None = None
    orphans = False
    if n_melds == 0:
        if core.is_win(full, wilds, 0, _SEVEN_PAIRS):
            seven = [t for t, n in enumerate(natural) if n]
        orphans = core.is_win(full, wilds, 0, _ORPHANS)
    if not readings and seven is None and not orphans:
        return Result(
            legal=False,
            reason="these tiles do not form a winning hand (four sets and a pair, 七对 or 十三幺, "
            "财神 standing in for any tile)",
        )
    faces = [t for t, n in enumerate(natural) if n]
    faces += [wilds.face(m.tiles[0]) for m in melds]
    faces += [wilds.face(m.tiles[-1]) for m in melds]
    win_wild = wilds.is_wild(win_tile)
    win_face = wilds.face(win_tile)
    is_caitou = bool(readings) and caitou(concealed, wilds)
    piao = cai_piao(situation, is_caitou)
    gap = bool(readings) and single_gap(readings, concealed, win_tile, wilds, n_melds)
    last = last_tiles(situation)
    common: list[tuple[str, int, int]] = []
    if gap and factors.single_gap > 1:
        common.append(("single_gap", factors.single_gap, 1))
    if last and factors.last_tiles > 1:
        common.append(("last_tiles", factors.last_tiles, 1))
    standard_extra: list[tuple[str, int, int]] = []
    if is_caitou:
        standard_extra.append(("caitou", factors.caitou, 1))
    if piao:
        standard_extra.append(("cai_piao", factors.piao, piao))
    best: tuple[int, int, tuple[tuple[str, int, int], ...], Reading | None] | None = None
    values = factors.values
    for types, reading in hand_types(readings, faces, melds, win_face, win_wild, seven, orphans):
        counted = _counted(types, values, factors.multiply)
        value = values[counted[0]] if len(counted) == 1 else _product(counted, values)
        fans = [(t, values[t], 1) for t in counted]
        extra = standard_extra if reading is not None else []
        fans += extra
        fans += common
        for _, factor, count in (*extra, *common):
            value *= factor**count
        rank = max(HAND_TYPES.index(t) for t in counted)
        if best is None or (value, rank) > (best[0], best[1]):
            best = (value, rank, tuple(fans), reading)
    assert best is not None
    total, _, fans_out, chosen = best
    if chosen is not None:
        substituted = chosen.wilds
    else:
        substituted = _special_wilds(
            natural,
            wild_count,
            wilds,
            full,
            seven is not None and not (orphans and fans_out[0][0] == "thirteen_orphans"),
        )
    return Result(legal=True, fans=fans_out, total=total, wilds=substituted)


def _counted(types: Sequence[str], values: Mapping[str, int], multiply: bool) -> list[str]:
    """The hand types counted: the largest (the table's later one on a tie), or with
    ``multiply`` every type but plain (plain alone when nothing else fits)."""
    if multiply:
        rest = [t for t in types if t != PLAIN]
        return rest or [PLAIN]
    top = max(values[t] for t in types)
    return [max((t for t in types if values[t] == top), key=HAND_TYPES.index)]


def _product(types: Sequence[str], values: Mapping[str, int]) -> int:
    """Plain × each type's ratio to plain (清一色七对 = 2 × 3 × 2)."""
    plain = values[PLAIN]
    value = plain
    for t in types:
        value = value * values[t] // plain
    return value


def _special_wilds(
    natural: Sequence[int],
    wild_count: int,
    wilds: WildSpec,
    full: Sequence[int],
    seven_pairs: bool,
) -> tuple[tuple[Tile, Tile], ...]:
    """What the wilds stood for in a 七对 (each pairs a single, the rest pair each other as
    themselves) or a 十三幺 (each a missing orphan, or the pair)."""
    held = wilds.held(full)
    if not held:
        return ()
    if seven_pairs:
        needs = [t for t, n in enumerate(natural) if n % 2]
    else:
        orphans = [t for t in range(SUITED) if t % 9 in (0, 8)] + list(range(SUITED, 34))
        needs = [t for t in orphans if not natural[t]]
        if not any(natural[t] >= 2 for t in orphans) and len(needs) < wild_count:
            needs.append(needs[0] if needs else orphans[0])
    faces = sorted(needs[:wild_count])
    left = list(held)
    pairs: list[tuple[Tile, Tile]] = []
    for face in faces:
        pairs.append((left.pop(0), face))
    pairs.extend((w, w) for w in left)
    return tuple(sorted(pairs))
