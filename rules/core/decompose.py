"""One model of how a hand splits, wilds included: blocks over the ranks of each group.

A hand is split group by group (each suit, then the honours; see
:attr:`~paipu.rules.core.tiles.TileSet.groups`). A group is its *key*, the natural counts
by rank (wilds taken out, stand-ins moved to their face). Blocks start at a rank: a pung,
a chow, the pair, and for shanten the partial sets (搭子: a pair waiting for a pung, two
neighbours, a gap). A block's places are filled natural tiles first, wilds for the rest,
so a choice of blocks costs ``max(0, demand - natural)`` wilds at each rank, and is allowed
while no rank holds more than its copies (4): a wild never stands for a fifth copy (a
natural fifth, the tile a hand waits on when it holds all four, is allowed by shape, as in
:func:`paipu.rules.shanten.waits`). Pushing natural tiles first loses nothing: a block that
took a wild at a rank whose natural tile stayed single could take the natural instead.

The same rank-by-rank walk, with the chows still open carried from rank to rank, answers
three questions, each cached per key and built once:

* :func:`completion_masks`: with how many wilds the group splits into sets (and one pair),
  as bit masks (the per-suit table indexed by a wild count, of yuanfengyun/q_algorithm);
* :func:`shanten_profile`: the most partial sets for each (pair, sets, wilds used), the
  standard-shanten profile of :mod:`paipu.rules.shanten` with a wild dimension;
* :func:`group_readings`: every split into sets and at most one pair, with the ranks the
  wilds stood for (the fan readings); :func:`first_readings`, the first of each kind (with
  a pair or not, how many wilds), for searches that stop at the first that fits.

>>> def wilds(mask): return [w for w in range(MAX_WILDS + 1) if mask >> w & 1]
>>> sets, with_pair = completion_masks((1, 1, 0, 0, 0, 0, 0, 0, 0), True, 4)  # 12m
>>> wilds(sets), wilds(with_pair)  # 123m with one wild; + a pair of wilds with three …
([1, 4, 7, 10, 13], [3, 6, 9, 12])
>>> [r for r in group_readings((1, 0, 1, 0, 0, 0, 0, 0, 0), True, 4, 1)]
[((0,), (), -1, (1,))]
"""

from __future__ import annotations

import functools
import json
import zlib
from importlib import resources
from pathlib import Path
from typing import Final

from paipu.rules.core.shapes import SETS_PER_HAND

#: Most wilds a hand is asked about (a hand holds at most 14 tiles).
MAX_WILDS: Final = 14
#: Bits of a completion mask: bit ``w`` set when ``w`` wilds complete the group.
FULL_MASK: Final = (1 << (MAX_WILDS + 1)) - 1
#: Most wilds a shanten profile attaches to one group's natural tiles: each of the five
#: blocks of a hand holds at most two wilds beside a natural tile. Wilds beyond make blocks
#: of their own, counted once for the hand (:func:`pure_wild_value`).
PROFILE_WILDS: Final = 10

#: One block choice at a rank: ``(pungs, pair, pair partials, chows, partials of two
#: neighbours, partials with a gap, demand at this rank)``.
Step = tuple[int, int, int, int, int, int, int]
#: A shanten profile: ``(pair, sets, wilds, partials)`` entries, none dominated by another.
Profile = tuple[tuple[int, int, int, int], ...]
#: A group reading: ``(chow ranks, pung ranks, pair rank or -1, ranks wilds stood for)``.
GroupReading = tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


@functools.cache
def steps(
    room: int, next_room: int, after_room: int, pair_free: bool, partials: bool
) -> tuple[Step, ...]:
    """Every choice of blocks starting at one rank whose demand there is at most ``room``.

    ``next_room`` / ``after_room``: how many more blocks the ranks 1 and 2 above can still
    take (chows and neighbour partials reach the first, chows and gap partials the second;
    0 past the group's end and for honours, which have no runs).

    >>> len(steps(4, 4, 4, True, False)), steps(0, 4, 4, True, True)
    (10, ((0, 0, 0, 0, 0, 0, 0),))
    """
    found: list[Step] = []
    for pung in range(2):
        for pair in range(2 if pair_free else 1):
            for pair_partial in range(3 if partials else 1):
                for chow in range(min(next_room, after_room, 4) + 1):
                    for near in range(min(next_room - chow, 4) + 1 if partials else 1):
                        for gap in range(min(after_room - chow, 4) + 1 if partials else 1):
                            demand = 3 * pung + 2 * pair + 2 * pair_partial + chow + near + gap
                            if demand <= room:
                                found.append((pung, pair, pair_partial, chow, near, gap, demand))
    return tuple(found)


