"""Every implemented variant fuzzed at the event level (pipeline/fuzz.py): a few hundred
mutants each here, 10,000+ in ``benchmarks/fuzz.py`` (docs/reliability.md)."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.pipeline.fuzz import MUTATIONS, RECORD_MUTATIONS, fuzz, mutate
from paipu.rules.registry import variant_ids

DATA = Path(__file__).parents[1] / "data"
#: Every variant with a bundled log: a new variant's folder and data are fuzzed unasked.
VARIANTS = tuple(v for v in variant_ids() if (DATA / f"{v}.paipu.jsonl").exists())


@cache
def _lines(variant: str) -> tuple[str, ...]:
    return tuple((DATA / f"{variant}.paipu.jsonl").read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("variant", VARIANTS)
def test_fuzzed_hands_are_loaded_or_rejected_by_line_and_event(variant: str) -> None:
    lines = _lines(variant)
    report = fuzz(variant, lines[:40], 200, seed=18)
    assert report.failures == []
    assert report.intact == 40 and report.mutants == 200
    assert report.loaded + report.rejected == 200
    assert set(report.by_kind) == set(MUTATIONS)  # every mutation was tried
    assert report.rejected > 0 and report.mismatched > 0


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_a_changed_record_is_never_silently_accepted(variant: str, seed: int) -> None:
    lines = _lines(variant)
    report = fuzz(variant, lines[seed % len(lines) :][:5], 10, seed=seed, check_intact=False)
    assert report.tracebacks == [] and report.silent == [] and report.unnamed == []


def test_mutants_of_what_the_record_says_replay_as_before() -> None:
    """A fan or delta mutant changes only the result: the same events, deal and wall."""
    rng = random.Random(3)
    obj = json.loads(_lines("mcr")[0])
    tiles = sorted({t for hand in obj["deal"] for t in hand})
    seen = set()
    for _ in range(200):
        mutant = mutate(obj, rng, tiles)
        seen.add(mutant.kind)
        if mutant.kind in RECORD_MUTATIONS:
            changed = json.loads(mutant.line)
            assert changed["events"] == obj["events"] and changed["result"] != obj["result"]
    assert seen == set(MUTATIONS)
