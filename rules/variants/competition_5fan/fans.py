"""The 5-fan competition rules' fans (计番办法, 每一番算一分): the seed's 40 and 30 番 tiers,
the inferred tiers below them (their values are room options), and the tags of how the win
was made (自摸, 杠上花, 抢杠, 海底捞月: each doubles, worth 0 itself).

Every reading of the hand is counted (each standard decomposition, seven pairs, thirteen
orphans) and the one worth most is kept (the first of them on a tie). A fan excluded by a
larger one it implies (``excludes`` in the TOML: 大四喜 over 小四喜 and 碰碰胡 …) is dropped.

>>> from paipu.rules.tiles import parse_tiles
>>> hand = FiveFanHand.of(parse_tiles("111222333444z5z"), (), parse_tiles("5z")[0])
>>> [(shape, sorted(set(fans))) for shape, fans in hand_fans(
...     hand, seat_wind=28, round_wind=27, honors_in_terminal_pungs=True)]
[('standard', ['all_honors', 'all_pungs', 'big_four_winds', 'concealed_hand', 'value_wind_pung'])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paipu.rules.decompose import is_thirteen_orphans, standard_decompositions
from paipu.rules.fans import produces
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.tiles import DRAGONS, N_KINDS, WINDS, Tile, counts, is_honor, is_terminal

REGISTRY: dict[str, str] = {}
#: A set of a reading: (is a chow, its lowest tile).
Set = tuple[bool, Tile]


@dataclass(frozen=True, slots=True)
class FiveFanHand:
    """A complete hand: concealed counts (the winning tile included), melds, every tile."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    tiles: tuple[int, ...]  # concealed and melded together (a kong counts 4)

    @classmethod
    def of(cls, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile) -> FiveFanHand:
        concealed = counts([*hand, win_tile])
        every = list(concealed)
        for meld in melds:
            for tile in meld.tiles:
                every[tile] += 1
        return cls(tuple(concealed), tuple(melds), win_tile, tuple(every))

    @property
    def kinds(self) -> list[Tile]:
        return [t for t in range(N_KINDS) if self.tiles[t]]

    @property
    def open(self) -> bool:
        """A chi, pong or exposed kong was declared (concealed kongs keep the hand 门清)."""
        return any(m.kind is not MeldKind.CONCEALED_KONG for m in self.melds)

    def readings(self) -> list[tuple[str, tuple[Set, ...], Tile]]:
        """Each way the hand wins: ("standard", sets, pair), ("seven_pairs", (), -1),
        ("thirteen_orphans", (), -1)."""
        out: list[tuple[str, tuple[Set, ...], Tile]] = []
        melded: list[Set] = [(m.kind is MeldKind.CHI, m.base) for m in self.melds]
        for division in standard_decompositions(self.concealed):
            sets = [*melded, *((True, t) for t in division.chows)]
            sets += [(False, t) for t in division.pungs]
            out.append(("standard", tuple(sets), division.pair))
        if not self.melds and sum(self.concealed) == 14:
            if all(n % 2 == 0 for n in self.concealed):
                out.append(("seven_pairs", (), -1))
            if is_thirteen_orphans(self.concealed):
                out.append(("thirteen_orphans", (), -1))
        return out


def _suit(tile: Tile) -> int:
    return tile // 9 if tile < 27 else 3


@produces(
    REGISTRY,
    "full_flush",
    "half_flush",
    "all_honors",
    "all_simples",
    "concealed_hand",
)
def whole_hand(hand: FiveFanHand, shape: str) -> list[str]:
    """The fans of the tiles as a whole: 清一色, 混一色, 全字, 断幺, 门清."""
    kinds = hand.kinds
    suits = {_suit(t) for t in kinds}
    out = []
    if suits == {3}:
        out.append("all_honors")  # 全字: 四喜 / 三元 / 四碰 and a pair, or 七对
    elif len(suits) == 1:
        out.append("full_flush")
    elif len(suits) == 2 and 3 in suits:
        out.append("half_flush")
    if not any(is_terminal(t) or is_honor(t) for t in kinds):
        out.append("all_simples")
    if not hand.open:
        out.append("concealed_hand")
    return out


