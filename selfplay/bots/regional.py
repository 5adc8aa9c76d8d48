"""Bots for the regional games (长沙, 转转, 四川): cheap, rule-abiding, and going for the hand
types their game pays for.

A :class:`RegionalBot` plays one seat through a :class:`~paipu.selfplay.loop.SeatView`.

* **Win** whenever the rules allow it — except that an aggressive Hunan bot lets an early,
  cheap win on a discard pass to wait for a self-draw (which pays every seat); the replay
  then locks it out of discard wins until its next draw (漏胡).
* **定缺** (Sichuan): the suit it holds fewest of (least useful on a tie); it discards that
  suit first, as the rules demand, and never claims it.
* **Discards** lower a *plan distance*, the least over the plans the game pays for of
  ``distance − bonus``: plain shanten (with seven pairs where allowed); one suit (清一色:
  tiles off the suit must go); all pungs (碰碰胡 / 对对胡); seven pairs; in Changsha all
  2/5/8 (将将胡), and a 2/5/8 pair for small wins. Ties go to the least useful tile, or
  for a wary bot the least dangerous. A ready hand keeps the discard with the most live
  waits that are legal wins as the scorer counts them.
* **Calls** (pong, chi in Changsha, kong) when they shorten the plan distance by the
  style's margin; kongs (which earn money in Sichuan and Zhuanzhuan) when they keep the
  shape.
* **开杠** (Changsha): reveals two tiles after a kong when ready; **要海底**: takes the last
  tile when ready (the defaults of :class:`~paipu.selfplay.loop.Player`).
* **Honours and wilds** (the 136-tile games): honours are tiles like any other; with wilds
  (``SeatView.wilds``, fixed or from the indicator) shanten and waits are the core's
  (:mod:`paipu.rules.core.shanten`), so a wild counts as whatever completes the hand; a wild
  is the last tile a bot lets go (it is kept unless the rules force it out), and a ready
  hand keeps the discard with the most live waits, a wild among them where the hand waits
  on one.
* **Defence**, **calls** and **styles** are the shared core's
  (:class:`~paipu.selfplay.bots.core.BotCore`): the same threat and danger model as every
  family, the same safest tile when a bot far from ready folds, the same call decision;
  this module has only the numbers of its styles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from paipu.rules.core import shanten as core_shanten
from paipu.rules.fans.regional import SUIT_LETTERS, SUIT_SIZE, is_jiang
from paipu.rules.legal import Move, MoveKind
from paipu.rules.melds import Meld, MeldKind
from paipu.rules.registry import VariantError
from paipu.rules.selfplay import Style
from paipu.rules.shanten import Shape, shanten, waits
from paipu.rules.tiles import N_KINDS, Tile
from paipu.selfplay.bots.core import (
    THREAT_FLOOR,
    BotCore,
    StyleParams,
    StyleTable,
    call_meld,
    call_used,
    discard_of,
    keep_value,
    least_useful,
)
from paipu.selfplay.loop import SeatView, TurnMoves

if TYPE_CHECKING:
    from paipu.rules.core.wild import WildSpec
    from paipu.rules.variants import Options, Variant

SUITS = 3
COPIES = 4
NO_HONOURS: frozenset[Tile] = frozenset()
#: A bot passes an early cheap discard win only with this many tiles still in the wall...
PASS_TILES_LEFT = 32
#: ... and this many live copies of its waits.
PASS_LIVE_WAITS = 4
#: The kinds of turn move as module names.
_DISCARD = MoveKind.DISCARD
_CONCEALED_KONG, _ADDED_KONG = MoveKind.CONCEALED_KONG, MoveKind.ADDED_KONG
#: A call of a kong that earns money (``likes_kongs``) is made when it keeps the distance.
KONG_GAIN = -0.01
JIANG_PAIR_VALUE = 1.2  # keeping a 2/5/8 pair where small wins need one
OFF_PLAN = 10.0  # among equal distances a tile against the plan goes first
UNUSED = 99.0
WILD_VALUE = 50.0  # a wild is the last tile to let go
#: A bot floats a wild (``float_wilds``) only with this many tiles still in the wall.
FLOAT_TILES_LEFT = 16
#: The tile kinds a bot looks at: the suits and the honours (none held in the 108-tile games).
KINDS = N_KINDS
SUIT_OF = tuple(min(t // SUIT_SIZE, SUITS) for t in range(KINDS))  # honours: 3
JIANG = tuple(t < 27 and is_jiang(t) for t in range(KINDS))


class Plan(StrEnum):
    """A hand type the bot steers towards."""

    PLAIN = "plain"  # whatever the shape gives
    FLUSH = "flush"  # 清一色
    PUNGS = "pungs"  # 碰碰胡 / 对对胡
    PAIRS = "pairs"  # 七对 / 七小对
    JIANG = "jiang"  # 将将胡: every tile a 2, 5 or 8


@dataclass(frozen=True, slots=True)
class BotRules:
    """What the game's rules and payouts mean for a bot."""

    chi: bool = False
    seven_pairs: bool = False
    void: bool = False  # Sichuan 定缺
    jiang_pair: bool = False  # Changsha: a small win needs a 2/5/8 pair
    bonuses: tuple[tuple[Plan, float], ...] = ()  # what each plan is worth, in shanten
    pass_cheap_wins: bool = False  # Hunan: an aggressive bot may let a cheap discard win pass
    cheap_total: int = 1  # a win worth this or less is cheap
    likes_kongs: bool = False  # kongs earn money (Sichuan, Zhuanzhuan)
    open_first: bool = False  # a hand must be open to win (开门): calls that keep pace count
    #: 财飘 (常州): up to this many times a hand, a self-drawn win is let go by discarding a
    #: wild when the hand then still wins on any tile and the wall is long enough.
    float_wilds: int = 0
    #: 跟庄: in the first go-round, follow the dealer's first discard where it costs nothing
    #: (the dealer pays each follower when all three follow).
    follow_dealer: bool = False


