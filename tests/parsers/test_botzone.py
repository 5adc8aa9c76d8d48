"""The Botzone MCR parsers (text and JSON) on the real records and on broken copies of them."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from paipu.parsers import Parsed, ParseResult, Rejected, detect, parse_any
from paipu.parsers.botzone_common import botzone_tiles
from paipu.parsers.botzone_json import parse_botzone_json, read_match
from paipu.parsers.botzone_text import parse_botzone_text, read_text_lines
from paipu.parsers.paipu import dumps, parse_line
from paipu.rules.events import (
    AddedKong,
    Chi,
    ConcealedKong,
    Discard,
    Draw,
    Flower,
    Kong,
    Pong,
    Win,
)
from paipu.rules.record import HandRecord
from paipu.rules.tiles import parse_tile, parse_tiles
from paipu.rules.variants.mcr.settlement import mcr_win_deltas

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "botzone"
HANDMADE = FIXTURES / "handmade.txt"


# --- helpers -----------------------------------------------------------------------------


def _split(results: list[ParseResult]) -> tuple[list[Parsed], list[Rejected]]:
    parsed = [r for r in results if isinstance(r, Parsed)]
    rejected = [r for r in results if isinstance(r, Rejected)]
    return parsed, rejected


def _sample_lines(botzone_dir: Path) -> list[str]:
    return (botzone_dir / "sample.txt").read_text(encoding="utf-8").splitlines(keepends=True)


def _json_files(botzone_dir: Path) -> list[Path]:
    files = sorted((botzone_dir / "json").glob("*.json"))
    assert len(files) == 10
    return files


def _write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _line_of(lines: list[str], text: str) -> int:
    """The 1-based number of the first line equal to ``text``."""
    return next(i for i, line in enumerate(lines, 1) if line.rstrip("\n") == text)


def check_invariants(record: HandRecord) -> None:
    """What every Botzone hand must satisfy, whatever its moves."""
    assert record.variant == "mcr"
    assert record.rules == {"wall": "duplicate"}
    assert record.dealer == 0
    assert len(record.players) == 4
    assert [len(d) for d in record.deal] == [13] * 4
    # No tile more than 4 times: every tile comes from a deal or a draw.
    supplied = Counter(t for d in record.deal for t in d)
    supplied.update(e.tile for e in record.events if isinstance(e, Draw))
    assert max(supplied.values()) <= 4, supplied.most_common(1)
    _check_conservation(record)
    result = record.result
    assert result is not None
    assert result.deltas is not None
    assert sum(result.deltas) == 0
    if result.outcome == "draw":
        assert result.wins == ()
        assert result.deltas == (0, 0, 0, 0)
        assert not any(isinstance(e, Win) for e in record.events)
        return
    assert result.outcome == "win"
    [win] = result.wins
    [win_event] = [e for e in record.events if isinstance(e, Win)]
    assert record.events[-1] == win_event
    assert (win.seat, win.from_seat, win.tile) == (
        win_event.seat,
        win_event.from_seat,
        win_event.tile,
    )
    assert sum(f.points * f.count for f in win.fans) == win.total
    # The scores follow the MCR formula, which also checks who paid for the win.
    assert result.deltas == mcr_win_deltas(4, win.seat, win.from_seat, win.total)


def _check_conservation(record: HandRecord) -> None:
    """deal + draws − discards − tiles put into melds = what is held, at every step."""
    hands = [Counter(d) for d in record.deal]
    melds = [0] * 4
    last_discard = None
    win = None
    for index, event in enumerate(record.events):
        match event:
            case Draw(seat=s, tile=t):
                hands[s][t] += 1
            case Discard(seat=s, tile=t):
                hands[s][t] -= 1
                last_discard = t
            case Chi(seat=s, tiles=run):
                assert last_discard in run
                used = list(run)
                used.remove(last_discard)
                hands[s].subtract(used)
                melds[s] += 1
            case Pong(seat=s, tile=t):
                assert t == last_discard
                hands[s][t] -= 2
                melds[s] += 1
            case Kong(seat=s, tile=t):
                assert t == last_discard
                hands[s][t] -= 3
                melds[s] += 1
            case ConcealedKong(seat=s, tile=t):
                hands[s][t] -= 4
                melds[s] += 1
            case AddedKong(seat=s, tile=t) | Flower(seat=s, tile=t):
                hands[s][t] -= 1
            case Win():
                win = event
            case _:
                raise AssertionError(f"unexpected event {event}")
        assert all(n >= 0 for hand in hands for n in hand.values()), f"event {index}: {event}"
    for seat, hand in enumerate(hands):
        held = sum(hand.values())
        if win is not None and win.seat == seat:
            if win.from_seat is None:
                assert hand[win.tile] >= 1
            else:
                held += 1
            assert held == 14 - 3 * melds[seat], f"winner {seat} holds {held}"
        else:
            assert held == 13 - 3 * melds[seat], f"seat {seat} holds {held}"


def _round_trip(record: HandRecord) -> None:
    again = parse_line(dumps(record), "x.paipu.jsonl", 1)
    assert isinstance(again, Parsed), again
    assert again.record == record


# --- the real records --------------------------------------------------------------------


def test_sample_text_gives_sixteen_hands(botzone_dir: Path) -> None:
    parsed, rejected = _split(list(parse_botzone_text(botzone_dir / "sample.txt")))
    assert rejected == []
    assert len(parsed) == 16
    outcomes = Counter(p.record.result.outcome for p in parsed if p.record.result)
    assert outcomes == {"win": 14, "draw": 2}
    assert len({p.record.game for p in parsed}) == 16
    lines = _sample_lines(botzone_dir)
    for p in parsed:
        record = p.record
        assert lines[p.line - 1].split() == ["Match", record.game]
        assert record.source == {"format": "botzone-text", "file": "sample.txt", "line": p.line}
        assert record.players == ("p0", "p1", "p2", "p3")
        assert record.wall is None
        check_invariants(record)
        _round_trip(record)


def test_sample_text_first_hand(botzone_dir: Path) -> None:
    first = next(parse_botzone_text(botzone_dir / "sample.txt"))
    assert isinstance(first, Parsed)
    record = first.record
    assert record.game == "61602cb45ddc087351c04358"
    assert record.round_wind == parse_tile("2z")  # Wind 1 = South
    assert record.deal[0] == tuple(parse_tiles("8s 7p 1s 6m 8p 9m 7z 9s 2p 3m 6s 4z 9m"))
    arrays = [e.to_array() for e in record.events]
    assert arrays[:2] == [["draw", 0, "5z"], ["discard", 0, "6s"]]
    # "Player 2 Chi T5" after "Player 1 Play T4": the run 4-5-6s, claimed tile 4s.
    assert ["chi", 2, ["4s", "5s", "6s"]] in arrays
    # "Player 0 Peng W9 Ignore Player 3 Chi W8": the losing claim leaves no event.
    assert ["pong", 0, "9m"] in arrays
    assert not any(a[0] == "chi" and a[1] == 3 for a in arrays)
    assert arrays[-1] == ["win", 1, "7p", {"from": 2}]
    assert record.result is not None
    assert record.result.to_json() == {
        "outcome": "win",
        "wins": [
            {
                "seat": 1,
                "from": 2,
                "tile": "7p",
                "total": 9,
                "fans": [["half_flush", 6, 1], ["dragon_pung", 2, 1], ["two_terminal_chows", 1, 1]],
            }
        ],
        "deltas": [-8, 33, -17, -8],
    }


def test_sample_text_kongs(botzone_dir: Path) -> None:
    kinds = Counter()
    for result in parse_botzone_text(botzone_dir / "sample.txt"):
        assert isinstance(result, Parsed)
        kinds.update(type(e).__name__ for e in result.record.events)
    assert kinds["ConcealedKong"] == 2
    assert kinds["AddedKong"] == 2
    assert kinds["Kong"] == 1
    assert kinds["Chi"] == 33
    assert kinds["Pong"] == 25


@pytest.fixture(scope="module")
def json_hands(botzone_dir: Path) -> list[tuple[Path, Parsed]]:
    hands = []
    for path in _json_files(botzone_dir):
        results = list(parse_botzone_json(path))
        assert len(results) == 1, results
        [parsed] = results
        assert isinstance(parsed, Parsed), parsed
        hands.append((path, parsed))
    return hands


def test_json_matches_give_one_hand_each(json_hands: list[tuple[Path, Parsed]]) -> None:
    for path, parsed in json_hands:
        record = parsed.record
        assert record.game == path.name.removesuffix("_lite.json")
        assert record.source == {"format": "botzone-json", "file": path.name, "line": 1}
        assert parsed.line == 1
        assert record.players == ("[pycc]chunjiandu",) * 4
        check_invariants(record)
        _round_trip(record)


def test_json_deal_and_draws_follow_the_wall(json_hands: list[tuple[Path, Parsed]]) -> None:
    """walltiles = four blocks of 34; a seat is dealt, then draws, from the end of its block."""
    for path, parsed in json_hands:
        raw = json.loads(path.read_text(encoding="utf-8"))
        init = json.loads(raw["initdata"])
        tiles = botzone_tiles(init["walltiles"].split())
        blocks = [tiles[34 * s : 34 * s + 34][::-1] for s in range(4)]
        record = parsed.record
        assert record.round_wind == parse_tile("1z") + init["quan"]
        for seat in range(4):
            assert record.deal[seat] == blocks[seat][:13]
        assert record.wall == tuple(t for block in blocks for t in block[13:])
        drawn = [0] * 4
        for event in record.events:
            if isinstance(event, Draw):
                assert event.tile == blocks[event.seat][13 + drawn[event.seat]]
                drawn[event.seat] += 1
        # The judge's last tile counts are what is left of each seat's 21.
        final = raw["logs"][-1]["output"]["display"]["tileCnt"]
        assert final == [21 - n for n in drawn]


def test_json_chi_and_peng_discard_in_the_same_entry(
    json_hands: list[tuple[Path, Parsed]],
) -> None:
    for path, parsed in json_hands:
        raw = json.loads(path.read_text(encoding="utf-8"))
        judged = [e["output"]["display"] for e in raw["logs"] if "output" in e]
        claims = [d for d in judged if d["action"] in ("CHI", "PENG")]
        events = parsed.record.events
        melds = [i for i, e in enumerate(events) if isinstance(e, Chi | Pong)]
        assert len(melds) == len(claims)
        for i, display in zip(melds, claims, strict=True):
            follow = events[i + 1]
            assert isinstance(follow, Discard)
            assert follow.seat == display["player"]
            assert follow.tile == botzone_tiles([display["tile"]])[0]


def test_detect_recognises_both_formats(botzone_dir: Path) -> None:
    assert detect(botzone_dir / "sample.txt") == "botzone-text"
    for path in _json_files(botzone_dir):
        assert detect(path) == "botzone-json"
    assert detect(HANDMADE) == "botzone-text"
    parsed, rejected = _split(list(parse_any(_json_files(botzone_dir)[0])))
    assert len(parsed) == 1 and rejected == []


# --- hand-made fixtures ------------------------------------------------------------------


def test_handmade_kongs_flower_and_robbing() -> None:
    parsed, rejected = _split(list(parse_botzone_text(HANDMADE)))
    assert rejected == []
    assert [p.record.game for p in parsed] == [
        "handmade-robbing",
        "handmade-selfdraw",
        "handmade-drawn",
    ]
    robbing = parsed[0].record
    arrays = [e.to_array() for e in robbing.events]
    assert arrays[:6] == [
        ["draw", 0, "1f"],
        ["flower", 0, "1f"],
        ["draw", 0, "1m"],
        ["concealed_kong", 0, "1m"],
        ["draw", 0, "9s"],
        ["discard", 0, "9s"],
    ]
    assert ["kong", 2, "6z"] in arrays  # J2 is green
    assert arrays[-2:] == [["added_kong", 3, "1p"], ["win", 0, "1p", {"from": 3}]]
    assert robbing.round_wind == parse_tile("3z")
    assert robbing.result is not None
    fans = [f.to_json() for f in robbing.result.wins[0].fans]
    assert fans == [
        ["robbing_the_kong", 8, 1],
        ["concealed_kong", 2, 1],
        ["closed_wait", 1, 1],
        ["flower_tiles", 1, 1],
    ]
    for p in parsed:
        check_invariants(p.record)
        _round_trip(p.record)


def test_self_draw_win_is_on_the_drawn_tile_whatever_the_hu_line_names() -> None:
    """Some published copies name the previous discard on a self-drawn Hu line."""
    record = list(parse_botzone_text(HANDMADE))[1].record
    assert record.events[-2:] == (Draw(1, parse_tile("5p")), Win(1, parse_tile("5p")))
    assert record.result is not None
    win = record.result.wins[0]
    assert (win.from_seat, win.tile) == (None, parse_tile("5p"))
    # Old spellings: 坎张 → closed_wait, 单钓将 → single_wait.
    ids = [f.id for f in win.fans]
    assert "closed_wait" in ids and "single_wait" in ids


def _mini_json(*judged: dict, walltiles: str | None = None) -> dict:
    """A small Botzone match object: the judge's displays, each followed by PASS responses."""
    rows = (
        "W1 W1 W1 W2 W3 W4 W5 W6 W7 B2 B2 B3 B4",
        "T1 T2 T3 T4 T5 T6 T7 T8 T9 B3 B3 J2 J2",
        "F1 F1 F2 F2 F3 F3 F4 J2 J2 B7 J3 J3 B9",
        "B1 B1 B5 B6 B7 T1 T2 T3 W8 W8 F4 J1 J1",
    )
    deal = [row.split() for row in rows]
    displays = [{"action": "INIT", "quan": 1}, {"action": "DEAL", "hand": deal}, *judged]
    passes = {str(s): {"verdict": "OK", "response": "PASS"} for s in range(4)}
    logs: list[dict] = []
    for display in displays:
        command = "finish" if display["action"] in ("HU", "HUANG") else "request"
        logs.append({"output": {"command": command, "display": display}, "verdict": "OK"})
        logs.append(passes)
    init = {"quan": 1, "srand": 1}
    if walltiles is not None:
        init["walltiles"] = walltiles
    return {"logs": logs[:-1], "players": [{"name": ""}] * 4, "initdata": json.dumps(init)}


