"""郴州字牌 scoring: the digest's worked example and hands checked by hand.

Each case states its grouping, xi (胡息), 囤, 名堂 and payments as a player would count
them; the numbers were worked out on paper before the engine was asked.
Notation: ``x`` small 一…十, ``d`` big 壹…拾, ``0`` is ten in compact form.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner
from zipai_helpers import request

from paipu.pipeline.cli import app
from paipu.rules.score import score_json

# The worked example (digest §8): 提 贰贰贰贰 (12), 碰 拾拾拾 (3), 坎 五五五 (3), 一二三 (3),
# 二七十 (3), 四五六 (0), pair 八八 (0) = 24 xi. 四五六 is a 吃 here: with 五五五 in hand a
# fourth 五 could only have come as a 提 (the digest's hand has four 五 in all).
WORKED = request(
    "555x 123x 270x 8x",
    "8x",
    [("ti", "2222d"), ("peng", "000d"), ("chi", "456x")],
)


def _fans(answer: object) -> dict[str, int]:
    return {f.id: f.points for f in answer.fans}  # type: ignore[attr-defined]


def test_worked_example_self_drawn() -> None:
    """24 xi → 1 + (24 − 9) // 3 = 6 囤; red cards 贰×4 拾×3 二 (一二三) 二七十 = 11 ≥ 10:
    红胡 ×3 → unit 18, each other seat pays 18. (The digest counts 10 red, forgetting the 二
    of 一二三; the 名堂 is the same.)"""
    answer = score_json(WORKED)
    assert answer.legal, answer.reason
    assert answer.total == 24
    assert _fans(answer) == {"hong_hu": 3}
    assert answer.extra["tun"] == 6
    assert answer.extra["multiplier"] == 3
    assert answer.deltas == (36, -18, -18)
    kinds = [g["kind"] for g in answer.extra["groups"]]
    assert kinds == ["ti", "peng", "run", "kan", "one_two_three", "two_seven_ten", "pair"]


def test_worked_example_on_a_discard() -> None:
    """The same hand on B's discard (放炮): B alone pays 18 × 3 players = 54."""
    answer = score_json({**WORKED, "from": 1})
    assert answer.deltas == (54, -54, 0)


def test_worked_example_on_another_seats_flip() -> None:
    """On C's flip: by default everyone pays as for a self-draw; with flip_win_payment =
    drawer, C pays as for 放炮."""
    on_flip = {**WORKED, "from": 2, "extra": {"source": "flip"}}
    assert score_json(on_flip).deltas == (36, -18, -18)
    drawer = score_json({**on_flip, "rules": {"flip_win_payment": "drawer"}})
    assert drawer.deltas == (54, 0, -54)


# A hand of seven sets, no 提/跑 and so no pair: 壹贰叁 (6), 贰柒拾 (6), 一二三 (3), 四五六,
# 七八九, 伍陆柒 (0) and 十十 + the winning 十. Red: 贰 贰柒拾 二 七 柒 十十十 = 10.
SEVEN_SETS = request("123d 270d 123x 456x 789x 567d 00x", "10x")


def test_own_flip_makes_the_triplet_a_wei() -> None:
    """十十 + one's own 十 is 偎 (3 xi): 6+6+3+3 = 18 xi, 4 囤, 红胡 ×3: 12 each."""
    answer = score_json(SEVEN_SETS)
    assert (answer.total, answer.extra["tun"], _fans(answer)) == (18, 4, {"hong_hu": 3})
    assert answer.deltas == (24, -12, -12)
    assert "wei" in [g["kind"] for g in answer.extra["groups"]]


def test_a_discard_makes_the_triplet_a_peng() -> None:
    """十十 + a discarded 十 is 碰 (1 xi): 16 xi, 3 囤, 红胡: unit 9, the discarder pays 27."""
    answer = score_json({**SEVEN_SETS, "from": 1})
    assert (answer.total, answer.extra["tun"]) == (16, 3)
    assert answer.deltas == (27, -27, 0)


def test_one_xi_per_tun() -> None:
    """一息一囤: 18 xi → 1 + 9 = 10 囤, ×3 = 30 each."""
    answer = score_json({**SEVEN_SETS, "rules": {"xi_per_tun": 1}})
    assert answer.extra["tun"] == 10
    assert answer.deltas == (60, -30, -30)


def test_piao_adds_both_stakes_to_each_payment() -> None:
    """飘 1, 2, 3: seat 1 pays 12 + 2 + 1, seat 2 pays 12 + 3 + 1."""
    answer = score_json({**SEVEN_SETS, "rules": {"piao": "1-2-3"}, "extra": {"piao": [1, 2, 3]}})
    assert answer.deltas == (31, -15, -16)


# 坎 三三三 in hand, the winning 三 makes four: 跑 (another's card) or 提 (one's own flip).
# With it a pair is needed: 十十. Others: 壹贰叁 (6), 四五六 七八九 肆伍陆 柒捌玖 (0).
KAN_HAND = request("333x 123d 456x 789x 456d 789d 00x", "3x")


