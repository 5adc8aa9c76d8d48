"""The deal-in page's section on declared-ready opponents (报听 / 听): for the variants that
declare ready hands, the danger of a discard against an opponent that had declared, set
apart from the danger against one ready by shape only (``dealin-ready``,
``sql/reports/dealin_ready.sql``)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

from paipu.reports.figures import COLOURS, _errors, _figure, _percent
from paipu.reports.html import Column, Html, figure_html, join, slug, table, tag
from paipu.reports.pages import rate_cell
from paipu.reports.stats import wilson_columns
from paipu.reports.variants import variant_info


def frame(raw: pl.DataFrame) -> pl.DataFrame:
    """``dealin-ready``: per discard-opponent pair, won_by_rate and could_win_rate."""
    return raw.with_columns(
        *wilson_columns("won_by", "pairs", "won_by_rate"),
        *wilson_columns("could_win", "pairs", "could_win_rate"),
    )


def figure(states: pl.DataFrame, variant: str) -> go.Figure:
    """Deal-in and danger rate against an opponent by its state: declared, ready by shape
    only, not ready."""
    part = states.filter(pl.col("variant") == variant)
    fig = _figure(f"{variant}: discards against opponents that declared 听, and the others")
    for column, label, colour in (
        ("won_by_rate", "won on by that opponent", COLOURS["deal_in"]),
        ("could_win_rate", "completed that opponent's hand", COLOURS["danger"]),
    ):
        fig.add_bar(
            x=part["state"].to_list(),
            y=_percent(part[column].to_list()),
            error_y=_errors(part, column),
            name=label,
            marker_color=colour,
            customdata=part["pairs"].to_list(),
            hovertemplate="%{x}: %{y:.2f}% of %{customdata} discard-opponent pairs<extra></extra>",
        )
    fig.update_layout(
        barmode="group",
        xaxis={"title": {"text": "the opponent when the tile was discarded"}, "type": "category"},
        yaxis_title="% (95% interval)",
    )
    return fig


def section(states: pl.DataFrame) -> Html:
    """The section (empty when no variant of the report declares ready hands)."""
    if states.is_empty():
        return Html("")
    parts: list[object] = [
        tag("h2", "Against declared-ready opponents (报听)", id="dealin-ready"),
        tag(
            "p",
            "Where players declare a ready hand (听), a declared opponent can no longer change "
            "its hand: the discards made after its declaration are the real danger. Each "
            "discard is counted once per opponent, by that opponent's state when the tile was "
            "discarded; danger by shape (ready but undeclared) is shown apart.",
            class_="note",
        ),
    ]
    for variant in states["variant"].unique(maintain_order=True).to_list():
        key = slug(variant)
        part = states.filter(pl.col("variant") == variant)
        parts += [
            tag("h3", variant_info(variant).title, id=f"dealin-ready-{key}"),
            figure_html(figure(states, variant), f"dealin-ready-{key}"),
            table(
                [
                    Column("opponent"),
                    Column("pairs", True),
                    Column("won on by them", True),
                    Column("completed their hand", True),
                ],
                (
                    (
                        r["state"],
                        f"{r['pairs']:,}",
                        rate_cell(r, "won_by_rate"),
                        rate_cell(r, "could_win_rate"),
                    )
                    for r in part.iter_rows(named=True)
                ),
            ),
        ]
    return join(parts)
