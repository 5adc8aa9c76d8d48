"""广东推倒胡 scoring (`paipu score`, ../shared/spec/score-request.md "Wave 2" guangdong):
the digest's worked example and horse table number by number, every option of the contract,
the ghosts (extra.wild) against the core's brute-force oracle, and the laws (zero-sum, tile
order)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.rules.core.tiles import STANDARD
from paipu.rules.core.wild import WildSpec
from paipu.rules.score import score_json
from paipu.rules.tiles import counts, parse_tile, parse_tiles, tile_names
from paipu.rules.variants.guangdong.settlement import horse_seat
from tests.rules.core.test_core_wilds import oracle_win, plain_complete
from tests.rules.guangdong.guangdong_helpers import request

PLAIN = "123m456p789s11z45m"  # waits on 3m / 6m


def answer(hand: str, win: str, **fields):
    return score_json(request(hand, win, **fields))


# ---------------------------------------------------------------------- the digest's numbers


def test_worked_example_no_ghost_four_horses_self_draw() -> None:
    """Digest §7: South self-draws; horses 5万 (dealer East), 2条 (East's next: South), 6筒
    (South), 北 (East's previous: North); 2 hit South → each pays 2 + 2 × 2 = 6, South +18."""
    a = answer(
        PLAIN,
        "6m",
        seat=1,
        rules={"horses": 4},
        extra={"horse_tiles": ["5m", "2s", "6p", "4z"]},
    )
    assert a.legal and a.total == 2
    assert [(f.id, f.count) for f in a.fans] == [("tui_dao_hu", 1), ("self_draw", 1), ("horse", 2)]
    assert a.deltas == (-6, 18, -6, -6)
    assert a.extra["horse_hits"] == 2


@pytest.mark.parametrize(
    ("tile", "offset"),
    [
        *[(f"{r}m", 0) for r in (1, 5, 9)],
        *[(f"{r}p", 1) for r in (2, 6)],
        *[(f"{r}s", 2) for r in (3, 7)],
        *[(f"{r}m", 3) for r in (4, 8)],
        ("1z", 0),
        ("7z", 0),
        ("2z", 1),
        ("6z", 1),
        ("3z", 2),
        ("5z", 2),
        ("4z", 3),
    ],
)
def test_horse_seat_table(tile: str, offset: int) -> None:
    """Digest §6: 1/5/9 & 东/中 → dealer; 2/6 & 南/发 → 下家; 3/7 & 西/白 → 对家; 4/8 & 北
    → 上家."""
    for dealer in range(4):
        assert horse_seat(parse_tile(tile), dealer, 4) == (dealer + offset) % 4


def test_the_values_table() -> None:
    """Digest §6: base 2 per payer; 无鬼加倍 ×2; 七对加番 ×2; each horse +2 (马跟底分: + points)."""
    white = {"ghost": "white"}
    no_ghost = answer(PLAIN, "6m", rules=white, extra={"wild": ["5z"]})
    assert no_ghost.total == 4 and no_ghost.deltas == (12, -4, -4, -4)
    assert [f.id for f in no_ghost.fans] == ["tui_dao_hu", "no_ghost", "self_draw"]
    off = answer(PLAIN, "6m", rules={**white, "no_ghost_double": False}, extra={"wild": ["5z"]})
    assert off.total == 2
    pairs = "1133m5577p99s11z2"
    plain_pairs = answer(pairs + "z", "2z", rules={"seven_pairs": True})
    assert plain_pairs.total == 2 and plain_pairs.fans[0].id == "seven_pairs"
    doubled = answer(pairs + "z", "2z", rules={"seven_pairs": True, "seven_pairs_double": True})
    assert doubled.total == 4 and [f.id for f in doubled.fans][:2] == [
        "seven_pairs",
        "seven_pairs_double",
    ]
    assert not answer(pairs + "z", "2z").legal  # 七对 is off by default
    horses = {"horses": 2, "horse_value": "points"}
    both = answer(
        PLAIN, "6m", rules={**white, **horses}, extra={"wild": ["5z"], "horse_tiles": ["1m", "9p"]}
    )
    assert both.total == 4 and both.deltas == (36, -12, -12, -12)  # 4 + 2 horses × 4


def test_who_pays() -> None:
    # 只许自摸: no discard win unless discard_win
    refused = answer(PLAIN, "6m", **{"from": 2})
    assert not refused.legal and "只许自摸" in refused.reason
    one = answer(PLAIN, "6m", rules={"discard_win": True}, **{"from": 2})
    assert one.deltas == (2, 0, -2, 0) and one.fans[-1].id == "discard_win"
    every = answer(PLAIN, "6m", rules={"discard_win": True, "discard_payer": "all"}, **{"from": 2})
    assert every.deltas == (6, -2, -2, -2)
    # 抢杠: the robbed konger pays all three shares (抢杠全包), or each its own
    rob = {"from": 3, "flags": {"robbing_kong": True}}
    assert answer(PLAIN, "6m", **rob).deltas == (6, 0, 0, -6)
    assert answer(PLAIN, "6m", rules={"rob_kong_pays_all": False}, **rob).deltas == (6, -2, -2, -2)
    assert not answer(PLAIN, "6m", rules={"rob_kong": False}, **rob).legal
    # 杠爆全包: a win on a 直杠's replacement, the feeder pays all; the feeder from the last
    # meld or extra.fed_by
    kong = [("kong", "7777z", 2)]
    hand = "123m456p789s"
    flags = {"kong_replacement": True}
    bao = answer(hand + "1z", "1z", melds=kong, flags=flags)
    assert bao.deltas == (6, 0, -6, 0) and [f.id for f in bao.fans][-1] == "kong_bao"
    fed = answer(hand + "1z", "1z", melds=kong, flags=flags, extra={"fed_by": 3})
    assert fed.deltas == (6, 0, 0, -6)
    each = answer(hand + "1z", "1z", melds=kong, flags=flags, rules={"kong_bao_pays_all": False})
    assert each.deltas == (6, -2, -2, -2)
    concealed = answer(hand + "1z", "1z", melds=[("concealed_kong", "7777z", None)], flags=flags)
    assert concealed.deltas == (6, -2, -2, -2)


def test_ghost_modes_and_extra_wild() -> None:
    # 白板做鬼: 5z stands for 3m or 6m
    hand = "123m456p789s11z5z4m"
    white = answer(hand, "5m", rules={"ghost": "white"}, extra={"wild": ["5z"]})
    assert white.legal and white.total == 2 and white.extra["wild"] == ["5z"]
    assert white.extra["substitutions"] == [["5z", "3m"]]
    assert not answer(hand, "5m").legal  # no ghosts: 5z is a plain 白板
    # 翻鬼: the flipped tile's next kind (the request names the ghosts, not the indicator)
    flip = answer("123m456p789s11z9s4m", "5m", rules={"ghost": "flip1"}, extra={"wild": ["9s"]})
    assert flip.legal and flip.extra["wild"] == ["9s"]
    flip2 = {"ghost": "white_flip2"}
    two = answer("123m456p789s11z1p4m", "5m", rules=flip2, extra={"wild": ["5z", "1p", "2p"]})
    assert two.legal
    for rules, wild, why in [
        ({"ghost": "white"}, ["6z"], "the wilds of this room are 5z"),
        ({"ghost": "flip2"}, ["1p", "3p"], "no indicator makes exactly"),
        ({}, ["5z"], "without wilds"),
        ({"ghost": "flip1"}, [], "must name the wild kinds"),
    ]:
        bad = answer(PLAIN, "6m", rules=rules, extra={"wild": wild})
        assert bad.error and why in bad.error, bad
    assert "horse" in answer(PLAIN, "6m", extra={"horse_tiles": ["1m"]}).error
    assert "unknown extra" in answer(PLAIN, "6m", extra={"birds": []}).error


def test_four_ghosts_win_at_once_on_the_first_turn() -> None:
    hand = "5555z19m19p19s123z"  # 5z×4 and nine unrelated tiles
    rules = {"ghost": "white"}
    tiles = parse_tiles(hand)
    assert len(tiles) == 13
    first = answer(hand, "7z", rules=rules, extra={"wild": ["5z"], "first_turn": True})
    assert first.legal and first.fans[0].id == "four_ghosts"
    assert not answer(hand, "7z", rules=rules, extra={"wild": ["5z"]}).legal
    off = {"ghost": "white", "four_ghosts": False}
    assert not answer(hand, "7z", rules=off, extra={"wild": ["5z"], "first_turn": True}).legal


def test_paipu_score_cli() -> None:
    line = json.dumps(
        request(
            PLAIN,
            "6m",
            seat=1,
            rules={"horses": 4},
            extra={"horse_tiles": ["5m", "2s", "6p", "4z"]},
        )
    )
    result = CliRunner().invoke(app, ["score", "--jsonl", "-"], input=line + "\n")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output.strip().splitlines()[-1])
    assert out["deltas"] == [-6, 18, -6, -6] and out["total"] == 2


# ---------------------------------------------------------------------- laws

SETS = [*(parse_tiles(f"{r}{r}{r}{s}") for s in "mps" for r in range(1, 10))]
SETS += [parse_tiles(f"{r}{r + 1}{r + 2}{s}") for s in "mps" for r in range(1, 8)]
SETS += [parse_tiles(f"{r}{r}{r}z") for r in range(1, 8)]


@st.composite
def winning(draw):
    """A complete 14-tile hand (4 sets and a pair, no copy beyond 4), its win tile and seats."""
    tiles: list[int] = []
    while len(tiles) < 12:
        block = draw(st.sampled_from(SETS))
        if all(tiles.count(t) + block.count(t) <= 4 for t in block):
            tiles += block
    pair = draw(st.sampled_from([t for t in range(34) if tiles.count(t) <= 2]))
    tiles += [pair, pair]
    win = draw(st.sampled_from(tiles))
    seat, dealer = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    source = draw(st.sampled_from(["self", "discard", "rob"]))
    frm = None if source == "self" else draw(st.sampled_from([s for s in range(4) if s != seat]))
    return tiles, win, seat, dealer, source, frm


OPTIONS = st.fixed_dictionaries(
    {
        "discard_win": st.booleans(),
        "discard_payer": st.sampled_from(["discarder", "all"]),
        "rob_kong_pays_all": st.booleans(),
        "horses": st.sampled_from([0, 2, 4]),
        "horse_value": st.sampled_from(["two", "points"]),
        "ghost": st.sampled_from(["none", "white"]),
    }
)


def _request(case, rules, horses, order):
    tiles, win, seat, dealer, source, frm = case
    hand = list(tiles)
    hand.remove(win)
    hand = [hand[i] for i in order(len(hand))]
    flags = {"robbing_kong": source == "rob"}
    extra = {"horse_tiles": tile_names(horses[: rules["horses"]])}
    if rules["ghost"] == "white":
        extra["wild"] = ["5z"]
    return {
        "variant": "guangdong",
        "rules": rules,
        "seat": seat,
        "dealer": dealer,
        "from": frm,
        "hand": tile_names(hand),
        "win_tile": tile_names([win])[0],
        "flags": flags,
        "extra": extra,
    }


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(winning(), OPTIONS, st.lists(st.integers(0, 33), min_size=4, max_size=4), st.randoms())
def test_zero_sum_and_tile_order(case, rules, horses, rnd) -> None:
    base = score_json(_request(case, rules, horses, range))
    assert base.error is None, base.error
    shuffled = score_json(_request(case, rules, horses, lambda n: rnd.sample(range(n), n)))
    assert shuffled == base
    if base.legal:
        assert sum(base.deltas) == 0
        assert base.deltas[case[2]] > 0


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(winning(), st.lists(st.integers(0, 13), min_size=1, max_size=3, unique=True))
def test_ghost_wins_agree_with_the_core_oracle(case, places) -> None:
    """白板做鬼: replace some tiles of a complete hand by 白板; the scorer's verdict is the
    brute-force oracle's (every substitution tried), and its substitutions rebuild a
    natural winning hand."""
    tiles = list(case[0])
    for i in places:
        if tiles.count(31) < 4:
            tiles[i] = 31
    win = tiles[-1]
    hand = tiles[:-1]
    spec = WildSpec.fixed(STANDARD, [31])
    a = score_json(
        {
            "variant": "guangdong",
            "rules": {"ghost": "white"},
            "seat": 0,
            "dealer": 0,
            "hand": tile_names(hand),
            "win_tile": tile_names([win])[0],
            "extra": {"wild": ["5z"]},
        }
    )
    full = counts(tiles)
    assert a.legal == oracle_win(spec, full, 0)
    if a.legal and "substitutions" in a.extra:
        natural = list(full)
        for ghost, face in a.extra["substitutions"]:
            natural[parse_tile(ghost)] -= 1
            natural[parse_tile(face)] += 1
        assert plain_complete(STANDARD, natural)
