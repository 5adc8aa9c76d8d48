"""Self-play for the regional games (长沙, 转转, 四川): the mahjong engine's hand, with the
moves those games add.

:class:`RegionalPlay` is a :class:`~paipu.selfplay.loop.SelfPlayHand` (same deal,
draws, turns, claims and robbed kongs, every event checked by the replay table) whose loop
also plays:

* 定缺 (Sichuan): each seat declares its void suit before the dealer's first draw;
* 起手胡 (Changsha): after the dealer's first draw each seat shows its opening wins;
* 开杠 (Changsha): after a kong a ready player may turn up two tiles instead of drawing
  one, then wins on them (杠上开花) or the others may (杠上炮);
* 要海底 (Changsha): the last tile is offered in turn; nobody may want it;
* 血战 (Sichuan): after a win the hand goes on, also after a robbed kong;
* 扎鸟 (Changsha, Zhuanzhuan): the birds after the win.

Players are :class:`RegionalPlayer`: a mahjong :class:`~paipu.selfplay.loop.Player`
that also chooses a void suit, whether to reveal after a kong and whether to take 海底.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol, cast

from paipu.rules.events import Bird, StartWin, Void, Win
from paipu.rules.mechanics.kong_reveal import REVEAL_TILES, KongReveal
from paipu.rules.replay import HandOutcome, Phase, Table, outcome_of, replay
from paipu.rules.tiles import Tile
from paipu.selfplay.loop import (
    MAX_DEALS,
    MAX_MOVES,
    Claim,
    ClaimKind,
    DeadEndError,
    HandHooks,
    Player,
    SeatView,
    SelfPlayError,
    SelfPlayHand,
    deal_tiles,
)

if TYPE_CHECKING:
    from paipu.rules.selfplay import HandSetup
    from paipu.rules.variants import Options, RegionalVariant


class RegionalPlayer(Player, Protocol):
    """A bot for the regional games: the mahjong decisions and a few more."""

    def void_suit(self, view: SeatView) -> str:
        """定缺: the suit to void, ``m``, ``p`` or ``s``."""
        ...

    def reveal(self, view: SeatView) -> bool:
        """开杠 (turn up two tiles) rather than 补张 after a kong."""
        ...

    def take_haidi(self, view: SeatView) -> bool:
        """要海底: take the last tile of the wall."""
        ...


class RegionalPlay(SelfPlayHand):
    """One hand of a regional game being played."""

    players: Sequence[RegionalPlayer]  # type: ignore[assignment]
    table: Table

    @property
    def regional(self) -> RegionalVariant:
        return cast("RegionalVariant", self.variant)

    def play(self) -> HandOutcome:
        table = self.table
        self._voids()
        first = True
        for _ in range(MAX_MOVES):
            phase = table.phase
            if phase is Phase.ENDED:
                break
            if phase is Phase.DRAW:
                self.draw(table.turn)
                if first:
                    first = False
                    self._start_wins()
            elif phase is Phase.REPLACE:
                if self.variant.replay_exhausted(table):
                    break
                self._replace(table.turn)
            elif phase is Phase.ACT:
                self.turn(table.turn)
            elif phase is Phase.ROB:
                if self.robs():
                    if table.phase is Phase.ROB:  # 血战: the robbers left, play goes on
                        table.resume_after_rob()
                    continue
                self._replace(table.turn)
            elif not self._claim_phase():
                break
        else:
            raise SelfPlayError(f"the hand did not end within {MAX_MOVES} moves")
        self._birds()
        record = replace(self.base, events=tuple(self.events), wall=tuple(self.wall))
        if self.stacked is None:
            return outcome_of(table, record)
        return replay(record, self.variant)

    # -- the phases

    def _claim_phase(self) -> bool:
        """After a discard (or a kong reveal): wins, calls, then the next draw. False when
        the hand is over."""
        table = self.table
        if self.claims_open:
            self.claims_open = False
            if self.claims():
                return True
        wall = table.wall
        assert table.discarder is not None
        following = self.variant.replay_next_seat(table, table.discarder)
        if wall.left() == 1 and self.regional.haidi_choice(table.options):
            for k in range(table.players):
                seat = (following + k) % table.players
                if not table.seats[seat].won and self.players[seat].take_haidi(self.views[seat]):
                    self.draw(seat)
                    return True
            return False  # nobody wants 海底: the hand is drawn
        if self.variant.replay_exhausted(table):
            return False
        self.draw(following)
        return True

    def _replace(self, seat: int) -> None:
        """A kong's replacement draw, or Changsha's 开杠 when the player wants it."""
        table = self.table
        can_reveal = (
            self.regional.reveals(table.options)
            and table.wall.left() >= REVEAL_TILES
            and bool(table.seats[seat].waits)
            and self.regional.reveal_problem(table, seat) is None
        )
        if can_reveal and self.players[seat].reveal(self.views[seat]):
            front = table.wall.size - table.wall.back  # type: ignore[union-attr]
            tiles = tuple(self.wall[front - 1 - k] for k in range(REVEAL_TILES))
            self.apply(KongReveal(seat, tiles))
            self._reveal_wins(seat, tiles)
            return
        self.draw(seat)

    def _reveal_wins(self, konger: int, tiles: tuple[Tile, ...]) -> None:
        table = self.table
        best: tuple[int, Tile] | None = None
        for tile in tiles:
            answer = table.would_win(konger, tile, None)
            if answer is not None and (best is None or (answer.total or 0) > best[0]):
                best = (answer.total or 0, tile)
        if best is not None:
            self.apply(Win(konger, best[1]))
            return
        for k in range(1, table.players):
            other = (konger + k) % table.players
            for tile in dict.fromkeys(tiles):
                if table.would_win(other, tile, konger) is None:
                    continue
                option = Claim(ClaimKind.WIN, (tile,))
                choice = self.players[other].claim(self.views[other], tile, konger, (option,))
                if choice is not None and choice.kind is ClaimKind.WIN:
                    self.apply(Win(other, tile, konger))
                    break

    # -- the regional moves

    def _voids(self) -> None:
        if not self.regional.declares_voids():
            return
        table = self.table
        for k in range(table.players):
            seat = (table.record.dealer + k) % table.players
            self.apply(Void(seat, self.players[seat].void_suit(self.views[seat])))

    def _start_wins(self) -> None:
        table = self.table
        for k in range(table.players):
            seat = (table.record.dealer + k) % table.players
            for kind, tiles in self.regional.opening_wins(table, seat):
                self.apply(StartWin(seat, kind, tiles))

    def _birds(self) -> None:
        table = self.table
        if not table.wins:
            return
        count = self.regional.bird_count(table.options)
        if not count:
            return
        wall = table.wall
        left = wall.left()
        if left:
            front = wall.front  # type: ignore[union-attr]
            birds = tuple(self.wall[front : front + min(count, left)])
        else:
            assert table.last_wall_tile is not None
            birds = (table.last_wall_tile,)
        self.apply(Bird(birds))


def play_hand(
    variant: RegionalVariant,
    options: Options,
    setup: HandSetup,
    rng: random.Random,
    players: Callable[[], Sequence[RegionalPlayer]],
) -> HandOutcome:
    """Deal and play one hand of a regional game (see :func:`paipu.selfplay.loop.play_hand`)."""
    for _ in range(MAX_DEALS):
        deal = deal_tiles(variant, options, setup, rng)
        hand = RegionalPlay(variant, options, setup, deal, players(), HandHooks())
        try:
            return hand.play()
        except DeadEndError:
            continue
    raise SelfPlayError(f"no playable deal in {MAX_DEALS} shuffles")
