"""南昌麻将 hand types: the shape worth most, then its doublings (德国, 精吊, 杠开 …).

A hand is read twice over: *naturally* (every 精 as its own face: the 德国 readings, through
:func:`paipu.rules.core.shanten.is_win` with no wilds) and *with the 精 wild* (each may
stand for any tile: the core's wild-aware split, :mod:`paipu.rules.core.decompose`). The
shapes and their base u (``nanchang.toml``): 平胡 1, 小七对 2, 大七对 (= 碰碰胡) 4, 十三烂 2,
七星十三烂 4; 天胡 / 地胡 20 (an option). Each shape that fits is a :class:`Candidate`; the
variant settles each and keeps the one the winner gains most from (德国's + 5 included).

十三烂 (烂): fourteen different tiles, no pair, the ranks of one suit at least three apart
(147, 148, 159 …), the honours each once; 七星十三烂 holds all seven honours. With 精, the
natural tiles must already fit and the 精 fill the places still open.

>>> from paipu.rules.tiles import parse_tiles
>>> hand = NanchangHand.of(parse_tiles("147m258p3s123456z"), (), parse_tiles("7z")[0])
>>> [(c.shape, c.natural) for c in candidates(hand, Jing.of(parse_tiles("1m")[0], None))]
[('thirteen_lan', True), ('seven_star_lan', True)]
>>> wild = Jing.of(parse_tiles("5z")[0], parse_tiles("7z")[0])  # 白 正精, 中 副精
>>> hand = NanchangHand.of(parse_tiles("123m456p789s111z5z"), (), parse_tiles("3z")[0])
>>> [(c.shape, c.natural, c.jing_diao) for c in candidates(hand, wild)]
[('ping_hu', False, True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paipu.rules.core import shanten as core
from paipu.rules.core.decompose import completion_masks, first_readings
from paipu.rules.core.shanten import sumset
from paipu.rules.core.shapes import seven_pairs_shanten
from paipu.rules.core.tiles import TileSet
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import HONORS, N_KINDS, Tile, counts

REGISTRY: dict[str, str] = {}

#: The tile set: 136 tiles, dragons 中→发→白→中 (the 精's successor order).
TILE_SET = TileSet.from_toml(
    {"suited": True, "honors": True, "flowers": False, "dragon_cycle": ["中", "发", "白"]}
)
PLAIN = WildSpec.none(TILE_SET)
COPIES = 4
SUIT_SIZE = 9
SUITED_KINDS = 27
LOOSE_TILES = 14  # 十三烂: fourteen different tiles
LOOSE_GAP = 3  # ranks of one suit at least this far apart
HONOR_KINDS = len(HONORS)
_SETS = 4
#: Entries of a cache by natural counts before it is emptied (a long run meets many hands).
FACES_CACHE = 1 << 16


def _loose_table() -> tuple[int, ...]:
    """Per 9-bit mask of ranks held in a suit: the most ranks a 十三烂 suit holding them can
    have (−1 when the ranks held are already too close)."""
    valid = [
        mask
        for mask in range(1 << SUIT_SIZE)
        if all(
            not (mask >> a & 1 and mask >> b & 1)
            for a in range(SUIT_SIZE)
            for b in range(a + 1, min(a + LOOSE_GAP, SUIT_SIZE))
        )
    ]
    best = [-1] * (1 << SUIT_SIZE)
    for mask in valid:
        size = bin(mask).count("1")
        sub = mask
        while True:  # every subset of a valid suit is valid; keep the largest superset
            best[sub] = max(best[sub], size)
            if sub == 0:
                break
            sub = (sub - 1) & mask
    return tuple(best)


LOOSE_MOST = _loose_table()


@dataclass(frozen=True, slots=True)
class Jing:
    """The hand's 精: 正精 and 副精 (None under 无下精), and their WildSpec."""

    zheng: Tile
    fu: Tile | None
    spec: WildSpec

    @classmethod
    def of(cls, zheng: Tile, fu: Tile | None) -> Jing:
        kinds = [zheng] if fu is None else [zheng, fu]
        found = _JING.get((zheng, fu))
        if found is None:
            found = _JING[(zheng, fu)] = cls(zheng, fu, WildSpec.fixed(TILE_SET, kinds))
        return found

    def points(self, tiles: Sequence[int], zheng_value: int, fu_value: int) -> int:
        """精分 of a count vector: ``zheng_value`` per 正精, ``fu_value`` per 副精."""
        out = tiles[self.zheng] * zheng_value
        if self.fu is not None:
            out += tiles[self.fu] * fu_value
        return out


_JING: dict[tuple[Tile, Tile | None], Jing] = {}


