"""Adapter to the reference MCR calculator ``pymahjonggb`` (import name ``MahjongGB``).

A test-only dependency (``pip install pymahjonggb``, compiled with g++): the agreement
tests, the full agreement run and the benchmarks call the reference through
:func:`reference_score` on the same :class:`~paipu.rules.score.ScoreRequest` that paipu
scores, and compare fan by fan.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paipu.rules.melds import MeldKind
from paipu.rules.score import ScoreRequest
from paipu.rules.tiles import Tile
from paipu.rules.variants.mcr.fans import TABLE

# Botzone / MahjongGB codes: W characters, B dots, T bamboo, F winds, J1 red J2 green J3 white.
_CODE = (
    [f"W{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
_ID_BY_ENGLISH = {fan.name_en: fan.id for fan in TABLE.fans}


def reference_code(tile: Tile) -> str:
    """The MahjongGB code of a standard tile."""
    return _CODE[tile]


@dataclass(frozen=True, slots=True)
class ReferenceAnswer:
    """What the reference says: total (flowers included) and (fan id, count) pairs."""

    total: int | None
    fans: tuple[tuple[str, int], ...]
    error: str | None = None


def load_calculator() -> Callable[..., Any]:
    """The reference's fan calculator; ImportError when pymahjonggb is not installed."""
    from MahjongGB import MahjongFanCalculator

    return MahjongFanCalculator


def reference_arguments(request: ScoreRequest) -> dict[str, Any]:
    """The keyword arguments MahjongFanCalculator takes for this request."""
    packs = []
    for meld in request.melds:
        if meld.kind is MeldKind.CHI:
            packs.append(("CHI", _CODE[meld.tiles[1]], 1))
        elif meld.kind is MeldKind.PONG:
            packs.append(("PENG", _CODE[meld.base], 1))
        else:
            packs.append(("GANG", _CODE[meld.base], 0 if meld.concealed else 1))
    return {
        "pack": tuple(packs),
        "hand": tuple(_CODE[t] for t in request.hand),
        "winTile": _CODE[request.win_tile],
        "flowerCount": len(request.flowers),
        "isSelfDrawn": request.self_drawn,
        "is4thTile": request.flags.last_of_kind,
        "isAboutKong": request.flags.kong_replacement or request.flags.robbing_kong,
        "isWallLast": request.flags.last_tile,
        "seatWind": request.seat_wind_for(4) - 27,
        "prevalentWind": request.round_wind - 27,
        "verbose": True,
    }


def reference_score(calculator: Callable[..., Any], request: ScoreRequest) -> ReferenceAnswer:
    """Ask the reference about one request."""
    try:
        result = calculator(**reference_arguments(request))
    except TypeError as exc:
        return ReferenceAnswer(None, (), str(exc))
    fans = tuple((_ID_BY_ENGLISH[en], count) for _points, count, _zh, en in result)
    total = sum(points * count for points, count, _zh, _en in result)
    return ReferenceAnswer(total, fans)
