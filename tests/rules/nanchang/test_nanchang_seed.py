"""The seed's payment table (004 "南昌麻将算子规则"), number by number, through paipu score.

Each hand type of the seed is scored in its four situations: a 闲 self-draws (South), the
dealer self-draws (East), a 闲 wins on another 闲's discard (捉闲放炮: South on West's), a 闲
wins on the dealer's discard (捉庄放炮: South on East's). The seed gives what each payer
pays and the winner's total; both are checked. Seats: 0 East (the dealer), 1 South, 2 West,
3 North.
"""

from __future__ import annotations

import pytest
from nanchang_helpers import fans, score

# (the seed's name, hand, winning tile, 精, the shape, 德国)
HANDS = {
    "平胡": ("123m456p789s55z3s1p", "4s", ["1p", "2p"], "ping_hu", False),
    "德国": ("123m456p789s234s5z", "5z", ["1z", "2z"], "ping_hu", True),
    "小7对": ("1122m3344p5566s7z", "1z", ["1z", "2z"], "small_seven_pairs", False),
    "大7对": ("111m222p333s44z5z1z", "4z", ["1z", "2z"], "big_seven_pairs", False),
    "德国小7对": ("1122m3344p5566s7z", "7z", ["1z", "2z"], "small_seven_pairs", True),
    "德国大7对": ("111m222p333s444z5z", "5z", ["1z", "2z"], "big_seven_pairs", True),
    "烂": ("147m258p369s5m123z", "4z", ["5m", "6m"], "thirteen_lan", False),
    "德国13烂": ("147m258p369s1234z", "5z", ["5m", "6m"], "thirteen_lan", True),
}

# The seed, as it reads: per hand type and situation, the payers' amounts and the total.
#   xian_self_draw:   闲 each, 庄            = total
#   dealer_self_draw: each                  = total
#   xian_discard:     discarder, 庄, 闲     = total   (捉闲放炮)
#   dealer_discard:   庄, 闲 each           = total   (捉庄放炮)
SEED = {
    "平胡": {"xian_self_draw": (2, 4, 8), "dealer_self_draw": (4, 12),
             "xian_discard": (2, 2, 1, 5), "dealer_discard": (4, 1, 6)},
    "德国": {"xian_self_draw": (9, 13, 31), "dealer_self_draw": (13, 39),
             "xian_discard": (9, 4, 2, 15), "dealer_discard": (13, 2, 17)},
    "小7对": {"xian_self_draw": (4, 8, 16), "dealer_self_draw": (8, 24),
              "xian_discard": (4, 4, 2, 10), "dealer_discard": (8, 2, 12)},
    "大7对": {"xian_self_draw": (8, 16, 32), "dealer_self_draw": (16, 48),
              "xian_discard": (8, 8, 4, 20), "dealer_discard": (16, 4, 24)},
    "德国小7对": {"xian_self_draw": (21, 37, 79), "dealer_self_draw": (37, 111),
                 "xian_discard": (21, 16, 8, 45), "dealer_discard": (37, 8, 53)},
    # 德国大7对同上: the same numbers as 德国小7对.
    "德国大7对": {"xian_self_draw": (21, 37, 79), "dealer_self_draw": (37, 111),
                 "xian_discard": (21, 16, 8, 45), "dealer_discard": (37, 8, 53)},
    "烂": {"xian_self_draw": (4, 8, 16), "dealer_self_draw": (8, 24),
           "xian_discard": (4, 4, 2, 10), "dealer_discard": (8, 2, 12)},
    "德国13烂": {"xian_self_draw": (13, 21, 47), "dealer_self_draw": (21, 63),
                "xian_discard": (13, 8, 4, 25), "dealer_discard": (21, 4, 29)},
}  # fmt: skip

SITUATIONS = {  # (winner, discarder)
    "xian_self_draw": (1, None),
    "dealer_self_draw": (0, None),
    "xian_discard": (1, 2),
    "dealer_discard": (1, 0),
}


def expected_deltas(situation: str, numbers: tuple[int, ...]) -> tuple[int, ...]:
    """The seed's numbers as deltas by seat (East, South, West, North)."""
    if situation == "xian_self_draw":
        xian, dealer, total = numbers
        assert 2 * xian + dealer == total  # the seed's own sum
        return (-dealer, total, -xian, -xian)
    if situation == "dealer_self_draw":
        each, total = numbers
        assert 3 * each == total
        return (total, -each, -each, -each)
    if situation == "xian_discard":
        discarder, dealer, xian, total = numbers
        assert discarder + dealer + xian == total
        return (-dealer, total, -discarder, -xian)
    dealer, xian, total = numbers
    assert dealer + 2 * xian == total
    return (-dealer, total, -xian, -xian)


CASES = [(name, situation) for name in SEED for situation in SEED[name]]


@pytest.mark.parametrize(("name", "situation"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_the_seed_table(name: str, situation: str) -> None:
    hand, win, wild, shape, de_guo = HANDS[name]
    winner, discarder = SITUATIONS[situation]
    answer = score(hand, win, wild=wild, seat=winner, dealer=0, **{"from": discarder})
    assert answer.legal, answer.reason or answer.error
    assert answer.extra["shape"] == shape
    assert answer.extra["de_guo"] is de_guo
    assert answer.deltas == expected_deltas(situation, SEED[name][situation])


def test_the_seed_table_is_all_there() -> None:
    """7 hand types × 4 situations = 28, 84 numbers with the totals (the digest's count),
    and 德国大7对 (同上) the same 4 situations again."""
    assert len(CASES) == 32
    assert sum(len(numbers) for rows in SEED.values() for numbers in rows.values()) == 84 + 12


@pytest.mark.parametrize(
    ("name", "u", "listed"),
    [
        ("平胡", 1, {"ping_hu": 1}),
        ("德国", 2, {"ping_hu": 1, "de_guo": 2}),
        ("小7对", 2, {"small_seven_pairs": 2}),
        ("大7对", 4, {"big_seven_pairs": 4}),
        ("德国小7对", 8, {"small_seven_pairs": 2, "de_guo": 2, "de_guo_seven_pairs": 2}),
        ("德国大7对", 8, {"big_seven_pairs": 4, "de_guo": 2}),
        ("烂", 2, {"thirteen_lan": 2}),
        ("德国13烂", 4, {"thirteen_lan": 2, "de_guo": 2}),
    ],
)
def test_the_seed_types_base_u(name: str, u: int, listed: dict[str, int]) -> None:
    hand, win, wild, _, _ = HANDS[name]
    answer = score(hand, win, wild=wild, seat=1, **{"from": 2})
    assert answer.total == u
    assert fans(answer) == listed
