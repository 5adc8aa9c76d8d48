"""郴州字牌 (Chenzhou zipai): scoring a request, the replay table, self-play, the deal.

Everything that is data — the cards, the deal sizes, the 胡息 table, the options and the
名堂 — is in ``zipai_chenzhou.toml``; the rules that are code are the modules of this
folder: ``cards`` (the 80 cards and their names), ``events`` (the log's zipai event kinds,
registered when this package is imported), ``melds`` (the meld grammar and the 胡息
table), ``grouping`` (the grouping of a winning hand that maximises 胡息), ``mingtang``
(the 名堂 detectors), ``scoring`` (起胡, 囤 and settlement), ``table`` (the replay state
machine with the forced moves), ``bots`` (self-play). The rules as implemented are in
``docs/zipai.md``.

The digest's worked example: 提 贰贰贰贰, 碰 拾拾拾, 吃 四五六, 坎 五五五, 一二三, 二七十 and
八 + 八 self-drawn: 24 xi, 6 囤, 红胡 ×3, so 18 from each other seat.

>>> from paipu.rules.score import score_json
>>> answer = score_json({"variant": "zipai_chenzhou", "seat": 0, "dealer": 0,
...     "hand": "555x 123x 270x 8x", "win_tile": "8x",
...     "melds": [{"kind": "ti", "tiles": "2222d"}, {"kind": "peng", "tiles": "000d", "from": 1},
...               {"kind": "chi", "tiles": "456x", "from": 2}]})
>>> answer.legal, answer.total, [f.id for f in answer.fans], answer.deltas
(True, 24, ['hong_hu'], (36, -18, -18))
>>> answer.extra["tun"], answer.extra["multiplier"]
(6, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paipu.rules.fans import check_coverage
from paipu.rules.melds import MeldKind
from paipu.rules.request_checks import check_no_flowers, check_seats
from paipu.rules.score import RequestError, ScoreAnswer, ScoreRequest
from paipu.rules.tiles import Tile, tile_name
from paipu.rules.variants import Options, Variant, register
from paipu.rules.variants.zipai_chenzhou import events  # noqa: F401 (registers its kinds)
from paipu.rules.variants.zipai_chenzhou.cards import COPIES, full_set, is_card, kind_counts
from paipu.rules.variants.zipai_chenzhou.grouping import Source, count_problem
from paipu.rules.variants.zipai_chenzhou.melds import ZIPAI_MELDS, XiTable, meld_group
from paipu.rules.variants.zipai_chenzhou.mingtang import DETECTORS
from paipu.rules.variants.zipai_chenzhou.scoring import ZipaiRules, score_win, xiang_gong_deltas
from paipu.rules.variants.zipai_chenzhou.table import ZipaiTable

if TYPE_CHECKING:
    from paipu.rules.record import HandRecord
    from paipu.rules.replay import HandOutcome
    from paipu.rules.selfplay import HandSetup

EXTRA_FACTS = ("source", "piao", "xiang_gong")


@register
class ChenzhouZipai(Variant):
    """郴州字牌 — three players, 80 cards, 胡息 counting, forced moves."""

    id = "zipai_chenzhou"

    def __init__(self) -> None:
        super().__init__()
        self.xi_table = XiTable.from_toml(self.spec.raw["xi"])
        check_coverage(self.spec.fans, DETECTORS, self.id)
        self._rules: dict[tuple[tuple[str, Any], ...], ZipaiRules] = {}

    def rules_for(self, options: Mapping[str, Any]) -> ZipaiRules:
        """The hand's rules from its options (ValueError for a combination that cannot be)."""
        key = tuple(sorted(options.items()))
        if key not in self._rules:
            self._rules[key] = ZipaiRules.of(options, self.spec.raw, self.xi_table, self.spec.fans)
        return self._rules[key]

    def wall_tiles(self, options: Options) -> list[Tile]:
        return full_set()

    # ------------------------------------------------------------------ scoring

    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        try:
            rules = self.rules_for(options)
        except ValueError as exc:
            raise RequestError(str(exc)) from None
        source, piao, xiang_gong = check_request(request, rules)
        hand = kind_counts(request.hand)
        problem = count_problem(
            hand,
            request.melds,
            request.win_tile,
            source,
            units=rules.units,
            kan_locked=rules.kan_locked,
        )
        if problem is not None:
            raise RequestError(problem)
        if request.seat in xiang_gong:
            return ScoreAnswer(legal=False, reason="a 相公 seat (dead hand) cannot win")
        win = score_win(
            rules,
            hand=hand,
            melds=request.melds,
            win=request.win_tile,
            source=source,
            winner=request.seat,
            from_seat=request.from_seat,
            piao=piao,
        )
        extra = win.extra(rules)
        if win.legal and xiang_gong:
            extra["xiang_gong_deltas"] = list(
                xiang_gong_deltas(rules.players, sorted(xiang_gong), rules.xiang_gong_penalty)
            )
        return ScoreAnswer(
            legal=win.legal,
            total=win.total if win.grouping is not None else None,
            fans=win.fans,
            deltas=win.deltas,
            reason=win.reason,
            extra=extra,
        )

    # ------------------------------------------------------------------ replay

    def new_table(self, record: HandRecord, options: Options) -> ZipaiTable:
        return ZipaiTable(record, self, options)

    # ------------------------------------------------------------------ self-play

    def next_setup(self, setup: HandSetup, outcome: HandOutcome) -> HandSetup:
        """The winner deals next (胡牌坐庄); after a draw the dealer stays (options)."""
        options = self.resolve_options(setup.rules)
        players = len(setup.players)
        dealer = setup.dealer
        if outcome.wins:
            if options["dealer_after_win"] == "winner":
                dealer = outcome.wins[0].seat
            else:
                dealer = (dealer + 1) % players
        elif options["dealer_after_draw"] == "next_seat":
            dealer = (dealer + 1) % players
        return replace(setup, dealer=dealer)


