"""贵阳捉鸡 scoring: the digest's worked example, every row of the seed's value table and of
the app profile's, the 豆 amounts, 平胡 on a discard only with a 豆, 热炮 and 抢杠, and the
Hypothesis laws (every settlement zero-sum, a hand's score independent of its tiles' order).
"""

from __future__ import annotations

import random

import pytest
from guiyang_helpers import APP, score, winning_hands
from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.score import score_json
from paipu.rules.settlement import transfers
from paipu.rules.tiles import tile_names
from paipu.rules.variants import get_variant
from paipu.rules.variants.guiyang.settlement import (
    cha_jiao_payments,
    chicken_payments,
    dou_value,
    guiyang_win_deltas,
)

#: South's 大对子 of the worked example: 111m 444p 77s 99m and a 闷豆 of 2条, on 7s.
BIG_PAIRS = "111m444p77s99m"
MEN_DOU = [("concealed_kong", "2222s", None)]


# ---------------------------------------------------------------------- the worked example


def test_worked_example_self_draw() -> None:
    """South has a 闷豆 and self-draws 大对子: each pays 30 (hand) + 20 (闷豆) = 50 → +150."""
    answer = score(BIG_PAIRS, "7s", seat=1, melds=MEN_DOU)
    assert answer.legal and answer.total == 30
    assert [f.id for f in answer.fans] == ["all_pungs", "self_draw"]
    assert answer.deltas == (-30, 90, -30, -30)
    dou = transfers(4, [(p, 1, 20) for p in (0, 2, 3)])
    assert [a + b for a, b in zip(answer.deltas, dou, strict=True)] == [-50, 150, -50, -50]


def test_worked_example_hot_discard() -> None:
    """West discards into it right after West's 转弯豆: West pays 30 (热炮) + 30 (hand) + 20
    (闷豆) = 80, East and North 20 each (West's own 转弯豆 is void) → South +120."""
    answer = score(
        BIG_PAIRS, "7s", seat=1, melds=MEN_DOU, **{"from": 2}, extra={"hot_dou": "added_kong"}
    )
    assert answer.legal
    assert [f.id for f in answer.fans] == ["all_pungs", "hot_discard"]
    assert answer.extra["hot_dou_penalty"] == 30
    assert answer.deltas == (0, 60, -60, 0)
    dou = transfers(4, [(p, 1, 20) for p in (0, 2, 3)])
    assert [a + b for a, b in zip(answer.deltas, dou, strict=True)] == [-20, 120, -80, -20]


# ---------------------------------------------------------------------- the value tables

#: Every row of the digest's table: a hand of each type (self-drawn), its seed (番) and app
#: (×底) values; None: not in that profile.
TYPES = [
    ("ping_hu", "123m456m789p11s45s", "6s", 10, 1),
    ("all_pungs", "111m444p777s22s99m", "9m", 30, 5),
    ("seven_pairs", "11m33m55p77p99s22s4s", "4s", 40, 10),
    ("dragon_seven_pairs", "11m11m55p77p99s22s4s", "4s", 50, 20),
    ("full_flush", "123m456m789m11m45m", "6m", 50, 10),
    ("pure_pungs", "111m444m777m22m99m", "9m", 80, 15),
    ("pure_seven_pairs", "11m33m55m77m99m22m4m", "4m", None, 20),
    ("pure_dragon_seven_pairs", "11m11m55m77m99m22m4m", "4m", 100, 30),
]


@pytest.mark.parametrize(("fan", "hand", "win", "seed", "app"), TYPES)
def test_every_row_of_the_value_table(fan, hand, win, seed, app) -> None:
    got = score(hand, win, seat=1)
    assert got.legal
    if seed is None:  # the seed has no 清七对: the best listed type is 清一色 (50)
        assert got.fans[0].id == "full_flush" and got.total == 50
    else:
        assert (got.fans[0].id, got.total) == (fan, seed)
        assert got.deltas == (-seed, 3 * seed, -seed, -seed)
    got = score(hand, win, seat=1, rules=APP)
    assert (got.fans[0].id, got.total) == (fan, app)
    assert got.deltas == (-app, 3 * app, -app, -app)


