"""MCR (国标麻将) fan evaluator.

Scores one winning hand the way the reference calculator (pymahjonggb 1.4.0, after
ChineseOfficialMahjongHelper's ``fan_calculator``) does, so that both agree fan by fan:

1. Special shapes first, while the hand is concealed: seven pairs (七对, 连七对),
   honors and knitted (全不靠, 七星不靠), thirteen orphans (十三幺), knitted straight
   (组合龙, also with one declared meld) and nine gates (九莲宝灯).
2. Otherwise (and for seven pairs too) every standard decomposition is scored and the
   best kept. Per decomposition: kongs and concealed pungs, the chow and pung
   combinations (with the count-once rule 套算一次 in :func:`_count_once`), the pair, the
   tile traits, the wait (边张 / 嵌张 / 单钓), then the 不计 step (the ``excludes``,
   ``demotes`` and ``absorbs`` of ``rules/variants/mcr/mcr.toml``, applied in table order),
   then the wind pungs.
3. Ties between decompositions are broken as the reference does (:func:`_pick`).

Everything that is plain data (names, points, exclusions) lives in the TOML; this module
holds the predicates. ``FAN_DETECTORS`` records which function yields which fan, and the
import fails if the table and the code disagree.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from operator import itemgetter, mul
from typing import Any, Final, NamedTuple, TypeVar

from paipu.rules.decompose import (
    Division,
    is_honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_in,
    standard_decompositions,
)
from paipu.rules.fans import FanTable, check_coverage, produces
from paipu.rules.melds import Group, GroupKind
from paipu.rules.registry import toml_path
from paipu.rules.shanten import Shape, waits
from paipu.rules.tiles import GREEN, RED, WHITE, Tile

#: The fan table, from the variant's TOML: package data found from ``paipu.rules``, which
#: is never compiled (a compiled module does not know where its file lies).
TABLE = FanTable.from_rows(tomllib.loads(toml_path("mcr").read_text("utf-8"))["fans"])
POINTS: tuple[int, ...] = tuple(TABLE.values())


class Fan:
    """Every MCR fan, by its index in the fan table (the reference's ``fan_t``).

    Plain ``int`` constants rather than an ``IntEnum``: the evaluator indexes its fan
    table with them millions of times, and class-attribute ints are four times faster.
    """

    BIG_FOUR_WINDS: Final = 1  # 大四喜
    BIG_THREE_DRAGONS: Final = 2  # 大三元
    ALL_GREEN: Final = 3  # 绿一色
    NINE_GATES: Final = 4  # 九莲宝灯
    FOUR_KONGS: Final = 5  # 四杠
    SEVEN_SHIFTED_PAIRS: Final = 6  # 连七对
    THIRTEEN_ORPHANS: Final = 7  # 十三幺
    ALL_TERMINALS: Final = 8  # 清幺九
    LITTLE_FOUR_WINDS: Final = 9  # 小四喜
    LITTLE_THREE_DRAGONS: Final = 10  # 小三元
    ALL_HONORS: Final = 11  # 字一色
    FOUR_CONCEALED_PUNGS: Final = 12  # 四暗刻
    PURE_TERMINAL_CHOWS: Final = 13  # 一色双龙会
    QUADRUPLE_CHOW: Final = 14  # 一色四同顺
    FOUR_PURE_SHIFTED_PUNGS: Final = 15  # 一色四节高
    FOUR_PURE_SHIFTED_CHOWS: Final = 16  # 一色四步高
    THREE_KONGS: Final = 17  # 三杠
    ALL_TERMINALS_AND_HONORS: Final = 18  # 混幺九
    SEVEN_PAIRS: Final = 19  # 七对
    GREATER_HONORS_AND_KNITTED_TILES: Final = 20  # 七星不靠
    ALL_EVEN_PUNGS: Final = 21  # 全双刻
    FULL_FLUSH: Final = 22  # 清一色
    PURE_TRIPLE_CHOW: Final = 23  # 一色三同顺
    PURE_SHIFTED_PUNGS: Final = 24  # 一色三节高
    UPPER_TILES: Final = 25  # 全大
    MIDDLE_TILES: Final = 26  # 全中
    LOWER_TILES: Final = 27  # 全小
    PURE_STRAIGHT: Final = 28  # 清龙
    THREE_SUITED_TERMINAL_CHOWS: Final = 29  # 三色双龙会
    PURE_SHIFTED_CHOWS: Final = 30  # 一色三步高
    ALL_FIVE: Final = 31  # 全带五
    TRIPLE_PUNG: Final = 32  # 三同刻
    THREE_CONCEALED_PUNGS: Final = 33  # 三暗刻
    LESSER_HONORS_AND_KNITTED_TILES: Final = 34  # 全不靠
    KNITTED_STRAIGHT: Final = 35  # 组合龙
    UPPER_FOUR: Final = 36  # 大于五
    LOWER_FOUR: Final = 37  # 小于五
    BIG_THREE_WINDS: Final = 38  # 三风刻
    MIXED_STRAIGHT: Final = 39  # 花龙
    REVERSIBLE_TILES: Final = 40  # 推不倒
    MIXED_TRIPLE_CHOW: Final = 41  # 三色三同顺
    MIXED_SHIFTED_PUNGS: Final = 42  # 三色三节高
    CHICKEN_HAND: Final = 43  # 无番和
    LAST_TILE_DRAW: Final = 44  # 妙手回春
    LAST_TILE_CLAIM: Final = 45  # 海底捞月
    OUT_WITH_REPLACEMENT_TILE: Final = 46  # 杠上开花
    ROBBING_THE_KONG: Final = 47  # 抢杠和
    ALL_PUNGS: Final = 48  # 碰碰和
    HALF_FLUSH: Final = 49  # 混一色
    MIXED_SHIFTED_CHOWS: Final = 50  # 三色三步高
    ALL_TYPES: Final = 51  # 五门齐
    MELDED_HAND: Final = 52  # 全求人
    TWO_CONCEALED_KONGS: Final = 53  # 双暗杠
    TWO_DRAGONS_PUNGS: Final = 54  # 双箭刻
    OUTSIDE_HAND: Final = 55  # 全带幺
    FULLY_CONCEALED_HAND: Final = 56  # 不求人
    TWO_MELDED_KONGS: Final = 57  # 双明杠
    LAST_TILE: Final = 58  # 和绝张
    DRAGON_PUNG: Final = 59  # 箭刻
    PREVALENT_WIND: Final = 60  # 圈风刻
    SEAT_WIND: Final = 61  # 门风刻
    CONCEALED_HAND: Final = 62  # 门前清
    ALL_CHOWS: Final = 63  # 平和
    TILE_HOG: Final = 64  # 四归一
    DOUBLE_PUNG: Final = 65  # 双同刻
    TWO_CONCEALED_PUNGS: Final = 66  # 双暗刻
    CONCEALED_KONG: Final = 67  # 暗杠
    ALL_SIMPLES: Final = 68  # 断幺
    PURE_DOUBLE_CHOW: Final = 69  # 一般高
    MIXED_DOUBLE_CHOW: Final = 70  # 喜相逢
    SHORT_STRAIGHT: Final = 71  # 连六
    TWO_TERMINAL_CHOWS: Final = 72  # 老少副
    PUNG_OF_TERMINALS_OR_HONORS: Final = 73  # 幺九刻
    MELDED_KONG: Final = 74  # 明杠
    ONE_VOIDED_SUIT: Final = 75  # 缺一门
    NO_HONORS: Final = 76  # 无字
    EDGE_WAIT: Final = 77  # 独听・边张
    CLOSED_WAIT: Final = 78  # 独听・嵌张
    SINGLE_WAIT: Final = 79  # 独听・单钓
    SELF_DRAWN: Final = 80  # 自摸
    FLOWER_TILES: Final = 81  # 花牌
    CONCEALED_KONG_AND_MELDED_KONG: Final = 82  # 明暗杠


#: Fan id by index, and a check that the constants above match the TOML table.
FAN_IDS: tuple[str, ...] = tuple(
    next((f.id for f in TABLE.fans if f.index == i), "") for i in range(TABLE.size)
)
for _fan in TABLE.fans:
    if getattr(Fan, _fan.id.upper(), None) != _fan.index:
        raise RuntimeError(f"Fan.{_fan.id.upper()} does not match mcr.toml index {_fan.index}")

FAN_DETECTORS: dict[str, str] = {}
_STANDARD = frozenset({Shape.STANDARD})
_STANDARD_OR_PAIRS = frozenset({Shape.STANDARD, Shape.SEVEN_PAIRS})
_F = TypeVar("_F", bound=Callable[..., Any])

# The reference orders tiles characters, bamboo, dots, winds, red, green, white; tie-breaks
# between decompositions and the order in which chow/pung combinations are tried follow it.
REF_ORDER: tuple[int, ...] = (
    tuple(range(9)) + tuple(range(18, 27)) + tuple(range(9, 18)) + (27, 28, 29, 30, 33, 32, 31)
)
_ref_key = REF_ORDER.__getitem__

_GREEN_TILES = frozenset((19, 20, 21, 23, 25, GREEN))  # 23468s 发
_REVERSIBLE_TILES = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, WHITE))
_TERMINAL_OR_HONOR = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_CHOW, _PUNG, _KONG = GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG


class WinSituation(NamedTuple):
    """How the hand was won (the reference's ``win_flag`` and winds).

    ``kong`` means a kong replacement draw when self-drawn (杠上开花) and a robbed kong
    on a discard win (抢杠和); ``wall_last`` the last tile of the wall (妙手回春 / 海底捞月);
    ``last_of_kind`` the last copy of the winning tile (和绝张).
    """

    self_drawn: bool
    seat_wind: Tile
    prevalent_wind: Tile
    wall_last: bool = False
    kong: bool = False
    last_of_kind: bool = False
    flowers: int = 0


class FanCount(NamedTuple):
    """The evaluator's result: fan counts by index, with totals."""

    table: tuple[int, ...]
    total: int  # flowers included
    flowers: int

    @property
    def total_without_flowers(self) -> int:
        return self.total - self.flowers

    def items(self) -> list[tuple[str, int]]:
        """(fan id, count) for every counted fan, in table order."""
        table = self.table
        return list(zip(compress(FAN_IDS, table), filter(None, table), strict=True))


def _fans(*ids: int) -> Callable[[_F], _F]:
    """Record that the decorated detector yields these fans."""
    return produces(FAN_DETECTORS, *(FAN_IDS[fan] for fan in ids))


# ---------------------------------------------------------------- win flags


@_fans(
    Fan.LAST_TILE,
    Fan.SELF_DRAWN,
    Fan.LAST_TILE_DRAW,
    Fan.OUT_WITH_REPLACEMENT_TILE,
    Fan.LAST_TILE_CLAIM,
    Fan.ROBBING_THE_KONG,
)
def _win_flag_fans(table: list[int], win: WinSituation, last_of_kind: bool, kong: bool) -> None:
    """和绝张, 自摸, 妙手回春, 海底捞月, 杠上开花, 抢杠和 from how the hand was won."""
    if last_of_kind:
        table[Fan.LAST_TILE] = 1
    if win.self_drawn:
        table[Fan.SELF_DRAWN] = 1
        if win.wall_last:
            table[Fan.LAST_TILE_DRAW] = 1
            table[Fan.SELF_DRAWN] = 0
        if kong:
            table[Fan.OUT_WITH_REPLACEMENT_TILE] = 1
            table[Fan.SELF_DRAWN] = 0
    else:
        if win.wall_last:
            table[Fan.LAST_TILE_CLAIM] = 1
        if kong:
            table[Fan.ROBBING_THE_KONG] = 1
            table[Fan.LAST_TILE] = 0


@_fans(Fan.FULLY_CONCEALED_HAND, Fan.CONCEALED_HAND, Fan.MELDED_HAND)
def _concealment_fans(table: list[int], exposed_melds: int, self_drawn: bool) -> None:
    """不求人 / 门前清 for a hand without exposed melds, 全求人 for four."""
    if exposed_melds == 0:
        table[Fan.FULLY_CONCEALED_HAND if self_drawn else Fan.CONCEALED_HAND] = 1
    elif exposed_melds == 4:
        table[Fan.SELF_DRAWN if self_drawn else Fan.MELDED_HAND] = 1
    elif self_drawn:
        table[Fan.SELF_DRAWN] = 1


# ---------------------------------------------------------------- tile traits


@_fans(Fan.NO_HONORS, Fan.ONE_VOIDED_SUIT, Fan.HALF_FLUSH, Fan.FULL_FLUSH, Fan.ALL_TYPES)
def _suit_fans(table: list[int], kinds: frozenset[Tile]) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐 from the suits present."""
    suits = {t // 9 for t in kinds if t < 27}
    honors = any(t >= 27 for t in kinds)
    if not honors:
        table[Fan.NO_HONORS] = 1
    table[Fan.ONE_VOIDED_SUIT] += 3 - len(suits)
    if table[Fan.ONE_VOIDED_SUIT] == 2:
        table[Fan.ONE_VOIDED_SUIT] = 0
        if honors:
            table[Fan.HALF_FLUSH] = 1
        else:
            table[Fan.FULL_FLUSH] = 1
            table[Fan.NO_HONORS] = 0
    if (
        len(suits) == 3
        and honors
        and any(27 <= t < 31 for t in kinds)
        and any(t >= 31 for t in kinds)
    ):
        table[Fan.ALL_TYPES] = 1


@_fans(
    Fan.ALL_SIMPLES,
    Fan.REVERSIBLE_TILES,
    Fan.ALL_GREEN,
    Fan.ALL_HONORS,
    Fan.ALL_TERMINALS,
    Fan.ALL_TERMINALS_AND_HONORS,
)
def _trait_fans(table: list[int], kinds: frozenset[Tile]) -> None:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九 from which tiles are used."""
    simples = kinds.isdisjoint(_TERMINAL_OR_HONOR)
    if simples:
        table[Fan.ALL_SIMPLES] = 1
    if kinds <= _REVERSIBLE_TILES:
        table[Fan.REVERSIBLE_TILES] = 1
    if kinds <= _GREEN_TILES:
        table[Fan.ALL_GREEN] = 1
    if simples:
        return
    if all(t >= 27 for t in kinds):
        table[Fan.ALL_HONORS] = 1
    elif kinds <= _TERMINALS:
        table[Fan.ALL_TERMINALS] = 1
    elif kinds <= _TERMINAL_OR_HONOR:
        table[Fan.ALL_TERMINALS_AND_HONORS] = 1


@_fans(Fan.LOWER_FOUR, Fan.LOWER_TILES, Fan.UPPER_FOUR, Fan.UPPER_TILES, Fan.MIDDLE_TILES)
def _rank_fans(table: list[int], kinds: frozenset[Tile]) -> None:
    """小于五, 全小, 大于五, 全大, 全中 from the ranks of an honorless hand."""
    if any(t >= 27 for t in kinds):
        return
    ranks = {t % 9 + 1 for t in kinds}
    if ranks <= {1, 2, 3, 4}:
        table[Fan.LOWER_FOUR if 4 in ranks else Fan.LOWER_TILES] = 1
    elif ranks <= {6, 7, 8, 9}:
        table[Fan.UPPER_FOUR if 6 in ranks else Fan.UPPER_TILES] = 1
    elif ranks <= {4, 5, 6}:
        table[Fan.MIDDLE_TILES] = 1


@lru_cache(maxsize=1 << 14)  # keyed by the hand's kinds: about 20 MB when full
def _tile_set_fans(kinds: frozenset[Tile]) -> tuple[tuple[int, int], ...]:
    """The fans that depend only on which kinds of tile the hand uses (cached)."""
    table = _new_table()
    _suit_fans(table, kinds)
    _trait_fans(table, kinds)
    _rank_fans(table, kinds)
    return tuple((i, c) for i, c in enumerate(table) if c)


@_fans(Fan.TILE_HOG)
def _tile_hog(table: list[int], all_counts: list[int], kongs: int) -> None:
    """四归一: four of a kind used without declaring a kong, once per kind."""
    table[Fan.TILE_HOG] = all_counts.count(4) - kongs


# ---------------------------------------------------------------- chow combinations


def _two_chows(a: Tile, b: Tile) -> int | None:
    """The fan two chows (lowest tiles ``a``, ``b``) make together, if any."""
    if a // 9 != b // 9:
        return Fan.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else None
    if a - b in (3, -3):
        return Fan.SHORT_STRAIGHT
    if {a % 9, b % 9} == {0, 6}:
        return Fan.TWO_TERMINAL_CHOWS
    if a == b:
        return Fan.PURE_DOUBLE_CHOW
    return None


def _three_chows(a: Tile, b: Tile, c: Tile) -> int | None:
    """The fan three chows make together (sorted by suit then rank), if any."""
    suits = {a // 9, b // 9, c // 9}
    ranks = sorted((a % 9, b % 9, c % 9))
    if len(suits) == 3:
        if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return Fan.MIXED_SHIFTED_CHOWS
        if ranks[0] == ranks[2]:
            return Fan.MIXED_TRIPLE_CHOW
        if ranks == [0, 3, 6]:
            return Fan.MIXED_STRAIGHT
        return None
    if len(suits) != 1:
        return None
    if ranks == [0, 3, 6]:
        return Fan.PURE_STRAIGHT
    step = ranks[1] - ranks[0]
    if step in (1, 2) and ranks[2] - ranks[1] == step:
        return Fan.PURE_SHIFTED_CHOWS
    if ranks[0] == ranks[2]:
        return Fan.PURE_TRIPLE_CHOW
    return None


_PAIR_CHOW_FANS = (
    Fan.PURE_DOUBLE_CHOW,
    Fan.MIXED_DOUBLE_CHOW,
    Fan.SHORT_STRAIGHT,
    Fan.TWO_TERMINAL_CHOWS,
)


def _count_once(found: list[int | None], limit: int) -> list[tuple[int, int]]:
    """套算一次 / 不得相同: keep at most ``limit`` two-chow fans.

    The reference's heuristic: count each kind found; while over the limit, first cut
    every kind down to one, starting from 老少副 back to 一般高, then to zero in the same
    order. 234567s234567p is thus 喜相逢×2 连六×1, not 喜相逢×2 连六×2.
    """
    tally = [found.count(kind) for kind in _PAIR_CHOW_FANS]
    total = sum(tally)
    for keep in (1, 0):
        for i in (3, 2, 1, 0):
            while tally[i] > keep and total > limit:
                tally[i] -= 1
                total -= 1
    return [(kind, n) for kind, n in zip(_PAIR_CHOW_FANS, tally, strict=True) if n]


@_fans(
    Fan.FOUR_PURE_SHIFTED_CHOWS,
    Fan.QUADRUPLE_CHOW,
    Fan.PURE_STRAIGHT,
    Fan.PURE_SHIFTED_CHOWS,
    Fan.PURE_TRIPLE_CHOW,
    Fan.MIXED_SHIFTED_CHOWS,
    Fan.MIXED_TRIPLE_CHOW,
    Fan.MIXED_STRAIGHT,
    *_PAIR_CHOW_FANS,
)
@lru_cache(maxsize=1 << 16)
def _chow_fans(chows: tuple[Tile, ...]) -> tuple[tuple[int, int], ...]:
    """Fans among the chows (lowest tiles, in the reference's order)."""
    n = len(chows)
    if n == 2:
        fan = _two_chows(*chows)
        return ((fan, 1),) if fan else ()
    if n == 3:
        fan = _three_chows(*chows)
        if fan:
            return ((fan, 1),)
        pairs = [
            _two_chows(chows[0], chows[1]),
            _two_chows(chows[0], chows[2]),
            _two_chows(chows[1], chows[2]),
        ]
        return tuple(_count_once(pairs, 2))
    if n != 4:
        return ()
    a, b, c, d = chows
    if a // 9 == d // 9 and a // 9 == b // 9 == c // 9:
        step = b - a
        if step in (1, 2) and c - b == step and d - c == step:
            return ((Fan.FOUR_PURE_SHIFTED_CHOWS, 1),)
        if a == d:
            return ((Fan.QUADRUPLE_CHOW, 1),)
    # Three chows making a fan: the fourth adds at most one two-chow fan.
    for trio, extra in (((a, b, c), d), ((a, b, d), c), ((a, c, d), b), ((b, c, d), a)):
        fan = _three_chows(*trio)
        if fan:
            with_extra = {_two_chows(t, extra) for t in trio}
            for kind in _PAIR_CHOW_FANS:
                if kind in with_extra:
                    return ((fan, 1), (kind, 1))
            return ((fan, 1),)
    pairs = [_two_chows(x, y) for i, x in enumerate(chows) for y in chows[i + 1 :]]
    related = [[p for j, p in enumerate(pairs) if i in _PAIR_MEMBERS[j]] for i in range(4)]
    limit = 3 - sum(1 for rel in related if not any(rel))
    return tuple(_count_once(pairs, limit)) if limit > 0 else ()


_PAIR_MEMBERS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


@_fans(Fan.PURE_TERMINAL_CHOWS, Fan.THREE_SUITED_TERMINAL_CHOWS)
def _terminal_chows(chows: tuple[Tile, ...], pair: Tile) -> int | None:
    """一色双龙会 / 三色双龙会: 123 and 789 twice around a pair of fives."""
    if pair >= 27 or pair % 9 != 4:
        return None
    pair_suit = pair // 9
    if any(c % 9 not in (0, 6) for c in chows):
        return None
    suits = [c // 9 for c in chows]
    if all(s == pair_suit for s in suits):
        low = sum(1 for c in chows if c % 9 == 0)
        return Fan.PURE_TERMINAL_CHOWS if low == 2 else None
    if pair_suit in suits:
        return None
    others = {(c // 9, c % 9) for c in chows}
    wanted = {(s, r) for s in range(3) if s != pair_suit for r in (0, 6)}
    return Fan.THREE_SUITED_TERMINAL_CHOWS if others == wanted else None


# ---------------------------------------------------------------- pung combinations


def _two_pungs(a: Tile, b: Tile) -> int | None:
    if a < 27 and b < 27:
        return Fan.DOUBLE_PUNG if a % 9 == b % 9 else None
    if a >= 31 and b >= 31:
        return Fan.TWO_DRAGONS_PUNGS
    return None


def _three_pungs(a: Tile, b: Tile, c: Tile) -> int | None:
    if a < 27 and b < 27 and c < 27:
        suits = {a // 9, b // 9, c // 9}
        ranks = sorted((a % 9, b % 9, c % 9))
        if len(suits) == 3:
            if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
                return Fan.MIXED_SHIFTED_PUNGS
            if ranks[0] == ranks[2]:
                return Fan.TRIPLE_PUNG
        elif len(suits) == 1 and ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return Fan.PURE_SHIFTED_PUNGS
        return None
    trio = {a, b, c}
    if len(trio) == 3 and all(27 <= t < 31 for t in trio):
        return Fan.BIG_THREE_WINDS
    if trio == {WHITE, GREEN, RED}:
        return Fan.BIG_THREE_DRAGONS
    return None


@_fans(
    Fan.FOUR_PURE_SHIFTED_PUNGS,
    Fan.BIG_FOUR_WINDS,
    Fan.MIXED_SHIFTED_PUNGS,
    Fan.TRIPLE_PUNG,
    Fan.PURE_SHIFTED_PUNGS,
    Fan.BIG_THREE_WINDS,
    Fan.BIG_THREE_DRAGONS,
    Fan.DOUBLE_PUNG,
    Fan.TWO_DRAGONS_PUNGS,
)
@lru_cache(maxsize=1 << 16)
def _pung_fans(pungs: tuple[Tile, ...]) -> tuple[tuple[int, int], ...]:
    """Fans among the pungs and kongs (tiles, in the reference's order)."""
    n = len(pungs)
    found: list[int] = []
    if n == 4:
        a, b, c, d = pungs
        if d < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
            return ((Fan.FOUR_PURE_SHIFTED_PUNGS, 1),)
        if set(pungs) == {27, 28, 29, 30}:
            return ((Fan.BIG_FOUR_WINDS, 1),)
        for free in (3, 2, 1, 0):
            trio = [p for i, p in enumerate(pungs) if i != free]
            fan = _three_pungs(*trio)
            if fan:
                found.append(fan)
                for i, other in enumerate(pungs):
                    pair_fan = _two_pungs(other, pungs[free]) if i != free else None
                    if pair_fan:
                        found.append(pair_fan)
                        break
                return _tally(found)
    elif n == 3:
        fan = _three_pungs(*pungs)
        if fan:
            return ((fan, 1),)
    if n >= 2:
        for i, x in enumerate(pungs):
            for y in pungs[i + 1 :]:
                fan = _two_pungs(x, y)
                if fan:
                    found.append(fan)
    return _tally(found)


def _tally(found: list[int]) -> tuple[tuple[int, int], ...]:
    return tuple((fan, found.count(fan)) for fan in dict.fromkeys(found))


@_fans(Fan.DRAGON_PUNG, Fan.PUNG_OF_TERMINALS_OR_HONORS)
def _single_pung_fan(tile: Tile) -> int | None:
    """箭刻 for a dragon pung, 幺九刻 for a pung of terminals or winds."""
    if tile >= 31:
        return Fan.DRAGON_PUNG
    if tile >= 27 or tile in _TERMINALS:
        return Fan.PUNG_OF_TERMINALS_OR_HONORS
    return None


@_fans(
    Fan.MELDED_KONG,
    Fan.CONCEALED_KONG,
    Fan.TWO_MELDED_KONGS,
    Fan.CONCEALED_KONG_AND_MELDED_KONG,
    Fan.TWO_CONCEALED_KONGS,
    Fan.THREE_KONGS,
    Fan.FOUR_KONGS,
    Fan.TWO_CONCEALED_PUNGS,
    Fan.THREE_CONCEALED_PUNGS,
    Fan.FOUR_CONCEALED_PUNGS,
)
def _kong_fans(
    table: list[int], melded_kongs: int, concealed_kongs: int, concealed_pungs: int
) -> None:
    """杠 fans by how many kongs are melded or concealed; 暗刻 fans by concealed pungs+kongs."""
    kongs = melded_kongs + concealed_kongs
    if kongs == 1:
        table[Fan.MELDED_KONG if melded_kongs else Fan.CONCEALED_KONG] = 1
    elif kongs == 2:
        table[
            (Fan.TWO_MELDED_KONGS, Fan.CONCEALED_KONG_AND_MELDED_KONG, Fan.TWO_CONCEALED_KONGS)[
                concealed_kongs
            ]
        ] = 1
    elif kongs == 3:
        table[Fan.THREE_KONGS] = 1
    elif kongs == 4:
        table[Fan.FOUR_KONGS] = 1
    hidden = concealed_kongs + concealed_pungs
    if hidden >= 2:
        table[
            (Fan.TWO_CONCEALED_PUNGS, Fan.THREE_CONCEALED_PUNGS, Fan.FOUR_CONCEALED_PUNGS)[
                hidden - 2
            ]
        ] = 1


@_fans(Fan.EDGE_WAIT, Fan.CLOSED_WAIT, Fan.SINGLE_WAIT)
def _wait_fan(chows: Sequence[Tile], pair: Tile, win_tile: Tile) -> int | None:
    """边张 / 嵌张 / 单钓 for a hand that waited on one tile only.

    As in the reference, any concealed chow with the winning tile at its side counts as
    an edge wait, before a closed wait, before a single wait on the pair.
    """
    closed = False
    for base in chows:
        if win_tile in (base, base + 2):
            return Fan.EDGE_WAIT
        if win_tile == base + 1:
            closed = True
    if closed:
        return Fan.CLOSED_WAIT
    return Fan.SINGLE_WAIT if pair == win_tile else None


# ---------------------------------------------------------------- sets, pair, winds


@_fans(Fan.ALL_CHOWS, Fan.LITTLE_THREE_DRAGONS, Fan.LITTLE_FOUR_WINDS)
def _pair_fans(table: list[int], chows: int, pair: Tile) -> None:
    """平和 (four chows, suited pair); 小三元 / 小四喜 (two dragon / three wind pungs + pair)."""
    if chows == 4:
        if pair < 27:
            table[Fan.ALL_CHOWS] = 1
        return
    if table[Fan.TWO_DRAGONS_PUNGS]:
        if pair >= 31:
            table[Fan.LITTLE_THREE_DRAGONS] = 1
            table[Fan.TWO_DRAGONS_PUNGS] = 0
        return
    if table[Fan.BIG_THREE_WINDS] and 27 <= pair < 31:
        table[Fan.LITTLE_FOUR_WINDS] = 1
        table[Fan.BIG_THREE_WINDS] = 0


_OUTSIDE, _FIVE, _EVEN = 1, 2, 3
#: Per chow (by lowest tile): holds a terminal (123, 789) or a five (345, 456, 567).
_CHOW_TRAIT = tuple(
    _OUTSIDE if t < 27 and t % 9 in (0, 6) else _FIVE if t < 27 and t % 9 in (2, 3, 4) else 0
    for t in range(34)
)
#: Per pung or pair tile: terminal or honor, five, or even (2 4 6 8).
_PUNG_TRAIT = tuple(
    _OUTSIDE
    if t >= 27 or t % 9 in (0, 8)
    else _FIVE
    if t % 9 == 4
    else _EVEN
    if t % 9 in (1, 3, 5, 7)
    else 0
    for t in range(34)
)


@_fans(Fan.OUTSIDE_HAND, Fan.ALL_FIVE, Fan.ALL_EVEN_PUNGS)
def _group_trait_fans(
    table: list[int], chows: Sequence[Tile], pungs: Sequence[Tile], pair: Tile
) -> None:
    """全带幺, 全带五, 全双刻: a property every set and the pair share."""
    traits = [_CHOW_TRAIT[base] for base in chows]
    traits += [_PUNG_TRAIT[tile] for tile in pungs]
    traits.append(_PUNG_TRAIT[pair])
    outside, five, even = traits.count(_OUTSIDE), traits.count(_FIVE), traits.count(_EVEN)
    if outside == 5:
        table[Fan.OUTSIDE_HAND] = 1
    elif five == 5:
        table[Fan.ALL_FIVE] = 1
    elif even == 5:
        table[Fan.ALL_EVEN_PUNGS] = 1


@_fans(Fan.PREVALENT_WIND, Fan.SEAT_WIND)
def _wind_fans(table: list[int], pungs: Sequence[Tile], win: WinSituation) -> None:
    """圈风刻 / 门风刻; such a pung then no longer counts as 幺九刻 unless already absorbed."""
    absorbed = (
        table[Fan.BIG_THREE_WINDS]
        or table[Fan.ALL_TERMINALS_AND_HONORS]
        or table[Fan.ALL_HONORS]
        or table[Fan.LITTLE_FOUR_WINDS]
    )
    for tile in pungs:
        if not 27 <= tile < 31:
            continue
        if tile == win.prevalent_wind:
            table[Fan.PREVALENT_WIND] = 1
            if not absorbed:
                table[Fan.PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if tile == win.seat_wind:
            table[Fan.SEAT_WIND] = 1
            if win.seat_wind != win.prevalent_wind and not absorbed:
                table[Fan.PUNG_OF_TERMINALS_OR_HONORS] -= 1


# ---------------------------------------------------------------- 不计

_EXCLUSIONS: tuple[
    tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...
] = tuple(
    (
        fan.index,
        tuple(TABLE.index(e) for e in fan.excludes),
        tuple((TABLE.index(a), TABLE.index(b)) for a, b in fan.demotes),
        tuple((TABLE.index(a), n) for a, n in fan.absorbs),
    )
    for fan in sorted(TABLE.fans, key=lambda f: f.index)
    if fan.excludes or fan.demotes or fan.absorbs
)


_EXCLUDERS = itemgetter(*(rule[0] for rule in _EXCLUSIONS))


def _apply_exclusions(table: list[int]) -> None:
    """The 不计 step: each counted fan, in table order, removes what it already implies."""
    for index, excludes, demotes, absorbs in compress(_EXCLUSIONS, _EXCLUDERS(table)):
        if not table[index]:  # removed by an earlier rule of this step
            continue
        for other in excludes:
            table[other] = 0
        for source, target in demotes:
            if table[source]:
                table[source] = 0
                table[target] = 1
        for other, n in absorbs:
            table[other] = max(0, table[other] - n)


# ---------------------------------------------------------------- special shapes


class _Hand(NamedTuple):
    """Facts of one hand shared by every way of reading it."""

    counts: list[int]  # concealed tiles with the winning tile
    all_counts: list[int]  # concealed + declared
    kinds: frozenset[Tile]
    win_tile: Tile
    win: WinSituation
    last_of_kind: bool
    kong: bool


def _new_table() -> list[int]:
    return [0] * TABLE.size


def _flags_only(table: list[int], hand: _Hand) -> list[int]:
    _win_flag_fans(table, hand.win, hand.last_of_kind, hand.kong)
    return table


@_fans(Fan.SEVEN_PAIRS, Fan.SEVEN_SHIFTED_PAIRS)
def _seven_pairs(hand: _Hand) -> list[int] | None:
    """七对, or 连七对 (seven consecutive pairs in the winning tile's suit)."""
    counts = hand.counts
    if not is_seven_pairs(counts):
        return None
    table = _new_table()
    if hand.win_tile < 27:
        first = hand.win_tile // 9 * 9
        for start in range(first, first + 3):
            if all(counts[t] == 2 for t in range(start, start + 7)):
                table[Fan.SEVEN_SHIFTED_PAIRS] = 1
                if counts[first] == 0 and counts[first + 8] == 0:
                    table[Fan.ALL_SIMPLES] = 1
                return _flags_only(table, hand)
    table[Fan.SEVEN_PAIRS] = 1
    for index, count in _tile_set_fans(hand.kinds):
        table[index] = count
    _tile_hog(table, counts, 0)
    _flags_only(table, hand)
    _apply_exclusions(table)
    return table


@_fans(Fan.GREATER_HONORS_AND_KNITTED_TILES, Fan.LESSER_HONORS_AND_KNITTED_TILES)
def _honors_and_knitted(hand: _Hand) -> list[int] | None:
    """七星不靠 (all seven honors) / 全不靠 (+组合龙 when the straight is whole)."""
    if len(hand.kinds) != 14 or not is_honors_and_knitted(hand.counts):
        return None
    table = _new_table()
    suited = sum(1 for t in hand.kinds if t < 27)
    if suited == 7:
        table[Fan.GREATER_HONORS_AND_KNITTED_TILES] = 1
    else:
        table[Fan.LESSER_HONORS_AND_KNITTED_TILES] = 1
        if suited == 9:
            table[Fan.KNITTED_STRAIGHT] = 1
    return _flags_only(table, hand)


@_fans(Fan.THIRTEEN_ORPHANS)
def _thirteen_orphans(hand: _Hand) -> list[int] | None:
    """十三幺."""
    if len(hand.kinds) != 13 or not is_thirteen_orphans(hand.counts):
        return None
    table = _new_table()
    table[Fan.THIRTEEN_ORPHANS] = 1
    return _flags_only(table, hand)


@_fans(Fan.KNITTED_STRAIGHT)
def _knitted_straight(hand: _Hand, fixed: Sequence[Group]) -> list[int] | None:
    """组合龙 with one more set (possibly declared) and a pair."""
    counts = hand.counts
    if len(hand.kinds) < 9 or max(counts) < 2:
        return None
    straight = knitted_straight_in(counts)
    if straight is None:
        return None
    rest = counts.copy()
    for tile in straight:
        rest[tile] -= 1
    divisions = standard_decompositions(rest)
    if len(divisions) != 1:
        return None
    division = divisions[0]
    pair = division.pair
    if fixed:
        (fourth,) = fixed
    elif division.chows:
        fourth = Group(_CHOW, division.chows[0])
    else:
        fourth = Group(_PUNG, division.pungs[0])
    table = _new_table()
    table[Fan.KNITTED_STRAIGHT] = 1
    all_counts = hand.all_counts
    if fourth.kind is _CHOW:
        if pair < 27:
            table[Fan.ALL_CHOWS] = 1
        if all_counts[pair] == 4:
            table[Fan.TILE_HOG] = 1
    else:
        tile = fourth.tile
        if 27 <= tile < 31:
            table[Fan.PUNG_OF_TERMINALS_OR_HONORS] = 1
            _wind_fans(table, (tile,), hand.win)
            if pair >= 31:
                table[Fan.ALL_TYPES] = 1
        elif tile >= 31:
            table[Fan.DRAGON_PUNG] = 1
            if 27 <= pair < 31:
                table[Fan.ALL_TYPES] = 1
        else:
            if tile in _TERMINALS:
                table[Fan.PUNG_OF_TERMINALS_OR_HONORS] = 1
            if pair < 27:
                table[Fan.NO_HONORS] = 1
            if fourth.kind is not _KONG and all_counts[tile] == 4:
                table[Fan.TILE_HOG] = 1
    _flags_only(table, hand)
    if not fourth.concealed:
        if fourth.kind is _KONG:
            table[Fan.MELDED_KONG] = 1
    else:
        if fourth.kind is _KONG:
            table[Fan.CONCEALED_KONG] = 1
        if hand.win.self_drawn:
            table[Fan.FULLY_CONCEALED_HAND] = 1
            table[Fan.SELF_DRAWN] = 0
        else:
            table[Fan.CONCEALED_HAND] = 1
    win_tile = hand.win_tile
    if not fixed:
        if rest[win_tile]:
            rest[win_tile] -= 1
            if len(waits(rest, 3, _STANDARD)) == 1:
                fan = _wait_fan(division.chows, pair, win_tile)
                if fan:
                    table[fan] = 1
    elif win_tile not in straight or counts[win_tile] == 3:
        table[Fan.SINGLE_WAIT] = 1
    _apply_exclusions(table)
    return table


@_fans(Fan.NINE_GATES)
def _nine_gates(hand: _Hand) -> list[int] | None:
    """九莲宝灯: 1112345678999 of one suit plus any tile of it, all concealed."""
    win_tile, counts = hand.win_tile, hand.counts
    if win_tile >= 27:
        return None
    first = win_tile // 9 * 9
    rank = win_tile % 9 + 1
    shape = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    shape[rank - 1] += 1
    if counts[first : first + 9] != shape:
        return None
    table = _new_table()
    table[Fan.NINE_GATES] = 1
    if rank in (1, 9):
        table[Fan.PURE_STRAIGHT] = 1
        table[Fan.TILE_HOG] = 1
    elif rank in (2, 8):
        table[Fan.TWO_CONCEALED_PUNGS] = 1
        table[Fan.SHORT_STRAIGHT] = 1
        table[Fan.PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif rank == 5:
        table[Fan.TWO_CONCEALED_PUNGS] = 1
        table[Fan.PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        table[Fan.SHORT_STRAIGHT] = 1
    return _flags_only(table, hand)


# ---------------------------------------------------------------- standard hands


@_fans(Fan.ALL_PUNGS)
@lru_cache(maxsize=1 << 13)  # about 4 MB when full
def _set_fans(
    chows: tuple[Tile, ...], pungs: tuple[Tile, ...], pair: Tile
) -> tuple[tuple[int, int], ...]:
    """The fans that the sets and the pair alone make (cached), as (fan, count) pairs.

    碰碰和, the single-pung fans, the chow and pung combinations, the pair's fans and the
    traits every group shares. None of them is among the fans of ``base`` in
    :func:`_score_division` (win flags, concealment, tile kinds, 四归一) nor among the
    kong fans, and none reads those, so adding them to the table gives the same counts
    as computing them on it.
    """
    table = _new_table()
    if len(pungs) == 4:
        table[Fan.ALL_PUNGS] = 1
    for tile in pungs:
        fan = _single_pung_fan(tile)
        if fan:
            table[fan] += 1
    n_chows = len(chows)
    terminal_chows = _terminal_chows(chows, pair) if n_chows == 4 else None
    if terminal_chows:
        table[terminal_chows] = 1
    else:
        if n_chows >= 2:
            for fan, n in _chow_fans(tuple(sorted(chows, key=_ref_key))):
                table[fan] += n
        if n_chows <= 2:
            for fan, n in _pung_fans(tuple(sorted(pungs, key=_ref_key))):
                table[fan] += n
    _pair_fans(table, n_chows, pair)
    _group_trait_fans(table, chows, pungs, pair)
    return tuple(compress(enumerate(table), table))


@_fans(Fan.CHICKEN_HAND)
class _FixedSets(NamedTuple):
    """The declared melds as the scorer needs them, gathered once per hand."""

    chows: tuple[Tile, ...]
    pungs: tuple[Tile, ...]  # pungs and kongs
    melded_kongs: int
    concealed_kongs: int
    exposed: int  # melds that are not concealed kongs

    @classmethod
    def of(cls, fixed: Sequence[Group]) -> _FixedSets:
        chows: list[Tile] = []
        pungs: list[Tile] = []
        melded_kongs = concealed_kongs = exposed = 0
        for group in fixed:
            if group.kind is _CHOW:
                chows.append(group.tile)
            else:
                pungs.append(group.tile)
                if group.kind is _KONG:
                    if group.concealed:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
            if not group.concealed:
                exposed += 1
        return cls(tuple(chows), tuple(pungs), melded_kongs, concealed_kongs, exposed)


_NO_FIXED_SETS = _FixedSets((), (), 0, 0, 0)


def _score_division(
    division: Division, fixed: _FixedSets, base: list[int], hand: _Hand, unique_wait: bool
) -> list[int]:
    """Fans of one decomposition; ``base`` holds the fans that do not depend on it."""
    table = base.copy()
    win_tile = hand.win_tile
    chows = division.chows
    pungs = division.pungs
    concealed_pungs = len(pungs)
    if (
        concealed_pungs
        and not hand.win.self_drawn
        and win_tile in pungs
        and not any(c <= win_tile <= c + 2 for c in chows)
    ):
        concealed_pungs -= 1  # the pung was completed by the discard: it counts as exposed
    if fixed.chows or fixed.pungs:
        chows = chows + fixed.chows
        pungs = pungs + fixed.pungs
    if pungs:
        _kong_fans(table, fixed.melded_kongs, fixed.concealed_kongs, concealed_pungs)
    pair = division.pair
    for fan, n in _set_fans(chows, pungs, pair):
        table[fan] += n
    if table[Fan.QUADRUPLE_CHOW]:
        table[Fan.TILE_HOG] = 0
    if unique_wait and not (table[Fan.MELDED_HAND] or table[Fan.FOUR_KONGS]):
        wait_fan = _wait_fan(division.chows, pair, win_tile)
        if wait_fan:
            table[wait_fan] = 1
    _apply_exclusions(table)
    if not table[Fan.BIG_FOUR_WINDS]:
        _wind_fans(table, pungs, hand.win)
    if not any(table):
        table[Fan.CHICKEN_HAND] = 1
    return table


def _waits_on_one_tile(counts: list[int], win_tile: Tile, melds: int) -> bool:
    """独听: before the winning tile the hand waited on that one tile only (by shape)."""
    before = counts.copy()
    before[win_tile] -= 1
    return len(waits(before, melds, _STANDARD if melds else _STANDARD_OR_PAIRS)) == 1


def _total(table: Sequence[int]) -> int:
    return sum(map(mul, POINTS, table))


def _division_order(division: Division) -> tuple[tuple[int, int], ...]:
    """Where the reference's search meets this decomposition: its sets in tile order."""
    return tuple(
        sorted(
            [(_ref_key(t), 0) for t in division.pungs] + [(_ref_key(t), 1) for t in division.chows]
        )
    )


def _pick(
    scored: list[tuple[int, list[int]]], best_total: int, seven_pairs: bool, best: list[int] | None
) -> tuple[int, list[int] | None]:
    """The reference's choice among decompositions, scored in its search order.

    The highest total wins. On a tie the later decomposition replaces the earlier one
    only if it has 一色三同顺 or 三同刻, or if the special reading was seven pairs.
    """
    for total, table in scored:
        if total > best_total:
            best_total, best = total, table
        elif total == best_total and (
            seven_pairs or table[Fan.PURE_TRIPLE_CHOW] == 1 or table[Fan.TRIPLE_PUNG]
        ):
            best = table
    return best_total, best


@_fans(Fan.FLOWER_TILES)
def calculate(
    standing: Sequence[Tile], fixed: Sequence[Group], win_tile: Tile, win: WinSituation
) -> FanCount | None:
    """Fans of a winning hand, or None when the tiles do not form one.

    ``standing`` are the concealed tiles without the winning tile (13 - 3 × declared
    melds of them); ``fixed`` the declared melds as groups. Tile counts are assumed
    checked (no fifth copy); see :mod:`paipu.rules.variants.mcr` for validation.
    """
    counts = [0] * 34
    for tile in standing:
        counts[tile] += 1
    counts[win_tile] += 1
    all_counts = counts.copy()
    for group in fixed:
        tile = group.tile
        if group.kind is _CHOW:
            all_counts[tile] += 1
            all_counts[tile + 1] += 1
            all_counts[tile + 2] += 1
        else:
            all_counts[tile] += 4 if group.kind is _KONG else 3
    fixed_at_win = all_counts[win_tile] - counts[win_tile]
    last_of_kind = (win.last_of_kind and counts[win_tile] == 1) or fixed_at_win == 3
    kong = win.kong
    if kong:
        kong = (
            any(g.kind is _KONG for g in fixed)
            if win.self_drawn
            else fixed_at_win == 0 and counts[win_tile] == 1
        )
    hand = _Hand(
        counts,
        all_counts,
        frozenset(compress(range(34), all_counts)),
        win_tile,
        win,
        last_of_kind,
        kong,
    )

    best: list[int] | None = None
    if not fixed:
        best = (
            _seven_pairs(hand)
            or _honors_and_knitted(hand)
            or _thirteen_orphans(hand)
            or _knitted_straight(hand, fixed)
            or _nine_gates(hand)
        )
    elif len(fixed) == 1:
        best = _knitted_straight(hand, fixed)
    best_total = _total(best) if best else 0
    seven_pairs = bool(best and best[Fan.SEVEN_PAIRS])
    if best is None or seven_pairs:
        divisions = standard_decompositions(counts)
        if divisions:
            if len(divisions) > 1:
                divisions.sort(key=_division_order)
            sets = _FixedSets.of(fixed) if fixed else _NO_FIXED_SETS
            base = _new_table()
            _win_flag_fans(base, win, last_of_kind, kong)
            _concealment_fans(base, sets.exposed, win.self_drawn)
            for index, count in _tile_set_fans(hand.kinds):
                base[index] = count
            _tile_hog(base, all_counts, sets.melded_kongs + sets.concealed_kongs)
            unique_wait = False
            for division in divisions:
                if _wait_fan(division.chows, division.pair, win_tile):
                    unique_wait = _waits_on_one_tile(counts, win_tile, len(fixed))
                    break
            scored = []
            for division in divisions:
                table = _score_division(division, sets, base, hand, unique_wait)
                scored.append((_total(table), table))
            best_total, best = _pick(scored, best_total, seven_pairs, best)
    if best is None:
        return None
    best[Fan.FLOWER_TILES] = win.flowers
    return FanCount(tuple(best), best_total + win.flowers, win.flowers)


check_coverage(TABLE, FAN_DETECTORS, "mcr")