def _room(window: tuple[int, ...], rank: int, copies: int, most: int) -> int:
    """How many block places rank ``rank`` of ``window`` can fill with its natural tiles
    and at most ``most`` wilds; 0 past the end of ``window``."""
    if rank >= len(window):
        return 0
    held = window[rank]
    return min(max(copies, held), held + most)


def completion_masks(
    key: tuple[int, ...], runs: bool, copies: int, most: int = MAX_WILDS
) -> tuple[int, int]:
    """``(sets only, sets + one pair)``: bit ``w`` of each is set when the group, given ``w``
    wilds (at most ``most``), splits exactly so (natural tiles all used; sets of wilds alone
    count). With ``most`` 0 the walk takes natural tiles only: the plain split.

    ``runs``: chows allowed (a suit); ``copies``: how many of a kind a wild may make.

    The answer is read from the precomputed table of every key a hand can hold
    (:func:`table_masks`), and walked (:func:`walked_masks`) for any other.

    >>> sets, with_pair = completion_masks((3, 0, 0, 0, 0, 0, 0), False, 4)  # 东东东
    >>> [w for w in range(7) if sets >> w & 1], [w for w in range(7) if with_pair >> w & 1]
    ([0, 3, 6], [2, 5])
    >>> completion_masks((1, 1, 2, 1, 1, 0, 0, 0, 0), True, 4, 0)  # 123 345, no pair
    (1, 0)
    """
    if not most:
        splits = plain_splits(key, runs)
        return splits & 1, splits >> 1
    found = table_masks(key, runs, copies)
    masks = found if found is not None else walked_masks(key, runs, copies)
    if most >= MAX_WILDS:
        return masks
    full = (1 << (most + 1)) - 1
    return masks[0] & full, masks[1] & full


@functools.cache
def walked_masks(key: tuple[int, ...], runs: bool, copies: int) -> tuple[int, int]:
    """:func:`completion_masks` with up to :data:`MAX_WILDS` wilds, by the rank-by-rank walk
    (cached): the source of the precomputed table, and the answer for keys it lacks.

    >>> walked_masks((1, 1, 0, 0, 0, 0, 0, 0, 0), True, 4) == completion_masks(
    ...     (1, 1, 0, 0, 0, 0, 0, 0, 0), True, 4)
    True
    """
    sets = with_pair = 0
    states = _mask_walk(key, runs, copies)
    for index in range(0, len(states), 2):
        state = states[index]
        if state == 0:
            sets = states[index + 1] & FULL_MASK
        elif state == _PAIR_DONE:
            with_pair = states[index + 1] & FULL_MASK
    return sets, with_pair


#: The precomputed completion masks (``completion-masks.bin``, a resource of the package
#: ``paipu.rules.core``, written by :mod:`paipu.rules.core.completion_table` from
#: :func:`walked_masks`): for each shape
#: of group (chows or not, ranks, copies), a byte per key in base :data:`TABLE_BASE` (rank
#: 0 the lowest digit), 0 for a key not in the table, else 1 + the index of its masks in
#: :data:`_TABLE_VALUES`.
TABLE_FILE: Final = "completion-masks.bin"
#: Counts by rank are the digits of a key's index in a table: 0 to 4.
TABLE_BASE: Final = 5
_TABLES: dict[tuple[bool, int, int], bytes] = {}
_TABLE_VALUES: list[tuple[int, int]] = []
_TABLES_READ: list[bool] = [False]


