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
from typing import TYPE_CHECKING, Any

from paipu.rules.core.wild import WildSpec
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.wilds import indicators_for, tile_set_of, wild_rule
from paipu.rules.request_checks import check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.settlement import transfers
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.changzhou import fans as changzhou_fans
from paipu.rules.variants.changzhou.settlement import win_payments
from paipu.rules.variants.changzhou.state import ChangzhouState
from paipu.rules.wall import SharedWall, Wall

if TYPE_CHECKING:
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

MAX_PIAO = 3
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
        self._specs: dict[tuple[Tile | None, object], WildSpec] = {}
        self._factors: dict[tuple[object, ...], changzhou_fans.Factors] = {}
        self._last_factors: tuple[Options, changzhou_fans.Factors] | None = None
        self._extra_known = frozenset(self.extra_facts)
        #: Each fan's FanScore by (id, points, count), made once (a frozen value).
        self._fan_scores: dict[tuple[str, int, int], FanScore] = {}

    # ------------------------------------------------------------------ the 财神

    def wild_spec(self, caishen: Tile | None, options: Options) -> WildSpec:
        """The hand's wilds when ``caishen`` is the 财神 kind (None: no 财神 known): the
        room's rule (``[wilds]``, by ``white_dragon``) for the indicator that makes it, so 白板
        plays as its face with ``white_dragon = "face"`` unless 白板 is the 财神."""
        key = (caishen, options["white_dragon"])
        found = self._specs.get(key)
        if found is None:
            rule = wild_rule(self, options)
            if caishen is None or rule is None:
                found = WildSpec.none(self.tile_set)
            else:
                found = rule.spec(indicators_for(rule, (caishen,))[0])
            self._specs[key] = found
        return found

    def factors(self, options: Options) -> changzhou_fans.Factors:
        """The room's numbers for the fans, made once per options object (the default
        options are one object: most calls find it by identity)."""
        last = self._last_factors
        if last is not None and last[0] is options:
            return last[1]
        key = tuple(options.items())
        found = self._factors.get(key)
        if found is None:
            found = self._factors[key] = changzhou_fans.Factors(
                self.values,
                caitou=int(options["caitou_factor"]),
                piao=int(options["piao_factor"]),
                single_gap=int(options["single_gap_factor"]),
                last_tiles=int(options["last_tiles_factor"]),
                multiply=options["hand_types"] == "multiply",
            )
        self._last_factors = (options, found)
        return found

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        if request.flowers:
            raise RequestError(f"{spec.name_zh} has no flowers")
        extra = request.extra
        if extra and not self._extra_known.issuperset(extra):
            unknown = sorted(set(extra) - set(self.extra_facts))
            if unknown:
                raise RequestError(
                    f"unknown extra fact(s) {', '.join(unknown)} "
                    f"({self.id} knows {', '.join(self.extra_facts)})"
                )
        caishen = _caishen(extra)
        if caishen is not None and caishen not in self.tile_set.kind_set:
            raise RequestError(
                f"extra 'wild': {tile_name(caishen)} is not a tile of {spec.name_zh}"
            )
        piao = _piao(extra)
        flags = request.flags
        robbed = flags.robbing_kong
        if request.from_seat is not None and not robbed and not options["discard_win"]:
            return ScoreAnswer(
                legal=False,
                reason="no win on a discard: 自摸胡 and 抢杠胡 only (option discard_win)",
            )
        wilds = self.wild_spec(caishen, options)
        for i, meld in enumerate(request.melds, 1):
            if any(wilds.is_wild(t) for t in meld.tiles):
                raise RequestError(f"meld {i}: a 财神 is never part of a 吃 / 碰 / 杠 meld")
        situation = changzhou_fans.Situation(piao=piao, last_tiles=flags.last_tile)
        result = changzhou_fans.evaluate(
            request.hand, request.melds, request.win_tile, wilds, situation, self.factors(options)
        )
        if not result.legal:
            return ScoreAnswer(legal=False, reason=result.reason)
        players = spec.players
        liable = self.liable_of(request)
        per_payer = result.total * int(options["base"])
        deltas = transfers(
            players,
            win_payments(
                players,
                request.seat,
                request.from_seat,
                per_payer,
                robbed=robbed,
                robbing_shares=self.robbing_shares,
                liable=liable,
            ),
        )
        fans = tuple(self._fan(f, points, count) for f, points, count in result.fans)
        answer_extra: dict[str, Any] = {
            "unit": "倍",
            "per_payer": per_payer,
            "wild": [] if caishen is None else [tile_name(caishen)],
            "substitutions": [[tile_name(w), tile_name(f)] for w, f in result.wilds],
        }
        if wilds.stand_ins:
            answer_extra["stand_in"] = {tile_name(t): tile_name(f) for t, f in wilds.stand_ins}
        if piao and not any(f.id == "cai_piao" for f in fans):
            answer_extra["piao_void"] = "财飘 counts only on a 财头 win (a 财神 still in hand)"
        if liable and not robbed:
            answer_extra["liable"] = list(liable)
        return ScoreAnswer(
            legal=True, total=result.total, fans=fans, deltas=deltas, extra=answer_extra
        )

    def _fan(self, fan_id: str, points: int, count: int) -> FanScore:
        key = (fan_id, points, count)
        found = self._fan_scores.get(key)
        if found is None:
            fan = self.spec.fans.by_id[fan_id]
            found = FanScore(fan_id, fan.name_zh, fan.name_en, points, count)
            self._fan_scores[key] = found
        return found

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

    def liable_of(self, request: ScoreRequest) -> tuple[int, ...]:
        """承包 seats: those the winner's melds were claimed from ``liability_claims`` times,
        and ``extra.liable`` (the replay's list, which also knows who claimed three times
        from the winner); it must include the first kind."""
        counts: dict[int, int] = {}
        for meld in request.melds:
            if meld.from_seat is not None:
                counts[meld.from_seat] = counts.get(meld.from_seat, 0) + 1
        shown = {seat for seat, n in counts.items() if n >= self.liability_claims}
        raw = request.extra.get("liable")
        if raw is None:
            return tuple(sorted(shown))
        players = self.spec.players
        if not isinstance(raw, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in raw
        ):
            raise RequestError(f"extra 'liable' lists seats 0-{players - 1} bound by 承包")
        if request.seat in raw:
            raise RequestError("extra 'liable' lists the winner itself")
        missing = shown - set(raw)
        if missing:
            raise RequestError(
                f"extra 'liable' leaves out seat {min(missing)}: the winner's melds were "
                f"claimed from it {self.liability_claims} times (承包)"
            )
        return tuple(sorted(set(raw)))


def _caishen(extra: Mapping[str, Any]) -> Tile | None:
    raw = extra.get("wild", [])
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw) or len(raw) > 1:
        raise RequestError(
            "extra 'wild' lists the 财神 kind (the flipped tile + 1), e.g. [\"3m\"], or [] for none"
        )
    if not raw:
        return None
    try:
        return parse_tile(raw[0])
    except TileError as exc:
        raise RequestError(f"extra 'wild': {exc}") from None


def _piao(extra: Mapping[str, Any]) -> int:
    raw = extra.get("piao", 0)
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= MAX_PIAO:
        raise RequestError(
            "extra 'piao' is how many 财神 were discarded in 财头 state before the win (财飘: 0-3)"
        )
    return raw
