"""河北麻将 scoring: the digest's provisional worked example, each named fan and its option,
the 点炮 payers, 庄闲, 带混儿 (素胡, 混儿吊), the refused options and requests, and the
Hypothesis laws (zero-sum, the order of the tiles)."""

from __future__ import annotations

import random

import pytest
from hebei_helpers import score, winning_hands
from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.score import score_json
from paipu.rules.tiles import tile_names
from paipu.rules.variants.hebei.settlement import hebei_win_deltas

WU_KUI = "46m123p789p111s99s"  # 门清, ready on 5万 (捉五魁)


def ids(answer) -> list[str]:
    return [f.id for f in answer.fans]


def test_worked_example() -> None:
    """South self-draws 门清 捉五魁: 1 × 2 × 2 = 4 from each other seat (+12)."""
    answer = score(WU_KUI, "5m", seat=1)
    assert answer.legal and answer.total == 4
    assert ids(answer) == ["ping_hu", "men_qing", "zhuo_wu_kui", "self_draw"]
    assert answer.deltas == (-4, 12, -4, -4)


def test_each_fan_and_its_option() -> None:
    edge = score("12m456p789p111s99s", "3m", seat=1)  # 边张
    assert ids(edge) == ["ping_hu", "men_qing", "bian_ka_diao", "self_draw"] and edge.total == 4
    closed = score("13m456p789p111s99s", "2m", seat=1)  # 卡张 (not 5万)
    assert "bian_ka_diao" in ids(closed)
    single = score("123m456p789p111s9s", "9s", seat=1)  # 单吊
    assert "bian_ka_diao" in ids(single)
    both_sides = score("23m456p789p111s99s", "4m", seat=1)  # 两面: no 边卡吊
    assert ids(both_sides) == ["ping_hu", "men_qing", "self_draw"] and both_sides.total == 2
    ponged = score("46m123p789p99s", "5m", seat=1, melds=[("pong", "111s", 0)])
    assert ids(ponged) == ["ping_hu", "zhuo_wu_kui", "self_draw"] and ponged.total == 2
    concealed_kong = score(
        "46m123p789p99s", "5m", seat=1, melds=[("concealed_kong", "1111s", None)]
    )
    assert "men_qing" in ids(concealed_kong)
    valued = score(WU_KUI, "5m", seat=1, rules={"men_qing": 3, "zhuo_wu_kui": 5})
    assert valued.total == 15
    assert score(WU_KUI, "5m", seat=1, rules={"men_qing": 1, "zhuo_wu_kui": 1}).total == 1


def test_seven_pairs_only_with_the_option() -> None:
    pairs = "11m33m55p77p99s11z2z"
    refused = score(pairs, "2z", seat=1)
    assert refused.error is None and not refused.legal
    answer = score(pairs, "2z", seat=1, rules={"seven_pairs": True})
    assert answer.legal and ids(answer)[:2] == ["seven_pairs", "men_qing"]


def test_who_pays_a_discard() -> None:
    for rule, deltas in (
        ("one", (0, 4, -4, 0)),
        ("three", (-4, 12, -4, -4)),
        ("big", (0, 12, -12, 0)),
    ):
        answer = score(WU_KUI, "5m", seat=1, rules={"dianpao": rule}, **{"from": 2})
        assert answer.deltas == deltas, rule
    assert ids(score(WU_KUI, "5m", seat=1, **{"from": 2}))[-1] == "zhuo_wu_kui"  # no 自摸 tag
    answer = score(WU_KUI, "5m", seat=1, rules={"dianpao_hu": False}, **{"from": 2})
    assert not answer.legal and "self-draw only" in answer.reason


def test_dealer_bonus() -> None:
    answer = score(WU_KUI, "5m", seat=1, rules={"zhuang_xian": True})
    assert answer.deltas == (-8, 16, -4, -4)
    assert score(WU_KUI, "5m", rules={"zhuang_xian": True}).deltas == (24, -8, -8, -8)


def test_wilds_su_hu_and_hun_diao() -> None:
    """带混儿 with 5z (白) wild: a hand without 混 is 素胡 (×2); a 混 pairing the winning tile
    is 混儿吊 (×2, not also 边卡吊)."""
    hun = {"hun": "on"}
    plain = score(WU_KUI, "5m", seat=1, rules=hun, extra={"wild": ["5z"]})
    assert ids(plain) == ["ping_hu", "men_qing", "su_hu", "zhuo_wu_kui", "self_draw"]
    assert plain.total == 8 and plain.extra["wild"] == ["5z"]
    diao = score("123m456p789p111s5z", "9s", seat=1, rules=hun, extra={"wild": ["5z"]})
    assert ids(diao) == ["ping_hu", "men_qing", "hun_diao", "self_draw"] and diao.total == 4
    lone = score("123m456p789p111s5z", "2m", seat=1, rules=hun, extra={"wild": ["5z"]})
    assert "hun_diao" in ids(lone)  # a lone 混 waits on anything: named 混儿吊, not 边卡吊
    standing = score("13m456p789p11s5z99s", "2m", seat=1, rules=hun, extra={"wild": ["5z"]})
    assert "su_hu" not in ids(standing) and standing.legal  # the 混 stands for 1条


