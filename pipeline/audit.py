"""Audit: replay records without a database and say, hand by hand, whether each agrees
with the rules (``ok``), disagrees with its record (``mismatch``, fan by fan) or breaks a
rule (``invalid``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paipu.parsers import Parsed, Rejected, parse_any
from paipu.parsers.recorded import is_recorded, recorded_facts, unplayed
from paipu.pipeline.ingest import expand
from paipu.pipeline.sheet_audit import Sittings, audit_recorded
from paipu.rules.replay import HandOutcome, RuleViolation, replay
from paipu.rules.tiles import tile_name


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """The verdict on one hand (or on a piece of a file that is not a hand)."""

    status: str  # ok | mismatch | invalid
    source: str
    line: int
    game: str | None
    hand: int | None
    variant: str | None
    problems: tuple[str, ...]
    recorded: dict[str, Any] | None = None
    computed: dict[str, Any] | None = None
    findings: tuple[dict[str, str], ...] = ()  # recorded-only hands: kind, status, zh, en

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "hand": self.hand,
            "variant": self.variant,
            "status": self.status,
            "recorded": self.recorded,
            "computed": self.computed,
            "problems": list(self.problems),
            **({"findings": list(self.findings)} if self.findings else {}),
            "source": self.source,
            "line": self.line,
        }


def computed_json(outcome: HandOutcome) -> dict[str, Any]:
    """The computed result in the shape of a paipu ``result``."""
    wins = []
    for win in outcome.wins:
        entry: dict[str, Any] = {"seat": win.seat}
        if win.from_seat is not None:
            entry["from"] = win.from_seat
        entry.update(
            {
                "tile": tile_name(win.tile),
                "total": win.total,
                "fans": [[f.id, f.points, f.count] for f in win.fans],
            }
        )
        wins.append(entry)
    out: dict[str, Any] = {"outcome": outcome.outcome}
    if wins:
        out["wins"] = wins
    out["deltas"] = list(outcome.deltas)
    return out


def audit_parsed(item: Parsed | Rejected, sittings: Sittings | None = None) -> AuditEntry:
    """The verdict on one parsed hand; ``sittings`` carries what the audit of recorded-only
    hands (score sheets, 国标小助手) checks across a sitting."""
    if isinstance(item, Parsed) and is_recorded(item.record):
        return audit_recorded_entry(item, sittings)
    if isinstance(item, Rejected):
        return AuditEntry(
            "invalid",
            item.path,
            item.line,
            item.game,
            item.hand,
            None,
            (_with_event(item.reason, item.event_index),),
        )
    record = item.record
    recorded = record.result.to_json() if record.result is not None else None
    try:
        outcome = replay(record)
    except RuleViolation as exc:
        return AuditEntry(
            "invalid",
            item.path,
            item.line,
            record.game,
            record.hand,
            record.variant,
            (exc.describe(),),
            recorded,
        )
    status = "mismatch" if outcome.problems else "ok"
    return AuditEntry(
        status,
        item.path,
        item.line,
        record.game,
        record.hand,
        record.variant,
        outcome.problems,
        recorded,
        computed_json(outcome),
    )


def audit_recorded_entry(item: Parsed, sittings: Sittings | None = None) -> AuditEntry:
    """The verdict on a recorded-only hand (:mod:`paipu.pipeline.sheet_audit`)."""
    record = item.record
    verdict = audit_recorded(record, sittings)
    recorded = record.result.to_json() if record.result is not None else None
    penalties = recorded_facts(record).get("penalties")
    if recorded is not None and penalties:
        recorded["penalties"] = list(penalties)
    return AuditEntry(
        verdict.status,
        item.path,
        item.line,
        record.game,
        record.hand,
        record.variant,
        verdict.problems,
        recorded,
        verdict.computed,
        findings=tuple(f.to_json() for f in verdict.findings),
    )


def _with_event(reason: str, index: int | None) -> str:
    return reason if index is None or reason.startswith("event") else f"event {index}: {reason}"


def audit(paths: Iterable[Path]) -> Iterator[AuditEntry]:
    """Audit every hand of every file under ``paths``, streaming."""
    for path in expand(paths):
        name = os.path.normpath(str(path))
        sittings = Sittings()
        for item in parse_any(path):
            if isinstance(item, Parsed) and is_recorded(item.record) and unplayed(item.record):
                continue  # 国标小助手's timeouts after a forced end: never played, no dispute
            parsed = Parsed(item.record, name, item.line) if isinstance(item, Parsed) else item
            yield audit_parsed(parsed, sittings)
