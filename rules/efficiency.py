"""Tile efficiency (牌效) of a discard: shanten and live useful tiles (进张), as a reviewer
counts them, for every discard a mahjong hand could make (the decision review's measure,
``paipu.pipeline.review``).

A rules fact (the useful tiles of a hand, by the variant's shapes), and the review's hot
path: it lives here, beside :mod:`~paipu.rules.shanten`, and is compiled with it
(``rules/native.py``), so that its many shape questions are native calls.

A seat about to discard holds ``14 - 3 * melds`` concealed tiles. For each kind of tile it
could discard, the hand left has a shanten (向听数) by the variant's shapes, and *useful
tiles* (进张): the kinds whose draw would lower that shanten (a ready hand's useful tiles
are its waits). Each useful kind is worth its *live* copies: four less those the seat can
see (its own hand, every pool, every exposed meld). The best discard has the lowest
shanten, then the most live useful tiles; a discard's *loss* is what it gives up against
the best: the best's live useful tiles less its own when its shanten is as low, and all of
them when it goes back a step (退向听: its own useful tiles lead only back to where the
best already is).

>>> from paipu.rules.tiles import counts, parse_tiles, tile_name
>>> hand = counts(parse_tiles("123m456p789s1122z5z"))
>>> choices = discard_choices(hand, 0, seen=hand)
>>> best = best_choice(choices)
>>> tile_name(best.tile), best.shanten, best.live
('5z', 0, 4)
>>> loss(choices[parse_tiles("1z")[0]], best)  # 1-shanten: a step back loses all 4
4
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from paipu.rules.core import shanten as core_shanten
from paipu.rules.core.shapes import SETS_PER_HAND
from paipu.rules.core.wild import WildSpec
from paipu.rules.shanten import _TABLES, HandShape, Shape, ShapeGroup
from paipu.rules.tiles import EAST, N_KINDS, Tile

#: Copies of each tile in a set.
COPIES = 4
_STANDARD_ONLY = frozenset({Shape.STANDARD})
#: Special shapes whose useful tiles are copies of tiles held (七对), and those whose
#: useful tiles may be any kind (十三幺, 全不靠, 组合龙).
_NEAR_SPECIAL = frozenset({Shape.SEVEN_PAIRS})
_FAR_SPECIAL = frozenset(s for s in Shape if s not in (Shape.STANDARD, Shape.SEVEN_PAIRS))
#: The special shapes asked about go to the shape questions as tuples, not frozensets: a
#: question tests its shapes with ``in``, which a tuple answers by identity and a frozenset
#: by hashing each Shape (``Enum.__hash__``, plain Python even in the compiled build).
_PAIRS: tuple[Shape, ...] = (Shape.SEVEN_PAIRS,)
_SUIT_SPAN = 9


@dataclass(frozen=True, slots=True)
class Choice:
    """One discard a hand could make: what it leaves."""

    tile: Tile
    shanten: int  # of the hand left (0: ready)
    live: int  # live copies of its useful tiles (进张)
    useful: tuple[Tile, ...]  # the useful kinds


def _related(hand: Sequence[int]) -> set[Tile]:
    """Kinds whose draw could change a standard or seven-pairs shape: the copies held and
    their suit neighbours up to two ranks away (a tile far from every tile held stays
    isolated, and isolated tiles count for nothing in those shapes)."""
    found: set[Tile] = set()
    for tile in range(N_KINDS):
        if not hand[tile]:
            continue
        if tile >= EAST:
            found.add(tile)
            continue
        base = tile - tile % _SUIT_SPAN
        found.update(range(max(base, tile - 2), min(base + _SUIT_SPAN, tile + 3)))
    return found


def discard_choices(
    hand: Sequence[int],
    melds: int,
    *,
    seen: Sequence[int],
    shapes: Collection[Shape] = _STANDARD_ONLY,
    kinds: Collection[Tile] | None = None,
    discards: Iterable[Tile] | None = None,
    wanted: Collection[Tile] = (),
    memo: dict[tuple[int, ...], tuple[Tile, ...]] | None = None,
) -> dict[Tile, Choice]:
    """The choices of a hand of ``14 - 3 * melds`` concealed tiles (counts of length 34).

    ``seen``: copies of each kind the seat can see (its hand included); ``shapes``: the
    variant's winning shapes (the standard one among them); ``kinds``: the kinds its set
    has (default: all 34); ``discards``: the kinds it may discard (default: every kind
    held). Useful tiles are counted only for the choices that could be best (lowest
    shanten) and for ``wanted`` (the discard actually made); the others keep their shanten
    and ``live = -1``. A useful kind whose copies are all in sight adds nothing and is not
    listed.

    ``memo``, kept by the caller for one seat through one hand (the same melds, kinds and
    shapes, copies in sight only growing), remembers the useful tiles of each hand left:
    a seat that draws a tile it does not keep leaves the hand it left a turn before.
    """
    if Shape.STANDARD not in shapes:
        raise ValueError("the review needs the standard shape among the variant's shapes")
    counts = list(hand)
    shape = HandShape(counts, melds)
    held = [t for t in (discards if discards is not None else range(N_KINDS)) if counts[t]]
    shanten = {tile: shape.shanten_without(tile) for tile in held}  # the standard shape's
    # The special shapes (七对; 十三幺 and the knitted shapes, whose useful tiles may lie
    # anywhere) matter only where they are as close as the standard shape: one tile less
    # raises a shape's shanten by at most one over the whole hand's, so most hands need
    # one question per shape and no more.
    near: dict[Tile, list[tuple[Shape, ...]]] = {tile: [] for tile in held}
    for group in (_NEAR_SPECIAL, _FAR_SPECIAL):
        special = tuple(s for s in Shape if s in group and s in shapes and s.applies(melds))
        if not special:
            continue
        whole = shape.shanten(special)
        by_count: dict[int, int] = {}  # 七对 counts pairs, not kinds: one question per count
        for tile in held:
            if whole <= shanten[tile]:
                if group is _NEAR_SPECIAL:
                    value = by_count.get(counts[tile], -2)
                    if value == -2:
                        value = by_count[counts[tile]] = shape.shanten_without(tile, special)
                else:
                    value = shape.shanten_without(tile, special)
                if value < shanten[tile]:
                    shanten[tile] = value
                    near[tile].clear()
                if value == shanten[tile]:
                    near[tile].append(special)
    low = min(shanten.values())
    targets = [t for t in held if shanten[t] == low or t in wanted]
    useful: dict[Tile, list[Tile]] = {t: [] for t in targets}
    # a ready target's useful tiles are its waits: one question instead of one per draw
    every = frozenset(shapes)
    for tile in [t for t in targets if shanten[t] == 0]:
        useful[tile] = [
            t
            for t in shape.waits_without(tile, every)
            if seen[t] < COPIES and (kinds is None or t in kinds)
        ]
        targets.remove(tile)
    keys: dict[Tile, tuple[int, ...]] = {}
    if memo is not None:
        for tile in list(targets):
            counts[tile] -= 1
            key = keys[tile] = tuple(counts)
            counts[tile] += 1
            known = memo.get(key)
            if known is not None:
                useful[tile] = [t for t in known if seen[t] < COPIES]
                targets.remove(tile)
    if targets:
        _count_useful(shape, counts, melds, seen, kinds, targets, shanten, near, useful)
        if memo is not None:
            for tile in targets:
                memo[keys[tile]] = tuple(useful[tile])
    choices = {tile: Choice(tile, shanten[tile], -1, ()) for tile in held}
    for tile, found in useful.items():
        live = sum(COPIES - seen[t] for t in found)
        choices[tile] = Choice(tile, shanten[tile], live, tuple(found))
    return choices


def wild_discard_choices(
    hand: Sequence[int],
    melds: int,
    wilds: WildSpec,
    *,
    seen: Sequence[int],
    shapes: Collection[Shape] = _STANDARD_ONLY,
    kinds: Collection[Tile] | None = None,
    discards: Iterable[Tile] | None = None,
    wanted: Collection[Tile] = (),
) -> dict[Tile, Choice]:
    """:func:`discard_choices` of a hand with wilds (混, 精, 财神, 鬼牌): the shanten by the
    core's wild-aware shapes (:mod:`paipu.rules.core.shanten`, every substitution of the
    wilds), and as useful tiles every kind of the set whose draw lowers it (a wild among
    them: it is useful wherever any tile is). The same arguments, the same answer's form;
    a hand holding no wild gets the plain answer's numbers.
    """
    counts = list(hand)
    held = [t for t in (discards if discards is not None else range(N_KINDS)) if counts[t]]
    shanten: dict[Tile, int] = {}
    for tile in held:
        counts[tile] -= 1
        shanten[tile] = core_shanten.shanten(counts, wilds, melds, shapes)
        counts[tile] += 1
    low = min(shanten.values())
    # a kind all of whose copies are in sight (the hand's own included) adds nothing
    draws = [
        t
        for t in (kinds if kinds is not None else range(N_KINDS))
        if t < N_KINDS and seen[t] < COPIES
    ]
    choices = {tile: Choice(tile, shanten[tile], -1, ()) for tile in held}
    for tile in held:
        if shanten[tile] != low and tile not in wanted:
            continue
        counts[tile] -= 1
        found: list[Tile] = []
        if shanten[tile] == 0:  # ready: the useful tiles are its waits
            found = [t for t in core_shanten.waits(counts, wilds, melds, shapes) if t in draws]
        else:
            for draw in draws:
                if counts[draw] >= COPIES:
                    continue
                counts[draw] += 1
                if core_shanten.shanten(counts, wilds, melds, shapes) < shanten[tile]:
                    found.append(draw)
                counts[draw] -= 1
        counts[tile] += 1
        live = sum(COPIES - seen[t] for t in found)
        choices[tile] = Choice(tile, shanten[tile], live, tuple(found))
    return choices


def _count_useful(
    shape: HandShape,
    counts: list[int],
    melds: int,
    seen: Sequence[int],
    kinds: Collection[Tile] | None,
    targets: list[Tile],
    shanten: dict[Tile, int],
    near: dict[Tile, list[tuple[Shape, ...]]],
    useful: dict[Tile, list[Tile]],
) -> None:
    """Fill ``useful`` for ``targets`` (not ready): the standard shape's useful draws group
    by group (:func:`_standard_gains`), then the special shapes' draw by draw."""
    facts = shape.facts
    needed = SETS_PER_HAND - melds
    _check_kept()
    for tile in targets:
        group = tile // _SUIT_SPAN
        left = list(facts)
        left[group] = facts[group].minus(tile - group * _SUIT_SPAN)
        rest = _rest_profiles(left)
        found = useful[tile]
        threshold = shanten[tile]
        for index in range(len(left)):
            first = index * _SUIT_SPAN
            for rank, value in enumerate(_standard_gains(rest[index], left[index], needed)):
                if value < threshold:
                    draw = first + rank
                    if seen[draw] < COPIES and (kinds is None or draw in kinds):
                        found.append(draw)
    if any(near[t] for t in targets):
        _count_special(shape, counts, melds, seen, kinds, targets, shanten, near, useful)