class NanchangHand:
    """A winning hand as the shapes see it: the concealed tiles before and with the winning
    tile, as counts, and what the declared melds allow. A value, never changed (a plain
    class, not a dataclass: compiled, its constructor runs in C)."""

    def __init__(
        self, before: tuple[int, ...], concealed: tuple[int, ...], melds: int, pung_melds: bool
    ) -> None:
        self.before = before
        self.concealed = concealed
        self.melds = melds
        self.pung_melds = pung_melds  # every declared meld a pong or kong (大七对 allows no chi)

    @classmethod
    def of(cls, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile) -> NanchangHand:
        before = counts(hand)
        with_win = before.copy()
        with_win[win_tile] += 1
        pung_melds = True
        for meld in melds:
            if meld.kind is MeldKind.CHI:
                pung_melds = False
        return cls(tuple(before), tuple(with_win), len(melds), pung_melds)

    def __repr__(self) -> str:
        return (
            f"NanchangHand(before={self.before!r}, concealed={self.concealed!r}, "
            f"melds={self.melds!r}, pung_melds={self.pung_melds!r})"
        )


class Candidate:
    """A shape the hand fits: ``natural`` when it fits with every 精 as itself (德国);
    ``jing_diao`` when the tiles before the win were the shape's sets and a lone 精. A
    value, never changed (a plain class: its constructor runs in C)."""

    def __init__(self, shape: str, natural: bool, jing_diao: bool = False) -> None:
        self.shape = shape
        self.natural = natural
        self.jing_diao = jing_diao

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Candidate):
            return NotImplemented
        return (self.shape, self.natural, self.jing_diao) == (
            other.shape,
            other.natural,
            other.jing_diao,
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.natural, self.jing_diao))

    def __repr__(self) -> str:
        return (
            f"Candidate(shape={self.shape!r}, natural={self.natural!r}, "
            f"jing_diao={self.jing_diao!r})"
        )


class Situation:
    """What the win's situation adds: 自摸, 杠开, 抢杠, 天胡 / 地胡, and whether another
    player holds a 精 (德中德). A value, never changed (a plain class: its constructor runs
    in C)."""

    def __init__(
        self,
        self_drawn: bool = False,
        kong_bloom: bool = False,
        robbing_kong: bool = False,
        heavenly: bool = False,
        earthly: bool = False,
        others_hold_jing: bool = True,
    ) -> None:
        self.self_drawn = self_drawn
        self.kong_bloom = kong_bloom
        self.robbing_kong = robbing_kong
        self.heavenly = heavenly
        self.earthly = earthly
        self.others_hold_jing = others_hold_jing


# ------------------------------------------------------------------------------ the shapes


_SETS_ONLY: dict[tuple[tuple[int, ...], int], bool] = {}


def _sets_only(natural: Sequence[int], wild_count: int) -> bool:
    """Whether natural counts and ``wild_count`` wilds split into sets alone (no pair),
    cached (the 精吊 question of every hand holding a 精)."""
    key = (tuple(natural), wild_count)
    found = _SETS_ONLY.get(key)
    if found is None:
        if len(_SETS_ONLY) >= FACES_CACHE:
            _SETS_ONLY.clear()
        found = _SETS_ONLY[key] = _split_sets_only(natural, wild_count)
    return found


def _split_sets_only(natural: Sequence[int], wild_count: int) -> bool:
    sets = 1
    for tiles, runs in TILE_SET.groups:
        key = tuple([natural[t] for t in tiles])
        if any(key):
            sets = sumset(sets, completion_masks(key, runs, COPIES)[0])
            if not sets:
                return False
    return bool(sets >> wild_count & 1)


def _pungs(natural: Sequence[int], wild_count: int, sets: int, pair: bool) -> bool:
    """Whether natural counts and the wilds make ``sets`` pungs (and one pair): each kind
    held makes one block, the wilds fill them (and make blocks of their own)."""
    kinds = 0
    pair_able = False
    for count in natural[:N_KINDS]:
        if count:
            kinds += 1
            if count > 3:
                return False
            pair_able = pair_able or count <= 2
    if kinds > sets + pair:
        return False
    if pair and kinds == sets + 1 and not pair_able:
        return False
    return wild_count >= 0


def _seven_pairs(natural: Sequence[int], wild_count: int) -> bool:
    pairs = singles = 0
    for count in natural[:N_KINDS]:
        pairs += count // 2
        if count % 2 and count < COPIES:
            singles += 1
    return seven_pairs_shanten(pairs, singles, wild_count) < 0


