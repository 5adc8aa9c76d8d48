"""The tile drawings (``paipu.reports.tile_svg``): every tile and card has one, drawn with
shapes and outlines only (no text, no font), red where the tile is red, all different, and
the same bytes every time; the pages that show tiles carry the drawings they use."""

from __future__ import annotations

import re

import pytest

from paipu.reports import tile_svg
from paipu.reports.tile_glyphs import CHARACTERS
from paipu.rules.tiles import N_CODES, tile_name

NAMES = [tile_name(code) for code in range(N_CODES)]


def test_every_character_a_face_needs_has_its_outline() -> None:
    glyphs = tile_svg.glyphs()
    assert sorted(glyphs) == sorted(CHARACTERS)
    for char, path in glyphs.items():
        assert re.fullmatch(r"[MLQCZHV0-9 .\-]+", path), char  # path data only
        numbers = [int(n) for n in re.findall(r"-?\d+", path)]
        assert min(numbers) >= -100 and max(numbers) <= 1100, char  # about the 1000-unit box


def test_every_tile_is_drawn_without_text_or_fonts() -> None:
    sprite = tile_svg.sprite()
    assert sprite == tile_svg.sprite()  # deterministic
    symbols = re.findall(r'<symbol id="pt-([^"]+)"', sprite)
    assert symbols == NAMES
    for banned in ("<text", "font", "<image", "http://", "https://"):
        assert banned not in sprite.replace('xmlns="http://www.w3.org/2000/svg"', "")
    bodies = {name: tile_svg._tile_body(code) for code, name in enumerate(NAMES)}
    assert len(set(bodies.values())) == N_CODES  # no two tiles look alike
    # each character used is defined once in the sprite
    used = set(re.findall(r'href="#(pg-[0-9a-f]+)"', sprite))
    defined = re.findall(r'<path id="(pg-[0-9a-f]+)"', sprite)
    assert used == set(defined) and len(defined) == len(set(defined))


@pytest.mark.parametrize(
    ("name", "red"),
    [
        ("5m", True),
        ("7z", True),
        ("1f", True),
        ("2x", True),
        ("7d", True),
        ("10x", True),
        ("3x", False),
        ("4d", False),
        ("1z", False),
        ("6z", False),
    ],
)
def test_red_tiles_are_red(name, red) -> None:
    body = tile_svg._tile_body(NAMES.index(name))
    assert (tile_svg.RED in body) is red


def test_a_standalone_tile_and_a_page_sprite() -> None:
    svg = tile_svg.tile_svg("1m")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80"')
    assert 'id="pg-4e00"' in svg and 'id="pg-4e07"' in svg  # 一 and 万, inline
    assert tile_svg.tile_view("10d") == "0 0 40 80"
    part = tile_svg.sprite(["3p", "3p", "4d", "nonesuch"])
    assert re.findall(r'<symbol id="pt-([^"]+)"', part) == ["3p", "4d"]
    assert tile_svg.tile_html("nonesuch<") == "nonesuch&lt;"
    assert 'class="tile zipai"' in tile_svg.tile_html("4d")


def test_pages_carry_the_drawings_of_the_tiles_they_show(report) -> None:
    """The player, fan and audit pages of the MCR fixture draw tiles from their own sprite."""
    for page in ("players/Ann.html", "fans.html", "audit.html"):
        html = (report.out / page).read_text(encoding="utf-8")
        shown = set(re.findall(r'<use href="#pt-([^"]+)"/>', html))
        defined = set(re.findall(r'<symbol id="pt-([^"]+)"', html))
        assert shown and shown == defined, page
