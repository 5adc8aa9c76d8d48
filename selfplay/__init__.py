"""Self-play (自动对局, ``paipu simulate``): bots playing hands through the replay tables.

This package imports the rules (:mod:`paipu.rules`) and is never imported by them: the
rules replay and score a hand, whoever played it. A variant says which family of bots
plays it in its TOML (``[bot] family``); :func:`play_hand` deals and plays one hand with
that family's loop and bots, every event checked by the variant's replay table as it is
played, and :func:`scenarios` reads the prepared deals of ``--scenario``.

The families:

* ``mcr``: the mahjong loop (:mod:`paipu.selfplay.loop`) with the 8-fan planning bots
  of :mod:`paipu.selfplay.bots.core`;
* ``regional``: the same loop with the moves the 108-tile games add
  (:mod:`paipu.selfplay.regional`) and the bots of :mod:`paipu.selfplay.bots.regional`,
  tuned by the rest of the variant's ``[bot]`` table;
* ``zipai``: 字牌's own loop and bots (:mod:`paipu.selfplay.zipai`); its table, moves and
  forced plays share nothing with mahjong's.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from paipu.rules.registry import VariantError
from paipu.selfplay import loop, regional, zipai
from paipu.selfplay.bots import core as core_bots
from paipu.selfplay.bots import regional as regional_bots

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome
    from paipu.rules.selfplay import HandSetup, Scenario
    from paipu.rules.variants import Options, RegionalVariant, Variant
    from paipu.rules.variants.zipai_chenzhou import ChenzhouZipai

#: The families of bots, as a variant's ``[bot] family`` names them.
FAMILIES = ("mcr", "regional", "zipai")


def family(variant: Variant) -> str:
    """The family of bots that plays ``variant`` (its TOML's ``[bot] family``)."""
    name = variant.spec.raw.get("bot", {}).get("family")
    if name is None:
        raise VariantError(f"{variant.id} has no simulator yet (no [bot] family in its TOML)")
    if name not in FAMILIES:
        raise VariantError(
            f"{variant.id}.toml: [bot] family {name!r} is not one of {', '.join(FAMILIES)}"
        )
    return str(name)


def play_hand(
    variant: Variant, rng: random.Random, setup: HandSetup, options: Options
) -> HandOutcome:
    """Play one hand with bots (``paipu simulate``) through the variant's replay table,
    which checks every event as it is played; the outcome's record has its full wall
    (its ``result`` is filled in by the caller from the outcome)."""
    kind = family(variant)
    if kind == "mcr":
        return loop.play_hand(
            variant, options, setup, rng, lambda: core_bots.make_bots(variant, setup.styles)
        )
    if kind == "regional":
        table_variant = cast("RegionalVariant", variant)
        return regional.play_hand(
            table_variant,
            options,
            setup,
            rng,
            lambda: regional_bots.make_bots(table_variant, options, setup.styles),
        )
    return zipai.play_hand(cast("ChenzhouZipai", variant), rng, setup, options)


def scenarios(variant: Variant, name: str) -> tuple[Scenario, ...]:
    """Prepared deals for ``--scenario``: a named set of the variant (its
    ``scenario_sets``) or a JSON file; only the mahjong loop of MCR's family plays them."""
    if family(variant) != "mcr":
        raise VariantError(f"{variant.id} has no scenario {name!r}")
    return loop.scenarios_from(name, variant.scenario_sets, variant)
