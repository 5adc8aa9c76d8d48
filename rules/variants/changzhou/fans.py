"""常州 / 常山 财神麻将 hand types and multipliers, read through the wild-aware core.

A win's 倍 is its hand type (the seed's table: 普通 2, 碰碰胡 双碰 2 / 吊头 4, 七对 4, 混一色 4,
十三幺 6, 清一色 6; the largest when several fit, or their product over plain with
``hand_types = "multiply"``) times its multipliers: 财头 (the 财神 as the pair-wait: the hand
before the draw was four sets and a 财神) ×2, each 财飘 stage ×2 more, 独卡 ×2, 海底捞月 ×2
(the factors are options). The shapes come from the core's masks
(:func:`paipu.rules.core.shanten.is_win`), one reading per question from its per-group
readings (:func:`paipu.rules.core.decompose.first_readings`, the first of each kind, each
wild with the tile it stood for: a search that stops at the first, never the product of
every reading); the 财头
test asks the core's group tables (:func:`paipu.rules.core.decompose.completion_masks`)
whether the hand less one 财神 is sets only.

The digest's worked example: South holds a 财神 and four sets (财头) and, after discarding a
财神 (财一飘), self-draws: 2 × 2 × 2 = 8倍.

>>> from paipu.rules.core.tiles import STANDARD
>>> from paipu.rules.core.wild import WildSpec
>>> from paipu.rules.tiles import parse_tile, parse_tiles
>>> three, white = parse_tile("3m"), parse_tile("5z")
>>> caishen = WildSpec(STANDARD, frozenset({three}), ((white, three),))
>>> result = evaluate(parse_tiles("123p456p789s111z3m"), (), parse_tile("7m"), caishen,
...     Situation(piao=1), Factors(VALUES))
>>> result.total, [(f, n) for f, _, n in result.fans], result.wilds
(8, [('plain', 1), ('caitou', 1), ('cai_piao', 1)], ((2, 6),))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from paipu.rules.core import shanten as core
from paipu.rules.core.decompose import GroupReading, completion_masks, first_readings
from paipu.rules.core.shapes import (
    THIRTEEN_ORPHANS,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)
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
#: The kinds of reading a hand type comes from.
STANDARD_READING = "standard"
SEVEN_PAIRS = "seven_pairs"
ORPHANS = "thirteen_orphans"
#: ``(group index, key)`` -> the group's sets-only mask (wild counts that complete it).
_SETS_MASKS: dict[tuple[int, tuple[int, ...]], int] = {}


class Situation(NamedTuple):
    """What the tiles cannot show: 财飘 stages before the win, a win on the last four tiles."""

    piao: int = 0
    last_tiles: bool = False


class Factors(NamedTuple):
    """The room's numbers: hand-type 倍, the multipliers, how hand types combine."""

    values: Mapping[str, int]
    caitou: int = 2
    piao: int = 2
    single_gap: int = 2
    last_tiles: int = 2
    multiply: bool = False


class Result(NamedTuple):
    """A scored hand: legal or why not; the fans ``(id, points, count)``; the 倍; what each
    wild stood for in the counted reading."""

    legal: bool
    reason: str = ""
    fans: tuple[tuple[str, int, int], ...] = ()
    total: int = 0
    wilds: tuple[tuple[Tile, Tile], ...] = ()


