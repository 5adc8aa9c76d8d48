"""常州 / 常山 on the replay table: the 财飘 chains, kong money (连杠), 跟庄, 承包, the wall's
dead stacks and its last four tiles, the dealer's drawn-hand payment.

What the table keeps for the variant (:class:`ChangzhouState`, the variant's
``new_state``), each read by the rules of the seed (../shared/rules/changzhou.md):

* **财飘**: a seat whose 13 tiles before its draw were 财头 (a 财神 and four sets) and that
  then discards a 财神 instead of winning adds a 飘 stage (大宝, 大大宝, 天宝: at most 3);
  any other discard of that seat ends the chain. The stages go into the win's score
  request (``extra.piao``);
* **kong money**: each other seat pays a standing kong (明杠 1, 暗杠 2), doubled for each
  kong of the same seat just before on the same turn's replacement draws (连杠);
* **跟庄**: the dealer's first discard followed by the same tile from the three others in
  turn, with no call in between: the dealer pays each 1;
* **承包**: who claimed how often from whom (``extra.liable`` of a win);
* **the wall**: the live wall ends ``dead_tiles`` before the record's wall (the 10 dead
  stacks); with ``no_kong_left`` live tiles or fewer no kong; a tile drawn from the last
  ``last_tiles`` is laid down as drawn (logged as a discard nobody may claim) unless it
  wins: the seed's "抓牌后不能在出牌。能胡就胡，没人胡就流局";
* **流局**: the dealer pays each other seat (庄家赔付); kong money and 跟庄 stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Chi, Discard, Draw, Event, Indicator, Kong, Pong
from paipu.rules.mechanics.wilds import ROLE, Wilds, route_indicator, wild_rule
from paipu.rules.melds import MeldKind
from paipu.rules.replay import ComputedWin, Handler, Phase, VariantState
from paipu.rules.tiles import Tile, tile_name
from paipu.rules.variants.changzhou import fans as changzhou_fans
from paipu.rules.variants.changzhou.settlement import (
    Payment,
    drawn_hand_payments,
    follow_dealer_payments,
    kong_payments,
    liable_seats,
)

if TYPE_CHECKING:
    from paipu.rules.replay import Table
    from paipu.rules.score import WinFlags
    from paipu.rules.variants.changzhou import Changzhou

MAX_PIAO = 3
_KONGS = frozenset({"kong", "added_kong", "concealed_kong"})
_CLAIMS = frozenset({"kong", "pong", "chi", "win"})


class ChangzhouState(VariantState):
    """The table state of 常州 / 常山 (see the module)."""

    def __init__(self, table: Table, variant: Changzhou) -> None:
        super().__init__(table)
        self.variant = variant
        #: The 财神: the indicator event, ``Table.wilds`` (rules/mechanics/wilds.py).
        self.wilds = Wilds(table, wild_rule(variant, table.options))
        players = table.players
        #: 财飘 stages per seat, and whether its 13 tiles were 财头 before its last draw.
        self.piao = [0] * players
        self.caitou_before = [False] * players
        #: ``claims[a][b]``: how many times seat ``a`` claimed (吃 / 碰 / 明杠) from ``b``.
        self.claims = [[0] * players for _ in range(players)]
        self.kong_payments: list[Payment] = []
        self.kong_chain = 0  # kongs the seat on turn has made on this turn's replacements
        #: 跟庄: the dealer's first discard, how many of the first discards were it, whether
        #: a call or another tile broke the round, whether all four were it.
        self.follow_tile: Tile | None = None
        self.follow_count = 0
        self.follow_broken = False
        self.followed = False

    # ------------------------------------------------------------------ events

    def handlers(self) -> dict[type[Event], Handler]:
        return {Indicator: route_indicator(self.table, {ROLE: self.wilds.reveal})}

    def before(self, event: Event) -> bool:
        self.wilds.before(event)
        if type(event) is Draw:
            seat = event.seat  # type: ignore[attr-defined]
            self.caitou_before[seat] = self._caitou(seat)
        return False

    def after(self, event: Event) -> None:
        event_type = type(event)
        table = self.table
        if event_type is Discard:
            self._discarded(event.seat, event.tile)  # type: ignore[attr-defined]
        elif event_type is Chi or event_type is Pong or event_type is Kong:
            discarder = table.seats[event.seat].melds[-1].from_seat  # type: ignore[attr-defined]
            if discarder is not None:
                self.claims[event.seat][discarder] += 1  # type: ignore[attr-defined]
            if not self.followed:
                self.follow_broken = True  # a call in the first go-round: no 跟庄
        elif event_type is Draw and not table.replacement_from_kong:
            self.kong_chain = 0

    def _discarded(self, seat: int, tile: Tile) -> None:
        table = self.table
        wilds = table.wilds
        if wilds is not None and wilds.is_wild(tile) and self.caitou_before[seat]:
            if table.drawn is not None and self.piao[seat] < MAX_PIAO:
                self.piao[seat] += 1
                table.notes.append(f"cai_piao:{self.piao[seat]}")
        else:
            self.piao[seat] = 0
        self.caitou_before[seat] = False
        self._follow(seat, tile)

    def _follow(self, seat: int, tile: Tile) -> None:
        """跟庄: the first four discards, the dealer's then each other seat's in turn, all the
        same tile and no call (吃碰杠, a concealed kong too) before them."""
        table = self.table
        if self.follow_broken or self.followed:
            return
        if table.calls:
            self.follow_broken = True
            return
        if self.follow_count == 0:
            self.follow_tile = tile
        elif tile != self.follow_tile:
            self.follow_broken = True
            return
        self.follow_count += 1
        if self.follow_count == table.players:
            self.followed = True
            table.notes.append("follow_dealer")

    def _caitou(self, seat: int) -> bool:
        """Whether ``seat``'s 13 tiles are 财头 now (a 财神 and four sets)."""
        table = self.table
        wilds = table.wilds
        if wilds is None or not wilds.tiles:
            return False
        s = table.seats[seat]
        hand = s.hand
        if not any(hand[t] for t in wilds.tiles):
            return False
        return changzhou_fans.caitou(hand, wilds)

    # ------------------------------------------------------------------ rules

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        left = self.table.wall.left()
        variant = self.variant
        if kind in _CLAIMS and kind != "win" and left < variant.last_tiles:
            return "a tile drawn from the last four (海底) is laid down, not claimed (seed §8)"
        if kind in _KONGS and left <= variant.no_kong_left:
            return (
                f"no kong with {left} live tiles left: none at 13 stacks or fewer before the "
                "dead wall (seed §8: 剩下十二墩在加一个或整十三墩的时候，不能杠)"
            )
        return None

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        table = self.table
        drawn = table.drawn
        if drawn is not None and table.wall.left() < self.variant.last_tiles and tile != drawn:
            return (
                f"a tile drawn from the last four (海底) cannot be played: win on it or lay "
                f"{tile_name(drawn)} down as drawn (seed §8: 抓牌后不能在出牌)"
            )
        return None

    def win_problem(self, seat: int, tile: Tile, from_seat: int | None) -> str | None:
        table = self.table
        if (
            from_seat is not None
            and table.phase is not Phase.ROB
            and not table.options["discard_win"]
        ):
            return "no win on a discard: 自摸胡 and 抢杠胡 only (seed §3; option discard_win)"
        return None

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        extra: dict[str, Any] = self.wilds.extra()
        if self.piao[seat] and from_seat is None:
            extra["piao"] = self.piao[seat]
        liable = liable_seats(self.claims, seat, self.variant.liability_claims)
        if liable:
            extra["liable"] = liable
        return flags, extra

    def on_kong(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        table = self.table
        chain = self.kong_chain if table.replacement_from_kong and table.turn == seat else 0
        if kind is MeldKind.KONG:
            chain = 0
        variant = self.variant
        self.kong_payments.extend(
            kong_payments(
                table.players,
                seat,
                kind.value,
                chain,
                variant.kong_amounts,
                variant.chain_factor,
                int(table.options["base"]),
            )
        )
        self.kong_chain = chain + 1
        table.notes.append(f"kong_payment:{kind.value}")
        if chain:
            table.notes.append("lian_gang")

    def after_win(self, win: ComputedWin) -> None:
        notes = self.table.notes
        if win.flags.robbing_kong:
            notes.append("robbing_kong")
        if "liable" in win.detail:
            notes.append("liability")

    def payments(self) -> list[tuple[int, int, int]]:
        table = self.table
        base = int(table.options["base"])
        variant = self.variant
        out = list(self.kong_payments)
        dealer = table.record.dealer
        if self.followed:
            out += follow_dealer_payments(table.players, dealer, variant.follow_dealer * base)
        if not table.wins:
            out += drawn_hand_payments(table.players, dealer, variant.drawn_dealer * base)
            table.notes.append("drawn_dealer_pays")
        return out
