"""The README's layout table names only what the repository holds."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _layout_rows() -> list[tuple[str, str]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        match = re.match(r"\| `([^`]+)` \| (.*) \|$", line)
        if match:
            rows.append((match.group(1), match.group(2)))
    return rows


def test_every_folder_and_file_of_the_layout_table_exists() -> None:
    rows = _layout_rows()
    assert len(rows) >= 8
    for folder, what in rows:
        assert (REPO / folder).is_dir(), f"README layout: {folder} does not exist"
        for name in re.findall(r"`([^`]+)`", what):
            if "<" in name or name.startswith((".", "python ", "paipu ")):
                continue  # a pattern, a suffix or a command, not a path
            path = REPO / name if "/" in name else REPO / folder / name
            assert path.exists(), f"README layout, row {folder}: {name} does not exist"
