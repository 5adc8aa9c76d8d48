"""Scoring and settling a zipai win: 起胡, 名堂, 囤 and the payments (digest §6-§8).

``tun = 1 + (xi − 起胡) // xi_per_tun``; the unit is ``multiplier × tun × 底分`` where the
multiplier is the product of the 名堂 (1 if none). On a self-draw every other seat pays
the unit; on a discard (放炮) the discarder alone pays ``unit × dianpao_factor``; a win on
another seat's flip is paid as ``flip_win_payment`` says. 飘 adds the payer's and the
winner's stakes to each payment. A 相公 seat pays ``xiang_gong_penalty`` to each other seat.

The digest's worked example (三息一囤, 9 起胡, 红黑点): 24 xi, 红胡, self-drawn.

>>> tun_of(24, qihu=9, per_tun=3)
6
>>> payments(3, winner=0, source=Source.SELF, from_seat=None, unit=18)
(36, -18, -18)
>>> payments(3, winner=0, source=Source.DISCARD, from_seat=1, unit=18, factor=3)
(54, -54, 0)
>>> xiang_gong_deltas(3, [2], penalty=1)
(1, 1, -2)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paipu.rules.fans import FanTable
from paipu.rules.melds import Meld
from paipu.rules.score import FanScore
from paipu.rules.variants.zipai_chenzhou.cards import Card, is_red
from paipu.rules.variants.zipai_chenzhou.grouping import (
    UNITS_BY_HAND,
    Grouping,
    Source,
    best_grouping,
)
from paipu.rules.variants.zipai_chenzhou.melds import XiTable
from paipu.rules.variants.zipai_chenzhou.mingtang import WinFacts, detect

PIAO_CHOICES = {"none": (0,), "1-2-3": (0, 1, 2, 3), "2-3-5": (0, 2, 3, 5)}


@dataclass(frozen=True, slots=True)
class ZipaiRules:
    """The option values the zipai rules read, resolved once per hand."""

    name_zh: str
    players: int
    hand_size: int
    qihu: int
    xi_per_tun: int
    red_black: str
    hong_hu_threshold: int
    maohu: bool
    maohu_xi: int
    zimo_double: bool
    dianpao_factor: int
    flip_win_payment: str
    piao: tuple[int, ...]
    base_points: int
    open_ti: str
    must_win: str
    kan_locked: bool
    chou: str
    flip_chi: str
    xiang_gong_penalty: int
    buried: int
    xi: XiTable
    fans: FanTable

    @property
    def units(self) -> int:
        """Groups (and the pair) of a complete hand: 7, or 5 in the 14-card game."""
        return UNITS_BY_HAND[self.hand_size]

    @classmethod
    def of(
        cls, options: Mapping[str, Any], raw: Mapping[str, Any], xi: XiTable, fans: FanTable
    ) -> ZipaiRules:
        """Read the options of a hand; ``raw`` is the variant's TOML."""
        players = int(options["players"])
        qihu = options["qihu_xi"]
        factor = options["dianpao_factor"]
        if players != 2 and options["buried"]:
            raise ValueError("option 'buried' (埋牌) is for two players only")
        return cls(
            name_zh=str(raw["name_zh"]),
            players=players,
            hand_size=int(raw["deal"][str(players)]),
            qihu=(3 if players == 4 else 9) if qihu == "auto" else int(qihu),
            xi_per_tun=int(options["xi_per_tun"]),
            red_black=str(options["red_black"]),
            hong_hu_threshold=int(options["hong_hu_threshold"]),
            maohu=bool(options["maohu"]),
            maohu_xi=int(options["maohu_xi"]),
            zimo_double=bool(options["zimo_double"]),
            dianpao_factor=players if factor == "players" else int(factor),
            flip_win_payment=str(options["flip_win_payment"]),
            piao=PIAO_CHOICES[str(options["piao"])],
            base_points=int(options["base_points"]),
            open_ti=str(options["open_ti"]),
            must_win=str(options["must_win"]),
            kan_locked=bool(options["kan_locked"]),
            chou=str(options["chou"]),
            flip_chi=str(options["flip_chi"]),
            xiang_gong_penalty=int(options["xiang_gong_penalty"]),
            buried=int(options["buried"]),
            xi=xi,
            fans=fans,
        )