def check_request(
    request: ScoreRequest, rules: ZipaiRules
) -> tuple[Source, tuple[int, ...], frozenset[int]]:
    """Raise :class:`RequestError` for what cannot be; return the winning card's source,
    the seats' 飘 and the 相公 seats from ``extra``."""
    players = rules.players
    last = players - 1
    check_seats(request, players)
    for tile in (*request.hand, request.win_tile):
        if not is_card(tile):
            raise RequestError(
                f"{tile_name(tile)} is not a card of 郴州字牌 (1x-10x small, 1d-10d big)"
            )
    check_no_flowers(request, "郴州字牌")
    if request.flags.kong_replacement or request.flags.robbing_kong:
        raise RequestError("郴州字牌 has no kongs: kong_replacement and robbing_kong do not apply")
    used = Counter([*request.hand, request.win_tile])
    for i, meld in enumerate(request.melds, 1):
        if meld.kind not in ZIPAI_MELDS:
            kinds = ", ".join(k.value for k in ZIPAI_MELDS)
            raise RequestError(f"meld {i}: {meld.kind.value} is not a zipai meld ({kinds})")
        if not all(is_card(t) for t in meld.tiles):
            raise RequestError(f"meld {i}: {tile_name(meld.tiles[0])} is not a zipai card")
        try:
            meld_group(meld)
        except ValueError as exc:
            raise RequestError(f"meld {i}: {exc}") from None
        if meld.from_seat is not None and not 0 <= meld.from_seat <= last:
            raise RequestError(f"meld {i}: 'from' must be a seat 0-{last}")
        if meld.kind is MeldKind.TI and meld.from_seat is not None:
            raise RequestError(f"meld {i}: a 提 is made from one's own cards: no 'from'")
        used.update(meld.tiles)
    for tile, n in sorted(used.items()):
        if n > COPIES:
            raise RequestError(
                f"{n} copies of {tile_name(tile)} in hand, melds and winning card together; "
                "there are only 4"
            )
    extra = request.extra
    unknown = sorted(set(extra) - set(EXTRA_FACTS))
    if unknown:
        raise RequestError(
            f"unknown extra fact(s) {', '.join(unknown)} (zipai knows {', '.join(EXTRA_FACTS)})"
        )
    source = Source.SELF
    if request.from_seat is not None:
        raw = extra.get("source", "discard")
        if raw not in ("discard", "flip"):
            raise RequestError("extra 'source' is 'discard' (放炮) or 'flip' (another's flip)")
        source = Source(raw)
    elif "source" in extra:
        raise RequestError("extra 'source' needs 'from': a self-drawn win has no other source")
    piao_raw = extra.get("piao", [0] * players)
    if (
        not isinstance(piao_raw, list)
        or len(piao_raw) != players
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in piao_raw)
    ):
        raise RequestError(f"extra 'piao' gives each seat's 飘: {players} whole numbers")
    bad = [p for p in piao_raw if p not in rules.piao]
    if bad:
        raise RequestError(
            f"飘 {bad[0]} is not offered (option piao: {', '.join(map(str, rules.piao))})"
        )
    xg_raw = extra.get("xiang_gong", [])
    if not isinstance(xg_raw, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= last for s in xg_raw
    ):
        raise RequestError(f"extra 'xiang_gong' lists 相公 seats 0-{last}")
    return source, tuple(piao_raw), frozenset(xg_raw)
