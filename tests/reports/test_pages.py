"""The written pages: deterministic bytes, filters, links, hand pages as small shells beside
one data script per game, several variants side by side."""

from __future__ import annotations

import json
import re

import pytest
from reports_fixture import FIXTURE, ZIPAI

from paipu.pipeline.report import NoHandsError, ReportOptions, write_report


def test_the_same_database_gives_the_same_bytes(fixture_db, report, tmp_path) -> None:
    again = write_report(fixture_db, tmp_path, ReportOptions(jobs=2))
    assert sorted(again.files) == sorted(report.files)
    for path in sorted(report.out.rglob("*")):
        if path.is_file():
            twin = tmp_path / path.relative_to(report.out)
            assert twin.read_bytes() == path.read_bytes(), path.relative_to(report.out)


def test_pages_and_links(report) -> None:
    out = report.out
    assert report.pages == 22  # 5 pages, players index, 5 players, 6 hands, 4 competition,
    # clubs index
    assert (out / "assets" / "plotly.min.js").stat().st_size > 1_000_000
    index = (out / "index.html").read_text(encoding="utf-8")
    for href in ("winrates.html", "fans.html", "dealin.html", "players/index.html", "audit.html"):
        assert f'href="{href}"' in index or f"href='{href}'" in index
    assert 'src="assets/plotly.min.js"' in index
    assert 'id="overview-outcomes"' in index
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for href in re.findall(r'href="([^"#:]+)(?:#[^"]*)?"', text):
            assert (page.parent / href).resolve().exists(), f"{page.name}: broken link {href}"
    ann = (out / "players" / "Ann.html").read_text(encoding="utf-8")
    assert "../hands/g1-2.html#step=2" in ann  # a missed win, linked to its step
    assert 'src="../assets/plotly.min.js"' in ann
    audit = (out / "audit.html").read_text(encoding="utf-8")
    assert "清一色" in audit and "99" in audit and "does not hold 7z" in audit
    hand = (out / "hands" / "g2-1.html").read_text(encoding="utf-8")
    assert "plotly" not in hand  # replay pages load no figure library


def test_hand_pages_are_shells_and_games_are_data_scripts(report) -> None:
    out = report.out
    page = (out / "hands" / "g1-3.html").read_text(encoding="utf-8")
    assert len(page.encode()) < 1500
    assert 'data-hand="3"' in page
    assert page.index('src="../data/g1.js"') < page.index('src="../assets/replay.js"')
    assert sorted(p.name for p in (out / "data").iterdir()) == ["g1.js", "g2.js"]
    data = (out / "data" / "g1.js").read_text(encoding="utf-8")
    assert data.startswith("window.PAIPU_GAME = {")
    game = json.loads(data.removeprefix("window.PAIPU_GAME = ").rstrip().removesuffix(";"))
    assert sorted(game["hands"], key=int) == ["0", "1", "2", "3"]
    assert game["links"]["Ann"] == "../players/Ann.html"
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    assert game["hands"]["3"]["record"] == json.loads(lines[3])  # the record, verbatim
    info = game["hands"]["3"]["info"]
    assert (info["prev"], info["next"], info["dealer"], info["outcome"]) == (2, None, 3, "win")
    assert [
        (w["seat"], w["from_seat"], w["source"], w["seq"], w["total"]) for w in info["wins"]
    ] == [(0, 1, "discard", 6, 20)]
    assert [s["delta"] for s in info["seats"]] == [44, -28, -8, -8]
    missed = json.loads(
        (out / "data" / "g1.js")
        .read_text(encoding="utf-8")
        .removeprefix("window.PAIPU_GAME = ")
        .rstrip()
        .removesuffix(";")
    )["hands"]["2"]["info"]["missed"]
    assert [(m["seq"], m["seat"], m["tile"]) for m in missed] == [
        (1, 0, "1z"),
        (3, 0, "6z"),
        (3, 1, "6z"),
    ]


def test_variants_side_by_side(mixed_report) -> None:
    out = mixed_report.out
    fans = (out / "fans.html").read_text(encoding="utf-8")
    assert 'id="variant-mcr"' in fans and f'id="variant-{ZIPAI}"' in fans
    assert "郴州字牌" in fans and "名堂" in fans and "胡息 xi" in fans
    assert 'id="fans-totals-mcr"' in fans and f'id="fans-totals-{ZIPAI}"' in fans
    dealin = (out / "dealin.html").read_text(encoding="utf-8")
    assert "small red 小红 (二七十)" in dealin and "honor, 0 visible" in dealin
    script = (out / "assets" / "replay.js").read_text(encoding="utf-8")
    assert '"zipai_chenzhou":{"fan_zh":"名堂"' in script
    assert (out / "data" / "sim-zipai_chenzhou-3-000000.js").is_file()


def test_filters_and_self_contained_pages(fixture_db, tmp_path) -> None:
    summary = write_report(fixture_db, tmp_path, ReportOptions(player="Eve", inline=True, jobs=1))
    assert summary.hands == 2
    assert sorted(p.name for p in (tmp_path / "players").iterdir()) == ["Eve.html", "index.html"]
    assert sorted(p.name for p in (tmp_path / "hands").iterdir()) == ["g2-0.html", "g2-1.html"]
    assert not (tmp_path / "assets").exists() and not (tmp_path / "data").exists()
    hand = (tmp_path / "hands" / "g2-1.html").read_text(encoding="utf-8")
    assert "window.PAIPU_GAME" in hand and "const PAIPU_TILES" in hand
    assert '"1":{"info"' in hand and '"0":{"info"' not in hand  # its own hand only
    assert "</script" not in hand.split("<script>", 1)[1].split("</script>", 1)[0]
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "assets/" not in index and "Plotly" in index
    with pytest.raises(NoHandsError, match=r"filters \(variant 'sichuan', player 'Nobody'\)"):
        write_report(
            fixture_db, tmp_path / "none", ReportOptions(variant="sichuan", player="Nobody")
        )
    with pytest.raises(ValueError, match="expected a date"):
        write_report(fixture_db, tmp_path / "bad", ReportOptions(since="yesterday"))
