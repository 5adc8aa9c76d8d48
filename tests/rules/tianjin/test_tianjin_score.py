"""天津麻将 ``paipu score``: the digest's worked example and tables, number by number; the
options of §10; the 混's substitutions; what a request may not say.

Seats: 0 East, 1 South, 2 West, 3 North; the dealer is East unless a test says otherwise.
"""

from __future__ import annotations

import json

import pytest
from tianjin_helpers import fans, request, score
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.rules.variants.tianjin import fans as tianjin_fans
from paipu.rules.variants.tianjin.settlement import Stakes, chan_payments, kong_payments

# 素 捉五: 4_6万 waiting on the 5万, no 混 held (the 混 are 中 and 发).
SU_ZHUO_WU = ("46m123p789p22s345s", "5m")
NO_WILD_HELD = "7z 6z"
STAKES = {"zuo_zhuang": True, "la_zhuang": [0, 1, 0, 2]}


# ---------------------------------------------------------------------- §9 worked example


def test_worked_example_south_wins_su_zhuo_wu() -> None:
    """East 坐庄; South 拉一庄, West 不拉, North 拉两庄. South self-draws 素 捉五: S = 3 × 2
    = 6; East pays 6 × 2 × 2 = 24, West 6, North 6: South +36."""
    answer = score(*SU_ZHUO_WU, seat=1, wild=NO_WILD_HELD, extra=STAKES)
    assert answer.legal
    assert fans(answer) == {"zhuo_wu": 3, "su": 2}
    assert answer.total == 6
    assert answer.deltas == (-24, 36, -6, -6)
    assert answer.extra["base"] == 3 and answer.extra["multiplier"] == 2


def test_worked_example_east_wins_the_same_hand() -> None:
    """Had East won it: South pays 6 × 2 × 2 = 24, West 6 × 2 = 12, North 6 × 2 × 4 = 48:
    East +84."""
    answer = score(*SU_ZHUO_WU, seat=0, wild=NO_WILD_HELD, extra=STAKES)
    assert answer.total == 6
    assert answer.deltas == (84, -24, -12, -48)


def test_without_zuo_zhuang_only_la_zhuang_doubles() -> None:
    """Not 坐庄: M(dealer, 闲 i) = 2^la_zhuang[i]; between two 闲 always 1."""
    la = {"la_zhuang": [0, 1, 0, 2]}
    assert score(*SU_ZHUO_WU, seat=1, wild=NO_WILD_HELD, extra=la).deltas == (-12, 24, -6, -6)
    assert score(*SU_ZHUO_WU, seat=0, wild=NO_WILD_HELD, extra=la).deltas == (42, -12, -6, -24)
    assert score(*SU_ZHUO_WU, seat=2, wild=NO_WILD_HELD).deltas == (-6, -6, 18, -6)


def test_dealer_always_double_option() -> None:
    """pub-tj1 (§10.3): an extra × 2 on every dealer transfer; off by default."""
    rules = {"dealer_always_double": True}
    answer = score(*SU_ZHUO_WU, seat=1, wild=NO_WILD_HELD, extra=STAKES, rules=rules)
    assert answer.deltas == (-48, 60, -6, -6)
    plain = score(*SU_ZHUO_WU, seat=1, wild=NO_WILD_HELD, rules=rules)
    assert plain.deltas == (-12, 24, -6, -6)


# ---------------------------------------------------------------------- §6 the fan table

# The 混 of the table's hands: 3筒 and 4筒 (the flipped 3筒) unless a row says otherwise.
P34 = "3p 4p"


