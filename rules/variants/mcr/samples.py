"""Random legal MCR hands of every shape, for agreement tests and benchmarks.

Each generated :class:`~paipu.rules.score.ScoreRequest` is a physically possible finished
hand (at most four copies of a tile, declared melds that can be declared, a consistent
win situation); it may still be under the 8-fan minimum, which is part of what is tested.

>>> import random
>>> request = random_request(random.Random(1), "standard")
>>> len(request.hand) + 3 * len(request.melds)
13
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from paipu.rules.decompose import KNITTED_STRAIGHTS
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.score import ScoreRequest, WinFlags
from paipu.rules.tiles import EAST, FLOWERS, HONORS, TERMINALS_AND_HONORS, Tile

SHAPES = (
    "standard",
    "seven_pairs",
    "thirteen_orphans",
    "honors_and_knitted",
    "knitted_straight",
    "nine_gates",
)

# Tile pools that make the rarer fans (flushes, terminals, honors, ranges, green) common.
_POOLS: tuple[tuple[Tile, ...], ...] = (
    tuple(range(34)),
    tuple(range(34)),
    tuple(range(9)) + HONORS,
    tuple(range(9, 18)),
    tuple(range(18, 27)) + HONORS,
    TERMINALS_AND_HONORS,
    HONORS,
    tuple(t for t in range(27) if t % 9 in (0, 1, 2, 3)),
    tuple(t for t in range(27) if t % 9 in (5, 6, 7, 8)),
    tuple(t for t in range(27) if t % 9 in (3, 4, 5)),
    tuple(t for t in range(27) if t % 9 in (1, 3, 5, 7)),
    (19, 20, 21, 23, 25, 32),
    (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31),
    tuple(range(27)),
)


class _Tiles:
    """A tile budget: at most four of each."""

    def __init__(self) -> None:
        self.used: Counter[Tile] = Counter()

    def take(self, *tiles: Tile) -> bool:
        need = Counter(tiles)
        if any(self.used[t] + n > 4 for t, n in need.items()):
            return False
        self.used.update(need)
        return True


def _random_set(
    rng: random.Random, pool: tuple[Tile, ...], budget: _Tiles, kong_rate: float
) -> tuple[str, Tile] | None:
    for _ in range(30):
        tile = rng.choice(pool)
        kind = rng.choice(("chow", "chow", "pung", "pung"))
        if kind == "chow":
            if tile >= 27 or tile % 9 > 6:
                continue
            if budget.take(tile, tile + 1, tile + 2):
                return "chow", tile
        elif rng.random() < kong_rate:
            if budget.take(tile, tile, tile, tile):
                return "kong", tile
        elif budget.take(tile, tile, tile):
            return "pung", tile
    return None


def _pattern(rng: random.Random) -> tuple[list[tuple[str, Tile]], Tile | None]:
    """Sets (and maybe the pair) of a multi-set fan: straights, shifted or triple chows and
    pungs, terminal chows, wind and dragon pungs, the 套算一次 cases."""
    suits = rng.sample((0, 9, 18), 3)
    s0, s1, s2 = suits
    r = rng.randrange(7)
    step = rng.choice((1, 2))
    choice = rng.randrange(20)
    chow, pung = "chow", "pung"
    pattern: list[tuple[str, Tile]]
    pair: Tile | None = None
    if choice == 0:
        pattern = [(chow, s0), (chow, s0 + 3), (chow, s0 + 6)]
    elif choice == 1:
        pattern = [(chow, s0), (chow, s1 + 3), (chow, s2 + 6)]
    elif choice == 2:
        pattern = [(chow, s0 + r), (chow, s1 + r), (chow, s2 + r)]
    elif choice == 3:
        r = rng.randrange(5)
        pattern = [(chow, s0 + r), (chow, s1 + r + 1), (chow, s2 + r + 2)]
    elif choice == 4:
        r = rng.randrange(7 - 3 * step) if 7 - 3 * step > 0 else 0
        pattern = [(chow, s0 + r + i * step) for i in range(rng.choice((3, 4)))]
    elif choice == 5:
        pattern = [(chow, s0 + r)] * rng.choice((2, 3, 4))
    elif choice == 6:
        pattern, pair = [(chow, s0), (chow, s0), (chow, s0 + 6), (chow, s0 + 6)], s0 + 4
    elif choice == 7:
        pattern, pair = [(chow, s0), (chow, s0 + 6), (chow, s1), (chow, s1 + 6)], s2 + 4
    elif choice == 8:
        r = rng.randrange(9)
        pattern = [(pung, s0 + r), (pung, s1 + r), (pung, s2 + r)]
    elif choice == 9:
        r = rng.randrange(7)
        pattern = [(pung, s0 + r), (pung, s1 + r + 1), (pung, s2 + r + 2)]
    elif choice == 10:
        r = rng.randrange(6)
        pattern = [(pung, s0 + r + i) for i in range(rng.choice((3, 4)))]
    elif choice == 11:
        pattern = [(pung, w) for w in rng.sample((27, 28, 29, 30), rng.choice((2, 3, 4)))]
    elif choice == 12:
        pattern = [(pung, d) for d in rng.sample((31, 32, 33), rng.choice((2, 3)))]
    elif choice == 13:
        pattern = [(pung, t) for t in rng.sample((0, 8, 9, 17, 18, 26), 4)]
        pair = rng.choice((0, 8, 9, 17, 18, 26))
    elif choice == 14:
        r = rng.randrange(4)
        pattern = [(chow, s0 + r), (chow, s0 + r + 3), (chow, s1 + r), (chow, s1 + r + 3)]
    elif choice == 15:
        pattern = [(chow, s0 + r), (chow, s0 + r), (chow, s1 + r), (chow, s0 + (r + 3) % 7)]
    elif choice in (16, 17):  # 111222333: three pungs or three identical chows
        pattern = [(pung, s0 + r), (pung, s0 + r + 1), (pung, s0 + r + 2)]
        pair = s0 + rng.randrange(9) if choice == 17 else None
    elif choice == 18:  # 112233 twice over: pairs, chows or both
        pattern = [(chow, s0 + r), (chow, s0 + r)]
        pair = s0 + min(8, r + rng.choice((0, 3)))
    else:  # runs sharing tiles: 1112 3 … with the pair inside a run
        r = rng.randrange(5)
        pattern = [(chow, s0 + r), (chow, s0 + r + 1), (chow, s0 + r + 2)]
        pair = s0 + r + rng.randrange(5)
    return pattern, pair


def _standard(rng: random.Random) -> tuple[list[Tile], list[Meld], Tile] | None:
    pool = rng.choice(_POOLS)
    budget = _Tiles()
    kong_rate = rng.choice((0.0, 0.1, 0.4))
    sets: list[tuple[str, Tile] | None] = []
    pair_tile = rng.choice(pool)
    if rng.random() < 0.4:
        pattern, pattern_pair = _pattern(rng)
        for kind, tile in pattern:
            tiles = (tile,) * 3 if kind == "pung" else (tile, tile + 1, tile + 2)
            if not budget.take(*tiles):
                return None
            sets.append((kind, tile))
        pair_tile = pattern_pair if pattern_pair is not None else pair_tile
    sets += [_random_set(rng, pool, budget, kong_rate) for _ in range(4 - len(sets))]
    if None in sets or not budget.take(pair_tile, pair_tile):
        return None
    melds: list[Meld] = []
    concealed: list[Tile] = [pair_tile, pair_tile]
    meld_rate = rng.choice((0.0, 0.3, 0.6, 1.0))
    for kind, tile in sets:  # type: ignore[misc]
        if kind == "kong":
            kong_kind = rng.choice((MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG))
            from_seat = None if kong_kind is MeldKind.CONCEALED_KONG else rng.choice((0, 2, 3))
            melds.append(Meld(kong_kind, (tile,) * 4, from_seat))
        elif rng.random() < meld_rate:
            if kind == "chow":
                melds.append(Meld(MeldKind.CHI, (tile, tile + 1, tile + 2), 0))
            else:
                melds.append(Meld(MeldKind.PONG, (tile,) * 3, rng.choice((0, 2, 3))))
        else:
            concealed += [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3
    win_tile = concealed.pop(rng.randrange(len(concealed)))
    return concealed, melds, win_tile


def _seven_pairs(rng: random.Random) -> tuple[list[Tile], list[Meld], Tile] | None:
    pool = rng.choice(_POOLS)
    budget = _Tiles()
    tiles: list[Tile] = []
    if rng.random() < 0.2:  # seven shifted pairs
        start = rng.choice([s * 9 + r for s in range(3) for r in range(3)])
        tiles = [t for t in range(start, start + 7) for _ in range(2)]
    else:
        for _ in range(7):
            for _ in range(30):
                tile = rng.choice(pool)
                if budget.take(tile, tile):
                    tiles += [tile, tile]
                    break
            else:
                return None
    win_tile = tiles.pop(rng.randrange(len(tiles)))
    return tiles, [], win_tile


def _thirteen_orphans(rng: random.Random) -> tuple[list[Tile], list[Meld], Tile] | None:
    tiles = [*TERMINALS_AND_HONORS, rng.choice(TERMINALS_AND_HONORS)]
    win_tile = tiles.pop(rng.randrange(len(tiles)))
    return tiles, [], win_tile


def _honors_and_knitted(rng: random.Random) -> tuple[list[Tile], list[Meld], Tile] | None:
    straight = rng.choice(KNITTED_STRAIGHTS)
    suited = rng.randint(7, 9)
    tiles = rng.sample(straight, suited) + rng.sample(HONORS, 14 - suited)
    win_tile = tiles.pop(rng.randrange(len(tiles)))
    return tiles, [], win_tile


def _knitted_straight(rng: random.Random) -> tuple[list[Tile], list[Meld], Tile] | None:
    budget = _Tiles()
    straight = list(rng.choice(KNITTED_STRAIGHTS))
    budget.take(*straight)
    pool = rng.choice(_POOLS)
    fourth = _random_set(rng, pool, budget, 0.2)
    pair_tile = rng.choice(pool)
    if fourth is None or not budget.take(pair_tile, pair_tile):
        return None
    kind, tile = fourth
    concealed = [*straight, pair_tile, pair_tile]
    melds: list[Meld] = []
    if kind == "kong" or rng.random() < 0.4:
        if kind == "chow":
            melds.append(Meld(MeldKind.CHI, (tile, tile + 1, tile + 2), 0))
        elif kind == "pung":
            melds.append(Meld(MeldKind.PONG, (tile,) * 3, 2))
        else:
            kong_kind = rng.choice((MeldKind.KONG, MeldKind.CONCEALED_KONG))
            melds.append(
                Meld(kong_kind, (tile,) * 4, None if kong_kind is MeldKind.CONCEALED_KONG else 3)
            )
    else:
        concealed += [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3
    win_tile = concealed.pop(rng.randrange(len(concealed)))
    return concealed, melds, win_tile


def _nine_gates(rng: random.Random) -> tuple[list[Tile], list[Meld], Tile] | None:
    first = rng.choice((0, 9, 18))
    tiles = [first] * 3 + list(range(first + 1, first + 8)) + [first + 8] * 3
    return tiles, [], first + rng.randrange(9)


_BUILDERS = {
    "standard": _standard,
    "seven_pairs": _seven_pairs,
    "thirteen_orphans": _thirteen_orphans,
    "honors_and_knitted": _honors_and_knitted,
    "knitted_straight": _knitted_straight,
    "nine_gates": _nine_gates,
}


def random_request(rng: random.Random, shape: str = "standard") -> ScoreRequest:
    """One random finished MCR hand of the given shape, with a random win situation."""
    while True:
        built = _BUILDERS[shape](rng)
        if built is not None:
            break
    concealed, melds, win_tile = built
    seat = 1
    self_drawn = rng.random() < 0.4
    from_seat = None if self_drawn else rng.choice((0, 2, 3))
    kong_flag = rng.random() < 0.15
    flags = WinFlags(
        last_tile=rng.random() < 0.1,
        kong_replacement=kong_flag and self_drawn,
        robbing_kong=kong_flag and not self_drawn,
        last_of_kind=rng.random() < 0.15,
    )
    flowers = tuple(rng.sample(FLOWERS, rng.choice((0, 0, 0, 1, 2, 3, 8))))
    return ScoreRequest(
        variant="mcr",
        seat=seat,
        dealer=rng.randrange(4),
        from_seat=from_seat,
        hand=tuple(sorted(concealed)),
        melds=tuple(melds),
        win_tile=win_tile,
        flags=flags,
        round_wind=EAST + rng.randrange(4),
        seat_wind=EAST + rng.randrange(4),
        flowers=flowers,
    )


def random_requests(seed: int, n: int, shapes: tuple[str, ...] = SHAPES) -> Iterator[ScoreRequest]:
    """``n`` requests cycling through ``shapes``, reproducible from ``seed``."""
    rng = random.Random(seed)
    for i in range(n):
        yield random_request(rng, shapes[i % len(shapes)])
