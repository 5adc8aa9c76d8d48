"""The audit of a recorded-only hand (a score sheet row, a 国标小助手 entry): what a club
wrote down, checked against the variant's rules.

With the winner's tiles the hand is rescored as ``paipu score`` does and compared fan by
fan (id, count, points), then the total and the deltas. Without tiles what can be checked
is: each fan's points against the variant's table, no two fans claimed that the variant's
exclusions (不计) forbid together, the minimum (MCR: 8 fan, flowers not counted), the total
against the fans, the deltas against the variant's settlement for that winner, discarder
and total, zero-sum with penalties, and across a sitting: the same players, each hand once
and in order, the running totals.

Every finding is said in Chinese and English. A finding is ``invalid`` when the hand as
claimed cannot be a legal win (tiles that do not win, under the minimum, two winners where
the variant has one), ``mismatch`` when the figures disagree with the rules, ``note`` when
it only informs (it leaves the hand ``ok``).

>>> from paipu.parsers.recorded import recorded_hand
>>> from paipu.rules.record import RecordedFan, RecordedWin
>>> win = RecordedWin(1, 2, None, 70, (RecordedFan("four_concealed_pungs", 64, 1),
...                                     RecordedFan("all_pungs", 6, 1)))
>>> hand = recorded_hand("mcr", "s", 0, ("a", "b", "c", "d"), 0, [win],
...                      (-8, 94, -78, -8), {"format": "score-sheet"})
>>> [f.text for f in audit_recorded(hand).findings]
['四暗刻不计碰碰和 / All Pungs is not counted with Four Concealed Pungs']
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from paipu.parsers.recorded import fan_index, find_fan, recorded_facts, sheet_fans
from paipu.rules.fans import FanDef
from paipu.rules.record import HandRecord, RecordedWin
from paipu.rules.score import ScoreAnswer, score_json
from paipu.rules.tiles import parse_tiles, tile_name
from paipu.rules.variants import Options, Variant, VariantError, get_variant

OK, MISMATCH, INVALID, NOTE = "ok", "mismatch", "invalid", "note"


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the audit found, in words a player understands."""

    kind: str  # fan_points, excluded, minimum, total, settlement, zero_sum, tiles, …
    status: str  # invalid | mismatch | note
    zh: str
    en: str

    @property
    def text(self) -> str:
        return f"{self.zh} / {self.en}"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "status": self.status, "zh": self.zh, "en": self.en}


@dataclass(frozen=True, slots=True)
class RecordedVerdict:
    """The audit of one recorded-only hand."""

    status: str
    findings: tuple[Finding, ...]
    computed: dict[str, Any]

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(f.text for f in self.findings)


@dataclass
class Sittings:
    """What the audit remembers of each sitting (game) to check the hands across it."""

    players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    variants: dict[str, str] = field(default_factory=dict)
    hands: dict[str, set[int]] = field(default_factory=dict)
    totals: dict[str, list[int]] = field(default_factory=dict)

    def check(self, record: HandRecord) -> tuple[list[Finding], list[int] | None]:
        """Findings of ``record`` against the sitting so far, and the running totals after it."""
        game = record.game
        found = []
        if game not in self.players:
            self.players[game] = record.players
            self.variants[game] = record.variant
            self.hands[game] = set()
            self.totals[game] = [0] * len(record.players)
        seen = self.hands[game]
        if record.players != self.players[game]:
            found.append(
                Finding(
                    "sitting",
                    MISMATCH,
                    f"本局玩家{'、'.join(record.players)}与该场首局{'、'.join(self.players[game])}不同",
                    f"the players {', '.join(record.players)} differ from the sitting's "
                    f"{', '.join(self.players[game])}",
                )
            )
        if record.variant != self.variants[game]:
            found.append(
                Finding(
                    "sitting",
                    MISMATCH,
                    f"玩法{record.variant}与该场{self.variants[game]}不同",
                    f"the variant {record.variant} differs from the sitting's "
                    f"{self.variants[game]}",
                )
            )
        if record.hand in seen:
            found.append(
                Finding(
                    "sitting",
                    MISMATCH,
                    f"第{record.hand}盘记了两次",
                    f"hand {record.hand} of the sitting is written twice",
                )
            )
        elif seen and record.hand != max(seen) + 1:
            missing = sorted(set(range(record.hand)) - seen)
            if missing:
                found.append(
                    Finding(
                        "sitting",
                        MISMATCH,
                        f"缺第{_range(missing)}盘，累计分无法核对",
                        f"hand(s) {_range(missing)} missing: the running totals cannot be checked",
                    )
                )
        seen.add(record.hand)
        deltas = record.result.deltas if record.result is not None else None
        totals = self.totals[game]
        if deltas is None or len(deltas) != len(totals):
            return found, None
        for seat, delta in enumerate(deltas):
            totals[seat] += delta
        return found, list(totals)