class Hand:
    """A winning hand as the detectors see it: the natural counts by face (stand-ins at
    their face, wilds taken out), the wild count, the melds, the winning tile; which shapes
    win (the core's masks), and one reading of each kind on demand, found by a search over
    the core's per-group readings that stops at the first (no product of every reading)."""

    __slots__ = (
        "concealed",
        "faces",
        "full",
        "melds",
        "natural",
        "orphans",
        "seven_pairs",
        "standard",
        "wild_count",
        "wilds",
        "win_face",
        "win_tile",
        "win_wild",
    )

    def __init__(
        self, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile, wilds: WildSpec
    ) -> None:
        tile_set = wilds.tile_set
        self.wilds = wilds
        self.melds = melds
        self.win_tile = win_tile
        self.win_wild = wilds.is_wild(win_tile)
        self.win_face = wilds.face(win_tile)
        concealed = tile_set.counts(hand)
        self.concealed = concealed
        full = list(concealed)
        full[win_tile] += 1
        self.full = full
        natural, self.wild_count = wilds.split(full)
        self.natural = natural
        n_melds = len(melds)
        # four sets and a pair, the wilds standing for anything (the request's checks have
        # counted the tiles)
        self.standard = bool(core.completion(natural, tile_set)[1] >> self.wild_count & 1)
        faces = [t for t, n in enumerate(natural) if n]
        self.seven_pairs = self.orphans = False
        if n_melds == 0:  # 七对 and 十三幺 by the core's formulas, on the natural counts
            w = self.wild_count
            copies = tile_set.copies
            pairs = odd = 0
            for t in faces:
                count = natural[t]
                pairs += count // 2
                if count % 2 and count < copies:
                    odd += 1
            self.seven_pairs = seven_pairs_shanten(pairs, odd, w) < 0
            kinds = 0
            paired = False
            for t in THIRTEEN_ORPHANS:
                count = natural[t]
                if count:
                    kinds += 1
                    if count >= 2:
                        paired = True
            self.orphans = thirteen_orphans_shanten(kinds, paired, w) < 0
        for meld in melds:
            faces.append(wilds.face(meld.tiles[0]))
            faces.append(wilds.face(meld.tiles[-1]))
        #: The natural faces held, melds included.
        self.faces = faces

    def reading(self, suit: int = -1, honours: bool = True) -> list[Tile] | None:
        """The faces the wilds stand for in one standard reading, ``None`` if there is none;
        with ``suit`` (0-2) only that suit's tiles and, with ``honours``, the honours may
        hold tiles (a flush reading)."""
        tile_set = self.wilds.tile_set
        natural = self.natural
        options: list[tuple[tuple[Tile, ...], tuple[GroupReading, ...]]] = []
        for tiles, runs in tile_set.groups:
            allowed = suit < 0 or (tiles[0] // 9 == suit if tiles[0] < SUITED else honours)
            key = tuple([natural[t] for t in tiles])
            if not allowed:
                if any(key):
                    return None
                continue
            readings = first_readings(key, runs, tile_set.copies, self.wild_count)
            if not readings:
                return None
            options.append((tiles, readings))
        found = _first(options, 0, self.wild_count, False)
        return None if found is None else sorted(found)

    def flush(self) -> str:
        """``full_flush`` / ``half_flush`` when a standard reading keeps every tile (wilds as
        what they stand for) in one suit, and honours; ``""`` otherwise."""
        suits = {t // 9 for t in self.faces if t < SUITED}
        if len(suits) > 1:
            return ""
        honours = any(t >= SUITED for t in self.faces)
        for suit in sorted(suits) if suits else range(3):
            if not honours and self.reading(suit, honours=False) is not None:
                return "full_flush"
            found = self.reading(suit, honours=True)
            if found is not None and (suits or any(t < SUITED for t in found)):
                return "half_flush"  # some tile of the suit: not honours alone
        return ""

    def pungs(self) -> bool | None:
        """碰碰胡: ``None`` when no reading is pungs only; else whether one has the winning
        tile as its pair (吊头; won by a wild: a wild in the pair)."""
        options = self.pung_options()
        if not options:
            return None
        if self.win_wild:
            return any(pair < 0 or self.natural[pair] == 1 for pair, _ in options)
        return any(pair == self.win_face for pair, _ in options)

    def pung_options(self) -> list[tuple[int, list[Tile]]]:
        """Every pungs-only reading as ``(pair face or -1 for a pair of wilds, the faces the
        wilds stand for)``: each kind held is a pung (wilds making up 3) or the pair; wilds
        left over make pungs (and the pair) of kinds not held."""
        if any(m.kind is MeldKind.CHI for m in self.melds):
            return []
        natural = self.natural
        held = [t for t, n in enumerate(natural) if n]
        if any(natural[t] > 3 for t in held):
            return []
        need = sum(3 - natural[t] for t in held)
        spare = [
            t for t in self.wilds.tile_set.kinds if not natural[t] and not self.wilds.is_wild(t)
        ]
        out: list[tuple[int, list[Tile]]] = []
        w = self.wild_count
        for pair in (*[t for t in held if natural[t] <= 2], -1):
            used = need - 1 if pair >= 0 else need
            left = w - used - (2 if pair < 0 else 0)
            if left < 0 or left % 3:
                continue
            faces = [t for t in held for _ in range(3 - natural[t] - (1 if t == pair else 0))]
            extra = spare[: left // 3 + (1 if pair < 0 else 0)]
            if len(extra) < left // 3 + (1 if pair < 0 else 0):
                continue
            if pair < 0:
                faces += [extra[0], extra[0]]
                extra = extra[1:]
            faces += [t for t in extra for _ in range(3)]
            out.append((pair, sorted(faces)))
        return out


def _first(
    options: Sequence[tuple[tuple[Tile, ...], tuple[GroupReading, ...]]],
    index: int,
    wilds_left: int,
    paired: bool,
) -> list[Tile] | None:
    """The wild faces of the first combination of one reading per group with exactly one
    pair and every wild used (a depth-first search that stops at the first)."""
    if index == len(options):
        return [] if paired and not wilds_left else None
    tiles, readings = options[index]
    for _, _, pair, stood in readings:
        used = len(stood)
        if used > wilds_left or (pair >= 0 and paired):
            continue
        rest = _first(options, index + 1, wilds_left - used, paired or pair >= 0)
        if rest is not None:
            return [*(tiles[rank] for rank in stood), *rest]
    return None


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
def hand_types(hand: Hand) -> list[tuple[tuple[str, ...], str]]:
    """Every way the hand can be read, as its hand types and the kind of reading (``standard``
    / ``seven_pairs`` / ``thirteen_orphans``): a standard win is 普通 (plain), 碰碰胡 when
    some reading is pungs only (吊头 when its pair is the winning tile), a flush when some
    reading keeps every tile, the wilds' faces included, in one suit (and honours); 七对 with
    its flush on the natural tiles (wilds pair them); 十三幺."""
    out: list[tuple[tuple[str, ...], str]] = []
    if hand.standard:
        types = [PLAIN]
        pungs = hand.pungs()
        if pungs is not None:
            types.append("all_pungs_single" if pungs else "all_pungs")
        flush = hand.flush()
        if flush:
            types.append(flush)
        out.append((tuple(types), STANDARD_READING))
    if hand.seven_pairs:
        flush = _flush(hand.faces)
        out.append((("seven_pairs", flush) if flush else ("seven_pairs",), SEVEN_PAIRS))
    if hand.orphans:
        out.append((("thirteen_orphans",), ORPHANS))
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
def single_gap(hand: Hand) -> bool:
    """独卡: the winning tile (natural) was the hand's only wait, wilds aside, and fills a
    chow's middle (13→2) or edge (12→3, 89→7) in some reading."""
    if hand.win_wild or not hand.standard:
        return False
    face = hand.win_face
    if face >= SUITED:
        return False
    rank = face % 9
    chows = [face - 1] if 1 <= rank <= 7 else []
    if rank == 2:
        chows.append(face - 2)
    if rank == 6:
        chows.append(face)
    wilds = hand.wilds
    tile_set = wilds.tile_set
    natural = hand.natural
    fits = False
    for chow in chows:
        rest = list(natural)
        missing = 0
        for tile in (chow, chow + 1, chow + 2):
            if rest[tile]:
                rest[tile] -= 1
            else:
                missing += 1
        left = hand.wild_count - missing
        # the rest, with the wilds left, is sets and a pair (the core's completion masks)
        if left >= 0 and core.completion(rest, tile_set)[1] >> left & 1:
            fits = True
            break
    if not fits:
        return False
    # the only wait: no other face a natural tile can show completes the hand before the
    # win (its natural counts: the win's face taken back; one table look-up per face, the
    # other groups merged once)
    before = list(natural)
    before[face] -= 1
    more = core.OneMore(before, tile_set)
    wild_count = hand.wild_count
    for kind in tile_set.kinds:
        if wilds.is_wild(kind):
            continue
        other = wilds.face(kind)
        if other != face and more.masks(other)[1] >> wild_count & 1:
            return False
    return True


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
    seen = Hand(hand, melds, win_tile, wilds)
    candidates = hand_types(seen)
    if not candidates:
        return Result(
            legal=False,
            reason="these tiles do not form a winning hand (four sets and a pair, 七对 or 十三幺, "
            "财神 standing in for any tile)",
        )
    is_caitou = seen.standard and caitou(seen.concealed, wilds)
    piao = cai_piao(situation, is_caitou)
    common: list[tuple[str, int, int]] = []
    if factors.single_gap > 1 and single_gap(seen):
        common.append(("single_gap", factors.single_gap, 1))
    if factors.last_tiles > 1 and last_tiles(situation):
        common.append(("last_tiles", factors.last_tiles, 1))
    standard_extra: list[tuple[str, int, int]] = []
    if is_caitou:
        standard_extra.append(("caitou", factors.caitou, 1))
    if piao:
        standard_extra.append(("cai_piao", factors.piao, piao))
    best: tuple[int, int, tuple[tuple[str, int, int], ...], tuple[str, ...], str] | None = None
    values = factors.values
    for types, shape in candidates:
        counted = _counted(types, values, factors.multiply)
        value = values[counted[0]] if len(counted) == 1 else _product(counted, values)
        fans = [(t, values[t], 1) for t in counted]
        extra = standard_extra if shape == STANDARD_READING else []
        fans += extra
        fans += common
        for _, factor, count in (*extra, *common):
            value *= factor**count
        rank = max(HAND_TYPES.index(t) for t in counted)
        if best is None or (value, rank) > (best[0], best[1]):
            best = (value, rank, tuple(fans), tuple(counted), shape)
    assert best is not None
    total, _, fans_out, best_types, best_shape = best
    return Result(
        legal=True,
        fans=fans_out,
        total=total,
        wilds=_substitutions(seen, best_types, best_shape),
    )


def _substitutions(hand: Hand, counted: Sequence[str], shape: str) -> tuple[tuple[Tile, Tile], ...]:
    """Each wild held with the tile it stands for in a reading of the counted hand type."""
    held = hand.wilds.held(hand.full)
    if not held:
        return ()
    if shape != STANDARD_READING:
        return _special_wilds(hand.natural, hand.wild_count, hand.wilds, hand.full, shape)
    faces: list[Tile] | None = None
    if "all_pungs" in counted or "all_pungs_single" in counted:
        options = hand.pung_options()
        single = [o for o in options if o[0] == hand.win_face] if not hand.win_wild else []
        faces = (single or options)[0][1]
    elif "full_flush" in counted or "half_flush" in counted:
        suits = sorted({t // 9 for t in hand.faces if t < SUITED}) or [0, 1, 2]
        for suit in suits:
            faces = hand.reading(suit, honours="half_flush" in counted)
            if faces is not None:
                break
    if faces is None:
        faces = hand.reading()
    assert faces is not None
    return _match(held, faces)


def _match(held: Sequence[Tile], faces: Sequence[Tile]) -> tuple[tuple[Tile, Tile], ...]:
    """Wild tiles paired with faces: a wild with its own kind first, the rest in order."""
    left = list(faces)
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
    shape: str,
) -> tuple[tuple[Tile, Tile], ...]:
    """What the wilds stood for in a 七对 (each pairs a single, the rest pair each other as
    themselves) or a 十三幺 (each a missing orphan, or the pair)."""
    held = wilds.held(full)
    if not held:
        return ()
    if shape == SEVEN_PAIRS:
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
