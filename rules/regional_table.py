"""The replay table of the 108-tile regional games (长沙, 转转, 四川): the mahjong
:class:`~paipu.rules.replay.Table` plus what those games add, kept in one place.

:class:`RegionalTable` keeps the mahjong table's rules and state and adds:

* per-seat facts: the void suits (定缺), the 漏胡 locks of seats that passed a win, the
  opening wins (起手胡) shown;
* money that is not a win: kong payments (杠钱 / 刮风下雨) as they happen, and which of
  them moved (呼叫转移);
* events the mahjong table does not know: birds (扎鸟) after the win, Changsha's kong
  reveal (开杠) and the wins on its two tiles;
* the 血战 flow: after a robbed kong the next draw is an ordinary one, counted from the
  robbers (the variant's ``replay_continues_after_win`` handles wins on a discard or a
  self-draw).

:class:`RegionalVariant` is the base of the three variants: the checks of a score request,
the hooks the table calls (``before_event``, ``after_win``, ``request_extra`` …) and the
shared replay hooks. ``notes`` records each special rule path taken (``kong_payment``,
``missed_win_lock``, …) for ``paipu simulate --stats``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from paipu.rules.events import AddedKong, Bird, Chi, Discard, Draw, Event, Kong, Pong, Win
from paipu.rules.mechanics.birds import bird_seat
from paipu.rules.mechanics.kong_money import kong_payments
from paipu.rules.mechanics.kong_reveal import REVEAL_TILES, KongReveal
from paipu.rules.melds import MeldKind
from paipu.rules.replay import ComputedWin, MissedWin, Phase, Table
from paipu.rules.request_checks import check_request
from paipu.rules.score import RequestError, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name, tile_names
from paipu.rules.variants import Options, Variant

if TYPE_CHECKING:
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import HandOutcome
    from paipu.rules.selfplay import HandSetup

#: Suited tile kinds (the regional games have no honours).
SUITED = 27
#: A lock on every tile (漏胡 in its strict form).
ANY_TILE = -1


@dataclass(frozen=True, slots=True)
class KongRecord:
    """A kong that stood, and the payments it earned (payer, receiver, amount)."""

    index: int
    seat: int
    kind: MeldKind
    from_seat: int | None
    payments: tuple[tuple[int, int, int], ...] = ()
    moved_to: int | None = None  # 呼叫转移: the income went to this winner


@dataclass(frozen=True, slots=True)
class Reveal:
    """The two tiles of a Changsha 开杠, lying on the table until the next draw."""

    index: int
    seat: int
    tiles: tuple[Tile, ...]


class RegionalTable(Table):
    """The mahjong table with the regional games' facts, money and events."""

    def __init__(self, record: HandRecord, variant: RegionalVariant, options: Options) -> None:
        players = len(record.players)
        self.regional = variant
        self.voids: list[int | None] = [None] * players
        self.locks: list[set[Tile]] = [set() for _ in range(players)]
        self.start_wins: list[tuple[int, str]] = []
        self.kongs: list[KongRecord] = []
        self.birds: tuple[Tile, ...] | None = None
        self.reveal: Reveal | None = None
        self.resume_from: int | None = None  # 血战: the next draw is counted from this winner
        self.draw_override: int | None = None  # 要海底: the seat taking the last tile
        self.last_wall_tile: Tile | None = None  # the 海底 tile once the wall is empty
        self.haidi_taker: int | None = None
        self.calls = 0  # chi, pong and kongs declared so far
        self.win_chances: list[tuple[int, Tile]] = []  # legal wins on the tile(s) on offer
        self.notes: list[str] = []
        super().__init__(record, variant, options)

    # ------------------------------------------------------------------ events

    def apply(self, index: int, event: Event) -> None:
        if isinstance(event, Bird):
            self.index = index
            self.regional.replay_birds(self, event)
            return
        if self.reveal is not None and isinstance(event, Win):
            self.index = index
            self._reveal_win(event)
            return
        if self.phase is Phase.ROB and self.robbed_and_won() and not isinstance(event, Win):
            self.resume_after_rob()
        self.index = index
        if self.phase is not Phase.ENDED:
            if self.reveal is not None and isinstance(event, Chi | Pong | Kong):
                raise self.fail(event, "the tiles of a 开杠 may only be won on, not claimed")
            self.regional.before_event(self, event)
        if self.win_chances and not isinstance(event, Win):
            self._lock_passed()
        super().apply(index, event)
        self._after(event)

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        if self.reveal is not None and kind in ("chi", "pong", "kong"):
            return "the tiles of a 开杠 may only be won on, not claimed"
        void = self.voids[seat]
        if void is not None and tile // 9 == void and kind != "chi":
            return (
                f"{tile_name(tile)} is of seat {seat}'s void suit: it may not be "
                "claimed or konged (定缺)"
            )
        if kind == "added_kong" and self.options.get("strict_kongs") and tile != self.drawn:
            return (
                f"a 补杠 is declared on the draw of the fourth tile (过时不候): seat {seat} "
                f"did not just draw {tile_name(tile)}"
            )
        return None

    # ------------------------------------------------------------------ 漏胡

    def note_win_chances(self, from_seat: int, tiles: Iterable[Tile]) -> None:
        """Remember who may win on the tile(s) just offered (a discard, an added kong, the
        tiles of a 开杠): a seat that lets the chance pass is locked (漏胡)."""
        if not self.regional.locks_missed_wins(self.options):
            return
        for tile in dict.fromkeys(tiles):
            for k in range(1, self.players):
                seat = (from_seat + k) % self.players
                if tile not in self.seats[seat].waits or self.seats[seat].won:
                    continue
                if self.reveal is not None:
                    answer = self.reveal_answer(seat, tile, from_seat)
                else:
                    answer = self.would_win(seat, tile, from_seat)
                if answer is not None:
                    self.win_chances.append((seat, tile))

    def _lock_passed(self) -> None:
        strict = self.options["missed_win_lock"] == "any_tile"
        for seat, tile in self.win_chances:
            self.locks[seat].add(ANY_TILE if strict else tile)
            self.notes.append("missed_win_lock")
        self.win_chances = []

    def _after(self, event: Event) -> None:
        if isinstance(event, Discard) or (isinstance(event, AddedKong) and self.phase is Phase.ROB):
            self.note_win_chances(event.seat, (event.tile,))
        if isinstance(event, Draw):
            self.locks[event.seat].clear()
            self.resume_from = None
            self.draw_override = None
            self.reveal = None
            if self.wall.left() == 0:
                self.haidi_taker = event.seat
                self.last_wall_tile = event.tile
        elif isinstance(event, Win):
            self.win_chances = [c for c in self.win_chances if c[0] != event.seat]
            self.regional.after_win(self, self.wins[-1])
        elif type(event).kind in ("chi", "pong", "kong", "added_kong", "concealed_kong"):
            self.calls += 1

    def request_for(
        self,
        seat: int,
        tile: Tile,
        from_seat: int | None,
        flags: WinFlags,
        hand: Sequence[Tile] | None = None,
    ) -> ScoreRequest:
        """The mahjong request, with the facts the variant's scoring needs in ``extra``."""
        request = super().request_for(seat, tile, from_seat, flags, hand)
        flags, extra = self.regional.request_extra(self, seat, tile, from_seat, request.flags)
        if extra or flags is not request.flags:
            return replace(request, flags=flags, extra=extra)
        return request

    # ------------------------------------------------------------------ 血战: robbed kongs

    def robbed_and_won(self) -> bool:
        """Whether the added kong now being offered has been robbed (the 4th copy went to
        a robber, so a konger cannot add that tile again: the check is unambiguous)."""
        if not self.wins:
            return False
        last = self.wins[-1]
        return (
            last.source == "robbing_kong"
            and last.tile == self.robbed_tile
            and last.from_seat == self.turn
        )

    def resume_after_rob(self) -> None:
        """血战: the robbed kong is gone; play goes on as after a discard the robbers took,
        with the next ordinary draw counted from the robbers (``resume_from``)."""
        self.discarder = self.turn
        self.last_discard = self.robbed_tile
        self.phase = Phase.CLAIM
        self.after_kong = False

    # ------------------------------------------------------------------ money

    def add_kong(
        self, seat: int, kind: MeldKind, from_seat: int | None, amounts: Mapping[str, int]
    ) -> None:
        """Record a kong that stood, with its payments (from the seats still playing)."""

        others = [s for s in range(self.players) if s != seat and not self.seats[s].won]
        payments = tuple(kong_payments(seat, kind, from_seat, others, amounts))
        self.kongs.append(KongRecord(self.index, seat, kind, from_seat, payments))
        self.notes.append(f"kong_payment:{kind.value}")

    def kong_transfers(self) -> list[tuple[int, int, int]]:
        """Every kong payment as (payer, receiver, amount), 呼叫转移 applied."""
        out = []
        for kong in self.kongs:
            for payer, receiver, amount in kong.payments:
                out.append(
                    (payer, kong.moved_to if kong.moved_to is not None else receiver, amount)
                )
        return out

    # ------------------------------------------------------------------ 长沙 开杠

    def reveal_kong(self, event: KongReveal) -> None:
        """开杠: two tiles from the end of the wall instead of one replacement draw."""
        seat = event.seat
        if self.phase is Phase.ROB and seat == self.turn:  # nobody robbed the added kong
            self.phase = Phase.REPLACE
            self.variant.replay_kong(self, seat, MeldKind.ADDED_KONG, None)
        if self.phase is not Phase.REPLACE or seat != self.turn or not self.after_kong:
            raise self.fail(event, f"seat {seat} may reveal tiles (开杠) only right after its kong")
        if self.wall.left() < REVEAL_TILES:
            raise self.fail(event, f"开杠 turns up {REVEAL_TILES} tiles; the wall has fewer")
        if not self.seats[seat].waits:
            raise self.fail(event, "开杠 needs a ready hand (听牌) after the kong; 补张 instead")
        problem = self.regional.reveal_problem(self, seat)
        if problem:
            raise self.fail(event, problem)
        s = self.seats[seat]
        for tile in event.tiles:
            expected = self.wall.draw(seat, True)
            assert expected is not None
            if expected >= 0 and expected != tile:
                raise self.fail(
                    event, f"the wall gives {tile_name(expected)} here, not {tile_name(tile)}"
                )
            if tile not in self.tile_kinds:
                raise self.fail(event, f"{tile_name(tile)} is not a tile of {self.variant.id}")
            if expected < 0:
                self._see(tile, event)
            s.pool.append(tile)
            s.discards.append(tile)
            self.visible[tile] += 1
        self.reveal = Reveal(self.index, seat, event.tiles)
        self.after_kong = False
        self.replacement_from_kong = False
        self.drawn = None
        self.discarder = seat
        self.last_discard = event.tiles[-1]
        self.phase = Phase.CLAIM
        self.notes.append("kong_reveal")
        if self.wall.left() == 0:
            self.haidi_taker = seat
            self.last_wall_tile = event.tiles[-1]
        if self.analytics:
            self._reveal_offers(seat, event.tiles)
        self.note_win_chances(seat, event.tiles)

    def _reveal_offers(self, konger: int, tiles: tuple[Tile, ...]) -> None:
        for tile in dict.fromkeys(tiles):
            answer = self.reveal_answer(konger, tile, None)
            if answer is not None:
                self.offers.append(MissedWin(self.index, konger, tile, None, answer.total or 0))
            for k in range(1, self.players):
                other = (konger + k) % self.players
                answer = self.reveal_answer(other, tile, konger)
                if answer is not None:
                    self.offers.append(
                        MissedWin(self.index, other, tile, konger, answer.total or 0)
                    )

    def _reveal_flags(self, tile: Tile, from_seat: int | None) -> WinFlags:
        return WinFlags(
            last_tile=self.variant.replay_last_tile(self, -1, from_seat),
            kong_replacement=from_seat is None,
            last_of_kind=self.visible[tile] - 1 >= 3,
        )

    def reveal_answer(self, seat: int, tile: Tile, from_seat: int | None) -> ScoreAnswer | None:
        s = self.seats[seat]
        if s.won or tile not in s.waits:
            return None
        flags = self._reveal_flags(tile, from_seat)
        answer = self.variant.replay_score(self, seat, tile, from_seat, flags)
        return answer if answer.legal else None

    def _reveal_win(self, event: Win) -> None:
        """A win on a revealed tile: the konger's own (杠上开花) or another's (杠上炮); several
        seats may win on them (通炮), each tile moving to its first winner."""
        reveal = self.reveal
        assert reveal is not None
        seat, tile = event.seat, event.tile
        konger_won = any(w.seat == reveal.seat and w.index > reveal.index for w in self.wins)
        follows = self.index - 1 == reveal.index or (
            bool(self.wins) and self.wins[-1].index == self.index - 1
        )
        if konger_won or self.seats[seat].won or not follows:
            raise self.fail(event, "the hand has already ended")
        if event.from_seat is None and seat != reveal.seat:
            raise self.fail(
                event, f"only seat {reveal.seat} may win by self-draw on its 开杠 tiles"
            )
        if event.from_seat is not None and event.from_seat != reveal.seat:
            raise self.fail(
                event, f"the 开杠 tiles are seat {reveal.seat}'s, not seat {event.from_seat}'s"
            )
        if event.from_seat is None and any(w.index > reveal.index for w in self.wins):
            raise self.fail(event, "another seat has already won on the 开杠 tiles")
        if tile not in reveal.tiles:
            raise self.fail(
                event,
                f"the 开杠 tiles are {' '.join(tile_names(reveal.tiles))}, not {tile_name(tile)}",
            )
        flags = self._reveal_flags(tile, event.from_seat)
        answer = self.variant.replay_score(self, seat, tile, event.from_seat, flags)
        if not answer.legal:
            raise self.fail(event, f"false win (诈和): {answer.reason or answer.error}")
        self.wins.append(
            ComputedWin(
                seat,
                event.from_seat,
                tile,
                answer.total or 0,
                answer.fans,
                answer.deltas or (0,) * self.players,
                flags,
                index=self.index,
                source="self_draw" if event.from_seat is None else "discard",
                detail=dict(answer.extra),
            )
        )
        taken = sum(1 for w in self.wins if w.index > reveal.index and w.tile == tile) > 1
        if not taken:
            pool = self.seats[reveal.seat].pool
            pool.reverse()
            pool.remove(tile)  # the later of two equal tiles
            pool.reverse()
            self.visible[tile] -= 1
            self._give(seat, tile)
        self.seats[seat].won = True
        self.offers = [o for o in self.offers if o.seat != seat]
        self.win_chances = [c for c in self.win_chances if c[0] != seat]
        self.phase = Phase.ENDED
        self.win_phase = None
        self.notes.append("kong_bloom" if event.from_seat is None else "kong_discard_win")
        self.regional.after_win(self, self.wins[-1])

    # ------------------------------------------------------------------ state for scoring

    def first_turn(self) -> bool:
        """Nothing has been claimed or declared yet (天胡 / 地胡)."""
        return self.calls == 0 and not any(s.melds for s in self.seats)


