"""The checks every mahjong score request passes (seats, tiles, melds, counts, flags).

:func:`check_request` raises :class:`~paipu.rules.score.RequestError` with a message a
player understands; the variants call it before scoring (MCR, the 108-tile games).
"""

from __future__ import annotations

from paipu.rules.melds import MeldKind
from paipu.rules.score import RequestError, ScoreRequest
from paipu.rules.tiles import FLOWER_FIRST, counts, is_flower, tile_name


def check_seats(request: ScoreRequest, players: int) -> None:
    """Raise :class:`RequestError` unless the seat, the dealer and ``from`` are seats."""
    last = players - 1
    for name, seat in (
        ("seat", request.seat),
        ("dealer", request.dealer),
        ("from", request.from_seat),
    ):
        if seat is not None and not 0 <= seat <= last:
            raise RequestError(f"'{name}' {seat} is not a seat: {players} players sit 0-{last}")


def check_no_flowers(request: ScoreRequest, name: str) -> None:
    """Raise :class:`RequestError` when the request of ``name``, a game without flowers
    (花牌), holds some."""
    if request.flowers:
        raise RequestError(f"{name} has no flowers")


def check_extra(request: ScoreRequest, variant_id: str, facts: tuple[str, ...]) -> None:
    """Raise :class:`RequestError` for a fact of ``extra`` that ``variant_id`` does not know
    (it knows ``facts``)."""
    extra = request.extra
    if not extra or all(name in facts for name in extra):
        return
    unknown = sorted(set(extra) - set(facts))
    known = ", ".join(facts) or "none"
    raise RequestError(f"unknown extra fact(s) {', '.join(unknown)} ({variant_id} knows {known})")


def check_request(
    request: ScoreRequest, players: int, hand_size: int, calls: tuple[str, ...]
) -> None:
    """Raise :class:`RequestError` for seats, tiles and melds that cannot be."""
    if _plainly_valid(request, players, hand_size, calls):
        return
    last = players - 1
    check_seats(request, players)
    for tile in (*request.hand, request.win_tile):
        if tile >= 34:
            raise RequestError(f"{tile_name(tile)} is not a tile of this variant")
    for i, meld in enumerate(request.melds, 1):
        if meld.kind.value not in calls:
            raise RequestError(f"meld {i}: {meld.kind.value} is not allowed in this variant")
        if any(t >= 34 for t in meld.tiles):
            raise RequestError(f"meld {i}: {tile_name(meld.tiles[0])} is not a tile here")
        if meld.kind is MeldKind.CONCEALED_KONG:
            if meld.from_seat is not None:
                raise RequestError(f"meld {i}: a concealed kong is not claimed from anyone")
            continue
        if meld.from_seat is not None:
            if not 0 <= meld.from_seat <= last or meld.from_seat == request.seat:
                raise RequestError(f"meld {i}: 'from' must be another player's seat 0-{last}")
            if meld.kind is MeldKind.CHI and meld.from_seat != (request.seat - 1) % players:
                raise RequestError(
                    f"meld {i}: a chi is claimed only from the previous seat "
                    f"({(request.seat - 1) % players})"
                )
    expected = hand_size - 3 * len(request.melds)
    if len(request.hand) != expected:
        raise RequestError(
            f"'hand' has {len(request.hand)} tiles; with {len(request.melds)} meld(s) it must "
            f"have {expected} (the winning tile is given apart, each meld counts as 3)"
        )
    used = counts(request.hand)
    used[request.win_tile] += 1
    for meld in request.melds:
        for tile in meld.tiles:
            used[tile] += 1
    if max(used) > 4:
        tile = used.index(max(used))
        raise RequestError(
            f"{used[tile]} copies of {tile_name(tile)} in hand, melds and winning "
            "tile together; there are only 4"
        )
    for flower in request.flowers:
        if not is_flower(flower):
            raise RequestError(f"'flowers' holds {tile_name(flower)}; flowers are 1f-8f")
    if len(set(request.flowers)) != len(request.flowers):
        raise RequestError("'flowers' lists the same flower twice; each exists once")
    flags = request.flags
    if flags.kong_replacement and not request.self_drawn:
        raise RequestError("kong_replacement (杠上开花) is a self-drawn win: leave 'from' out")
    if flags.robbing_kong and request.self_drawn:
        raise RequestError("robbing_kong (抢杠和) needs 'from': the seat whose kong was robbed")


def _plainly_valid(
    request: ScoreRequest, players: int, hand_size: int, calls: tuple[str, ...]
) -> bool:
    """True only when :func:`check_request` would find nothing wrong.

    The fast path of the check: the same conditions, tested without building messages.
    When it answers False the full check runs and raises with its message, so a bad
    request is always rejected exactly as before.
    """
    last = players - 1
    seat = request.seat
    dealer = request.dealer
    from_seat = request.from_seat
    if not (
        (seat is None or 0 <= seat <= last)
        and (dealer is None or 0 <= dealer <= last)
        and (from_seat is None or 0 <= from_seat <= last)
    ):
        return False
    hand = request.hand
    win_tile = request.win_tile
    melds = request.melds
    if win_tile >= 34 or len(hand) != hand_size - 3 * len(melds):
        return False
    used = [0] * 34
    for tile in hand:
        if tile >= 34:
            return False
        used[tile] += 1
    used[win_tile] += 1
    if melds:
        for meld in melds:
            kind = meld.kind
            if kind.value not in calls:
                return False
            for tile in meld.tiles:
                if tile >= 34:
                    return False
                used[tile] += 1
            meld_from = meld.from_seat
            if kind is MeldKind.CONCEALED_KONG:
                if meld_from is not None:
                    return False
            elif meld_from is not None and (
                not 0 <= meld_from <= last
                or meld_from == seat
                or (kind is MeldKind.CHI and meld_from != (seat - 1) % players)
            ):
                return False
    if max(used) > 4:
        return False
    flowers = request.flowers
    if flowers and (
        not FLOWER_FIRST <= min(flowers) <= max(flowers) < FLOWER_FIRST + 8  # all flowers
        or len(set(flowers)) != len(flowers)
    ):
        return False
    flags = request.flags
    self_drawn = from_seat is None
    return not (flags.kong_replacement and not self_drawn) and not (
        flags.robbing_kong and self_drawn
    )
