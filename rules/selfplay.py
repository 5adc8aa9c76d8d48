"""Self-play (自动对局): what a variant's simulator is given and what it returns.

``paipu simulate`` plays games of consecutive hands. For each hand it hands the variant a
:class:`HandSetup` (who sits where, who deals, the round wind, the running scores) and
each seat's :class:`Style`; the variant's ``self_play`` returns the hand as a
:class:`~paipu.rules.record.HandRecord` (with its full ``wall``, without ``result``:
the pipeline replays it and fills in the result as the engine scores it). The variant's
``next_setup`` then rotates the deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from paipu.rules.tiles import EAST, Tile


class Style(StrEnum):
    """How a bot weighs winning against not dealing in (打法)."""

    AGGRESSIVE = "aggressive"  # pushes for its hand, calls often, rarely folds
    BALANCED = "balanced"
    DEFENSIVE = "defensive"  # folds against ready-looking opponents, calls little

    @classmethod
    def for_player(cls, name: str, index: int) -> Style:
        """A player's fixed style: the pool's players cycle through the three styles."""
        return tuple(cls)[index % 3]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A prepared deal: ``seat`` is dealt ``hand`` and draws ``draws`` first (in order).

    Used to exercise rare hands end to end (every MCR 88-fan hand, say); the rest of the
    wall is shuffled as usual.
    """

    name: str
    seat: int
    hand: tuple[Tile, ...]
    draws: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything about a hand that is decided before the deal."""

    variant: str
    game: str
    hand: int
    players: tuple[str, ...]
    styles: tuple[Style, ...]
    dealer: int = 0
    round_wind: Tile = EAST
    scores_before: tuple[int, ...] = ()
    rules: Mapping[str, Any] = field(default_factory=dict)
    time: str | None = None
    scenario: Scenario | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # variant state across hands

    def next(self, **changes: Any) -> HandSetup:
        return replace(self, hand=self.hand + 1, scenario=None, **changes)


def hand_rng(seed: int, game: int, hand: int) -> random.Random:
    """The random source of one hand: fixed by (seed, game, hand) alone, so that the same
    seed gives the same bytes whatever the number of worker processes."""
    return random.Random(f"paipu/{seed}/{game}/{hand}")