@pytest.mark.parametrize(
    ("hand", "win", "wild", "expected", "total"),
    [
        # 提溜 with a 混 held: 1, cannot win (起和 2) — see the test below
        # 混吊: four sets, a lone 混 (3筒) waits for anything; 9条 drawn pairs it: 1 × 2
        ("123m456m789p345s3p", "9s", P34, {"ti_liu": 1, "hun_diao": 2}, 2),
        # 双混吊: two standing 混 and a natural pair; 南 drawn makes a set with them: 1 × 2
        ("123m456m789s55z3p3p", "2z", P34, {"ti_liu": 1, "shuang_hun_diao": 2}, 2),
        # 捉五 with a 混 held (not 素), the 混 in another set: 3
        ("46m123p789p22s56s3p", "5m", P34, {"zhuo_wu": 3}, 3),
        # 龙 with a 混 held in another set: 4
        ("123m456m78m11z56p3p", "9m", P34, {"long": 4}, 4),
        # 捉五龙: 3 + 4 = 7
        ("123m46m789m11z56p3p", "5m", P34, {"zhuo_wu": 3, "long": 4}, 7),
        # 素 龙: 4 × 2 = 8
        ("123m456m78m11z555s", "9m", NO_WILD_HELD, {"long": 4, "su": 2}, 8),
        # 本混龙: the 龙 in the 混's suit (the 混 are 8万 and 9万, standing as themselves): 8
        ("123m456m789m11z55s", "5s", "8m 9m", {"long": 4, "ben_hun_long": 2}, 8),
        # 捉五本混龙: (3 + 4) × 2 = 14
        ("123m46m7m89m11z555s", "5m", "8m 9m", {"zhuo_wu": 3, "long": 4, "ben_hun_long": 2}, 14),
        # 双混儿捉伍儿本混儿龙, the top of the wiki's table: (3 + 4) × 2 × 2 = 28 (two 8万 stand
        # for the 4万 and 6万 of the 4-5-6万 the 5万 closes)
        (
            "123m88m7m89m11z555s",
            "5m",
            "8m 9m",
            {"zhuo_wu": 3, "long": 4, "ben_hun_long": 2, "shuang_hun_diao": 2},
            28,
        ),
        # 双混儿伍儿 (双混吊 捉五), the table's first row: 3 × 2 = 6 (the 混 are 中 and 发)
        ("123p789p22s345s7z6z", "5m", NO_WILD_HELD, {"zhuo_wu": 3, "shuang_hun_diao": 2}, 6),
    ],
)
def test_the_fan_table(
    hand: str, win: str, wild: str, expected: dict[str, int], total: int
) -> None:
    answer = score(hand, win, wild=wild)
    assert answer.legal, answer.reason or answer.error
    assert fans(answer) == expected
    assert answer.total == total
    assert answer.deltas == (3 * total, -total, -total, -total)


def test_ti_liu_alone_cannot_win() -> None:
    """提溜 (1) is below 起和 2: the answer names the rule and the hand's worth."""
    answer = score("13m567m789s11z56p3p", "2m", wild=P34)
    assert not answer.legal and answer.deltas is None
    assert answer.total == 1 and fans(answer) == {"ti_liu": 1}
    assert answer.reason is not None and "起和 2" in answer.reason


def test_su_is_no_wild_held_and_its_multiplier_option() -> None:
    """素 × su_multiplier (2, or 4 in pub-tj1, §10.2); a 混 held, even as itself, is not 素
    (the request's contract), unless su_reading = none_substituted."""
    assert score(*SU_ZHUO_WU, wild=NO_WILD_HELD, rules={"su_multiplier": 4}).total == 12
    as_itself = ("46m12p3p789p22s345s", "5m")  # the 3筒 is a 混 standing as itself
    assert fans(score(*as_itself, wild=P34)) == {"zhuo_wu": 3}
    loose = score(*as_itself, wild=P34, rules={"su_reading": "none_substituted"})
    assert fans(loose) == {"zhuo_wu": 3, "su": 2} and loose.total == 6


def test_kong_bloom_doubles() -> None:
    """杠开: a win on a kong's replacement draw × 2: 素 捉五 杠开 = 3 × 2 × 2 = 12."""
    answer = score(
        "46m123p789p22s",
        "5m",
        wild=NO_WILD_HELD,
        melds=[("concealed_kong", "1111z")],
        flags={"kong_replacement": True},
    )
    assert fans(answer) == {"zhuo_wu": 3, "su": 2, "kong_bloom": 2}
    assert answer.total == 12


