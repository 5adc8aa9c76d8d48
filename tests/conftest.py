"""Shared fixtures: where the read-only ../shared folder (real records, rule digests) is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from skips import SHARED_ABSENT, pytest_runtest_makereport  # noqa: F401 (the PAIPU_NO_SKIP hook)

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"

#: No per-example time limit anywhere: on a shared 2-core machine a first example that
#: fills the shape tables can take 300 ms, and a timed test is not a test of the rules.
settings.register_profile("paipu", deadline=None)
settings.load_profile("paipu")


def shared_path() -> Path:
    """../shared beside the checkout, or $PAIPU_SHARED."""
    return Path(os.environ.get("PAIPU_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The ../shared folder; tests using it skip, with a message, when it is absent (the
    one skip PAIPU_NO_SKIP allows, tests/skips.py)."""
    path = shared_path()
    if not (path / "data").is_dir():
        pytest.skip(f"{SHARED_ABSENT} ({path}): the real records in ../shared/data are needed")
    return path


@pytest.fixture(scope="session")
def botzone_dir(shared_dir: Path) -> Path:
    return shared_dir / "data" / "botzone"