def test_json_kongs_and_huang_without_walltiles() -> None:
    obj = _mini_json(
        {"action": "DRAW", "player": 0, "tile": "W1"},
        {"action": "GANG", "player": 0, "tile": "W1"},
        {"action": "DRAW", "player": 0, "tile": "T9"},
        {"action": "PLAY", "player": 0, "tile": "J2"},
        {"action": "GANG", "player": 1},
        {"action": "DRAW", "player": 1, "tile": "B1"},
        {"action": "PLAY", "player": 1, "tile": "B1"},
        {"action": "PENG", "player": 3, "tile": "F4"},
        {"action": "HUANG"},
    )
    record = read_match(obj, "mini", "mini_lite.json")
    assert record.players == ("p0", "p1", "p2", "p3")
    assert record.round_wind == parse_tile("2z")
    assert record.wall is None
    assert [e.to_array() for e in record.events] == [
        ["draw", 0, "1m"],
        ["concealed_kong", 0, "1m"],
        ["draw", 0, "9s"],
        ["discard", 0, "6z"],
        ["kong", 1, "6z"],
        ["draw", 1, "1p"],
        ["discard", 1, "1p"],
        ["pong", 3, "1p"],
        ["discard", 3, "4z"],
    ]
    assert record.result is not None
    assert record.result.to_json() == {"outcome": "draw", "deltas": [0, 0, 0, 0]}