def _rest_profiles(groups: list[ShapeGroup]) -> tuple[int, int, int, int]:
    """For each of a hand's four groups, the standard-shanten profile of the other three
    merged (the shape tables' ids, :mod:`~paipu.rules.shanten`)."""
    merged = _TABLES.merged
    characters, dots, bamboo, honors = (g.profile for g in groups)
    low, high = merged[characters, dots], merged[bamboo, honors]
    return (
        merged[dots, high],
        merged[characters, high],
        merged[low, honors],
        merged[low, bamboo],
    )


#: Above any shanten: a rank whose draw cannot help the standard shape.
_NO_GAIN = 99
_NO_PROFILE = -1
#: What :func:`_standard_gains` keeps: each group's *signature* (for each rank, the
#: profile id of the group given one tile of that rank more), signatures as small ids, and
#: the gains by (rest profile, signature id, sets needed). The shape tables have few
#: profiles (about 150), so groups share signatures and most answers are look-ups.
_SIGNATURES: dict[ShapeGroup, int] = {}
_SIGNATURE_IDS: dict[tuple[int, ...], int] = {}
_SIGNATURE_LIST: list[tuple[int, ...]] = []
_GAINS: dict[tuple[int, int, int], tuple[int, ...]] = {}
#: Entries above which the kept answers are dropped (memory), and the group the shape
#: tables held for the empty suit when they were made: another one means the tables were
#: cleared (``clear_caches``), their profile ids reused, and the answers stale.
_KEPT_SIZE = 1 << 18
_EMPTY_SUIT = (0,) * _SUIT_SPAN
_KEPT_FOR: list[ShapeGroup] = []


