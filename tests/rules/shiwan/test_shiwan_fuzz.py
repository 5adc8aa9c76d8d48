"""The event-level fuzzer (pipeline/fuzz.py) on the bundled hands of `shiwan`: every mutant
is loaded or rejected by line and event, never a traceback (docs/reliability.md)."""

from __future__ import annotations

from pathlib import Path

from paipu.pipeline.fuzz import MUTATIONS, fuzz

DATA = Path(__file__).resolve().parents[3] / "data" / "shiwan.paipu.jsonl"


def test_fuzzed_hands_are_loaded_or_rejected_by_line_and_event() -> None:
    lines = DATA.read_text(encoding="utf-8").splitlines()
    report = fuzz("shiwan", lines[:40], 200, seed=18)
    assert report.failures == []
    assert report.intact == 40 and report.loaded + report.rejected == 200
    assert set(report.by_kind) == set(MUTATIONS)
    assert report.rejected > 0 and report.mismatched > 0
