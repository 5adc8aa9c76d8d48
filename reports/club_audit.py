"""The clubs' audit pages: recorded-only hands (score sheets, 国标小助手 records), sitting by
sitting, for a referee.

``clubs/index.html`` lists the sittings; ``clubs/<sitting>.html`` shows every disputed hand
of one sitting, the claim against the rules' answer fan by fan, the deltas, the running
totals, and the clean hands in one line, styled to print on one sheet (A4) that a referee
can hand over. A recorded-only hand has no events to replay, so its page under ``hands/``
(where every link to a hand leads) is its dispute block, saying so. The rules' answer is
worked out again from each hand's stored record by :mod:`paipu.pipeline.sheet_audit`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import polars as pl

from paipu.pipeline.sheet_audit import RecordedVerdict, Sittings, audit_recorded
from paipu.reports.html import Column, Html, esc, join, link, signed, slug, table, tag
from paipu.rules.record import HandRecord, RecordError
from paipu.rules.variants import VariantError, get_variant

#: The folder of the clubs' pages inside a report.
FOLDER = "clubs"
PRINT_CSS = """
<style>
.dispute { border-top: 1px solid #999; margin-top: .8em; }
.dispute h3 { margin: .4em 0 .1em; }
.dispute .note { margin: 0 0 .2em; }
.findings { margin: .2em 0; }
.findings li { margin: .1em 0; }
.tables { display: flex; flex-wrap: wrap; gap: 0 1.5em; align-items: flex-start; }
.differs { color: #b00; font-weight: bold; }
@media print {
  nav, footer, .screen-only { display: none !important; }
  body, main { font-size: 7.5pt; margin: 0; padding: 0; max-width: none; }
  h1 { font-size: 11pt; margin: 0 0 .2em; }
  h2 { font-size: 9pt; margin: .5em 0 .2em; }
  .dispute h3 { font-size: 8.5pt; }
  .lead { font-size: 8pt; margin: 0 0 .2em; }
  table { font-size: 7pt; margin: .1em 0; page-break-inside: avoid; }
  th, td { padding: 0 .35em; }
  caption { font-size: 7pt; }
  .disputes { columns: 2; column-gap: 5mm; }
  .dispute { break-inside: avoid; page-break-inside: avoid; margin-top: .3em; }
  .dispute .tables { display: block; }
  @page { size: A4; margin: 8mm; }
}
</style>
"""


@dataclass
class ClubHand:
    """One recorded-only hand of the report and the rules' answer to it."""

    row: Mapping[str, Any]
    record: HandRecord | None
    verdict: RecordedVerdict | None

    @property
    def status(self) -> str:
        return self.verdict.status if self.verdict is not None else str(self.row["verdict"])


@dataclass
class Sitting:
    """The recorded-only hands of one sitting (game), in hand order."""

    game: str
    variant: str
    players: tuple[str, ...]
    hands: list[ClubHand] = field(default_factory=list)

    @property
    def file(self) -> str:
        return f"{slug(self.game)}.html"

    def counts(self) -> dict[str, int]:
        out = {"ok": 0, "mismatch": 0, "invalid": 0}
        for hand in self.hands:
            out[hand.status] = out.get(hand.status, 0) + 1
        return out


def sittings_of(hands: pl.DataFrame) -> list[Sitting]:
    """The rows of ``clubs-hands`` as sittings, each hand audited again from its record."""
    out: dict[str, Sitting] = {}
    checks = Sittings()
    for row in hands.iter_rows(named=True):
        game = row["game"]
        if game not in out:
            out[game] = Sitting(game, row["variant"], tuple(row["players"]))
        try:
            record = HandRecord.from_json(json.loads(row["record"]))
            verdict = audit_recorded(record, checks)
        except (RecordError, ValueError, TypeError):
            record, verdict = None, None
        out[game].hands.append(ClubHand(row, record, verdict))
    return list(out.values())


def clubs_index(sittings: Sequence[Sitting]) -> Html:
    """``clubs/index.html``: every sitting of recorded-only hands, with its counts."""
    parts: list[Any] = [
        tag(
            "p",
            "Hands a club wrote down (score sheets, 国标小助手 records) have no events: each "
            "is audited from its claim, against the rules, and every disputed hand is listed "
            "on its sitting's page, printable for the table. See docs/clubs.md.",
            class_="lead",
        )
    ]
    rows = []
    for s in sittings:
        counts = s.counts()
        rows.append(
            (
                link(s.file, s.game),
                s.variant,
                ", ".join(s.players),
                len(s.hands),
                counts["ok"],
                counts["mismatch"],
                counts["invalid"],
            )
        )
    parts.append(
        table(
            [
                Column("sitting 场次"),
                Column("variant"),
                Column("players"),
                Column("hands", True),
                Column("ok", True),
                Column("mismatch", True),
                Column("invalid", True),
            ],
            rows,
        )
    )
    return join(parts)


def sitting_page(sitting: Sitting, hand_href: Callable[[str, int], str]) -> Html:
    """One sitting: its disputed hands in full, the clean ones in one line, the totals."""
    counts = sitting.counts()
    disputed = [h for h in sitting.hands if h.status != "ok"]
    clean = [h for h in sitting.hands if h.status == "ok"]
    time = next((h.row["time"] for h in sitting.hands if h.row["time"] is not None), None)
    parts: list[Any] = [
        Html(PRINT_CSS),
        tag(
            "p",
            f"{_variant_name(sitting.variant)} · {', '.join(sitting.players)}"
            + (f" · {time:%Y-%m-%d}" if time is not None else "")
            + f" · {len(sitting.hands)} hands: {counts['ok']} ok, {counts['mismatch']} "
            f"mismatch, {counts['invalid']} invalid",
            class_="lead",
        ),
        tag("p", link("index.html", "← all sittings"), class_="screen-only"),
        tag(
            "p",
            Html(
                "<b>Clean 无误:</b> "
                + (
                    esc(
                        f"hands {', '.join(str(h.row['hand']) for h in clean)} "
                        f"({len(clean)} of {len(sitting.hands)}) agree with the rules."
                    )
                    if clean
                    else "none."
                )
            ),
        ),
    ]
    if not disputed:
        parts.append(tag("p", "No hand of this sitting is disputed.", class_="note"))
    parts.append(
        tag("div", join(dispute(sitting, hand, hand_href) for hand in disputed), class_="disputes")
    )
    parts.append(_totals(sitting))
    return join(parts)


def dispute(sitting: Sitting, hand: ClubHand, hand_href: Callable[[str, int], str]) -> Html:
    """One disputed (or, on its own page, any) hand: findings, fans, deltas."""
    row = hand.row
    players = sitting.players
    result = hand.record.result if hand.record is not None else None
    number = row["hand"]
    title = link(hand_href(row["game"], number), f"hand {number}")
    head = tag("h3", Html(f"{title} · {esc(hand.status)}"), id=f"hand-{number}")
    facts = hand.record.source.get("recorded", {}) if hand.record and hand.record.source else {}
    # the file's name and line, its full path on hover: a long path would wrap and push the
    # referee's sheet onto a second page
    path = str(row["source_file"] or "")
    where = tag(
        "span",
        f"{PurePath(path).name}:{row['source_line']} ({row['source_format']})",
        title=path,
    )
    dealer = players[row["dealer"]] if row["dealer"] < len(players) else row["dealer"]
    lines = [esc(f"dealer 庄 {dealer}"), where]
    if facts.get("note"):
        lines.append(esc(f"note: {facts['note']}"))
    parts: list[Any] = [head, tag("p", Html(" · ".join(map(str, lines))), class_="note")]
    problems = hand.verdict.problems if hand.verdict is not None else tuple(row["problems"] or ())
    if problems:
        parts.append(
            Html("<ul class=findings>" + "".join(f"<li>{esc(p)}</li>" for p in problems) + "</ul>")
        )
    computed = hand.verdict.computed if hand.verdict is not None else {}
    rules_wins = list(computed.get("wins", []))
    tables = []
    for i, win in enumerate(result.wins if result is not None else ()):
        answer = rules_wins[i] if i < len(rules_wins) else {}
        tables.append(_fan_table(sitting.variant, players, win, answer))
    tables.append(_deltas_table(players, result, facts, computed))
    parts.append(tag("div", join(tables), class_="tables"))
    return tag("section", join(parts), class_="dispute")


def recorded_hand_page(sitting: Sitting, hand: ClubHand, root: str) -> Html:
    """The page of a recorded-only hand under ``hands/``: no replay, its audit instead."""
    parts: list[Any] = [
        Html(PRINT_CSS),
        tag(
            "p",
            "Recorded only: this hand was written down (a score sheet or a 国标小助手 "
            "record), so there are no events to replay. Its claim against the rules:",
            class_="lead",
        ),
        tag(
            "p",
            link(f"{root}{FOLDER}/{sitting.file}", f"sitting {sitting.game}"),
            class_="screen-only",
        ),
        dispute(sitting, hand, lambda game, number: f"{slug(game)}-{number}.html"),
    ]
    return join(parts)


def events_note(recorded: int, what: str) -> Html:
    """The line a page whose analytics need events shows when recorded-only hands exist."""
    if not recorded:
        return Html("")
    return tag(
        "p",
        f"{recorded:,} recorded-only hand{'s' if recorded != 1 else ''} (score sheets, "
        f"国标小助手) {'have' if recorded != 1 else 'has'} no events and "
        f"{'are' if recorded != 1 else 'is'} left out of {what}; win rates, fan "
        "frequencies and player pages include them.",
        class_="note",
    )


def _fan_table(variant: str, players: Sequence[str], win: Any, answer: Mapping[str, Any]) -> Html:
    fans = get_variant(variant).spec.fans.by_id
    claimed = {f.id: f for f in win.fans}
    rules = {f[0]: f for f in answer.get("fans", [])}
    ids = list(claimed) + [f for f in rules if f not in claimed]
    rows = []
    for fan_id in ids:
        c, r = claimed.get(fan_id), rules.get(fan_id)
        fan = fans.get(fan_id)
        same = c is not None and r is not None and (c.points, c.count) == (r[1], r[2])
        rows.append(
            (
                fan.name_zh if fan is not None else fan_id,
                fan.name_en if fan is not None else fan_id,
                f"{c.points} × {c.count}" if c is not None else "–",
                f"{r[1]} × {r[2]}" if r is not None else "–",
                "" if same else Html("<span class=differs>✗</span>"),
            )
        )
    total = answer.get("total")
    rows.append(
        (
            Html("<b>合计 total</b>"),
            "",
            esc(win.total),
            esc(total),
            "" if win.total == total else Html("<span class=differs>✗</span>"),
        )
    )
    who = players[win.seat] if win.seat < len(players) else f"seat {win.seat}"
    how = "self-drawn 自摸" if win.from_seat is None else f"from 点炮 {players[win.from_seat]}"
    basis = "the tiles 按牌" if answer.get("tiles") else "the fan table 按番表 (no tiles)"
    return table(
        [
            Column("番种"),
            Column("Fan"),
            Column("claimed 记录", True),
            Column("rules 规则", True),
            Column(""),
        ],
        rows,
        caption=f"{who} wins, {how} · rules' answer from {basis}",
    )


def _deltas_table(
    players: Sequence[str],
    result: Any,
    facts: Mapping[str, Any],
    computed: Mapping[str, Any],
) -> Html:
    recorded = list(result.deltas or ()) if result is not None else []
    rules = computed.get("deltas")
    penalties = facts.get("penalties") or [None] * len(players)
    running = computed.get("running") or [None] * len(players)
    rows = []
    for seat, player in enumerate(players):
        rec = recorded[seat] if seat < len(recorded) else None
        exp = rules[seat] if rules is not None else None
        rows.append(
            (
                player,
                signed(rec),
                signed(exp),
                signed(penalties[seat]),
                signed(running[seat]),
                "" if rules is None or rec == exp else Html("<span class=differs>✗</span>"),
            )
        )
    return table(
        [
            Column("player"),
            Column("claimed Δ 得失", True),
            Column("rules Δ 规则", True),
            Column("penalty 罚分", True),
            Column("running 累计", True),
            Column(""),
        ],
        rows,
    )


def _totals(sitting: Sitting) -> Html:
    """The sheet of the sitting: each hand's deltas and the running totals."""
    totals = [0] * len(sitting.players)
    rows = []
    for hand in sitting.hands:
        result = hand.record.result if hand.record is not None else None
        deltas = list(result.deltas or ()) if result is not None else []
        if len(deltas) == len(totals):
            totals = [t + d for t, d in zip(totals, deltas, strict=True)]
        rows.append(
            (
                hand.row["hand"],
                hand.status,
                *(signed(d) for d in (deltas or [None] * len(totals))),
            )
        )
    rows.append((Html("<b>累计</b>"), "", *(Html(f"<b>{signed(t)}</b>") for t in totals)))
    return join(
        [
            tag("h2", "Score sheet 记分表"),
            table(
                [
                    Column("hand", True),
                    Column("audit"),
                    *(Column(p, True) for p in sitting.players),
                ],
                rows,
            ),
        ]
    )


def _variant_name(variant: str) -> str:
    try:
        spec = get_variant(variant).spec
    except VariantError:
        return variant
    return f"{spec.name_zh} {spec.name_en}"