@produces(
    REGISTRY,
    "big_four_winds",
    "little_four_winds",
    "big_three_dragons",
    "little_three_dragons",
    "all_pungs",
    "terminal_pungs",
    "pure_straight",
    "all_chows",
    "dragon_pung",
    "value_wind_pung",
)
def sets_fans(
    sets: tuple[Set, ...],
    pair: Tile,
    *,
    seat_wind: Tile,
    round_wind: Tile,
    honors_in_terminal_pungs: bool,
) -> list[str]:
    """The fans of one standard reading's sets and pair."""
    pungs = [t for chow, t in sets if not chow]
    chows = [t for chow, t in sets if chow]
    winds = sum(1 for t in pungs if t in WINDS)
    dragons = sum(1 for t in pungs if t in DRAGONS)
    out = []
    if winds == 4:
        out.append("big_four_winds")
    elif winds == 3 and pair in WINDS:
        out.append("little_four_winds")
    if dragons == 3:
        out.append("big_three_dragons")
    elif dragons == 2 and pair in DRAGONS:
        out.append("little_three_dragons")
    if len(pungs) == 4:
        out.append("all_pungs")
        allowed = (
            (lambda t: is_terminal(t) or is_honor(t)) if honors_in_terminal_pungs else is_terminal
        )
        if all(allowed(t) for t in (*pungs, pair)) and any(is_terminal(t) for t in (*pungs, pair)):
            out.append("terminal_pungs")
    if any(c in chows and c + 3 in chows and c + 6 in chows for c in (0, 9, 18)):
        out.append("pure_straight")
    if len(chows) == 4 and pair < 27:
        out.append("all_chows")
    out += ["dragon_pung"] * dragons
    out += ["value_wind_pung"] * sum((t == seat_wind) + (t == round_wind) for t in pungs)
    return out


@produces(REGISTRY, "seven_pairs", "big_seven_pairs", "thirteen_orphans")
def special_shape(hand: FiveFanHand, shape: str) -> list[str]:
    """七对 (大七对 when four of its tiles are alike, "七对中有四张是一样的牌"), 十三么."""
    if shape == "seven_pairs":
        return ["big_seven_pairs" if 4 in hand.concealed else "seven_pairs"]
    if shape == "thirteen_orphans":
        return ["thirteen_orphans"]
    return []


@produces(
    REGISTRY,
    "heavenly_hand",
    "earthly_hand",
    "self_draw",
    "kong_replacement",
    "robbing_kong",
    "last_tile",
)
def how_won(
    *,
    heavenly: bool,
    earthly: bool,
    self_drawn: bool,
    kong_replacement: bool,
    robbing_kong: bool,
    last_tile: bool,
) -> list[str]:
    """天胡, 地胡 (40), and the doubling tags."""
    flags = (
        (heavenly, "heavenly_hand"),
        (earthly, "earthly_hand"),
        (self_drawn, "self_draw"),
        (kong_replacement, "kong_replacement"),
        (robbing_kong, "robbing_kong"),
        (last_tile, "last_tile"),
    )
    return [fan for on, fan in flags if on]


def hand_fans(
    hand: FiveFanHand, *, seat_wind: Tile, round_wind: Tile, honors_in_terminal_pungs: bool
) -> list[tuple[str, tuple[str, ...]]]:
    """Each reading's fans before exclusions: (shape, fan ids)."""
    out = []
    for shape, sets, pair in hand.readings():
        fans = [*whole_hand(hand, shape), *special_shape(hand, shape)]
        if shape == "standard":
            fans += sets_fans(
                sets,
                pair,
                seat_wind=seat_wind,
                round_wind=round_wind,
                honors_in_terminal_pungs=honors_in_terminal_pungs,
            )
        out.append((shape, tuple(fans)))
    return out
