"""Regenerate ``templates/tile-glyphs.json``: the outlines of the Chinese characters that the
tile faces need, as SVG path data, so that a page draws them with no font at all.

The outlines are taken once from Noto Serif CJK SC Bold (SIL Open Font License 1.1; the
licence is shipped beside the data as ``templates/tile-glyphs-LICENSE.txt``): Debian's
``fonts-noto-cjk`` package has it. This is a developer's tool, not run by the report: it
needs ``fontTools`` (``pip install fonttools``), which paipu does not depend on::

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb fonts
    python -m paipu.reports.tile_glyphs fonts/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc

Each path is in a 1000 × 1000 box, y downwards (the font's em square, its baseline at 880),
coordinates rounded to whole units; the file is sorted, so the same font gives the same
bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: Every character a tile face draws (:mod:`paipu.reports.tile_svg`).
CHARACTERS = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾万东南西北中发春夏秋冬梅兰竹菊"
#: The font's ascender in its 1000-unit em: the baseline's distance from the top.
BASELINE = 880
DATA = Path(__file__).with_name("templates") / "tile-glyphs.json"


def outlines(font_file: Path, face: str = "SC") -> dict[str, str]:
    """Every character of :data:`CHARACTERS` as path data, from the ``face`` of a collection."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.ttLib import TTCollection, TTFont

    fonts: list[Any] = (
        list(TTCollection(str(font_file)).fonts)
        if font_file.suffix.lower() == ".ttc"
        else [TTFont(str(font_file))]
    )
    font = next((f for f in fonts if face in str(f["name"].getDebugName(1))), fonts[0])
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    scale = 1000 / font["head"].unitsPerEm
    paths: dict[str, str] = {}
    for char in CHARACTERS:
        pen = SVGPathPen(glyphs, ntos=lambda v: str(round(v)))
        glyphs[cmap[ord(char)]].draw(TransformPen(pen, (scale, 0, 0, -scale, 0, BASELINE)))
        paths[char] = pen.getCommands()
    return paths


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    paths = outlines(Path(argv[0]))
    DATA.write_text(
        json.dumps(paths, ensure_ascii=False, sort_keys=True, indent=0) + "\n", encoding="utf-8"
    )
    print(f"{DATA}: {len(paths)} characters, {DATA.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
