"""十万麻将 (Shiwan Mahjong, 1–10 suits): the tile model, the basic win, self-play.

The seed ("十万麻将竞赛规则") gives only the tiles: 万 饼 条 of ranks 1 to 10 and the four
winds, 136 tiles of 34 kinds. Everything else is an option of ``shiwan.toml`` with the
digest's advice as its default, and ``docs/variants/shiwan.md`` says, point by point, what
is sourced and what inferred. The hands are counted on the variant's own
:class:`~paipu.rules.core.tiles.TileSet` (the tens are codes 42–44): the replay table sizes
its count vectors by it (:meth:`Shiwan.replay_tile_set`), the waits and the wins are the
core's (:mod:`paipu.rules.core.shanten`), and chows follow the set's ranks: 8-9-10 is a
chow, 10 and 1 are not connected.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "shiwan", "seat": 1, "dealer": 0, "from": 0,
...     "hand": "89m123p567s111z0s0s", "win_tile": "10m"})
>>> answer.legal, answer.total, [f.id for f in answer.fans], answer.deltas
(True, 1, ['basic_win'], (-1, 1, 0, 0))
>>> wrapped = score_json({"variant": "shiwan", "seat": 1, "dealer": 0,
...     "hand": "90m1m123p567s111z0s", "win_tile": "10s"})  # 9-10-1 would need a wrap
>>> wrapped.legal, wrapped.reason.split("(")[1]
(False, '4 sets and a pair over the 1–10 suits; 10 and 1 are not connected)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paipu.rules.core.shanten import waits
from paipu.rules.core.shapes import Shape
from paipu.rules.core.tiles import TileSet
from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import check_coverage
from paipu.rules.melds import MeldKind
from paipu.rules.request_checks import check_no_flowers, check_seats
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.tiles import Tile, tile_name, tile_names
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.shiwan import fans as shiwan_fans
from paipu.rules.variants.shiwan.settlement import shiwan_win_deltas

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

_STANDARD = (Shape.STANDARD,)
_WITH_PAIRS = (Shape.STANDARD, Shape.SEVEN_PAIRS)
#: The rule a refused chow breaks, as the replay names it.
CHOW_RULE = (
    "a chi is three consecutive ranks of one suit over 1–10 (十万麻将: 8-9-10 is a chow, "
    "10 and 1 are not connected)"
)


@register
class Shiwan(Variant):
    """十万麻将 — three suits of ten ranks and the winds; any complete hand wins."""

    id = "shiwan"

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, shiwan_fans.REGISTRY, self.id)
        #: The 136 tiles: 1–10 in 万 饼 条, the four winds (codes 42–44 are the tens).
        self.tiles = TileSet.from_toml(self.spec.tiles, source=f"{self.id}.toml tiles")
        self.no_wilds = WildSpec.none(self.tiles)
        self._fans = {
            fan.id: FanScore(fan.id, fan.name_zh, fan.name_en, fan.points, 1)
            for fan in self.spec.fans.fans
        }

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        counts = self.tiles.counts([*request.hand, request.win_tile])
        melds = len(request.melds)
        kind = shiwan_fans.shape(counts, melds, self.no_wilds, bool(options["seven_pairs"]))
        if kind is None:
            pairs = ", or seven pairs" if options["seven_pairs"] else ""
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form a winning hand (4 sets and a pair over the "
                f"1–10 suits{pairs}; 10 and 1 are not connected)",
            )
        fans = [kind, *shiwan_fans.how_won(request.self_drawn, request.flags)]
        deltas = shiwan_win_deltas(
            self.spec.players,
            request.seat,
            request.from_seat,
            base=int(options["base"]),
            self_draw_units=int(options["self_draw_units"]),
            everyone_pays=options["discard_payer"] == "everyone",
        )
        return ScoreAnswer(
            legal=True,
            total=1,
            fans=tuple(self._fans[f] for f in fans),
            deltas=deltas,
            extra={"unit": "base"},
        )

    def check(self, request: ScoreRequest) -> None:
        """Raise :class:`RequestError` for seats, tiles, melds and counts that cannot be."""
        spec = self.spec
        check_seats(request, spec.players)
        kinds = self.tiles.kind_set
        for tile in (*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles)):
            if tile not in kinds:
                raise RequestError(
                    f"{tile_name(tile)} is not a tile of {spec.name_zh}: 万 饼 条 1–10 and the "
                    "four winds (no dragons, no flowers)"
                )
        check_no_flowers(request, spec.name_zh)
        if request.extra:
            raise RequestError(
                f"{self.id} takes no 'extra' facts (got {', '.join(sorted(request.extra))})"
            )
        last = spec.players - 1
        for i, meld in enumerate(request.melds, 1):
            if meld.kind.value not in spec.calls:
                raise RequestError(f"meld {i}: {meld.kind.value} is not allowed in {self.id}")
            if meld.kind is MeldKind.CHI:
                if self.chow_problem(meld.tiles) is not None:
                    raise RequestError(f"meld {i}: {' '.join(tile_names(meld.tiles))}: {CHOW_RULE}")
                if (
                    meld.from_seat is not None
                    and meld.from_seat != (request.seat - 1) % spec.players
                ):
                    raise RequestError(f"meld {i}: a chi is claimed only from the previous seat")
            if meld.kind is MeldKind.CONCEALED_KONG and meld.from_seat is not None:
                raise RequestError(f"meld {i}: a concealed kong is not claimed from anyone")
            if meld.from_seat is not None and (
                not 0 <= meld.from_seat <= last or meld.from_seat == request.seat
            ):
                raise RequestError(f"meld {i}: 'from' must be another player's seat 0-{last}")
        expected = spec.hand_size - 3 * len(request.melds)
        if len(request.hand) != expected:
            raise RequestError(
                f"'hand' has {len(request.hand)} tiles; with {len(request.melds)} meld(s) it "
                f"must have {expected} (the winning tile is given apart, each meld counts as 3)"
            )
        used = self.tiles.counts(
            [*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles)]
        )
        if max(used) > self.tiles.copies:
            tile = used.index(max(used))
            raise RequestError(
                f"{used[tile]} copies of {tile_name(tile)} in hand, melds and winning tile "
                "together; there are only 4"
            )
        flags = request.flags
        if flags.kong_replacement and not request.self_drawn:
            raise RequestError("kong_replacement (杠上开花) is a self-drawn win: leave 'from' out")
        if flags.robbing_kong and request.self_drawn:
            raise RequestError("robbing_kong (抢杠和) needs 'from': the seat whose kong was robbed")

    def chow_problem(self, tiles: tuple[Tile, ...]) -> str | None:
        """Why ascending ``tiles`` are not a chow of the 1–10 suits; None when they are."""
        return None if self.tiles.chow_from(tiles[0]) == tuple(tiles) else CHOW_RULE

    # ------------------------------------------------------------------ replay

    def wall_tiles(self, options: Options) -> list[Tile]:
        return self.tiles.wall()

    def replay_tile_set(self, options: Options) -> TileSet:
        return self.tiles

    def replay_chow_problem(self, tiles: tuple[Tile, ...], options: Options) -> str | None:
        return self.chow_problem(tiles)

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """The core's waits on the 1–10 tile set (seven pairs with the room option)."""
        s = table.seats[seat]
        hand = s.hand
        melds = len(s.melds)
        if sum(hand) != self.spec.hand_size - 3 * melds:
            return ()
        shapes = _WITH_PAIRS if table.options["seven_pairs"] and not melds else _STANDARD
        return waits(hand, self.no_wilds, melds, shapes)

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The deal passes on after every hand (``dealer = "rotate"``), or stays with a
        dealer who won (``"winner_stays"``)."""
        options = self.resolve_options(outcome.record.rules)
        if options["dealer"] == "winner_stays" and any(
            w.seat == setup.dealer for w in outcome.wins
        ):
            return setup
        return super().next_setup(setup, outcome)
