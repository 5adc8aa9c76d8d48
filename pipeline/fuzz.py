"""A seeded event-level fuzzer of paipu logs (模糊测试), for the tests and ``benchmarks/fuzz.py``.

:func:`mutate` changes one thing in a valid hand: it drops, duplicates or swaps events,
moves an event to another seat, changes an event's tile, truncates the line, or changes
what the record says (a fan's points, count or id, a win's total, a seat's delta).
:func:`fuzz` runs many such mutants through the ingest's own worker
(:func:`~paipu.pipeline.ingest.process`: parse, replay, rows, Arrow) and checks the laws:

* no mutant reaches an unexpected error (a traceback, caught by the ingest's safety net);
* every mutant is loaded or rejected, a rejection naming its line, and its event when the
  line could be read;
* a changed fan, total or delta loads as a ``mismatch``: never silently ``ok``;
* every intact hand loads.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paipu.pipeline.ingest import INTERNAL_ERROR, Task, process_in_memory

#: The mutations, in the order :func:`mutate` picks among them.
MUTATIONS = ("drop", "duplicate", "swap", "seat", "tile", "truncate", "fan", "delta")
#: Mutations of what the record says (not of the play): the hand replays as before, so the
#: audit must report the difference.
RECORD_MUTATIONS = frozenset({"fan", "delta"})


@dataclass(frozen=True, slots=True)
class Mutant:
    """A mutated hand: its line, what was changed and where."""

    line: str
    kind: str
    event: int | None  # the event changed, when one was
    note: str


@dataclass
class FuzzReport:
    """What :func:`fuzz` found; ``failures`` lists every broken law, in words."""

    variant: str
    intact: int = 0
    mutants: int = 0
    loaded: int = 0
    rejected: int = 0
    mismatched: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    tracebacks: list[str] = field(default_factory=list)
    unnamed: list[str] = field(default_factory=list)
    silent: list[str] = field(default_factory=list)
    intact_failed: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        return [*self.tracebacks, *self.unnamed, *self.silent, *self.intact_failed]


def _tiles(objects: Iterable[dict[str, Any]]) -> list[str]:
    seen: set[str] = set()
    for obj in objects:
        for hand in obj.get("deal", []):
            seen.update(hand)
        seen.update(obj.get("wall", []))
    return sorted(seen)


def mutate(obj: dict[str, Any], rng: random.Random, tiles: Sequence[str]) -> Mutant:
    """One mutant of the hand ``obj`` (left unchanged); a mutation that does not apply to
    this hand (no recorded fans, say) falls back to another."""
    kinds = list(MUTATIONS)
    rng.shuffle(kinds)
    for kind in kinds:
        out = copy.deepcopy(obj)
        done = _MUTATORS[kind](out, rng, tiles)
        if done is None:
            continue
        event, note = done
        if kind == "truncate":
            text = json.dumps(obj, ensure_ascii=False)
            cut = rng.randrange(1, len(text))
            return Mutant(text[:cut], kind, None, f"cut at {cut} of {len(text)}")
        return Mutant(json.dumps(out, ensure_ascii=False), kind, event, note)
    raise ValueError("no mutation applies to this hand")


def _drop(obj: dict[str, Any], rng: random.Random, _: Sequence[str]) -> tuple[int, str] | None:
    events = obj["events"]
    if not events:
        return None
    i = rng.randrange(len(events))
    return i, f"dropped {events.pop(i)}"


def _duplicate(obj: dict[str, Any], rng: random.Random, _: Sequence[str]) -> tuple[int, str] | None:
    events = obj["events"]
    if not events:
        return None
    i = rng.randrange(len(events))
    events.insert(i + 1, copy.deepcopy(events[i]))
    return i + 1, f"repeated {events[i]}"


def _swap(obj: dict[str, Any], rng: random.Random, _: Sequence[str]) -> tuple[int, str] | None:
    events = obj["events"]
    if len(events) < 2:
        return None
    i = rng.randrange(len(events) - 1)
    events[i], events[i + 1] = events[i + 1], events[i]
    return i, f"swapped events {i} and {i + 1}"


def _seat(obj: dict[str, Any], rng: random.Random, _: Sequence[str]) -> tuple[int, str] | None:
    events = obj["events"]
    seated = [i for i, e in enumerate(events) if len(e) > 1 and isinstance(e[1], int)]
    if not seated:
        return None
    i = rng.choice(seated)
    n = len(obj["players"])
    old = events[i][1]
    new = rng.choice([s for s in range(n) if s != old] + [n, n + 7])  # now and then: no seat
    events[i][1] = new
    return i, f"event {i} seat {old} → {new}"


def _tile(obj: dict[str, Any], rng: random.Random, tiles: Sequence[str]) -> tuple[int, str] | None:
    events = obj["events"]
    tiled = [i for i, e in enumerate(events) if len(e) > 2 and e[2] in tiles]
    listed = [
        i
        for i, e in enumerate(events)
        if len(e) > 2 and isinstance(e[2], list) and e[2] and all(t in tiles for t in e[2])
    ]
    if not tiled and not listed:
        return None
    i = rng.choice(tiled + listed)
    event = events[i]
    if isinstance(event[2], list):
        j = rng.randrange(len(event[2]))
        old = event[2][j]
        event[2][j] = rng.choice([t for t in tiles if t != old])
        return i, f"event {i} tile {j}: {old} → {event[2][j]}"
    old = event[2]
    event[2] = rng.choice([t for t in tiles if t != old])
    return i, f"event {i} tile {old} → {event[2]}"


def _truncate(obj: dict[str, Any], *_: Any) -> tuple[int, str] | None:
    return -1, "truncated"  # done by mutate, on the text


def _fan(obj: dict[str, Any], rng: random.Random, _: Sequence[str]) -> tuple[int, str] | None:
    wins = [w for w in obj.get("result", {}).get("wins", []) if w.get("fans")]
    if not wins:
        totals = [w for w in obj.get("result", {}).get("wins", []) if "total" in w]
        if not totals:
            return None
        win = rng.choice(totals)
        win["total"] += rng.choice([-2, -1, 1, 2, 10])
        return -1, f"seat {win['seat']} total → {win['total']}"
    win = rng.choice(wins)
    fan = rng.choice(win["fans"])
    what = rng.choice(("points", "count", "id"))
    if what == "points":
        fan[1] += rng.choice([-1, 1, 2, 5])
    elif what == "count":
        fan[2] += rng.choice([1, 2])
    else:
        fan[0] = rng.choice(
            [f for f in ("all_pungs", "seven_pairs", "thirteen_orphans") if f != fan[0]]
        )
    return -1, f"seat {win['seat']} fan {what} → {fan}"


#: Fan ids a changed fan takes (real ids of several variants, and one of none).
_OTHER_FANS = ("all_pungs", "seven_pairs", "thirteen_orphans", "no_such_fan")


def _delta(obj: dict[str, Any], rng: random.Random, _: Sequence[str]) -> tuple[int, str] | None:
    deltas = obj.get("result", {}).get("deltas")
    if not deltas:
        return None
    seat = rng.randrange(len(deltas))
    deltas[seat] += rng.choice([-3, -1, 1, 2, 8])
    return -1, f"seat {seat} delta → {deltas[seat]}"


_MUTATORS = {
    "drop": _drop,
    "duplicate": _duplicate,
    "swap": _swap,
    "seat": _seat,
    "tile": _tile,
    "truncate": _truncate,
    "fan": _fan,
    "delta": _delta,
}


def fuzz(
    variant: str,
    lines: Sequence[str],
    mutants: int,
    seed: int = 0,
    chunk: int = 250,
    check_intact: bool = True,
) -> FuzzReport:
    """Run ``mutants`` mutants of the valid hands ``lines`` (and, with ``check_intact``,
    the hands themselves) through the ingest's worker, and check the laws."""
    rng = random.Random(seed)
    objects = [json.loads(line) for line in lines]
    tiles = _tiles(objects)
    report = FuzzReport(variant)
    if check_intact:
        for start in range(0, len(lines), chunk):
            part = lines[start : start + chunk]
            result = _run(part, f"{variant}-intact")
            report.intact += len(part)
            for n, (verdict, reason) in result.items():
                if verdict in ("rejected", "error"):
                    report.intact_failed.append(f"intact hand {start + n}: {reason}")
    made = 0
    while made < mutants:
        batch = [mutate(rng.choice(objects), rng, tiles) for _ in range(min(chunk, mutants - made))]
        made += len(batch)
        result = _run([m.line for m in batch], f"{variant}-fuzz")
        for n, mutant in enumerate(batch, 1):
            verdict, reason = result[n]
            report.mutants += 1
            report.by_kind[mutant.kind] += 1
            where = f"{mutant.kind} ({mutant.note})"
            if verdict == "error":
                report.tracebacks.append(f"{where}: {reason}")
            elif verdict == "rejected":
                report.rejected += 1
                needs_event = mutant.kind != "truncate"
                if f"{variant}-fuzz:{n}" not in reason or (needs_event and " event " not in reason):
                    report.unnamed.append(f"{where}: {reason}")
            else:
                report.loaded += 1
                report.mismatched += verdict == "mismatch"
                if mutant.kind in RECORD_MUTATIONS and verdict != "mismatch":
                    report.silent.append(f"{where}: loaded as {verdict}")
    return report


def _run(lines: Sequence[str], name: str) -> dict[int, tuple[str, str]]:
    """``{line: (verdict, reason)}`` of lines run through the worker: the hand's verdict,
    ``rejected`` with the rejection in full, or ``error`` for an unexpected error."""
    units = tuple((n, line) for n, line in enumerate(lines, 1))
    got = process_in_memory(Task("paipu", name, units, 0))
    out: dict[int, tuple[str, str]] = {}
    if "hands" in got:
        hands = got["hands"]
        for line, verdict, problems in zip(
            hands.column("source_line").to_pylist(),
            hands.column("verdict").to_pylist(),
            hands.column("problems").to_pylist(),
            strict=True,
        ):
            out[line] = (verdict, "; ".join(problems or []))
    if "rejects" in got:
        rejects = got["rejects"].to_pylist()
        for r in rejects:
            event = f" event {r['event_index']}" if r["event_index"] is not None else ""
            text = f"{r['source']}:{r['line']}{event}: {r['reason']}"
            out[r["line"]] = ("error" if INTERNAL_ERROR in r["reason"] else "rejected", text)
    missing = [n for n in range(1, len(lines) + 1) if n not in out]
    for n in missing:
        out[n] = ("error", "neither loaded nor rejected")
    return out
