"""Figure builders: each takes the Polars frame of a named query (intervals added by
:mod:`paipu.reports.stats`, see :mod:`paipu.reports.frames`) and returns a ``go.Figure``.

Builders do no arithmetic beyond choosing rows and turning shares into percentages, so
that the tests can check every trace against hand-computed values. Figures use one small
layout template (no per-figure copy of Plotly's default theme), so pages stay small.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import polars as pl
from plotly.subplots import make_subplots

#: Colours of the rates, the same on every page.
COLOURS = {
    "win": "#1b7f3b",
    "self_draw": "#0b5cad",
    "deal_in": "#b42318",
    "drawn": "#8a6d1d",
    "danger": "#b54708",
    "player": "#0b5cad",
    "population": "#9aa5b1",
}
LAYOUT = go.Layout(
    template=go.layout.Template(),
    font={"family": "system-ui, sans-serif", "size": 13, "color": "#1f2933"},
    paper_bgcolor="#ffffff",
    plot_bgcolor="#ffffff",
    margin={"l": 60, "r": 20, "t": 50, "b": 50},
    xaxis={"gridcolor": "#e4e7eb", "zerolinecolor": "#9aa5b1", "automargin": True},
    yaxis={"gridcolor": "#e4e7eb", "zerolinecolor": "#9aa5b1", "automargin": True},
    legend={"orientation": "h", "y": -0.18},
    hoverlabel={"align": "left"},
)
#: The most players drawn in a per-player figure (the tables list them all).
TOP_PLAYERS = 30
#: The most fans drawn in a frequency figure.
TOP_FANS = 40


def _figure(title: str, height: int | None = None) -> go.Figure:
    fig = go.Figure(layout=LAYOUT)
    fig.update_layout(title={"text": title, "x": 0.01}, height=height)
    return fig


def _percent(values: Sequence[float | None]) -> list[float | None]:
    return [None if v is None else round(100 * v, 6) for v in values]


def _errors(frame: pl.DataFrame, name: str) -> dict[str, object]:
    """Asymmetric error bars (percent) from ``name``, ``name_lo`` and ``name_hi``."""
    p = frame[name].to_list()
    lo = frame[f"{name}_lo"].to_list()
    hi = frame[f"{name}_hi"].to_list()
    plus = [
        None if a is None or b is None else round(100 * (b - a), 6)
        for a, b in zip(p, hi, strict=True)
    ]
    minus = [
        None if a is None or b is None else round(100 * (a - b), 6)
        for a, b in zip(p, lo, strict=True)
    ]
    return {"type": "data", "array": plus, "arrayminus": minus, "visible": True}


def fan_label(name_zh: str, name_en: str) -> str:
    """How a fan is named on every figure: Chinese, then English."""
    return f"{name_zh} {name_en}"


# --------------------------------------------------------------------------- overview


def outcomes(variants: pl.DataFrame) -> go.Figure:
    """Hands per variant by outcome (won, drawn, aborted), stacked: ``overview-variants``."""
    fig = _figure("Hands by variant and outcome")
    for column, label, colour in (
        ("won", "won", COLOURS["win"]),
        ("drawn", "exhaustive draw", COLOURS["drawn"]),
        ("aborted", "aborted", COLOURS["population"]),
    ):
        fig.add_bar(
            x=variants["variant"].to_list(),
            y=variants[column].to_list(),
            name=label,
            marker_color=colour,
        )
    fig.update_layout(barmode="stack", yaxis_title="hands", xaxis_type="category")
    return fig


# --------------------------------------------------------------------------- win rates

RATES = (
    ("win_rate", "win rate", "win"),
    ("self_draw", "self-draw share of wins", "self_draw"),
    ("deal_in_rate", "deal-in rate", "deal_in"),
    ("drawn_rate", "drawn-hand rate", "drawn"),
)


def player_rates(players: pl.DataFrame, top: int = TOP_PLAYERS) -> go.Figure:
    """Per player (the ``top`` with most hands) each rate with its 95 % Wilson interval, one
    panel per rate: ``winrates-player-variants`` (one variant)."""
    shown = players.head(top)
    names = shown["player"].to_list()
    fig = make_subplots(
        rows=1, cols=len(RATES), shared_yaxes=True, subplot_titles=[r[1] for r in RATES]
    )
    fig.update_layout(LAYOUT)
    fig.update_layout(
        title={
            "text": f"Rates per player, 95% intervals ({len(names)} of {players.height})",
            "x": 0.01,
        },
        height=max(360, 140 + 26 * len(names)),
        showlegend=False,
    )
    for col, (column, label, colour) in enumerate(RATES, start=1):
        fig.add_scatter(
            x=_percent(shown[column].to_list()),
            y=names,
            mode="markers",
            name=label,
            marker={"color": COLOURS[colour], "size": 9},
            error_x=_errors(shown, column),
            customdata=shown["hands"].to_list(),
            hovertemplate="%{y}: %{x:.1f}% (hands %{customdata})<extra>" + label + "</extra>",
            row=1,
            col=col,
        )
    fig.update_xaxes(ticksuffix="%")
    fig.update_yaxes(autorange="reversed", row=1, col=1)
    return fig


def seat_rates(seats: pl.DataFrame) -> go.Figure:
    """Win and deal-in rates by seat, dealer against the others: ``winrates-seat-variants``
    (one variant)."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=("win rate", "deal-in rate"))
    fig.update_layout(LAYOUT)
    fig.update_layout(title={"text": "By seat, dealer or not (95% intervals)", "x": 0.01})
    for dealer, label, colour in (
        (True, "dealer", COLOURS["deal_in"]),
        (False, "not dealer", COLOURS["self_draw"]),
    ):
        part = seats.filter(pl.col("is_dealer") == dealer)
        x = [f"seat {s}" for s in part["seat"].to_list()]
        for col, column in enumerate(("win_rate", "deal_in_rate"), start=1):
            fig.add_bar(
                x=x,
                y=_percent(part[column].to_list()),
                error_y=_errors(part, column),
                name=label,
                marker_color=colour,
                legendgroup=label,
                showlegend=col == 1,
                customdata=part["hands"].to_list(),
                hovertemplate="%{x}: %{y:.1f}% (hands %{customdata})<extra>" + label + "</extra>",
                row=1,
                col=col,
            )
    fig.update_yaxes(title_text="%", row=1, col=1)
    fig.update_layout(barmode="group")
    return fig


