"""常州 财神麻将's answer to a score request, compiled (``compiled.txt``): the checks of the
request's facts, the hand's 财神, the evaluation (:mod:`~paipu.rules.variants.changzhou.
fans`), the payments and the answer's facts.

The variant's class (:class:`~paipu.rules.variants.changzhou.Changzhou`) registers itself
with a class decorator, which mypyc compiles as a plain Python class: it hands every request
to a :class:`Scorer`, made once with the variant's data, so that a score runs compiled from
the request to the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from paipu.rules.core.tiles import TileSet
from paipu.rules.core.wild import WildSpec
from paipu.rules.request_checks import check_extra, check_no_flowers, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.settlement import transfers
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name
from paipu.rules.variants.changzhou import fans as changzhou_fans
from paipu.rules.variants.changzhou.settlement import win_payments

MAX_PIAO = 3
#: The answer of a win on a discard when the room allows none.
NO_DISCARD_WIN = "no win on a discard: 自摸胡 and 抢杠胡 only (option discard_win)"


class Scorer:
    """The variant's scoring, with its data: the request's checks' seats, hand size and
    calls, the tile set, the hand types' 倍, the fans' names, the extra facts known; the
    room's 财神 rule comes from ``spec_of`` (the variant's, by the 财神 kind and options)."""

    def __init__(
        self,
        variant_id: str,
        name_zh: str,
        players: int,
        hand_size: int,
        calls: tuple[str, ...],
        tile_set: TileSet,
        values: dict[str, int],
        names: dict[str, tuple[str, str]],
        extra_facts: tuple[str, ...],
        liability_claims: int,
        robbing_shares: int,
        spec_of: Callable[[Tile | None, Mapping[str, Any]], WildSpec],
    ) -> None:
        self.variant_id = variant_id
        self.name_zh = name_zh
        self.players = players
        self.hand_size = hand_size
        self.calls = calls
        self.tile_set = tile_set
        self.values = values
        self.names = names
        self.extra_facts = extra_facts
        self.liability_claims = liability_claims
        self.robbing_shares = robbing_shares
        self.spec_of = spec_of
        self.specs: dict[tuple[Tile | None, object], WildSpec] = {}
        self.factors_of: dict[tuple[tuple[str, Any], ...], changzhou_fans.Factors] = {}
        self.last_options: Mapping[str, Any] | None = None
        self.last_factors: changzhou_fans.Factors | None = None
        #: Each fan's FanScore by (id, points, count), made once (a frozen value).
        self.fan_scores: dict[tuple[str, int, int], FanScore] = {}

    def wild_spec(self, caishen: Tile | None, options: Mapping[str, Any]) -> WildSpec:
        """The hand's wilds when ``caishen`` is the 财神 kind (None: no 财神 known), made
        once per kind and ``white_dragon`` option."""
        key = (caishen, options["white_dragon"])
        found = self.specs.get(key)
        if found is None:
            found = self.specs[key] = self.spec_of(caishen, options)
        return found

    def factors(self, options: Mapping[str, Any]) -> changzhou_fans.Factors:
        """The room's numbers for the fans, made once per options object (the default
        options are one object: most calls find it by identity)."""
        last = self.last_factors
        if last is not None and self.last_options is options:
            return last
        key = tuple(options.items())
        found = self.factors_of.get(key)
        if found is None:
            found = self.factors_of[key] = changzhou_fans.Factors(
                self.values,
                caitou=int(options["caitou_factor"]),
                piao=int(options["piao_factor"]),
                single_gap=int(options["single_gap_factor"]),
                last_tiles=int(options["last_tiles_factor"]),
                multiply=options["hand_types"] == "multiply",
            )
        self.last_options = options
        self.last_factors = found
        return found

    def score(self, request: ScoreRequest, options: Mapping[str, Any]) -> ScoreAnswer:
        check_request(request, self.players, self.hand_size, self.calls)
        check_no_flowers(request, self.name_zh)
        check_extra(request, self.variant_id, self.extra_facts)
        extra = request.extra
        caishen = caishen_of(extra)
        if caishen is not None and caishen not in self.tile_set.kind_set:
            raise RequestError(
                f"extra 'wild': {tile_name(caishen)} is not a tile of {self.name_zh}"
            )
        piao = piao_of(extra)
        flags = request.flags
        robbed = flags.robbing_kong
        if request.from_seat is not None and not robbed and not options["discard_win"]:
            return ScoreAnswer(legal=False, reason=NO_DISCARD_WIN)
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
        players = self.players
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
        fans = tuple([self.fan(f, points, count) for f, points, count in result.fans])
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

    def fan(self, fan_id: str, points: int, count: int) -> FanScore:
        key = (fan_id, points, count)
        found = self.fan_scores.get(key)
        if found is None:
            name_zh, name_en = self.names[fan_id]
            found = FanScore(fan_id, name_zh, name_en, points, count)
            self.fan_scores[key] = found
        return found

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
        players = self.players
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


def caishen_of(extra: Mapping[str, Any]) -> Tile | None:
    """The 财神 kind ``extra.wild`` lists (None: none known)."""
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


def piao_of(extra: Mapping[str, Any]) -> int:
    """The 财飘 stages ``extra.piao`` counts (0-3)."""
    raw = extra.get("piao", 0)
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= MAX_PIAO:
        raise RequestError(
            "extra 'piao' is how many 财神 were discarded in 财头 state before the win (财飘: 0-3)"
        )
    return raw
