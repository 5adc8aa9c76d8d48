"""What the pages need to know about a variant: its names, the unit of its win totals, and
how its fans are called — read from the variant's TOML, so that a new variant needs no code
here.

A win's ``total`` is what the variant pays on (``sql/schema/001_hands.sql``): MCR's fan
count, zipai's 胡息 (xi), points elsewhere; the pages never add totals of two variants. The
unit is the TOML's ``total_unit`` when it gives one; otherwise zipai (``tiles.zipai``)
counts 胡息, a variant with a fan minimum counts 番 (fan), and any other says "total". A
zipai variant's fans are its 名堂, and a 名堂's points are a multiplier.

>>> info = variant_info("zipai_chenzhou")
>>> info.zipai, info.total_unit, info.fan_zh, info.xi["peng"]
(True, '胡息 xi', '名堂', [1, 3])
>>> variant_info("mcr").total_unit, variant_info("mcr").fan_zh
('番 fan', '番种')
>>> variant_info("nonesuch").total_unit
'total'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any


@dataclass(frozen=True)
class VariantInfo:
    """A variant as the report pages name and count it."""

    id: str
    name_zh: str = ""
    name_en: str = ""
    zipai: bool = False
    total_unit: str = "total"
    fan_zh: str = "番种"  # what the variant's fans are called: 番种, 名堂
    fan_points: str = "points"  # what a fan's points are: points, multiplier
    fans: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (Chinese, English)
    xi: dict[str, list[int]] | None = None  # zipai: 胡息 of each group kind, [small, big]
    #: The wild kinds of a hand, per room choice (:func:`wild_table`); None without wilds.
    wilds: dict[str, Any] | None = None

    @property
    def title(self) -> str:
        """``zipai_chenzhou 郴州字牌``: the id and the Chinese name."""
        return f"{self.id} {self.name_zh}".strip()

    def script_data(self) -> dict[str, Any]:
        """What the replay script reads (``PAIPU_VARIANTS``)."""
        data: dict[str, Any] = {
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "zipai": self.zipai,
            "total_unit": self.total_unit,
            "fan_zh": self.fan_zh,
        }
        if self.xi is not None:
            data["xi"] = self.xi
        if self.wilds is not None:
            data["wilds"] = self.wilds
        return data


def wild_table(spec: Any) -> dict[str, Any] | None:
    """The replay script's view of a variant's ``[wilds]`` (rules/mechanics/wilds.py): the
    option that chooses them (``null`` when none) with its default, and per choice the fixed
    wild kinds and, where an indicator is turned up, the kinds each indicator makes — worked
    out here by the rules, so that the script needs no successor order of its own.

    >>> table = wild_table(type("S", (), {"raw": {"wilds": {"indicator": [1]}}, "tiles": {},
    ...     "options": {}})())
    >>> table["choices"][""]["by_indicator"]["9s"], table["choices"][""]["fixed"]
    (['1s'], [])
    """
    from paipu.rules.core.tiles import TileSet
    from paipu.rules.mechanics.wilds import rule_of
    from paipu.rules.tiles import tile_name, tile_names

    raw = spec.raw.get("wilds")
    if not isinstance(raw, dict):
        return None
    tile_set = TileSet.from_toml(spec.tiles)
    option = raw.get("option")
    values = list(raw.get("choices", {})) if option is not None else [""]
    choices: dict[str, Any] = {}
    for value in values:
        rule = rule_of(raw, tile_set, value)
        if rule is None:
            continue
        entry: dict[str, Any] = {"fixed": tile_names(sorted(rule.fixed))}
        if rule.needs_indicator:
            entry["by_indicator"] = {
                tile_name(t): tile_names(sorted(rule.spec(t).tiles)) for t in tile_set.kinds
            }
        choices[value] = entry
    known = option is not None and option in spec.options
    default = spec.options[option].default if known else None
    return {"option": option, "default": default, "choices": choices}


@cache
def variant_info(variant: str) -> VariantInfo:
    """The variant's :class:`VariantInfo`; a variant the rules do not know gets the defaults."""
    from paipu.rules.variants import VariantError, VariantSpec

    try:
        spec = VariantSpec.load(variant)
    except VariantError:
        return VariantInfo(variant)
    zipai = bool(spec.tiles.get("zipai"))
    unit = spec.raw.get("total_unit")
    if not isinstance(unit, str):
        unit = "胡息 xi" if zipai else "番 fan" if spec.min_fan > 0 else "total"
    xi = spec.raw.get("xi") if zipai else None
    return VariantInfo(
        id=variant,
        name_zh=spec.name_zh,
        name_en=spec.name_en,
        zipai=zipai,
        total_unit=unit,
        fan_zh="名堂" if zipai else "番种",
        fan_points="multiplier" if zipai else "points",
        fans={fan.id: (fan.name_zh, fan.name_en) for fan in spec.fans.fans},
        xi={k: list(v) for k, v in xi.items()} if isinstance(xi, dict) else None,
        wilds=wild_table(spec),
    )


def fan_names(variant: str, fan: str) -> tuple[str, str]:
    """A fan's Chinese and English names from the variant's table (the id when unknown)."""
    return variant_info(variant).fans.get(fan, (fan, fan))
