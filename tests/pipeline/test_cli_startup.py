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