def test_heavenly_and_earthly_are_flat_28_or_times_4() -> None:
    """天和 / 地和: 28 whatever the hand holds (pub-tj2's cap), or × 4 (§10.6)."""
    heavenly = score(*SU_ZHUO_WU, wild=NO_WILD_HELD, extra={"heavenly": True})
    assert fans(heavenly) == {"heavenly": 28} and heavenly.total == 28
    assert heavenly.deltas == (84, -28, -28, -28)
    earthly = score(*SU_ZHUO_WU, seat=2, wild=NO_WILD_HELD, extra={"earthly": True})
    assert fans(earthly) == {"earthly": 28} and earthly.deltas == (-28, -28, 84, -28)
    times = score(
        *SU_ZHUO_WU,
        wild=NO_WILD_HELD,
        extra={"heavenly": True},
        rules={"first_turn_win": "times_4"},
    )
    assert fans(times) == {"zhuo_wu": 3, "su": 2, "heavenly": 4} and times.total == 24
    wrong = score(*SU_ZHUO_WU, seat=1, wild=NO_WILD_HELD, extra={"heavenly": True})
    assert wrong.error is not None and "天和" in wrong.error


def test_ben_hun_long_option_off_reads_the_short_formula() -> None:
    answer = score("123m456m789m11z55s", "5s", wild="8m 9m", rules={"ben_hun_long": "off"})
    assert fans(answer) == {"long": 4} and answer.total == 4


def test_zhuo_wu_on_a_drawn_wild_is_an_option() -> None:
    """A drawn 混 standing for the 5万 of 4-5-6万: not 捉五 by default (the digest: the 5万
    is won), 捉五 with zhuo_wu_wild_five (pub-tj2's panel)."""
    hand = ("46m123p789p22s345s", "3p")  # 3筒 drawn, a 混 (3筒 4筒)
    assert not score(*hand, wild=P34).legal  # 提溜 1
    answer = score(*hand, wild=P34, rules={"zhuo_wu_wild_five": True})
    assert fans(answer) == {"zhuo_wu": 3} and answer.total == 3


# ---------------------------------------------------------------------- the 混


def test_the_answer_lists_what_each_wild_stood_for() -> None:
    answer = score("123m456m789p345s3p", "9s", wild=P34)
    assert answer.extra["wild"] == ["3p", "4p"]
    assert answer.extra["substitutions"] == ["3p→9s"]
    assert answer.extra["reading"] == "123m 456m 789p 345s 99s (3p→9s)"


@pytest.mark.parametrize(
    ("flipped", "following"),
    [
        ("3p", "4p"),
        ("9s", "1s"),
        ("3z", "4z"),
        ("4z", "1z"),
        ("7z", "6z"),
        ("6z", "5z"),
        ("5z", "7z"),
    ],
)
def test_the_wilds_are_the_flipped_tile_and_the_next(flipped: str, following: str) -> None:
    """The digest's successor order: 9→1, 西→北, 北→东, and the dragons 中→发→白→中."""
    answer = score(*SU_ZHUO_WU, wild=f"{flipped} {following}")
    assert answer.error is None, answer.error


def test_wilds_that_do_not_follow_are_refused() -> None:
    answer = score(*SU_ZHUO_WU, wild="3p 5p")
    assert answer.error is not None and "not 3p and 5p" in answer.error


def test_a_pong_of_a_wild_is_refused() -> None:
    answer = score("123m456m789p3s", "3s", wild=P34, melds=[("pong", "333p")])
    assert answer.error is not None and "混" in answer.error


def test_a_gold_kong_is_held_wilds() -> None:
    """金杠 (four of one 混 kind as a concealed kong): the hand holds 混, so it is not 素."""
    answer = score("46m123s789s22s", "5m", wild=P34, melds=[("concealed_kong", "3333p")])
    assert answer.legal and fans(answer) == {"zhuo_wu": 3}


# ---------------------------------------------------------------------- refused requests