def test_single_wait_and_first_turn_hands_of_the_app_profile() -> None:
    """单吊 10, 单吊清一色 20, 天胡 20, 地胡 20 (pub-gy2); the seed has none of them."""
    melds = [("pong", "111m", 2), ("pong", "444p", 2), ("pong", "777s", 2), ("pong", "333s", 2)]
    single = score("9m", "9m", seat=1, melds=melds, rules=APP)
    assert (single.fans[0].id, single.total) == ("single_wait_melded", 10)
    assert score("9m", "9m", seat=1, melds=melds).fans[0].id == "all_pungs"  # seed: 大对子 30
    pure = [("pong", "111m", 2), ("pong", "444m", 2), ("pong", "777m", 2), ("pong", "333m", 2)]
    answer = score("9m", "9m", seat=1, melds=pure, rules=APP)
    assert (answer.fans[0].id, answer.total) == ("pure_single_wait", 20)
    heavenly = score("123m456m789p11s45s", "6s", rules=APP, extra={"heavenly": True})
    assert (heavenly.fans[0].id, heavenly.total) == ("heavenly", 20)
    earthly = score("123m456m789p11s45s", "6s", seat=2, rules=APP, extra={"earthly": True})
    assert (earthly.fans[0].id, earthly.total) == ("earthly", 20)
    assert score("123m456m789p11s45s", "6s", extra={"heavenly": True}).total == 10


def test_kong_bloom_adds_ten() -> None:
    """杠上胡: a self-draw on one's own kong replacement, +10 (seed); +1 in the app profile."""
    flags = {"kong_replacement": True}
    answer = score(BIG_PAIRS, "7s", seat=1, melds=MEN_DOU, flags=flags)
    assert [(f.id, f.points) for f in answer.fans] == [
        ("all_pungs", 30),
        ("self_draw", 0),
        ("kong_bloom", 10),
    ]
    assert answer.total == 40 and answer.deltas == (-40, 120, -40, -40)
    assert score(BIG_PAIRS, "7s", seat=1, melds=MEN_DOU, flags=flags, rules=APP).total == 6


def test_dou_values() -> None:
    """The 豆 amounts per payer and their whole value (the 热炮 penalty): seed 闷豆 20 each
    (60), 转弯豆 10 each (30), 点豆 10 (10); app 2, 3, 1 (pub-gy1)."""
    variant = get_variant("guiyang")
    assert variant.dou["qq_zhuoji"] == {"concealed_kong": 20, "added_kong": 10, "kong": 10}
    assert variant.dou["guiyang_app"] == {"concealed_kong": 2, "added_kong": 3, "kong": 1}
    seed = variant.dou["qq_zhuoji"]
    assert [dou_value(seed, k, 4) for k in ("concealed_kong", "added_kong", "kong")] == [60, 30, 10]
    for kind, penalty in (("concealed_kong", 60), ("added_kong", 30), ("kong", 10)):
        answer = score(
            BIG_PAIRS, "7s", seat=1, melds=MEN_DOU, **{"from": 3}, extra={"hot_dou": kind}
        )
        assert answer.deltas == (0, 30 + penalty, 0, -30 - penalty)


# ---------------------------------------------------------------------- who may win how

PLAIN = "123m456m789p11s45s"  # 平胡, ready on 3s / 6s


def test_ping_hu_wins_on_a_discard_only_with_a_dou() -> None:
    answer = score(PLAIN, "6s", seat=1, **{"from": 0})
    assert not answer.legal and "有豆允许点胡" in answer.reason
    kong = [("kong", "9999m", 2)]
    with_dou = score("123m456p11s45s", "6s", seat=1, melds=kong, **{"from": 0})
    assert with_dou.legal and with_dou.deltas == (-10, 10, 0, 0)
    hot = score(PLAIN, "6s", seat=1, **{"from": 0}, extra={"hot_dou": "kong"})
    assert hot.legal and hot.deltas == (-20, 20, 0, 0)  # 无豆 平胡 may win a 热炮
    assert score(PLAIN, "6s", seat=1, **{"from": 0}, rules={"ping_hu_discard": "always"}).legal
    bigger = score("11m33m55p77p99s22s4s", "4s", seat=1, **{"from": 0})
    assert bigger.legal and bigger.deltas == (-40, 40, 0, 0)  # a higher hand needs no 豆


def test_robbing_a_kong_counts_as_self_draw_paid_by_the_konger() -> None:
    """抢杠: a 无豆 平胡 may rob; the robbed seat pays for all three (包三家)."""
    answer = score(PLAIN, "6s", seat=1, **{"from": 3}, flags={"robbing_kong": True})
    assert answer.legal
    assert [f.id for f in answer.fans] == ["ping_hu", "robbing_kong"]
    assert answer.deltas == (0, 30, 0, -30)


def test_dealer_bonus_option() -> None:
    """庄家 +1 (pub-gy1, off by default): each share the dealer pays or receives, +1 unit."""
    answer = score(PLAIN, "6s", seat=1, rules={"dealer_bonus": True})
    assert answer.deltas == (-20, 40, -10, -10)


