"""The legal moves (rules/legal.py): claims on a discard, robbing a kong, the moves of a turn,
with the restrictions the variants' data and tables put on them (chi by the next seat only,
定缺, 漏胡)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from paipu.rules.legal import Move, MoveKind, claim_priority, claims, rob_claims, turn_moves
from paipu.rules.tiles import format_tiles, parse_tile
from paipu.rules.variants import get_variant
from tests.rules.regional.regional_helpers import (
    ADDED_KONG_ROUND,
    PASSED_WIN_HANDS,
    PASSED_WIN_ROUND,
    PONG_OF_4P,
    apply_all,
    ev,
    record,
)


def t(name: str) -> int:
    return parse_tile(name)


def kinds(moves: list[Move]) -> list[tuple[int, str, str]]:
    return [(m.seat, m.kind.value, format_tiles(m.tiles)) for m in moves]


def test_every_variant_has_a_claim_order_win_first() -> None:
    for variant_id in ("mcr", "changsha", "zhuanzhuan", "sichuan"):
        order = claim_priority(get_variant(variant_id))
        assert order[0] == "win", variant_id
        assert order.index("kong") < order.index("pong") < order.index("chi")


# ---------------------------------------------------------------------- chi: the next seat

CS = {
    0: "145m79m19p2468s99s",
    1: "234m456s789s22p55p",
    2: "23m6678p1135s7s99m",  # two seats on: holds 2m 3m, could make 123m / 234m
    3: "234m66m88m44p6789p",
}


def _table(variant: str, hands: dict[int, str], events: list[list[Any]], **rules: Any) -> Any:
    return apply_all(record(variant, hands, ev(*events), rules=rules or None))


def test_chi_only_by_the_next_seat_and_only_where_the_variant_has_chi() -> None:
    hands = {**CS, 1: "2m4m456s789s22p55p6p"}  # the next seat: 2m 4m make 234m on 3m
    table = _table("changsha", hands, [["draw", 0, "3m"], ["discard", 0, "3m"]])
    moves = claims(table, t("3m"), 0)
    chis = [m for m in moves if m.kind is MoveKind.CHI]
    assert {m.seat for m in chis} == {1}  # seat 2 holds 2m 3m too, but is not next
    assert ("chi", (t("2m"), t("3m"), t("4m"))) in [(m.kind.value, m.tiles) for m in chis]
    # Zhuanzhuan has no chi at all
    table = _table("zhuanzhuan", hands, [["draw", 0, "3m"], ["discard", 0, "3m"]])
    assert not [m for m in claims(table, t("3m"), 0) if m.kind is MoveKind.CHI]


def test_claims_are_sorted_by_priority_pong_before_chi() -> None:
    hands = {**CS, 1: "2m4m456s789s22p55p6p", 3: "3m3m4m66m88m44p6789p"}
    table = _table("changsha", hands, [["draw", 0, "3m"], ["discard", 0, "3m"]])
    moves = claims(table, t("3m"), 0)
    assert [m.kind for m in moves][:1] == [MoveKind.PONG]
    assert moves[0].seat == 3
    assert all(a.priority <= b.priority for a, b in pairwise(moves))


# ---------------------------------------------------------------------- 定缺

SC = {
    0: "123m456m789m1p2p5p9p",
    1: "123456789s1p1p9p9p",
    2: "123s456s789s4p6p8p8p",
    3: "234567m888m4p6p2p2p",
}


def test_void_suit_no_pong_of_it_and_its_tiles_are_discarded_first() -> None:
    voids = [["void", 0, "s"], ["void", 1, "p"], ["void", 2, "m"], ["void", 3, "s"]]
    table = _table("sichuan", SC, [*voids, ["draw", 0, "3p"], ["discard", 0, "9p"]])
    # seat 1 holds 9p 9p but 筒 is its void suit: no pong; nobody may chi in Sichuan
    assert kinds(claims(table, t("9p"), 0)) == []
    # seat 0, void 万, holds 万: only 万 may be discarded
    table = _table("sichuan", SC, [["void", 0, "m"], *voids[1:], ["draw", 0, "3p"]])
    discards = [m for m in turn_moves(table, 0) if m.kind is MoveKind.DISCARD]
    assert discards and all(m.tile < 9 for m in discards)
    assert turn_moves(table, 1) == []  # not seat 1's turn


# ---------------------------------------------------------------------- 漏胡

ZH = PASSED_WIN_HANDS
ROUND = PASSED_WIN_ROUND


def test_a_passed_win_is_not_listed_again_until_the_seat_draws() -> None:
    table = _table("zhuanzhuan", ZH, ROUND)
    wins = [m for m in claims(table, t("4p"), 3) if m.kind is MoveKind.WIN]
    assert [m.seat for m in wins] == [1]  # offered: seat 1 waits on 4p
    table = _table("zhuanzhuan", ZH, [*ROUND, ["draw", 0, "4p"], ["discard", 0, "4p"]])
    assert [m for m in claims(table, t("4p"), 0) if m.kind is MoveKind.WIN] == []  # 漏胡
    unlocked = _table(
        "zhuanzhuan", ZH, [*ROUND, ["draw", 0, "4p"], ["discard", 0, "4p"]], missed_win_lock="off"
    )
    assert [m.seat for m in claims(unlocked, t("4p"), 0) if m.kind is MoveKind.WIN] == [1]


# ---------------------------------------------------------------------- the turn, robbing


def test_turn_moves_list_the_self_drawn_win_kongs_and_discards() -> None:
    hands = {**ZH, 0: "1357m999m19p2468s"}
    table = _table("zhuanzhuan", hands, [["draw", 0, "9m"]])
    moves = turn_moves(table, 0)
    assert (MoveKind.CONCEALED_KONG, (t("9m"),)) in [(m.kind, m.tiles) for m in moves]
    assert {m.tile for m in moves if m.kind is MoveKind.DISCARD} == {
        t(x) for x in ("1m", "3m", "5m", "7m", "9m", "1p", "9p", "2s", "4s", "6s", "8s")
    }
    table = _table("zhuanzhuan", ZH, [["draw", 0, "1m"], ["discard", 0, "1m"], ["draw", 1, "4p"]])
    assert turn_moves(table, 1)[0] == Move(1, MoveKind.SELF_DRAWN_WIN, (t("4p"),), 0)


def test_rob_claims_offer_the_wins_on_the_added_tile() -> None:
    pong = PONG_OF_4P
    after = ADDED_KONG_ROUND
    table = _table("zhuanzhuan", ZH, [*pong, *after])
    assert rob_claims(table, t("4p"), 3) == [Move(1, MoveKind.WIN, (t("4p"),), 0)]


def test_claim_priority_is_the_variants_data() -> None:
    """A variant's TOML orders its claims; an order naming no kind of move is an error."""
    variant = get_variant("mcr")
    assert claim_priority(variant) == ("win", "kong", "pong", "chi")
    assert [k.value for k in MoveKind][:5] == ["win", "kong", "ready_chi", "pong", "chi"]
