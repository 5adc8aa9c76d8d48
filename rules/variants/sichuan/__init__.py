"""四川麻将 血战到底 (Sichuan): scoring, the 血战 replay and settlement, self-play.

Data — the 108 tiles, the calls, the multiplier tables, kong money, the options — is in
``sichuan.toml``; the hand types are :mod:`paipu.rules.variants.sichuan.fans`; the rules as
implemented are in ``docs/regional.md``.

The digest's worked example: South (void 条) self-draws 清对 with one 根 (×16); East, West
and North each pay 16 + 1 (自摸加底).

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "sichuan", "seat": 1, "dealer": 0,
...     "hand": "222m555m888m3m", "melds": [{"kind": "concealed_kong", "tiles": "9999m"}],
...     "win_tile": "3m", "extra": {"void": "s"}})
>>> answer.legal, answer.total, [(f.id, f.points, f.count) for f in answer.fans]
(True, 16, [('pure_pungs', 8, 1), ('root', 2, 1)])
>>> answer.deltas
(-17, 51, -17, -17)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Draw, Event, Void, Win
from paipu.rules.fans import check_coverage
from paipu.rules.fans.regional import SUIT_LETTERS, RegionalHand, suit, suit_index
from paipu.rules.mechanics.exchange import Exchange, ThreeTileExchange
from paipu.rules.mechanics.first_turn import first_turn_facts
from paipu.rules.mechanics.kong_money import KongMoney
from paipu.rules.mechanics.void_suit import VoidSuits
from paipu.rules.mechanics.winners_play_on import WinnersPlayOn
from paipu.rules.melds import MeldKind
from paipu.rules.replay import ComputedWin, Handler, Phase, VariantState
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import Tile
from paipu.rules.variants import Options, RegionalVariant, register
from paipu.rules.variants.sichuan import fans as sichuan_fans
from paipu.rules.variants.sichuan.settlement import (
    CallTransfer,
    SelfDrawBonus,
    call_transfer_amount,
    call_transfer_kongs,
    sichuan_exhaustive_payments,
    sichuan_win_deltas,
)

if TYPE_CHECKING:
    from paipu.rules.replay import HandOutcome, Table
    from paipu.rules.selfplay import HandSetup

#: The add-ons (根, 杠上开花, …): the fans the hand-type module's ``addons`` detector yields.
ADDONS = frozenset(
    fan
    for fan, detector in sichuan_fans.REGISTRY.items()
    if detector == sichuan_fans.addons.__name__
)
SUIT_NAMES = {"m": "万", "p": "筒", "s": "条"}
ALL_SUITS = 3


@register
class Sichuan(RegionalVariant):
    """四川麻将 血战到底 — void suits, multipliers, kong money, winners leave."""

    id = "sichuan"
    extra_facts = (
        "void",
        "won",
        "kong_discard",
        "fed_by",
        "heavenly",
        "earthly",
        "kong_income",
    )

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, sichuan_fans.REGISTRY, self.id)
        bases = [f for f in self.spec.fans.fans if f.id not in ADDONS]
        self.tables = {
            "pub_sc": {f.id: f.points for f in bases},
            "chengdu_fan": {k: 2 ** int(v) for k, v in self.spec.raw["chengdu_fan"].items()},
        }
        missing = set(self.tables["pub_sc"]) ^ set(self.tables["chengdu_fan"])
        if missing:
            raise ValueError(
                f"sichuan.toml: [chengdu_fan] and the fans differ on {sorted(missing)}"
            )
        self.kong_amounts = {k: int(v) for k, v in self.spec.raw["kong_payments"].items()}

    def scoring(self, options: Options) -> sichuan_fans.Scoring:
        table = options["fan_table"]
        return sichuan_fans.Scoring(
            self.tables[table],
            dragons=table == "pub_sc",
            yao_jiu_jiang_dui=options["yao_jiu_jiang_dui"],
            tian_di_hu=options["tian_di_hu"],
            men_qing_zhong_zhang=options["men_qing_zhong_zhang"],
            hai_di=options["hai_di"],
        )

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        players = self.spec.players
        void, won, fed_by = _facts(request, players)
        incomes = _earthly_and_income(request, options)
        hand = RegionalHand.of(request.hand, request.melds, request.win_tile)
        if len(hand.suits) == ALL_SUITS:
            return ScoreAnswer(
                legal=False, reason="the hand holds all three suits: 缺一门才可胡 (void one suit)"
            )
        if void is not None and hand.holds_suit(void):
            letter = SUIT_LETTERS[void]
            return ScoreAnswer(
                legal=False,
                reason=f"the hand still holds its void suit {SUIT_NAMES[letter]} (定缺 {letter})",
            )
        flags = request.flags
        situation = sichuan_fans.Situation(
            self_drawn=request.self_drawn,
            kong_bloom=flags.kong_replacement,
            kong_discard=self.flag_fact(request, "kong_discard"),
            robbing_kong=flags.robbing_kong,
            last_tile=flags.last_tile,
            heavenly=self.flag_fact(request, "heavenly"),
            earthly=self.flag_fact(request, "earthly"),
        )
        result = sichuan_fans.evaluate(hand, situation, self.scoring(options))
        if result is None:
            return ScoreAnswer(
                legal=False,
                reason="these tiles do not form a winning hand (4 sets and a pair, or seven pairs)",
            )
        cap = int(options["cap"])
        total = min(result.multiplier, cap)
        fans = (
            self._fan(result.base, self.scoring(options).values[result.base], 1),
            *(self._fan(name, sichuan_fans.ADDON_FACTOR, n) for name, n in result.addons),
        )
        deltas = self.win_deltas(request, total, won, fed_by, options)
        extra: dict[str, Any] = {"unit": "×", "multiplier": result.multiplier, "cap": cap}
        if void is not None:
            extra["void"] = SUIT_LETTERS[void]
        if incomes is not None and situation.kong_discard and options["hu_jiao_zhuan_yi"]:
            extra["call_transfer"] = call_transfer_amount(
                incomes, CallTransfer(options["call_transfer"])
            )
        return ScoreAnswer(legal=True, total=total, fans=fans, deltas=deltas, extra=extra)

    def _fan(self, fan_id: str, points: int, count: int) -> FanScore:
        fan = self.spec.fans.by_id[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, points, count)

    def win_deltas(
        self,
        request: ScoreRequest,
        total: int,
        won: Iterable[int],
        fed_by: int | None,
        options: Options,
    ) -> tuple[int, ...]:
        players = self.spec.players
        payer = request.from_seat
        if payer is None and fed_by is not None and options["dian_gang_hua"] == "discard":
            payer = fed_by  # 点杠花 as 点炮: the feeder pays alone
        out = set(won)
        return sichuan_win_deltas(
            players,
            request.seat,
            payer,
            [s for s in range(players) if s != request.seat and s not in out],
            total,
            base=int(options["base"]),
            self_draw_bonus=SelfDrawBonus(options["self_draw_bonus"]),
        )

    # ------------------------------------------------------------------ replay

    def declares_voids(self) -> bool:
        return True

    def exchange_setting(self, options: Options) -> str:
        return str(options["exchange_three"])

    def new_state(self, table: Table) -> SichuanState:
        return SichuanState(table, self)

    # ------------------------------------------------------------------ self-play

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The first winner deals next (the discarder after several wins on one discard);
        after a hand without a win the dealer stays (option ``dealer_rotation``)."""
        options = self.resolve_options(setup.rules)
        if options["dealer_rotation"] == "next_seat":
            return super().next_setup(setup, outcome)
        dealer = setup.dealer
        if outcome.wins:
            first = outcome.wins[0]
            dealer = first.seat
            if len(outcome.wins) > 1:
                second = outcome.wins[1]
                if (
                    first.from_seat is not None
                    and second.index == first.index + 1
                    and (second.from_seat, second.tile) == (first.from_seat, first.tile)
                ):
                    dealer = first.from_seat
        return replace(setup, dealer=dealer)


