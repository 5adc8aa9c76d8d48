"""The table-mates page (``tablemates.html``, for clubs): each player's most frequent
table-mates, and per variant the pairs whose deal-ins into each other stand out against
what their overall rates predict — the signal a club looks at for collusion. From the
``table-mates`` and ``pair-dealins`` queries (``sql/reports/tablemates.sql``); the model and
the test are in docs/reports.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from paipu.reports.html import Column, Html, esc, join, num, pct, table, tag
from paipu.reports.pages import player_link
from paipu.reports.standings import terms
from paipu.reports.variants import variant_info

#: Pairs listed per variant (the most significant first).
PAIRS_LIMIT = 100

TERMS = (
    (
        "table-mates",
        "players who sat at the same table: hands and games shared, in any variant (counts only)",
    ),
    ("deal-ins A → B", "hands in which B won on A's discard or robbed kong (放铳 to B)"),
    (
        "expected",
        "what A's and B's overall rates in the variant predict: over the hands they "
        "shared, the sum of d_A · r_B / Σr, d_A = A's deal-in rate, r_B = B's rate of winning on "
        "a discard, Σr = that rate summed over A's opponents at the hand (A's deal-ins shared "
        "out among who sat there, in proportion to how often each wins on discards)",
    ),
    (
        "p",
        "P(X ≥ deal-ins) for X ~ Poisson(expected): how often chance alone gives this many "
        "or more (one-sided: feeding a partner means more deal-ins, not fewer); Bonferroni = p × "
        "the pairs tested (capped at 1), the one to read when scanning every pair. A small p "
        "is a reason to look at the hands, not a proof: strong players are also dealt into more",
    ),
)


def page(
    mates: pl.DataFrame,
    pairs: pl.DataFrame,
    min_hands: int,
    linked: Callable[[str], bool],
) -> Html:
    parts: list[Any] = [
        tag(
            "p",
            "Who sits with whom, and whether anyone deals in to one player more than chance "
            f"explains. Pairs are tested when they shared at least {min_hands} hands; hands "
            "with one name at several seats are left out.",
            class_="lead",
        ),
        terms(TERMS),
    ]
    for variant in pairs["variant"].unique(maintain_order=True).to_list():
        rows = pairs.filter(pl.col("variant") == variant)
        tested = rows["pairs_tested"].max()
        parts.append(tag("h2", f"{variant_info(variant).title}: deal-ins between pairs"))
        note = f"{tested:,} ordered pairs tested"
        if rows.height > PAIRS_LIMIT:
            note += f"; the {PAIRS_LIMIT} with the smallest p are listed"
        parts.append(tag("p", note + ".", class_="note"))
        parts.append(_pairs(rows.head(PAIRS_LIMIT), linked))
    if not pairs.height:
        parts.append(tag("p", f"No pair shared {min_hands} hands in this report.", class_="note"))
    parts.append(tag("h2", "Most frequent table-mates"))
    by_player = mates.partition_by("player", maintain_order=True) if mates.height else []
    parts.append(
        table(
            [Column("player"), Column("table-mates: hands (games) together, most first")],
            (
                (
                    player_link("", group["player"][0], linked),
                    join(
                        (
                            Html(
                                f"{player_link('', m['mate'], linked)} {m['hands']:,} "
                                f"<span class=ci>({m['games']:,})</span>"
                            )
                            for m in group.iter_rows(named=True)
                        ),
                        " · ",
                    ),
                )
                for group in by_player
            ),
        )
    )
    return join(parts)


def _pairs(rows: pl.DataFrame, linked: Callable[[str], bool]) -> Html:
    return table(
        [
            Column("dealt in"),
            Column("to"),
            Column("hands together", True),
            Column("deal-ins", True),
            Column("expected", True),
            Column("ratio", True, "deal-ins / expected"),
            Column("rate", True, "deal-ins per shared hand (expected rate)"),
            Column("p", True, "one-sided Poisson test"),
            Column("p Bonferroni", True, "p × pairs tested, at most 1"),
        ],
        (
            (
                player_link("", r["discarder"], linked),
                player_link("", r["winner"], linked),
                f"{r['hands']:,}",
                r["deal_ins"],
                num(r["expected"], 2),
                num(r["ratio"], 2),
                Html(
                    f"{esc(pct(r['rate']))} <span class=ci>({esc(pct(r['expected_rate']))})</span>"
                ),
                _p(r["p_value"]),
                _p(r["p_bonferroni"]),
            )
            for r in rows.iter_rows(named=True)
        ),
    )


def _p(value: float) -> str:
    """A p-value: three decimals, or scientific when small.

    >>> _p(0.39066), _p(0.000364), _p(1.0)
    ('0.391', '3.6e-04', '1.000')
    """
    return f"{value:.1e}" if value < 0.001 else f"{value:.3f}"
