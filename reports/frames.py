"""The rates of each named query's result, with their 95 % intervals, as Polars columns.

Each function takes the frame of the query it is named after and adds, for every rate
``r``, the columns ``r``, ``r_lo`` and ``r_hi`` (Wilson score interval), and for every
average ``a`` the columns ``a``, ``a_lo``, ``a_hi`` (mean ± 1.96·sd/√n). The figures and
tables read these columns; the tests compare them with values computed by hand.

>>> frame = pl.DataFrame({"player": ["Ann"], "hands": [6], "wins": [2], "self_drawn": [1],
...     "deal_ins": [0], "drawn": [1], "won_mean": [17.5], "won_sd": [28.0],
...     "lost_mean": [8.0], "lost_sd": [12.0]})
>>> row = winrates(frame).row(0, named=True)
>>> round(row["win_rate"], 4), row["self_draw"], round(row["drawn_rate"], 4)
(0.3333, 0.5, 0.1667)
"""

from __future__ import annotations

import polars as pl

from paipu.reports.stats import mean_columns, wilson_columns


def winrates(frame: pl.DataFrame) -> pl.DataFrame:
    """``winrates-player-variants`` / ``-seat-variants`` / ``-variants``: win rate, self-draw share,
    deal-in rate, drawn-hand rate, points won and lost per hand."""
    return frame.with_columns(
        *wilson_columns("wins", "hands", "win_rate"),
        *wilson_columns("self_drawn", "wins", "self_draw"),
        *wilson_columns("deal_ins", "hands", "deal_in_rate"),
        *wilson_columns("drawn", "hands", "drawn_rate"),
        *mean_columns("won_mean", "won_sd", "hands", "won"),
        *mean_columns("lost_mean", "lost_sd", "hands", "lost"),
    )


def win_sources(frame: pl.DataFrame) -> pl.DataFrame:
    """``winrates-sources``: share = wins from the source / wins of the variant."""
    return frame.with_columns(*wilson_columns("wins", "variant_wins", "share"))


def fan_frequency(frame: pl.DataFrame) -> pl.DataFrame:
    """``fans-frequency``: share = wins with the fan / wins of the variant."""
    return frame.with_columns(*wilson_columns("with_fan", "wins", "share"))


def fan_combinations(frame: pl.DataFrame) -> pl.DataFrame:
    """``fans-combinations``: share = wins with exactly this set of fans / wins."""
    return frame.with_columns(*wilson_columns("with_combo", "wins", "share"))


def fan_average(frame: pl.DataFrame) -> pl.DataFrame:
    """``fans-average``: mean win total and mean winner's points with intervals."""
    return frame.with_columns(
        *mean_columns("total_mean", "total_sd", "wins", "total"),
        *mean_columns("points_mean", "points_sd", "wins", "points"),
    )


def fan_profile(frame: pl.DataFrame) -> pl.DataFrame:
    """``fans-players``: the player's share (Wilson) and the population's share."""
    return frame.with_columns(
        *wilson_columns("with_fan", "wins", "share"),
        *wilson_columns("population_with_fan", "population_wins", "population_share"),
    )


def dealin_grid(frame: pl.DataFrame) -> pl.DataFrame:
    """``dealin-grid``: danger = dangerous / discards, won_on_rate = won_on / discards."""
    return frame.with_columns(
        *wilson_columns("dangerous", "discards", "danger"),
        *wilson_columns("won_on", "discards", "won_on_rate"),
    )


def dealin_melds(frame: pl.DataFrame) -> pl.DataFrame:
    """``dealin-melds``: per discard-opponent pair, won_by_rate and could_win_rate."""
    return frame.with_columns(
        *wilson_columns("won_by", "pairs", "won_by_rate"),
        *wilson_columns("could_win", "pairs", "could_win_rate"),
    )


def dealin_players(frame: pl.DataFrame) -> pl.DataFrame:
    """``dealin-players``: deal-in rate (per hand), danger rate (per discard), the share of
    deal-ins into visibly open hands, points lost per deal-in."""
    return frame.with_columns(
        *wilson_columns("deal_ins", "hands", "deal_in_rate"),
        *wilson_columns("dangerous", "discards", "danger_rate"),
        *wilson_columns("into_open", "deal_ins", "open_share"),
        *mean_columns("lost_mean", "lost_sd", "deal_ins", "lost"),
    )
