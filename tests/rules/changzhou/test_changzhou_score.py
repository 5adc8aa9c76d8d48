"""常州 / 常山 财神: `paipu score` on the digest's tables and worked example, number by number.

Digest ../shared/rules/changzhou.md (seed 001, the 常山麻将 rule page). Unless a test says
otherwise South (seat 1) self-draws, East (seat 0) deals and the 财神 is 3m (the flipped 2m
+ 1), so 白板 plays as 3m.
"""

from __future__ import annotations

import json

import pytest
from changzhou_helpers import fan_ids, request, scored
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.rules.score import score_json
from paipu.rules.settlement import transfers
from paipu.rules.variants import get_variant
from paipu.rules.variants.changzhou.settlement import (
    drawn_hand_payments,
    follow_dealer_payments,
    kong_amount,
    kong_payments,
    liable_seats,
)

CAITOU = "123p456p789s111z3m"  # four sets and one 财神 (3m): 财头


# ---------------------------------------------------------------- the worked example (§8)


def test_worked_example_cai_yi_piao_is_8_bei_from_each() -> None:
    answer = scored(CAITOU, "7m", extra={"piao": 1})
    assert answer.legal and answer.total == 8
    assert fan_ids(answer) == [("plain", 2, 1), ("caitou", 2, 1), ("cai_piao", 2, 1)]
    assert answer.deltas == (-8, 24, -8, -8)
    assert answer.extra["substitutions"] == [["3m", "7m"]]


def test_worked_example_earlier_exposed_kong_collected_one_from_each() -> None:
    amounts = get_variant("changzhou").kong_amounts
    assert transfers(4, kong_payments(4, 1, "kong", 0, amounts, 2)) == (-1, 3, -1, -1)


@pytest.mark.parametrize(("piao", "total"), [(0, 4), (1, 8), (2, 16), (3, 32)])
def test_caitou_and_each_piao_stage_double(piao: int, total: int) -> None:
    """§9.1: 财头 = plain × 2 = 4倍; 财一飘 8, 财二飘 16, 财三飘 32."""
    answer = scored(CAITOU, "5s", extra={"piao": piao})
    assert answer.total == total
    assert answer.deltas == (-total, 3 * total, -total, -total)


def test_caitou_drawing_a_second_caishen_pairs_the_two() -> None:
    assert scored(CAITOU, "3m").total == 4


def test_caitou_with_a_caishen_inside_a_set() -> None:
    """Two 财神: one completes 11z as a pung, the other is the pair-wait."""
    answer = scored("123p456p789s11z3m3m", "5s")
    assert ("caitou", 2, 1) in fan_ids(answer) and answer.total == 4


def test_piao_without_caitou_counts_nothing() -> None:
    """财头 and 财飘 wins need a 财神 still in hand: a plain win after 飘 is plain."""
    answer = scored("456m789m123p456s1z", "1z", extra={"piao": 1})
    assert answer.total == 2 and "piao_void" in answer.extra


# ---------------------------------------------------------------- the hand table (§5)


@pytest.mark.parametrize(
    ("hand", "win", "fan", "total"),
    [
        ("456m789m123p456s1z", "1z", "plain", 2),  # 普通牌型 2
        ("111p222s444m66z77z", "6z", "all_pungs", 2),  # 碰碰胡 双碰 2
        ("111p222s444m666z7z", "7z", "all_pungs_single", 4),  # 碰碰胡 吊头 4
        ("11m44m77p22s99s11z2z", "2z", "seven_pairs", 4),  # 七对 4
        ("111p234p678p999p1z", "1z", "half_flush", 4),  # 混一色 4
        ("111p234p678p999p5p", "5p", "full_flush", 6),  # 清一色 6
    ],
)
def test_the_seeds_hand_table(hand: str, win: str, fan: str, total: int) -> None:
    answer = scored(hand, win)
    assert answer.legal, answer.reason
    assert fan_ids(answer) == [(fan, total, 1)]
    assert answer.total == total and answer.deltas == (-total, 3 * total, -total, -total)


def test_thirteen_orphans_is_6_bei_with_white_as_the_caishen() -> None:
    """白板 is the 财神 (flipped 中): every 白板 is wild, here standing for itself."""
    answer = scored("19m19p19s1234567z", "1m", wild="5z")
    assert fan_ids(answer) == [("thirteen_orphans", 6, 1)] and answer.total == 6
    assert answer.extra["substitutions"] == [["5z", "5z"]] and "stand_in" not in answer.extra


def test_thirteen_orphans_needs_a_caishen_for_white_when_white_is_a_stand_in() -> None:
    """白板 plays as 3m, so the 白板 of 十三幺 must come from a 财神."""
    assert not scored("19m19p19s1234567z", "1m").legal
    answer = scored("19m19p19s123467z3m", "1m")
    assert answer.total == 6 and answer.extra["substitutions"] == [["3m", "5z"]]


def test_seven_pairs_with_a_caishen_pairing_a_single() -> None:
    answer = scored("11m44m77p22s99s11z3m", "2z")
    assert fan_ids(answer) == [("seven_pairs", 4, 1)]
    assert answer.extra["substitutions"] == [["3m", "2z"]]


def test_full_flush_beats_all_pungs_and_multiply_stacks_them() -> None:
    hand, win = "111p222p444p666p7p", "7p"
    assert fan_ids(scored(hand, win)) == [("full_flush", 6, 1)]
    stacked = scored(hand, win, rules={"hand_types": "multiply"})
    assert fan_ids(stacked) == [("all_pungs_single", 4, 1), ("full_flush", 6, 1)]
    assert stacked.total == 12  # 2 × (4 / 2) × (6 / 2)


# ---------------------------------------------------------------- 独卡, 海底捞月 (§9.4)