def audit_recorded(record: HandRecord, sittings: Sittings | None = None) -> RecordedVerdict:
    """Audit one recorded-only hand (see the module's docstring)."""
    findings: list[Finding] = []
    running = None
    if sittings is not None:
        sitting_findings, running = sittings.check(record)
        findings += sitting_findings
    try:
        variant = get_variant(record.variant)
        options = variant.resolve_options(record.rules)
    except VariantError as exc:
        finding = Finding("variant", INVALID, f"玩法有误：{exc}", str(exc))
        return RecordedVerdict(INVALID, (*findings, finding), {})
    facts = recorded_facts(record)
    result = record.result
    n = len(record.players)
    recorded_deltas = result.deltas if result is not None else None
    wins = result.wins if result is not None else ()
    expected: list[int] | None = [0] * n  # the settlement of what was claimed
    answer: list[int] | None = [0] * n  # the rules' answer: the settlement of the rules' total
    computed_wins = []
    if len(wins) > 1 and not variant.spec.multiple_wins:
        findings.append(
            Finding(
                "winners",
                INVALID,
                f"{variant.spec.name_zh}一炮只有一家和（截和），记了{len(wins)}家",
                f"{variant.spec.name_en} has one winner per hand, not {len(wins)}",
            )
        )
    tiles = list(facts.get("tiles") or [])
    tiles += [None] * (len(wins) - len(tiles))
    flowers = list(facts.get("flowers") or [])
    for i, win in enumerate(wins):
        check = _WinCheck(variant, options, record, facts, win)
        if tiles[i] is not None:
            deltas = check.with_tiles(tiles[i])
        else:
            deltas = check.without_tiles(len(flowers[i]) if i < len(flowers) else None)
        findings += check.findings
        computed_wins.append(check.computed)
        expected = _add(expected, deltas)
        answer = _add(answer, check.answer_deltas)
    penalties = facts.get("penalties")
    if penalties:
        expected = _add(expected, penalties)
        answer = _add(answer, penalties)
    if recorded_deltas is not None:
        findings += _check_deltas(record, recorded_deltas, expected)
    statuses = {f.status for f in findings}
    status = INVALID if INVALID in statuses else MISMATCH if MISMATCH in statuses else OK
    computed: dict[str, Any] = {"outcome": result.outcome if result is not None else "draw"}
    if computed_wins:
        computed["wins"] = computed_wins
    computed["deltas"] = answer
    if running is not None:
        computed["running"] = running
    return RecordedVerdict(status, tuple(findings), computed)


def _add(total: list[int] | None, deltas: Sequence[int] | None) -> list[int] | None:
    if total is None or deltas is None:
        return None
    return [t + d for t, d in zip(total, deltas, strict=True)]


def _check_deltas(
    record: HandRecord, recorded: Sequence[int], expected: Sequence[int] | None
) -> list[Finding]:
    total = sum(recorded)
    if total:
        return [
            Finding(
                "zero_sum",
                MISMATCH,
                f"得失{_seats(recorded)}之和为{total:+d}，不为零",
                f"the deltas {_seats(recorded)} sum to {total:+d}, not 0 (penalties included)",
            )
        ]
    if expected is not None and list(recorded) != list(expected):
        return [
            Finding(
                "settlement",
                MISMATCH,
                f"得失{_seats(recorded)}不合计分规则，应为{_seats(expected)}",
                f"the deltas {_seats(recorded)} are not the rules' settlement {_seats(expected)}",
            )
        ]
    return []


