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

from typing import TYPE_CHECKING

from paipu.rules.score import ScoreAnswer, ScoreRequest
from paipu.rules.tiles import Tile, is_flower
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.mcr import scoring as mcr_scoring
from paipu.rules.wall import DuplicateWall, Wall

if TYPE_CHECKING:
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import Table

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
        return mcr_scoring.answer(request, spec.players, spec.hand_size, spec.calls, options)

    def replay_score_request(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        # Variant.replay_score_request, with MCR.score inline: the compiled module's answer
        spec = self.spec
        return mcr_scoring.replay_answer(request, spec.players, spec.hand_size, spec.calls, options)

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