def test_json_self_draw_and_robbing_the_kong() -> None:
    fan = [{"name": "自摸", "value": 1, "cnt": 1}, {"name": "无番和", "value": 8, "cnt": 1}]
    self_drawn = _mini_json(
        {"action": "DRAW", "player": 0, "tile": "W8"},
        {"action": "HU", "player": 0, "fan": fan, "fanCnt": 9, "score": [51, -17, -17, -17]},
    )
    record = read_match(self_drawn, "mini", "mini_lite.json")
    assert record.events[-1] == Win(0, parse_tile("8m"))
    robbing = _mini_json(
        {"action": "DRAW", "player": 0, "tile": "W1"},
        {"action": "BUGANG", "player": 0, "tile": "W1"},
        {"action": "HU", "player": 2, "fan": fan[1:], "fanCnt": 8, "score": [-16, -8, 32, -8]},
    )
    record = read_match(robbing, "mini", "mini_lite.json")
    assert record.events[-1] == Win(2, parse_tile("1m"), 0)


# --- broken input ------------------------------------------------------------------------


def test_truncated_text_rejects_only_the_cut_match(botzone_dir: Path, tmp_path: Path) -> None:
    lines = _sample_lines(botzone_dir)
    cut = 150  # inside the second match (lines 107-201)
    path = _write(tmp_path, "cut.txt", lines[:cut])
    parsed, rejected = _split(list(parse_botzone_text(path)))
    assert len(parsed) == 1
    [bad] = rejected
    assert (bad.path, bad.line, bad.game, bad.hand) == (str(path), cut, lines[106].split()[1], 0)
    assert "no Score line" in bad.reason and "line 107" in bad.reason
    # A match cut short followed by complete ones: the others still parse.
    path = _write(tmp_path, "hole.txt", [*lines[:cut], "\n", *lines[202:]])
    parsed, rejected = _split(list(parse_botzone_text(path)))
    assert len(parsed) == 15
    assert [r.line for r in rejected] == [cut]