@pytest.mark.parametrize(
    ("hand", "win"),
    [("12p456p789s111z99m", "3p"), ("89p456p789s111z99m", "7p"), ("13p456p789s111z99m", "2p")],
)
def test_single_gap_doubles(hand: str, win: str) -> None:
    answer = scored(hand, win)
    assert fan_ids(answer) == [("plain", 2, 1), ("single_gap", 2, 1)] and answer.total == 4


def test_two_sided_wait_is_no_single_gap() -> None:
    assert scored("23p456p789s111z99m", "1p").total == 2


def test_single_gap_off() -> None:
    assert scored("12p456p789s111z99m", "3p", rules={"single_gap_factor": 1}).total == 2


def test_last_four_tiles_double() -> None:
    answer = scored("456m789m123p456s1z", "1z", flags={"last_tile": True})
    assert ("last_tiles", 2, 1) in fan_ids(answer) and answer.total == 4


# ---------------------------------------------------------------- who pays (§3, §7)


def test_a_discard_win_is_refused() -> None:
    answer = scored("456m789m123p456s1z", "1z", **{"from": 0})
    assert not answer.legal and "自摸胡 and 抢杠胡 only" in (answer.reason or "")
    allowed = scored("456m789m123p456s1z", "1z", rules={"discard_win": True}, **{"from": 0})
    assert allowed.deltas == (-2, 2, 0, 0)


def test_robbing_a_kong_the_konger_pays_three_shares() -> None:
    answer = scored("456m789m123p456s1z", "1z", flags={"robbing_kong": True}, **{"from": 2})
    assert answer.deltas == (0, 6, -6, 0)


def test_liability_from_the_winners_three_claims() -> None:
    melds = [("pong", "111p", 0), ("pong", "222p", 0), ("chi", "789m", 0)]
    answer = scored("456s1z", "1z", melds=melds)
    assert answer.total == 2 and answer.deltas == (-6, 6, 0, 0) and answer.extra["liable"] == [0]


def test_liability_both_ways_settles_each_relation() -> None:
    """A seat bound to both neighbours: both pay the whole (the seed: 可以重复计算)."""
    melds = [("pong", "111p", 0), ("pong", "222p", 0), ("chi", "789m", 0)]
    answer = scored("456s1z", "1z", melds=melds, extra={"liable": [0, 2]})
    assert answer.deltas == (-6, 12, -6, 0)
    leaves_out = score_json(request("456s1z", "1z", melds=melds, extra={"liable": [2]}))
    assert leaves_out.error and "leaves out seat 0" in leaves_out.error


def test_kong_chains_and_table_payments() -> None:
    amounts = get_variant("changzhou").kong_amounts
    assert [kong_amount("kong", n, amounts, 2) for n in range(3)] == [1, 2, 4]  # 连杠
    assert [kong_amount("concealed_kong", n, amounts, 2) for n in range(2)] == [2, 4]  # 连暗杠
    assert transfers(4, kong_payments(4, 3, "concealed_kong", 0, amounts, 2)) == (-2, -2, -2, 6)
    assert transfers(4, follow_dealer_payments(4, 0, 1)) == (-3, 1, 1, 1)  # 跟庄
    assert transfers(4, drawn_hand_payments(4, 0, 1)) == (-3, 1, 1, 1)  # 庄家赔付
    claims = [[0, 0, 0, 0], [3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert liable_seats(claims, 1, 3) == [0] and liable_seats(claims, 0, 3) == [1]


# ---------------------------------------------------------------- 白板 and the 财神 (§2, §9.3)


def test_white_plays_as_the_caishens_face() -> None:
    answer = scored("45m5z678p111s999p1z", "1z")
    assert answer.total == 2 and answer.extra["substitutions"] == []
    assert answer.extra["stand_in"] == {"5z": "3m"}
    flush = scored("45m5z111m678m99m22m", "2m")  # 白板 as 3m in a 万 flush
    assert fan_ids(flush) == [("full_flush", 6, 1)]
    itself = scored("45m5z678p111s999p1z", "1z", rules={"white_dragon": "itself"})
    assert not itself.legal


def test_white_as_the_caishen_is_wild_everywhere() -> None:
    assert scored("123p456p789s111z5z", "7m", wild="5z").total == 4


def test_no_caishen_known_scores_plain_tiles() -> None:
    assert scored("123p456p789s111z3m", "3m", wild=None).total == 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"extra": {"piao": 4}}, "财飘: 0-3"),
        ({"extra": {"wild": ["3m", "4m"]}}, "extra 'wild'"),
        ({"extra": {"wild": ["1f"]}}, "1f is not a tile"),
        ({"extra": {"bao": "3m"}}, "unknown extra"),
        ({"melds": [("pong", "333m", 0)]}, "财神 is never part"),
        ({"flowers": ["1f"]}, "no flowers"),
    ],
)
def test_bad_requests_say_why(fields: dict[str, object], message: str) -> None:
    hand = "123p456p789s1z" if "melds" in fields else CAITOU
    answer = score_json(request(hand, "1z" if "melds" in fields else "7m", **fields))
    assert answer.error is not None and message in answer.error, answer


def test_paipu_score_answers_the_worked_example_as_json() -> None:
    result = CliRunner().invoke(
        app, ["score", "--json", json.dumps(request(CAITOU, "7m", extra={"piao": 1}))]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["total"] == 8 and answer["deltas"] == [-8, 24, -8, -8]
    assert answer["extra"]["substitutions"] == [["3m", "7m"]]
    refused = CliRunner().invoke(
        app, ["score", "--json", json.dumps(request(CAITOU, "7m", **{"from": 0}))]
    )
    assert refused.exit_code == 1 and json.loads(refused.output)["legal"] is False