def variant_rates(variants: pl.DataFrame) -> go.Figure:
    """Each rate per variant with its 95 % Wilson interval: ``winrates-variants``."""
    fig = _figure("Rates per variant (95% intervals)")
    for column, label, colour in RATES:
        fig.add_bar(
            x=variants["variant"].to_list(),
            y=_percent(variants[column].to_list()),
            error_y=_errors(variants, column),
            name=label,
            marker_color=COLOURS[colour],
        )
    fig.update_layout(barmode="group", yaxis_title="%", xaxis_type="category")
    return fig


SOURCE_NAMES = {
    "self_draw": ("self-draw 自摸", "win"),
    "discard": ("on a discard 点炮", "deal_in"),
    "robbing_kong": ("robbing a kong 抢杠", "danger"),
    "flip": ("on another's flip (zipai)", "self_draw"),
}


def win_sources(sources: pl.DataFrame) -> go.Figure:
    """How each variant's hands are won: the share of its wins by the source of the winning
    tile or card, stacked to 100 %: ``winrates-sources``."""
    fig = _figure("How hands are won, per variant (% of the variant's wins)")
    for source in sources["source"].unique(maintain_order=True).to_list():
        part = sources.filter(pl.col("source") == source)
        label, colour = SOURCE_NAMES.get(source, (source, "population"))
        fig.add_bar(
            x=part["variant"].to_list(),
            y=_percent(part["share"].to_list()),
            name=label,
            marker_color=COLOURS[colour],
            customdata=part["wins"].to_list(),
            hovertemplate="%{x}: %{y:.1f}% (%{customdata} wins)<extra>" + label + "</extra>",
        )
    fig.update_layout(barmode="stack", yaxis_title="% of wins", xaxis_type="category")
    return fig


