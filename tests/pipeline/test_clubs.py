"""Clubs: score sheets and 国标小助手 records read as recorded-only hands, audited, ingested
and converted (issue 16; docs/clubs.md)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from paipu.parsers import Parsed, Rejected, detect, parse_any
from paipu.parsers.mahjong_helper import DEALERS, helper_tiles, seat_wind_index
from paipu.parsers.recorded import is_recorded, recorded_facts, recorded_hand
from paipu.parsers.score_sheet import read_sheet, write_sheet
from paipu.pipeline.audit import audit
from paipu.pipeline.cli import app
from paipu.pipeline.ingest import ingest
from paipu.pipeline.sheet_audit import exclusions_of
from paipu.rules.record import HandRecord, RecordedFan, RecordedWin
from paipu.rules.tiles import parse_tile, tile_names

FIXTURES = Path(__file__).parents[1] / "fixtures"
SHEETS = FIXTURES / "sheets"
HELPER = FIXTURES / "helper"
HEADER = "sitting,hand,variant,rules,p0,p1,p2,p3,dealer,winner,from,fans,total,deltas,penalties"


def entries(path: Path) -> list[dict]:
    return [e.to_json() for e in audit([path])]


def sheet(tmp_path: Path, *rows: str, header: str = HEADER) -> Path:
    path = tmp_path / "sheet.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def kinds(entry: dict) -> list[str]:
    return [f["kind"] for f in entry.get("findings", [])]


# ---------------------------------------------------------------------- the planted sheet


def test_planted_sheet_has_exactly_its_five_errors() -> None:
    found = {(e["hand"], kind) for e in entries(SHEETS / "club_planted.csv") for kind in kinds(e)}
    assert found == {
        (0, "fan_points"),  # 混一色 8
        (3, "excluded"),  # 四暗刻 with 碰碰和
        (4, "settlement"),  # the discarder paid the fan without the base
        (6, "zero_sum"),  # +2 in all
        (7, "minimum"),  # 6 fan without flowers
    }
    statuses = {e["hand"]: e["status"] for e in entries(SHEETS / "club_planted.csv")}
    assert statuses == {
        0: "mismatch", 1: "ok", 2: "ok", 3: "mismatch", 4: "mismatch", 5: "ok", 6: "mismatch",
        7: "invalid",
    }  # fmt: skip


def test_clean_sheet_has_no_finding() -> None:
    found = entries(SHEETS / "club_clean.csv")
    assert len(found) == 8
    assert all(e["status"] == "ok" and not e["problems"] for e in found)
    assert found[-1]["computed"]["running"] == [
        148,
        -24,
        -69,
        -55,
    ]  # worked by hand, column by column


def test_findings_are_in_chinese_and_english() -> None:
    [entry] = [e for e in entries(SHEETS / "club_planted.csv") if e["hand"] == 3]
    assert entry["problems"] == [
        "四暗刻不计碰碰和 / All Pungs is not counted with Four Concealed Pungs"
    ]
    [finding] = entry["findings"]
    assert finding == {
        "kind": "excluded",
        "status": "mismatch",
        "zh": "四暗刻不计碰碰和",
        "en": "All Pungs is not counted with Four Concealed Pungs",
    }


def test_a_sheet_hand_keeps_its_identity() -> None:
    [item, *_] = list(parse_any(SHEETS / "club_clean.csv"))
    assert isinstance(item, Parsed) and is_recorded(item.record)
    assert item.record.key == ("club-2026-05-01", 0) and item.line == 2
    assert detect(SHEETS / "club_clean.csv") == "score-sheet"


# ---------------------------------------------------------------------- sheets


def test_tiles_are_rescored_fan_by_fan(tmp_path: Path) -> None:
    header = HEADER + ",hand_tiles,melds,win_tile"
    path = sheet(
        tmp_path,
        "s,0,mcr,,A,B,C,D,0,2,1,清龙 16; 平和 2; 单钓将 1,19,-8|-27|43|-8,,234456s5789p,c123m@1,5p",
        header=header,
    )
    [entry] = entries(path)
    assert entry["status"] == "mismatch"
    assert kinds(entry) == ["fan_claimed", "fan_missing", "total", "settlement"]
    assert entry["computed"]["wins"][0]["fans"] == [
        ["mixed_straight", 8, 1],
        ["all_chows", 2, 1],
        ["single_wait", 1, 1],
    ]


def test_tiles_that_do_not_win_are_invalid(tmp_path: Path) -> None:
    header = HEADER + ",hand_tiles,melds,win_tile"
    path = sheet(
        tmp_path,
        "s,0,mcr,,A,B,C,D,0,2,1,花龙 8,8,-8|-16|32|-8,,123456s1589p,c123m@1,5p",
        header=header,
    )
    [entry] = entries(path)
    assert entry["status"] == "invalid" and kinds(entry) == ["tiles"]


def test_wrong_cells_are_rejected_with_file_line_and_column(tmp_path: Path) -> None:
    path = sheet(
        tmp_path,
        "s,0,mcr,,A,B,C,D,0,1,2,碰碰和 6; 混一色 6; 箭刻 2,14,-8|38|-22|-8,",
        "s,1,mcr,,A,B,C,D,7,1,2,大三园 88,x,-8|38|-22,",
        "s,2,mcr,,A,B,C,D,2,,,,,0|0|0|0,",
    )
    results = list(parse_any(path))
    assert [type(r).__name__ for r in results] == ["Parsed", "Rejected", "Parsed"]
    bad = results[1]
    assert isinstance(bad, Rejected) and bad.line == 3 and bad.hand == 1
    text = bad.describe()
    assert text.startswith(f"{path}:3 game s hand 1: ")
    for column in ("dealer", "fans", "total", "deltas"):
        assert f"column {column!r}" in text
    assert "'大三园' is not a fan of mcr" in text


def test_draws_and_penalties(tmp_path: Path) -> None:
    path = sheet(
        tmp_path,
        "s,0,mcr,,A,B,C,D,0,,,,,0|0|-10|10,0|0|-10|10",
        "s,1,mcr,,A,B,C,D,1,,,,,0|0|-10|0,0|0|-10|0",
        "s,2,mcr,,A,B,C,D,2,1,2,碰碰和 6; 混一色 6; 箭刻 2,14,-8|28|-12|-8,0|-10|10|0",
    )
    found = entries(path)
    assert [e["status"] for e in found] == ["ok", "mismatch", "ok"]
    assert kinds(found[1]) == ["zero_sum"]
    assert found[2]["recorded"]["penalties"] == [0, -10, 10, 0]


def test_names_ids_and_counts_of_fans(tmp_path: Path) -> None:
    path = sheet(
        tmp_path,
        "s,0,mcr,,A,B,C,D,0,1,,all_pungs 6; Half Flush 6; 幺九刻 1 x3; 花牌 1 x2,17,"
        "-25|75|-25|-25,",
    )
    [entry] = entries(path)
    assert entry["status"] == "ok"
    assert entry["recorded"]["wins"][0]["fans"] == [
        ["all_pungs", 6, 1],
        ["half_flush", 6, 1],
        ["pung_of_terminals_or_honors", 1, 3],
        ["flower_tiles", 1, 2],
    ]


def test_multiple_wins_where_the_variant_allows_them(tmp_path: Path) -> None:
    header = HEADER + ",extra"
    # 长沙 通炮: seats 1 and 3 win on seat 0's discard, each 一个大胡 (6); no birds
    path = sheet(
        tmp_path,
        's,0,changsha,"{""birds"": 0}",A,B,C,D,0,1|3,0,碰碰胡 6|清一色 6,6|6,-12|6|0|6,,',
        "t,1,mcr,,A,B,C,D,1,1|3,0,碰碰和 6; 混一色 6|清一色 24,12|24,-68|28|8|32,,",
        header=header,
    )
    found = entries(path)
    assert found[0]["status"] == "ok", found[0]["problems"]
    assert found[1]["status"] == "invalid" and kinds(found[1])[0] == "winners"


def test_sitting_checks_players_and_hand_order(tmp_path: Path) -> None:
    path = sheet(
        tmp_path,
        "s,0,mcr,,A,B,C,D,0,,,,,0|0|0|0,",
        "s,2,mcr,,A,B,C,E,2,,,,,0|0|0|0,",
        "s,2,mcr,,A,B,C,D,2,,,,,0|0|0|0,",
    )
    found = entries(path)
    assert [kinds(e) for e in found] == [[], ["sitting", "sitting"], ["sitting"]]
    assert "hand(s) 1 missing" in found[1]["problems"][1]
    assert "written twice" in found[2]["problems"][0]


# ---------------------------------------------------------------------- 国标小助手


def test_helper_worked_example() -> None:
    found = entries(HELPER / "worked_example.json")
    assert [(e["game"], e["hand"], e["status"]) for e in found] == [
        ("1795258800 示例", 0, "ok"),
        ("1795258800 示例", 1, "ok"),
    ]
    assert found[0]["recorded"]["deltas"] == [-8, -19, 35, -8]
    assert found[1]["computed"]["running"] == [-8, -19, 35, -8]
    assert detect(HELPER / "worked_example.json") == "mahjong-helper"


def test_helper_seats_follow_the_app() -> None:
    assert DEALERS == (0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 1, 0, 3, 2, 0, 1)
    assert [seat_wind_index(p, 4) for p in range(4)] == [1, 0, 3, 2]  # 南风东: P1 is East


def test_helper_tiles_old_and_new_notation() -> None:
    for text in ("[123m]234456s5789p5p", "[123m,1]234456s5789p5p"):
        melds, concealed, win = helper_tiles(text)
        assert melds == [("chi", [0, 1, 2], 1)] and tile_names([win]) == ["5p"]
    melds, concealed, win = helper_tiles("[6666p,0][555p2][EEE]CC5z9s9s")
    assert [m[0] for m in melds] == ["concealed_kong", "pong", "pong"]
    assert tile_names(concealed) == ["7z", "7z", "7z", "9s"]  # C is 中; the old 5z too
    assert tile_names([win]) == ["9s"]


def test_helper_legacy_keys_are_upgraded() -> None:
    found = entries(HELPER / "legacy_history.json")
    assert [e["status"] for e in found] == ["ok", "ok", "ok"]
    assert found[1]["recorded"]["penalties"] == [10, 10, -30, 10]  # false_win
    assert found[2]["recorded"]["wins"][0]["fans"] == [
        ["concealed_hand", 2, 1],
        ["all_chows", 2, 1],
        ["tile_hog", 2, 2],
        ["all_simples", 2, 1],
    ]  # packed_fan 1 (门断平) and multiple_fan (四归一 ×2)


def test_helper_forced_end_and_wrong_values() -> None:
    found = entries(HELPER / "forced_end.json")
    assert [e["hand"] for e in found] == [0, 1, 2, 3, 4, 5]  # the 10 timeouts: no disputes
    by_hand = {e["hand"]: e for e in found}
    assert kinds(by_hand[0]) == ["excluded"]
    assert by_hand[1]["status"] == "ok"  # small fans left unmarked: normal in the app
    assert kinds(by_hand[2]) == ["minimum"] and by_hand[2]["recorded"]["deltas"] == [0] * 4
    assert kinds(by_hand[3]) == ["zero_sum"]
    assert by_hand[4]["status"] == "invalid"
    assert by_hand[4]["problems"] == ["$.detail[4].fan: '12' is not a whole number 0 to 2^16 - 1"]
    assert kinds(by_hand[5])[1:] == ["fan_claimed", "fan_missing", "total", "settlement"]


def test_helper_p2p_stream() -> None:
    found = entries(HELPER / "p2p.bin")
    assert sorted({e["game"] for e in found}) == ["1795258800 示例", "1795262400 第二场"]
    assert all(e["status"] == "ok" for e in found)


def test_exclusions_never_forbid_what_the_calculator_counts() -> None:
    forbidden = exclusions_of("mcr")
    assert forbidden["four_concealed_pungs"] >= {"all_pungs", "concealed_hand"}
    assert "fully_concealed_hand" in forbidden["four_concealed_pungs"]  # demoted to 自摸
    assert forbidden["seven_pairs"] >= {"single_wait", "concealed_hand"}
    checked = 0
    data = Path(__file__).parents[2] / "data" / "mcr.paipu.jsonl"
    for line in data.read_text(encoding="utf-8").splitlines():
        for win in json.loads(line).get("result", {}).get("wins", []):
            ids = {fan[0] for fan in win["fans"]}
            for fan in ids:
                assert not forbidden.get(fan, frozenset()) & ids, (fan, ids)
            checked += 1
    assert checked > 100


# ---------------------------------------------------------------------- ingest and convert


def test_ingest_loads_recorded_hands_beside_the_logs(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    data = Path(__file__).parents[2] / "data" / "mcr.paipu.jsonl"
    ingest([SHEETS / "club_planted.csv", HELPER / "forced_end.json", data], db)
    ingest([SHEETS / "club_planted.csv"], db)  # again: replaced, migration re-applied
    con = duckdb.connect(str(db), read_only=True)
    kinds_ = dict(con.execute("SELECT source_kind, count(*) FROM hands GROUP BY 1").fetchall())
    assert kinds_ == {"events": 320, "recorded": 8 + 5}  # timeouts are not loaded
    verdicts = con.execute(
        "SELECT hand, verdict FROM hands WHERE game = 'club-2026-05-01' ORDER BY hand"
    ).fetchall()
    assert [v for _, v in verdicts] == [
        "mismatch", "ok", "ok", "mismatch", "mismatch", "ok", "mismatch", "invalid"
    ]  # fmt: skip
    fans = con.execute(
        "SELECT count(*) FROM win_fans f JOIN hands h USING (game, hand) "
        "WHERE h.source_kind = 'recorded'"
    ).fetchone()
    assert fans == (16 + 7,)
    assert con.execute(
        "SELECT count(*) FROM discards d JOIN hands h USING (game, hand) "
        "WHERE h.source_kind = 'recorded'"
    ).fetchone() == (0,)
    penalties = con.execute(
        "SELECT list(penalty ORDER BY seat) FROM hand_seats WHERE game = 'club-2026-05-01' "
        "AND hand = 5"
    ).fetchone()
    assert penalties == ([10, 10, -30, 10],)


def test_convert_writes_a_sheet_and_reads_it_back(tmp_path: Path) -> None:
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    runner = CliRunner()
    result = runner.invoke(app, ["convert", str(SHEETS / "club_clean.csv"), "--out", str(first)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["convert", str(first), "--out", str(second)])
    assert result.exit_code == 0, result.output
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    logs = tmp_path / "logs.csv"
    data = Path(__file__).parents[2] / "data" / "mcr.paipu.jsonl"
    result = runner.invoke(app, ["convert", str(data), "--out", str(logs)])
    assert result.exit_code == 0, result.output
    assert all(e.status == "ok" for e in audit([logs]))


def _names() -> st.SearchStrategy[str]:
    return (
        st.text(st.sampled_from('ABC甲乙, "|;x'), min_size=1, max_size=6)
        .map(str.strip)
        .filter(bool)
    )


FANS = [("all_pungs", 6), ("half_flush", 6), ("dragon_pung", 2), ("pung_of_terminals_or_honors", 1)]


TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]


@st.composite
def melds(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(["chi", "pong", "kong", "added_kong", "concealed_kong"]))
    if kind == "chi":
        suit, start = draw(st.sampled_from("mps")), draw(st.integers(1, 7))
        tiles = [f"{start + i}{suit}" for i in range(3)]
    else:
        tile = draw(st.sampled_from(TILES))
        tiles = [tile] * (3 if kind == "pong" else 4)
    meld = {"kind": kind, "tiles": tiles}
    if kind != "concealed_kong" and draw(st.booleans()):
        meld["from"] = draw(st.integers(0, 3))
    return meld


@st.composite
def winner_tiles(draw: st.DrawFn) -> dict:
    tiles: dict = {
        "hand": draw(st.lists(st.sampled_from(TILES), min_size=1, max_size=13)),
        "melds": draw(st.lists(melds(), max_size=4)),
        "win_tile": draw(st.sampled_from(TILES)),
        "flags": dict.fromkeys(draw(st.lists(st.sampled_from(FLAGS), unique=True)), True),
    }
    flowers = draw(st.lists(st.sampled_from([f"{i}f" for i in range(1, 9)]), unique=True))
    if flowers:
        tiles["flowers"] = flowers
    return tiles


FLAGS = ["last_tile", "kong_replacement", "robbing_kong", "last_of_kind"]


@st.composite
def recorded_hands(draw: st.DrawFn) -> HandRecord:
    """Recorded-only hands of every shape a sheet holds: draws, wins with and without the
    winner's tiles, several winners with their own discarders, penalties, notes."""
    players = tuple(draw(st.lists(_names(), min_size=4, max_size=4)))
    dealer = draw(st.integers(0, 3))
    deltas = tuple(draw(st.lists(st.integers(-300, 300), min_size=4, max_size=4)))
    seats = draw(st.lists(st.integers(0, 3), unique=True, max_size=3))
    with_tiles = draw(st.booleans())
    wins, tiles = [], []
    for seat in seats:
        from_seat = draw(st.sampled_from([None, *[s for s in range(4) if s not in seats]]))
        chosen = draw(st.lists(st.sampled_from(FANS), unique=True, max_size=4))
        fans = tuple(RecordedFan(f, p, draw(st.integers(1, 3))) for f, p in chosen)
        total = draw(st.none() | st.integers(0, 200))
        request = draw(st.none() | winner_tiles()) if with_tiles else None
        tile = parse_tile(request["win_tile"]) if request else draw(st.none() | st.integers(0, 33))
        wins.append(RecordedWin(seat, from_seat, tile, total, fans))
        tiles.append(request)
    facts: dict = {"fans_complete": True}
    if draw(st.booleans()):
        facts["penalties"] = draw(st.lists(st.integers(-30, 30), min_size=4, max_size=4))
    if any(tiles):
        facts["tiles"] = tiles
    elif seats and draw(st.booleans()):
        facts["flowers"] = [["1f", "2f"] for _ in seats]
    if draw(st.booleans()):
        facts["note"] = draw(_names())
    game = draw(_names())
    return recorded_hand(
        "mcr", game, draw(st.integers(0, 20)), players, dealer, wins, deltas,
        {"format": "score-sheet"}, facts=facts,
    )  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(recorded_hands(), min_size=1, max_size=4))
