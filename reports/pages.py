"""The body of every report page, from the frames of the named queries.

Each function returns the page's HTML body (its figures included, each with a fixed div
id); :mod:`paipu.reports.html` puts it into the template. Rows come sorted from the
queries, so the same database gives the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from paipu.reports import figures
from paipu.reports.html import (
    Column,
    Html,
    esc,
    figure_html,
    hand_file,
    interval,
    join,
    link,
    num,
    pct,
    player_file,
    signed,
    slug,
    table,
    tag,
)
from paipu.reports.review_summary import review_section
from paipu.reports.tile_svg import sprite, tile_html
from paipu.reports.variants import variant_info
from paipu.rules.tiles import ZIPAI_SMALL_FIRST, TileError, parse_tile, tile_name_zh

DEFINITIONS = {
    "hand": (
        "hand played",
        "one seat in one hand (a player who sits at several seats of a hand, as Botzone's "
        "bots do, plays it several times)",
    ),
    "win": ("win rate", "hands won / hands played"),
    "self": ("self-draw share", "hands won by self-draw (自摸) / hands won"),
    "dealin": (
        "deal-in rate",
        "hands in which the player's discard (or robbed kong) was won on (放铳) / hands played",
    ),
    "drawn": ("drawn-hand rate", "hands ending in an exhaustive draw (荒庄) / hands played"),
    "points": (
        "points won / lost per hand",
        "the mean of max(Δ, 0) and of max(−Δ, 0) over the hands played, Δ being the "
        "points the seat gained in the hand as the rules compute them",
    ),
    "wilson": (
        "95% interval",
        "for a proportion the Wilson score interval; for an average mean ± 1.96·sd/√n",
    ),
    "danger": (
        "true danger",
        "the discard completed the hand of an opponent who was ready (听牌), with enough fan to "
        "win — known from the replay, whether or not the opponent took it",
    ),
    "wonon": (
        "dealt in",
        "someone won on the discard (放铳; zipai 放炮 — a win on a flipped card is no deal-in)",
    ),
    "kinds": (
        "discard kinds",
        "mahjong: honors (字牌) by how many other copies the discarder could see (own hand, "
        "discards, exposed melds: 0-3); terminals 1 and 9; 2 or 8; 3 to 7. Zipai: small (小, "
        "一…十) or big (大, 壹…拾) cards, red (二七十 / 贰柒拾) or black",
    ),
    "turns": (
        "turn buckets",
        "the discarder's own discard count in the hand (巡): 1-3, 4-6, 7-9, 10-12, 13+",
    ),
    "open": (
        "visibly open hand",
        "the winner had at least one exposed meld when the tile was discarded",
    ),
    "share": (
        "share of wins",
        "wins containing the fan (番种; zipai: the 名堂) / wins of the variant",
    ),
    "totals": (
        "win total",
        "what the variant pays on, as the rules compute it: MCR fan (flowers included), zipai "
        "胡息 (xi), …; shown per variant, never added across variants",
    ),
    "sources": (
        "how hands are won",
        "self-draw (自摸; zipai: on one's own flip), on a discard (点炮 / 放炮), robbing a kong "
        "(抢杠), zipai on a card another seat flipped (not a deal-in)",
    ),
    "missed": (
        "missed win",
        "a legal win (enough fan) that the player passed over: a discard not claimed, a "
        "self-drawn tile not declared",
    ),
}

#: Rows of a long per-player list shown on a page (the queries' $limit).
LIST_LIMIT = 500


def definitions(*keys: str) -> Html:
    items = "".join(
        f"<dt>{esc(DEFINITIONS[k][0])}</dt><dd>{esc(DEFINITIONS[k][1])}</dd>" for k in keys
    )
    return Html(f'<dl class="definitions">{items}</dl>')


def rate_cell(row: Mapping[str, Any], name: str) -> Html:
    """``40.0% (11.8–76.9)``: a rate with its interval."""
    return Html(
        f"{esc(pct(row[name]))} <span class=ci>"
        f"({esc(interval(row[f'{name}_lo'], row[f'{name}_hi']))})</span>"
    )


def mean_cell(row: Mapping[str, Any], name: str) -> Html:
    """``17.8 (−4.8–40.5)``: an average with its interval."""
    return Html(
        f"{esc(num(row[name]))} <span class=ci>"
        f"({esc(interval(row[f'{name}_lo'], row[f'{name}_hi'], scale=1))})</span>"
    )


def card(value: Any, label: str) -> Html:
    return Html(f'<div class="card"><b>{esc(value)}</b><span>{esc(label)}</span></div>')


def hand_link(root: str, game: str, hand: int, text: Any = None, step: int | None = None) -> Html:
    href = f"{root}hands/{hand_file(game, hand)}" + (f"#step={step}" if step is not None else "")
    return link(href, text if text is not None else f"{game} #{hand}")


def player_link(root: str, player: str, linked: Callable[[str], bool]) -> Html:
    if not linked(player):
        return esc(player)
    return link(f"{root}players/{player_file(player)}", player)


def tile_text(name: str) -> str:
    """A tile as the tables show it: its name (``5p``); a zipai card by its Chinese name too
    (``肆 4d``), as players call them.

    >>> tile_text("5p"), tile_text("4d"), tile_text("10x")
    ('5p', '肆 4d', '十 10x')
    """
    try:
        code = parse_tile(name)
    except TileError:
        return name
    return f"{tile_name_zh(code)} {name}" if code >= ZIPAI_SMALL_FIRST else name


def tile_cell(name: str | None) -> Html:
    """A tile as the tables show it: drawn (SVG, :mod:`paipu.reports.tile_svg`) and named
    (:func:`tile_text`); the page needs :func:`with_tiles` to define the drawings. No tile
    (a recorded-only hand's deal-in or win, from a score sheet) is an empty cell."""
    if name is None:
        return esc(None)
    return Html(f'<span class="tile-label">{tile_html(name)}{esc(tile_text(name))}</span>')


def with_tiles(body: Html) -> Html:
    """``body`` with the SVG sprite of the tiles it draws put before it (none: unchanged).

    >>> with_tiles(Html("<p>x</p>"))
    '<p>x</p>'
    >>> page = with_tiles(tile_cell("1z"))
    >>> page.count('<symbol id="pt-'), 'id="pt-1z"' in page
    (1, True)
    """
    names = sorted(set(re.findall(r'href="#pt-([0-9]+[a-z])"', body)))
    return body if not names else Html(sprite(names) + body)


def when(value: Any) -> str:
    return "–" if value is None else str(value)[:16].replace("T", " ")


# --------------------------------------------------------------------------- overview


@dataclass(frozen=True)
class Filters:
    """What a report was asked to cover, for the page headers."""

    variant: str | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None

    def describe(self) -> str:
        parts = []
        if self.variant:
            parts.append(f"variant {self.variant}")
        if self.player:
            parts.append(f"hands in which {self.player} played")
        if self.since and self.until:
            parts.append(f"hands from {self.since} to {self.until} (hands without a time left out)")
        elif self.since:
            parts.append(f"hands since {self.since} (hands without a time left out)")
        elif self.until:
            parts.append(f"hands until {self.until} (hands without a time left out)")
        return "; ".join(parts) if parts else "all hands in the database"


def overview(
    totals: Mapping[str, Any],
    variants: pl.DataFrame,
    players: pl.DataFrame,
    filters: Filters,
    linked: Callable[[str], bool],
) -> Html:
    first, last = when(totals["first_time"]), when(totals["last_time"])
    dates = "no times recorded" if totals["first_time"] is None else f"{first} → {last}"
    untimed = f"; {totals['untimed']:,} hands without a time" if totals["untimed"] else ""
    parts = [
        tag("p", f"Covers {filters.describe()}.", class_="lead"),
        Html('<div class="cards">'),
        card(f"{totals['hands']:,}", "hands"),
        card(f"{totals['games']:,}", "games"),
        card(f"{totals['players']:,}", "players"),
        card(f"{totals['variants']:,}", "variants"),
        card(f"{totals['mismatched']:,}", "disagree with the rules"),
        card(f"{totals['rejected']:,}", "rejected"),
        Html("</div>"),
        tag("p", f"Dates: {dates}{untimed}."),
        tag("h2", "Pages"),
        Html(
            "<ul>"
            "<li><a href='winrates.html'>Win rates</a>: per player, by seat and dealer, by "
            "variant and over time, with 95% intervals.</li>"
            "<li><a href='fans.html'>Fan frequencies</a>: how often each fan and hand type "
            "wins, win totals, combinations, each player against the population.</li>"
            "<li><a href='dealin.html'>Deal-in risk</a>: danger and deal-ins by discard kind "
            "and turn, by the opponents' exposed melds, per player.</li>"
            "<li><a href='players/index.html'>Player pages</a>: score over time, games, "
            "biggest wins and losses, fan profile, deal-ins, missed wins, replays.</li>"
            "<li><a href='audit.html'>Audit</a>: hands whose record disagrees with the rules, "
            "fan by fan, and the rejected hands with their reasons.</li>"
            "<li><a href='standings.html'>Standings</a> 比赛排名: places, 标准分 and 比赛分 of "
            "every sitting, the competition standings.</li>"
            "<li><a href='rankings.html'>Rankings</a>: per variant, placements and rates with "
            "each player's percentile.</li>"
            "<li><a href='tablemates.html'>Table-mates</a>: who sits with whom, and deal-ins "
            "between pairs against chance.</li>"
            "</ul>"
        ),
        tag("h2", "Variants"),
        table(
            [
                Column("variant"),
                Column("hands", True),
                Column("games", True),
                Column("players", True),
                Column("won", True),
                Column("drawn", True),
                Column("aborted", True),
                Column("ok", True, "the record agrees with the rules"),
                Column("mismatch", True, "the record disagrees with the rules: see the audit"),
                Column("unrecorded", True, "the source recorded no result to compare"),
            ],
            (
                (
                    variant_info(r["variant"]).title,
                    f"{r['hands']:,}",
                    f"{r['games']:,}",
                    f"{r['players']:,}",
                    f"{r['won']:,}",
                    f"{r['drawn']:,}",
                    f"{r['aborted']:,}",
                    f"{r['ok']:,}",
                    f"{r['mismatched']:,}",
                    f"{r['unrecorded']:,}",
                )
                for r in variants.iter_rows(named=True)
            ),
        ),
        figure_html(figures.outcomes(variants), "overview-outcomes"),
        tag("h2", "Players"),
        players_table(players, "", linked, limit=100),
    ]
    if players.height > 100:
        parts.append(
            tag(
                "p",
                f"The {players.height:,} players are all listed on the players page.",
                class_="note",
            )
        )
    return join(parts)


def players_table(
    players: pl.DataFrame, root: str, linked: Callable[[str], bool], limit: int | None = None
) -> Html:
    rows = players if limit is None else players.head(limit)
    return table(
        [
            Column("player"),
            Column("hands", True, "hands played, all variants"),
            Column("games", True, "games played, all variants"),
            Column("variants", note="points are per variant, in its own units: see each page"),
        ],
        (
            (
                player_link(root, r["player"], linked),
                f"{r['hands']:,}",
                f"{r['games']:,}",
                r["variants"],
            )
            for r in rows.iter_rows(named=True)
        ),
    )


def players_index(players: pl.DataFrame, linked: Callable[[str], bool]) -> Html:
    return join(
        [
            tag(
                "p",
                "Every player of the report, most hands first; each name opens the player's page.",
                class_="lead",
            ),
            players_table(players, "../", linked),
        ]
    )


# --------------------------------------------------------------------------- win rates

#: How a win's tile or card came, as the tables say it (``wins.source``).
SOURCES = {
    "self_draw": "self-draw 自摸",
    "discard": "on a discard 点炮",
    "robbing_kong": "robbing a kong 抢杠",
    "flip": "on another seat's flip (zipai)",
}

RATE_COLUMNS = [
    Column("hands", True, "hands played"),
    Column("win rate", True, "hands won / hands played (95% Wilson interval)"),
    Column("self-draw", True, "self-drawn wins / wins"),
    Column("deal-in", True, "hands dealt in / hands played"),
    Column("drawn", True, "exhaustive draws / hands played"),
    Column("won / hand", True, "mean of max(Δ,0), 95% interval"),
    Column("lost / hand", True, "mean of max(−Δ,0), 95% interval"),
]


def _rate_row(r: Mapping[str, Any]) -> list[Any]:
    return [
        f"{r['hands']:,}",
        rate_cell(r, "win_rate"),
        rate_cell(r, "self_draw"),
        rate_cell(r, "deal_in_rate"),
        rate_cell(r, "drawn_rate"),
        mean_cell(r, "won"),
        mean_cell(r, "lost"),
    ]


def winrates(
    players: pl.DataFrame,
    seats: pl.DataFrame,
    variants: pl.DataFrame,
    sources: pl.DataFrame,
    rolling: pl.DataFrame,
    window: int,
    linked: Callable[[str], bool],
) -> Html:
    """The variants compared, then a section per variant: its players' rates against its own
    population, by seat, over time. ``players``, ``seats`` and ``rolling`` have a row per
    variant (``winrates-player-variants``, ``-seat-variants``, ``-rolling-variants``)."""
    parts: list[Any] = [
        definitions("hand", "win", "self", "dealin", "drawn", "points", "wilson"),
        tag(
            "p",
            "Every rate is per variant: a 3-player zipai table and a 4-player mahjong table "
            "have different base rates, and each variant's points are in its own units, so "
            "a player's figures are computed against that variant's hands only and never "
            "added across variants.",
            class_="note",
        ),
        tag("h2", "By variant"),
        table(
            [Column("variant"), *RATE_COLUMNS],
            (
                [
                    link(f"#variant-{slug(r['variant'])}", variant_info(r["variant"]).title),
                    *_rate_row(r),
                ]
                for r in variants.iter_rows(named=True)
            ),
        ),
        figure_html(figures.variant_rates(variants), "winrates-variants"),
        tag("h3", "How hands are won"),
        definitions("sources"),
        table(
            [Column("variant"), Column("won"), Column("wins", True), Column("share", True)],
            (
                (
                    variant_info(r["variant"]).title,
                    SOURCES.get(r["source"], r["source"]),
                    f"{r['wins']:,}",
                    rate_cell(r, "share"),
                )
                for r in sources.iter_rows(named=True)
            ),
        ),
        figure_html(figures.win_sources(sources), "winrates-sources"),
    ]
    for variant in variants["variant"].to_list():
        parts += _variant_rates(
            variant,
            players.filter(pl.col("variant") == variant),
            seats.filter(pl.col("variant") == variant),
            rolling.filter(pl.col("variant") == variant),
            window,
            linked,
        )
    return join(parts)


def _variant_rates(
    variant: str,
    players: pl.DataFrame,
    seats: pl.DataFrame,
    rolling: pl.DataFrame,
    window: int,
    linked: Callable[[str], bool],
) -> list[Any]:
    key = slug(variant)
    parts: list[Any] = [
        tag("h2", variant_info(variant).title, id=f"variant-{key}"),
        tag("h3", "Per player"),
        tag("p", f"Points are {variant} points.", class_="note"),
        table(
            [Column("player"), *RATE_COLUMNS],
            (
                [player_link("", r["player"], linked), *_rate_row(r)]
                for r in players.iter_rows(named=True)
            ),
        ),
        figure_html(figures.player_rates(players), f"winrates-players-{key}"),
        tag("h3", "By seat and dealer"),
        table(
            [Column("seat"), Column("dealer"), *RATE_COLUMNS],
            (
                [r["seat"], "dealer" if r["is_dealer"] else "–", *_rate_row(r)]
                for r in seats.iter_rows(named=True)
            ),
        ),
        figure_html(figures.seat_rates(seats), f"winrates-seats-{key}"),
    ]
    if rolling.height:
        parts += [
            tag("h3", "Over time"),
            tag(
                "p",
                f"Each line is a player's win rate over their last {window} hands of {variant} "
                "(fewer at the start), hand after hand in the order played (by time; hands "
                "without a time after, by game and hand). The players with most hands of the "
                "variant are drawn.",
                class_="note",
            ),
            figure_html(figures.rolling_rates(rolling, window), f"winrates-rolling-{key}"),
        ]
    return parts


# --------------------------------------------------------------------------- fans


def fans(
    frequency: pl.DataFrame,
    totals: pl.DataFrame,
    average: pl.DataFrame,
    combinations: pl.DataFrame,
    profile: pl.DataFrame,
) -> Html:
    """Per variant: how often each fan (番种, 名堂, hand type) wins, the distribution of win
    totals in the variant's own unit, combinations, players against the population."""
    parts: list[Any] = [definitions("share", "totals", "wilson")]
    variants = average["variant"].to_list()
    if not variants:
        parts.append(tag("p", "No wins in this report.", class_="note"))
    for variant in variants:
        parts += _variant_fans(
            variant_info(variant),
            frequency.filter(pl.col("variant") == variant),
            totals.filter(pl.col("variant") == variant),
            average.filter(pl.col("variant") == variant).row(0, named=True),
            combinations.filter(pl.col("variant") == variant),
            profile.filter(pl.col("variant") == variant),
        )
    return with_tiles(join(parts))


def _points(info: Any, points: int) -> str:
    return f"×{points}" if info.fan_points == "multiplier" else str(points)


def _example(r: Mapping[str, Any]) -> Html:
    """The replay link of a fan's example win and its winning tile drawn."""
    if r.get("example_game") is None:
        return esc(None)
    game, hand = r["example_game"], r["example_hand"]
    if r.get("example_tile") is None:  # a recorded-only hand (a score sheet) names no tile
        return hand_link("", game, hand)
    return Html(f"{hand_link('', game, hand)} {tile_cell(r['example_tile'])}")


def _variant_fans(
    info: Any,
    freq: pl.DataFrame,
    totals: pl.DataFrame,
    avg: Mapping[str, Any],
    combos: pl.DataFrame,
    profile: pl.DataFrame,
) -> list[Any]:
    key = slug(info.id)
    word = info.fan_zh
    parts: list[Any] = [
        tag("h2", info.title, id=f"variant-{key}"),
        Html('<div class="cards">'),
        card(f"{avg['wins']:,}", "wins"),
        card(
            num(avg["total"]),
            f"mean {info.total_unit} ({interval(avg['total_lo'], avg['total_hi'], 1)})",
        ),
        card(
            num(avg["points"]),
            f"mean points won ({interval(avg['points_lo'], avg['points_hi'], 1)})",
        ),
        card(f"{avg['plain']:,}", f"wins without any {word}"),
        Html("</div>"),
    ]
    if freq.height:
        parts.append(
            figure_html(figures.fan_frequency(freq, info.id, word), f"fans-frequency-{key}")
        )
    parts += [
        tag("h3", f"Every {word}"),
        table(
            [
                Column(word),
                Column("English"),
                Column(info.fan_points, True, f"{info.fan_points} of one instance"),
                Column("wins with it", True),
                Column("share of wins", True, "95% Wilson interval"),
                Column("first win with it", note="its replay, and the winning tile"),
            ],
            (
                (
                    r["name_zh"],
                    r["name_en"],
                    _points(info, r["points"]),
                    f"{r['with_fan']:,}",
                    rate_cell(r, "share"),
                    _example(r),
                )
                for r in freq.iter_rows(named=True)
            ),
        ),
    ]
    if avg["plain"]:
        share = avg["plain"] / avg["wins"]
        parts.append(
            tag(
                "p",
                f"{avg['plain']:,} of the {avg['wins']:,} wins ({pct(share)}) have no {word}.",
                class_="note",
            )
        )
    parts += [
        tag("h3", f"Win totals ({info.total_unit})"),
        figure_html(figures.win_totals(totals, info.id, info.total_unit), f"fans-totals-{key}"),
        tag("h3", "Most frequent combinations"),
        tag("p", f"The whole set of {word} of a win; flowers left out.", class_="note"),
        table(
            [Column(word), Column("English"), Column("wins", True), Column("share", True)],
            (
                (r["names_zh"], r["names_en"], f"{r['with_combo']:,}", rate_cell(r, "share"))
                for r in combos.iter_rows(named=True)
            ),
        ),
        tag("h3", "Players against the population"),
    ]
    if profile.height:
        parts.append(
            figure_html(
                figures.fan_player_heatmap(profile, info.id, word=word), f"fans-players-{key}"
            )
        )
    else:
        parts.append(tag("p", f"No win of this variant has a {word}.", class_="note"))
    return parts


# --------------------------------------------------------------------------- deal-in


def dealin(
    grid: pl.DataFrame, melds: pl.DataFrame, players: pl.DataFrame, linked: Callable[[str], bool]
) -> Html:
    """Per variant: danger and deal-ins by discard kind and turn, by the opponents' exposed
    melds, and per player (``players`` has a row per variant: ``dealin-player-variants``)."""
    parts: list[Any] = [definitions("danger", "wonon", "kinds", "turns", "open", "wilson")]
    for variant in grid["variant"].unique(maintain_order=True).to_list():
        key = slug(variant)
        part = grid.filter(pl.col("variant") == variant)
        parts += [
            tag("h2", variant_info(variant).title, id=f"variant-{key}"),
            figure_html(figures.dealin_heatmap(grid, variant, "danger"), f"dealin-danger-{key}"),
            figure_html(
                figures.dealin_heatmap(grid, variant, "won_on_rate"), f"dealin-wonon-{key}"
            ),
            table(
                [
                    Column("discard kind"),
                    Column("turns"),
                    Column("discards", True),
                    Column("true danger", True),
                    Column("dealt in", True),
                ],
                (
                    (
                        r["kind"],
                        r["turns"],
                        f"{r['discards']:,}",
                        rate_cell(r, "danger"),
                        rate_cell(r, "won_on_rate"),
                    )
                    for r in part.iter_rows(named=True)
                ),
            ),
            tag("h3", "Against opponents by their exposed melds"),
            tag(
                "p",
                "Each discard is counted once per opponent: the rate is the share of those "
                "discard-opponent pairs in which that opponent won on the tile (or could have).",
                class_="note",
            ),
            figure_html(figures.dealin_melds(melds, variant), f"dealin-melds-{key}"),
            table(
                [
                    Column("opponent's melds"),
                    Column("pairs", True),
                    Column("won on by them", True),
                    Column("completed their hand", True),
                ],
                (
                    (
                        r["melds"],
                        f"{r['pairs']:,}",
                        rate_cell(r, "won_by_rate"),
                        rate_cell(r, "could_win_rate"),
                    )
                    for r in melds.filter(pl.col("variant") == variant).iter_rows(named=True)
                ),
            ),
        ]
        parts += _dealin_players(variant, players.filter(pl.col("variant") == variant), linked)
    return join(parts)


def _dealin_players(
    variant: str, players: pl.DataFrame, linked: Callable[[str], bool]
) -> list[Any]:
    """A variant's players: deal-in rate and danger against the variant's own hands."""
    key = slug(variant)
    return [
        tag("h3", "Per player"),
        figure_html(figures.dealin_players(players), f"dealin-players-{key}"),
        table(
            [
                Column("player"),
                Column("hands", True),
                Column("deal-ins", True),
                Column("deal-in rate", True),
                Column("into open hands", True, "deal-ins whose winner had an exposed meld"),
                Column("dangerous discards", True, "share of the player's discards"),
                Column(f"{variant} points lost / deal-in", True),
            ],
            (
                (
                    player_link("", r["player"], linked),
                    f"{r['hands']:,}",
                    f"{r['deal_ins']:,}",
                    rate_cell(r, "deal_in_rate"),
                    f"{r['into_open']:,}",
                    rate_cell(r, "danger_rate"),
                    mean_cell(r, "lost"),
                )
                for r in players.iter_rows(named=True)
            ),
        ),
    ]


# --------------------------------------------------------------------------- player pages


@dataclass(frozen=True)
class PlayerData:
    """One player's rows of every player query. ``rates`` and ``dealin`` hold a row per
    variant played (``winrates-player-variants``, ``dealin-player-variants``); the frames
    have a ``variant`` column; ``totals`` is the player's ``overview-players`` row (hands and
    games of all variants: the only figures that mean the same in every variant)."""

    player: str
    rates: Sequence[Mapping[str, Any]]
    dealin: Sequence[Mapping[str, Any]]
    cumulative: pl.DataFrame
    games: pl.DataFrame
    extremes: pl.DataFrame
    profile: pl.DataFrame
    deal_ins: pl.DataFrame
    missed: pl.DataFrame
    totals: Mapping[str, Any] | None = None
    #: The player's stored decision review, a row per variant (``review-report-players``).
    review: Sequence[Mapping[str, Any]] = ()


def player_page(data: PlayerData, linked: Callable[[str], bool]) -> Html:
    """The player's hands and games over all variants, then one section per variant played:
    rates against that variant's population, points in its own units, its games, biggest
    wins and losses, fan profile, deal-ins and missed wins."""
    parts: list[Any] = []
    totals = data.totals
    variants = [r["variant"] for r in data.rates]
    if totals is not None:
        parts += [
            Html('<div class="cards">'),
            card(f"{totals['hands']:,}", "hands played, all variants"),
            card(f"{totals['games']:,}", "games, all variants"),
            card(f"{len(variants):,}", "variants played"),
            Html("</div>"),
        ]
    parts += [
        tag("h2", "Variants played"),
        tag(
            "p",
            "Rates are against each variant's own population and points are in each "
            "variant's own units, so they are never added across variants: one section each.",
            class_="note",
        ),
        table(
            [
                Column("variant"),
                Column("hands", True),
                Column("games", True),
                Column("win rate", True),
                Column("deal-in rate", True),
                Column("points", True, "in the variant's own units"),
            ],
            (
                (
                    link(f"#variant-{slug(r['variant'])}", variant_info(r["variant"]).title),
                    f"{r['hands']:,}",
                    f"{_games_of(data.games, r['variant']):,}",
                    rate_cell(r, "win_rate"),
                    rate_cell(r, "deal_in_rate"),
                    f"{signed(r['points'])} {r['variant']} points",
                )
                for r in data.rates
            ),
        ),
        definitions("hand", "win", "dealin", "wilson"),
    ]
    if data.review:
        parts.append(review_section(data.review))
    dealin_by = {r["variant"]: r for r in data.dealin}
    for r in data.rates:
        variant = r["variant"]

        def only(frame: pl.DataFrame, variant: str = variant) -> pl.DataFrame:
            return frame.filter(pl.col("variant") == variant)

        parts.append(
            _player_variant(
                data.player,
                r,
                dealin_by.get(variant),
                only(data.cumulative),
                only(data.games),
                only(data.extremes),
                only(data.profile),
                only(data.deal_ins),
                only(data.missed),
                linked,
            )
        )
    if not data.rates:
        parts.append(tag("p", "No hands in this report.", class_="note"))
    return with_tiles(join(parts))


def _games_of(games: pl.DataFrame, variant: str) -> int:
    part = games.filter(pl.col("variant") == variant)
    return int(part["games_total"].max() or 0) if part.height else 0


def _player_variant(
    player: str,
    r: Mapping[str, Any],
    d: Mapping[str, Any] | None,
    cumulative: pl.DataFrame,
    games: pl.DataFrame,
    extremes: pl.DataFrame,
    profile: pl.DataFrame,
    deal_ins: pl.DataFrame,
    missed: pl.DataFrame,
    linked: Callable[[str], bool],
) -> Html:
    """One variant's section of a player page."""
    root = "../"
    variant = r["variant"]
    info = variant_info(variant)
    key = slug(variant)
    unit = f"{variant} points"
    parts: list[Any] = [
        tag("h2", info.title),
        Html('<div class="cards">'),
        card(f"{r['hands']:,}", "hands played"),
        card(pct(r["win_rate"]), f"win rate ({interval(r['win_rate_lo'], r['win_rate_hi'])})"),
        card(
            pct(r["deal_in_rate"]),
            f"deal-in rate ({interval(r['deal_in_rate_lo'], r['deal_in_rate_hi'])})",
        ),
        card(pct(r["self_draw"]), "of wins self-drawn"),
        card(signed(r["points"]), unit),
        Html("</div>"),
        table([*RATE_COLUMNS], [_rate_row(r)]),
        figure_html(
            figures.cumulative_score(cumulative, player).update_layout(
                title_text=f"{player}: cumulative score in {variant}", yaxis_title=unit
            ),
            f"player-cumulative-{key}",
        ),
        tag("h3", "Games"),
    ]
    total_games = games["games_total"].max() if games.height else 0
    if total_games and total_games > games.height:
        parts.append(
            tag("p", f"The {games.height:,} most recent of {total_games:,} games.", class_="note")
        )
    parts.append(
        table(
            [
                Column("started"),
                Column("game"),
                Column("hands (replays)"),
                Column("wins", True),
                Column("deal-ins", True),
                Column(unit, True),
            ],
            (
                (
                    when(g["started"]),
                    g["game"],
                    join((hand_link(root, g["game"], h, h) for h in g["hands"]), " "),
                    g["wins"],
                    g["deal_ins"],
                    signed(g["points"]),
                )
                for g in games.iter_rows(named=True)
            ),
        )
    )
    parts += [
        tag("h3", "Biggest wins and losses"),
        table(
            [
                Column(""),
                Column("hand"),
                Column("when"),
                Column(unit, True),
                Column("what happened"),
            ],
            (
                (
                    "win" if e["kind"] == "win" else "loss",
                    hand_link(root, e["game"], e["hand"]),
                    when(e["time"]),
                    signed(e["delta"]),
                    e["detail"],
                )
                for e in extremes.iter_rows(named=True)
            ),
        ),
        tag("h3", "Fan profile against the population"),
    ]
    if profile.height:
        parts.append(
            figure_html(figures.player_fans(profile, variant, player), f"player-fans-{key}")
        )
    else:
        parts.append(tag("p", f"No win with a {info.fan_zh} in {variant}.", class_="note"))
    parts.append(tag("h3", "Deal-ins"))
    if d is not None:
        parts.append(
            tag(
                "p",
                f"{d['deal_ins']:,} deal-ins in {d['hands']:,} hands ({pct(d['deal_in_rate'])}); "
                f"{d['into_open']:,} into visibly open hands; "
                f"{num(d['lost'])} {unit} lost per deal-in on average.",
            )
        )
    deal_total = deal_ins["deal_ins_total"].max() if deal_ins.height else 0
    if deal_total and deal_total > deal_ins.height:
        parts.append(
            tag("p", f"The {deal_ins.height:,} most recent of {deal_total:,}.", class_="note")
        )
    parts.append(
        table(
            [
                Column("hand"),
                Column("tile"),
                Column("how"),
                Column("turn", True, "the player's own discards in the hand so far"),
                Column("winner"),
                Column("winner's melds", True, "exposed when the tile was discarded"),
                Column(f"total ({info.total_unit})", True, "the win's total"),
                Column(f"{unit} lost", True),
            ],
            (
                (
                    hand_link(
                        root,
                        x["game"],
                        x["hand"],
                        step=None  # a recorded-only hand has no events to step to
                        if x["win_seq"] is None and x["seq"] is None
                        else (x["win_seq"] if x["seq"] is None else x["seq"]) + 1,
                    ),
                    tile_cell(x["tile"]),
                    "robbed kong" if x["source"] == "robbing_kong" else "discard",
                    x["turn"],
                    player_link(root, x["winner"], linked),
                    x["winner_melds"],
                    x["total"],
                    x["lost"],
                )
                for x in deal_ins.iter_rows(named=True)
            ),
        )
    )
    parts += [
        tag("h3", "Missed wins"),
        definitions("missed"),
        table(
            [
                Column("hand"),
                Column("tile"),
                Column("from"),
                Column(f"would have scored ({info.total_unit})", True),
            ],
            (
                (
                    hand_link(
                        root,
                        m["game"],
                        m["hand"],
                        f"{m['game']} #{m['hand']} step {m['seq'] + 1}",
                        m["seq"] + 1,
                    ),
                    tile_cell(m["tile"]),
                    "self-draw" if m["from_seat"] is None else m["from_player"],
                    m["total"],
                )
                for m in missed.iter_rows(named=True)
            ),
        ),
    ]
    return Html(
        f'<section class="variant" id="variant-{key}" data-variant="{esc(variant)}">'
        f"{join(parts)}</section>"
    )


# --------------------------------------------------------------------------- audit


def audit(
    mismatches: pl.DataFrame,
    computed: pl.DataFrame,
    rejects: pl.DataFrame,
    fan_names: Callable[[str, str], tuple[str, str]],
) -> Html:
    """Every mismatched hand, recorded against computed fan by fan, and the rejects."""
    parts: list[Any] = [
        tag(
            "p",
            "A hand is a mismatch when the result its source recorded (fans, totals, point "
            "transfers) differs from what the rules compute from its moves; a rejected hand "
            "breaks a rule (the event and the rule are named) and is left out of every other "
            "page.",
            class_="lead",
        ),
        tag("h2", "Hands that disagree with the rules"),
    ]
    total = mismatches["mismatches_total"].max() if mismatches.height else 0
    if not mismatches.height:
        parts.append(tag("p", "None: every recorded hand agrees with the rules.", class_="note"))
    elif total > mismatches.height:
        parts.append(tag("p", f"The first {mismatches.height:,} of {total:,}.", class_="note"))
    by_hand: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in computed.iter_rows(named=True):
        by_hand.setdefault((row["game"], row["hand"]), []).append(row)
    for m in mismatches.iter_rows(named=True):
        parts.append(_audit_hand(m, by_hand.get((m["game"], m["hand"]), []), fan_names))
    parts.append(tag("h2", "Rejected hands"))
    parts.append(
        tag(
            "p",
            "Filtered by variant and player where the reject names them; a hand rejected "
            "before its variant or players could be read is listed under every filter.",
            class_="note",
        )
    )
    rtotal = rejects["rejects_total"].max() if rejects.height else 0
    if rtotal and rtotal > rejects.height:
        parts.append(tag("p", f"The first {rejects.height:,} of {rtotal:,}.", class_="note"))
    parts.append(
        table(
            [
                Column("file"),
                Column("line", True),
                Column("game"),
                Column("hand", True),
                Column("variant"),
                Column("players"),
                Column("event", True),
                Column("reason"),
            ],
            (
                (
                    r["source"],
                    r["line"],
                    r["game"],
                    r["hand"],
                    r["variant"],
                    None if r["players"] is None else ", ".join(r["players"]),
                    r["event_index"],
                    r["reason"],
                )
                for r in rejects.iter_rows(named=True)
            ),
        )
    )
    return with_tiles(join(parts))


def _audit_hand(
    m: Mapping[str, Any],
    computed: Sequence[Mapping[str, Any]],
    fan_names: Callable[[str, str], tuple[str, str]],
) -> Html:
    players = m["players"]
    recorded = json.loads(m["recorded"]) if m["recorded"] else {}
    head = tag(
        "h3",
        Html(f"{hand_link('', m['game'], m['hand'])} · {esc(m['variant'])}"),
        id=f"hand-{slug(m['game'])}-{m['hand']}",
    )
    where = f"{m['source_file']}:{m['source_line']} ({m['source_format']})" + (
        f", {when(m['time'])}" if m["time"] else ""
    )
    parts: list[Any] = [head, tag("p", where, class_="note")]
    parts.append(
        Html("<ul class=problems>" + "".join(f"<li>{esc(p)}</li>" for p in m["problems"]) + "</ul>")
    )
    wins_rec = {w.get("seat"): w for w in recorded.get("wins", [])}
    wins_cmp: dict[int, list[Mapping[str, Any]]] = {}
    for row in computed:
        wins_cmp.setdefault(row["seat"], []).append(row)
    for seat in sorted(set(wins_rec) | set(wins_cmp), key=lambda s: (s is None, s)):
        rec = wins_rec.get(seat, {})
        cmp_rows = wins_cmp.get(seat, [])
        cmp_fans = {r["fan"]: r for r in cmp_rows if r["fan"] is not None}
        rec_fans = {f[0]: f for f in rec.get("fans", []) if isinstance(f, list) and len(f) == 3}
        ids = list(cmp_fans) + [f for f in rec_fans if f not in cmp_fans]
        rows = []
        for fan in ids:
            c = cmp_fans.get(fan)
            r = rec_fans.get(fan)
            zh, en = (c["name_zh"], c["name_en"]) if c is not None else fan_names(m["variant"], fan)
            rec_text = f"{r[1]} × {r[2]}" if r is not None else "–"
            cmp_text = f"{c['fan_points']} × {c['count']}" if c is not None else "–"
            same = (
                r is not None and c is not None and r[1] == c["fan_points"] and r[2] == c["count"]
            )
            rows.append((zh, en, rec_text, cmp_text, "" if same else "✗"))
        rec_total = rec.get("total")
        cmp_total = cmp_rows[0]["total"] if cmp_rows else None
        rows.append(
            (
                Html("<b>total</b>"),
                "",
                esc(rec_total),
                esc(cmp_total),
                "" if rec_total == cmp_total else "✗",
            )
        )
        who = players[seat] if isinstance(seat, int) and seat < len(players) else f"seat {seat}"
        won_on = cmp_rows[0]["tile"] if cmp_rows else rec.get("tile")
        caption: Any = f"win of {who} (seat {seat})"
        if isinstance(won_on, str):
            caption = Html(f"{esc(caption)} on {tile_cell(won_on)}")
        parts.append(
            table(
                [
                    Column(variant_info(m["variant"]).fan_zh),
                    Column("English"),
                    Column("recorded", True),
                    Column("computed", True),
                    Column("differs"),
                ],
                rows,
                caption=caption,
            )
        )
    deltas, recorded_deltas = m["deltas"] or [], m["recorded_deltas"] or []
    parts.append(
        table(
            [
                Column("seat"),
                Column("player"),
                Column("recorded Δ", True),
                Column("computed Δ", True),
                Column("differs"),
            ],
            (
                (
                    i,
                    players[i] if i < len(players) else "",
                    signed(recorded_deltas[i] if i < len(recorded_deltas) else None),
                    signed(d),
                    "" if i < len(recorded_deltas) and recorded_deltas[i] == d else "✗",
                )
                for i, d in enumerate(deltas)
            ),
            caption="points by seat",
        )
    )
    return join(parts)
