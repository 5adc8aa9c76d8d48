"""The decision review on a player page (复盘摘要): per variant, the share of discards that
were the most efficient, the average loss, the danger taken and the avoidable deal-ins,
from the rows ``paipu review --save`` stored (query ``review-report-players``); a player
whose discards were never saved has no such section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from paipu.reports.html import Column, Html, join, table, tag
from paipu.reports.variants import variant_info


def _share(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _mean(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _count(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def review_section(rows: Sequence[Mapping[str, Any]]) -> Html:
    """The player's stored review, one row per variant (``rows``: the player's rows of
    ``review-report-players``)."""
    parts: list[Any] = [tag("h2", "Decision review (复盘)", id="decision-review")]
    parts += [
        tag(
            "p",
            "Every reviewed discard against the most efficient one of that moment (牌效: "
            "shanten, then live useful tiles), and the danger it took; per variant, as "
            "`paipu review` prints it (docs/reports.md, \u201cDecision review\u201d). Zipai "
            "has no efficiency measure: its discards show only the danger.",
            class_="note",
        ),
        table(
            [
                Column("variant"),
                Column("discards", True),
                Column("most efficient", True, "share of discards as efficient as the best"),
                Column("avg loss", True, "live useful tiles given up per discard"),
                Column("danger", True, "share that completed a ready opponent's hand"),
                Column("vs ready", True, "danger among discards made while one was ready"),
                Column("dealt in", True, "discards won on (放铳)"),
                Column("avoidable", True, "deal-ins a safe discard would have avoided"),
            ],
            (
                (
                    variant_info(r["variant"]).title,
                    _count(r["discards"]),
                    _share(r["efficient"]),
                    _mean(r["avg_loss"]),
                    _share(r["dangerous"]),
                    _share(r["danger_when_exposed"]),
                    _count(r["deal_ins"]),
                    _count(r["avoidable"]),
                )
                for r in rows
            ),
            id_="review-summary",
        ),
    ]
    return join(parts)
