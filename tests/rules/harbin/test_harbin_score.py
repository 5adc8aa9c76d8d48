"""哈尔滨麻将 `paipu score`: the seed's payment tables number by number (seed 001 §三 积分计算,
../shared/rules/harbin.md §6-§7), the win requirements, the request's ``extra`` contract
(../shared/spec/score-request.md, Wave 2 `harbin`), and the laws: zero-sum, and a hand's
score unchanged by the order of its tiles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.harbin.harbin_helpers import score

#: a = seat 0 wins; b = seat 1; c = seat 2; d = seat 3 (the seed's letters).
#: A discard win that is not 卡当: 123p 456p 78m(9m) 55s + 碰 111s; waits 6m and 9m.
PLAIN = "123456p78m55s"
PONG = (("pong", "111s", 2),)
#: The same hand 卡当: 79m waits on 8m alone.
KADANG = "123456p79m55s"


def fans(answer):
    return [f.id for f in answer.fans]


# ---------------------------------------------------------------------- discard wins


@pytest.mark.parametrize(
    ("ready", "standing", "deltas"),
    [
        # b 已听牌 (b is ready): every loser pays its own share
        ([0, 1, 2, 3], [], (3, -1, -1, -1)),  # c, d 没站立
        ([0, 1, 2], [3], (5, -1, -1, -3)),  # c 没站立, d 站立
        ([0, 1], [2, 3], (7, -1, -3, -3)),  # c, d 均站立
        # b 未听牌 (出冲): b pays 3 and 包赔 c and d
        ([0, 2, 3], [], (5, -5, 0, 0)),  # 3 + 1 + 1
        ([0, 2], [3], (7, -7, 0, 0)),  # 3 + 1 + 3
        ([0], [2, 3], (9, -9, 0, 0)),  # 3 + 3 + 3
    ],
)
def test_the_seeds_discard_table_row_by_row(
    ready: list[int], standing: list[int], deltas: tuple[int, ...]
) -> None:
    answer = score(
        PLAIN, "9m", melds=PONG, **{"from": 1}, extra={"ready": ready, "concealed_seats": standing}
    )
    assert answer.legal, answer.reason
    assert fans(answer) == ["ping_hu"]
    assert answer.total == 1
    assert answer.deltas == deltas
    # 注：以上各种情况下如果赢家卡当胡则输赢分数翻倍
    doubled = score(
        KADANG, "8m", melds=PONG, **{"from": 1}, extra={"ready": ready, "concealed_seats": standing}
    )
    assert fans(doubled) == ["ping_hu", "ka_dang"]
    assert doubled.total == 2
    assert doubled.deltas == tuple(2 * d for d in deltas)


def test_a_win_on_the_discarders_declaring_discard_is_chu_chong() -> None:
    """听牌后出的那张牌被别人胡牌了，也算放炮者没听牌 (digest ambiguity 4)."""
    answer = score(
        PLAIN,
        "9m",
        melds=PONG,
        **{"from": 1},
        extra={"ready": [0, 1, 2, 3], "ready_discard": True},
    )
    assert answer.deltas == (5, -5, 0, 0)
    assert answer.extra["chu_chong"] == 1


# ---------------------------------------------------------------------- self-draws


@pytest.mark.parametrize(
    ("standing", "deltas"),
    [
        ([], (6, -2, -2, -2)),  # b, c, d 没站立
        ([1], (7, -3, -2, -2)),  # b 站立
        ([1, 2], (8, -3, -3, -2)),  # b, c 站立
        ([1, 2, 3], (9, -3, -3, -3)),  # b, c, d 均站立
    ],
)
def test_the_seeds_self_draw_table_column_by_column(
    standing: list[int], deltas: tuple[int, ...]
) -> None:
    answer = score(
        PLAIN, "9m", melds=PONG, extra={"ready": [0], "concealed_seats": standing, "bao": "7z"}
    )
    assert fans(answer) == ["self_draw"]
    assert answer.total == 2
    assert answer.deltas == deltas
    doubled = score(KADANG, "8m", melds=PONG, extra={"ready": [0], "concealed_seats": standing})
    assert fans(doubled) == ["self_draw", "ka_dang"]
    assert doubled.deltas == tuple(2 * d for d in deltas)


def test_the_digests_worked_example() -> None:
    """a 卡当 self-draws; b is 站立, c, d opened: b −3×2 = −6, c −4, d −4, a +14."""
    answer = score(KADANG, "8m", melds=PONG, extra={"ready": [0, 2, 3], "concealed_seats": [1]})
    assert answer.deltas == (14, -6, -4, -4)


def test_robbing_a_kong_and_a_kong_replacement_pay_as_a_self_draw() -> None:
    """抢杠、杠开等于自摸."""
    robbed = score(
        PLAIN,
        "9m",
        melds=PONG,
        **{"from": 2},
        flags={"robbing_kong": True},
        extra={"ready": [0], "concealed_seats": [1]},
    )
    assert fans(robbed) == ["robbing_kong"]
    assert robbed.deltas == (7, -3, -2, -2)
    bloom = score(PLAIN, "9m", melds=PONG, flags={"kong_replacement": True}, extra={"ready": [0]})
    assert fans(bloom) == ["kong_bloom"]
    assert bloom.deltas == (6, -2, -2, -2)


# ---------------------------------------------------------------------- 摸宝, 宝中宝


def test_touch_bao_each_pays_3_flat() -> None:
    """摸宝：a 摸宝胡，则 b、c、d 各输 3 番，a 赢 9 番 (站立 does not raise it: ambiguity 2)."""
    answer = score(
        PLAIN, "4s", melds=PONG, extra={"ready": [0], "concealed_seats": [1, 2], "bao": "4s"}
    )
    assert fans(answer) == ["touch_bao"]
    assert answer.total == 3
    assert answer.deltas == (9, -3, -3, -3)


def test_touch_bao_on_a_ka_dang_hand_doubles() -> None:
    """如果摸宝的同时是卡当胡，则输赢分数翻倍: the 宝 (4s) stands for the 8m of 79m."""
    answer = score(KADANG, "4s", melds=PONG, extra={"ready": [0], "bao": "4s"})
    assert fans(answer) == ["touch_bao", "ka_dang"]
    assert answer.deltas == (18, -6, -6, -6)


def test_bao_in_bao_each_pays_12_and_is_not_doubled() -> None:
    """宝中宝：b、c、d 各输 12 番，a 赢 36 番 (卡当 already counted: ambiguity 3)."""
    answer = score(
        KADANG, "8m", melds=PONG, extra={"ready": [0], "concealed_seats": [3], "bao": "8m"}
    )
    assert fans(answer) == ["bao_in_bao"]
    assert answer.total == 12
    assert answer.deltas == (36, -12, -12, -12)


def test_a_discarded_bao_is_an_ordinary_tile() -> None:
    """别人打出的宝牌，不算宝牌: a 宝 won off a discard is a plain win on it."""
    answer = score(PLAIN, "9m", melds=PONG, **{"from": 1}, extra={"ready": [0, 1], "bao": "9m"})
    assert fans(answer) == ["ping_hu"]
    refused = score(PLAIN, "4s", melds=PONG, **{"from": 1}, extra={"ready": [0, 1], "bao": "4s"})
    assert not refused.legal


# ---------------------------------------------------------------------- 卡当


@pytest.mark.parametrize(
    ("hand", "win", "melds", "expected"),
    [
        # 7889 算 (7889m waits on 8m alone, the middle of 789)
        ("7889m123p", "8m", (("pong", "111s", 2), ("chi", "456p", 3)), True),
        # 67789 胡 8 万不算: it waits on 5m and 8m
        ("67789m11p", "8m", (("pong", "111s", 2), ("chi", "456p", 3)), False),
        # 78889 不算: it waits on 8m and the other pair (11p)
        ("78889m11p", "8m", (("pong", "111s", 2), ("chi", "456p", 3)), False),
        # 8 不算，单调不是卡当: a single wait on 8m as the pair
        ("8m123p", "8m", (("pong", "111s", 2), ("chi", "456p", 3), ("chi", "789m", 3)), False),
        # the plain 卡当: 79m waits on 8m
        ("79m123p11s", "8m", (("pong", "999s", 2), ("chi", "456p", 3)), True),
    ],
)
def test_ka_dang_as_the_seed_explains_it(
    hand: str, win: str, melds: tuple[tuple[str, str, int], ...], expected: bool
) -> None:
    answer = score(hand, win, melds=melds, extra={"ready": [0]})
    assert answer.legal, answer.reason
    assert ("ka_dang" in fans(answer)) is expected


# ---------------------------------------------------------------------- requirements


@pytest.mark.parametrize(
    ("hand", "win", "melds", "extra", "reason"),
    [
        (PLAIN, "9m", PONG, {"ready": []}, "听"),
        ("123456p78m55s111s", "9m", (), {"ready": [0]}, "开门"),
        ("123456p78m55s", "9m", (("concealed_kong", "1111s", None),), {"ready": [0]}, "开门"),
        ("23456789p55p", "1p", (("pong", "111p", 2),), {"ready": [0]}, "two suits"),
        ("234567p34m66s", "5m", (("pong", "888s", 2),), {"ready": [0]}, "幺九"),
        ("123456p78m55s", "9m", (("chi", "123s", 3),), {"ready": [0]}, "刻"),
    ],
)
def test_the_win_requirements_name_the_rule(
    hand: str, win: str, melds: tuple[tuple[str, str, int | None], ...], extra: dict, reason: str
) -> None:
    answer = score(hand, win, melds=melds, extra=extra)
    assert not answer.legal
    assert reason in (answer.reason or "")


def test_red_dragons_serve_for_the_terminal_the_pair_and_the_pung() -> None:
    """红中 stands in for 幺九; 中中 is a pair, 中中中 a 刻."""
    answer = score("234567p34m77z", "5m", melds=(("chi", "345s", 3),), extra={"ready": [0]})
    assert not answer.legal and "刻" in (answer.reason or "")
    answer = score("234567p34m77z", "5m", melds=(("pong", "888s", 2),), extra={"ready": [0]})
    assert answer.legal, answer.reason
    answer = score("234p34m777z55s", "5m", melds=(("chi", "345s", 3),), extra={"ready": [0]})
    assert answer.legal, answer.reason


def test_dui_dao_two_pairs_waiting_win_by_the_pung_they_complete() -> None:
    """特例：无刻牌，但有两个对子，也可听牌，胡对倒."""
    answer = score("123456p55m99s", "9s", melds=(("chi", "789m", 3),), extra={"ready": [0]})
    assert answer.legal, answer.reason
    assert fans(answer) == ["self_draw"]


def test_seven_pairs_is_not_a_shape() -> None:
    answer = score("1122m3344p5566s7z", "7z", extra={"ready": [0]})
    assert not answer.legal


# ---------------------------------------------------------------------- the contract


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"ready": [0], "concealed_seats": [0]}, "losers only"),
        ({"ready": [0, 1], "concealed_seats": [1]}, "overlap"),
        ({"ready": "0"}, "lists seats"),
        ({"ready": [0], "bao": 5}, "bao"),
        ({"ready": [0], "bao": "1z"}, "not a tile"),
        ({"ready": [0], "ready_discard": True}, "ready_discard"),
        ({"ready": [0], "birds": []}, "unknown extra"),
    ],
)
def test_bad_extra_facts_are_errors_that_say_why(extra: dict, message: str) -> None:
    answer = score(PLAIN, "9m", melds=PONG, extra=extra)
    assert answer.error is not None and message in answer.error


def test_tiles_outside_the_112_are_refused() -> None:
    answer = score("123456p78m55z", "9m", melds=PONG, extra={"ready": [0]})
    assert answer.error is not None and "112 tiles" in answer.error


# ---------------------------------------------------------------------- laws

SEATS = st.lists(st.integers(0, 3), unique=True)


@settings(max_examples=60, deadline=None)
@given(
    winner=st.integers(0, 3),
    offset=st.integers(0, 3),
    standing=SEATS,
    ready=SEATS,
    kadang=st.booleans(),
    bao=st.sampled_from([None, "4s", "8m", "9m"]),
    ready_discard=st.booleans(),
)
def test_every_settlement_is_zero_sum(
    winner: int,
    offset: int,
    standing: list[int],
    ready: list[int],
    kadang: bool,
    bao: str | None,
    ready_discard: bool,
) -> None:
    """Whatever the table: the deltas sum to zero (the escape penalty is settled apart)."""
    discarder = None if offset == 0 else (winner + offset) % 4
    standing_set = sorted(set(standing) - {winner} - set(ready))
    ready_set = sorted({*ready, winner})
    melds = (("pong", "111s", (winner + 2) % 4),)
    fields = {"seat": winner, "dealer": 0}
    if discarder is not None:
        fields["from"] = discarder
    extra = {"ready": ready_set, "concealed_seats": standing_set, "bao": bao}
    if discarder is not None and ready_discard:
        extra["ready_discard"] = True
    answer = score(
        KADANG if kadang else PLAIN, "8m" if kadang else "9m", melds=melds, extra=extra, **fields
    )
    assert answer.legal, answer.reason
    assert sum(answer.deltas) == 0
    assert answer.deltas[winner] > 0


@settings(max_examples=40, deadline=None)
@given(shuffled=st.permutations(["1p", "2p", "3p", "4p", "5p", "6p", "7m", "9m", "5s", "5s"]))
def test_the_order_of_the_tiles_does_not_change_the_score(shuffled: list[str]) -> None:
    expected = score(KADANG, "8m", melds=PONG, extra={"ready": [0], "concealed_seats": [1]})
    got = score(list(shuffled), "8m", melds=PONG, extra={"ready": [0], "concealed_seats": [1]})
    assert (got.deltas, got.fans, got.total) == (expected.deltas, expected.fans, expected.total)