#: The styles' numbers for the regional games (:class:`~paipu.selfplay.bots.core.StyleParams`:
#: fold threat, fold distance, fold threat when ready, least call gain, safety weight). A
#: ready hand never folds; an aggressive bot never folds at all.
STYLE_PARAMS: StyleTable = {
    Style.AGGRESSIVE: StyleParams(2.0, 9, 2.0, 0.0, 0.0),
    Style.BALANCED: StyleParams(0.55, 3, 2.0, 0.41, 0.5),
    Style.DEFENSIVE: StyleParams(0.55, 2, 2.0, 0.91, 2.0),
}


def rules_for(variant: Variant, options: Options) -> BotRules:
    """The bot's view of a variant's rules: the ``[bot]`` table of its TOML, whose values
    are the :class:`BotRules` fields; a value ``{option = "name"}`` (or ``{not_option =
    "name"}``) is that option's value (or its negation), ``bonuses`` a table of plan → worth.
    """
    fields: dict[str, Any] = {}
    for name, raw in variant.spec.raw.get("bot", {}).items():
        if name in ("family", "steps"):  # which bots and which moves, not how they play
            continue
        value = raw
        if isinstance(raw, Mapping) and "option" in raw:
            value = bool(options[raw["option"]])
        elif isinstance(raw, Mapping) and "not_option" in raw:
            value = not options[raw["not_option"]]
        elif name == "bonuses":
            value = tuple((Plan(plan), float(worth)) for plan, worth in raw.items())
        fields[name] = value
    try:
        return BotRules(**fields)
    except TypeError as exc:
        raise VariantError(f"{variant.id}.toml [bot]: {exc}") from None


def _off_plan(counts: list[int], tile: Tile, plan: Plan, target: int) -> bool:
    """Whether a tile works against the plan (so that it goes first among equals)."""
    if plan is Plan.FLUSH:
        return SUIT_OF[tile] != target
    if plan is Plan.PUNGS:
        return counts[tile] == 1
    if plan is Plan.PAIRS:
        return counts[tile] in (1, 3)
    if plan is Plan.JIANG:
        return not JIANG[tile]
    return False


