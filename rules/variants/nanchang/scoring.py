"""南昌麻将's answer to a score request, compiled (``compiled.txt``): the checks of the
request's facts, the shape the winner gains most from, its fans, payments and the 精's
substitutions.

The variant's class (:class:`~paipu.rules.variants.nanchang.Nanchang`) registers itself with
a class decorator, which mypyc compiles as a plain Python class: it hands every request to a
:class:`Scorer`, made once with the variant's data (the TOML's points, payments and fan
names), so that a score runs compiled from the request to the answer. What the options
decide is read once per options object (:class:`Settings`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from paipu.rules.registry import VariantError
from paipu.rules.request_checks import check_extra, check_no_flowers, check_request
from paipu.rules.score import FanScore, RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.settlement import transfers
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name, tile_names
from paipu.rules.variants.nanchang import fans as nanchang_fans
from paipu.rules.variants.nanchang.fans import Candidate, Jing, NanchangHand, Situation
from paipu.rules.variants.nanchang.settlement import DiscardPays, win_payments

#: The answer of a hand no shape fits.
NOT_A_WIN = (
    "these tiles do not form a winning hand (4 sets and a pair, 七对 or 十三烂), even with "
    "the 精 standing in"
)


class Settings:
    """What a room's options decide for scoring, read once per options object."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.fu_jing = bool(options["fu_jing"])
        self.tian_di_hu: Any = options["tian_di_hu"]
        self.base: Any = options["da_qi_dui_base"]
        self.de_zhong_de_extra = options["de_zhong_de"] == "extra"
        self.discard_pays: Any = options["discard_pays"]
        self.rob_pays_all: Any = options["rob_kong_pays_all"]


