"""国标麻将 MCR: checks a request, asks the fan evaluator, settles the win.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "mcr", "seat": 1, "dealer": 0, "from": 2,
...     "hand": "123m456m678s2z", "melds": [{"kind": "pong", "tiles": "555z", "from": 3}],
...     "win_tile": "2z"})
>>> answer.legal, answer.total, [f.id for f in answer.fans]
(False, 5, ['dragon_pung', 'short_straight', 'one_voided_suit', 'single_wait'])
>>> answer.reason
'5 fan (flowers not counted): MCR needs at least 8 to win'
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import TYPE_CHECKING

from paipu.rules.melds import Group
from paipu.rules.request_checks import check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.shanten import Shape, shanten
from paipu.rules.tiles import Tile, counts, is_flower
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.mcr import fans as mcr_fans
from paipu.rules.variants.mcr.settlement import mcr_win_deltas
from paipu.rules.wall import DuplicateWall, Wall

if TYPE_CHECKING:
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import Table

SHAPES = tuple(Shape)

#: ``--scenario mcr-88``: each 88-fan hand as (the dealer's 13 tiles, its first draws).
#: The dealer is dealt a ready hand and wins on its first draw; for four kongs it is dealt
#: four concealed pungs and draws the fourth copy of each, then the pair's tile.
SCENARIO_SETS = {
    "mcr-88": {
        "big_four_winds": ("111z222z333z44z55p", "4z"),
        "big_three_dragons": ("555z666z777z234m9p", "9p"),
        "all_green": ("234s234s66s888s66z", "6s"),
        "nine_gates": ("1112345678999m", "5m"),
        "four_kongs": ("111m555p999s777z3z", "1m5p9s7z3z"),
        "seven_shifted_pairs": ("1122334455667m", "7m"),
        "thirteen_orphans": ("19m19p19s1234567z", "7z"),
    },
}


@register
class MCR(Variant):
    """国标麻将 — the Chinese Official rules."""

    id = "mcr"
    scenario_sets = SCENARIO_SETS

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        if request.extra:
            raise RequestError(f"MCR takes no 'extra' facts (got {', '.join(request.extra)})")
        fixed = [Group.from_meld(meld) for meld in request.melds]
        flags = request.flags
        win = mcr_fans.WinSituation(
            request.from_seat is None,
            request.seat_wind_for(spec.players),
            request.round_wind,
            flags.last_tile,
            flags.kong_replacement or flags.robbing_kong,
            flags.last_of_kind,
            len(request.flowers),
        )
        result = mcr_fans.calculate(request.hand, fixed, request.win_tile, win)
        if result is None:
            return ScoreAnswer(
                legal=False, reason=_not_winning(request.hand, request.win_tile, len(fixed))
            )
        fans = fan_scores(result)
        minimum = int(options["min_fan"])
        if result.total_without_flowers < minimum:
            return ScoreAnswer(
                legal=False,
                total=result.total,
                fans=fans,
                reason=f"{result.total_without_flowers} fan (flowers not counted): "
                f"MCR needs at least {minimum} to win",
            )
        deltas = _win_deltas(
            spec.players, request.seat, request.from_seat, result.total, int(options["base_points"])
        )
        return ScoreAnswer(legal=True, total=result.total, fans=fans, deltas=deltas)

    def wall_tiles(self, options: Options) -> list[Tile]:
        tiles = super().wall_tiles(options)
        if options["wall"] == "duplicate":  # Botzone plays without flowers
            tiles = [t for t in tiles if not is_flower(t)]
        return tiles

    def replay_wall(self, record: HandRecord, options: Options) -> Wall:
        if options["wall"] != "duplicate":
            return super().replay_wall(record, options)
        players = len(record.players)
        if record.wall is not None:
            return DuplicateWall(len(record.wall) // players, players, record.wall)
        per_seat = self.wall_size(options) // players - self.spec.hand_size
        return DuplicateWall(per_seat, players)

    def replay_last_tile(self, table: Table, seat: int, from_seat: int | None) -> bool:
        if table.options["wall"] != "duplicate":
            return super().replay_last_tile(table, seat, from_seat)
        # Botzone: the last tile means the wall of the seat after the one who played it is empty.
        player = seat if from_seat is None else from_seat
        return table.wall.left_for((player + 1) % table.players) == 0


#: The settlement of a win, remembered: a handful of seats, totals and bases recur.
_win_deltas = lru_cache(maxsize=4096)(mcr_win_deltas)


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


def _not_winning(hand: tuple[Tile, ...], win_tile: Tile, melds: int) -> str:
    distance = shanten(counts([*hand, win_tile]), melds, SHAPES) + 1
    away = f"{distance} tile{'s' if distance > 1 else ''} short of a complete hand"
    return (
        "these tiles do not form a winning hand (4 sets and a pair, seven pairs, thirteen "
        f"orphans or a knitted hand): {away}"
    )
