"""国标麻将 MCR's answer to a score request: :meth:`MCR.score
<paipu.rules.variants.mcr.MCR.score>`'s body, compiled with mypyc (this folder's
``compiled.txt``).

The variant's class registers itself with a class decorator, so mypyc would compile it as
a plain Python class and its methods would run interpreted: the replay scores every win
and every win offered (about 1.3 requests a Botzone hand), and the interpreted work around
the fan evaluator (the request's checks, the melds as groups, the win's situation, the
answer's fans and deltas) took almost as many of an ingest's profile samples as the
evaluator itself (324 against 376, py-spy). The class keeps its methods and calls
:func:`answer` here.

>>> from paipu.rules.melds import Meld
>>> from paipu.rules.score import ScoreRequest
>>> from paipu.rules.tiles import parse_tiles
>>> request = ScoreRequest("mcr", 1, 0, 2, tuple(parse_tiles("123m456m678s2z")),
...     (Meld.of("pong", "555z", 3),), parse_tiles("2z")[0])
>>> reply = answer(request, 4, 13, ("chi", "pong", "kong"), {"min_fan": 8, "base_points": 8})
>>> reply.legal, reply.total, reply.reason
(False, 5, '5 fan (flowers not counted): MCR needs at least 8 to win')
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import compress
from typing import Any

from paipu.rules.melds import Group, GroupKind, Meld, MeldKind
from paipu.rules.request_checks import check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.shanten import Shape, shanten
from paipu.rules.tiles import Tile, counts
from paipu.rules.variants.mcr import fans as mcr_fans
from paipu.rules.variants.mcr.settlement import mcr_win_deltas

SHAPES = tuple(Shape)
_new_tuple = tuple.__new__  # a NamedTuple from its fields, without its interpreted __new__
_WinSituation = mcr_fans.WinSituation
_Group = Group


def replay_answer(
    request: ScoreRequest,
    players: int,
    hand_size: int,
    calls: tuple[str, ...],
    options: Mapping[str, Any],
) -> ScoreAnswer:
    """:func:`answer`, with a request that cannot be scored answered as a failure
    (:meth:`Variant.replay_score_request <paipu.rules.variants.Variant.replay_score_request>`)."""
    try:
        return answer(request, players, hand_size, calls, options)
    except RequestError as exc:
        return ScoreAnswer.failure(str(exc))


def answer(
    request: ScoreRequest,
    players: int,
    hand_size: int,
    calls: tuple[str, ...],
    options: Mapping[str, Any],
) -> ScoreAnswer:
    """The MCR answer to ``request`` for a table of ``players`` seats dealt ``hand_size``
    tiles with the claims ``calls``, under ``options`` (``min_fan``, ``base_points``);
    raise :class:`RequestError` for a request that cannot be."""
    check_request(request, players, hand_size, calls)
    if request.extra:
        raise RequestError(f"MCR takes no 'extra' facts (got {', '.join(request.extra)})")
    fixed = [_group_of(meld) for meld in request.melds]
    flags = request.flags
    win = _new_tuple(
        _WinSituation,
        (
            request.from_seat is None,
            request.seat_wind_for(players),
            request.round_wind,
            flags.last_tile,
            flags.kong_replacement or flags.robbing_kong,
            flags.last_of_kind,
            len(request.flowers),
        ),
    )
    result = mcr_fans.calculate(request.hand, fixed, request.win_tile, win)
    if result is None:
        return ScoreAnswer(
            legal=False, reason=not_winning(request.hand, request.win_tile, len(fixed))
        )
    fans = _fan_scores_of_table(result.table)
    minimum = int(options["min_fan"])
    without_flowers = result.total - result.flowers
    if without_flowers < minimum:
        return ScoreAnswer(
            legal=False,
            total=result.total,
            fans=fans,
            reason=f"{without_flowers} fan (flowers not counted): "
            f"MCR needs at least {minimum} to win",
        )
    deltas = win_deltas(
        players, request.seat, request.from_seat, result.total, int(options["base_points"])
    )
    return ScoreAnswer(legal=True, total=result.total, fans=fans, deltas=deltas)


def _group_of(meld: Meld) -> Group:
    """:meth:`Group.from_meld <paipu.rules.melds.Group.from_meld>`, the tuple built at once."""
    kind = meld.kind
    if kind is MeldKind.CHI:
        return _new_tuple(_Group, (GroupKind.CHOW, meld.base, False))  # type: ignore[no-any-return]
    if kind is MeldKind.PONG:
        return _new_tuple(_Group, (GroupKind.PUNG, meld.base, False))  # type: ignore[no-any-return]
    return _new_tuple(_Group, (GroupKind.KONG, meld.base, meld.concealed))  # type: ignore[no-any-return]


#: The settlement of a win, remembered: a handful of seats, totals and bases recur.
win_deltas = lru_cache(maxsize=4096)(mcr_win_deltas)


def fan_scores(result: mcr_fans.FanCount) -> tuple[FanScore, ...]:
    """The counted fans with their names, for an answer."""
    return _fan_scores_of_table(result.table)


@lru_cache(maxsize=4096)  # each key is an 83-entry tuple: about 4 MB when full
def _fan_scores_of_table(table: tuple[int, ...]) -> tuple[FanScore, ...]:
    """The answer's fans for one fan table (fan counts by index), remembered: the same
    tables recur (a ready hand is scored on each of its waits, every turn)."""
    return tuple(map(_fan_score, compress(mcr_fans.FAN_IDS, table), filter(None, table)))


@lru_cache(maxsize=4096)
def _fan_score(fan_id: str, count: int) -> FanScore:
    fan_def = mcr_fans.TABLE.by_id[fan_id]
    return FanScore(
        fan_def.id,
        fan_def.name_zh,
        fan_def.name_en,
        fan_def.points,
        count,
        fan_def.excludes,
        fan_def.not_counted,
    )


def not_winning(hand: tuple[Tile, ...], win_tile: Tile, melds: int) -> str:
    """Why tiles that are no winning hand are not: how far they are from one."""
    distance = shanten(counts([*hand, win_tile]), melds, SHAPES) + 1
    away = f"{distance} tile{'s' if distance > 1 else ''} short of a complete hand"
    return (
        "these tiles do not form a winning hand (4 sets and a pair, seven pairs, thirteen "
        f"orphans or a knitted hand): {away}"
    )