class _WinCheck:
    """The checks of one recorded win; ``findings`` and ``computed`` are filled in."""

    def __init__(
        self,
        variant: Variant,
        options: Options,
        record: HandRecord,
        facts: Mapping[str, Any],
        win: RecordedWin,
    ) -> None:
        self.variant = variant
        self.options = options
        self.record = record
        self.facts = facts
        self.win = win
        self.table = variant.spec.fans
        self.findings: list[Finding] = []
        self.computed: dict[str, Any] = {"seat": win.seat}
        #: The rules' answer to this win (nothing paid when it is not a win); None: unknown.
        self.answer_deltas: tuple[int, ...] | None = None
        if win.from_seat is not None:
            self.computed["from"] = win.from_seat

    def add(self, kind: str, status: str, zh: str, en: str) -> None:
        self.findings.append(Finding(kind, status, zh, en))

    # ---------------------------------------------------------------- with tiles

    def with_tiles(self, tiles: Mapping[str, Any]) -> tuple[int, ...] | None:
        """Rescore the tiles and compare; a 国标小助手 claim that disagrees only because
        the app counted with fixed seats (固定, ``fixed_seat_winds``) is a note."""
        deltas = self._with_tiles(tiles)
        fixed = self.facts.get("fixed_seat_winds")
        used = tiles.get("seat_wind")
        if not self.findings or not fixed or fixed[self.win.seat] == used:
            return deltas
        retry = _WinCheck(self.variant, self.options, self.record, self.facts, self.win)
        retry_deltas = retry._with_tiles({**tiles, "seat_wind": fixed[self.win.seat]})
        if retry.findings:
            return deltas
        self.findings = []
        self.computed, self.answer_deltas = retry.computed, retry.answer_deltas
        wind = "东南西北"[parse_tiles(fixed[self.win.seat])[0] - 27]
        self.add(
            "seat_mode",
            NOTE,
            f"按固定座位（门风{wind}）计番则无误，不是错误",
            f"the claim agrees with the tiles counted with fixed seats (固定, seat wind "
            f"{fixed[self.win.seat]}), the app's other seat mode: not an error",
        )
        return retry_deltas

    def _with_tiles(self, tiles: Mapping[str, Any]) -> tuple[int, ...] | None:
        record, win = self.record, self.win
        request = {
            "variant": record.variant,
            "rules": dict(record.rules),
            "seat": win.seat,
            "dealer": record.dealer,
            "from": win.from_seat,
            "round_wind": tiles.get("round_wind", tile_name(record.round_wind)),
            "seat_wind": tiles.get("seat_wind", tile_name(record.seat_wind(win.seat))),
            **{k: v for k, v in tiles.items() if k not in ("round_wind", "seat_wind")},
        }
        answer = score_json(request)
        if answer.error is not None:
            self.add(
                "tiles",
                INVALID,
                f"和牌记录有误：{answer.error}",
                f"the winner's tiles cannot be scored: {answer.error}",
            )
            return None
        self.computed["tiles"] = True
        self.computed["fans"] = [[f.id, f.points, f.count] for f in answer.fans]
        self.computed["total"] = answer.total
        if not answer.legal:
            self.answer_deltas = (0,) * len(record.players)
            self.add(
                "tiles",
                INVALID,
                f"这手牌不能和：{answer.reason}",
                f"the tiles are not a legal win: {answer.reason}",
            )
            return None
        self.answer_deltas = answer.deltas
        self._compare_fans(answer)
        if win.total is not None and win.total != answer.total:
            self.add(
                "total",
                MISMATCH,
                f"合计记{win.total}，按牌应为{answer.total}",
                f"the total is {win.total}; the tiles give {answer.total}",
            )
        return answer.deltas

    def _compare_fans(self, answer: ScoreAnswer) -> None:
        claimed = {f.id: f for f in self.win.fans}
        rules = {f.id: f for f in answer.fans}
        complete = bool(self.facts.get("fans_complete", True))
        for fan_id, fan in claimed.items():
            name = self._fan(fan_id)
            got = rules.get(fan_id)
            if got is None:
                self.add(
                    "fan_claimed",
                    MISMATCH,
                    f"记了{name.name_zh}（{fan.points}番），牌中没有",
                    f"{name.name_en} ({fan.points}) is claimed but the tiles do not give it",
                )
                continue
            if got.count != fan.count:
                self.add(
                    "fan_count",
                    MISMATCH,
                    f"{name.name_zh}应计{got.count}次，记了{fan.count}次",
                    f"{name.name_en} counts {got.count}×, claimed {fan.count}×",
                )
            if got.points != fan.points:
                self.add(
                    "fan_points",
                    MISMATCH,
                    f"{name.name_zh}是{got.points}番，不是{fan.points}番",
                    f"{name.name_en} is worth {got.points}, not {fan.points}",
                )
        if not complete:
            return
        for fan_id, got in rules.items():
            if fan_id not in claimed:
                self.add(
                    "fan_missing",
                    MISMATCH,
                    f"漏记{got.name_zh}（{got.points}番 ×{got.count}）",
                    f"{got.name_en} ({got.points} ×{got.count}) is not claimed but the "
                    "tiles give it",
                )

    # ------------------------------------------------------------- without tiles

    def without_tiles(self, flowers: int | None) -> tuple[int, ...] | None:
        win, table = self.win, self.table
        points = _priced_points(self.variant.id, self.options)
        exclusions = exclusions_of(self.variant.id)
        rules_fans = []
        for fan in win.fans:
            fan_def = table.by_id[fan.id]
            worth = points(fan_def)
            if worth is not None and worth != fan.points:
                self.add(
                    "fan_points",
                    MISMATCH,
                    f"{fan_def.name_zh}是{worth}番，不是{fan.points}番",
                    f"{fan_def.name_en} is worth {worth}, not {fan.points}",
                )
            if fan.count > 1 and not fan_def.repeatable:
                self.add(
                    "fan_count",
                    MISMATCH,
                    f"{fan_def.name_zh}只计一次，记了{fan.count}次",
                    f"{fan_def.name_en} counts once, not {fan.count} times",
                )
            rules_fans.append([fan.id, fan.points if worth is None else worth, fan.count])
        claimed = [f.id for f in win.fans]
        not_counted: set[str] = set()  # the rules' answer drops a fan another one excludes
        for a in claimed:
            for b in claimed:
                if b in exclusions.get(a, ()) and a not in not_counted:
                    fa, fb = table.by_id[a], table.by_id[b]
                    not_counted.add(b)
                    self.add(
                        "excluded",
                        MISMATCH,
                        f"{fa.name_zh}不计{fb.name_zh}",
                        f"{fb.name_en} is not counted with {fa.name_en}",
                    )
        rules_fans = [f for f in rules_fans if f[0] not in not_counted]
        claimed_sum = sum(f.points * f.count for f in win.fans)
        complete = bool(self.facts.get("fans_complete", True))
        total = win.total if win.total is not None else claimed_sum if win.fans else None
        self.computed["fans"] = rules_fans
        self.computed["total"] = (
            sum(p * c for _, p, c in rules_fans) if complete and win.fans else total
        )
        summed = bool(sheet_fans(self.variant.id).get("total_is_sum", False))
        if not summed:  # the total is not the fans' sum (they multiply, or 胡息): as claimed
            self.computed["total"] = total
        if summed and win.total is not None and win.fans:
            if complete and win.total != claimed_sum:
                self.add(
                    "total",
                    MISMATCH,
                    f"合计记{win.total}，番种之和为{claimed_sum}",
                    f"the total {win.total} is not the sum of the fans claimed, {claimed_sum}",
                )
            elif not complete and claimed_sum > win.total:
                self.add(
                    "total",
                    MISMATCH,
                    f"合计记{win.total}，少于所记番种之和{claimed_sum}",
                    f"the total {win.total} is less than the fans marked, {claimed_sum}",
                )
        if total is None:
            self.add(
                "total", NOTE, "没有记番数，无法核对", "no fans and no total: nothing to check"
            )
            return None
        if self._under_minimum(total, flowers):
            self.answer_deltas = (0,) * len(self.record.players)
            return None
        rules_total = self.computed["total"]
        if rules_total is not None:
            self.answer_deltas = settle(
                self.variant, self.options, self.record, self.facts, win, rules_total
            )
        return settle(self.variant, self.options, self.record, self.facts, win, total)

    def _under_minimum(self, total: int, flowers: int | None) -> bool:
        minimum = int(self.options.get("min_fan", self.variant.spec.min_fan))
        if not minimum:
            return False
        flower_fans = sum(f.points * f.count for f in self.win.fans if f.id == "flower_tiles")
        without = total - (flower_fans or (flowers or 0))
        if without >= minimum:
            return False
        self.add(
            "minimum",
            INVALID,
            f"{without}番（不计花牌）不够起和{minimum}番",
            f"{without} fan without flowers is under the minimum of {minimum}: not a win",
        )
        return True

    def _fan(self, fan_id: str) -> FanDef:
        return self.table.by_id[fan_id]


