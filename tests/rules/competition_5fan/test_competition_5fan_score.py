"""The 5-fan competition rules (麻将比赛规则), every example of the seed as a test: the 40 番
and 30 番 tiers fan by fan, the 5-番 minimum and its 10-chip penalty, the dealer's and the
self-draw's doublings (杠上花, 抢杠, 海底捞月 too), the digest's worked example, and the
options for what the seed lost. Seats: 0 East (the dealer), 1 South, 2 West, 3 North."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from competition_5fan_helpers import VARIANT, fan_ids, request, score
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.rules.tiles import is_flower

runner = CliRunner()
#: An open hand of chows: 平胡 (5) alone, the least a win can be.
OPEN_FIVE = {"hand": "234m567p678s5s", "melds": [("chi", "123m", 0)], "win": "5s"}


def points(answer: object) -> dict[str, int]:
    return {f.id: f.points * f.count for f in answer.fans}  # type: ignore[attr-defined]


def test_136_tiles_no_flowers_no_wilds() -> None:
    """ "取消花和白搭": 136 tiles, 34 kinds × 4."""
    wall = VARIANT.wall_tiles(VARIANT.resolve_options())
    assert len(wall) == 136 and set(Counter(wall).values()) == {4}
    assert not any(is_flower(t) for t in wall)
    assert "no flowers" in score("123m456p789s234m5p", "5p", flowers=["1f"]).error


# ---------------------------------------------------------------------- 40 番


def test_heavenly_hand_40() -> None:
    """天胡: the dealer's dealt tiles complete (有其他番另加: 平胡 5 added); a self-draw
    doubles, and the dealer is paid double: 45 × 2 × 2 by each."""
    answer = score("123m456p789s234m5p", "5p", seat=0, extra={"heavenly": True})
    assert points(answer) == {"heavenly_hand": 40, "all_chows": 5, "self_draw": 0}
    assert answer.total == 45 and answer.deltas == (540, -180, -180, -180)


def test_earthly_hand_40() -> None:
    """地胡: a win on the dealer's first discard; the dealer pays double."""
    answer = score("123m456p789s234m5p", "5p", frm=0, extra={"earthly": True})
    assert points(answer) == {"earthly_hand": 40, "concealed_hand": 5, "all_chows": 5}
    assert answer.deltas == (-100, 100, 0, 0)


def test_thirteen_orphans_40() -> None:
    answer = score("19m19p19s1234567z", "1m", frm=3)
    assert points(answer) == {"thirteen_orphans": 40}
    assert answer.deltas == (0, 40, 0, -40)


def test_big_four_winds_40() -> None:
    """大四喜: four wind pungs ("东、南、西、北风四碰"); 小四喜, 碰碰胡 and 风刻 not counted."""
    answer = score("111z222z333z444z5m", "5m", frm=2)
    assert points(answer)["big_four_winds"] == 40
    assert not {"little_four_winds", "all_pungs", "value_wind_pung"} & set(fan_ids(answer))


def test_all_honors_40_by_pungs_or_by_seven_pairs() -> None:
    """全字: all honours, as pungs and a pair or as seven pairs ("或七对胡牌")."""
    pairs = score("1122334455667z", "7z", frm=2)
    assert points(pairs) == {"all_honors": 40}
    pungs = score("111z333z555z666z7z", "7z", frm=2)
    assert points(pungs)["all_honors"] == 40 and "little_three_dragons" in fan_ids(pungs)


# ---------------------------------------------------------------------- 30 番


def test_full_flush_30_the_digest_s_worked_example() -> None:
    """South wins 清一色 on North's discard, the dealer not involved: North pays 30; by
    self-draw 60 from each, 120 from the dealer."""
    hand = {"hand": "123345678m5m", "melds": [("pong", "999m", 0)]}
    answer = score(hand["hand"], "5m", melds=hand["melds"], frm=3)
    assert points(answer) == {"full_flush": 30} and answer.deltas == (0, 30, 0, -30)
    drawn = score(hand["hand"], "5m", melds=hand["melds"])
    assert drawn.deltas == (-120, 240, -60, -60)


def test_big_three_dragons_30() -> None:
    answer = score("555z666z777z123m9p", "9p", frm=2)
    assert points(answer)["big_three_dragons"] == 30
    assert not {"little_three_dragons", "dragon_pung"} & set(fan_ids(answer))


def test_little_four_winds_30() -> None:
    """小四喜: three wind pungs and a wind pair (South's seat wind and East's round wind
    pungs count as 风刻 beside it)."""
    answer = score("111222333z4z456m", "4z", frm=2)
    assert points(answer) == {
        "little_four_winds": 30,
        "half_flush": 10,
        "value_wind_pung": 10,
        "concealed_hand": 5,
    }


def test_big_seven_pairs_30() -> None:
    """大七对: seven pairs, four of them alike ("七对中有四张是一样的牌")."""
    answer = score("1122m3344p5555s7z", "7z", frm=2)
    assert points(answer) == {"big_seven_pairs": 30}
    plain = score("1122m3344p5566s7z", "7z", frm=2)
    assert points(plain) == {"seven_pairs": 10}


def test_terminal_pungs_30_and_its_honours_option() -> None:
    """么九对子胡: pungs of 1s and 9s; with terminal_pungs_honors an honour pair or pung too."""
    answer = score("111m999p111s999s1z", "1z", frm=2)
    assert points(answer) == {"terminal_pungs": 30, "concealed_hand": 5}
    strict = score("111m999p111s999s1z", "1z", frm=2, rules={"terminal_pungs_honors": False})
    assert points(strict) == {"all_pungs": 10, "concealed_hand": 5}