def table_masks(key: tuple[int, ...], runs: bool, copies: int) -> tuple[int, int] | None:
    """The precomputed :func:`walked_masks` of ``key``, or None when the table lacks it."""
    if not _TABLES_READ[0]:
        read_tables()
    table = _TABLES.get((runs, len(key), copies))
    if table is None:
        return None
    code = table_index(key)
    entry = table[code] if code >= 0 else 0
    if not entry:
        return None
    return _TABLE_VALUES[entry - 1]


def table_index(key: tuple[int, ...]) -> int:
    """A key's place in its precomputed table: its counts as the digits of a base
    :data:`TABLE_BASE` number, rank 0 the lowest; -1 when a count is not a digit.

    >>> table_index((1, 2, 0)), table_index((5,))
    (11, -1)
    """
    code = 0
    for rank in range(len(key) - 1, -1, -1):
        count = key[rank]
        if count >= TABLE_BASE or count < 0:
            return -1
        code = code * TABLE_BASE + count
    return code


def read_tables(path: str = "") -> bool:
    """Read the precomputed tables (from ``path``, by default the package's resource
    :data:`TABLE_FILE`); False, and the walk answers every key, when the file is missing or
    unreadable."""
    _TABLES_READ[0] = True
    _TABLES.clear()
    _TABLE_VALUES.clear()
    try:
        if path:
            packed = Path(path).read_bytes()
        else:  # not by __file__: a compiled module's can name another folder
            packed = resources.files("paipu.rules.core").joinpath(TABLE_FILE).read_bytes()
        raw = zlib.decompress(packed)
        header, _, body = raw.partition(b"\n")
        layout = json.loads(header)
        values = [(int(sets), int(with_pair)) for sets, with_pair in layout["values"]]
        tables: dict[tuple[bool, int, int], bytes] = {}
        for runs, ranks, copies, start, size in layout["tables"]:
            if size != TABLE_BASE ** int(ranks) or start + size > len(body):
                return False
            tables[(bool(runs), int(ranks), int(copies))] = body[start : start + size]
    except (OSError, ValueError, KeyError, TypeError, zlib.error):
        return False
    _TABLE_VALUES.extend(values)
    _TABLES.update(tables)
    return True


def tables_read() -> int:
    """How many precomputed tables are in use (0: every key is walked)."""
    if not _TABLES_READ[0]:
        read_tables()
    return len(_TABLES)


#: A state of :func:`_mask_walk`: ``pair << 7 | carry at the next rank << 3 | carry at the
#: one after`` (chows still open); the walk's states are flat ``(state, mask, ...)`` tuples.
_PAIR_DONE: Final = 1 << 7
_START: Final[tuple[int, ...]] = (0, 1)
#: States are below this (a pair, carries of at most 8 and 4).
_STATE_SPAN: Final = _PAIR_DONE + (8 << 3) + 4 + 1
#: :func:`_mask_walk`'s states after a prefix of a group, by ``(size, runs, copies)`` then
#: the prefix's code (a leading 1, then its counts as digits), plain ints: the collector
#: has nothing to walk.
_MASK_PREFIXES: Final[dict[tuple[int, bool, int], dict[int, tuple[int, ...]]]] = {}


