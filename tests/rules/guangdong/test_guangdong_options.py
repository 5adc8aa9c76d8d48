"""广东推倒胡's room options beyond the spec's contract (issue 13): 节节高 (the dealer streak,
the shared ``dealer_streak`` mechanic), 马跟杠 (horses × the winner's kong units), the extra
fans 碰碰胡 / 清一色 × 2 (digest §9.4), and the tile sets 不带字牌 / 不带万 (digest §1). Every
number is the digest's worked example (§7) extended by hand; the laws (zero-sum, tile
order) with the options on; a self-played log with them audits ok."""

from __future__ import annotations

import json
from collections import Counter
from itertools import product
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from paipu.pipeline.cli import app
from paipu.rules.core.tiles import STANDARD
from paipu.rules.core.wild import WildSpec
from paipu.rules.record import HandRecord
from paipu.rules.replay import RuleViolation, replay
from paipu.rules.score import score_json
from paipu.rules.selfplay import HandSetup, Style
from paipu.rules.tiles import counts, tile_names
from paipu.rules.variants import get_variant
from paipu.rules.variants.guangdong.fans import is_all_pungs, is_full_flush
from tests.rules.guangdong.guangdong_helpers import DEAL, KONG, PLAYERS, record, request
from tests.rules.guangdong.test_guangdong_replay import _audit
from tests.rules.guangdong.test_guangdong_score import winning

V = "guangdong"
VARIANT = get_variant(V)
PLAIN = "123m456p789s11z45m"  # waits on 3m / 6m
#: The digest's horses: 5万 (the dealer), 2条 (his next seat), 6筒 (the next), 北 (his previous).
HORSES = ["5m", "2s", "6p", "4z"]
#: South's hand of the worked example after its 暗杠 of 1万 (the replay's deal).
KONG_HAND = "456p789s11z45m"
CONCEALED = ("concealed_kong", ["1m"] * 4, None)


def answer(hand: str, win: str, **fields):
    return score_json(request(hand, win, **fields))


def fans(a) -> list[tuple[str, int]]:
    return [(f.id, f.count) for f in a.fans]


# ---------------------------------------------------------------------- 节节高


def test_jie_jie_gao_on_the_worked_example() -> None:
    """Digest §6 节节高 (+ 2 × the dealer's 连庄 count per payer) on §7's horses, East (the
    dealer) winning his third hand in a row (streak 3: he kept the deal twice): one horse
    (5万) lands on East → each pays 2 + 2 × 1 + 2 × 2 = 8, East + 24."""
    rules = {"horses": 4, "jie_jie_gao": True}
    a = answer(PLAIN, "6m", rules=rules, extra={"horse_tiles": HORSES, "streak": 3})
    assert a.legal and a.total == 2
    assert fans(a) == [("tui_dao_hu", 1), ("self_draw", 1), ("jie_jie_gao", 2), ("horse", 1)]
    assert a.deltas == (24, -8, -8, -8)
    assert a.extra["streak"] == 3 and a.extra["streak_bonus"] == 4
    # the worked example itself: South wins, the streak is East's → no bonus, 6 each
    south = answer(PLAIN, "6m", seat=1, rules=rules, extra={"horse_tiles": HORSES, "streak": 3})
    assert south.deltas == (-6, 18, -6, -6) and "jie_jie_gao" not in dict(fans(south))
    # a fresh dealer (streak 1) and the option off: no bonus
    fresh = answer(PLAIN, "6m", rules=rules, extra={"horse_tiles": HORSES})
    assert fresh.deltas == (12, -4, -4, -4)
    off = answer(PLAIN, "6m", rules={"horses": 4}, extra={"horse_tiles": HORSES, "streak": 3})
    assert off.deltas == (12, -4, -4, -4)


def test_jie_jie_gao_is_paid_in_full_by_a_single_payer() -> None:
    """抢杠全包 with 节节高: the robbed konger pays all three shares, the bonus in each
    (streak 2: + 2): 3 × (2 + 2) = 12."""
    rules = {"jie_jie_gao": True}
    robbed = answer(
        PLAIN, "6m", rules=rules, extra={"streak": 2}, flags={"robbing_kong": True},
        **{"from": 2},
    )  # fmt: skip
    assert robbed.deltas == (12, 0, -12, 0)


