"""Small legal MCR hands built in code, for the pipeline tests (no shared data needed).

Each builder returns the JSON object of one paipu hand with its full wall:
- :func:`quick_win`: the dealer wins on its first draw (清龙 self-drawn, concealed);
- :func:`discard_win`: the dealer discards a tile that seat 1 wins on;
- :func:`exhaustive_draw`: everyone discards what it draws until the wall is empty.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from paipu.rules.tiles import FLOWERS, parse_tiles, standard_set, tile_name, tile_names

PLAYERS = ["Ann", "Bo", "Chen", "Dai"]


def _deal(
    first: list[int], seed: int, second: list[int] | None = None, reserve: list[int] | None = None
) -> tuple[list, list]:
    """Seat 0 gets ``first`` (seat 1 ``second``), the wall starts with ``reserve``; the rest
    of the 144 tiles is shuffled, dealt to the other seats and put behind."""
    rest = standard_set(flowers=True)
    for tile in first + (second or []) + (reserve or []):
        rest.remove(tile)
    rng = random.Random(seed)
    rest = [t for t in rest if t not in FLOWERS]
    rng.shuffle(rest)
    hands = [first]
    if second is not None:
        hands.append(second)
    while len(hands) < 4:
        hands.append([rest.pop() for _ in range(13)])
    return hands, [*(reserve or []), *rest, *FLOWERS]


def _hand(game: str, deal: list, wall: list, events: list, **extra: Any) -> dict[str, Any]:
    return {
        "paipu": 1,
        "variant": "mcr",
        "game": game,
        "hand": extra.pop("hand", 0),
        "players": PLAYERS,
        "dealer": 0,
        "round_wind": "1z",
        "deal": [tile_names(sorted(d)) for d in deal],
        "wall": tile_names(wall),
        "events": events,
        **extra,
    }


def quick_win(game: str = "t-quick", seed: int = 1) -> dict[str, Any]:
    """Dealer: 123456789m 11z 22z, draws 1z: 清龙 混一色 不求人 … self-drawn."""
    deal, wall = _deal(parse_tiles("123456789m1122z"), seed, reserve=parse_tiles("1z"))
    return _hand(game, deal, wall, [["draw", 0, "1z"], ["win", 0, "1z"]])


def discard_win(game: str = "t-discard", seed: int = 2) -> dict[str, Any]:
    """The dealer draws and discards 9s; seat 1 (123m456p78s111z55z) wins on it: 花龙."""
    deal, wall = _deal(
        parse_tiles("1199m3344p5566s7z"),
        seed,
        second=parse_tiles("123m456p78s111z55z"),
        reserve=parse_tiles("9s"),
    )
    events = [["draw", 0, "9s"], ["discard", 0, "9s"], ["win", 1, "9s", {"from": 0}]]
    return _hand(game, deal, wall, events)


def exhaustive_draw(game: str = "t-draw", seed: int = 3) -> dict[str, Any]:
    rng = random.Random(seed)
    tiles = standard_set(flowers=True)
    rng.shuffle(tiles)
    deal = [sorted(t for t in tiles[13 * i : 13 * (i + 1)] if t not in FLOWERS) for i in range(4)]
    held_flowers = [[t for t in tiles[13 * i : 13 * (i + 1)] if t in FLOWERS] for i in range(4)]
    # Keep deals flower-free: swap dealt flowers for the wall's last suited tiles.
    wall = tiles[52:]
    for seat in range(4):
        for flower in held_flowers[seat]:
            swap = next(t for t in reversed(wall) if t not in FLOWERS)
            wall.remove(swap)
            wall.append(flower)
            deal[seat].append(swap)
        deal[seat].sort()
    events: list[list[Any]] = []
    front, back = 0, len(wall)
    seat = 0
    while front < back:
        tile = wall[front]
        front += 1
        events.append(["draw", seat, tile_name(tile)])
        while tile in FLOWERS and front < back:
            events.append(["flower", seat, tile_name(tile)])
            back -= 1
            tile = wall[back]
            events.append(["draw", seat, tile_name(tile)])
        if tile in FLOWERS:
            events.append(["flower", seat, tile_name(tile)])
            break
        events.append(["discard", seat, tile_name(tile)])
        seat = (seat + 1) % 4
    return _hand(game, deal, wall, events, result={"outcome": "draw", "deltas": [0, 0, 0, 0]})


def variant_of(obj: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    out.update(changes)
    return out
