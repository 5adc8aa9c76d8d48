"""Helpers for the Guiyang tests: the regional helpers (score requests, hand-written records,
scripted hands on a stacked wall) and a Hypothesis strategy of winning hands.

Seats: 0 East (the dealer unless a test says otherwise), 1 South, 2 West, 3 North.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "regional"))

from regional_helpers import (
    Scripted,
    apply_all,
    ev,
    record,
    request,
    scripted_hand,
    t,
)

from paipu.rules.score import ScoreAnswer, score_json

V = "guiyang"
APP = {"profile": "guiyang_app"}

__all__ = [
    "APP",
    "CHICKEN_EVENTS",
    "CHICKEN_HANDS",
    "Scripted",
    "V",
    "apply_all",
    "ev",
    "record",
    "score",
    "scripted_hand",
    "t",
    "winning_hands",
]


#: East (the dealer) discards the hand's first 幺鸡 and is then ready on 4万 / 7万; South is
#: ready on 3万 / 6万 holding two 幺鸡 and a 4万; West (one 幺鸡) and North are not ready.
CHICKEN_HANDS = {
    0: "1s111p222p333p44m5m",
    1: "11s123m456p789p45m",
    2: "1s4s7s1p4p7p2m8m3s6s9s8p9p",
    3: "4m7m2s5s8s5p6p9p3m6m8m9m7s",
}
CHICKEN_EVENTS = [
    ["draw", 0, "6m"],
    ["discard", 0, "1s"],
    ["draw", 1, "9s"],
    ["discard", 1, "9s"],
    ["draw", 2, "5s"],
    ["discard", 2, "5s"],
    ["draw", 3, "1m"],
    ["discard", 3, "1m"],
    ["draw", 0, "8s"],
    ["discard", 0, "8s"],
    ["draw", 1, "6m"],
    ["win", 1, "6m"],
]


def score(hand: str, win: str, **fields: Any) -> ScoreAnswer:
    """Score a Guiyang hand: seat 0 wins and deals unless the fields say otherwise."""
    return score_json(request(V, hand, win, **fields))


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], list[tuple[str, list[int]]], int]:
    """A winning hand of the 108 tiles: four sets (pungs, some ponged or konged, and chows)
    and a pair, or seven pairs; the concealed tiles, the melds and the winning tile."""
    counts = [0] * 27
    if draw(st.integers(0, 4)) == 0:
        hand: list[int] = []
        for _ in range(7):
            tile = draw(st.sampled_from([x for x in range(27) if counts[x] <= 2]))
            counts[tile] += 2
            hand += [tile, tile]
        win = draw(st.sampled_from(hand))
        hand.remove(win)
        return hand, [], win
    sets: list[tuple[str, list[int]]] = []
    for _ in range(4):
        if draw(st.booleans()):
            tile = draw(st.sampled_from([x for x in range(27) if counts[x] <= 1]))
            sets.append(("pung", [tile] * 3))
        else:
            starts = [
                x for x in range(27) if x % 9 <= 6 and all(counts[x + k] < 4 for k in range(3))
            ]
            tile = draw(st.sampled_from(starts))
            sets.append(("chow", [tile, tile + 1, tile + 2]))
        for tile in sets[-1][1]:
            counts[tile] += 1
    pair = draw(st.sampled_from([x for x in range(27) if counts[x] <= 2]))
    counts[pair] += 2
    hand = [pair, pair]
    melds: list[tuple[str, list[int]]] = []
    for kind, tiles in sets:
        how = draw(st.sampled_from(["hand", "pong", "kong"])) if kind == "pung" else "hand"
        if how == "pong":
            melds.append(("pong", tiles))
        elif how == "kong" and counts[tiles[0]] == 3:
            counts[tiles[0]] += 1
            melds.append((draw(st.sampled_from(["kong", "concealed_kong"])), tiles + tiles[:1]))
        else:
            hand += tiles
    win = draw(st.sampled_from(hand))
    hand.remove(win)
    return hand, melds, win
