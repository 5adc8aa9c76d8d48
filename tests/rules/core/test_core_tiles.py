"""Tile sets from a variant's TOML, the successor order of indicators, wild specs, and the
tile notation's round trip (tens included)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paipu.rules.core.tiles import STANDARD, TileSet, TileSetError
from paipu.rules.core.wild import WildError, WildRule, WildSpec
from paipu.rules.tiles import (
    FLOWERS,
    N_CODES,
    TileError,
    format_tiles,
    parse_tile,
    parse_tiles,
    standard_set,
    tile_name,
)


@given(st.lists(st.integers(0, N_CODES - 1), max_size=20))
def test_format_and_parse_round_trip(tiles: list[int]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles


@given(st.lists(st.sampled_from(TileSet.from_toml({"ranks": 10}).kinds), max_size=20))
def test_ten_rank_hands_round_trip(tiles: list[int]) -> None:
    shiwan = TileSet.from_toml({"ranks": 10})
    assert shiwan.parse(shiwan.format(tiles)) == tiles


def test_tens_keep_their_codes_and_names() -> None:
    assert [tile_name(t) for t in parse_tiles("890m 10p 0s")] == ["8m", "9m", "10m", "10p", "10s"]
    assert format_tiles(parse_tiles("1m 10m")) == "1m0m"
    assert parse_tiles("1m0m") == parse_tiles("1m 10m")


@pytest.mark.parametrize(
    ("table", "size"),
    [
        ({}, 136),
        ({"flowers": True}, 144),
        ({"honors": False}, 108),
        ({"honors": ["7z"]}, 112),
        ({"honors": ["红中"]}, 112),
        ({"ranks": 10, "honors": ["winds"]}, 136),
        ({"suits": ["p", "s"], "honors": True}, 100),
        ({"suited": False}, 28),
    ],
)
def test_wall_sizes(table: dict[str, object], size: int) -> None:
    assert len(TileSet.from_toml(table).wall()) == size


@pytest.mark.parametrize("honors", [True, False])
@pytest.mark.parametrize("flowers", [True, False])
def test_the_toml_of_todays_variants_gives_todays_walls(honors: bool, flowers: bool) -> None:
    tiles = TileSet.from_toml({"suited": True, "honors": honors, "flowers": flowers})
    assert sorted(tiles.wall()) == sorted(standard_set(honors=honors, flowers=flowers))


def test_chow_arithmetic_of_ten_rank_suits() -> None:
    shiwan = TileSet.from_toml({"ranks": 10, "honors": ["winds"]})
    assert shiwan.is_chow(shiwan.parse("890m"))
    assert shiwan.is_chow(shiwan.parse("0m98m"))
    assert not shiwan.is_chow(shiwan.parse("901m"))
    assert shiwan.chow_from(parse_tile("9m")) is None
    assert shiwan.next_rank(parse_tile("9m")) == parse_tile("10m")
    assert STANDARD.next_rank(parse_tile("9m")) is None
    assert not STANDARD.is_chow(parse_tiles("89m1p"))


@pytest.mark.parametrize(
    ("table", "tile", "after"),
    [
        ({}, "9m", "1m"),
        ({"ranks": 10}, "9m", "10m"),
        ({"ranks": 10}, "10s", "1s"),
        ({}, "4z", "1z"),
        ({}, "5z", "6z"),  # default 白→发→中
        ({"dragon_cycle": ["中", "发", "白"]}, "5z", "7z"),  # 天津: 白 → 中
        ({"dragon_cycle": ["中", "发", "白"]}, "7z", "6z"),
        ({"honors": ["7z"]}, "7z", "7z"),
        ({"honors": ["winds"]}, "4z", "1z"),
        ({"flowers": True}, "4f", "1f"),
        ({"flowers": True}, "8f", "5f"),
    ],
)
def test_successor_order(table: dict[str, object], tile: str, after: str) -> None:
    assert TileSet.from_toml(table).successor(parse_tile(tile)) == parse_tile(after)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"ranks": 11}, "ranks must be 9 or 10"),
        ({"honors": ["8z"]}, "unknown tile"),
        ({"honors": ["5m"]}, "not an honour"),
        ({"honour": True}, "unknown key 'honour'"),
        ({"dragon_cycle": ["中", "发"]}, "白, 发 and 中"),
        ({"suits": ["m", "m"]}, "once each"),
        ({"suited": False, "honors": False}, "suits or honours"),
        ({"flowers": "yes"}, "true or false"),
    ],
)
def test_bad_tile_tables_name_the_file_and_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(TileSetError, match=message) as error:
        TileSet.from_toml(table, source="tianjin.toml: tiles")
    assert str(error.value).startswith("tianjin.toml: tiles: ")


def test_a_tile_set_refuses_tiles_it_does_not_have() -> None:
    harbin = TileSet.from_toml({"honors": ["7z"]})
    with pytest.raises(TileError, match="1z"):
        harbin.parse("123m1z")
    assert FLOWERS[0] not in harbin
    assert parse_tile("7z") in harbin


@pytest.mark.parametrize(
    ("table", "indicator", "wilds", "stand_ins"),
    [
        ({"indicator": [0, 1]}, "3p", "34p", ""),  # 天津 混儿
        ({"indicator": [0, 1]}, "9s", "19s", ""),
        ({"indicator": [0, 1]}, "4z", "14z", ""),
        ({"indicator": [1, 2]}, "8m", "19m", ""),  # 南昌 正精 副精
        ({"indicator": [1], "stand_in": "5z"}, "4m", "5m", "5z5m"),  # 常州 财神
        ({"indicator": [1], "stand_in": "5z"}, "7z", "5z", ""),  # 白板 is the 财神
        ({"fixed": ["5z"], "indicator": [1]}, "1m", "2m5z", ""),  # 广东 白板做鬼 + 翻鬼
    ],
)
def test_wild_rules(table: dict[str, object], indicator: str, wilds: str, stand_ins: str) -> None:
    spec = WildRule.from_toml(table, STANDARD).spec(parse_tile(indicator))
    assert format_tiles(sorted(spec.tiles)) == wilds
    assert "".join(format_tiles(pair) for pair in spec.stand_ins) == stand_ins


def test_tianjin_dragon_cycle_makes_its_hun() -> None:
    tianjin = TileSet.from_toml({"dragon_cycle": ["中", "发", "白"]})
    spec = WildSpec.from_indicator(tianjin, parse_tile("5z"), (0, 1))
    assert format_tiles(sorted(spec.tiles)) == "57z"  # 白 → 白, 中


def test_wild_permissions_and_split() -> None:
    rule = WildRule.from_toml(
        {"indicator": [0, 1], "claim": False, "discard": False, "pong": False}, STANDARD
    )
    spec = rule.spec(parse_tile("3p"))
    assert (spec.can_claim, spec.can_discard, spec.can_chow, spec.can_pong) == (
        False,
        False,
        True,
        False,
    )
    natural, wilds = spec.split(STANDARD.counts(STANDARD.parse("34p55p")))
    assert wilds == 2 and natural[parse_tile("5p")] == 2 and not natural[parse_tile("3p")]
    caishen = WildRule.from_toml({"indicator": [1], "stand_in": "白"}, STANDARD).spec(
        parse_tile("4m")
    )
    natural, wilds = caishen.split(STANDARD.counts(STANDARD.parse("5m5z5z")))
    assert wilds == 1 and natural[parse_tile("5m")] == 2 and not natural[parse_tile("5z")]
    assert caishen.drawn_as(parse_tile("5m")) == (parse_tile("5z"),)
    assert spec == rule.spec(parse_tile("3p")) and hash(spec) == hash(rule.spec(parse_tile("3p")))


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({}, "fixed wilds, indicator steps, or both"),
        ({"indicator": [5]}, "steps 0..3"),
        ({"indicator": [1, 2], "stand_in": "5z"}, "exactly one indicator step"),
        ({"fixed": ["8z"]}, "unknown tile"),
        ({"wild": ["7z"]}, "unknown key 'wild'"),
        ({"fixed": ["7z"], "claim": 1}, "true or false"),
    ],
)
def test_bad_wild_tables_name_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(WildError, match=message):
        WildRule.from_toml(table, STANDARD, source="nanchang.toml: wilds")


def test_an_indicator_rule_needs_its_indicator() -> None:
    with pytest.raises(WildError, match="needs the indicator"):
        WildRule.from_toml({"indicator": [1]}, STANDARD).spec()
    with pytest.raises(WildError, match="has no indicator"):
        WildRule.from_toml({"fixed": ["7z"]}, STANDARD).spec(parse_tile("1m"))
