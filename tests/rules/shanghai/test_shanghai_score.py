"""上海麻将 scoring: the digest's worked example, the seed's fan table number by number (番 as
doublings, 清四混两), the 勒子 caps with 双勒 / 四勒, who pays (点炮, 自摸, 抢杠, 承包), the
flower points, what a win needs in each ruleset, and the request's errors.

Seats: 0 East (the dealer), 1 South, 2 West, 3 North. ``lezi = 0`` plays without a cap, so
that a share shows (底 + 花) × 2^番 itself.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from shanghai_helpers import score

from paipu.rules.registry import VariantError, VariantSpec
from paipu.rules.variants.shanghai import Shanghai

NO_CAP = {"lezi": 0}
QIAOMA = {"ruleset": "qiaoma", "lezi": 0}


def fan_ids(answer: object) -> list[str]:
    return [f.id for f in answer.fans]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- the worked example


def test_worked_example() -> None:
    """South self-draws 混碰 (4 番, ×16) with 3 flowers and a 东 pung (1 花): (2 + 4) × 16 =
    96, capped at one 勒子 (20); East, West and North pay 20 each."""
    answer = score(
        "222m333m55m99m",
        "9m",
        seat=1,
        melds=[("pong", "111z", 2)],
        flowers=["1f", "2f", "5f"],
    )
    assert answer.legal, answer.reason
    assert fan_ids(answer) == ["half_flush_all_pungs"]
    assert answer.total == 4
    assert answer.extra["flowers"] == 4
    assert answer.extra["uncapped"] == 96
    assert answer.extra["share"] == 20
    assert answer.deltas == (-20, 60, -20, -20)


def test_worked_example_with_three_pongs_from_west() -> None:
    """Had South made three 碰 from West, West pays the 60 alone (承包)."""
    answer = score(
        "555m9m",
        "9m",
        seat=1,
        melds=[("pong", "111z", 2), ("pong", "222m", 2), ("pong", "333m", 2)],
        flowers=["1f", "2f", "5f"],
    )
    assert fan_ids(answer) == ["half_flush_all_pungs"]
    assert answer.extra["flowers"] == 4
    assert answer.extra["chengbao"] == 2
    assert answer.deltas == (0, 60, -60, 0)


# ---------------------------------------------------------------------- the fan table


@pytest.mark.parametrize(
    ("hand", "win", "fields", "fans", "fan", "share"),
    [
        # 2 番 (×4): 碰碰胡, 混一色
        ("111m222p333s444m5p", "5p", {}, ["all_pungs"], 2, 8),
        ("123m456m789m111z5m", "5m", {}, ["half_flush"], 2, 8),
        # 4 番 (×16): 清一色, 混碰
        ("1112345678999m", "5m", {}, ["full_flush"], 4, 32),
        ("111m222m333m111z5z", "5z", {}, ["half_flush_all_pungs"], 4, 32),
        # 5 番 (×32): 清碰, 风一色 (乱风: any honours)
        ("111p333p555p777p9p", "9p", {}, ["full_flush_all_pungs"], 5, 64),
        ("1122334455667z", "7z", {}, ["all_honors"], 5, 64),
        # 6 番 (×64): 风碰
        ("111z222z333z555z6z", "6z", {}, ["all_honors_all_pungs"], 6, 128),
        # 1 番 (×2) each on top: 杠开, 开宝, 黄番 (accumulating)
        (
            "123m456m789m111z5m",
            "5m",
            {"flags": {"kong_replacement": True}},
            ["kong_replacement", "half_flush"],
            3,
            16,
        ),
        ("123m456m789m111z5m", "5m", {"extra": {"kaibao": 1}}, ["kaibao", "half_flush"], 3, 16),
        (
            "123m456m789m111z5m",
            "5m",
            {"extra": {"huang_fan": 2}},
            ["huang_fan", "half_flush"],
            4,
            32,
        ),
    ],
)
def test_the_fan_table(
    hand: str, win: str, fields: dict[str, object], fans: list[str], fan: int, share: int
) -> None:
    """Seed-A 2 (番 = doublings) and seed-B's 清四混两 (清一色 ×16, 混一色 ×4, 碰碰胡 ×4):
    with 底 2 and no flowers, a share is 2 × 2^番."""
    answer = score(hand, win, rules=NO_CAP, **fields)
    assert answer.legal, answer.reason
    assert fan_ids(answer) == fans
    assert answer.total == fan
    assert answer.extra["share"] == share
    assert answer.deltas == (3 * share, -share, -share, -share)


def test_big_single_wait() -> None:
    """大吊车 (1 番): every set declared, a single tile left; here with 混一色: 3 番, 花 3 (a
    东 pung 1, a concealed kong of 9万 2): (2 + 3) × 8 = 40."""
    answer = score(
        "2m",
        "2m",
        rules=NO_CAP,
        melds=[
            ("chi", "123m", 3),
            ("pong", "555m", 1),
            ("pong", "111z", 2),
            ("concealed_kong", "9999m", None),
        ],
    )
    assert fan_ids(answer) == ["big_single_wait", "half_flush"]
    assert answer.total == 3
    assert answer.extra["flowers"] == 3
    assert answer.extra["share"] == 40


def test_eight_flowers_wins_by_itself_on_a_draw() -> None:
    """八花齐 (4 番): all eight flowers win whatever the tiles, on one's own draw; each
    flower is a 花 too: (2 + 8) × 16 = 160."""
    flowers = [f"{n}f" for n in range(1, 9)]
    answer = score("1357m2468p13579s", "9p", rules=NO_CAP, flowers=flowers)
    assert answer.legal, answer.reason
    assert fan_ids(answer) == ["eight_flowers"]
    assert answer.extra["share"] == 160
    on_discard = score("1357m2468p13579s", "9p", rules=NO_CAP, flowers=flowers, **{"from": 2})
    assert not on_discard.legal
    assert "own draw" in on_discard.reason


def test_all_honours_in_any_shape_is_an_option() -> None:
    answer = score("1122334455667z", "7z", rules={"all_honors_any_shape": False})
    assert not answer.legal
    assert "do not form a winning hand" in answer.reason


# ---------------------------------------------------------------------- 勒子


@pytest.mark.parametrize(
    ("hand", "win", "extra", "caps", "share"),
    [
        ("1112345678999m", "5m", {}, 1, 20),  # 清一色 64 → one 勒子
        ("111p333p555p777p9p", "9p", {}, 2, 40),  # 清碰 64 → 双勒
        ("1122334455667z", "7z", {}, 2, 40),  # 风一色 64 → 双勒
        ("111z222z333z555z6z", "6z", {}, 4, 80),  # 风碰 128 → 四勒
        ("123m456m789m111z5m", "5m", {"huang_fan": 3}, 2, 40),  # 黄翻: 64 → 双勒
        ("123m456m789m111z5m", "5m", {"kaibao": 3}, 2, 40),  # 开宝: 64 → 双勒
        ("123m456m789m111z5m", "5m", {}, 1, 8),  # under the cap
    ],
)
def test_lezi_caps(hand: str, win: str, extra: dict[str, int], caps: int, share: int) -> None:
    """Seed-A 5: a share never passes the 勒子 (20 here), but 黄翻, 开宝, 清碰 and 风一色
    reach two (双勒) and 风碰 four (四勒)."""
    answer = score(hand, win, extra=extra)
    assert answer.extra["caps"] == caps
    assert answer.extra["share"] == share


# ---------------------------------------------------------------------- who pays


def test_discard_win_the_discarder_pays_alone() -> None:
    """点炮者输点，与他人无关 [seed-A 3.3]."""
    answer = score("123m456m789m111z5m", "5m", rules=NO_CAP, **{"from": 2})
    assert answer.deltas == (8, 0, -8, 0)


def test_robbed_kong_counts_as_a_self_draw_paid_by_the_konger() -> None:
    """抢杠: scored as a self-draw, the konger pays three shares [seed-A 3.5]."""
    answer = score(
        "123m456m789m111z5m",
        "5m",
        rules=NO_CAP,
        flags={"robbing_kong": True},
        **{"from": 1},
    )
    assert answer.deltas == (24, -24, 0, 0)


def test_chengbao_on_a_discard_and_a_robbed_kong() -> None:
    """承包: the liable seat pays the one share of a discard win, and the three of a robbed
    kong [seed-A 3.5, 3.6]."""
    discard = score("123m456m789m111z5m", "5m", rules=NO_CAP, extra={"chengbao": 3}, **{"from": 2})
    assert discard.deltas == (8, 0, 0, -8)
    robbed = score(
        "123m456m789m111z5m",
        "5m",
        rules=NO_CAP,
        flags={"robbing_kong": True},
        extra={"chengbao": 3},
        **{"from": 1},
    )
    assert robbed.deltas == (24, 0, 0, -24)


def test_chengbao_off_and_its_threshold() -> None:
    melds = [("pong", "111z", 2), ("pong", "222m", 2), ("pong", "333m", 2)]
    off = score("555m9m", "9m", seat=1, melds=melds, rules={"chengbao_calls": 0})
    assert "chengbao" not in off.extra
    assert off.deltas == (-20, 60, -20, -20)
    four = score("555m9m", "9m", seat=1, melds=melds, rules={"chengbao_calls": 4})
    assert "chengbao" not in four.extra
    explicit_none = score("555m9m", "9m", seat=1, melds=melds, extra={"chengbao": None})
    assert explicit_none.deltas == (-20, 60, -20, -20)


# ---------------------------------------------------------------------- 花


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        (("pong", "555p", 1), 0),  # a suit pung: no 花
        (("pong", "777z", 1), 1),  # 碰出来的风、字
        (("kong", "5555p", 1), 1),  # 明杠
        (("added_kong", "5555p", 1), 1),  # 补杠 (上杠): a 明杠
        (("concealed_kong", "5555p", None), 2),  # 暗杠
        (("kong", "7777z", 1), 2),  # an honour 明杠
        (("concealed_kong", "7777z", None), 3),  # an honour 暗杠
    ],
)
def test_flower_points_of_melds(meld: tuple[str, str, int | None], points: int) -> None:
    """Seed-B: flowers, honour pungs and kongs are 花; the kong values are the digest's
    (inferred, options). Here with 混一色 / 碰碰胡 hands in 筒 and the flowers 春 夏."""
    answer = score("111p234p999p1z", "1z", rules=NO_CAP, melds=[meld], flowers=["1f", "2f"])
    assert answer.legal, answer.reason
    assert answer.extra["flowers"] == 2 + points


def test_flower_values_are_options() -> None:
    answer = score(
        "111p234p999p1z",
        "1z",
        rules={"lezi": 0, "flower_points": 2, "honor_concealed_kong_points": 5},
        melds=[("concealed_kong", "7777z", None)],
        flowers=["1f"],
    )
    assert answer.extra["flowers"] == 7
    assert answer.extra["share"] == (2 + 7) * 4  # 混一色: (底 2 + 花 7) × 4


# ---------------------------------------------------------------------- what a win needs


def test_qinghunpeng_refuses_a_win_without_a_fan() -> None:
    """清混碰: "至少有碰碰胡或清一色或混一色或风一色才可以胡牌"; 杠开 or 开宝 alone is not
    enough."""
    plain = score("123m456p789s123m5z", "5z", extra={"kaibao": 1})
    assert not plain.legal
    assert "清混碰" in plain.reason
    assert fan_ids(plain) == ["kaibao"]


def test_qiaoma_wins_without_a_fan_and_counts_menqing_and_dandiao() -> None:
    """敲麻: 无番胡; the only hand fans are 门清 and 单吊 (1 番 each, values inferred);
    清一色 and the like count nothing there."""
    plain = score("123m456p789s123m5z", "5z", rules=QIAOMA)
    assert plain.legal, plain.reason
    assert fan_ids(plain) == ["concealed_hand", "single_wait"]
    assert plain.extra["share"] == 8
    open_hand = score(
        "456p789s12m55z", "3m", rules=QIAOMA, melds=[("chi", "123m", 3)], **{"from": 3}
    )
    assert fan_ids(open_hand) == []
    assert open_hand.extra["share"] == 2
    flush = score("1112345678999m", "5m", rules=QIAOMA)
    assert fan_ids(flush) == ["concealed_hand"]  # 5万 is not a single wait here


def test_qiaoma_needs_the_ready_declaration() -> None:
    """不敲不能胡牌 [seed-B]: a request says whether the winner had declared (敲)."""
    answer = score("123m456p789s123m5z", "5z", rules=QIAOMA, extra={"ready": False})
    assert not answer.legal
    assert "敲" in answer.reason


def test_min_flowers() -> None:
    """新规矩: 必需有花才可以胡 [seed-B], as a room option."""
    none = score("123m456m789m111z5m", "5m", rules={"min_flowers": 1})
    assert not none.legal
    assert none.reason == "0 花: this room needs 1 to win"  # a concealed 东 pung is no 花
    one = score("123m456m789m111z5m", "5m", rules={"min_flowers": 1}, flowers=["3f"])
    assert one.legal


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"birds": []}, "unknown extra fact"),
        ({"kaibao": -1}, "counts doublings"),
        ({"huang_fan": True}, "counts doublings"),
        ({"chengbao": 0}, "liable seat"),
        ({"chengbao": 7}, "liable seat"),
        ({"ready": "yes"}, "true or false"),
    ],
)
def test_bad_extra_facts_are_errors(extra: dict[str, object], message: str) -> None:
    answer = score("123m456m789m111z5m", "5m", extra=extra)
    assert answer.error is not None
    assert message in answer.error


def test_unknown_option_is_an_error() -> None:
    answer = score("123m456m789m111z5m", "5m", rules={"ruleset": "shanghai"})
    assert answer.error is not None
    assert "ruleset" in answer.error


@pytest.mark.parametrize(
    ("hand", "win", "melds", "share"),
    [
        ("1112345678999m", "5m", [], 40),  # 清一色 ×16: (3 + 1) × 16 = 64 → 40
        ("123m456m789m111z5m", "5m", [], 16),  # 混一色 ×4: (3 + 1) × 4
        ("111m222p333s444m5p", "5p", [], 16),  # 碰碰胡 ×4
    ],
)
def test_seed_b_room(hand: str, win: str, melds: list[object], share: int) -> None:
    """Seed-B: "通常3个筹码的底，有一个花再加一个筹码的底，此后清四混两（清一色4番，计16倍；
    混一色2番，计4倍），外加碰碰胡2番…一副牌最大就40个筹码就辣子封顶": 底 3, one flower,
    勒子 40; "出冲给一份钱，自摸时别的三家也是出一份"."""
    rules = {"base": 3, "lezi": 40}
    answer = score(hand, win, rules=rules, melds=melds, flowers=["4f"])
    assert answer.extra["share"] == share
    assert answer.deltas == (3 * share, -share, -share, -share)
    on_discard = score(hand, win, rules=rules, melds=melds, flowers=["4f"], **{"from": 3})
    assert on_discard.deltas == (share, 0, 0, -share)


def test_the_rulesets_and_caps_name_only_fans_of_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A typo in ``[rulesets]`` or ``[caps]`` fails loudly when the variant loads."""
    spec = VariantSpec.load("shanghai")
    raw = {**spec.raw, "caps": {"double": ["qing_peng"], "quadruple": []}}
    monkeypatch.setattr(VariantSpec, "load", classmethod(lambda cls, _id: replace(spec, raw=raw)))
    with pytest.raises(VariantError, match="qing_peng"):
        Shanghai()