def rolling_rates(rolling: pl.DataFrame, window: int) -> go.Figure:
    """The rolling win rate of the players with most hands over their own hands."""
    fig = _figure(f"Win rate over the last {window} hands, as play goes on")
    for player in rolling["player"].unique(maintain_order=True).to_list():
        part = rolling.filter(pl.col("player") == player)
        fig.add_scatter(
            x=part["n"].to_list(),
            y=_percent(part["win_rate"].to_list()),
            mode="lines+markers" if part.height < 40 else "lines",
            name=player,
            customdata=part["window_hands"].to_list(),
            hovertemplate="hand %{x}: %{y:.1f}% over %{customdata} hands<extra>"
            + player
            + "</extra>",
        )
    fig.update_layout(xaxis_title="hands played by the player", yaxis_title="win rate %")
    return fig


# --------------------------------------------------------------------------- fans


def fan_frequency(
    freq: pl.DataFrame, variant: str, word: str = "fan", top: int = TOP_FANS
) -> go.Figure:
    """Share of the variant's wins containing each fan (95 % Wilson): ``fans-frequency``;
    ``word`` is what the variant calls them (番种, 名堂)."""
    shown = freq.head(top)
    labels = [fan_label(z, e) for z, e in zip(shown["name_zh"], shown["name_en"], strict=True)]
    wins = shown["wins"].max() if shown.height else 0
    fig = _figure(
        f"{variant}: share of wins with each {word} ({shown.height} of {freq.height}, {wins} wins)",
        height=max(360, 110 + 22 * shown.height),
    )
    fig.add_bar(
        x=_percent(shown["share"].to_list()),
        y=labels,
        orientation="h",
        error_x=_errors(shown, "share"),
        marker_color=COLOURS["player"],
        customdata=list(zip(shown["with_fan"].to_list(), shown["points"].to_list(), strict=True)),
        hovertemplate="%{y}: %{x:.1f}% of wins "
        "(%{customdata[0]} wins, %{customdata[1]} each)<extra></extra>",
        name="share of wins",
    )
    fig.update_layout(
        xaxis_title="% of wins (95% interval)", yaxis={"autorange": "reversed"}, showlegend=False
    )
    return fig


def win_totals(totals: pl.DataFrame, variant: str, unit: str = "total") -> go.Figure:
    """How many of one variant's wins scored each total, in the variant's ``unit`` (MCR fan,
    zipai 胡息): ``fans-totals``, filtered to the variant."""
    part = totals.filter(pl.col("variant") == variant)
    fig = _figure(f"{variant}: distribution of win totals ({unit})")
    fig.add_bar(
        x=part["total"].to_list(),
        y=part["wins"].to_list(),
        marker_color=COLOURS["win"],
        name="wins",
        hovertemplate="%{x} " + unit + ": %{y} wins<extra></extra>",
    )
    fig.update_layout(xaxis_title=f"win total, {unit}", yaxis_title="wins", showlegend=False)
    return fig


