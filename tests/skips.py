"""``PAIPU_NO_SKIP=1`` (set by ``.ci/run``): a test that skips fails instead.

A skip hides a test that did not run: Node.js or Chromium missing, the reference calculator
not built, a compiled engine that is not there. CI installs all of them, so there a skip
means CI checked less than it says. The one skip allowed is that of the tests reading the
real records of ``../shared/data`` when that folder is absent (a clone without the shared
folder beside it can still run ``.ci/run``); their reason starts with :data:`SHARED_ABSENT`.
CI has ``../shared`` beside it, so there they run.

The hook is imported by ``tests/conftest.py``; ``tests/test_skips.py`` checks it in a
child pytest.
"""

from __future__ import annotations

import os

import pytest

NO_SKIP_ENV = "PAIPU_NO_SKIP"
#: How the reason of the one allowed skip begins.
SHARED_ABSENT = "../shared is absent"


def strict() -> bool:
    return os.environ.get(NO_SKIP_ENV, "") not in ("", "0")


def _reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if not (report.skipped and strict()) or hasattr(report, "wasxfail"):
        return
    reason = _reason(report)
    if reason.removeprefix("Skipped: ").startswith(SHARED_ABSENT):
        return
    report.outcome = "failed"
    report.longrepr = f"{NO_SKIP_ENV} is set: {item.nodeid} must run here, but it skipped: {reason}"
