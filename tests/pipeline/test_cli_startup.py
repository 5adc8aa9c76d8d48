"""`paipu` starts without the data libraries: each command imports what it needs."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("duckdb", "polars", "pyarrow", "plotly", "paipu.reports.pages", "paipu.pipeline.ingest")


def test_the_command_line_imports_no_data_library_until_a_command_runs() -> None:
    script = (
        "import sys\n"
        "import paipu.pipeline.cli\n"
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == []


#: What only some commands use: the rules engine (``score``, ``ingest``), self-play and its
#: bots (``simulate``); ``paipu ingest``'s workers are forked after the start, so what the
#: start imports and no command needs is paid on every run.
ENGINE = ("paipu.rules.score", "paipu.rules.replay", "paipu.selfplay", "paipu.pipeline.simulate")


def test_the_command_line_imports_no_engine_until_a_command_runs() -> None:
    script = (
        "import sys\n"
        "import paipu.pipeline.cli\n"
        f"print(' '.join(m for m in {ENGINE!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == []


def test_ingest_imports_no_self_play() -> None:
    """The ingest replays records: self-play's bots are not part of it."""
    script = (
        "import sys\n"
        "import paipu.pipeline.ingest\n"
        "print(' '.join(m for m in sys.modules if m.startswith(('paipu.selfplay', 'polars'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == []
