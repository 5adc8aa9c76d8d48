"""The precomputed completion masks (rules/core/completion-masks.bin) are the walk's.

The file is generated (``python -m paipu.rules.core.completion_table --write``); the walk
(:func:`paipu.rules.core.decompose.walked_masks`) is the rule, and these tests hold the
file to it: every key once (the slow test, about 30 s), samples, and the keys it lacks.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.core import completion_table, decompose


def test_the_file_is_shipped_and_read() -> None:
    assert decompose.tables_read() == len(completion_table.SHAPES) == 2
    assert completion_table.path().is_file()


def test_the_file_is_read_whichever_module_imports_the_engine_first() -> None:
    """Self-play's compiled modules imported first gave the compiled ``decompose`` a
    ``__file__`` in another folder (``rules/paipu/rules/core/``), and the table was not
    found: it is read as the package's resource, not beside ``__file__``."""
    code = (
        "import paipu.pipeline.simulate\n"
        "from paipu.rules.core import decompose\n"
        "assert decompose.tables_read() == 2, decompose.__file__\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_file_is_the_walk_of_every_key() -> None:
    """The whole file, rebuilt from the walk, is byte for byte the one shipped."""
    assert completion_table.main([]) == 0


def test_a_sample_of_keys_reads_as_walked() -> None:
    rng = random.Random(20261203)
    for runs, ranks, copies in completion_table.SHAPES:
        every = list(completion_table.keys(ranks))
        for key in [*every[:2000], *rng.sample(every, 3000)]:
            assert decompose.table_masks(key, runs, copies) == decompose.walked_masks(
                key, runs, copies
            ), key


@st.composite
def group_keys(draw: st.DrawFn) -> tuple[tuple[int, ...], bool]:
    runs = draw(st.booleans())
    ranks = 9 if runs else 7
    wall = [rank for rank in range(ranks) for _ in range(4)]
    chosen = draw(st.permutations(wall))[: draw(st.integers(0, 15))]
    return tuple(chosen.count(rank) for rank in range(ranks)), runs


@settings(max_examples=300, deadline=None)
@given(group_keys(), st.integers(1, decompose.MAX_WILDS))
def test_completion_masks_are_the_walk_for_any_most(drawn, most: int) -> None:
    key, runs = drawn
    sets, with_pair = decompose.walked_masks(key, runs, 4)
    full = (1 << (most + 1)) - 1
    assert decompose.completion_masks(key, runs, 4, most) == (sets & full, with_pair & full)


def test_keys_outside_the_table_are_walked() -> None:
    fifth = (5, 0, 0, 0, 0, 0, 0, 0, 0)  # a natural fifth (the tile waited on with four)
    many = (4, 4, 4, 4, 0, 0, 0, 0, 0)  # 16 tiles
    short = (1, 1, 1)  # a group shape of another tile set
    for key, runs in ((fifth, True), (many, True), (short, True), (fifth[:7], False)):
        assert decompose.table_masks(key, runs, 4) is None
        assert decompose.completion_masks(key, runs, 4) == decompose.walked_masks(key, runs, 4)
    assert decompose.table_masks((1, 1, 1, 0, 0, 0, 0, 0, 0), True, 3) is None  # 3 copies


def test_a_missing_or_broken_file_leaves_the_walk(tmp_path: Path) -> None:
    key = (1, 1, 0, 0, 0, 0, 0, 0, 0)
    try:
        assert decompose.read_tables(str(tmp_path / "absent.bin")) is False
        assert decompose.table_masks(key, True, 4) is None
        broken = tmp_path / "broken.bin"
        broken.write_bytes(b"not zlib")
        assert decompose.read_tables(str(broken)) is False
        assert decompose.completion_masks(key, True, 4) == decompose.walked_masks(key, True, 4)
    finally:
        assert decompose.read_tables() is True
    assert decompose.table_masks(key, True, 4) == decompose.walked_masks(key, True, 4)