def _mask_walk(key: tuple[int, ...], runs: bool, copies: int) -> tuple[int, ...]:
    """The walk's states once every rank of ``key`` is done, as flat ``(state, mask)``
    pairs: the wilds used (a mask) to reach ``(pair, carry, carry next)``. The states of
    each prefix are kept, so that keys that start alike (a hand and the hand plus one tile)
    share their first ranks."""
    size = len(key)
    shape = (size, runs, copies)
    table = _MASK_PREFIXES.get(shape)
    if table is None:
        table = _MASK_PREFIXES[shape] = {}
    base = copies + 2
    code = 1
    done = 0
    states = _START
    # the longest prefix walked before (the whole key is not kept: walked_masks is)
    while done < size - 1:
        more = code * base + key[done]
        found = table.get(more)
        if found is None:
            break
        code = more
        states = found
        done += 1
    for rank in range(done, size):
        held = key[rank]
        limit = max(copies, held)
        chow_top = 4 if runs and rank + 2 < size else 0
        reached = [0] * _STATE_SPAN  # mask by state
        order: list[int] = []  # the states reached, in the order first reached
        for index in range(0, len(states), 2):
            state = states[index]
            carry = (state >> 3) & 15
            if carry > limit:
                continue
            carry_next = state & 7
            mask = states[index + 1]
            pair = state >> 7
            room = limit - carry
            # a pung here or not leads to the same state: both in one update, 3 wilds apart
            for with_pair in range(1 if pair else 2):
                if 2 * with_pair > room:
                    break
                for chow in range(min(chow_top, room - 2 * with_pair) + 1):
                    total = carry + 2 * with_pair + chow
                    shifted = mask << (total - held) if total >= held else 0
                    if total + 3 <= limit and total + 3 >= held:
                        shifted |= mask << (total + 3 - held)
                    shifted &= FULL_MASK
                    if shifted:
                        after = (pair + with_pair) << 7 | (carry_next + chow) << 3 | chow
                        known = reached[after]
                        if not known:
                            order.append(after)
                        reached[after] = known | shifted
        flat: list[int] = []
        for after in order:
            flat.append(after)
            flat.append(reached[after])
        states = tuple(flat)
        if rank < size - 1:
            code = code * base + held
            table[code] = states
    return states


def plain_splits(rest: tuple[int, ...], runs: bool) -> int:
    """:func:`completion_masks` with no wilds, as bits (1: sets only, 2: sets and one pair),
    walked from the last ranks back and keyed by the tiles left, as :func:`plain_profile`.

    >>> plain_splits((1, 1, 2, 1, 1, 0, 0, 0, 0), True), plain_splits((2, 1, 1, 1), True)
    (1, 2)
    """
    table = _PLAIN_SPLITS[runs]
    found = table.get(rest, -1)
    if found >= 0:
        return found
    if not rest:
        return 1
    held = rest[0]
    if not held:
        found = plain_splits(_rest_after(rest, 0, 0, 0), runs)
    else:
        next_room = rest[1] if runs and len(rest) > 1 else 0
        after_room = rest[2] if runs and len(rest) > 2 else 0
        found = 0
        for _, with_pair, _, chow, _, _, demand in steps(held, next_room, after_room, True, False):
            if demand == held:
                splits = plain_splits(_rest_after(rest, chow, 0, 0), runs)
                found |= splits << 1 if with_pair else splits
        found &= 3
    table[rest] = found
    return found


#: :func:`plain_splits` and :func:`plain_profile` by the tiles left, for honours and suits.
_PLAIN_SPLITS: Final[tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]] = ({}, {})
_PLAIN_PROFILES: Final[tuple[dict[tuple[int, ...], tuple[int, ...]], ...]] = ({}, {})


@functools.cache
def shanten_profile(key: tuple[int, ...], runs: bool, copies: int, most_wilds: int) -> Profile:
    """The most partial sets for each ``(pair, sets, wilds)`` reachable in the group, with at
    most ``most_wilds`` wilds (capped at :data:`PROFILE_WILDS`).

    Natural tiles no block takes are singles; only blocks within two ranks of a natural tile
    are tried, and at most as many blocks of one rank (pung, pair, pair partial) as it holds
    natural tiles (a block of wilds alone is counted for the whole hand instead). Partials are
    capped at ``4 - sets``, as in the plain profile. At each rank, a state that needs more
    wilds for no more partials than another is dropped.

    >>> shanten_profile((0, 0, 0, 0, 0, 0, 0, 0, 0), True, 4, 4)
    ((0, 0, 0, 0),)
    >>> shanten_profile((1, 1, 0, 0, 0, 0, 0, 0, 0), True, 4, 1)  # 12m, or 123m with a wild
    ((0, 0, 0, 1), (0, 1, 1, 0), (1, 0, 1, 0))
    """
    size = len(key)
    most = min(most_wilds, PROFILE_WILDS)
    if not most:
        slots = plain_profile(key, runs)
        return tuple(
            (slot // PLAIN_SET_SLOTS, slot % PLAIN_SET_SLOTS, 0, partials)
            for slot, partials in enumerate(slots)
            if partials >= 0
        )
    best: dict[tuple[int, int, int], int] = {}
    for (pair, carry, carry_next, sets), front in _profile_states(
        size - 1, key, size, runs, copies, most
    ):
        if carry or carry_next:
            continue
        for wilds, partials in front:
            slot = (pair, sets, wilds)
            if best.get(slot, -1) < partials:
                best[slot] = partials
    return prune(best)


_ProfileStates = tuple[tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]], ...]