def test_unknown_tile_code(botzone_dir: Path, tmp_path: Path) -> None:
    lines = _sample_lines(botzone_dir)
    at = _line_of(lines, "Player 2 Play F4")  # in the first match
    lines[at - 1] = "Player 2 Play X9\n"
    path = _write(tmp_path, "x9.txt", lines)
    parsed, rejected = _split(list(parse_botzone_text(path)))
    assert len(parsed) == 15
    [bad] = rejected
    assert (bad.path, bad.line, bad.game) == (str(path), at, "61602cb45ddc087351c04358")
    assert bad.reason == f"line {at}: unknown tile code 'X9'"


def test_chi_that_cannot_use_the_last_discard(botzone_dir: Path, tmp_path: Path) -> None:
    lines = _sample_lines(botzone_dir)
    at = _line_of(lines, "Player 2 Chi T5")  # after "Player 1 Play T4"
    lines[at - 1] = "Player 2 Chi T8\n"
    path = _write(tmp_path, "chi.txt", lines)
    parsed, rejected = _split(list(parse_botzone_text(path)))
    assert len(parsed) == 15
    [bad] = rejected
    assert bad.line == at
    assert bad.reason == f"line {at}: chi 7s-8s-9s (middle 8s) cannot use the last discard 4s"


def test_unknown_fan_name_and_action(botzone_dir: Path, tmp_path: Path) -> None:
    lines = _sample_lines(botzone_dir)
    fan_at = _line_of(lines, "Fan 9 混一色*1+箭刻*1+老少副*1")
    lines[fan_at - 1] = "Fan 9 混一色*1+龙凤呈祥*1+老少副*1\n"
    action_at = _line_of(lines, "Player 3 AnGang W7")
    lines[action_at - 1] = "Player 3 LiGang W7\n"
    parsed, rejected = _split(list(parse_botzone_text(_write(tmp_path, "fan.txt", lines))))
    assert len(parsed) == 14
    assert [(r.line, r.reason) for r in rejected] == [
        (fan_at, f"line {fan_at}: unknown fan name '龙凤呈祥'"),
        (action_at, f"line {action_at}: unknown action 'LiGang' of player 3"),
    ]