@dataclass(frozen=True, slots=True)
class WinScore:
    """A win as the rules count it; ``legal`` false with ``reason`` when it is not one."""

    legal: bool
    reason: str | None = None
    grouping: Grouping | None = None
    xi: int = 0  # the best grouping's xi
    total: int = 0  # the xi the win is scored at (毛胡: maohu_xi)
    tun: int = 0
    multiplier: int = 1
    fans: tuple[FanScore, ...] = ()
    deltas: tuple[int, ...] | None = None

    def extra(self, rules: ZipaiRules) -> dict[str, Any]:
        """The facts behind the total, for an answer's ``extra``."""
        if self.grouping is None:
            return {}
        return {
            "unit": "xi",
            "xi": self.xi,
            "qihu": rules.qihu,
            "tun": self.tun,
            "multiplier": self.multiplier,
            "groups": self.grouping.to_json(rules.xi),
        }


def tun_of(xi: int, *, qihu: int, per_tun: int) -> int:
    """囤: one for reaching 起胡, one more for every ``per_tun`` xi above it."""
    return 1 + (xi - qihu) // per_tun


def score_win(
    rules: ZipaiRules,
    *,
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: Card,
    source: Source,
    winner: int,
    from_seat: int | None,
    piao: Sequence[int] | None = None,
) -> WinScore:
    """Score ``winner`` winning on ``win`` (hand: counts by kind, the winning card apart)."""
    found = best_grouping(
        hand, melds, win, source, rules.xi, units=rules.units, kan_locked=rules.kan_locked
    )
    if not isinstance(found, Grouping):
        return WinScore(legal=False, reason=found.reason)
    xi = found.xi
    bare = rules.maohu and xi == 0
    if xi < rules.qihu and not bare:
        return WinScore(
            legal=False,
            reason=f"{xi} 胡息: {rules.name_zh} needs at least {rules.qihu} to win (起胡)",
            grouping=found,
            xi=xi,
            total=xi,
        )
    total = rules.maohu_xi if bare else xi
    red = sum(1 for g in found.groups for c in g.cards if is_red(c))
    facts = WinFacts(red=red, self_drawn=source is Source.SELF, xi=xi)
    ids = detect(
        facts,
        red_black=rules.red_black,
        hong_hu_threshold=rules.hong_hu_threshold,
        zimo_double=rules.zimo_double,
        maohu=rules.maohu,
    )
    fans = tuple(_fan(rules, fan_id) for fan_id in ids)
    multiplier = math.prod(f.points for f in fans)
    tun = tun_of(total, qihu=rules.qihu, per_tun=rules.xi_per_tun)
    unit = multiplier * tun * rules.base_points
    pays_like_discard = source is Source.DISCARD or (
        source is Source.FLIP and rules.flip_win_payment == "drawer"
    )
    deltas = payments(
        rules.players,
        winner=winner,
        source=Source.DISCARD if pays_like_discard else Source.SELF,
        from_seat=from_seat,
        unit=unit,
        factor=rules.dianpao_factor,
        piao=piao,
    )
    return WinScore(True, None, found, xi, total, tun, multiplier, fans, deltas)


def _fan(rules: ZipaiRules, fan_id: str) -> FanScore:
    fan = rules.fans.by_id[fan_id]
    points = fan.points
    if rules.red_black == "double" and fan_id in ("hong_hu", "yi_dian_hong", "hei_hu"):
        points = 2
    return FanScore(fan.id, fan.name_zh, fan.name_en, points, 1)


def payments(
    players: int,
    *,
    winner: int,
    source: Source,
    from_seat: int | None,
    unit: int,
    factor: int = 1,
    piao: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """Who pays the winner: every other seat ``unit`` (a self-draw), or ``from_seat`` alone
    ``unit × factor`` (放炮); each payment adds the payer's and the winner's 飘."""
    stakes = list(piao) if piao is not None else [0] * players
    deltas = [0] * players
    if source is Source.DISCARD:
        if from_seat is None:
            raise ValueError("a win paid as 放炮 needs the seat that pays")
        payers = {from_seat: unit * factor}
    else:
        payers = {seat: unit for seat in range(players) if seat != winner}
    for seat, amount in payers.items():
        pay = amount + stakes[seat] + stakes[winner]
        deltas[seat] -= pay
        deltas[winner] += pay
    return tuple(deltas)


def xiang_gong_deltas(players: int, seats: Sequence[int], penalty: int) -> tuple[int, ...]:
    """相公: each such seat pays ``penalty`` to every other seat."""
    deltas = [0] * players
    for seat in seats:
        for other in range(players):
            if other != seat:
                deltas[seat] -= penalty
                deltas[other] += penalty
    return tuple(deltas)