def test_kan_and_a_discard_make_pao() -> None:
    """跑 三 (6) + 壹贰叁 (6) = 12 xi, 2 囤, 5 red (no 名堂): the discarder pays 2 × 3."""
    answer = score_json({**KAN_HAND, "from": 2})
    assert (answer.total, answer.extra["tun"], answer.fans) == (12, 2, ())
    assert answer.deltas == (6, 0, -6)
    assert answer.extra["groups"][0]["kind"] == "pao"


def test_kan_and_ones_own_flip_make_ti() -> None:
    """提 三 (9) + 6 = 15 xi, 3 囤: 3 from each."""
    answer = score_json(KAN_HAND)
    assert (answer.total, answer.extra["tun"]) == (15, 3)
    assert answer.deltas == (6, -3, -3)


def test_kan_and_another_seats_flip_make_pao_paid_by_all() -> None:
    answer = score_json({**KAN_HAND, "from": 1, "extra": {"source": "flip"}})
    assert answer.total == 12
    assert answer.deltas == (4, -2, -2)


# 偎 伍伍伍 and 跑 六六六六 on the table; the winning 伍 turns the 偎 into 提 (own flip) or
# 跑; two four-alikes: 22 cards. Hand: 壹贰叁 (6), 一二三 (3), 七八九, 柒捌玖 (0), pair 十十.
TWO_FOURS = request("123d 123x 789x 789d 00x", "5d", [("wei", "555d"), ("pao", "6666x")])


def test_wei_and_ones_own_flip_make_ti() -> None:
    """提 伍 (12) + 跑 六 (6) + 6 + 3 = 27 xi, 7 囤, 6 red: 7 each."""
    answer = score_json(TWO_FOURS)
    assert (answer.total, answer.extra["tun"]) == (27, 7)
    assert answer.deltas == (14, -7, -7)


def test_wei_and_a_discard_make_pao() -> None:
    """偎 + the discarded fourth must 跑 (big 9): 24 xi, 6 囤, the discarder pays 18."""
    answer = score_json({**TWO_FOURS, "from": 1})
    assert (answer.total, answer.extra["tun"]) == (24, 6)
    assert answer.deltas == (18, -18, 0)


# 碰 七七七 on the table and 八九 in hand: a discarded 七 cannot 跑 the 碰, so it makes
# 七八九. Others: 壹贰叁 (6), 贰柒拾 (6), 一二三 (3), 四五六, 肆伍陆 (0).
PENG_HAND = request("89x 123d 270d 123x 456x 456d", "7x", [("peng", "777x")])


def test_peng_cannot_pao_a_discard() -> None:
    """碰 1 + 6 + 6 + 3 = 16 xi, 3 囤; 9 red (below 10: no 红胡); the discarder pays 9."""
    answer = score_json({**PENG_HAND, "from": 1})
    assert answer.legal, answer.reason
    assert (answer.total, answer.extra["tun"], answer.fans) == (16, 3, ())
    assert answer.deltas == (9, -9, 0)


def test_peng_must_pao_a_flipped_fourth() -> None:
    """On a flip the 碰 must 跑 the 七, so 八九 is left without it: not a win."""
    answer = score_json({**PENG_HAND, "from": 1, "extra": {"source": "flip"}})
    assert not answer.legal
    assert "do not all fall into groups" in answer.reason


# 一二三 (3) + 二七十 (3) + 四五六 七八九 肆伍陆 柒捌玖 三叁叁 (0): 6 xi.
SIX_XI = request("123x 270x 456x 78x 456d 789d 3x33d", "9x", **{"from": 1})


def test_below_qihu_is_not_a_win() -> None:
    answer = score_json(SIX_XI)
    assert not answer.legal
    assert answer.total == 6
    assert answer.reason == "6 胡息: 郴州字牌 needs at least 9 to win (起胡)"


def test_a_lower_qihu_lets_it_win() -> None:
    """起胡 6: 1 囤; 6 red: no 名堂; the discarder pays 1 × 3."""
    answer = score_json({**SIX_XI, "rules": {"qihu_xi": 6}})
    assert (answer.legal, answer.extra["tun"]) == (True, 1)
    assert answer.deltas == (3, -3, 0)


# No xi at all: 三四五 六七八 四五六 叁肆伍 陆柒捌 肆伍陆 and 九九玖 (大小三搭); 2 red.
BARE = request("345x 678x 456x 345d 678d 456d 99x", "9d")


def test_maohu() -> None:
    """Off by default; with 毛胡 it scores 15 xi: 3 囤, 3 from each; 毛胡10: 1 囤."""
    assert score_json(BARE).reason.startswith("0 胡息")
    answer = score_json({**BARE, "rules": {"maohu": True}})
    assert (answer.legal, answer.total, answer.extra["xi"]) == (True, 15, 0)
    assert _fans(answer) == {"mao_hu": 1}
    assert answer.deltas == (6, -3, -3)
    ten = score_json({**BARE, "rules": {"maohu": True, "maohu_xi": 10}})
    assert ten.deltas == (2, -1, -1)


# No red card: 坎 壹壹壹 (6), 坎 叁叁叁 (6), 三四五, 四五六, 肆伍陆, 捌捌八, 九九玖: 12 xi.
BLACK = request("111d 333d 345x 456x 456d 88d8x 99x", "9d", **{"from": 2})