def fan_player_heatmap(
    profile: pl.DataFrame, variant: str, players: int = 20, fans: int = 25, word: str = "fan"
) -> go.Figure:
    """Players' fan shares against the population, in percentage points: ``fans-players``.

    Rows are the ``players`` with most wins, columns the ``fans`` most frequent overall; the
    colour is the player's share minus the population's, the text the player's share.
    """
    part = profile.filter(pl.col("variant") == variant)
    top_players = (
        part.select("player", "wins")
        .unique()
        .sort(["wins", "player"], descending=[True, False])
        .head(players)["player"]
        .to_list()
    )
    top_fans = (
        part.select("fan", "name_zh", "name_en", "population_with_fan")
        .unique()
        .sort(["population_with_fan", "fan"], descending=[True, False])
        .head(fans)
    )
    lookup = {(r["player"], r["fan"]): r for r in part.iter_rows(named=True)}
    z, text = [], []
    for player in top_players:
        z_row, text_row = [], []
        for fan in top_fans["fan"].to_list():
            row = lookup.get((player, fan))
            if row is None:
                z_row.append(None)
                text_row.append("")
                continue
            z_row.append(round(100 * (row["share"] - row["population_share"]), 6))
            text_row.append(f"{100 * row['share']:.0f}%")
        z.append(z_row)
        text.append(text_row)
    labels = [
        fan_label(a, b) for a, b in zip(top_fans["name_zh"], top_fans["name_en"], strict=True)
    ]
    fig = _figure(
        f"{variant}: each player's share of wins with a {word}, "
        "against all players (percentage points)",
        height=max(380, 200 + 28 * len(top_players)),
    )
    fig.add_heatmap(
        z=z,
        x=labels,
        y=top_players,
        text=text,
        texttemplate="%{text}",
        colorscale="RdBu",
        zmid=0,
        colorbar={"title": {"text": "pp"}},
        hovertemplate="%{y} · %{x}: %{text} of wins (%{z:+.1f} pp)<extra></extra>",
    )
    fig.update_layout(xaxis={"tickangle": -45}, yaxis={"autorange": "reversed"}, margin={"b": 160})
    return fig


def player_fans(profile: pl.DataFrame, variant: str, player: str, top: int = 20) -> go.Figure:
    """One player's fan shares beside the population's (the ``top`` most frequent fans)."""
    part = profile.filter((pl.col("variant") == variant) & (pl.col("player") == player)).head(top)
    labels = [fan_label(a, b) for a, b in zip(part["name_zh"], part["name_en"], strict=True)]
    wins = part["wins"].max() if part.height else 0
    fig = _figure(
        f"{variant}: fans in {player}'s {wins} wins against all players'",
        height=max(360, 110 + 26 * part.height),
    )
    fig.add_bar(
        x=_percent(part["share"].to_list()),
        y=labels,
        orientation="h",
        error_x=_errors(part, "share"),
        name=player,
        marker_color=COLOURS["player"],
    )
    fig.add_bar(
        x=_percent(part["population_share"].to_list()),
        y=labels,
        orientation="h",
        name="all players",
        marker_color=COLOURS["population"],
    )
    fig.update_layout(barmode="group", xaxis_title="% of wins", yaxis={"autorange": "reversed"})
    return fig


# --------------------------------------------------------------------------- deal-in

TURN_BUCKETS = ("1-3", "4-6", "7-9", "10-12", "13+")


def dealin_heatmap(grid: pl.DataFrame, variant: str, rate: str) -> go.Figure:
    """A discard kind × turn bucket heat map of ``rate`` (``danger`` or ``won_on_rate``) with
    the number of discards in each cell: ``dealin-grid``. Kinds and buckets without any
    discard are left out (Plotly draws a heat map column with no value at all wrongly); kinds
    come in the query's order (``kind_order``: the variant's own tiles or zipai cards)."""
    titles = {
        "danger": "true danger: the discard completed a ready opponent's hand",
        "won_on_rate": "dealt in: someone won on the discard",
    }
    part = grid.filter(pl.col("variant") == variant)
    cells = {(r["kind"], r["turns"]): r for r in part.iter_rows(named=True)}
    kinds = part.sort("kind_order", "kind")["kind"].unique(maintain_order=True).to_list()
    buckets = [b for b in TURN_BUCKETS if any(bb == b for _, bb in cells)]
    z, text = [], []
    for kind in kinds:
        z_row, text_row = [], []
        for bucket in buckets:
            row = cells.get((kind, bucket))
            if row is None:
                z_row.append(None)
                text_row.append("n=0")
            else:
                z_row.append(round(100 * row[rate], 6))
                text_row.append(f"{100 * row[rate]:.1f}%<br>n={row['discards']:,}")
        z.append(z_row)
        text.append(text_row)
    fig = _figure(f"{variant}: {titles[rate]} (% of discards)", height=120 + 52 * len(kinds))
    fig.add_heatmap(
        z=z,
        x=buckets,
        y=kinds,
        text=text,
        texttemplate="%{text}",
        colorscale="OrRd",
        zmin=0,
        colorbar={"title": {"text": "%"}},
        hovertemplate="%{y}, turns %{x}: %{text}<extra></extra>",
    )
    fig.update_layout(
        xaxis={"title": {"text": "the discarder's turn (own discards)"}, "type": "category"},
        yaxis={"autorange": "reversed", "type": "category"},
    )
    return fig


