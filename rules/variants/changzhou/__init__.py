"""常州 / 常山 财神麻将 (Changzhou / Changshan): scoring, 财神 and 财飘 on the table, settlement.

Data — 136 tiles, the calls, the 财神 rule (``[wilds]``), the hand types, the table's money,
the options — is in ``changzhou.toml``; the hand types and multipliers are
:mod:`paipu.rules.variants.changzhou.fans`, the payments
:mod:`paipu.rules.variants.changzhou.settlement`; the rules as implemented and the score
request's fields are in ``docs/variants/changzhou.md``.

The digest's worked example: South holds a 财神 (3m, the flipped 2m + 1) and four sets, the
财头; he discards a 财神 (财一飘) and then self-draws: 2 × 2 × 2 = 8倍, East, West and North
pay 8 each.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "changzhou", "seat": 1, "dealer": 0,
...     "hand": "123p456p789s111z3m", "win_tile": "7m",
...     "extra": {"wild": ["3m"], "piao": 1}})
>>> answer.legal, answer.total, [(f.id, f.points, f.count) for f in answer.fans]
(True, 8, [('plain', 2, 1), ('caitou', 2, 1), ('cai_piao', 2, 1)])
>>> answer.deltas, answer.extra["substitutions"]
((-8, 24, -8, -8), [['3m', '7m']])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.wilds import indicators_for, tile_set_of, wild_rule
from paipu.rules.score import ScoreAnswer, ScoreRequest
from paipu.rules.tiles import Tile
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.changzhou import fans as changzhou_fans
from paipu.rules.variants.changzhou.scoring import Scorer
from paipu.rules.variants.changzhou.state import ChangzhouState
from paipu.rules.wall import SharedWall, Wall

if TYPE_CHECKING:
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

HAND_TYPES = frozenset(changzhou_fans.HAND_TYPES)


@register
class Changzhou(Variant):
    """常州 / 常山 财神麻将 — one 财神 kind (flipped + 1), 白板 as its face, self-draw and
    robbing a kong only, 财头 and 财飘, kong money, 跟庄, 承包, the dealer's drawn-hand pay."""

    id = "changzhou"
    #: Keys a score request's ``extra`` may hold (docs/variants/changzhou.md).
    extra_facts = ("wild", "piao", "liable")

    def __init__(self) -> None:
        super().__init__()
        spec = self.spec
        check_coverage(spec.fans, changzhou_fans.REGISTRY, self.id)
        self.tile_set = tile_set_of(self)
        self.values = {f.id: f.points for f in spec.fans.fans if f.id in HAND_TYPES}
        payments = spec.raw["payments"]
        self.kong_amounts = {k: int(payments[k]) for k in ("kong", "added_kong", "concealed_kong")}
        self.chain_factor = int(payments["chain_factor"])
        self.follow_dealer = int(payments["follow_dealer"])
        self.drawn_dealer = int(payments["drawn_dealer"])
        self.liability_claims = int(payments["liability_claims"])
        self.robbing_shares = int(payments["robbing_kong_shares"])
        wall = spec.raw["wall"]
        self.dead_tiles = int(wall["dead_tiles"])
        self.no_kong_left = int(wall["no_kong_left"])
        self.last_tiles = int(wall["last_tiles"])
        self.scorer = Scorer(
            self.id,
            spec.name_zh,
            spec.players,
            spec.hand_size,
            spec.calls,
            self.tile_set,
            self.values,
            {f.id: (f.name_zh, f.name_en) for f in spec.fans.fans},
            self.extra_facts,
            self.liability_claims,
            self.robbing_shares,
            self._new_wild_spec,
        )

    # ------------------------------------------------------------------ the 财神

    def wild_spec(self, caishen: Tile | None, options: Options) -> WildSpec:
        """The hand's wilds when ``caishen`` is the 财神 kind (None: no 财神 known): the
        room's rule (``[wilds]``, by ``white_dragon``) for the indicator that makes it, so 白板
        plays as its face with ``white_dragon = "face"`` unless 白板 is the 财神 (made once
        per kind and option)."""
        return self.scorer.wild_spec(caishen, options)

    def _new_wild_spec(self, caishen: Tile | None, options: Mapping[str, Any]) -> WildSpec:
        rule = wild_rule(self, cast(Options, options))
        if caishen is None or rule is None:
            return WildSpec.none(self.tile_set)
        return rule.spec(indicators_for(rule, (caishen,))[0])

    def factors(self, options: Options) -> changzhou_fans.Factors:
        """The room's numbers for the fans, made once per options object."""
        return self.scorer.factors(options)

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        """The answer, by the compiled :class:`~paipu.rules.variants.changzhou.scoring.
        Scorer`."""
        return self.scorer.score(request, options)

    def liable_of(self, request: ScoreRequest) -> tuple[int, ...]:
        """承包 seats (:meth:`~paipu.rules.variants.changzhou.scoring.Scorer.liable_of`)."""
        return self.scorer.liable_of(request)

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> ChangzhouState:
        return ChangzhouState(table, self)

    def replay_wall(self, record: HandRecord, options: Options) -> Wall:
        """The live wall: the record's wall (every tile left after the deal, in drawing
        order) less its last ``dead_tiles`` (the 10 dead stacks, the 财神's indicator among
        them); kong replacements come from the live wall's end."""
        if record.wall is not None:
            live = max(len(record.wall) - self.dead_tiles, 0)
            return SharedWall(live, record.wall[:live], dead=record.wall[live:])
        dealt = self.spec.hand_size * len(record.players)
        return SharedWall(self.wall_size(options) - dealt - self.dead_tiles)

    def replay_last_tile(self, table: Table, seat: int, from_seat: int | None) -> bool:
        """海底捞月: the win is on one of the last four live tiles."""
        return table.wall.left() < self.last_tiles

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The dealer stays after a drawn hand (the seed: 流局后庄家继续坐庄) and after his own
        win; after another seat's win the deal passes on (inferred)."""
        if not outcome.wins or outcome.wins[0].seat == setup.dealer:
            return replace(setup, dealer=setup.dealer)
        return super().next_setup(setup, outcome)