def test_sheet_round_trip(records: list[HandRecord]) -> None:
    stream = io.StringIO()
    write_sheet(records, stream)
    read = list(read_sheet(io.StringIO(stream.getvalue()), "x.csv"))
    assert all(isinstance(r, Parsed) for r in read), [r for r in read if isinstance(r, Rejected)]
    for original, item in zip(records, read, strict=True):
        assert isinstance(item, Parsed)
        again = item.record
        assert (again.game, again.hand, again.players, again.dealer) == (
            original.game, original.hand, original.players, original.dealer,
        )  # fmt: skip
        assert again.result == original.result
        assert recorded_facts(again) == recorded_facts(original)
    rewritten = io.StringIO()
    write_sheet([r.record for r in read if isinstance(r, Parsed)], rewritten)
    assert rewritten.getvalue() == stream.getvalue()


def test_helper_fixed_seat_mode_is_a_note_not_an_error(tmp_path: Path) -> None:
    # hand 4 (南风东): the app counted 门风刻 with fixed seats (P0 East), the 换位 table
    # makes P0 South; under 固定 the claim is exact, so the hand stays ok, with a note
    [*_, entry] = entries(HELPER / "fixed_seats.json")
    assert entry["status"] == "ok" and kinds(entry) == ["seat_mode"]
    assert entry["computed"]["deltas"] == [87, -29, -29, -29]
    record = json.loads((HELPER / "fixed_seats.json").read_text(encoding="utf-8"))
    record["detail"][4]["fan_bits"] = 1 << 28  # 一色三步高 instead of 清龙: wrong either way
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    [*_, entry] = entries(path)
    assert entry["status"] == "mismatch"
    assert "seat_mode" not in kinds(entry) and "fan_claimed" in kinds(entry)