def dealin_melds(melds: pl.DataFrame, variant: str) -> go.Figure:
    """Deal-in and danger rate against an opponent by its exposed melds: ``dealin-melds``."""
    part = melds.filter(pl.col("variant") == variant)
    fig = _figure(f"{variant}: discards won on by an opponent, by the opponent's exposed melds")
    for column, label, colour in (
        ("won_by_rate", "won on by that opponent", COLOURS["deal_in"]),
        ("could_win_rate", "completed that opponent's hand", COLOURS["danger"]),
    ):
        fig.add_bar(
            x=part["melds"].to_list(),
            y=_percent(part[column].to_list()),
            error_y=_errors(part, column),
            name=label,
            marker_color=colour,
            customdata=part["pairs"].to_list(),
            hovertemplate="%{x} melds: %{y:.2f}% "
            "of %{customdata} discard-opponent pairs<extra></extra>",
        )
    fig.update_layout(
        barmode="group",
        xaxis={"title": {"text": "opponent's exposed melds"}, "type": "category"},
        yaxis_title="% (95% interval)",
    )
    return fig


def dealin_players(players: pl.DataFrame, top: int = TOP_PLAYERS) -> go.Figure:
    """Deal-in rate per player (95 % Wilson) and the share of dangerous discards."""
    shown = players.head(top)
    names = shown["player"].to_list()
    fig = _figure(
        f"Deal-ins per player ({len(names)} of {players.height} players)",
        height=max(360, 120 + 26 * len(names)),
    )
    for column, label, colour in (
        ("deal_in_rate", "deal-in rate (per hand)", COLOURS["deal_in"]),
        ("danger_rate", "dangerous discards (per discard)", COLOURS["danger"]),
    ):
        fig.add_scatter(
            x=_percent(shown[column].to_list()),
            y=names,
            mode="markers",
            name=label,
            marker={"color": colour, "size": 9},
            error_x=_errors(shown, column),
        )
    fig.update_layout(xaxis_title="% (95% interval)", yaxis={"autorange": "reversed"})
    return fig


# --------------------------------------------------------------------------- player pages


def cumulative_score(cumulative: pl.DataFrame, player: str) -> go.Figure:
    """A player's running score, hand after hand: ``player-cumulative``."""
    part = cumulative.filter(pl.col("player") == player)
    fig = _figure(f"{player}: cumulative score")
    fig.add_scatter(
        x=part["n"].to_list(),
        y=part["score"].to_list(),
        mode="lines+markers" if part.height < 60 else "lines",
        name="score",
        line={"color": COLOURS["player"]},
        customdata=list(
            zip(
                part["game"].to_list(), part["hand"].to_list(), part["delta"].to_list(), strict=True
            )
        ),
        hovertemplate="hand %{x}: %{y:+,d} (game %{customdata[0]} hand %{customdata[1]}: "
        "%{customdata[2]:+d})<extra></extra>",
    )
    fig.update_layout(xaxis_title="hands played", yaxis_title="points", showlegend=False)
    return fig