@functools.cache
def _profile_states(
    rank: int, window: tuple[int, ...], size: int, runs: bool, copies: int, most: int
) -> _ProfileStates:
    """The walk's states once ranks ``0..rank`` are done: ``(pair, carry at the next rank,
    carry at the one after, sets)`` with its ``(wilds, most partials)`` front.

    ``window`` is the key up to two ranks past ``rank`` for suits (those say whether
    ``rank`` may start a block), up to ``rank`` for honours. Cached by window, so keys that
    start alike (a hand and the hand plus one tile) share their first ranks.
    """
    if rank < 0:
        return (((0, 0, 0, 0), ((0, 0),)),)
    look = 2 if runs else 0
    earlier = _profile_states(rank - 1, window[: rank + look], size, runs, copies, most)
    held = window[rank]
    limit = max(copies, held)
    next_room = _room(window, rank + 1, copies, most) if runs and rank + 1 < size else 0
    after_room = _room(window, rank + 2, copies, most) if runs and rank + 2 < size else 0
    live = any(window[rank : rank + look + 1])
    reached: dict[tuple[int, int, int, int], dict[int, int]] = {}
    for (pair, carry, carry_next, sets), front in earlier:
        # demand beyond the natural tiles costs wilds: at most what the front has left
        room = min(limit, held + most - front[0][0]) - carry
        if room < 0:
            continue
        if not live:
            room = 0
        for pung, with_pair, pair_partial, chow, neighbour, gap, demand in steps(
            room, next_room - carry_next, after_room, pair == 0, True
        ):
            if pung + with_pair + pair_partial > held:
                continue  # one of them would be wilds alone: counted for the hand instead
            total = carry + demand
            extra = total - held if total > held else 0
            new_sets = sets + pung + chow
            if new_sets > SETS_PER_HAND:
                continue
            cap = SETS_PER_HAND - new_sets
            gained = pair_partial + neighbour + gap
            state = (pair + with_pair, carry_next + chow + neighbour, chow + gap, new_sets)
            target = reached.get(state)
            if target is None:
                target = reached[state] = {}
            for wilds, partials in front:
                used = wilds + extra
                if used > most:
                    continue
                more = min(partials + gained, cap)
                if target.get(used, -1) < more:
                    target[used] = more
    return tuple((state, _front(front)) for state, front in reached.items() if front)


#: Slots of a no-wild profile per pair: sets 0..4 (slot ``pair * PLAIN_SET_SLOTS + sets``).
PLAIN_SET_SLOTS: Final = SETS_PER_HAND + 1
_PLAIN_SLOTS: Final = 2 * PLAIN_SET_SLOTS
_NO_BLOCKS: Final = (0,) + (-1,) * (_PLAIN_SLOTS - 1)


def _rest_after(rest: tuple[int, ...], chow: int, near: int, gap: int) -> tuple[int, ...]:
    """The ranks after the first of ``rest`` once blocks started there took theirs from
    them (chows and neighbour partials from the next rank, chows and gaps from the one
    after), leading and trailing empty ranks left out (they take no block)."""
    tail = list(rest[1:])
    if chow + near:
        tail[0] -= chow + near
    if chow + gap:
        tail[1] -= chow + gap
    start, stop = 0, len(tail)
    while start < stop and not tail[start]:
        start += 1
    while stop > start and not tail[stop - 1]:
        stop -= 1
    return tuple(tail[start:stop])