def test_bad_requests_are_errors_not_tracebacks() -> None:
    for extra, words in (
        ({"hot_dou": "pong"}, "extra 'hot_dou'"),
        ({"birds": ["1s"]}, "unknown extra fact"),
    ):
        answer = score_json(
            {
                "variant": "guiyang",
                "seat": 1,
                "dealer": 0,
                "from": 0,
                "hand": PLAIN,
                "win_tile": "6s",
                "extra": extra,
            }
        )
        assert answer.error is not None and words in answer.error
    self_drawn = score_json(
        {
            "variant": "guiyang",
            "seat": 1,
            "dealer": 0,
            "hand": PLAIN,
            "win_tile": "6s",
            "extra": {"hot_dou": "kong"},
        }
    )
    assert "give 'from'" in self_drawn.error
    honours = score_json(
        {
            "variant": "guiyang",
            "seat": 1,
            "dealer": 0,
            "hand": "123m456m789p11z45s",
            "win_tile": "6s",
        }
    )
    assert honours.error is not None and "108 tiles" in honours.error
    chi = score_json(
        {
            "variant": "guiyang",
            "seat": 1,
            "dealer": 0,
            "hand": "456m789p11s45s",
            "melds": [{"kind": "chi", "tiles": "123m", "from": 0}],
            "win_tile": "6s",
        }
    )
    assert chi.error is not None


# ---------------------------------------------------------------------- settlement laws

SEATS = st.integers(0, 3)
PROPS = settings(max_examples=150, deadline=None, derandomize=True)


@PROPS
@given(
    SEATS,
    st.none() | SEATS,
    st.integers(1, 200),
    st.booleans(),
    st.integers(0, 60),
    SEATS,
    st.integers(0, 10),
)
def test_win_deltas_are_zero_sum(winner, other, value, robbing, penalty, dealer, bonus) -> None:
    from_seat = None if other == winner else other
    deltas = guiyang_win_deltas(
        4,
        winner,
        from_seat,
        value,
        robbing=robbing and from_seat is not None,
        penalty=penalty,
        dealer=dealer,
        dealer_bonus=bonus,
    )
    assert sum(deltas) == 0 and deltas[winner] > 0


@PROPS
@given(
    st.lists(st.integers(0, 12), min_size=4, max_size=4),
    st.sets(SEATS),
    st.none() | st.tuples(SEATS, st.integers(0, 4)),
    st.none() | st.tuples(SEATS, SEATS, st.integers(0, 2)),
    st.dictionaries(SEATS, st.integers(1, 100)),
)
def test_chicken_and_cha_jiao_payments_are_zero_sum(held, eligible, charging, liable, ready):
    out = chicken_payments(4, held, eligible, charging=charging, liable=liable)
    assert sum(transfers(4, out)) == 0
    out = cha_jiao_payments(ready, [s for s in range(4) if s not in ready])
    assert sum(transfers(4, out)) == 0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    winning_hands(),
    SEATS,
    st.none() | SEATS,
    st.booleans(),
    st.integers(0, 10**6),
    st.sampled_from(["qq_zhuoji", "guiyang_app"]),
)
def test_every_score_is_zero_sum_and_ignores_the_order_of_the_tiles(
    hand_melds, seat, other, bloom, shuffle_seed, profile
) -> None:
    hand, melds, win = hand_melds
    from_seat = None if other == seat else other

    def ask(tiles: list[int]):
        return score_json(
            {
                "variant": "guiyang",
                "rules": {"profile": profile},
                "seat": seat,
                "dealer": 0,
                "from": from_seat,
                "hand": tile_names(tiles),
                "win_tile": tile_names([win])[0],
                "melds": [
                    {
                        "kind": k,
                        "tiles": tile_names(ts),
                        **({} if k == "concealed_kong" else {"from": (seat + 1) % 4}),
                    }
                    for k, ts in melds
                ],
                "flags": {"kong_replacement": bloom and from_seat is None},
            }
        )

    answer = ask(hand)
    assert answer.error is None, answer.error
    shuffled = list(hand)
    random.Random(shuffle_seed).shuffle(shuffled)
    again = ask(shuffled)
    assert (again.legal, again.total, again.fans, again.deltas) == (
        answer.legal,
        answer.total,
        answer.fans,
        answer.deltas,
    )
    if answer.legal:
        assert sum(answer.deltas) == 0 and answer.deltas[seat] > 0
    else:
        assert from_seat is not None and answer.reason and "平胡" in answer.reason
