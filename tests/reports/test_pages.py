"""The written pages: replay steps worked out by hand, deterministic bytes, filters, links."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paipu.pipeline.report import NoHandsError, ReportOptions, write_report
from paipu.reports.replay import event_text, fold, replay_steps

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "hands.paipu.jsonl"


def fixture_record(game: str, hand: int) -> dict:
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if (obj["game"], obj["hand"]) == (game, hand):
            return obj
    raise KeyError((game, hand))


def test_replay_steps_of_a_pong_and_a_win_on_a_discard() -> None:
    record = fixture_record("g1", 3)  # Dai deals; Ann pongs Dai's 5z, wins on Bo's 1p
    steps = replay_steps(record)
    players = record["players"]
    assert [event_text(s["e"], players) for s in steps] == [
        "deal",
        "Dai draws 7z",
        "Dai discards 5z",
        "Ann pong 5z5z5z",
        "Ann discards 9s",
        "Bo draws 6m",
        "Bo discards 1p",
        "Ann wins on Bo's 1p",
    ]
    states = fold(steps)
    assert states[0]["h0"] == "1m2m3m4m5m6m7m8m9m1p9s5z5z"
    assert states[1]["h3"].endswith("7z")  # the drawn tile is kept last
    assert states[3]["h0"] == "1m2m3m4m5m6m7m8m9m1p9s"
    assert states[3]["m0"] == [["pong", "5z5z5z", 3]]
    assert states[3]["d3"] == "5z*"  # claimed
    assert states[6]["d1"] == "1p"
    assert states[7]["d1"] == "1p!"  # won on
    assert states[7]["h0"] == "1m2m3m4m5m6m7m8m9m1p1p"
    # only what changed is carried by a step
    assert set(steps[5]) == {"e", "h1"}
    assert set(steps[3]) == {"e", "h0", "m0", "d3"}


def test_replay_steps_of_a_self_draw_and_unknown_events() -> None:
    record = fixture_record("g1", 1)
    steps = replay_steps(record)
    assert event_text(steps[-1]["e"], record["players"]) == "Dai wins by self-draw on 7z"
    assert fold(steps)[-1]["h3"].endswith("7z")
    odd = {
        "players": ["A", "B", "C"],
        "deal": [["1x"], ["2d"], []],
        "events": [["void", 0, "m"], ["wei", 1, "2d"], ["bird", None, ["1m", "9m"]]],
    }
    texts = [event_text(s["e"], odd["players"]) for s in replay_steps(odd)]
    assert texts == ["deal", "A void m", "B wei 2d", "bird 1m9m"]


def test_the_same_database_gives_the_same_bytes(fixture_db, report, tmp_path) -> None:
    again = write_report(fixture_db, tmp_path, ReportOptions(jobs=2))
    assert sorted(again.files) == sorted(report.files)
    for path in sorted(report.out.rglob("*")):
        if path.is_file():
            twin = tmp_path / path.relative_to(report.out)
            assert twin.read_bytes() == path.read_bytes(), path.relative_to(report.out)


def test_pages_and_links(report) -> None:
    out = report.out
    assert report.pages == 17  # 5 pages, players index, 5 players, 6 hands
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


def test_filters_and_self_contained_pages(fixture_db, tmp_path) -> None:
    summary = write_report(fixture_db, tmp_path, ReportOptions(player="Eve", inline=True, jobs=1))
    assert summary.hands == 2
    assert sorted(p.name for p in (tmp_path / "players").iterdir()) == ["Eve.html", "index.html"]
    assert sorted(p.name for p in (tmp_path / "hands").iterdir()) == ["g2-0.html", "g2-1.html"]
    assert not (tmp_path / "assets").exists()
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "assets/" not in index and "Plotly" in index
    with pytest.raises(NoHandsError):
        write_report(fixture_db, tmp_path / "none", ReportOptions(variant="sichuan"))
    with pytest.raises(ValueError, match="expected a date"):
        write_report(fixture_db, tmp_path / "bad", ReportOptions(since="yesterday"))