def test_missing_deal_and_stray_lines(tmp_path: Path) -> None:
    lines = HANDMADE.read_text(encoding="utf-8").splitlines(keepends=True)
    deal_at = _line_of(lines, "Player 2 Deal F1 F1 F2 F2 F3 F3 F4 J2 J2 J2 J3 J3 B9")
    del lines[deal_at - 1]
    lines.insert(0, "garbage before any match\n")
    parsed, rejected = _split(list(parse_botzone_text(_write(tmp_path, "deal.txt", lines))))
    assert len(parsed) == 2
    assert [(r.line, r.reason) for r in rejected] == [
        (1, "line 1 is outside a match: 'garbage before any match'"),
        (7, "line 7: Draw before the Deal of player(s) 2"),
    ]


def test_json_cut_in_half(botzone_dir: Path, tmp_path: Path) -> None:
    source = _json_files(botzone_dir)[0]
    text = source.read_text(encoding="utf-8")
    path = tmp_path / source.name
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert (bad.path, bad.line, bad.game, bad.hand) == (str(path), 1, source.name[:24], 0)
    assert bad.reason.startswith("not valid JSON: ")
    assert "column" in bad.reason


def _broken_copy(source: Path, tmp_path: Path, index: int, change: dict) -> Path:
    obj = json.loads(source.read_text(encoding="utf-8"))
    obj["logs"][index].update(change)
    path = tmp_path / source.name
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def test_json_verdict_other_than_ok(botzone_dir: Path, tmp_path: Path) -> None:
    source = _json_files(botzone_dir)[0]
    path = _broken_copy(source, tmp_path, 10, {"verdict": "RE"})
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert (bad.line, bad.game) == (1, source.name[:24])
    assert bad.reason == "logs[10]: the judge's verdict is 'RE', not OK"
    obj = json.loads(source.read_text(encoding="utf-8"))
    obj["logs"][11]["2"]["verdict"] = "TLE"
    path.write_text(json.dumps(obj), encoding="utf-8")
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert bad.reason == "logs[11]: bot 2's response has verdict 'TLE', not OK"