def _check_kept() -> None:
    """Drop the kept answers if the shape tables were cleared since, or they grew large."""
    empty = _TABLES.groups[0][_EMPTY_SUIT]
    full = len(_SIGNATURES) + len(_GAINS) >= _KEPT_SIZE
    if full or not _KEPT_FOR or _KEPT_FOR[0] is not empty:
        _SIGNATURES.clear()
        _SIGNATURE_IDS.clear()
        _SIGNATURE_LIST.clear()
        _GAINS.clear()
        _KEPT_FOR[:] = [empty]


def _signature(group: ShapeGroup) -> int:
    """The id of ``group``'s signature: for each rank, the profile id of the group with
    one tile of that rank more, or :data:`_NO_PROFILE` for a rank held four times or away
    from every tile of the group (a tile two ranks or more from every other stays isolated
    and counts for nothing, in the standard shape as in 七对)."""
    found = _SIGNATURES.get(group)
    if found is not None:
        return found
    held = group.key
    size = len(held)
    profiles: list[int] = []
    for rank in range(size):
        near = held[rank] > 0
        if not near and group.runs:
            near = any(held[r] for r in range(max(0, rank - 2), min(size, rank + 3)))
        if not near or held[rank] >= COPIES:
            profiles.append(_NO_PROFILE)
        else:
            profiles.append(group.plus(rank).profile)
    signature = tuple(profiles)
    found = _SIGNATURE_IDS.get(signature)
    if found is None:
        found = _SIGNATURE_IDS[signature] = len(_SIGNATURE_LIST)
        _SIGNATURE_LIST.append(signature)
    _SIGNATURES[group] = found
    return found