VARIANTS = ("mcr", "changsha", "zhuanzhuan", "sichuan", "zipai_chenzhou")


def test_every_variant_audits_from_a_sheet(tmp_path: Path) -> None:
    """Each variant's logs, written as a sheet (no tiles), audit ok from the claims alone;
    moving one point between two seats of a won hand is then caught by the settlement."""
    data = Path(__file__).parents[2] / "data"
    runner = CliRunner()
    for variant in VARIANTS:
        logs = tmp_path / f"{variant}.paipu.jsonl"
        lines = (data / f"{variant}.paipu.jsonl").read_text(encoding="utf-8").splitlines()
        logs.write_text("\n".join(lines[:40]) + "\n", encoding="utf-8")
        sheet_path = tmp_path / f"{variant}.csv"
        result = runner.invoke(app, ["convert", str(logs), "--out", str(sheet_path)])
        assert result.exit_code == 0, result.output
        found = entries(sheet_path)
        assert len(found) == 40 and all(e["status"] == "ok" for e in found), variant
        with sheet_path.open(encoding="utf-8", newline="") as stream:
            rows = list(csv.DictReader(stream))
        row = next(r for r in rows if r["winner"])
        deltas = [int(d) for d in row["deltas"].split("|")]
        deltas[0], deltas[1] = deltas[0] + 1, deltas[1] - 1
        row["deltas"] = "|".join(map(str, deltas))
        with sheet_path.open("w", encoding="utf-8", newline="") as stream:
            writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        changed = [e for e in entries(sheet_path) if e["status"] != "ok"]
        assert [kinds(e) for e in changed] == [["settlement"]], variant