class Scorer:
    """The variant's scoring, with its data: the seats, hand size and calls of the request's
    checks, each fan's points and names, the payments' amounts, the extra facts known."""

    def __init__(
        self,
        variant_id: str,
        name_zh: str,
        players: int,
        hand_size: int,
        calls: tuple[str, ...],
        points: dict[str, int],
        payments: dict[str, int],
        names: dict[str, tuple[str, str]],
        extra_facts: tuple[str, ...],
    ) -> None:
        self.variant_id = variant_id
        self.name_zh = name_zh
        self.players = players
        self.hand_size = hand_size
        self.calls = calls
        self.points = points
        self.payments = payments
        self.names = names
        self.extra_facts = extra_facts
        self.de_guo_bonus = payments["de_guo_bonus"]
        self.units_by_base: dict[int, dict[str, int]] = {}
        self.jing_by_key: dict[tuple[tuple[str, ...], int], Jing] = {}
        #: Each fan's FanScore by (id, points), made once (a frozen value).
        self.fan_scores: dict[tuple[str, int], FanScore] = {}
        self.discard_pays: dict[str, DiscardPays] = {}
        self.settings_of: dict[tuple[tuple[str, Any], ...], Settings] = {}
        self.last_options: Mapping[str, Any] | None = None
        self.last_settings: Settings | None = None

    def settings(self, options: Mapping[str, Any]) -> Settings:
        """The options' :class:`Settings` (the default options are one object: most calls
        find them by identity)."""
        last = self.last_settings
        if last is not None and self.last_options is options:
            return last
        key = tuple(options.items())
        found = self.settings_of.get(key)
        if found is None:
            found = self.settings_of[key] = Settings(options)
        self.last_options = options
        self.last_settings = found
        return found

    def units(self, base: Any) -> dict[str, int]:
        """Each fan's points with the room's 大七对 base."""
        value = int(base)
        found = self.units_by_base.get(value)
        if found is None:
            if value < 1:
                raise VariantError(f"option 'da_qi_dui_base' must be at least 1, not {value}")
            found = {**self.points, "big_seven_pairs": value}
            self.units_by_base[value] = found
        return found

    # ------------------------------------------------------------------ the request

    def check(self, request: ScoreRequest) -> None:
        """Raise :class:`RequestError` for seats, tiles, melds and facts that cannot be."""
        check_request(request, self.players, self.hand_size, self.calls)
        check_no_flowers(request, self.name_zh)
        check_extra(request, self.variant_id, self.extra_facts)

    def jing_of(self, request: ScoreRequest, fu_jing: bool) -> Jing:
        """The 精 of ``extra.wild``: [正精, 副精] (one tile under 无下精)."""
        raw = request.extra.get("wild")
        wanted = 2 if fu_jing else 1
        key: tuple[tuple[str, ...], int] | None = None
        if isinstance(raw, list) and all(isinstance(t, str) for t in raw):
            key = (tuple(raw), wanted)
            found = self.jing_by_key.get(key)
            if found is not None:
                return found
        jing = read_jing(raw, wanted)
        if key is not None:
            self.jing_by_key[key] = jing
        return jing

    def situation(self, request: ScoreRequest, tian_di_hu: Any) -> Situation:
        return Situation(
            self_drawn=request.self_drawn,
            kong_bloom=request.flags.kong_replacement,
            robbing_kong=request.flags.robbing_kong,
            heavenly=bool(tian_di_hu and flag_fact(request, "heavenly")),
            earthly=bool(tian_di_hu and flag_fact(request, "earthly")),
            others_hold_jing=others_flag(request),
        )

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Mapping[str, Any]) -> ScoreAnswer:
        self.check(request)
        settings = self.settings(options)
        jing = self.jing_of(request, settings.fu_jing)
        streak = streak_of(request)
        situation = self.situation(request, settings.tian_di_hu)
        hand = NanchangHand.of(request.hand, request.melds, request.win_tile)
        found = nanchang_fans.candidates(hand, jing)
        if not found:
            return ScoreAnswer(legal=False, reason=NOT_A_WIN)
        units = self.units(settings.base)
        first = nanchang_fans.first_turn(situation)
        best_gain = 0
        best: Candidate | None = None
        best_fans: list[tuple[str, int]] = []
        best_payments: list[tuple[int, int, int]] = []
        for candidate in found:
            fans = self.fans_of(candidate, situation, first, units, settings.de_zhong_de_extra)
            u = 1
            for _, points in fans:
                u *= points
            payments = self.win_payments(request, u, candidate.natural, streak, settings)
            gain = 0
            for _, _, amount in payments:
                gain += amount
            if best is None or gain > best_gain:
                best_gain, best, best_fans, best_payments = gain, candidate, fans, payments
        assert best is not None
        total = 1
        for _, points in best_fans:
            total *= points
        deltas = transfers(self.players, best_payments)
        held = jing.spec.held(hand.concealed)
        kinds = [jing.zheng] if jing.fu is None else [jing.zheng, jing.fu]
        extra: dict[str, Any] = {
            "unit": "u",
            "shape": best.shape,
            "de_guo": best.natural,
            "wild": tile_names(kinds),
            "wilds_held": tile_names(held),
            "substitutions": substitutions(hand, jing, best, held),
        }
        if streak > 1:
            extra["streak"] = streak
        if best.natural:
            extra["de_guo_bonus"] = self.de_guo_bonus
        return ScoreAnswer(
            legal=True,
            total=total,
            fans=tuple([self.fan(fan_id, points) for fan_id, points in best_fans]),
            deltas=deltas,
            extra=extra,
        )

    def fans_of(
        self,
        candidate: Candidate,
        situation: Situation,
        first: list[str],
        units: Mapping[str, int],
        de_zhong_de_extra: bool,
    ) -> list[tuple[str, int]]:
        """The fans a candidate counts, each with its points (a base u, then factors)."""
        base = candidate.shape
        if first and units[first[0]] > units[base]:
            base = first[0]
        out = [(base, units[base])]
        for fan_id in nanchang_fans.doublings(candidate, situation):
            if fan_id == "de_zhong_de" and de_zhong_de_extra:
                out.append(("de_guo", units["de_guo"]))
            out.append((fan_id, units[fan_id]))
        return out

    def win_payments(
        self, request: ScoreRequest, u: int, de_guo: bool, streak: int, settings: Settings
    ) -> list[tuple[int, int, int]]:
        return win_payments(
            self.players,
            winner=request.seat,
            dealer=request.dealer,
            from_seat=request.from_seat,
            u=u,
            de_guo=de_guo,
            streak=streak,
            discard_pays=self.discard_pays_of(settings.discard_pays),
            robbed=request.flags.robbing_kong,
            rob_pays_all=settings.rob_pays_all,
            de_guo_bonus=self.de_guo_bonus,
        )

    def discard_pays_of(self, value: Any) -> DiscardPays:
        """The option's :class:`DiscardPays`, made once per value."""
        found = self.discard_pays.get(value) if isinstance(value, str) else None
        if found is None:
            found = DiscardPays(value)
            if isinstance(value, str):
                self.discard_pays[value] = found
        return found

    def fan(self, fan_id: str, points: int) -> FanScore:
        key = (fan_id, points)
        found = self.fan_scores.get(key)
        if found is None:
            name_zh, name_en = self.names[fan_id]
            found = FanScore(fan_id, name_zh, name_en, points, 1)
            self.fan_scores[key] = found
        return found