class RegionalBot(BotCore):
    """One seat's player for a regional game; see the module docstring."""

    def __init__(self, style: Style, rules: BotRules) -> None:
        super().__init__(style, STYLE_PARAMS[style])
        self.rules = rules
        self.void: int | None = None
        self.legal: dict[tuple[tuple[int, ...], int, Tile], float] = {}
        self.target: tuple[Plan, int] = (Plan.PLAIN, -1)
        #: The hand a call is weighed on, and its melds (:meth:`call_start`).
        self.call_counts: list[int] = []
        self.call_melds: list[Meld] = []
        #: Wilds let go instead of a self-drawn win this hand (``float_wilds``).
        self.floats = 0

    # -- shape, with the hand's wilds (rules/core/) where it has some

    def _shanten(
        self, view: SeatView, counts: list[int], melds: int, shapes: Sequence[Shape] = ()
    ) -> int:
        wilds = view.wilds()
        if wilds is None or wilds.plain:
            return shanten(counts, melds, shapes) if shapes else shanten(counts, melds)
        return core_shanten.shanten(counts, wilds, melds, shapes or (Shape.STANDARD,))

    def _waits(
        self, view: SeatView, counts: list[int], melds: int, shapes: Sequence[Shape]
    ) -> tuple[Tile, ...]:
        wilds = view.wilds()
        if wilds is None or wilds.plain:
            return waits(counts, melds, shapes)
        return core_shanten.waits(counts, wilds, melds, shapes)

    @staticmethod
    def _kept_wilds(wilds: WildSpec | None) -> frozenset[Tile]:
        """The wild kinds the bot keeps (all of them: they complete any shape)."""
        return wilds.tiles if wilds is not None else frozenset()

    # -- the regional decisions

    def exchange_tiles(self, view: SeatView) -> tuple[Tile, ...]:
        """换三张: the three least useful tiles of the suit it would void, among the suits
        held three times or more."""
        hand = view.hand()

        def weight(s: int) -> tuple[int, float]:
            tiles = [t for t in range(s * SUIT_SIZE, (s + 1) * SUIT_SIZE) if hand[t]]
            return sum(hand[t] for t in tiles), sum(keep_value(hand, t, NO_HONOURS) for t in tiles)

        held = [s for s in range(SUITS) if sum(hand[s * SUIT_SIZE : (s + 1) * SUIT_SIZE]) >= 3]
        suit = min(held, key=weight)
        tiles = [t for t in range(suit * SUIT_SIZE, (suit + 1) * SUIT_SIZE) for _ in range(hand[t])]
        tiles.sort(key=lambda t: (keep_value(hand, t, NO_HONOURS), t))
        return tuple(sorted(tiles[:3]))

    def void_suit(self, view: SeatView) -> str:
        hand = view.hand()

        def weight(s: int) -> tuple[int, float]:
            tiles = [t for t in range(s * SUIT_SIZE, (s + 1) * SUIT_SIZE) if hand[t]]
            return sum(hand[t] for t in tiles), sum(keep_value(hand, t, NO_HONOURS) for t in tiles)

        self.void = min(range(SUITS), key=weight)
        return SUIT_LETTERS[self.void]

    def stake(self, view: SeatView, choices: Sequence[int]) -> int:
        """坐庄 / 拉庄, chosen before the tiles are taken (the hand is not seen yet): by the
        player's style, which is what it knows: an aggressive player takes the highest stake
        (坐庄, 拉两庄), a balanced 闲 the lowest above none (拉一庄) and a balanced dealer
        none (it already pays all three), a defensive player none."""
        if self.style is Style.AGGRESSIVE:
            return choices[-1]
        if self.style is Style.BALANCED and view.seat != view.dealer and len(choices) > 1:
            return choices[1]
        return choices[0]

    # -- own turn

    def turn(self, view: SeatView, moves: TurnMoves) -> Move:
        win = moves.self_drawn_win()
        if win is not None:
            floated = self._float_wild(view, moves) if self.rules.float_wilds else None
            return win if floated is None else floated
        listed = moves.listed()
        kongs = [m for m in listed if m.kind is _CONCEALED_KONG or m.kind is _ADDED_KONG]
        discards = [m for m in listed if m.kind is _DISCARD]
        counts = view.hand()
        wilds = view.wilds()
        held = sum(1 for n in counts if n)
        if wilds is not None and not wilds.can_discard:  # the rules keep the wilds in hand
            held -= sum(1 for t in wilds.tiles if t < KINDS and counts[t])
        if kongs and view.drawn is not None and view.seat in view.declared_ready():
            # 听: the hand is locked but a kong that keeps it ready is listed (a chance of 杠开)
            kong = self._kong(view, counts, view.melds(), kongs)
            if kong is not None:
                return kong
        if len(discards) < held:
            # The rules keep some tiles in hand (定缺: the void suit goes first; the 海底
            # tile must go): the least useful of those they let go.
            return least_useful(discards, counts, NO_HONOURS)
        melds = view.melds()
        if view.drawn is not None and kongs:
            kong = self._kong(view, counts, melds, kongs)
            if kong is not None:
                return kong
        tile = self._discard(view, counts, melds)
        return discard_of(discards, tile, counts, NO_HONOURS)

    def _float_wild(self, view: SeatView, moves: TurnMoves) -> Move | None:
        """财飘: the discard of a wild in place of the self-drawn win, when the hand keeps a
        wild and then waits on every tile (it wins on its next draw, for more), the wall
        is long enough and the bot has floated fewer than ``float_wilds`` times."""
        wilds = view.wilds()
        if (
            wilds is None
            or self.floats >= self.rules.float_wilds
            or view.tiles_left() < FLOAT_TILES_LEFT
        ):
            return None
        counts = view.hand()
        melds = view.melds()
        for move in moves.listed():
            tile = move.tiles[0]
            if move.kind is not _DISCARD or tile not in wilds.tiles or counts[tile] < 2:
                continue
            counts[tile] -= 1
            waits_after = self._waits(view, counts, len(melds), self._shapes(melds))
            counts[tile] += 1
            if len(set(waits_after)) >= KINDS:
                self.floats += 1
                return move
        return None

    def _void_tiles(self, counts: list[int]) -> list[Tile]:
        """The tiles of its void suit the bot still holds (it calls nothing until they are
        gone: a strategy, the rules would let it)."""
        if self.void is None:
            return []
        base = self.void * SUIT_SIZE
        return [t for t in range(base, base + SUIT_SIZE) if counts[t]]

    def _kong(
        self, view: SeatView, counts: list[int], melds: Sequence[Meld], kongs: list[Move]
    ) -> Move | None:
        """A listed kong (concealed ones first) that does not raise the shanten."""
        if self._plan_now(counts, melds) is Plan.PAIRS:
            return None
        shapes = self._shapes(melds)
        before = self._best(view, counts, melds)[1]
        for move in kongs:
            tile = move.tiles[0]
            if move.kind is MoveKind.CONCEALED_KONG:
                counts[tile] = 0
                after = self._shanten(view, counts, len(melds) + 1)
                counts[tile] = COPIES
                if after <= before:
                    return move
        for move in kongs:
            tile = move.tiles[0]
            if move.kind is MoveKind.ADDED_KONG:
                counts[tile] -= 1
                after = self._shanten(view, counts, len(melds), shapes)
                counts[tile] += 1
                if after <= before:
                    return move
        return None

    # -- discards

    def _shapes(self, melds: Sequence[Meld]) -> tuple[Shape, ...]:
        if self.rules.seven_pairs and not melds:
            return (Shape.STANDARD, Shape.SEVEN_PAIRS)
        return (Shape.STANDARD,)

    def _effective(self, counts: list[int], melds: Sequence[Meld], plain: int) -> float:
        """The least over the plans of ``distance − bonus`` for a waiting-size hand; a
        plan's distance is how far the hand is from ready under it."""
        suits = [0, 0, 0, 0]
        off_jiang = pairs = triples = units = jiang_pairs = 0
        for tile in range(KINDS):
            n = counts[tile]
            if not n:
                continue
            suits[SUIT_OF[tile]] += n
            units += n >> 1
            if n == 2:
                pairs += 1
            elif n >= 3:
                triples += 1
            if JIANG[tile]:
                if n >= 2:
                    jiang_pairs += 1
            else:
                off_jiang += n
        rules = self.rules
        best = float(plain)
        self.target = (Plan.PLAIN, -1)
        if rules.jiang_pair and not jiang_pairs:
            best = plain + 0.5
        scale = 1.2 if self.style is Style.AGGRESSIVE else 1.0
        meld_suits = {SUIT_OF[m.base] for m in melds}
        chi = any(m.kind is MeldKind.CHI for m in melds)
        total = sum(suits)
        for plan, bonus in rules.bonuses:
            target = -1
            if plan is Plan.FLUSH:
                distance: float = UNUSED
                for s in range(SUITS):
                    if s != self.void and meld_suits <= {s}:
                        here = max(plain, total - suits[s])
                        if here < distance:
                            distance, target = float(here), s
            elif plan is Plan.PUNGS:
                if chi:
                    continue
                pungs = min(len(melds) + triples, 4)
                distance = float(max(plain, 8 - 2 * pungs - min(pairs, 5 - pungs)))
            elif plan is Plan.PAIRS:
                if melds or not rules.seven_pairs:
                    continue
                distance = float(max(plain, 6 - units))
            else:  # JIANG: every tile a 2, 5 or 8, melds included
                if chi or any(not JIANG[m.base] for m in melds):
                    continue
                distance = float(off_jiang)
            if distance < UNUSED and distance - bonus * scale < best:
                best = distance - bonus * scale
                self.target = (plan, target)
        return best

    def _plan_now(self, counts: list[int], melds: Sequence[Meld]) -> Plan:
        return (
            Plan.PAIRS
            if self.rules.seven_pairs and not melds and sum(n // 2 for n in counts) >= 5
            else Plan.PLAIN
        )

    def _best(
        self, view: SeatView, counts: list[int], melds: Sequence[Meld]
    ) -> tuple[float, int, list[tuple[float, float, Tile]]]:
        """The best plan distance after a discard, the least shanten, and every candidate
        as (effective distance, use, tile)."""
        shapes = self._shapes(melds)
        found = []
        least = 99
        best: tuple[float, tuple[Plan, int]] = (UNUSED, (Plan.PLAIN, -1))
        kept = self._kept_wilds(view.wilds())
        for tile in range(KINDS):
            if not counts[tile]:
                continue
            use = keep_value(counts, tile, NO_HONOURS)
            if self.rules.jiang_pair and JIANG[tile] and counts[tile] >= 2:
                use += JIANG_PAIR_VALUE
            if tile in kept:
                use += WILD_VALUE
            counts[tile] -= 1
            plain = self._shanten(view, counts, len(melds), shapes)
            effective = self._effective(counts, melds, plain)
            counts[tile] += 1
            least = min(least, plain)
            if effective < best[0]:
                best = (effective, self.target)
            found.append((effective, use, tile))
        plan, target = best[1]
        rows = sorted(
            (effective, use - (OFF_PLAN if _off_plan(counts, tile, plan, target) else 0.0), tile)
            for effective, use, tile in found
        )
        return best[0], least, rows

    def _discard(self, view: SeatView, counts: list[int], melds: Sequence[Meld]) -> Tile:
        effective, least, rows = self._best(view, counts, melds)
        if least == 0:
            ready = self._ready_choice(view, counts, melds)
            if ready is not None:
                return ready
        threats = self.threats(view)
        params = self.params
        if least >= params.fold_distance and self.threat_level >= params.fold_threat:
            kept = self._kept_wilds(view.wilds())
            tiles = [t for t in range(KINDS) if counts[t]]
            uses = [
                keep_value(counts, t, NO_HONOURS) + (WILD_VALUE if t in kept else 0.0)
                for t in tiles
            ]
            return self.safest(view, tiles, uses, threats)
        best = [row for row in rows if row[0] <= effective + 1e-9]
        if self.rules.follow_dealer:
            follow = self._follow_tile(view, counts)
            if follow is not None and any(t == follow for _, _, t in best):
                return follow
        if params.safety and self.threat_level >= THREAT_FLOOR:
            danger = self.danger(view, [t for _, _, t in best], threats)
            return min(
                zip(best, danger, strict=True), key=lambda r: r[0][1] + params.safety * r[1]
            )[0][2]
        return best[0][2]

    @staticmethod
    def _follow_tile(view: SeatView, counts: list[int]) -> Tile | None:
        """跟庄: in the first go-round, nothing called, the dealer's first discard when the
        bot holds it (a seat after the dealer that has not discarded yet)."""
        dealer = view.dealer
        if view.seat == dealer or view.discards(view.seat):
            return None
        first = view.discards(dealer)
        if len(first) != 1 or any(view.meld_count(s) for s in range(view.players)):
            return None
        return first[0] if counts[first[0]] else None

    def _ready_choice(
        self, view: SeatView, counts: list[int], melds: Sequence[Meld]
    ) -> Tile | None:
        """The discard keeping the most live copies of legal waits."""
        seen = view.seen()
        shapes = self._shapes(melds)
        found: list[tuple[float, Tile]] = []
        for tile in range(KINDS):
            if not counts[tile]:
                continue
            counts[tile] -= 1
            tiles = self._waits(view, counts, len(melds), shapes)
            if tiles:
                key = tuple(counts)
                value = sum(
                    max(0, COPIES - seen[w]) * self._legal(view, key, len(melds), w) for w in tiles
                )
                if value > 0:
                    found.append((value, tile))
            counts[tile] += 1
        if not found:
            return None
        return max(found, key=lambda item: (item[0], -item[1]))[1]

    def _legal(self, view: SeatView, key: tuple[int, ...], melds: int, wait: Tile) -> float:
        """What winning on ``wait`` is worth: its total on a discard, half of it when only a
        self-draw makes it legal, 0 when it is not legal."""
        known = self.legal.get((key, melds, wait))
        if known is None:
            tiles = [t for t in range(KINDS) for _ in range(key[t])]
            answer = view.score_if(tiles, wait, self_drawn=False)
            if answer.legal:
                known = float(answer.total or 1)
            else:
                answer = view.score_if(tiles, wait, self_drawn=True)
                known = 0.5 * (answer.total or 1) if answer.legal else 0.0
            self.legal[key, melds, wait] = known
        return known

    # -- claims (the decision is the core's: :meth:`BotCore.claim`)

    def call_start(self, view: SeatView, tile: Tile) -> float | None:
        counts = view.hand()
        if self._void_tiles(counts):
            return None
        melds = list(view.melds())
        self.call_counts = counts
        self.call_melds = melds
        return self._effective(
            counts, melds, self._shanten(view, counts, len(melds), self._shapes(melds))
        )

    def call_gain(
        self, view: SeatView, option: Move, tile: Tile, from_seat: int, now: float
    ) -> float | None:
        after = self._after_call(view, self.call_counts, self.call_melds, option, tile, from_seat)
        if after is None:
            return None
        gain = now - after
        if option.kind is MoveKind.KONG and self.rules.likes_kongs:
            return gain if gain > KONG_GAIN else None
        if self.rules.open_first and not view.exposed_melds(view.seat):
            return gain if gain >= 0 else None  # 开门: opening the hand is worth a call
        return gain if gain >= self.params.call_gain else None

    def _after_call(
        self,
        view: SeatView,
        counts: list[int],
        melds: list[Meld],
        option: Move,
        tile: Tile,
        from_seat: int,
    ) -> float | None:
        used = call_used(option, tile)
        meld = call_meld(option, tile, from_seat)
        after = counts.copy()
        for t in used:
            after[t] -= 1
        if option.kind is MoveKind.KONG:
            return self._effective(
                after, [*melds, meld], self._shanten(view, after, len(melds) + 1)
            )
        return self._best(view, after, [*melds, meld])[0]

    def passes_win(self, view: SeatView, tile: Tile, from_seat: int) -> bool:
        """An aggressive Hunan bot lets an early cheap discard win pass for a self-draw."""
        if not self.rules.pass_cheap_wins or self.style is not Style.AGGRESSIVE:
            return False
        if view.tiles_left() < PASS_TILES_LEFT:
            return False
        answer = view.claim_answer(tile, from_seat)
        if answer is None or (answer.total or 0) > self.rules.cheap_total:
            return False
        seen = view.seen()
        live = sum(max(0, COPIES - seen[w]) for w in view.waits())
        return live >= PASS_LIVE_WAITS


def make_bots(variant: Variant, options: Options, styles: Sequence[Style]) -> list[RegionalBot]:
    """A bot per seat for a regional variant."""
    rules = rules_for(variant, options)
    return [RegionalBot(style, rules) for style in styles]
