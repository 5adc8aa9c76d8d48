"""The sample logs the repository ships in ``data/``, written by the simulator.

The Botzone records may not be redistributed, so the bundled data — what the README's main
command (`paipu demo`) ingests — is self-play of every variant that has a simulator: a few
hundred hands each, from fixed seeds, so regenerating gives the same bytes::

    .venv/bin/python -m paipu.pipeline.bundled            # rewrite data/*.paipu.jsonl
    .venv/bin/python -m paipu.pipeline.bundled --check    # exit 1 if data/ is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paipu.pipeline.simulate import game_jobs, simulate

#: (variant, hands, seed, players): what data/ holds. Player pools overlap across variants so
#: that player pages show several games.
BUNDLE: tuple[tuple[str, int, int, tuple[str, ...]], ...] = (
    ("mcr", 320, 2026, ("Ann", "Bo", "Chen", "Dai", "Emi", "Fang")),
    ("zipai_chenzhou", 300, 2026, ("Ann", "Bo", "Chen", "Gus")),
    ("sichuan", 200, 2026, ("Ann", "Bo", "Hua", "Ivy", "Jun")),
    ("changsha", 200, 2026, ("Bo", "Chen", "Kai", "Lan", "Mei")),
    ("zhuanzhuan", 200, 2026, ("Chen", "Dai", "Kai", "Lan", "Ning")),
    ("shanghai", 200, 2026, ("Ann", "Dai", "Emi", "Oli", "Pei")),
    ("guiyang", 200, 2026, ("Ann", "Dai", "Hua", "Mei", "Olu")),
    ("hebei", 200, 2026, ("Bo", "Emi", "Ivy", "Kai", "Pia")),
    ("nanchang", 200, 2026, ("Ann", "Dai", "Emi", "Mei", "Qiu")),
    ("harbin", 200, 2026, ("Ann", "Dai", "Hua", "Ning", "Oleg")),
    ("shiwan", 200, 2026, ("Ann", "Dai", "Hua", "Mei", "Omar")),
    ("competition_5fan", 200, 2026, ("Bo", "Emi", "Ivy", "Jun", "Pia")),
    ("guangdong", 200, 2026, ("Bo", "Dai", "Emi", "Kai", "Ning")),
    ("changzhou", 200, 2026, ("Ann", "Dai", "Mei", "Olu", "Pei")),
    ("tianjin", 200, 2026, ("Ann", "Dai", "Hua", "Oscar", "Pei")),
)
DATA = Path(__file__).resolve().parents[1] / "data"


def lines_for(variant: str, hands: int, seed: int, players: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for lines, _stats in simulate(game_jobs(variant, hands, seed, players, {})):
        out.extend(lines)
    return out


def bundled_files() -> dict[str, str]:
    """File name → content of every bundled log."""
    files = {}
    for variant, hands, seed, players in BUNDLE:
        files[f"{variant}.paipu.jsonl"] = "".join(
            line + "\n" for line in lines_for(variant, hands, seed, players)
        )
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the folder to write")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if stale")
    args = parser.parse_args()
    stale = []
    for name, content in bundled_files().items():
        path = args.data / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != content:
            stale.append(name)
            if not args.check:
                args.data.mkdir(parents=True, exist_ok=True)
                path.write_text(content, encoding="utf-8")
        print(
            f"{name}: {content.count(chr(10))} hands, {len(content.encode()):,} bytes"
            f"{' (changed)' if current != content else ''}"
        )
    if args.check and stale:
        print(f"stale: {', '.join(stale)}; run python -m paipu.pipeline.bundled", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