def test_a_discard_win_is_refused_with_the_rule() -> None:
    answer = score(*SU_ZHUO_WU, wild=NO_WILD_HELD, **{"from": 2})
    assert not answer.legal and answer.reason is not None and "自摸" in answer.reason
    robbed = score(*SU_ZHUO_WU, wild=NO_WILD_HELD, flags={"robbing_kong": True}, **{"from": 2})
    assert not robbed.legal and "自摸" in (robbed.reason or "")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"la_zhuang": [1, 0, 0, 0]}, "dealer does not 拉庄"),
        ({"la_zhuang": [0, 3, 0, 0]}, "0, 1 or 2"),
        ({"zuo_zhuang": "yes"}, "true or false"),
        ({"void": "m"}, "unknown extra"),
        ({"wild": ["3p"]}, "two 混 kinds"),
    ],
)
def test_impossible_facts_are_refused(extra: dict[str, object], words: str) -> None:
    answer = score(*SU_ZHUO_WU, extra=extra)
    assert answer.error is not None and words in answer.error


def test_flowers_and_chi_are_refused() -> None:
    assert "flowers" in (score(*SU_ZHUO_WU, flowers=["1f"]).error or "")
    chi = score("123p789p22s345s", "5m", melds=[("chi", "456m")])
    assert chi.error is not None and "chi is not allowed" in chi.error


def test_not_a_winning_shape() -> None:
    answer = score("46m123p789p22s345s", "9m", wild=NO_WILD_HELD)
    assert not answer.legal and "four sets and a pair" in (answer.reason or "")


# ---------------------------------------------------------------------- other payments


def test_kong_money_and_chan_with_the_multipliers() -> None:
    """§7 and §8 priced by the settlement: the seed's 铲 example (the dealer 坐庄; A 不拉,
    B 拉一庄, C 拉两庄: 2, 4, 8), and a 闲's 明杠 (1) paid by all three, the dealer × M."""
    stakes = Stakes(0, True, (0, 0, 1, 2))
    assert chan_payments(4, 1, stakes) == [(0, 1, 2), (0, 2, 4), (0, 3, 8)]
    assert kong_payments(4, [(2, 1)], stakes) == [(0, 2, 4), (1, 2, 1), (3, 2, 1)]
    assert kong_payments(4, [(1, 8)], Stakes(0)) == [(0, 1, 8), (2, 1, 8), (3, 1, 8)]


def test_the_toml_prices_match_the_fans_module() -> None:
    from paipu.rules.variants import get_variant

    table = get_variant("tianjin").spec.fans.by_id
    assert table["zhuo_wu"].points == tianjin_fans.ZHUO_WU
    assert table["long"].points == tianjin_fans.LONG
    assert table["ti_liu"].points == tianjin_fans.TI_LIU
    assert table["heavenly"].points == tianjin_fans.HEAVENLY_FLAT


# ---------------------------------------------------------------------- the command


def test_paipu_score_answers_the_worked_example() -> None:
    body = request(*SU_ZHUO_WU, seat=1, wild=NO_WILD_HELD, extra=STAKES)
    result = CliRunner().invoke(app, ["score", json.dumps(body), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["total"] == 6 and answer["deltas"] == [-24, 36, -6, -6]
    assert [f["name"] for f in answer["fans"]] == ["捉五", "素"]
    refused = dict(body, **{"from": 2})
    result = CliRunner().invoke(app, ["score", json.dumps(refused), "--json"])
    assert result.exit_code == 1 and "自摸" in json.loads(result.output)["reason"]


def test_pub_tj1_named_combinations_that_the_formula_keeps_and_one_it_does_not() -> None:
    """pub-tj1's table per named combination (§6): 混吊 2, 捉五 3, 龙 4, 捉五龙 7 are the
    formula's too; its 混儿吊龙 10 is not: the formula (the wiki's, the score contract's)
    gives 龙 4 × 混吊 2 = 8."""
    hun_diao_long = score("123456789m555s3p", "9s", wild=P34)
    assert fans(hun_diao_long) == {"long": 4, "hun_diao": 2} and hun_diao_long.total == 8