def test_hei_hu() -> None:
    """12 xi, 2 囤, 黑胡 ×5: unit 10, the discarder pays 30."""
    answer = score_json(BLACK)
    assert (answer.total, answer.extra["tun"], _fans(answer)) == (12, 2, {"hei_hu": 5})
    assert answer.deltas == (30, 0, -30)


def test_red_black_double_and_off() -> None:
    """红黑点2番: 黑胡 ×2 → 12; with 红黑点 off no 名堂 → 6."""
    assert score_json({**BLACK, "rules": {"red_black": "double"}}).deltas == (12, 0, -12)
    off = score_json({**BLACK, "rules": {"red_black": "off"}})
    assert (off.fans, off.deltas) == ((), (6, 0, -6))


# One red card (the 七 of 六七八): otherwise as BLACK.
ONE_RED = request("111d 333d 345x 456x 456d 88d8x 68x", "7x")


def test_yi_dian_hong_and_zimo_double() -> None:
    """12 xi, 2 囤, 一点红 ×4 = 8 each; 自摸翻倍 doubles it to 16 each."""
    answer = score_json(ONE_RED)
    assert _fans(answer) == {"yi_dian_hong": 4}
    assert answer.deltas == (16, -8, -8)
    doubled = score_json({**ONE_RED, "rules": {"zimo_double": True}})
    assert _fans(doubled) == {"yi_dian_hong": 4, "zimo_double": 2}
    assert doubled.deltas == (32, -16, -16)


def test_the_grouping_with_most_xi_is_kept() -> None:
    """提 叁 (12); 一一二二三三四四 cuts as 一二三 ×2 + 四四 (6 xi), not 二三四 ×2 + 一一
    (0); 伍陆柒 捌玖拾 六七八 (0): 18 xi, 4 囤, 5 red: 4 each."""
    answer = score_json(request("11223344x 567d 890d 67x", "8x", [("ti", "3333d")]))
    assert (answer.total, answer.extra["tun"]) == (18, 4)
    kinds = [g["kind"] for g in answer.extra["groups"]]
    assert kinds.count("one_two_three") == 2 and kinds[-1] == "pair"
    assert answer.extra["groups"][-1]["cards"] == ["4x", "4x"]
    assert answer.deltas == (8, -4, -4)


def test_four_players_play_fourteen_cards_and_three_xi() -> None:
    """Four players: 14 cards, five units, 起胡 3. 一二三 (3), 四五六, 肆伍陆, 柒捌玖 and
    七八九: 3 xi, 1 囤; 3 red. Self-drawn: 1 from each of three; 放炮: 1 × 4 players."""
    hand = request("123x 456x 456d 789d 89x", "7x", rules={"players": 4})
    assert score_json(hand).deltas == (3, -1, -1, -1)
    assert score_json({**hand, "from": 1}).deltas == (4, -4, 0, 0)


def test_xiang_gong() -> None:
    """A 相公 seat cannot win; when another wins it pays 1 to each other seat."""
    answer = score_json({**SEVEN_SETS, "extra": {"xiang_gong": [2]}})
    assert answer.deltas == (24, -12, -12)
    assert answer.extra["xiang_gong_deltas"] == [1, 1, -2]
    winner = score_json({**SEVEN_SETS, "extra": {"xiang_gong": [0]}})
    assert not winner.legal and "相公" in winner.reason


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hand": "123m"}, "1m is not a card of 郴州字牌"),
        ({"melds": [{"kind": "pong", "tiles": "777x"}]}, "pong is not a zipai meld"),
        ({"melds": [{"kind": "chi", "tiles": "146x"}]}, "is not a set 吃 can make"),
        ({"melds": [{"kind": "ti", "tiles": "0000x"}]}, "7 copies of 10x"),
        ({"hand": "123d 270d 123x 456x 789x 567d 0x"}, "holds 20 cards"),
        ({"extra": {"birds": []}}, "unknown extra fact(s) birds"),
        ({"extra": {"piao": [1, 0, 0]}}, "飘 1 is not offered"),
        ({"extra": {"source": "flip"}}, "'source' needs 'from'"),
        ({"seat": 3}, "'seat' 3 is not a seat: 3 players sit 0-2"),
    ],
)
def test_requests_that_cannot_be(changes: dict, message: str) -> None:
    answer = score_json({**SEVEN_SETS, **changes})
    assert answer.error is not None and message in answer.error, answer.error


def test_paipu_score_command() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["score", json.dumps(WORKED), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert (answer["legal"], answer["total"], answer["deltas"]) == (True, 24, [36, -18, -18])
    assert answer["fans"] == [
        {
            "id": "hong_hu",
            "name": "红胡",
            "name_en": "Red Hand (ten red or more)",
            "points": 3,
            "count": 1,
        }
    ]
    assert answer["extra"]["tun"] == 6
    illegal = runner.invoke(app, ["score", json.dumps(SIX_XI)])
    assert illegal.exit_code == 1
    assert "起胡" in illegal.output
