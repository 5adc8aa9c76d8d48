"""名堂: the multipliers of a zipai win, one short detector per family.

Each detector declares with :func:`~paipu.rules.fans.produces` the fan ids it can yield;
the variant checks at load time that these are exactly the ``[[fans]]`` rows of its TOML,
where each fan's ``points`` is its multiplier.

红胡 / 一点红 / 黑胡 count the red cards (二 七 十 贰 柒 拾) over the whole winning hand;
only one of them applies (they exclude one another by their conditions). 自摸翻倍 doubles
a win on the winner's own card. 毛胡 marks a win with no xi, scored as a fixed xi.

>>> facts = WinFacts(red=11, self_drawn=True, xi=24)
>>> detect(facts, red_black="on", hong_hu_threshold=10, zimo_double=True, maohu=False)
['hong_hu', 'zimo_double']
>>> detect(WinFacts(red=0, self_drawn=False, xi=0), red_black="on", hong_hu_threshold=10,
...        zimo_double=False, maohu=True)
['hei_hu', 'mao_hu']
"""

from __future__ import annotations

from dataclasses import dataclass

from paipu.rules.fans import produces

#: fan id -> the detector that yields it (checked against the TOML's fan table).
DETECTORS: dict[str, str] = {}


@dataclass(frozen=True, slots=True)
class WinFacts:
    """What the 名堂 look at."""

    red: int  # red cards in the whole winning hand
    self_drawn: bool  # the winner's own flip, or the dealer's own card (天胡)
    xi: int  # the best grouping's xi, before 毛胡


@produces(DETECTORS, "hong_hu", "yi_dian_hong", "hei_hu")
def red_cards(facts: WinFacts, *, enabled: bool, hong_hu_threshold: int) -> str | None:
    """红黑点: 黑胡 (no red), 一点红 (one red), 红胡 (at least the threshold of red)."""
    if not enabled:
        return None
    if facts.red == 0:
        return "hei_hu"
    if facts.red == 1:
        return "yi_dian_hong"
    if facts.red >= hong_hu_threshold:
        return "hong_hu"
    return None


@produces(DETECTORS, "zimo_double")
def self_draw(facts: WinFacts, *, enabled: bool) -> str | None:
    """自摸翻倍: a win on one's own card doubles."""
    return "zimo_double" if enabled and facts.self_drawn else None


@produces(DETECTORS, "mao_hu")
def bare_win(facts: WinFacts, *, enabled: bool) -> str | None:
    """毛胡: a complete hand without any xi, allowed by the option."""
    return "mao_hu" if enabled and facts.xi == 0 else None


def detect(
    facts: WinFacts,
    *,
    red_black: str,
    hong_hu_threshold: int,
    zimo_double: bool,
    maohu: bool,
) -> list[str]:
    """The 名堂 ids of a win, in table order."""
    found = [
        red_cards(facts, enabled=red_black != "off", hong_hu_threshold=hong_hu_threshold),
        self_draw(facts, enabled=zimo_double),
        bare_win(facts, enabled=maohu),
    ]
    return [f for f in found if f is not None]
