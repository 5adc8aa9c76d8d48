"""长沙麻将 (Changsha): scoring, opening wins, 开杠, birds, 海底, self-play.

Data — tiles, calls, the 大胡 table, opening-win kinds, options — is in ``changsha.toml``;
the hand types are :mod:`paipu.rules.variants.changsha.fans`; the rules as implemented are in
``docs/regional.md``.

The digest's worked example (扎2鸟 乘法翻倍, 算庄闲): South wins 清一色碰碰胡 (2 大胡) on the
dealer East's discard; birds 5万 (the winner) and 3条 (North): East pays (12 + 1) × 2.

>>> from paipu.rules.score import score_json
>>> request = {"variant": "changsha", "rules": {"dealer_bonus": True}, "seat": 1,
...     "dealer": 0, "from": 0, "hand": "111m333m555m777m9m", "win_tile": "9m",
...     "extra": {"birds": ["5m", "3s"]}}
>>> answer = score_json(request)
>>> answer.total, [f.id for f in answer.fans], answer.deltas
(12, ['all_pungs', 'full_flush'], (-26, 26, 0, 0))
>>> score_json({**request, "from": None}).deltas
(-26, 98, -24, -48)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from paipu.rules.events import Draw, Event, StartWin
from paipu.rules.fans import check_coverage
from paipu.rules.fans.regional import RegionalHand, is_jiang
from paipu.rules.mechanics.birds import BirdMode
from paipu.rules.mechanics.first_turn import first_turn_facts
from paipu.rules.mechanics.haidi import Haidi
from paipu.rules.mechanics.kong_reveal import KongReveal, KongReveals
from paipu.rules.replay import ComputedWin, Handler, Phase
from paipu.rules.score import FanScore, ScoreAnswer, ScoreRequest, WinFlags
from paipu.rules.tiles import Tile, counts, tile_names
from paipu.rules.variants import HunanState, HunanVariant, Options, VariantError, register
from paipu.rules.variants.changsha import fans as changsha_fans
from paipu.rules.variants.changsha.settlement import changsha_win_deltas, start_win_deltas

if TYPE_CHECKING:
    from paipu.rules.replay import Table

#: Opening wins shown with the whole hand (the others show only their tiles).
WHOLE_HAND = frozenset({"no_258", "missing_suit", "lone_tile"})
JIANG_TILES = tuple(t for t in range(27) if is_jiang(t))


@register
class Changsha(HunanVariant):
    """长沙麻将 — 2/5/8 pairs, 大胡 that stack, opening wins, 开杠, birds."""

    id = "changsha"
    extra_facts = ("birds", "kong_discard", "heavenly", "earthly")

    def __init__(self) -> None:
        super().__init__()
        check_coverage(self.spec.fans, changsha_fans.REGISTRY, self.id)
        self.start_kinds: Mapping[str, Mapping[str, Any]] = self.spec.raw["start_wins"]
        if set(self.start_kinds) != set(changsha_fans.OPENING):
            raise VariantError(
                "changsha.toml: [start_wins] and the opening-win detectors differ on "
                f"{sorted(set(self.start_kinds) ^ set(changsha_fans.OPENING))}"
            )
        self.small_discard = int(self.spec.raw["payments"]["small_discard"])

    # ------------------------------------------------------------------ scoring

    def units(self, options: Options) -> dict[str, int]:
        units = {f.id: f.points for f in self.spec.fans.fans}
        units["luxury_seven_pairs"] = int(options["luxury_seven_pairs"])
        return units

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        self.check(request)
        birds = self.birds_of(request)
        flags = request.flags
        situation = changsha_fans.Situation(
            self_drawn=request.self_drawn,
            last_tile=flags.last_tile,
            kong_bloom=flags.kong_replacement,
            kong_discard=self.flag_fact(request, "kong_discard"),
            robbing_kong=flags.robbing_kong,
            heavenly=self.flag_fact(request, "heavenly"),
            earthly=self.flag_fact(request, "earthly"),
        )
        hand = RegionalHand.of(request.hand, request.melds, request.win_tile)
        units = self.units(options)
        result = changsha_fans.evaluate(
            hand, situation, units, all_melded_jiang=options["all_melded_pair"] == "jiang"
        )
        if not result.legal:
            return ScoreAnswer(legal=False, reason=result.reason)
        big_unit = int(options["big_unit"])
        if result.small:
            total = int(options["small_self_draw"]) if request.self_drawn else self.small_discard
            fans: tuple[FanScore, ...] = (self._fan(changsha_fans.SMALL, total),)
        else:
            fans = tuple(self._fan(f, units[f] * big_unit) for f, _ in result.fans)
            total = sum(f.points for f in fans)
        deltas = self.deltas(request.seat, request.from_seat, request.dealer, total, birds, options)
        extra: dict[str, Any] = {
            "unit": "points",
            "kind": "small" if result.small else "big",
            "big_wins": 0 if result.small else total // big_unit,
        }
        if birds:
            extra["birds"] = tile_names(birds)
        return ScoreAnswer(legal=True, total=total, fans=fans, deltas=deltas, extra=extra)

    def _fan(self, fan_id: str, points: int) -> FanScore:
        fan = self.spec.fans.by_id[fan_id]
        return FanScore(fan.id, fan.name_zh, fan.name_en, points, 1)

    def deltas(
        self,
        seat: int,
        from_seat: int | None,
        dealer: int,
        total: int,
        birds: tuple[Tile, ...],
        options: Options,
    ) -> tuple[int, ...]:
        return changsha_win_deltas(
            self.spec.players,
            seat,
            from_seat,
            dealer,
            total,
            birds=birds,
            bird_mode=BirdMode(options["bird_mode"]),
            dealer_bonus=bool(options["dealer_bonus"]),
            bird_origin=None if options["bird_origin"] == "winner" else dealer,
        )

    def win_deltas_of(
        self, table: Table, win: ComputedWin, birds: tuple[Tile, ...]
    ) -> tuple[int, ...]:
        return self.deltas(
            win.seat, win.from_seat, table.record.dealer, win.total, birds, table.options
        )

    # ------------------------------------------------------------------ replay

    def new_state(self, table: Table) -> ChangshaState:
        return ChangshaState(table, self)

    def replay_waits(self, table: Table, seat: int) -> tuple[Tile, ...]:
        """Shape waits, and every 2/5/8 for a hand of 2/5/8 only (将将胡 needs no shape)."""
        found = super().replay_waits(table, seat)
        s = table.seats[seat]
        if sum(s.hand) != self.spec.hand_size - 3 * len(s.melds):
            return found
        held = [t for t in range(27) if s.hand[t]] + [m.tiles[0] for m in s.melds]
        if all(is_jiang(t) for t in held) and all(len(set(m.tiles)) == 1 for m in s.melds):
            return tuple(sorted({*found, *JIANG_TILES}))
        return found

    def reveals(self, options: Options) -> bool:
        return True

    def reveal_problem(self, table: Table, seat: int) -> str | None:
        if table.options["kong_needs_jiang"] and not any(
            table.seats[seat].hand[t] for t in JIANG_TILES
        ):
            return "开杠需有将: a 开杠 needs a 2, 5 or 8 left in the hand"
        return None

    def haidi_choice(self, options: Options) -> bool:
        return options["haidi"] == "choose"

    # ------------------------------------------------------------------ 起手胡

    def opening_kinds(self, options: Options) -> dict[str, str]:
        """The opening wins this room plays, each with its detector's variant."""
        out = {}
        for kind, data in self.start_kinds.items():
            option = data.get("option")
            value = options[option] if option else True
            if value is False or value == "off":
                continue
            out[kind] = str(options["ban_ban_hu"]) if kind == "no_258" else str(value)
        return out