def read_jing(raw: object, wanted: int) -> Jing:
    """The 精 a request's ``extra.wild`` lists, checked."""
    example = '["3m", "4m"]' if wanted == 2 else '["3m"]'
    if not isinstance(raw, list) or len(raw) != wanted or not all(isinstance(t, str) for t in raw):
        raise RequestError(
            f"extra 'wild' lists the {'正精 and 副精' if wanted == 2 else '正精'} "
            f"(e.g. {example}; fu_jing = {str(wanted == 2).lower()})"
        )
    try:
        tiles = [parse_tile(t) for t in raw]
    except TileError as exc:
        raise RequestError(f"extra 'wild': {exc}") from None
    if any(t not in nanchang_fans.TILE_SET for t in tiles):
        raise RequestError("extra 'wild': the 精 are tiles of the 136-tile set")
    zheng = tiles[0]
    fu = tiles[1] if wanted == 2 else None
    if fu is not None and nanchang_fans.TILE_SET.successor(zheng) != fu:
        follows = tile_name(nanchang_fans.TILE_SET.successor(zheng))
        raise RequestError(
            f"extra 'wild': the 副精 follows the 正精 {tile_name(zheng)} ({follows}), "
            f"not {tile_name(fu)}"
        )
    return Jing.of(zheng, fu)


def streak_of(request: ScoreRequest) -> int:
    """The dealer streak of ``extra.streak`` (1: none)."""
    value = request.extra.get("streak", 1)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RequestError("extra 'streak' is the dealer streak, a whole number (1 = none)")
    return max(value, 1)


def flag_fact(request: ScoreRequest, name: str) -> bool:
    """A true-or-false fact of ``extra`` (false when absent)."""
    value = request.extra.get(name, False)
    if not isinstance(value, bool):
        raise RequestError(f"extra {name!r} is true or false")
    return value


def others_flag(request: ScoreRequest) -> bool:
    """``extra.others_hold_jing`` (true when absent): whether another player holds a 精."""
    value = request.extra.get("others_hold_jing", True)
    if not isinstance(value, bool):
        raise RequestError("extra 'others_hold_jing' is true or false")
    return value


def substitutions(
    hand: NanchangHand, jing: Jing, candidate: Candidate, held: Sequence[Tile]
) -> list[str]:
    """What each 精 ``held`` stood for in one reading of the winning shape ("5z→3m"; "any"
    for a place any tile fills), [] on 德国."""
    if candidate.natural:
        return []
    natural, wilds = jing.spec.split(hand.concealed)
    faces: list[Tile | None] = []
    if candidate.shape == "ping_hu":
        faces += nanchang_fans.standard_faces(natural, wilds) or []
    elif candidate.shape == "big_seven_pairs":
        faces = nanchang_fans.pung_faces(natural, wilds, 4 - hand.melds)
    elif candidate.shape == "small_seven_pairs":
        faces += [t for t, n in enumerate(natural) if n % 2]
    return matched(held, faces)


def matched(held: Sequence[Tile], faces: Sequence[Tile | None]) -> list[str]:
    """Each 精 held with a face it stood for, a 精 standing for its own kind first."""
    left = list(faces)
    out: list[str] = []
    rest: list[Tile] = []
    for wild in held:
        if wild in left:
            left.remove(wild)
            out.append(f"{tile_name(wild)}→{tile_name(wild)}")
        else:
            rest.append(wild)
    for i, wild in enumerate(rest):
        face = left[i] if i < len(left) else None
        out.append(f"{tile_name(wild)}→{'any' if face is None else tile_name(face)}")
    return sorted(out)