class SichuanState(VariantState):
    """Sichuan on the table: the void suits (定缺), kong money (刮风下雨, 呼叫转移), 天胡 /
    地胡, and the 血战 flow (the winner leaves, play goes on; the next draw counted from
    the last winner, also after a robbed kong)."""

    def __init__(self, table: Table, variant: Sichuan) -> None:
        super().__init__(table)
        self.sichuan = variant
        self.voids = VoidSuits(table)
        self.exchange = ThreeTileExchange(table, variant.exchange_setting(table.options))
        self.kong_money = KongMoney(table, variant.kong_amounts)
        self.resume_from: int | None = None  # 血战: the next draw is counted from this winner
        #: 血流成河 (option mode = xueliu): the winners play on; None under 血战到底.
        self.play_on = (
            WinnersPlayOn(table, variant.replay_shapes())
            if table.options["mode"] == "xueliu"
            else None
        )

    def handlers(self) -> dict[type[Event], Handler]:
        return {Void: self.voids.declare, Exchange: self.exchange.exchange}

    def before(self, event: Event) -> bool:
        table = self.table
        if table.phase is Phase.ROB and table.robbed_and_won() and type(event) is not Win:
            table.resume_after_rob()
        if table.phase is not Phase.ENDED:
            self.exchange.check_done(event)
            if type(event) is not Exchange:
                self.voids.check_declared(event)
        return False

    def after(self, event: Event) -> None:
        if type(event) is Draw:
            self.resume_from = None

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        play_on = self.play_on
        if play_on is not None:
            problem = play_on.move_problem(seat, kind, tile)
            if problem:
                return problem
        return self.voids.move_problem(seat, kind, tile)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        play_on = self.play_on
        if play_on is not None:
            problem = play_on.discard_problem(seat, tile)
            if problem:
                return problem
        return self.voids.discard_problem(seat, tile)

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        self.kong_money.add(seat, kind, from_seat)

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        table = self.table
        extra: dict[str, Any] = {}
        void = self.voids.letter(seat)
        if void is not None:
            extra["void"] = void
        won = [s for s, st in enumerate(table.seats) if st.won and s != seat]
        if won:
            extra["won"] = won
        if (
            from_seat is not None
            and table.phase is Phase.CLAIM
            and from_seat == table.discarder
            and table.replacement_from_kong
        ):
            extra["kong_discard"] = True
        kongs = self.kong_money.kongs
        if from_seat is None and flags.kong_replacement and kongs:
            kong = kongs[-1]
            if kong.seat == seat and kong.kind is MeldKind.KONG and kong.from_seat is not None:
                extra["fed_by"] = kong.from_seat
        first = first_turn_facts(table, seat, from_seat, own_draw=True)
        if from_seat is not None and table.options["earthly_win"] == "first_draw":
            first.pop("earthly", None)  # 地胡 is a self-draw on one's own first draw
        extra.update(first)
        return flags, extra

    def after_win(self, win: ComputedWin) -> None:
        table = self.table
        if self.play_on is not None:
            self.play_on.won(win)
        table.notes.append("win_while_others_play" if len(table.wins) > 1 else "first_win")
        if len(table.wins) > 1 and table.wins[-2].index == win.index - 1:
            table.notes.append("multiple_win")
        kongs = self.kong_money.kongs
        if any(f.id == "kong_discard" for f in win.fans) and table.options["hu_jiao_zhuan_yi"]:
            assert win.from_seat is not None
            scope = CallTransfer(table.options["call_transfer"])
            moved = call_transfer_kongs(kongs, win.from_seat, scope)
            for i in moved:
                kongs[i] = replace(kongs[i], moved_to=win.seat)
            if moved:
                table.notes.append("hu_jiao_zhuan_yi")
                if len(moved) > 1:
                    table.notes.append("hu_jiao_zhuan_yi:several_kongs")
        if win.from_seat is None and any(f.id == "kong_bloom" for f in win.fans):
            last = kongs[-1] if kongs else None
            if last is not None and last.kind is MeldKind.KONG and last.seat == win.seat:
                table.notes.append(f"dian_gang_hua:{table.options['dian_gang_hua']}")

    def continues_after_win(self, event: Win) -> bool:
        """血战到底: the winner leaves and play goes on until three have won or the wall is
        empty; 血流成河: the winner stays and play goes on until the wall is empty. The next
        draw is by the seat after the winner (after the last of several winners on one
        discard or robbed kong, counted from the discarder)."""
        table = self.table
        players = table.players
        if table.wall.left() == 0:
            return False
        if self.play_on is None and sum(s.won for s in table.seats) >= players - 1:
            return False
        if event.from_seat is None:
            self.resume_from = None
            table.turn = table.next_seat(event.seat)
            table.phase = Phase.DRAW
            table.drawn = None
            return True
        discarder = event.from_seat
        previous = self.resume_from
        farther = (
            previous is None
            or (event.seat - discarder) % players > (previous - discarder) % players
        )
        self.resume_from = event.seat if farther else previous
        return True

    def next_seat(self, after: int | None) -> int | None:
        resume = self.resume_from
        return None if resume is None else self.table.seat_after(resume)

    # ------------------------------------------------------------------ settlement

    def payments(self) -> list[tuple[int, int, int]]:
        """Kong money (呼叫转移 applied) and, when the wall ran out with fewer than three
        winners, 查花猪, 查大叫 and 退税 among the seats still playing."""
        table = self.table
        payments = self.kong_money.transfers()
        won = sorted({w.seat for w in table.wins})  # (under 血流成河 they are still playing)
        if len(won) >= table.players - 1:
            return payments
        options = table.options
        playing = [s for s in range(table.players) if s not in won]
        pigs = [s for s in playing if len(_suits_held(table, s)) == ALL_SUITS]
        ready: dict[int, int] = {}
        for seat in playing:
            if seat not in pigs:
                best = self.best_multiplier(seat)
                if best is not None:
                    ready[seat] = best
        not_ready = [s for s in playing if s not in ready and s not in pigs]
        receivers = list(playing)
        if options["checks_include_winners"]:
            receivers += won
            for win in table.wins:
                ready[win.seat] = win.total
        checks = sichuan_exhaustive_payments(
            pigs, not_ready, ready, receivers, cap=int(options["cap"]), base=int(options["base"])
        )
        refunding = set(not_ready) | (set(pigs) if options["refund_flower_pigs"] else set())
        refunds = [
            (receiver, payer, amount)
            for payer, receiver, amount in payments
            if receiver in refunding
        ]
        for name, present in (
            ("flower_pig", pigs),
            ("cha_da_jiao", not_ready and any(s in ready for s in receivers)),
            ("tax_refund", refunds),
        ):
            if present:
                table.notes.append(name)
        return payments + checks + refunds

    def best_multiplier(self, seat: int) -> int | None:
        """The most a ready seat could win on a discard (查大叫), None when not ready."""
        table = self.table
        best: int | None = None
        s = table.seats[seat]
        other = (seat + 1) % table.players
        void = self.voids.letter(seat)
        for tile in s.waits:
            request = ScoreRequest(
                variant=self.sichuan.id,
                seat=seat,
                dealer=table.record.dealer,
                from_seat=other,
                hand=tuple(s.concealed()),
                melds=tuple(s.melds),
                win_tile=tile,
                extra={"void": void} if void is not None else {},
            )
            answer = self.sichuan.replay_score_request(request, table.options)
            if answer.legal and answer.total is not None:
                best = answer.total if best is None else max(best, answer.total)
        return best


