"""麻将比赛规则 (五番起和): the 5-fan club competition rules of the seed.

136 tiles (no flowers, no 白搭 wilds); a win needs 5 番 (``min_fan``); the seed's 40 番 and
30 番 tiers, the lost tiers below them as options (``fan_*``); 1 chip per 番, doubled for a
self-draw (and 杠上花, 抢杠, 海底捞月) and on every payment the dealer is part of; a win
under the minimum, or a false win, costs the claimant 10 to each other seat; a winning
dealer deals again. ``docs/variants/competition_5fan.md`` says what is sourced.

The digest's worked example: South (seat 1) wins 清一色 on North's discard, the dealer
(East) not involved, no other fan: North pays 30.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "competition_5fan", "seat": 1, "dealer": 0, "from": 3,
...     "hand": "123345678m5m", "melds": [{"kind": "pong", "tiles": "999m", "from": 0}],
...     "win_tile": "5m"})
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(30, ['full_flush'], (0, 30, 0, -30))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Draw, Event
from paipu.rules.fans import check_coverage
from paipu.rules.mechanics.first_turn import first_turn_facts
from paipu.rules.replay import Handler, Phase, VariantState
from paipu.rules.request_checks import check_extra, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.settlement import transfers
from paipu.rules.tiles import Tile, tile_name
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.competition_5fan import fans as five_fans
from paipu.rules.variants.competition_5fan.events import FalseWin
from paipu.rules.variants.competition_5fan.settlement import five_fan_penalty, five_fan_win_deltas

if TYPE_CHECKING:
    from paipu.rules.replay import ComputedWin, HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: The facts a request's ``extra`` may hold: 天胡 / 地胡 (the replay derives them).
EXTRA_FACTS = ("heavenly", "earthly")
#: The fans worth the value of a room option (the tiers the seed lost): id → option.
OPTION_PREFIX = "fan_"


@register
class FiveFanCompetition(Variant):
    """麻将比赛规则 — 5 番 to win, 1 chip per 番, penalties of 10."""

    id = "competition_5fan"

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, five_fans.REGISTRY, self.id)
        self._excludes = {fan.id: fan.excludes for fan in self.spec.fans.fans}
        self._order = {fan.id: fan.index for fan in self.spec.fans.fans}

    # ------------------------------------------------------------------ scoring

    def values(self, options: Options) -> dict[str, int]:
        """Each fan's worth: the seed's, or its room option's for the inferred tiers."""
        return {
            fan.id: int(options.get(OPTION_PREFIX + fan.id, fan.points))
            for fan in self.spec.fans.fans
        }

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        if request.flowers:
            raise RequestError("no flowers in the competition rules (取消花和白搭)")
        check_extra(request, self.id, EXTRA_FACTS)
        facts = {name: request.extra.get(name, False) for name in EXTRA_FACTS}
        if not all(isinstance(v, bool) for v in facts.values()):
            raise RequestError("extra 'heavenly' and 'earthly' are true or false")
        hand = five_fans.FiveFanHand.of(request.hand, request.melds, request.win_tile)
        readings = five_fans.hand_fans(
            hand,
            seat_wind=request.seat_wind_for(spec.players),
            round_wind=request.round_wind,
            honors_in_terminal_pungs=bool(options["terminal_pungs_honors"]),
        )
        if not readings:
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form a winning hand (4 sets and a pair, seven "
                "pairs or thirteen orphans)",
                extra=self._penalty_extra(request.seat, options),
            )
        flags = request.flags
        tags = five_fans.how_won(
            heavenly=facts["heavenly"],
            earthly=facts["earthly"],
            self_drawn=request.self_drawn,
            kong_replacement=flags.kong_replacement,
            robbing_kong=flags.robbing_kong,
            last_tile=flags.last_tile,
        )
        values = self.values(options)
        best: tuple[int, tuple[FanScore, ...]] | None = None
        for _shape, fans in readings:
            counted = self._count([*fans, *tags], values, options)
            total = sum(f.points * f.count for f in counted)
            if best is None or total > best[0]:
                best = (total, counted)
        assert best is not None
        total, counted = best
        doublers = sum(1 for f in counted if f.points == 0)
        doublings = min(doublers, 1) if options["situation_doubles"] == "once" else doublers
        counted_for_minimum = total << doublings if options["minimum_after_doubling"] else total
        minimum = int(options["min_fan"])
        if counted_for_minimum < minimum:
            return ScoreAnswer(
                legal=False,
                total=total,
                fans=counted,
                reason=f"{total} 番: a win needs at least {minimum} (五番才能胡牌); a win "
                f"declared under it costs {options['penalty']} to each other seat",
                extra=self._penalty_extra(request.seat, options),
            )
        deltas = five_fan_win_deltas(
            spec.players,
            request.seat,
            request.from_seat,
            request.dealer,
            fans=total,
            doublings=doublings,
            everyone_pays=options["discard_payer"] == "everyone",
        )
        return ScoreAnswer(
            legal=True,
            total=total,
            fans=counted,
            deltas=deltas,
            extra={"unit": "chips", "doublings": doublings},
        )

    def _penalty_extra(self, seat: int, options: Options) -> Mapping[str, Any]:
        return {"penalty": list(five_fan_penalty(self.spec.players, seat, int(options["penalty"])))}

    def _count(
        self, fans: list[str], values: Mapping[str, int], options: Options
    ) -> tuple[FanScore, ...]:
        """The fans counted: exclusions applied, fans worth 0 in this room dropped (the
        doubling tags kept), at most the three largest with ``fan_count = "three"``."""
        present = set(fans)
        excluded = {x for fan in present for x in self._excludes[fan]}
        kept: dict[str, int] = {}
        for fan in fans:
            if fan not in excluded:
                kept[fan] = kept.get(fan, 0) + 1
        by_id = self.spec.fans.by_id
        scores = [
            FanScore(fan, by_id[fan].name_zh, by_id[fan].name_en, values[fan], count)
            for fan, count in kept.items()
            if values[fan] > 0 or by_id[fan].points == 0
        ]
        scores.sort(key=lambda f: self._order[f.id])
        if options["fan_count"] == "three":
            valued = sorted(
                (f for f in scores if f.points > 0), key=lambda f: (-f.points, self._order[f.id])
            )[:3]
            keep = {f.id for f in valued}
            scores = [f for f in scores if f.id in keep or f.points == 0]
        return tuple(scores)

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> CompetitionState:
        return CompetitionState(table, self)

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """庄家胡牌座庄: a winning dealer deals again; else the deal passes (after a drawn
        hand as ``dealer_on_draw`` says)."""
        options = self.resolve_options(outcome.record.rules)
        if any(w.seat == setup.dealer for w in outcome.wins):
            return setup
        if not outcome.wins and options["dealer_on_draw"] == "stays":
            return setup
        return super().next_setup(setup, outcome)


