"""Shared fixtures: where the read-only ../shared folder (real records, rule digests) is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from skips import SHARED_ABSENT, pytest_runtest_makereport  # noqa: F401 (the PAIPU_NO_SKIP hook)

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


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