def _standard_gains(rest: int, group: ShapeGroup, needed: int) -> tuple[int, ...]:
    """For each rank of ``group``, the standard shanten of the hand given one tile of that
    rank more, where the rest of the hand has the profile ``rest`` and needs ``needed``
    sets; :data:`_NO_GAIN` where the signature has no profile (:func:`_signature`)."""
    signature = _signature(group)
    key = (rest, signature, needed)
    found = _GAINS.get(key)
    if found is not None:
        return found
    merged, values = _TABLES.merged, _TABLES.values
    gains: list[int] = []
    for profile in _SIGNATURE_LIST[signature]:
        if profile == _NO_PROFILE:
            gains.append(_NO_GAIN)
        else:
            gains.append(2 * needed - values[merged[rest, profile]][needed])
    found = _GAINS[key] = tuple(gains)
    return found


def _count_special(
    shape: HandShape,
    counts: list[int],
    melds: int,
    seen: Sequence[int],
    kinds: Collection[Tile] | None,
    targets: list[Tile],
    shanten: dict[Tile, int],
    near: dict[Tile, list[tuple[Shape, ...]]],
    useful: dict[Tile, list[Tile]],
) -> None:
    """Add to ``useful`` the draws that bring a special shape (七对; 十三幺, 全不靠, 组合龙)
    as close as a target's shanten below it, draw by draw: the hand plus each draw, then
    each target's shanten less its tile."""
    specials = [(tile, special) for tile in targets for special in near[tile]]
    far = any(s != _PAIRS for _, s in specials)  # 十三幺, 全不靠, 组合龙: any kind may help
    draws: list[Tile] = list(range(N_KINDS)) if far else sorted(_related(counts))
    have = {tile: set(useful[tile]) for tile in targets}
    facts = shape.facts
    pairs: dict[tuple[Tile, int], bool] = {}
    for draw in draws:
        if seen[draw] >= COPIES or (kinds is not None and draw not in kinds):
            continue
        counts[draw] += 1
        plus: HandShape | None = None  # the hand plus the draw, made when first asked
        bound: int | None = None  # the far shapes' (one tuple for every target)
        for tile, special in specials:
            found = have[tile]
            if draw in found:
                continue
            if special == _PAIRS:
                # 七对 counts pairs alone, whatever their kinds: every draw that brings a
                # kind to the same count gains as much, so one question per count
                key = (tile, counts[draw] - (draw == tile))
                gains = pairs.get(key)
                if gains is None:
                    if plus is None:
                        plus = HandShape(counts, melds, HandShape.facts_with(facts, draw))
                    gains = pairs[key] = plus.shanten_without(tile, special) < shanten[tile]
            else:
                if plus is None:
                    plus = HandShape(counts, melds, HandShape.facts_with(facts, draw))
                # no special shape's shanten rises with a tile more: the hand plus the draw
                # bounds what each target could reach with it
                if bound is None:
                    bound = plus.shanten(special)
                if bound >= shanten[tile]:
                    continue
                gains = plus.shanten_without(tile, special) < shanten[tile]
            if gains:
                found.add(draw)
        counts[draw] -= 1
    for tile in targets:
        useful[tile] = sorted(have[tile])


def best_choice(choices: dict[Tile, Choice]) -> Choice:
    """The most efficient choice: lowest shanten, then most live useful tiles, then the
    lowest tile code (a fixed tie-break, so the review is deterministic)."""
    return min(choices.values(), key=lambda c: (c.shanten, -c.live, c.tile))


def best_tiles(choices: dict[Tile, Choice]) -> tuple[Tile, ...]:
    """Every choice as efficient as the best (equal shanten and live useful tiles)."""
    best = best_choice(choices)
    return tuple(
        sorted(t for t, c in choices.items() if (c.shanten, c.live) == (best.shanten, best.live))
    )


def loss(choice: Choice, best: Choice) -> int:
    """Live useful tiles given up against ``best``: the difference at equal shanten, all of
    the best's when the choice goes back a step (退向听)."""
    if choice.shanten > best.shanten:
        return best.live
    return best.live - choice.live
