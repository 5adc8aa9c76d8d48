"""Hypothesis properties of the regional games: every settlement is zero-sum, and tiles are
conserved through whole hands — the 血战 continuation, 开杠, birds and opening wins
included — with the replay's invariants checked after every event."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from paipu.rules.mechanics.birds import BirdMode
from paipu.rules.mechanics.kong_money import kong_payments
from paipu.rules.melds import MeldKind
from paipu.rules.replay import replay
from paipu.rules.score import score_json
from paipu.rules.selfplay import HandSetup, Style, hand_rng
from paipu.rules.settlement import transfers
from paipu.rules.tiles import tile_names
from paipu.rules.variants import get_variant
from paipu.rules.variants.changsha.settlement import changsha_win_deltas, start_win_deltas
from paipu.rules.variants.sichuan.settlement import (
    SelfDrawBonus,
    sichuan_exhaustive_payments,
    sichuan_win_deltas,
)
from paipu.rules.variants.zhuanzhuan.settlement import zhuanzhuan_win_deltas
from paipu.selfplay import play_hand

SEATS = st.integers(0, 3)
BIRDS = st.lists(st.integers(0, 26), max_size=6)
AMOUNT = st.integers(1, 300)
PROPS = settings(max_examples=200, deadline=None, derandomize=True)


def _from(winner: int, other: int | None) -> int | None:
    return None if other is None or other == winner else other


@PROPS
@given(
    SEATS,
    st.none() | SEATS,
    SEATS,
    AMOUNT,
    BIRDS,
    st.sampled_from(list(BirdMode)),
    st.booleans(),
    st.none() | SEATS,
)
def test_changsha_settlement_is_zero_sum(
    winner, other, dealer, amount, birds, mode, bonus, origin
) -> None:
    deltas = changsha_win_deltas(
        4,
        winner,
        _from(winner, other),
        dealer,
        amount,
        birds=birds,
        bird_mode=mode,
        dealer_bonus=bonus,
        bird_origin=origin,
    )
    assert sum(deltas) == 0
    assert deltas[winner] >= 0
    assert sum(start_win_deltas(4, winner, dealer, amount, dealer_bonus=bonus)) == 0


@PROPS
@given(
    SEATS,
    st.none() | SEATS,
    SEATS,
    st.booleans(),
    AMOUNT,
    AMOUNT,
    BIRDS,
    st.sampled_from(list(BirdMode)),
    st.integers(0, 5),
)
def test_zhuanzhuan_settlement_is_zero_sum(
    winner, other, dealer, robbed, self_units, discard_units, birds, mode, piao
) -> None:
    from_seat = _from(winner, other)
    deltas = zhuanzhuan_win_deltas(
        4,
        winner,
        from_seat,
        dealer,
        robbed=robbed and from_seat is not None,
        self_draw_units=self_units,
        discard_units=discard_units,
        birds=birds,
        bird_mode=mode,
        piao=piao,
    )
    assert sum(deltas) == 0


@PROPS
@given(
    SEATS,
    st.none() | SEATS,
    st.sets(SEATS),
    AMOUNT,
    st.integers(1, 5),
    st.sampled_from(list(SelfDrawBonus)),
)
def test_sichuan_settlement_is_zero_sum(winner, other, in_hand, amount, base, bonus) -> None:
    deltas = sichuan_win_deltas(
        4,
        winner,
        _from(winner, other),
        in_hand - {winner},
        amount,
        base=base,
        self_draw_bonus=bonus,
    )
    assert sum(deltas) == 0


@PROPS
@given(
    SEATS,
    st.sampled_from([MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG]),
    SEATS,
    st.sets(SEATS),
    st.sets(SEATS),
    st.sets(SEATS),
    st.dictionaries(SEATS, AMOUNT),
    st.sampled_from([4, 8, 16, 32, 64]),
)
def test_kong_money_and_draw_checks_are_zero_sum(
    konger, kind, feeder, others, pigs, not_ready, ready, cap
) -> None:
    amounts = {"kong": 2, "added_kong": 1, "concealed_kong": 2}
    payments = kong_payments(konger, kind, feeder, others, amounts)
    assert sum(transfers(4, payments)) == 0
    ready = {s: m for s, m in ready.items() if s not in pigs and s not in not_ready}
    checks = sichuan_exhaustive_payments(pigs, not_ready, ready, range(4), cap=cap)
    assert sum(transfers(4, checks)) == 0


# ---------------------------------------------------------------------- scored hands


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], list[tuple[str, list[int]]], int]:
    """Four sets (some declared as pongs or kongs) and a pair of suited tiles."""
    counts = [0] * 27
    sets: list[tuple[str, list[int]]] = []
    for _ in range(4):
        if draw(st.booleans()):
            tile = draw(st.sampled_from([t for t in range(27) if counts[t] <= 1]))
            sets.append(("pung", [tile] * 3))
        else:
            starts = [
                t for t in range(27) if t % 9 <= 6 and all(counts[t + k] < 4 for k in range(3))
            ]
            tile = draw(st.sampled_from(starts))
            sets.append(("chow", [tile, tile + 1, tile + 2]))
        for tile in sets[-1][1]:
            counts[tile] += 1
    pair = draw(st.sampled_from([t for t in range(27) if counts[t] <= 2]))
    counts[pair] += 2
    hand: list[int] = [pair, pair]
    melds: list[tuple[str, list[int]]] = []
    for kind, tiles in sets:
        if kind == "pung" and draw(st.booleans()):
            melds.append(("pong", tiles))
        else:
            hand += tiles
    win = draw(st.sampled_from(hand))
    hand.remove(win)
    return hand, melds, win


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    winning_hands(),
    st.sampled_from(["changsha", "zhuanzhuan", "sichuan"]),
    SEATS,
    st.none() | SEATS,
    BIRDS,
    st.booleans(),
)
def test_every_legal_score_is_zero_sum(hand_melds, variant, seat, other, birds, last) -> None:
    hand, melds, win = hand_melds
    from_seat = _from(seat, other)
    request = {
        "variant": variant,
        "seat": seat,
        "dealer": 0,
        "from": from_seat,
        "hand": tile_names(hand),
        "win_tile": tile_names([win])[0],
        "melds": [
            {"kind": kind, "tiles": tile_names(tiles), "from": (seat + 1) % 4}
            for kind, tiles in melds
        ],
        "flags": {"last_tile": last},
    }
    if variant != "sichuan":
        request["extra"] = {"birds": tile_names(birds)}
    answer = score_json(request)
    assert answer.error is None, answer.error
    if answer.legal:
        assert sum(answer.deltas) == 0
        assert answer.deltas[seat] > 0
        assert answer.total >= 1


# ---------------------------------------------------------------------- whole hands

RULES = {
    "changsha": st.fixed_dictionaries(
        {
            "birds": st.sampled_from([0, 1, 2, 4, 6]),
            "haidi": st.sampled_from(["choose", "next_seat"]),
            "dealer_bonus": st.booleans(),
            "three_step_pairs": st.booleans(),
            "lone_tile": st.sampled_from(["off", "any", "five"]),
        }
    ),
    "zhuanzhuan": st.fixed_dictionaries(
        {
            "birds": st.sampled_from([0, 2, 4, 6]),
            "haidi": st.sampled_from(["choose", "next_seat"]),
            "seven_pairs": st.booleans(),
            "missed_win_lock": st.sampled_from(["same_tile", "any_tile", "off"]),
            "rob_payer": st.sampled_from(["konger", "each"]),
        }
    ),
    "sichuan": st.fixed_dictionaries(
        {
            "fan_table": st.sampled_from(["pub_sc", "chengdu_fan"]),
            "checks_include_winners": st.booleans(),
            "self_draw_bonus": st.sampled_from(["add_base", "double", "none"]),
            "cap": st.sampled_from([8, 64]),
        }
    ),
}


@st.composite
def played(draw: st.DrawFn) -> tuple[str, dict, int, int]:
    variant = draw(st.sampled_from(sorted(RULES)))
    return variant, draw(RULES[variant]), draw(st.integers(0, 10_000)), draw(SEATS)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(played())
def test_tiles_are_conserved_through_whole_hands(case) -> None:
    variant_id, rules, seed, dealer = case
    variant = get_variant(variant_id)
    options = variant.resolve_options(rules)
    setup = HandSetup(
        variant=variant_id,
        game="prop",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.AGGRESSIVE, Style.BALANCED, Style.DEFENSIVE, Style.BALANCED),
        dealer=dealer,
        rules=rules,
    )
    outcome = play_hand(variant, hand_rng(seed, 0, 0), setup, options)
    checked = replay(outcome.record, check=True)  # invariants after every event
    assert checked.deltas == outcome.deltas
    assert sum(checked.deltas) == 0
    if variant_id == "sichuan":
        assert len(checked.wins) <= 3
        assert len({w.seat for w in checked.wins}) == len(checked.wins)