def test_a_penalty_on_a_hand_never_played_is_kept(tmp_path: Path) -> None:
    record = json.loads((HELPER / "forced_end.json").read_text(encoding="utf-8"))
    record["detail"][6]["penalty_scores"] = [-10, 10, 0, 0]  # 罚分 during the forced end
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert [e["hand"] for e in entries(path)] == [0, 1, 2, 3, 4, 5]  # still no dispute
    db = tmp_path / "club.duckdb"
    ingest([path], db, jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT hand, outcome FROM hands WHERE hand >= 5 ORDER BY hand").fetchall()
    assert rows == [(5, "win"), (6, "abort")]
    totals = con.execute(
        "SELECT list(delta ORDER BY seat) FROM hand_seats WHERE hand = 6"
    ).fetchone()
    assert totals == ([-10, 10, 0, 0],)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2**58 - 1),
    st.integers(0, 2**20 - 1),
    st.integers(0, 2**56 - 1),
)
def test_helper_fan_fields_map_one_to_one(fan_bits: int, fan2_bits: int, fan1_bits: int) -> None:
    """Every bit pattern of the three fields reads as fans (enum = the TOML's index) that
    encode back to the same fields, each fan at its table points."""
    from paipu.parsers.mahjong_helper import fans_of_fields
    from paipu.rules.variants import get_variant

    table = get_variant("mcr").spec.fans.by_id
    back = [0, 0, 0]
    for fan in fans_of_fields(fan_bits, fan2_bits, fan1_bits):
        enum = table[fan.id].index
        assert fan.points == table[fan.id].points
        if enum <= 58:
            back[0] |= 1 << (58 - enum)
        elif enum <= 68:
            back[1] |= fan.count << 2 * (enum - 59)
        else:
            back[2] |= fan.count << 4 * (enum - 69)
    assert back == [fan_bits, fan2_bits, fan1_bits]