# ---------------------------------------------------------------------- the variant's data


@cache
def exclusions_of(variant_id: str) -> Mapping[str, frozenset[str]]:
    """Fan → the fans it forbids beside it in one claim (不计): the table's ``excludes`` and
    ``demotes``, the fans its rule text (``not_counted``) names before any qualification,
    and the ``alone`` claims of ``sheet_fans.toml``."""
    table = get_variant(variant_id).spec.fans
    section = sheet_fans(variant_id)
    index = fan_index(table, section.get("aliases", {}))
    out: dict[str, set[str]] = {}
    for fan in table.fans:
        forbidden = set(fan.excludes) | {demoted for demoted, _ in fan.demotes}
        forbidden |= set(not_counted_ids(fan, index))
        out[fan.id] = forbidden - {fan.id}
    for fan_id, allowed in section.get("alone", {}).items():
        out[fan_id] = {f.id for f in table.fans} - set(allowed) - {fan_id}
    return {k: frozenset(v) for k, v in out.items() if v}


def not_counted_ids(fan: FanDef, index: Mapping[str, FanDef]) -> list[str]:
    """The fans named by a fan's rule text before its first qualification: "碰碰和、不求人、
    门前清" gives three ids; "幺九刻×1" (only one of them) and prose give none."""
    clause = re.split(r"[（(；;，,]", fan.not_counted, maxsplit=1)[0]
    out = []
    for item in (part.strip() for part in clause.split("、")):
        if not item or "×" in item:
            continue
        found = find_fan(index, item)
        if found is not None:
            out.append(found.id)
    return out