def _loose(natural: Sequence[int], wild_count: int, seven_stars: bool) -> bool:
    """十三烂 (七星十三烂 with ``seven_stars``) of natural counts and ``wild_count`` 精."""
    room = 0
    suited = 0
    for start in range(0, SUITED_KINDS, SUIT_SIZE):
        mask = 0
        for rank in range(SUIT_SIZE):
            count = natural[start + rank]
            if count > 1:
                return False
            if count:
                mask |= 1 << rank
                suited += 1
        most = LOOSE_MOST[mask]
        if most < 0:
            return False
        room += most - bin(mask).count("1")
    honors = 0
    for tile in HONORS:
        if natural[tile] > 1:
            return False
        honors += natural[tile]
    missing = HONOR_KINDS - honors
    if seven_stars:
        return missing <= wild_count and room >= wild_count - missing
    return room + missing >= wild_count


@produces(
    REGISTRY, "ping_hu", "small_seven_pairs", "big_seven_pairs", "thirteen_lan", "seven_star_lan"
)
def candidates(hand: NanchangHand, jing: Jing) -> list[Candidate]:
    """Every shape the hand fits, naturally (德国) where it can, else with the 精 wild."""
    spec = jing.spec
    concealed = hand.concealed
    melds = hand.melds
    natural, wilds = spec.split(concealed)
    before, wilds_before = spec.split(hand.before)
    lone = wilds_before - 1  # the wilds left beside a lone 精 (精吊)
    out: list[Candidate] = []
    # four sets and a pair (the request's checks have counted the tiles): every 精 as
    # itself, else with the 精 wild
    if core.completion(concealed, TILE_SET)[1] & 1:
        out.append(Candidate("ping_hu", True, lone >= 0 and _sets_only(before, lone)))
    elif wilds and core.completion(natural, TILE_SET)[1] >> wilds & 1:
        out.append(Candidate("ping_hu", False, lone >= 0 and _sets_only(before, lone)))
    if out and hand.pung_melds:
        sets = _SETS - melds
        if _natural_pungs(concealed):
            diao = lone >= 0 and _pungs(before, lone, sets, False)
            out.append(Candidate("big_seven_pairs", True, diao))
        elif wilds and _pungs(natural, wilds, sets, True):
            diao = lone >= 0 and _pungs(before, lone, sets, False)
            out.append(Candidate("big_seven_pairs", False, diao))
    if melds:
        return out
    if _seven_pairs(concealed, 0):
        out.append(Candidate("small_seven_pairs", True, lone >= 0 and _pairs_only(before, lone)))
    elif wilds and _seven_pairs(natural, wilds):
        out.append(Candidate("small_seven_pairs", False, lone >= 0 and _pairs_only(before, lone)))
    if max(natural) <= 1:
        plain = max(concealed) <= 1
        for shape, stars in (("thirteen_lan", False), ("seven_star_lan", True)):
            if plain and _loose(concealed, 0, stars):
                out.append(Candidate(shape, True))
            elif wilds and _loose(natural, wilds, stars):
                out.append(Candidate(shape, False))
    return out


def _natural_pungs(concealed: Sequence[int]) -> bool:
    """All pungs with no wild: every kind held 0, 2 or 3 times, one pair."""
    pairs = 0
    for count in concealed[:N_KINDS]:
        if count in (1, COPIES):
            return False
        pairs += count == 2
    return pairs == 1


def _pairs_only(natural: Sequence[int], wild_count: int) -> bool:
    """Six pairs from natural counts and the wilds beside a lone 精 (小七对 精吊)."""
    singles = sum(1 for count in natural[:N_KINDS] if count % 2 and count < COPIES)
    return singles <= wild_count and (wild_count - singles) % 2 == 0


@produces(REGISTRY, "heavenly", "earthly")
def first_turn(situation: Situation) -> list[str]:
    """天胡 (the dealer on his first tiles), 地胡 (another seat in the first go-round)."""
    out: list[str] = []
    if situation.heavenly:
        out.append("heavenly")
    if situation.earthly:
        out.append("earthly")
    return out


@produces(
    REGISTRY,
    "de_guo",
    "de_zhong_de",
    "de_guo_seven_pairs",
    "jing_diao",
    "kong_bloom",
    "robbing_kong",
)
def doublings(candidate: Candidate, situation: Situation) -> list[str]:
    """The factors on u: 德国 (or 德中德 when no other player holds a 精), 德国七对 on a
    natural 小七对, 精吊, 杠开, 抢杠."""
    out: list[str] = []
    if candidate.natural:
        out.append("de_guo" if situation.others_hold_jing else "de_zhong_de")
        if candidate.shape == "small_seven_pairs":
            out.append("de_guo_seven_pairs")
    if candidate.jing_diao:
        out.append("jing_diao")
    if situation.kong_bloom:
        out.append("kong_bloom")
    if situation.robbing_kong:
        out.append("robbing_kong")
    return out


# ------------------------------------------------------------------------------ readings