def plain_profile(rest: tuple[int, ...], runs: bool) -> tuple[int, ...]:
    """:func:`shanten_profile` with no wilds: the same blocks (:func:`steps`) rank by rank,
    natural tiles only, walked from the last ranks back so that the table is keyed by the
    tiles left (what the blocks of the ranks before took already taken off): every group
    that ends alike shares it. The most partials by slot ``pair * PLAIN_SET_SLOTS + sets``,
    -1 where none; the plain path's profiles (rules/shanten.py) are these.

    >>> plain_profile((1, 1, 1, 0, 0, 0, 0, 0, 1), True)  # 123 + a loose 9, or 12 + 9 …
    (1, 0, -1, -1, -1, -1, -1, -1, -1, -1)
    """
    table = _PLAIN_PROFILES[runs]
    found = table.get(rest)
    if found is not None:
        return found
    if not rest:
        return _NO_BLOCKS
    held = rest[0]
    if not held:
        found = plain_profile(_rest_after(rest, 0, 0, 0), runs)
        table[rest] = found
        return found
    next_room = rest[1] if runs and len(rest) > 1 else 0
    after_room = rest[2] if runs and len(rest) > 2 else 0
    best = [-1] * _PLAIN_SLOTS
    for pung, with_pair, pair_partial, chow, near, gap, _ in steps(
        held, next_room, after_room, True, True
    ):
        gained = pair_partial + near + gap
        after = plain_profile(_rest_after(rest, chow, near, gap), runs)
        for slot in range(_PLAIN_SLOTS):
            partials = after[slot]
            if partials < 0:
                continue
            pair = slot // PLAIN_SET_SLOTS + with_pair
            sets = slot % PLAIN_SET_SLOTS + pung + chow
            if pair > 1 or sets > SETS_PER_HAND:
                continue
            value = min(partials + gained, SETS_PER_HAND - sets)
            target = pair * PLAIN_SET_SLOTS + sets
            best[target] = max(best[target], value)
    found = table[rest] = tuple(best)
    return found