def _priced_points(variant_id: str, options: Options) -> Any:
    """What one instance of a fan is worth in a claim, or None where a sheet's figure cannot
    be checked without the tiles (``sheet_fans.toml``: ``check_points``, ``points_scale``)."""
    section = sheet_fans(variant_id)
    if not section.get("check_points", False):
        return lambda fan: None
    scale = int(options[section["points_scale"]]) if "points_scale" in section else 1
    unchecked = set(section.get("unchecked_points", ()))

    def points(fan: FanDef) -> int | None:
        return None if fan.id in unchecked else fan.points * scale

    return points


@dataclass(frozen=True, slots=True)
class SheetWin:
    """What a settlement needs of one claimed win when there are no tiles."""

    variant: Variant
    options: Options
    record: HandRecord
    win: RecordedWin
    total: int
    extra: Mapping[str, Any]

    @property
    def players(self) -> int:
        return len(self.record.players)

    @property
    def birds(self) -> tuple[int, ...]:
        return tuple(parse_tiles(self.extra.get("birds", [])))


Settlement = Callable[[SheetWin], tuple[int, ...]]
#: Variant id → its settlement of a claimed win (the variant's own public functions).
SETTLEMENTS: dict[str, Settlement] = {}


def settles(variant_id: str) -> Callable[[Settlement], Settlement]:
    def register(func: Settlement) -> Settlement:
        SETTLEMENTS[variant_id] = func
        return func

    return register