# ---------------------------------------------------------------------- the minimum, penalties


def test_five_fan_minimum_and_its_ten_chip_penalty() -> None:
    """ "五番才能胡牌，不足五番胡牌，要付给其他三家各十分": 5 番 wins; under it the win is
    refused and the answer says what the claimant pays (10 to each other seat)."""
    five = score(OPEN_FIVE["hand"], OPEN_FIVE["win"], melds=OPEN_FIVE["melds"], frm=2)
    assert five.legal and five.total == 5 and five.deltas == (0, 5, -5, 0)
    under = score(
        "234m567p678s5s", "5s", melds=[("chi", "123m", 0)], frm=2, rules={"fan_all_chows": 3}
    )
    assert not under.legal and under.total == 3
    assert "五番才能胡牌" in under.reason and under.extra["penalty"] == [10, -30, 10, 10]
    nothing = score("234m567p678s4s", "5s", melds=[("chi", "123m", 0)], frm=2)
    assert not nothing.legal and nothing.extra["penalty"] == [10, -30, 10, 10]
    assert (
        score(OPEN_FIVE["hand"], "5s", melds=OPEN_FIVE["melds"], frm=2, rules={"min_fan": 8}).legal
        is False
    )


def test_the_dealer_doubles_winning_and_paying() -> None:
    """ "庄家胡牌 … 按番数加倍付，其他人胡牌时，庄家也加倍付给胡牌人"."""
    dealer_wins = score(OPEN_FIVE["hand"], "5s", seat=0, melds=[("chi", "123m", 3)], frm=2)
    assert dealer_wins.deltas == (10, 0, -10, 0)
    dealer_pays = score(OPEN_FIVE["hand"], "5s", melds=OPEN_FIVE["melds"], frm=0)
    assert dealer_pays.deltas == (-10, 10, 0, 0)


def test_self_draw_and_the_other_doublings() -> None:
    """ "自模加倍算番 … 杠上花、枪杠、海底捞月胡牌也加倍算番"."""
    drawn = score(OPEN_FIVE["hand"], "5s", melds=OPEN_FIVE["melds"])
    assert "self_draw" in fan_ids(drawn) and drawn.deltas == (-20, 40, -10, -10)
    for flag, frm in (("robbing_kong", 2), ("last_tile", 2)):
        answer = score(
            OPEN_FIVE["hand"], "5s", melds=OPEN_FIVE["melds"], frm=frm, flags={flag: True}
        )
        assert flag in fan_ids(answer) and answer.deltas == (0, 10, -10, 0), flag
    kong = score(
        OPEN_FIVE["hand"], "5s", melds=OPEN_FIVE["melds"], flags={"kong_replacement": True}
    )
    assert kong.deltas == drawn.deltas  # doubled once (situation_doubles = once)
    each = score(
        OPEN_FIVE["hand"],
        "5s",
        melds=OPEN_FIVE["melds"],
        flags={"kong_replacement": True},
        rules={"situation_doubles": "each"},
    )
    assert each.deltas == (-40, 80, -20, -20)


# ---------------------------------------------------------------------- the options


def test_options_for_what_the_seed_lost() -> None:
    everyone = score(
        OPEN_FIVE["hand"],
        "5s",
        melds=OPEN_FIVE["melds"],
        frm=2,
        rules={"discard_payer": "everyone"},
    )
    assert everyone.deltas == (-10, 20, -5, -5)
    three = {"fan_all_chows": 3, "fan_concealed_hand": 0}
    drawn_three = score("123m456p789s234m5p", "5p", rules=three)
    assert not drawn_three.legal  # 3 番, doubled to 6 only with minimum_after_doubling
    doubled = score(
        "123m456p789s234m5p",
        "5p",
        rules={"fan_all_chows": 3, "fan_concealed_hand": 0, "minimum_after_doubling": True},
    )
    assert doubled.legal and doubled.total == 3
    many = score("111z222z333z444z5m", "5m", frm=2, rules={"fan_count": "three"})
    assert len([f for f in many.fans if f.points]) <= 3
    dropped = score(
        "111m999p111s999s1z",
        "1z",
        frm=2,
        rules={"terminal_pungs_honors": False, "fan_all_pungs": 0},
    )
    assert points(dropped) == {"concealed_hand": 5}
    assert "unknown option" in score("123m456p789s234m5p", "5p", rules={"birds": 2}).error


def test_extra_facts_are_named() -> None:
    assert "unknown extra" in score("123m456p789s234m5p", "5p", extra={"bao": "1m"}).error
    assert "true or false" in score("123m456p789s234m5p", "5p", extra={"heavenly": 1}).error


def test_paipu_score_json() -> None:
    body = request("123345678m5m", "5m", melds=[("pong", "999m", 0)], frm=3)
    result = runner.invoke(app, ["score", "--json", json.dumps(body)])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["total"] == 30 and answer["deltas"] == [0, 30, 0, -30]
    assert answer["extra"] == {"unit": "chips", "doublings": 0}


@pytest.mark.parametrize("fan", [f.id for f in VARIANT.spec.fans.fans])
def test_every_fan_has_a_worth(fan: str) -> None:
    values = VARIANT.values(VARIANT.resolve_options())
    assert values[fan] >= 0