def test_bad_requests_and_refused_options() -> None:
    base = {"variant": "hebei", "seat": 1, "dealer": 0, "hand": WU_KUI, "win_tile": "5m"}
    assert score_json({**base, "rules": {"ting": False}}).legal  # 听牌不加番: the same win
    assert "without wilds" in score_json({**base, "extra": {"wild": ["5z"]}}).error
    no_wild = score_json({**base, "rules": {"hun": "on"}})
    assert no_wild.error is not None and "extra 'wild'" in no_wild.error
    honours = score_json({**base, "hand": "46m123p789p111z99s", "rules": {"honors": False}})
    assert "without honours" in honours.error
    chi = score_json(
        {**base, "hand": "46m789p111s99s", "melds": [{"kind": "chi", "tiles": "123p", "from": 0}]}
    )
    assert "without 吃" in chi.error
    assert score_json({**chi_request(), "rules": {"chi": True}}).legal
    assert "unknown extra" in score_json({**base, "extra": {"birds": []}}).error


def chi_request() -> dict:
    return {
        "variant": "hebei",
        "seat": 1,
        "dealer": 0,
        "hand": "46m789p111s99s",
        "win_tile": "5m",
        "melds": [{"kind": "chi", "tiles": "123p", "from": 0}],
    }


# ---------------------------------------------------------------------- laws

SEATS = st.integers(0, 3)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    SEATS,
    st.none() | SEATS,
    st.integers(1, 64),
    SEATS,
    st.sampled_from(["one", "three", "big"]),
    st.booleans(),
)
def test_settlement_is_zero_sum(winner, other, total, dealer, dianpao, zhuang) -> None:
    from_seat = None if other == winner else other
    deltas = hebei_win_deltas(
        4, winner, from_seat, total, dealer=dealer, dianpao=dianpao, zhuang_xian=zhuang
    )
    assert sum(deltas) == 0 and deltas[winner] > 0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(winning_hands(), SEATS, st.none() | SEATS, st.integers(0, 10**6), st.booleans())
def test_every_score_is_zero_sum_and_ignores_the_order_of_the_tiles(
    hand_melds, seat, other, shuffle_seed, hun
) -> None:
    hand, melds, win = hand_melds
    from_seat = None if other == seat else other

    def ask(tiles: list[int]):
        request = {
            "variant": "hebei",
            "seat": seat,
            "dealer": 0,
            "from": from_seat,
            "hand": tile_names(tiles),
            "win_tile": tile_names([win])[0],
            "melds": [
                {"kind": k, "tiles": tile_names(ts), "from": (seat + 1) % 4} for k, ts in melds
            ],
        }
        if hun:
            request |= {"rules": {"hun": "on"}, "extra": {"wild": ["5z"]}}
        return score_json(request)

    answer = ask(hand)
    assert answer.error is None, answer.error
    assert answer.legal
    shuffled = list(hand)
    random.Random(shuffle_seed).shuffle(shuffled)
    again = ask(shuffled)
    assert (again.total, again.fans, again.deltas) == (answer.total, answer.fans, answer.deltas)
    assert sum(answer.deltas) == 0 and answer.deltas[seat] > 0


@pytest.mark.parametrize("tile", ["1z", "9s"])
def test_honours_are_tiles_of_the_room(tile) -> None:
    answer = score("123m456p789p111s" + tile, tile, seat=1)
    assert answer.legal and "bian_ka_diao" in ids(answer)


def test_paipu_score_answers_hebei() -> None:
    import json

    from typer.testing import CliRunner

    from paipu.pipeline.cli import app

    runner = CliRunner()
    request = {"variant": "hebei", "seat": 1, "dealer": 0, "hand": WU_KUI, "win_tile": "5m"}
    result = runner.invoke(app, ["score", json.dumps(request), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["deltas"] == [-4, 12, -4, -4]
    result = runner.invoke(app, ["score", json.dumps(request)])
    assert "捉五魁" in result.output and "门清" in result.output
    bad = {**request, "hand": "46m123p789p111s9s1z"}
    result = runner.invoke(app, ["score", json.dumps(bad), "--json"])
    assert result.exit_code == 1 and "winning hand" in json.loads(result.output)["reason"]