class ChangshaState(HunanState):
    """Changsha on the table: the Hunan birds and 漏胡 lock, the kong reveal (开杠), 要海底,
    the opening wins (起手胡) shown, 天胡 / 地胡."""

    def __init__(self, table: Table, variant: Changsha) -> None:
        super().__init__(table, variant)
        self.changsha = variant
        self.reveals = KongReveals(
            table, lambda seat: variant.reveal_problem(table, seat), self._won_on_reveal
        )
        self.haidi = Haidi(table, choose=variant.haidi_choice(table.options))
        self.start_wins: list[tuple[int, str]] = []

    def handlers(self) -> dict[type[Event], Handler]:
        return {**super().handlers(), KongReveal: self._reveal, StartWin: self._start_win}

    def before(self, event: Event) -> bool:
        if self.reveals.takes(event):
            return True
        if self.table.phase is not Phase.ENDED:
            self.haidi.before(event)
        return super().before(event)

    def after(self, event: Event) -> None:
        if type(event) is Draw:
            self.reveals.pending = None
            self.haidi.after(event)
        super().after(event)

    def _reveal(self, event: KongReveal) -> None:
        self.reveals.reveal(event)
        if self.lock is not None:
            self.lock.offer(event.seat, event.tiles)

    def _won_on_reveal(self, win: ComputedWin) -> None:
        if self.lock is not None:
            self.lock.won(win.seat)
        self.after_win(win)

    def move_problem(self, seat: int, kind: str, tile: Tile) -> str | None:
        return self.reveals.move_problem(kind)

    def discard_problem(self, seat: int, tile: Tile) -> str | None:
        return self.haidi.discard_problem(seat, tile)

    def win_flags(self, seat: int, tile: Tile, from_seat: int | None) -> WinFlags | None:
        return self.reveals.flags(tile, from_seat)

    def next_seat(self, after: int | None) -> int | None:
        return self.haidi.next_seat()

    def exhausted(self) -> bool | None:
        return self.haidi.exhausted()

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        reveal = self.reveals.pending
        on_reveal = reveal is not None and tile in reveal.tiles
        extra: dict[str, Any] = {}
        if from_seat is None:
            bloom = on_reveal and reveal is not None and reveal.seat == seat
            if flags.kong_replacement != bloom:  # a 补张 replacement is no 杠上开花
                flags = WinFlags(flags.last_tile, bloom, flags.robbing_kong, flags.last_of_kind)
        elif on_reveal and reveal is not None and from_seat == reveal.seat:
            extra["kong_discard"] = True
        extra.update(first_turn_facts(self.table, seat, from_seat, own_draw=False))
        return flags, extra

    def _start_win(self, event: StartWin) -> None:
        table = self.table
        if table.discard_count or table.calls or table.wins:
            raise table.fail(event, "opening wins (起手胡) are shown before the first discard")
        kinds = self.changsha.opening_kinds(table.options)
        if event.win_kind not in kinds:
            known = ", ".join(kinds)
            raise table.fail(event, f"no opening win {event.win_kind!r} here (this room: {known})")
        if (event.seat, event.win_kind) in self.start_wins:
            raise table.fail(event, f"seat {event.seat} has already shown {event.win_kind}")
        hand = table.seats[event.seat].hand
        shown = counts(event.tiles)
        if any(shown[t] > hand[t] for t in range(len(hand))) or not event.tiles:
            raise table.fail(event, f"seat {event.seat} must show tiles it holds")
        name = self.changsha.start_kinds[event.win_kind]["name_zh"]
        whole = event.win_kind in WHOLE_HAND
        if whole and shown != hand:
            raise table.fail(event, f"{name} is shown with the whole hand")
        detector = changsha_fans.OPENING[event.win_kind]
        if detector(hand if whole else shown, kinds[event.win_kind]) is None:
            raise table.fail(event, f"the tiles shown are not {name} ({event.win_kind})")
        self.start_wins.append((event.seat, event.win_kind))
        table.notes.append(f"start_win:{event.win_kind}")

    def opening_wins(self, seat: int) -> list[tuple[str, tuple[Tile, ...]]]:
        table = self.table
        hand = table.seats[seat].hand
        out = []
        for kind, variant in self.changsha.opening_kinds(table.options).items():
            if (seat, kind) in self.start_wins:
                continue
            tiles = changsha_fans.OPENING[kind](hand, variant)
            if tiles is not None:
                out.append((kind, tiles))
        return out

    def payments(self) -> list[tuple[int, int, int]]:
        """Opening wins, each a small self-draw paid by every other seat (no birds: the
        dice that would be their birds are not in the log)."""
        out = super().payments()
        table = self.table
        options = table.options
        for seat, _kind in self.start_wins:
            deltas = start_win_deltas(
                table.players,
                seat,
                table.record.dealer,
                int(options["small_self_draw"]),
                dealer_bonus=bool(options["dealer_bonus"]),
            )
            out += [(payer, seat, -d) for payer, d in enumerate(deltas) if d < 0]
        return out