@pytest.mark.parametrize("streak", [0, -1, "2", True, 1.5])
def test_a_bad_streak_is_refused(streak) -> None:
    a = answer(PLAIN, "6m", rules={"jie_jie_gao": True}, extra={"streak": streak})
    assert a.error is not None and "streak" in a.error


def test_next_setup_carries_the_streak_only_with_jie_jie_gao() -> None:
    """The winner deals; the dealer winning again → streak + 1; another winner → 1; a drawn
    hand keeps the dealer and starts his streak again (pub-gd ChooseDealer())."""
    on = HandSetup(V, "g", 0, tuple(PLAYERS), (Style.BALANCED,) * 4, dealer=2,
                   rules={"jie_jie_gao": True})  # fmt: skip

    def after(setup: HandSetup, *winners: int) -> HandSetup:
        outcome = SimpleNamespace(wins=[SimpleNamespace(seat=s, from_seat=None) for s in winners])
        return VARIANT.next_setup(setup, outcome)  # type: ignore[arg-type]

    kept = after(after(on, 2), 2)
    assert (kept.dealer, kept.extra["streak"]) == (2, 3)
    assert VARIANT.setup_events(kept)[0].to_array() == ["dealer_streak", 2, 3]
    drawn = after(kept)
    assert (drawn.dealer, drawn.extra["streak"]) == (2, 1)
    assert VARIANT.setup_events(drawn) == []
    passed = after(kept, 0)
    assert (passed.dealer, passed.extra["streak"]) == (0, 1)
    off = HandSetup(V, "g", 0, tuple(PLAYERS), (Style.BALANCED,) * 4, dealer=2)
    assert after(after(off, 2), 2).extra == {}  # the defaults carry nothing


EAST_WINS = [["draw", 0, "7m"], ["win", 0, "7m"]]  # East: 234m 567m 789m 123p 77z


def test_jie_jie_gao_replayed_from_the_dealer_streak_event() -> None:
    """The streak comes in as the shared ``dealer_streak`` event; East wins his third hand
    with §7's horses (5万 on East) → 2 + 2 + 2 × 2 = 8 from each."""
    rules = {"jie_jie_gao": True, "horses": 4}
    events = [["dealer_streak", 0, 3], *EAST_WINS, ["bird", None, HORSES]]
    outcome = replay(record(events, rules), check=True)
    (win,) = outcome.wins
    assert win.deltas == (24, -8, -8, -8) == outcome.deltas
    assert ("jie_jie_gao", 2) in fans(win) and ("horse", 1) in fans(win)
    assert "dealer_streak" in outcome.notes
    # without the option the streak is a fact that pays nothing
    plain = replay(record(events, {"horses": 4}), check=True)
    assert plain.deltas == (12, -4, -4, -4)


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        ([["dealer_streak", 2, 2]], "the streak is the dealer's (seat 0)"),
        ([["draw", 0, "7m"], ["dealer_streak", 0, 2]], "before the first draw"),
        ([["dealer_streak", 0, 2], ["dealer_streak", 0, 2]], "given once"),
    ],
)
def test_the_streak_event_is_checked(events, rule) -> None:
    with pytest.raises(RuleViolation) as caught:
        replay(record([*events, *EAST_WINS], {"jie_jie_gao": True}))
    assert rule in caught.value.rule


# ---------------------------------------------------------------------- 马跟杠


def test_horse_kong_on_the_worked_example() -> None:
    """Digest §6 马跟杠 (+ the winner's kong units × the horses on him) on §7: South's 暗杠
    is 2 units, 2 horses hit → + 4: each pays 2 + 2 × 2 + 2 × 2 = 10, South + 30."""
    rules = {"horses": 4, "horse_kong": True}
    a = answer(
        KONG_HAND, "6m", seat=1, rules=rules, melds=[CONCEALED], extra={"horse_tiles": HORSES}
    )
    assert fans(a) == [("tui_dao_hu", 1), ("self_draw", 1), ("horse", 2), ("horse_kong", 4)]
    assert a.deltas == (-10, 30, -10, -10) and a.extra["kong_units"] == 2
    # off: the digest's 6 each
    plain = answer(
        KONG_HAND, "6m", seat=1, rules={"horses": 4}, melds=[CONCEALED],
        extra={"horse_tiles": HORSES},
    )  # fmt: skip
    assert plain.deltas == (-6, 18, -6, -6) and "kong_units" not in plain.extra


