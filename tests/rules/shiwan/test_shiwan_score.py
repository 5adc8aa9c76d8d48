"""十万麻将 scoring (``paipu score``): the seed's tile set number by number, the basic win over
1–10 suits (8-9-10 is a chow, 10-1 is not), every option of the TOML, and requests refused
with a reason (dragons, flowers, a wrapped chow, extra facts)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from shiwan_helpers import V, request, t
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.rules.melds import Meld, MeldError
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import is_wind, rank_of, suit_of
from paipu.rules.variants import get_variant

runner = CliRunner()
#: Ready on 7m and 10m (8-9 open both ways: 7-8-9 and 8-9-10).
READY = "89m123p567s111z0s0s"


def score(hand: str, win: str, **fields: object) -> ScoreAnswer:
    return score_json(request(hand, win, **fields))


def test_the_seed_s_tile_set_number_by_number() -> None:
    """ "全副牌共有4类34种图案，136张": 万 饼 条 1–10 × 4 = 40 each (120), 东南西北 × 4 = 16."""
    variant = get_variant(V)
    wall = variant.wall_tiles(variant.resolve_options())
    assert len(wall) == 136
    kinds = Counter(wall)
    assert len(kinds) == 34 and set(kinds.values()) == {4}
    for suit in range(3):  # 万 饼 条: ranks 1–9 (codes 0–26) and the ten (42–44), 40 each
        ranks = Counter(
            rank_of(t) for t in wall if t == 42 + suit or (t < 27 and suit_of(t) == suit)
        )
        assert ranks == dict.fromkeys(range(1, 11), 4)
    assert sum(1 for tile in wall if is_wind(tile)) == 16  # 东南西北 × 4
    assert sum(1 for tile in wall if not is_wind(tile)) == 120
    assert not any(31 <= tile < 42 for tile in wall)  # no dragons, no flowers


def test_the_basic_win_over_ten_ranks() -> None:
    for win in ("7m", "10m"):
        answer = score(READY, win, **{"from": 2})
        assert answer.legal and answer.total == 1, win
        assert [f.id for f in answer.fans] == ["basic_win"]
        assert answer.deltas == (1, 0, -1, 0)
    assert not score(READY, "1m", **{"from": 2}).legal


def test_ten_and_one_are_not_connected() -> None:
    """10-1-2 and 9-10-1 are no chows; 1 with 2-3, 10 with 8-9 are."""
    assert not score("90m1m123p567s111z0s", "10s").legal  # would need 9-10-1
    assert not score("0m12m123p567s111z0s", "10s").legal  # would need 10-1-2
    assert score("12m123p567s111z0s0s", "3m").legal
    answer = score("90m123p567s111z0s0s", "8m")
    assert answer.legal and "10 and 1" not in (answer.reason or "")


def test_a_melded_8_9_10_chow_and_a_wrapped_one_refused() -> None:
    melds = [("chi", "890p", 3)]
    assert score("89m567s111z0s0s2p", "2p", melds=melds).error
    answer = score("89m567s111z0s0s", "7m", melds=melds)
    assert answer.legal, answer
    assert Meld.of("chi", "890m").tiles == (t("8m"), t("9m"), t("10m"))
    with pytest.raises(MeldError, match="consecutive"):
        Meld.of("chi", "901m")
    wrapped = score_json(
        {**request("89m567s111z0s0s", "7m"), "melds": [{"kind": "chi", "tiles": "901p", "from": 3}]}
    )
    assert wrapped.error and "consecutive" in wrapped.error


def test_self_draw_and_the_payment_options() -> None:
    answer = score(READY, "10m")
    assert [f.id for f in answer.fans] == ["basic_win", "self_draw"]
    assert answer.deltas == (3, -1, -1, -1)
    assert score(READY, "10m", rules={"self_draw_units": 2}).deltas == (6, -2, -2, -2)
    assert score(READY, "10m", rules={"base": 5}).deltas == (15, -5, -5, -5)
    assert score(READY, "10m", **{"from": 1}, rules={"base": 2}).deltas == (2, -2, 0, 0)
    everyone = score(READY, "10m", **{"from": 1}, rules={"discard_payer": "everyone"})
    assert everyone.deltas == (3, -1, -1, -1)


def test_situational_tags() -> None:
    flags = {"robbing_kong": True}
    answer = score(READY, "10m", **{"from": 3}, flags=flags)
    assert [f.id for f in answer.fans] == ["basic_win", "robbing_kong"]
    assert answer.deltas == (1, 0, 0, -1)
    answer = score(READY, "10m", flags={"last_tile": True, "kong_replacement": True})
    assert [f.id for f in answer.fans] == [
        "basic_win",
        "self_draw",
        "last_tile",
        "kong_replacement",
    ]


def test_seven_pairs_only_with_the_option() -> None:
    pairs = "1100m2299p3344s1z"
    assert not score(pairs, "1z").legal
    answer = score(pairs, "1z", rules={"seven_pairs": True})
    assert answer.legal and [f.id for f in answer.fans] == ["seven_pairs", "self_draw"]


def test_options_refuse_what_is_not_implemented() -> None:
    assert "chow_wraps" in score(READY, "10m", rules={"chow_wraps": True}).error
    assert "unknown option" in score(READY, "10m", rules={"min_fan": 8}).error


@pytest.mark.parametrize(
    ("hand", "win", "fields", "words"),
    [
        ("89m123p567s111z0s5z", "10m", {}, "5z is not a tile of 十万麻将"),
        ("89m123p567s111z0s0s", "7z", {}, "7z is not a tile"),
        (READY, "10m", {"flowers": ["1f"]}, "no flowers"),
        (READY, "10m", {"extra": {"birds": []}}, "takes no 'extra'"),
        ("89m123p567s111z0s", "10m", {}, "must have 13"),
        ("0m0m0m0m123p567s111z", "10m", {}, "only 4"),
    ],
)
def test_requests_refused_with_a_reason(hand: str, win: str, fields: dict, words: str) -> None:
    answer = score(hand, win, **fields)
    assert not answer.legal and words in (answer.error or ""), answer


def test_paipu_score_names_its_fields() -> None:
    result = runner.invoke(
        app, ["score", "--json", json.dumps(request(READY, "10m", **{"from": 1}))]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["legal"] and answer["total"] == 1 and answer["deltas"] == [1, -1, 0, 0]
    assert answer["fans"][0]["id"] == "basic_win" and answer["extra"] == {"unit": "base"}
    bad = runner.invoke(app, ["score", "--json", json.dumps(request(READY, "1m", **{"from": 1}))])
    assert bad.exit_code == 1 and "10 and 1 are not connected" in bad.output