def _facts(request: ScoreRequest, players: int) -> tuple[int | None, tuple[int, ...], int | None]:
    """The void suit, the seats that have left and the 点杠花 feeder from ``extra``."""
    extra = request.extra
    raw = extra.get("void")
    if raw is not None and raw not in SUIT_LETTERS:
        raise RequestError('extra \'void\' is the void suit: "m", "p" or "s"')
    won = extra.get("won", [])
    if not isinstance(won, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in won
    ):
        raise RequestError(f"extra 'won' lists the seats (0-{players - 1}) that have already won")
    if request.seat in won:
        raise RequestError("extra 'won' lists the winner itself")
    fed_by = extra.get("fed_by")
    if fed_by is not None:
        if not isinstance(fed_by, int) or isinstance(fed_by, bool) or not 0 <= fed_by < players:
            raise RequestError("extra 'fed_by' is the seat that fed the kong (点杠花)")
        if not request.self_drawn or not request.flags.kong_replacement:
            raise RequestError("extra 'fed_by' is for a self-draw on a kong replacement (点杠花)")
    return (None if raw is None else suit_index(raw)), tuple(won), fed_by


def _earthly_and_income(request: ScoreRequest, options: Options) -> list[int] | None:
    """Check ``extra.earthly`` against the room's 地胡 (``earthly_win``) and read
    ``extra.kong_income``: the kong money the discarder received per kong, oldest first,
    for the 呼叫转移 of a 杠上炮 (None when absent)."""
    extra = request.extra
    if (
        extra.get("earthly") is True
        and request.from_seat is not None
        and options["earthly_win"] == "first_draw"
    ):
        raise RequestError(
            "extra 'earthly' (地胡) is a self-draw on the seat's own first draw here "
            "(earthly_win = first_draw): leave 'from' out, or play rules.earthly_win = "
            "first_draw_or_first_discard"
        )
    incomes = extra.get("kong_income")
    if incomes is None:
        return None
    if not isinstance(incomes, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in incomes
    ):
        raise RequestError(
            "extra 'kong_income' lists the kong money the discarder received, one amount "
            "(≥ 0) per kong, oldest first"
        )
    if request.from_seat is None or extra.get("kong_discard") is not True:
        raise RequestError(
            "extra 'kong_income' is for a win on a konger's discard (杠上炮): give 'from' and "
            "extra 'kong_discard': true"
        )
    return list(incomes)


def _suits_held(table: Table, seat: int) -> set[int]:
    s = table.seats[seat]
    suits = {suit(t) for t in range(27) if s.hand[t]}
    suits.update(suit(m.base) for m in s.melds)
    return suits