def settle(
    variant: Variant,
    options: Options,
    record: HandRecord,
    facts: Mapping[str, Any],
    win: RecordedWin,
    total: int,
) -> tuple[int, ...] | None:
    """The deltas the variant's settlement gives this win on a claimed ``total``, without
    the tiles; None for a variant with no settlement in :data:`SETTLEMENTS`."""
    func = SETTLEMENTS.get(variant.id)
    if func is None:
        return None
    return func(SheetWin(variant, options, record, win, total, facts.get("extra") or {}))


@settles("mcr")
def _mcr(w: SheetWin) -> tuple[int, ...]:
    """8 + F from the discarder (everyone on a self-draw), 8 from the others."""
    from paipu.rules.variants.mcr.settlement import mcr_win_deltas

    win = w.win
    return mcr_win_deltas(
        w.players, win.seat, win.from_seat, w.total, int(w.options["base_points"])
    )


@settles("changsha")
def _changsha(w: SheetWin) -> tuple[int, ...]:
    """The total per payer, 庄闲 and the birds of ``extra.birds``."""
    win, dealer = w.win, w.record.dealer
    return w.variant.deltas(win.seat, win.from_seat, dealer, w.total, w.birds, w.options)  # type: ignore[attr-defined]


@settles("zhuanzhuan")
def _zhuanzhuan(w: SheetWin) -> tuple[int, ...]:
    """Flat units, the birds of ``extra.birds``, a robbed kong (``extra.robbing_kong``)."""
    win, dealer = w.win, w.record.dealer
    robbing = bool(w.extra.get("robbing_kong", False))
    return w.variant.deltas(win.seat, win.from_seat, dealer, robbing, w.birds, w.options)  # type: ignore[attr-defined]


@settles("sichuan")
def _sichuan(w: SheetWin) -> tuple[int, ...]:
    """血战到底: paid by the seats still in, i.e. not in ``extra.won`` (out before the row)
    nor written as winners before this one in the row."""
    from paipu.rules.variants.sichuan.settlement import SelfDrawBonus, sichuan_win_deltas

    win, n = w.win, w.players
    wins = w.record.result.wins if w.record.result is not None else ()
    earlier = {x.seat for x in wins[: wins.index(win)]} if win in wins else set()
    out = set(w.extra.get("won", ())) | earlier
    return sichuan_win_deltas(
        n,
        win.seat,
        win.from_seat,
        [s for s in range(n) if s != win.seat and s not in out],
        w.total,
        base=int(w.options["base"]),
        self_draw_bonus=SelfDrawBonus(w.options["self_draw_bonus"]),
    )


@settles("zipai_chenzhou")
def _zipai(w: SheetWin) -> tuple[int, ...]:
    """郴州字牌: 囤 of the 胡息 total × the 名堂 multipliers × the base, 飘 of ``extra.piao``."""
    from paipu.rules.variants.zipai_chenzhou.scoring import Source, payments, tun_of

    win = w.win
    rules = w.variant.rules_for(w.options)  # type: ignore[attr-defined]
    multiplier = math.prod(f.points**f.count for f in win.fans)
    tun = tun_of(w.total, qihu=rules.qihu, per_tun=rules.xi_per_tun)
    piao = w.extra.get("piao")
    return payments(
        rules.players,
        winner=win.seat,
        source=Source.SELF if win.from_seat is None else Source.DISCARD,
        from_seat=win.from_seat,
        unit=multiplier * tun * rules.base_points,
        factor=rules.dianpao_factor,
        piao=piao if isinstance(piao, list) and len(piao) == w.players else None,
    )


def _seats(values: Sequence[int]) -> str:
    return "|".join(f"{v:+d}" if v else "0" for v in values)


def _range(values: Sequence[int]) -> str:
    return f"{values[0]}-{values[-1]}" if len(values) > 1 else str(values[0])
