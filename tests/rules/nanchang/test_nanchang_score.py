"""Nanchang scoring beyond the seed's table: the digest's worked example, 精吊, 德中德,
杠开 / 抢杠 (抢杠全包), the dealer streak, 天胡, the options, 精分, and requests refused.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import pytest
from nanchang_helpers import fans, request, score

from paipu.rules.score import score_json
from paipu.rules.settlement import transfers
from paipu.rules.variants.nanchang.settlement import BaWang, Feed, jing_payments, jing_value

DE_GUO = ("123m456p789s234s5z", "5z")  # 德国 平胡 (no 精 held)
PING_HU = ("123m456p789s55z3s1p", "4s")  # 平胡, 1p (正精) standing in
SMALL_JING = ["1p", "2p"]
DRAGONS = ["5z", "7z"]  # 正精 白, 副精 中 (中→发→白→中: 白 is followed by 中)


def test_the_worked_example() -> None:
    """East discards, South wins 德国 平胡: East 13, West and North 2 → South + 17."""
    answer = score(*DE_GUO, seat=1, **{"from": 0})
    assert answer.legal and answer.total == 2
    assert fans(answer) == {"ping_hu": 1, "de_guo": 2}
    assert answer.deltas == (-13, 17, -2, -2)
    assert answer.extra["de_guo_bonus"] == 5


def test_the_worked_example_jing_points() -> None:
    """Separately, West holds 2 正精 + 1 副精 = 5: 冲关 5 × (5 − 3) = 10 from each other
    player; × 2 when West is the only holder (霸王精)."""
    assert jing_value(5) == 10
    alone = jing_payments([0, 0, 5, 0])
    assert transfers(4, alone) == (-20, -20, 60, -20)
    assert transfers(4, jing_payments([0, 0, 5, 0], ba_wang=BaWang.OFF)) == (-10, -10, 30, -10)
    assert transfers(4, jing_payments([0, 0, 5, 0], ba_wang=BaWang.PLUS_TEN)) == (
        -20,
        -20,
        60,
        -20,
    )
    # South holds a 副精 too: no 霸王精; each pays each holder his s'.
    assert transfers(4, jing_payments([0, 1, 5, 0])) == (-11, -7, 29, -11)


def test_chong_guan_fed_by_a_pong_or_kong() -> None:
    """West's 冲关 came with the 正精 East fed (碰): East pays 3 × s' alone; a kong (包杠精)
    adds 10 to each other player from East."""
    pong = jing_payments([0, 0, 5, 0], feeds={2: Feed(2, 0, 2, kong=False)}, ba_wang=BaWang.OFF)
    assert transfers(4, pong) == (-30, 0, 30, 0)
    kong = jing_payments([0, 0, 6, 0], feeds={2: Feed(2, 0, 2, kong=True)}, ba_wang=BaWang.OFF)
    assert transfers(4, kong) == (-54 - 30, 10, 54 + 10, 10)
    # Without the fed 精 West would still be at 冲关 (7 − 2 = 5): everyone pays as usual.
    late = jing_payments([0, 0, 7, 0], feeds={2: Feed(2, 0, 2, kong=False)}, ba_wang=BaWang.OFF)
    assert transfers(4, late) == (-28, -28, 84, -28)


def test_jing_diao() -> None:
    """精吊: the 13 tiles were four sets and a lone 精; the 精 pairs the tile won on (× 2),
    and on the same 精 the pair is natural: 德国 and 精吊."""
    answer = score("123m456p789s111z5z", "3z", wild=DRAGONS)
    assert fans(answer) == {"ping_hu": 1, "jing_diao": 2}
    assert answer.deltas == (24, -8, -8, -8)  # dealer self-draws: 2 × 2 × 2 from each
    same = score("123m456p789s111z5z", "5z", wild=DRAGONS)
    assert fans(same) == {"ping_hu": 1, "de_guo": 2, "jing_diao": 2}
    assert same.deltas == (63, -21, -21, -21)  # 4 × 2 × 2 + 5


def test_seven_pairs_jing_diao() -> None:
    answer = score("1122m3344p5566s5z", "9s", wild=DRAGONS, seat=1, **{"from": 2})
    assert fans(answer) == {"small_seven_pairs": 2, "jing_diao": 2}


def test_de_zhong_de() -> None:
    """德中德: a 德国 while no other player holds a 精: × 4 instead of × 2 (or on top)."""
    answer = score(*DE_GUO, seat=1, **{"from": 0}, extra={"others_hold_jing": False})
    assert fans(answer) == {"ping_hu": 1, "de_zhong_de": 4}
    assert answer.total == 4
    extra = score(
        *DE_GUO,
        seat=1,
        **{"from": 0},
        rules={"de_zhong_de": "extra"},
        extra={"others_hold_jing": False},
    )
    assert fans(extra) == {"ping_hu": 1, "de_guo": 2, "de_zhong_de": 4}
    assert extra.total == 8


def test_kong_bloom_and_robbing_the_kong() -> None:
    bloom = score(*PING_HU, wild=SMALL_JING, seat=1, flags={"kong_replacement": True})
    assert fans(bloom) == {"ping_hu": 1, "kong_bloom": 2}
    assert bloom.deltas == (-8, 16, -4, -4)
    # South robs West's kong: u = 2; the shares 4 (West) + 4 (East) + 2 (North), all West's.
    robbed = score(*PING_HU, wild=SMALL_JING, seat=1, flags={"robbing_kong": True}, **{"from": 2})
    assert fans(robbed) == {"ping_hu": 1, "robbing_kong": 2}
    assert robbed.deltas == (0, 10, -10, 0)
    shared = score(
        *PING_HU,
        wild=SMALL_JING,
        seat=1,
        flags={"robbing_kong": True},
        rules={"rob_kong_pays_all": False},
        **{"from": 2},
    )
    assert shared.deltas == (-4, 10, -4, -2)


def test_the_dealer_streak_multiplies_every_share() -> None:
    plain = score(*PING_HU, wild=SMALL_JING, seat=1, extra={"streak": 3})
    assert plain.deltas == (-12, 24, -6, -6)
    de_guo = score(*DE_GUO, seat=1, extra={"streak": 2})
    assert de_guo.deltas == (-26, 62, -18, -18)  # (13, 9, 9) × 2: the + 5 too
    assert score(*DE_GUO, seat=1, extra={"streak": 0}).deltas == (-13, 31, -9, -9)


def test_discard_paid_by_the_discarder_alone() -> None:
    answer = score(*PING_HU, wild=SMALL_JING, seat=1, rules={"discard_pays": "discarder"},
                   **{"from": 2})  # fmt: skip
    assert answer.deltas == (0, 2, -2, 0)


def test_da_qi_dui_base_option() -> None:
    hand = ("111m222p333s444z5z", "5z")  # 德国大7对
    assert score(*hand).deltas == (111, -37, -37, -37)
    two = score(*hand, rules={"da_qi_dui_base": 2})
    assert fans(two) == {"big_seven_pairs": 2, "de_guo": 2}
    assert two.deltas == (63, -21, -21, -21)  # u = 4: 4 × 4 + 5


def test_big_seven_pairs_with_melds() -> None:
    answer = score(
        "222p333s44z6z5z",
        "6z",
        wild=DRAGONS,
        seat=1,
        melds=[("pong", "111m", 0)],
        **{"from": 3},
    )
    assert answer.extra["shape"] == "big_seven_pairs" and not answer.extra["de_guo"]
    assert answer.deltas == (-8, 20, -4, -8)
    chi = score("222p333s44z6z5z", "6z", wild=DRAGONS, seat=1, melds=[("chi", "123m", 0)],
                **{"from": 3})  # fmt: skip
    assert chi.extra["shape"] == "ping_hu"


def test_seven_stars() -> None:
    natural = score("147m258p3s123456z", "7z", wild=["5m", "6m"])
    assert fans(natural) == {"seven_star_lan": 4, "de_guo": 2}
    wild = score("147m258p5m123456z", "7z", wild=["5m", "6m"])
    assert fans(wild) == {"seven_star_lan": 4}
    assert wild.extra["substitutions"] == ["5m→any"]
    loose = score("147m258p39s5m1234z", "7z", wild=["5m", "6m"])
    assert fans(loose) == {"thirteen_lan": 2}


def test_heavenly_hand() -> None:
    answer = score(*PING_HU, wild=SMALL_JING, extra={"heavenly": True})
    assert fans(answer) == {"heavenly": 20}
    assert answer.deltas == (240, -80, -80, -80)
    off = score(*PING_HU, wild=SMALL_JING, extra={"heavenly": True}, rules={"tian_di_hu": False})
    assert fans(off) == {"ping_hu": 1}


def test_substitutions_are_listed() -> None:
    answer = score(*PING_HU, wild=SMALL_JING, seat=1)
    assert answer.extra["wilds_held"] == ["1p"]
    assert answer.extra["substitutions"] in (["1p→2s"], ["1p→5s"])


def test_without_fu_jing() -> None:
    """无下精: only the 正精 is wild; 中 is then an ordinary tile."""
    answer = score("123m456p789s111z7z", "3z", wild=["5z"], rules={"fu_jing": False})
    assert not answer.legal and answer.deltas is None
    assert score("123m456p789s111z7z", "3z", wild=DRAGONS).legal


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"extra": {"wild": None}}, "extra 'wild' lists the 正精 and 副精"),
        ({"wild": ["1z", "3z"]}, "the 副精 follows the 正精 1z (2z), not 3z"),
        ({"wild": ["5z"]}, "extra 'wild' lists the 正精 and 副精"),
        ({"wild": ["1z", "xx"]}, "extra 'wild'"),
        ({"extra": {"bao": "1m"}}, "unknown extra fact(s) bao"),
        ({"extra": {"streak": -1}}, "extra 'streak'"),
        ({"extra": {"others_hold_jing": 1}}, "extra 'others_hold_jing' is true or false"),
        ({"flowers": ["1f"]}, "has no flowers"),
        ({"rules": {"da_qi_dui_base": "4"}}, "option 'da_qi_dui_base' must be a int"),
        ({"rules": {"da_qi_dui_base": 0}}, "at least 1"),
    ],
)
def test_requests_refused(fields: dict[str, object], message: str) -> None:
    obj = request(*DE_GUO, **fields)
    if obj["extra"].get("wild", "") is None:
        del obj["extra"]["wild"]
    answer = score_json(obj)
    assert answer.error is not None and message in answer.error


def test_not_a_winning_hand() -> None:
    answer = score("123m456p789s234s5z", "9p")
    assert not answer.legal and answer.error is None
    assert "精" in answer.reason  # type: ignore[operator]