class RegionalVariant(Variant):
    """What the three regional variants share: request checks, table and replay hooks."""

    #: Keys a score request's ``extra`` may hold in this variant.
    extra_facts: tuple[str, ...] = ()

    # ------------------------------------------------------------------ scoring

    def check(self, request: ScoreRequest) -> None:
        """Raise :class:`RequestError` for seats, tiles, melds and facts that cannot be."""
        spec = self.spec
        check_request(request, spec.players, spec.hand_size, spec.calls)
        for tile in (*request.hand, request.win_tile, *(t for m in request.melds for t in m.tiles)):
            if tile >= SUITED:
                raise RequestError(
                    f"{tile_name(tile)} is not a tile of {spec.name_zh}: 108 tiles, 万 筒 条 only"
                )
        if request.flowers:
            raise RequestError(f"{spec.name_zh} has no flowers")
        unknown = sorted(set(request.extra) - set(self.extra_facts))
        if unknown:
            known = ", ".join(self.extra_facts) or "none"
            raise RequestError(
                f"unknown extra fact(s) {', '.join(unknown)} ({self.id} knows {known})"
            )

    @staticmethod
    def birds_of(request: ScoreRequest) -> tuple[Tile, ...]:
        raw = request.extra.get("birds", [])
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise RequestError('extra \'birds\' lists the bird tiles, e.g. ["5m", "3s"]')
        try:
            birds = tuple(parse_tile(t) for t in raw)
        except TileError as exc:
            raise RequestError(f"extra 'birds': {exc}") from None
        if any(t >= SUITED for t in birds):
            raise RequestError("extra 'birds': birds are tiles of the 108-tile set")
        return birds

    @staticmethod
    def flag_fact(request: ScoreRequest, name: str) -> bool:
        value = request.extra.get(name, False)
        if not isinstance(value, bool):
            raise RequestError(f"extra {name!r} is true or false")
        return value

    # ------------------------------------------------------------------ table hooks

    def new_table(self, record: HandRecord, options: Options) -> RegionalTable:
        return RegionalTable(record, self, options)

    def locks_missed_wins(self, options: Options) -> bool:
        """Whether passing a win locks the seat until its next draw (漏胡)."""
        return False

    def before_event(self, table: RegionalTable, event: Event) -> None:
        """Rules an event breaks before the mahjong table looks at it (raise)."""

    def after_win(self, table: RegionalTable, win: ComputedWin) -> None:
        """Effects of a win beside its own deltas (呼叫转移, notes)."""

    def request_extra(
        self, table: RegionalTable, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        """The facts the table adds to a score request: situational flags and ``extra``."""
        return flags, {}

    def reveal_problem(self, table: RegionalTable, seat: int) -> str | None:
        return f"{self.id} has no 开杠 (kong reveal)"

    def reveals(self, options: Options) -> bool:
        """Whether a kong may be followed by a reveal (开杠) instead of a replacement."""
        return False

    def haidi_choice(self, options: Options) -> bool:
        """Whether the last tile is offered in turn and may be declined (要海底)."""
        return False

    def declares_voids(self) -> bool:
        """Whether each seat declares a void suit before play (定缺)."""
        return False

    def opening_wins(self, table: RegionalTable, seat: int) -> list[tuple[str, tuple[Tile, ...]]]:
        """The opening wins (起手胡) a seat can show now, with the tiles it shows."""
        return []

    def bird_count(self, options: Options) -> int:
        """Birds drawn after a win (扎鸟); 0 for none."""
        return 0

    def replay_birds(self, table: RegionalTable, event: Bird) -> None:
        raise table.fail(event, f"{self.id} has no birds (扎鸟)")

    def win_problem(
        self, table: RegionalTable, seat: int, tile: Tile, from_seat: int | None
    ) -> str | None:
        """Why a win the tiles allow is not allowed now (漏胡, a seat that has left)."""
        if table.seats[seat].won:
            return f"seat {seat} has already won"
        if from_seat is not None:
            locks = table.locks[seat]
            if ANY_TILE in locks or tile in locks:
                return (
                    f"seat {seat} passed a win on a discard and may not win on one before its next "
                    "draw (漏胡)"
                )
        return None

    def replay_score(
        self, table: Table, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> ScoreAnswer:
        assert isinstance(table, RegionalTable)
        problem = self.win_problem(table, seat, tile, from_seat)
        if problem:
            return ScoreAnswer(legal=False, reason=problem)
        return super().replay_score(table, seat, tile, from_seat, flags)

    def first_turn_facts(
        self, table: RegionalTable, seat: int, from_seat: int | None, *, own_draw: bool
    ) -> dict[str, bool]:
        """天胡: the dealer wins on its first tiles; 地胡: another seat wins on the dealer's
        first discard (and with ``own_draw`` on its own first draw), nothing claimed yet."""
        dealer = table.record.dealer
        if not table.first_turn() or table.seats[seat].discards:
            return {}
        if seat == dealer:
            first = from_seat is None and table.discard_count == 0 and table.seats[seat].draws == 1
            return {"heavenly": True} if first else {}
        if from_seat is not None:
            if from_seat == dealer and table.discard_count == 1 and table.phase is Phase.CLAIM:
                return {"earthly": True}
            return {}
        return {"earthly": True} if own_draw and table.seats[seat].draws == 1 else {}

    def replay_settle(self, table: Table) -> tuple[int, ...]:
        assert isinstance(table, RegionalTable)
        deltas = list(super().replay_settle(table))
        for payer, receiver, amount in self.hand_payments(table):
            deltas[payer] -= amount
            deltas[receiver] += amount
        return tuple(deltas)

    def hand_payments(self, table: RegionalTable) -> Iterable[tuple[int, int, int]]:
        """Payments of the hand beside its wins: kong money, opening wins, draw checks."""
        return table.kong_transfers()


def suit_letter(suit: int) -> str:
    return "mps"[suit]


class HunanVariant(RegionalVariant):
    """What Changsha and Zhuanzhuan share: birds (扎鸟) after the win, 漏胡 locks, the 海底
    taker, and the deal passing to the winner."""

    def locks_missed_wins(self, options: Options) -> bool:
        return options["missed_win_lock"] != "off"

    def bird_count(self, options: Options) -> int:
        return int(options["birds"])

    def after_win(self, table: RegionalTable, win: ComputedWin) -> None:
        if len(table.wins) > 1:
            table.notes.append("multiple_win")
        if win.flags.robbing_kong:
            table.notes.append("robbing_kong")

    def bird_origin(self, table: RegionalTable, win: ComputedWin) -> int:
        """The seat a bird of rank 1 lands on: the winner or the dealer (option)."""
        return win.seat if table.options["bird_origin"] == "winner" else table.record.dealer

    def win_deltas_of(self, table: RegionalTable, win: ComputedWin) -> tuple[int, ...]:
        """A win's deltas once the birds are known."""
        raise NotImplementedError

    def bird_detail(self, table: RegionalTable, win: ComputedWin) -> dict[str, Any]:
        """The birds for a win's ``detail`` (``wins.detail``): the tiles and the seat each
        lands on, counted from this win's origin (the reports show whom they hit)."""

        birds = table.birds or ()
        origin = self.bird_origin(table, win)
        return {
            "birds": tile_names(birds),
            "bird_seats": [bird_seat(t, origin, table.players) for t in birds],
        }

    def replay_birds(self, table: RegionalTable, event: Bird) -> None:
        """扎鸟: after the win(s) the next tiles of the wall are turned up (not drawn: the
        hand is over); with fewer left, those there are; with none, the 海底 tile."""
        if not table.wins or table.phase is not Phase.ENDED:
            raise table.fail(event, "the birds (扎鸟) are turned up after the win")
        if table.birds is not None:
            raise table.fail(event, "the birds of this hand are already turned up")
        wanted = self.bird_count(table.options)
        if not wanted:
            raise table.fail(event, "this room plays without birds (option birds = 0)")
        left = table.wall.left()
        count = min(wanted, left) if left else 1
        if len(event.tiles) != count:
            raise table.fail(event, f"{count} bird(s) are turned up here, not {len(event.tiles)}")
        if any(t not in table.tile_kinds for t in event.tiles):
            raise table.fail(event, f"birds are tiles of {self.id}")
        if not left:
            if table.last_wall_tile is not None and event.tiles != (table.last_wall_tile,):
                raise table.fail(
                    event,
                    f"with the wall empty the bird is the 海底 tile "
                    f"{tile_name(table.last_wall_tile)}",
                )
        elif table.wall.known_tiles():
            expected = tuple(table.wall.remaining()[:count])
            if expected != event.tiles:
                raise table.fail(
                    event, f"the wall's next tiles are {' '.join(tile_names(expected))}"
                )
        else:
            for tile in event.tiles:
                table._see(tile, event)
        table.birds = event.tiles
        for i, win in enumerate(table.wins):
            table.wins[i] = replace(
                win,
                deltas=self.win_deltas_of(table, win),
                detail={**win.detail, **self.bird_detail(table, win)},
            )
        table.notes.append("birds")

    def replay_settle(self, table: Table) -> tuple[int, ...]:
        assert isinstance(table, RegionalTable)
        if table.wins and self.bird_count(table.options) and table.birds is None:
            raise table.fail(None, "the birds (扎鸟) are missing: a bird event follows the win")
        return super().replay_settle(table)

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The winner deals next; after several wins on one tile (通炮) the discarder; after
        a draw the seat that took the last tile (海底), else the dealer stays."""
        dealer = setup.dealer
        if outcome.wins:
            first = outcome.wins[0]
            several = len({w.seat for w in outcome.wins}) > 1
            dealer = first.from_seat if several and first.from_seat is not None else first.seat
        else:
            taker = haidi_taker(outcome.record, self.spec.hand_size)
            if taker is not None:
                dealer = taker
        return replace(setup, dealer=dealer)


def haidi_taker(record: HandRecord, hand_size: int) -> int | None:
    """The seat that took the last tile of the wall (海底), from the record's events."""
    size = (
        len(record.wall)
        if record.wall is not None
        else SUITED * 4 - hand_size * len(record.players)
    )
    taken = 0
    for event in record.events:
        if isinstance(event, Draw):
            taken += 1
        elif isinstance(event, KongReveal):
            taken += REVEAL_TILES
        else:
            continue
        if taken >= size:
            return event.seat
    return None