_FACES: dict[tuple[tuple[int, ...], int], list[Tile] | None] = {}


def standard_faces(natural: Sequence[int], wild_count: int) -> list[Tile] | None:
    """:func:`find_standard_faces`, cached by the natural counts and the wild count."""
    key = (tuple(natural), wild_count)
    if key in _FACES:
        return _FACES[key]
    if len(_FACES) >= FACES_CACHE:
        _FACES.clear()
    found = _FACES[key] = find_standard_faces(natural, wild_count)
    return found


def find_standard_faces(natural: Sequence[int], wild_count: int) -> list[Tile] | None:
    """The tiles the wilds stand for in one standard reading (sets and a pair) of natural
    counts, ascending; None when there is none. Found group by group: the wilds are spread
    over the groups by their completion masks, then each group's first reading with its
    share (:func:`~paipu.rules.core.decompose.first_readings`: the first of
    :func:`~paipu.rules.core.decompose.group_readings` of each kind)."""
    groups = TILE_SET.groups
    full = (1 << (wild_count + 1)) - 1
    keys: list[tuple[int, ...]] = []
    masks: list[tuple[int, int]] = []
    # free[i] / paired[i]: bit u set when the first i groups split with u wilds, without /
    # with the pair
    free = [1]
    paired = [0]
    for tiles, runs in groups:
        key = tuple([natural[t] for t in tiles])
        sets_mask, pair_mask = completion_masks(key, runs, COPIES)
        keys.append(key)
        masks.append((sets_mask, pair_mask))
        before, before_paired = free[-1], paired[-1]
        after = after_paired = 0
        for used in range(wild_count + 1):
            if before >> used & 1:
                after |= sets_mask << used
                after_paired |= pair_mask << used
            if before_paired >> used & 1:
                after_paired |= sets_mask << used
        free.append(after & full)
        paired.append(after_paired & full)
    if not paired[-1] >> wild_count & 1:
        return None
    faces: list[Tile] = []
    target, with_pair_left = wild_count, True
    for index in range(len(groups) - 1, -1, -1):
        share, with_pair = _group_share(
            free[index], paired[index], masks[index], target, with_pair_left
        )
        tiles, runs = groups[index]
        for reading in first_readings(keys[index], runs, COPIES, share):
            pair, stood = reading[2], reading[3]
            if len(stood) == share and (pair >= 0) == with_pair:
                faces += [tiles[rank] for rank in stood]
                break
        target -= share
        with_pair_left = with_pair_left and not with_pair
    return sorted(faces)


def _group_share(
    free: int, paired: int, masks: tuple[int, int], target: int, with_pair: bool
) -> tuple[int, bool]:
    """The wilds a group takes, and whether it holds the pair, for the groups up to it to
    use ``target`` wilds (and hold the pair, with ``with_pair``): ``free`` / ``paired`` are
    the wild counts the groups before it split with, without / with the pair. The first
    way in the order of the walk (fewest wilds before the group first, a split without the
    pair before one with it, the group's sets before its pair)."""
    sets_mask, pair_mask = masks
    for used in range(target + 1):
        share = target - used
        if with_pair:
            if free >> used & 1 and pair_mask >> share & 1:
                return share, True
            if paired >> used & 1 and sets_mask >> share & 1:
                return share, False
        elif free >> used & 1 and sets_mask >> share & 1:
            return share, False
    raise AssertionError("no share reaches the target")


def pung_faces(natural: Sequence[int], wild_count: int, sets: int) -> list[Tile | None]:
    """The tiles the wilds stand for in an all-pungs reading (None: a set of wilds alone)."""
    held = [t for t in range(N_KINDS) if natural[t]]
    pair = next((t for t in held if natural[t] <= 2), None) if len(held) == sets + 1 else None
    faces: list[Tile | None] = []
    for tile in held:
        faces += [tile] * ((2 if tile == pair else 3) - natural[tile])
    faces += [None] * (wild_count - len(faces))
    return faces


def loose_waits(hand: Sequence[int], spec: WildSpec) -> tuple[Tile, ...]:
    """The tiles whose draw makes a 13-tile concealed hand 十三烂 (or 七星十三烂), with the
    hand's 精 wild: a natural face that fits, or a 精 when one more 精 would do."""
    natural, wilds = spec.split(hand)
    if max(natural) > 1:
        return ()
    out: list[Tile] = []
    more = list(natural)
    for face in TILE_SET.kinds:
        if more[face]:
            continue
        more[face] = 1
        if _loose(more, wilds, False):
            out += spec.drawable[face]
        more[face] = 0
    if spec.tiles and _loose(natural, wilds + 1, False):
        out += sorted(spec.tiles)
    return tuple(sorted(out))
