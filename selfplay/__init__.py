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
* ``tile_set``: the same loop with the bots of :mod:`paipu.selfplay.bots.tile_set`, which
  measure hands with the core on the variant's own tile set (1–10 suits);
* ``zipai``: 字牌's own loop and bots (:mod:`paipu.selfplay.zipai`); its table, moves and
  forced plays share nothing with mahjong's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paipu.rules.registry import VariantError
from paipu.selfplay import loop, zipai
from paipu.selfplay.bots import fans as fan_bots
from paipu.selfplay.bots import regional as regional_bots
from paipu.selfplay.bots import tile_set as tile_set_bots

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome
    from paipu.rules.selfplay import HandSetup, Scenario, Style
    from paipu.rules.variants import Options, Variant
    from paipu.selfplay.loop import Player

#: The families of mahjong bots, as a variant's ``[bot] family`` names them: each makes a
#: bot per seat for the one loop (:func:`paipu.selfplay.loop.play_hand`).
MAHJONG_FAMILIES: dict[str, Callable[[Variant, Options, Sequence[Style]], Sequence[Player]]] = {
    "fans": fan_bots.make_bots,
    "regional": regional_bots.make_bots,
    "tile_set": tile_set_bots.make_bots,
}
#: 字牌's family: its own loop and bots.
ZIPAI_FAMILY = "zipai"
#: Every family.
FAMILIES = (*MAHJONG_FAMILIES, ZIPAI_FAMILY)


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
    if kind == ZIPAI_FAMILY:
        return zipai.play(variant, rng, setup, options)
    make_bots = MAHJONG_FAMILIES[kind]
    return loop.play_hand(
        variant, options, setup, rng, lambda: make_bots(variant, options, setup.styles)
    )


def scenarios(variant: Variant, name: str) -> tuple[Scenario, ...]:
    """Prepared deals for ``--scenario``: a named set of the variant (its
    ``scenario_sets``) or a JSON file; the mahjong loop plays them (zipai has none)."""
    if family(variant) == ZIPAI_FAMILY:
        raise VariantError(f"{variant.id} has no scenario {name!r}")
    return loop.scenarios_from(name, variant.scenario_sets, variant)