class CompetitionState(VariantState):
    """The table's part of the rules: 天胡 / 地胡 facts for the scorer, false wins (诈和) and
    their penalties, a dead hand after one, and a false claimant paying for the true winner
    after it on the same discard."""

    def __init__(self, table: Table, variant: FiveFanCompetition) -> None:
        super().__init__(table)
        options = table.options
        self.penalty = int(options["penalty"])
        self.dead_after_false_win = options["false_win_then"] == "dead_hand"
        self.false_claim_pays = bool(options["false_claim_pays_winner"])
        self.dead: set[int] = set()
        self.false_claimants: list[int] = []  # one per false win (诈和)
        self.shifted: list[tuple[int, int, int]] = []  # (false claimant, discarder, amount)
        #: The false win still open on the current discard: (claimant, tile, from_seat).
        self.open_claim: tuple[int, Tile, int] | None = None

    def handlers(self) -> dict[type[Event], Handler]:
        return {FalseWin: self.false_win}

    def after(self, event: Event) -> None:
        if type(event) is Draw:
            self.open_claim = None

    def false_win(self, event: FalseWin) -> None:
        table = self.table
        seat, tile, from_seat = event.seat, event.tile, event.from_seat
        if from_seat is None:
            if table.phase is not Phase.ACT or table.turn != seat or table.drawn != tile:
                raise table.fail(event, f"seat {seat} has not just drawn {tile_name(tile)}")
            hand = table.seats[seat].concealed()
            hand.remove(tile)
        else:
            if (
                table.phase is not Phase.CLAIM
                or table.last_discard != tile
                or table.discarder != from_seat
                or seat == from_seat
            ):
                raise table.fail(
                    event, f"a false win on a discard names the last discard, not {tile_name(tile)}"
                )
            hand = table.seats[seat].concealed()
        flags = table.win_flags(seat, tile, from_seat)
        request = table.request_for(seat, tile, from_seat, flags, hand)
        answer = table.variant.replay_score_request(request, table.options)
        if answer.legal and seat not in self.dead:
            raise table.fail(
                event, "this win is legal: it is declared as a win, not a false win (诈和)"
            )
        self.false_claimants.append(seat)
        table.notes.append("false_win")
        if self.dead_after_false_win:
            self.dead.add(seat)
        if from_seat is not None:
            self.open_claim = (seat, tile, from_seat)

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        if seat in self.dead:
            return (
                f"seat {seat} declared a false win (诈和) this hand: its hand is dead "
                "(false_win_then = dead_hand)"
            )
        return None

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        return flags, first_turn_facts(self.table, seat, from_seat, own_draw=False)

    def after_win(self, win: ComputedWin) -> None:
        claim = self.open_claim
        if (
            self.false_claim_pays
            and claim is not None
            and win.from_seat is not None
            and (claim[1], claim[2]) == (win.tile, win.from_seat)
        ):
            discarder = win.from_seat
            self.shifted.append((claim[0], discarder, -win.deltas[discarder]))
            self.table.notes.append("false_claim_pays_winner")
        self.open_claim = None

    def payments(self) -> list[tuple[int, int, int]]:
        players = self.table.players
        out = [
            (claimant, seat, self.penalty)
            for claimant in self.false_claimants
            for seat in range(players)
            if seat != claimant
        ]
        out += [(claimant, discarder, amount) for claimant, discarder, amount in self.shifted]
        assert sum(transfers(players, out)) == 0
        return out
