"""A test hook: make a long-running command stop and wait at a named point.

``PAIPU_PAUSE_AT=<point>`` in the environment makes :func:`pause_at` called with that point
write ``<marker>`` (holding the process id) and sleep until the process is killed. Tests
use it to kill an ingest exactly where they mean to (``tests/pipeline/test_ingest.py``),
however fast the machine. Unset, as everywhere but in those tests, it costs one lookup.

The ingest's points: ``loaded`` (every row is in the copy ``<db>.ingest``, not yet
checkpointed) and ``replace`` (the copy is complete and closed; the atomic rename is next).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PAUSE_ENV = "PAIPU_PAUSE_AT"


def marker(path: Path, point: str) -> Path:
    """The file written when the process pauses at ``point`` beside ``path``."""
    return path.with_name(f"{path.name}.paused-{point}")


def pause_at(point: str, beside: Path) -> None:
    """If ``$PAIPU_PAUSE_AT`` names ``point``: say so in :func:`marker` and wait forever."""
    if os.environ.get(PAUSE_ENV) != point:
        return
    marker(beside, point).write_text(f"{os.getpid()}\n", encoding="utf-8")
    while True:
        time.sleep(3600)
