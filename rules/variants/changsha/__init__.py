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
WHOLE_HAND = changsha_fans.WHOLE_HAND_KINDS
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

    def mid_game_kinds(self, options: Options) -> dict[str, str]:
        """The opening wins that may also be formed and shown in play (中途四喜 / 中途六六顺,
        their TOML's ``during``), when the room plays them (option ``mid_game_wins``)."""
        if not options["mid_game_wins"]:
            return {}
        return {
            kind: variant
            for kind, variant in self.opening_kinds(options).items()
            if "during" in self.start_kinds[kind]
        }


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
        #: Every opening win paid: (seat, kind, dice), one entry per instance.
        self.start_wins: list[tuple[int, str, tuple[int, ...]]] = []
        #: The tile kinds each seat has shown for each kind of opening win, so that a win
        #: formed in play (中途) is not one shown before.
        self.shown: dict[tuple[int, str], set[Tile]] = {}

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
        seat = event.seat
        if event.during:
            kinds = self.changsha.mid_game_kinds(table.options)
            if not kinds:
                raise table.fail(event, "this room plays no 中途 wins (option mid_game_wins)")
            if not table.discard_count:
                raise table.fail(event, "a 中途 win is formed in play, after the first discard")
            if table.phase is not Phase.ACT or seat != table.turn or table.drawn is None:
                raise table.fail(event, "a 中途 win is shown on the seat's turn, after its draw")
        else:
            if table.discard_count or table.calls or table.wins:
                raise table.fail(event, "opening wins (起手胡) are shown before the first discard")
            kinds = self.changsha.opening_kinds(table.options)
        if event.win_kind not in kinds:
            known = ", ".join(kinds)
            raise table.fail(event, f"no opening win {event.win_kind!r} here (this room: {known})")
        shown_before = self.shown.setdefault((seat, event.win_kind), set())
        if shown_before and not event.during:
            raise table.fail(event, f"seat {seat} has already shown {event.win_kind}")
        hand = table.seats[seat].hand
        shown = counts(event.tiles)
        if any(shown[t] > hand[t] for t in range(len(hand))) or not event.tiles:
            raise table.fail(event, f"seat {seat} must show tiles it holds")
        data = self.changsha.start_kinds[event.win_kind]
        name = str(data["during"]) if event.during else str(data["name_zh"])
        if event.during and not shown[table.drawn or 0]:
            raise table.fail(event, f"{name} is formed by the tile just drawn, which it shows")
        again = sorted(t for t in shown_before if shown[t])
        if again:
            raise table.fail(event, f"{name}: {tile_names(again)} shown before count once")
        whole = event.win_kind in WHOLE_HAND
        if whole and shown != hand:
            raise table.fail(event, f"{name} is shown with the whole hand")
        detector = changsha_fans.OPENING[event.win_kind]
        if detector(hand if whole else shown, kinds[event.win_kind]) is None:
            raise table.fail(event, f"the tiles shown are not {name} ({event.win_kind})")
        if table.options["start_win_birds"] == "dice" and not event.dice:
            raise table.fail(
                event, 'start_win_birds = dice: the start_win carries its dice ({"dice": [d1, d2]})'
            )
        instances = changsha_fans.opening_instances(
            event.win_kind, hand if whole else shown, kinds[event.win_kind]
        )
        if table.options["start_win_count"] == "once_per_kind":
            instances = 1
        self.start_wins += [(seat, event.win_kind, event.dice)] * instances  # each one is paid
        shown_before.update(t for t in range(len(shown)) if shown[t])
        if instances > 1:
            table.notes.append(f"start_win_instances:{event.win_kind}")
        table.notes.append(f"start_win{'_during' if event.during else ''}:{event.win_kind}")

    def opening_wins(self, seat: int) -> list[tuple[str, tuple[Tile, ...]]]:
        """The opening wins ``seat`` can show now: before the first discard those of the
        opening hand; in play (its turn, after its draw) the 中途 ones the tile just drawn
        formed, of tiles it has not shown for that kind before."""
        table = self.table
        hand = table.seats[seat].hand
        during = table.discard_count > 0
        if during:
            if table.phase is not Phase.ACT or seat != table.turn or table.drawn is None:
                return []
            kinds = self.changsha.mid_game_kinds(table.options)
        else:
            kinds = self.changsha.opening_kinds(table.options)
        out = []
        for kind, variant in kinds.items():
            before = self.shown.get((seat, kind))
            if before and not during:
                continue
            fresh = [0 if before and t in before else n for t, n in enumerate(hand)]
            tiles = changsha_fans.OPENING[kind](fresh, variant)
            if tiles is not None and (not during or table.drawn in tiles):
                out.append((kind, tiles))
        return out

    def payments(self) -> list[tuple[int, int, int]]:
        """Opening wins (and 中途 ones), each instance a small self-draw paid by every other
        seat; under ``start_win_birds = "dice"`` its two dice are its birds."""
        out = super().payments()
        table = self.table
        options = table.options
        dice_birds = options["start_win_birds"] == "dice"
        bird_mode = BirdMode(options["bird_mode"])
        for seat, _kind, dice in self.start_wins:
            deltas = start_win_deltas(
                table.players,
                seat,
                table.record.dealer,
                int(options["small_self_draw"]),
                dealer_bonus=bool(options["dealer_bonus"]),
                dice=dice if dice_birds else (),
                bird_mode=bird_mode,
            )
            out += [(payer, seat, -d) for payer, d in enumerate(deltas) if d < 0]
        return out
