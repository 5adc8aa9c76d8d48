"""Confidence intervals for the report tables: Wilson for proportions, normal for means.

Every rate on the pages is a proportion ``k / n`` shown with its 95 % Wilson score
interval; every average (points won per hand, …) is shown as ``mean ± 1.96·sd/√n``.

>>> lo, hi = wilson(2, 5)
>>> round(lo, 4), round(hi, 4)
(0.1176, 0.7693)
>>> wilson(0, 0)
(None, None)
>>> mean_interval(10.0, 4.0, 16)
(8.04, 11.96)
"""

from __future__ import annotations

import math

import polars as pl

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.96


def wilson(k: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The Wilson score interval of ``k`` successes in ``n`` trials; (None, None) if n = 0."""
    if n <= 0:
        return None, None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(mean: float, sd: float | None, n: int, z: float = Z95) -> tuple[float, float]:
    """``mean ± z·sd/√n``; the interval is the mean itself when ``sd`` is unknown (n < 2)."""
    if sd is None or n < 2 or math.isnan(sd):
        return mean, mean
    half = z * sd / math.sqrt(n)
    return round(mean - half, 10), round(mean + half, 10)


def wilson_columns(k: str, n: str, name: str, z: float = Z95) -> list[pl.Expr]:
    """Polars expressions adding ``name`` (= k/n), ``name_lo`` and ``name_hi`` (Wilson).

    >>> frame = pl.DataFrame({"wins": [2, 0], "hands": [5, 0]})
    >>> out = frame.with_columns(wilson_columns("wins", "hands", "win_rate"))
    >>> out.with_columns(pl.col(pl.Float64).round(4)).rows()
    [(2, 5, 0.4, 0.1176, 0.7693), (0, 0, None, None, None)]
    """
    kk = pl.col(k).cast(pl.Float64)
    nn = pl.col(n).cast(pl.Float64)
    valid = nn > 0
    p = kk / nn
    denom = 1 + z * z / nn
    centre = (p + z * z / (2 * nn)) / denom
    half = z * (p * (1 - p) / nn + z * z / (4 * nn * nn)).sqrt() / denom
    return [
        pl.when(valid).then(p).otherwise(None).alias(name),
        pl.when(valid).then((centre - half).clip(0.0, 1.0)).otherwise(None).alias(f"{name}_lo"),
        pl.when(valid).then((centre + half).clip(0.0, 1.0)).otherwise(None).alias(f"{name}_hi"),
    ]


def mean_columns(mean: str, sd: str, n: str, name: str, z: float = Z95) -> list[pl.Expr]:
    """Polars expressions adding ``name``, ``name_lo`` and ``name_hi`` (mean ± z·sd/√n).

    With fewer than two values (no standard deviation) the interval is the mean itself.

    >>> frame = pl.DataFrame({"m": [10.0], "s": [4.0], "n": [16]})
    >>> frame.with_columns(mean_columns("m", "s", "n", "pts")).rows()
    [(10.0, 4.0, 16, 10.0, 8.04, 11.96)]
    """
    half = (z * pl.col(sd).fill_nan(None) / pl.col(n).cast(pl.Float64).sqrt()).fill_null(0.0)
    m = pl.col(mean).cast(pl.Float64)
    return [
        m.alias(name),
        (m - half).round(10).alias(f"{name}_lo"),
        (m + half).round(10).alias(f"{name}_hi"),
    ]
