"""The ``PAIPU_NO_SKIP`` switch (tests/skips.py), run in a child pytest on three tiny tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from skips import NO_SKIP_ENV, SHARED_ABSENT

TESTS = f'''
import pytest

def test_runs():
    pass

def test_needs_a_tool():
    pytest.skip("Node.js is not installed")

@pytest.mark.skipif(True, reason="compiled engine missing")
def test_marked():
    pass

def test_needs_shared():
    pytest.skip("{SHARED_ABSENT}: the real records are needed")

@pytest.mark.xfail(reason="known")
def test_expected_to_fail():
    assert False
'''


def _child(tmp_path: Path, switch: str | None) -> str:
    (tmp_path / "test_tiny.py").write_text(TESTS, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != NO_SKIP_ENV}
    if switch is not None:
        env[NO_SKIP_ENV] = switch
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), *sys.path])
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "skips",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-o",
            "addopts=",
            str(tmp_path / "test_tiny.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    return done.stdout.splitlines()[-1].rsplit(" in ", 1)[0]


def test_without_the_switch_skips_are_skips(tmp_path: Path) -> None:
    assert _child(tmp_path, "0") == "1 passed, 3 skipped, 1 xfailed"


def test_with_the_switch_a_skip_fails_except_for_an_absent_shared_folder(tmp_path: Path) -> None:
    summary = _child(tmp_path, "1")
    # the skip in the test's call fails it; the skip mark (at setup) is an error
    assert summary == "1 failed, 1 passed, 1 skipped, 1 xfailed, 1 error", summary


def test_ci_installs_what_the_skips_wait_for_and_sets_the_switch() -> None:
    script = (Path(__file__).parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert "need+=(chromium)" in script and "need+=(nodejs)" in script
    [pytest_line] = [line for line in script.splitlines() if "-m pytest" in line]
    assert pytest_line.startswith(f"{NO_SKIP_ENV}=1 ")