@pytest.mark.parametrize(
    ("kind", "direct_kong", "units"),
    [("concealed_kong", 1, 2), ("added_kong", 1, 1), ("kong", 1, 1), ("kong", 3, 3)],
)
def test_kong_units_are_what_one_seat_pays_for_the_kong(kind, direct_kong, units) -> None:
    """A kong's units: 暗杠 2, 补杠 1, 直杠 ``direct_kong`` (pub-gd: 2, 1, 1). South, 2 horses:
    share 2 + 4 + 2 × units."""
    rules = {"horses": 4, "horse_kong": True, "direct_kong": direct_kong}
    frm = None if kind == "concealed_kong" else 3
    a = answer(
        KONG_HAND, "6m", seat=1, rules=rules, melds=[(kind, ["1m"] * 4, frm)],
        extra={"horse_tiles": HORSES},
    )  # fmt: skip
    share = 2 + 4 + 2 * units
    assert a.deltas == (-share, 3 * share, -share, -share)
    no_hit = answer(
        KONG_HAND, "6m", seat=1, rules=rules, melds=[(kind, ["1m"] * 4, frm)],
        extra={"horse_tiles": ["1m", "4m"]},
    )  # fmt: skip
    assert no_hit.deltas == (-2, 6, -2, -2) and "horse_kong" not in dict(fans(no_hit))


def test_horse_kong_replayed_with_the_concealed_kong() -> None:
    """The worked example replayed: the win 10 from each, the 暗杠 2 from each: South + 36."""
    win = [["draw", 0, "8s"], ["discard", 0, "8s"], ["draw", 1, "6m"], ["win", 1, "6m"]]
    rules = {"horses": 4, "horse_kong": True}
    outcome = replay(record([*KONG, *win, ["bird", None, HORSES]], rules), check=True)
    (computed,) = outcome.wins
    assert computed.deltas == (-10, 30, -10, -10)
    assert outcome.deltas == (-12, 36, -12, -12)
    assert fans(computed)[-2:] == [("horse", 2), ("horse_kong", 4)]


# ---------------------------------------------------------------------- 碰碰胡 / 清一色


def test_all_pungs_and_full_flush_double() -> None:
    """Digest §9.4: 碰碰胡 × 2, 清一色 × 2 as room options (off by default)."""
    pungs = {"all_pungs_double": True}
    flush = {"full_flush_double": True}
    a = answer("111m222p333s44z66z", "6z", rules=pungs)
    assert a.total == 4 and a.deltas == (12, -4, -4, -4)
    assert [f.id for f in a.fans] == ["tui_dao_hu", "all_pungs", "self_draw"]
    assert answer("111m222p333s44z66z", "6z").total == 2  # off
    melded = answer("444z6z", "6z", rules=pungs, melds=[
        ("pong", ["1m"] * 3, 1), ("kong", ["2p"] * 4, 2), ("concealed_kong", ["3s"] * 4, None),
    ])  # fmt: skip
    assert melded.total == 4
    assert answer(PLAIN, "6m", rules=pungs).total == 2  # chows: no
    nine_gates = answer("1112345678999m", "5m", rules=flush)
    assert nine_gates.total == 4 and "full_flush" in dict(fans(nine_gates))
    assert answer("1112345678999m", "5m", rules=pungs).total == 2
    both = answer("1112223334445m", "5m", rules={**pungs, **flush})
    assert both.total == 8 and both.deltas == (24, -8, -8, -8)
    honours = answer("1112223334445z", "5z", rules=flush)  # honours only: no 清一色
    assert honours.legal and honours.total == 2
    pairs = answer("113355779922m4m", "4m", rules={**flush, "seven_pairs": True})
    assert pairs.total == 4 and [f.id for f in pairs.fans][:2] == ["seven_pairs", "full_flush"]