def test_json_error_ending(botzone_dir: Path, tmp_path: Path) -> None:
    source = _json_files(botzone_dir)[0]
    obj = json.loads(source.read_text(encoding="utf-8"))
    cut = 21
    obj["logs"] = obj["logs"][:cut]
    obj["logs"].append(
        {
            "output": {
                "command": "finish",
                "content": {"0": -30, "1": 10, "2": 10, "3": 10},
                "display": {"action": "WA", "player": 0},
            },
            "verdict": "OK",
        }
    )
    path = tmp_path / source.name
    path.write_text(json.dumps(obj), encoding="utf-8")
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert bad.reason.startswith(f"logs[{cut}]: the match ends as an error (WA, scores ")
    # A log that simply stops is rejected too.
    obj["logs"] = obj["logs"][:cut]
    path.write_text(json.dumps(obj), encoding="utf-8")
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert bad.reason.startswith("the match ends without HU or HUANG (last judge action: ")


def test_json_fan_value_must_match_the_table(botzone_dir: Path, tmp_path: Path) -> None:
    source = _json_files(botzone_dir)[0]
    obj = json.loads(source.read_text(encoding="utf-8"))
    last = len(obj["logs"]) - 1
    fans = obj["logs"][last]["output"]["display"]["fan"]
    name = fans[0]["name"]
    fans[0]["value"] += 1
    path = tmp_path / source.name
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert bad.reason.startswith(f"logs[{last}]: fan '{name}' is recorded at ")


def test_json_draw_against_the_wall(botzone_dir: Path, tmp_path: Path) -> None:
    source = _json_files(botzone_dir)[0]
    obj = json.loads(source.read_text(encoding="utf-8"))
    index = next(
        i
        for i, e in enumerate(obj["logs"])
        if "output" in e and e["output"]["display"]["action"] == "DRAW"
    )
    display = obj["logs"][index]["output"]["display"]
    display["tile"] = "W1" if display["tile"] != "W1" else "W2"
    path = tmp_path / source.name
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    [bad] = list(parse_botzone_json(path))
    assert isinstance(bad, Rejected)
    assert bad.reason.startswith(f"logs[{index}]: seat 0 draws ")
    assert "but its wall holds" in bad.reason


# --- robustness and streaming ------------------------------------------------------------


def test_text_parser_never_raises_on_mangled_input(botzone_dir: Path) -> None:
    lines = _sample_lines(botzone_dir)
    rng = random.Random(20240611)
    junk = ["", "Player 9 Draw W1", "Fan x", "Score 1 2", "Player 1 Chi W9", "Huang", "Wind 7"]
    for _ in range(200):
        mangled = list(lines)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(mangled))
            roll = rng.random()
            if roll < 0.4:
                del mangled[i]
            elif roll < 0.7:
                mangled[i] = rng.choice(junk) + "\n"
            else:
                j = rng.randrange(len(mangled))
                mangled[i], mangled[j] = mangled[j], mangled[i]
        results = list(read_text_lines(io.StringIO("".join(mangled)), "m.txt", "m.txt"))
        assert all(isinstance(r, Parsed | Rejected) for r in results)


def test_json_parser_never_raises_on_mangled_input(botzone_dir: Path) -> None:
    source = _json_files(botzone_dir)[1]
    rng = random.Random(7)
    base = json.loads(source.read_text(encoding="utf-8"))
    for _ in range(100):
        obj = json.loads(json.dumps(base))
        logs = obj["logs"]
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(logs))
            roll = rng.random()
            if roll < 0.5:
                del logs[i]
            elif "output" in logs[i]:
                display = logs[i]["output"]["display"]
                key = rng.choice(sorted(display))
                display[key] = rng.choice([None, 7, "X", [], {"a": 1}, "W1"])
            else:
                logs[i] = rng.choice([None, [], {"0": None}, "PASS"])
        try:
            read_match(obj, "m", "m_lite.json")
        except ValueError as exc:  # BotzoneError: what becomes a Rejected
            assert str(exc)


class _CountingStream(io.StringIO):
    """A text stream that counts the lines handed out."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.lines_read = 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = super().__next__()
        self.lines_read += 1
        return line


def test_text_parser_streams(botzone_dir: Path) -> None:
    text = "".join(_sample_lines(botzone_dir))
    stream = _CountingStream(text)
    results = read_text_lines(stream, "s.txt", "s.txt")
    first = next(results)
    assert isinstance(first, Parsed)
    assert stream.lines_read <= 106  # the first match and its blank line, not the file