def _front(front: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """The ``(wilds, partials)`` of ``front`` that fewer wilds do not match, by wilds."""
    kept: list[tuple[int, int]] = []
    most = -1
    for wilds in sorted(front):
        partials = front[wilds]
        if partials > most:
            kept.append((wilds, partials))
            most = partials
    return tuple(kept)


def prune(best: dict[tuple[int, int, int], int]) -> Profile:
    """The entries of ``best`` that no entry with as many sets, the same pair and fewer
    wilds matches in partials (spare wilds can always go elsewhere), sorted."""
    kept: list[tuple[int, int, int, int]] = []
    for (pair, sets, wilds), partials in sorted(best.items()):
        if any(p == pair and s == sets and w <= wilds and x >= partials for p, s, w, x in kept):
            continue
        kept.append((pair, sets, wilds, partials))
    return tuple(kept)


def merge_profiles(left: Profile, right: Profile) -> Profile:
    """The profile of two disjoint groups taken together (one pair, four sets at most)."""
    best: dict[tuple[int, int, int], int] = {}
    for pair_l, sets_l, wilds_l, partials_l in left:
        for pair_r, sets_r, wilds_r, partials_r in right:
            pair = pair_l + pair_r
            sets = sets_l + sets_r
            wilds = wilds_l + wilds_r
            if pair > 1 or sets > SETS_PER_HAND or wilds > PROFILE_WILDS:
                continue
            partials = min(partials_l + partials_r, SETS_PER_HAND - sets)
            slot = (pair, sets, wilds)
            if best.get(slot, -1) < partials:
                best[slot] = partials
    return prune(best)


@functools.cache
def pure_wild_value(wilds: int, free_sets: int, free_pair: int) -> int:
    """Most shanten value (2 a set, 1 a partial or the pair) of ``wilds`` wilds alone in
    ``free_sets`` set places and ``free_pair`` (0 or 1) pair place.

    >>> pure_wild_value(4, 4, 1), pure_wild_value(5, 1, 1)
    (2, 3)
    """
    best = 0
    for sets in range(min(free_sets, wilds // 3) + 1):
        left = wilds - 3 * sets
        value = 2 * sets
        if free_pair and left >= 2:
            left -= 2
            value += 1
        value += min(free_sets - sets, left // 2)
        best = max(best, value)
    return best


def profile_value(profile: Profile, needed: int, wilds: int) -> int:
    """``max(2 * sets + min(partials, needed - sets) + pair)`` with at most ``wilds``
    wilds; the standard shanten is ``2 * needed - value``."""
    best = -1
    for pair, sets, used, partials in profile:
        if sets > needed or used > wilds:
            continue
        counted = min(partials, needed - sets)
        value = 2 * sets + counted + pair
        value += pure_wild_value(wilds - used, needed - sets - counted, 1 - pair)
        best = max(best, value)
    return best


@functools.cache
def group_readings(
    key: tuple[int, ...], runs: bool, copies: int, wilds: int
) -> tuple[GroupReading, ...]:
    """Every split of the group into sets and at most one pair using at most ``wilds``
    wilds: ``(chow ranks, pung ranks, pair rank or -1, ranks the wilds stood for)``, sorted."""
    if not wilds:
        start = 0
        while start < len(key) and not key[start]:
            start += 1
        return tuple(
            sorted((c, p, pair, ()) for c, p, pair in _plain_readings(key[start:], runs, start))
        )
    found: set[GroupReading] = set()
    _visit_readings(key, runs, copies, wilds, 0, 0, 0, -1, (), (), (), found)
    return tuple(sorted(found))


def _visit_readings(
    key: tuple[int, ...],
    runs: bool,
    copies: int,
    wilds: int,
    rank: int,
    carry: int,
    carry_next: int,
    pair: int,
    chows: tuple[int, ...],
    pungs: tuple[int, ...],
    stood: tuple[int, ...],
    found: set[GroupReading],
) -> None:
    """:func:`group_readings`' walk from ``rank`` on, the blocks before it chosen: each
    reading completed is added to ``found``."""
    if rank == len(key):
        if not carry and not carry_next:
            found.add((chows, pungs, pair, stood))
        return
    held = key[rank]
    used = len(stood)
    spare = wilds - used
    room = _room(key, rank, copies, spare)
    if carry > room:
        return
    next_room = _room(key, rank + 1, copies, spare) if runs else 0
    after_room = _room(key, rank + 2, copies, spare) if runs else 0
    for pung, with_pair, _, chow, _, _, demand in _reading_steps(
        room - carry, next_room - carry_next, after_room, pair < 0
    ):
        total = carry + demand
        if total < held or used + total - held > wilds:
            continue
        _visit_readings(
            key,
            runs,
            copies,
            wilds,
            rank + 1,
            carry_next + chow,
            chow,
            rank if with_pair else pair,
            chows + (rank,) * chow if chow else chows,
            (*pungs, rank) if pung else pungs,
            stood + (rank,) * (total - held) if total > held else stood,
            found,
        )


#: :func:`steps` without partials, as :func:`_visit_readings` asks them, by a code of the
#: arguments (:func:`_reading_steps`).
_READING_STEPS: Final[dict[int, tuple[Step, ...]]] = {}
#: Each argument of :func:`_reading_steps` in its code: a digit of this base, offset so
#: that the negative rooms (a chow carried into a rank past its room) are digits too.
_STEPS_BASE: Final = 64
_STEPS_OFFSET: Final = 32


def _reading_steps(room: int, next_room: int, after_room: int, pair_free: bool) -> tuple[Step, ...]:
    """``steps(room, next_room, after_room, pair_free, False)``, cached by one int."""
    if not (
        0 <= room < _STEPS_BASE
        and -_STEPS_OFFSET <= next_room < _STEPS_OFFSET
        and -_STEPS_OFFSET <= after_room < _STEPS_OFFSET
    ):
        return steps(room, next_room, after_room, pair_free, False)
    code = (room * _STEPS_BASE + next_room + _STEPS_OFFSET) * _STEPS_BASE
    code = (code + after_room + _STEPS_OFFSET) * 2 + (1 if pair_free else 0)
    found = _READING_STEPS.get(code)
    if found is None:
        found = _READING_STEPS[code] = steps(room, next_room, after_room, pair_free, False)
    return found


@functools.cache
def first_readings(
    key: tuple[int, ...], runs: bool, copies: int, wilds: int
) -> tuple[GroupReading, ...]:
    """The first reading of :func:`group_readings` of each kind (with a pair or not, how
    many wilds), in its order, cached: what a search that takes the first reading of a kind
    that fits needs (a later reading of the same kind fits as it does).

    >>> first_readings((1, 1, 1, 0, 0, 0, 0, 0, 0), True, 4, 2)  # 123, or 123 + a pair of wilds
    (((0,), (), -1, ()), ((0,), (), 0, (0, 0)))
    """
    kinds: set[int] = set()
    out: list[GroupReading] = []
    for reading in group_readings(key, runs, copies, wilds):
        kind = 2 * len(reading[3]) + (1 if reading[2] >= 0 else 0)
        if kind not in kinds:
            kinds.add(kind)
            out.append(reading)
    return tuple(out)


#: A no-wild group reading: ``(chow ranks, pung ranks, pair rank or -1)``.
PlainReading = tuple[tuple[int, ...], tuple[int, ...], int]


@functools.cache
def _plain_readings(rest: tuple[int, ...], runs: bool, first: int) -> tuple[PlainReading, ...]:
    """:func:`group_readings` with no wilds, walked from the last ranks back and keyed by
    the tiles left, as :func:`plain_profile`: ``rest`` (which starts with a tile held, or is
    empty) is the group from rank ``first`` on.

    >>> _plain_readings((1, 1, 1), True, 0), _plain_readings((2,), True, 1)
    ((((0,), (), -1),), (((), (), 1),))
    """
    if not rest:
        return (((), (), -1),)
    held = rest[0]
    next_room = rest[1] if runs and len(rest) > 1 else 0
    after_room = rest[2] if runs and len(rest) > 2 else 0
    found: list[PlainReading] = []
    for pung, with_pair, _, chow, _, _, demand in steps(held, next_room, after_room, True, False):
        if demand != held:
            continue
        tail = list(rest[1:])
        if chow:
            tail[0] -= chow
            tail[1] -= chow
        skip = 0
        while skip < len(tail) and not tail[skip]:
            skip += 1
        while len(tail) > skip and not tail[-1]:
            tail.pop()
        chows = (first,) * chow
        pungs = (first,) * pung
        for chow_ranks, pung_ranks, pair_after in _plain_readings(
            tuple(tail[skip:]), runs, first + 1 + skip
        ):
            if with_pair and pair_after >= 0:
                continue
            pair = first if with_pair else pair_after
            found.append((chows + chow_ranks, pungs + pung_ranks, pair))
    return tuple(found)


def clear_plain_tables() -> None:
    """Forget the no-wild tables (:func:`plain_profile`, :func:`plain_splits`, the no-wild
    readings): ``rules/shanten.clear_caches`` calls this, as it once emptied its searches."""
    for splits in _PLAIN_SPLITS:
        splits.clear()
    for profiles in _PLAIN_PROFILES:
        profiles.clear()
    _plain_readings.cache_clear()


def plain_table_size() -> int:
    """Entries of the no-wild tables (to watch memory in long runs)."""
    size = sum([len(splits) for splits in _PLAIN_SPLITS])
    size += sum([len(profiles) for profiles in _PLAIN_PROFILES])
    return size + _plain_readings.cache_info().currsize


def clear_caches() -> None:
    """Forget every cached walk, the no-wild tables included."""
    clear_plain_tables()
    steps.cache_clear()
    _READING_STEPS.clear()
    walked_masks.cache_clear()
    _MASK_PREFIXES.clear()
    shanten_profile.cache_clear()
    _profile_states.cache_clear()
    pure_wild_value.cache_clear()
    group_readings.cache_clear()
    first_readings.cache_clear()


def cache_size() -> int:
    """Entries held by the cached walks, the no-wild tables included."""
    walks = sum(len(table) for table in _MASK_PREFIXES.values())
    return (
        walks
        + plain_table_size()
        + sum(
            cached.cache_info().currsize
            for cached in (walked_masks, shanten_profile, _profile_states)
        )
    )