def test_the_extra_fans_with_ghosts() -> None:
    """白板做鬼: a 鬼 fills a pung (碰碰胡) or stands for a tile of the suit (清一色); the
    winner holds a 鬼, so no 无鬼加倍."""
    rules = {"ghost": "white", "all_pungs_double": True, "full_flush_double": True}
    wild = {"wild": ["5z"]}
    pungs = answer("111m222p333s44z6z5z", "5z", rules=rules, extra=wild)
    assert pungs.total == 4 and "all_pungs" in dict(fans(pungs))
    flush = answer("11123456789m5z5z", "9m", rules=rules, extra=wild)
    assert flush.total == 4 and "full_flush" in dict(fans(flush))
    mixed = answer("11123456789m1p5z", "1p", rules=rules, extra=wild)
    assert mixed.total == 2


def _oracle_all_pungs(hand: list[int], wilds: WildSpec) -> bool:
    """Every substitution of the 鬼 tried: the concealed tiles are pungs and one pair."""
    held = wilds.held(hand)
    natural = list(hand)
    for ghost in held:
        natural[ghost] -= 1
    for faces in product(range(34), repeat=len(held)):
        now = list(natural)
        for face in faces:
            now[face] += 1
        present = [n for n in now if n]
        if all(n in (2, 3) for n in present) and present.count(2) == 1:
            return True
    return False


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(winning(), st.lists(st.integers(0, 13), min_size=0, max_size=2, unique=True))
def test_all_pungs_agrees_with_a_brute_force_oracle(case, places) -> None:
    """碰碰胡 with up to two 白板 鬼 put in a complete hand: the count rule is the oracle's."""
    tiles = list(case[0])
    for place in places:
        tiles[place] = 31
    ghost = WildSpec.fixed(STANDARD, [31])
    hand = counts(tiles)
    if not any(n > 4 for n in hand):
        assert is_all_pungs(hand, 0, ghost) == _oracle_all_pungs(hand, ghost), tile_names(tiles)
        flush = len({t // 9 for t in tiles if t != 31}) == 1 and all(
            t < 27 for t in tiles if t != 31
        )
        assert is_full_flush(hand, (), ghost) == flush


# ---------------------------------------------------------------------- tile sets


@pytest.mark.parametrize(
    ("rules", "size"),
    [
        ({}, 136),
        ({"honors": False}, 108),
        ({"honors": False, "ghost": "white"}, 112),
        ({"honors": False, "ghost": "white_flip2"}, 112),
        ({"characters": False}, 100),
        ({"honors": False, "characters": False}, 72),
    ],
)
def test_tile_sets(rules, size) -> None:
    """Digest §1: 不带字牌 (108; pub-gd keeps the four 白板 when they are 鬼), 不带万."""
    tiles = VARIANT.wall_tiles(VARIANT.resolve_options(rules))
    assert len(tiles) == size and max(Counter(tiles).values()) == 4


def test_tiles_out_of_the_room_are_refused() -> None:
    no_honors = answer(PLAIN, "6m", rules={"honors": False})
    assert no_honors.error is not None and "1z is not a tile of this room" in no_honors.error
    no_wan = answer(PLAIN, "6m", rules={"characters": False})
    assert no_wan.error is not None and "不带万" in no_wan.error
    horse = answer(
        "123p456p789s11s45p", "6p", rules={"honors": False, "horses": 2},
        extra={"horse_tiles": ["4z", "1p"]},
    )  # fmt: skip
    assert horse.error is not None and "horse_tiles" in horse.error
    ok = answer("123p456p789s11s45p", "6p", rules={"honors": False, "characters": False})
    assert ok.legal and ok.deltas == (6, -2, -2, -2)


def test_a_deal_out_of_the_room_is_refused() -> None:
    obj = {"paipu": 1, "variant": V, "game": "t", "hand": 0, "players": PLAYERS, "dealer": 0,
           "deal": DEAL, "rules": {"characters": False}, "events": []}  # fmt: skip
    with pytest.raises(RuleViolation) as caught:
        replay(HandRecord.from_json(obj), check=True)
    assert "m" in caught.value.rule, caught.value.rule


# ---------------------------------------------------------------------- laws, CLI, self-play

OPTIONS = st.fixed_dictionaries(
    {
        "discard_win": st.booleans(),
        "discard_payer": st.sampled_from(["discarder", "all"]),
        "rob_kong_pays_all": st.booleans(),
        "horses": st.sampled_from([0, 2, 4]),
        "horse_value": st.sampled_from(["two", "points"]),
        "direct_kong": st.sampled_from([1, 3]),
        "jie_jie_gao": st.booleans(),
        "horse_kong": st.booleans(),
        "all_pungs_double": st.booleans(),
        "full_flush_double": st.booleans(),
    }
)
KINDS = ["concealed_kong", "added_kong", "kong"]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(
    winning(),
    OPTIONS,
    st.lists(st.integers(0, 33), min_size=4, max_size=4),
    st.integers(1, 5),
    st.sampled_from(KINDS),
    st.randoms(),
)
def test_zero_sum_and_tile_order_with_the_options(case, rules, horses, streak, kind, rnd) -> None:
    """Zero-sum and tile order with 节节高, 马跟杠 (a pung of the hand made a kong), 碰碰胡,
    清一色 on."""
    tiles, win, seat, dealer, source, frm = case
    hand = list(tiles)
    hand.remove(win)
    melds = []
    pung = next((t for t in set(hand) if hand.count(t) == 3 and tiles.count(t) == 3), None)
    if pung is not None:
        for _ in range(3):
            hand.remove(pung)
        melds = [
            {"kind": kind, "tiles": tile_names([pung] * 4)}
            | ({} if kind == "concealed_kong" else {"from": (seat + 1) % 4})
        ]

    def req(order):
        return {
            "variant": V, "rules": rules, "seat": seat, "dealer": dealer, "from": frm,
            "hand": tile_names([hand[i] for i in order(len(hand))]),
            "win_tile": tile_names([win])[0], "melds": melds,
            "flags": {"robbing_kong": source == "rob"},
            "extra": {"horse_tiles": tile_names(horses[: rules["horses"]]), "streak": streak},
        }  # fmt: skip

    base = score_json(req(range))
    assert base.error is None, base.error
    assert score_json(req(lambda n: rnd.sample(range(n), n))) == base
    if base.legal:
        assert sum(base.deltas) == 0 and base.deltas[seat] > 0


def test_paipu_score_with_the_new_options() -> None:
    """`paipu score` requests: 节节高 (extra.streak) and 马跟杠 (the melds' kongs)."""
    lines = [
        request(PLAIN, "6m", rules={"horses": 4, "jie_jie_gao": True},
                extra={"horse_tiles": HORSES, "streak": 3}),
        request(KONG_HAND, "6m", seat=1, rules={"horses": 4, "horse_kong": True},
                melds=[CONCEALED], extra={"horse_tiles": HORSES}),
        request("1112223334445m", "5m",
                rules={"all_pungs_double": True, "full_flush_double": True}),
    ]  # fmt: skip
    text = "".join(json.dumps(line) + "\n" for line in lines)
    result = CliRunner().invoke(app, ["score", "--jsonl", "-"], input=text)
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.output.strip().splitlines()[-3:]]
    assert [o["deltas"] for o in out] == [[24, -8, -8, -8], [-10, 30, -10, -10], [24, -8, -8, -8]]


def test_self_play_with_the_options_audits_ok() -> None:
    rules = {"jie_jie_gao": True, "horse_kong": True, "horses": 4, "all_pungs_double": True}
    verdicts, stats = _audit(V, 60, rules)
    assert verdicts == {"ok": 60}
    assert stats.events["dealer_streak"] > 0 and stats.rules["dealer_streak"] > 0
    for fan in ("jie_jie_gao", "horse_kong", "all_pungs"):
        assert stats.fans[fan] > 0, fan
    verdicts, _ = _audit(V, 30, {"honors": False, "characters": False, "ghost": "white_flip1"})
    assert verdicts == {"ok": 30}
