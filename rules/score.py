"""The score request and answer (../shared/spec/score-request.md).

A :class:`ScoreRequest` describes one finished hand; :func:`score` asks its variant and
returns a :class:`ScoreAnswer`. Requests are read with :meth:`ScoreRequest.from_json`,
which rejects what a player would call nonsense (unknown tiles, a fifth copy, a wrong
number of tiles, an impossible meld) with a :class:`RequestError` saying what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from paipu.rules.melds import Meld, MeldError
from paipu.rules.registry import VariantError, get_variant, variant_ids
from paipu.rules.tiles import (
    EAST,
    NORTH,
    Tile,
    TileError,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_names,
)

FLAG_NAMES = ("last_tile", "kong_replacement", "robbing_kong", "last_of_kind")


class RequestError(ValueError):
    """A request that cannot be scored, with a reason a player understands."""


@dataclass(frozen=True, slots=True)
class WinFlags:
    """Situational facts of a win.

    ``last_tile``: the last tile of the wall (妙手回春 / 海底捞月);
    ``kong_replacement``: won on a kong's replacement draw (杠上开花);
    ``robbing_kong``: won on a tile added to a kong (抢杠和);
    ``last_of_kind``: the winning tile is the last copy of its kind (和绝张).
    """

    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_of_kind: bool = False

    def to_json(self) -> dict[str, bool]:
        return {name: getattr(self, name) for name in FLAG_NAMES}


@dataclass(frozen=True, slots=True)
class ScoreRequest:
    """One finished hand to score; tiles are codes, the winning tile kept apart."""

    variant: str
    seat: int
    dealer: int
    from_seat: int | None
    hand: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    rules: Mapping[str, Any] = field(default_factory=dict)
    flags: WinFlags = WinFlags()
    round_wind: Tile = EAST
    seat_wind: Tile | None = None
    flowers: tuple[Tile, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def self_drawn(self) -> bool:
        return self.from_seat is None

    def seat_wind_for(self, players: int) -> Tile:
        """The winner's seat wind, counted from the dealer when not given."""
        if self.seat_wind is not None:
            return self.seat_wind
        return EAST + (self.seat - self.dealer) % players

    @classmethod
    def from_json(cls, obj: Any) -> ScoreRequest:
        """Read a request object; raise :class:`RequestError` on anything malformed."""
        if not isinstance(obj, Mapping):
            raise RequestError("a request is a JSON object")
        known = {
            "variant",
            "rules",
            "seat",
            "dealer",
            "from",
            "hand",
            "melds",
            "win_tile",
            "flags",
            "round_wind",
            "seat_wind",
            "flowers",
            "extra",
        }
        unknown = sorted(set(obj) - known)
        if unknown:
            raise RequestError(f"unknown field(s) {', '.join(unknown)}")
        for required in ("variant", "hand", "win_tile"):
            if required not in obj:
                raise RequestError(f"missing field {required!r}")
        variant = obj["variant"]
        if not isinstance(variant, str):
            raise RequestError(f"'variant' must be a variant id ({', '.join(variant_ids())})")
        seat = _int(obj, "seat", 0)
        dealer = _int(obj, "dealer", 0)
        from_seat = obj.get("from")
        if from_seat is not None and (
            not isinstance(from_seat, int) or isinstance(from_seat, bool)
        ):
            raise RequestError("'from' must be a seat number or null for a self-draw")
        if from_seat is not None and from_seat == seat:
            raise RequestError("'from' is the winner's own seat; use null for a self-draw")
        try:
            hand = tuple(parse_tiles(_tiles_field(obj, "hand")))
            win_raw = obj["win_tile"]
            if not isinstance(win_raw, str):
                raise RequestError("'win_tile' must be one tile such as \"5p\"")
            win_tile = parse_tile(win_raw)
            flowers = tuple(parse_tiles(_tiles_field(obj, "flowers"))) if "flowers" in obj else ()
            round_wind = _wind(obj, "round_wind")
            seat_wind = _wind(obj, "seat_wind")
        except TileError as exc:
            raise RequestError(str(exc)) from None
        melds_raw = obj.get("melds", [])
        if not isinstance(melds_raw, list):
            raise RequestError("'melds' must be a list of {kind, tiles, from}")
        melds = []
        for i, meld in enumerate(melds_raw):
            if not isinstance(meld, Mapping) or "kind" not in meld or "tiles" not in meld:
                raise RequestError(f"meld {i + 1} must be an object with 'kind' and 'tiles'")
            try:
                melds.append(Meld.of(meld["kind"], meld["tiles"], meld.get("from")))
            except (MeldError, TileError) as meld_error:  # not ``exc``: typed TileError above
                raise RequestError(f"meld {i + 1}: {meld_error}") from None
        flags_raw = obj.get("flags", {}) or {}
        if not isinstance(flags_raw, Mapping):
            raise RequestError("'flags' must be an object of true/false values")
        bad_flags = sorted(set(flags_raw) - set(FLAG_NAMES))
        if bad_flags:
            raise RequestError(
                f"unknown flag(s) {', '.join(bad_flags)} (known: {', '.join(FLAG_NAMES)})"
            )
        flags = WinFlags(**{k: bool(v) for k, v in flags_raw.items()})
        rules = obj.get("rules", {}) or {}
        extra = obj.get("extra", {}) or {}
        if not isinstance(rules, Mapping) or not isinstance(extra, Mapping):
            raise RequestError("'rules' and 'extra' must be objects")
        return cls(
            variant=variant,
            seat=seat,
            dealer=dealer,
            from_seat=from_seat,
            hand=hand,
            melds=tuple(melds),
            win_tile=win_tile,
            rules=dict(rules),
            flags=flags,
            round_wind=EAST if round_wind is None else round_wind,
            seat_wind=seat_wind,
            flowers=flowers,
            extra=dict(extra),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant,
            "seat": self.seat,
            "dealer": self.dealer,
            "from": self.from_seat,
            "hand": tile_names(self.hand),
            "melds": [m.to_json() for m in self.melds],
            "win_tile": tile_name(self.win_tile),
            "flags": self.flags.to_json(),
            "round_wind": tile_name(self.round_wind),
        }
        if self.rules:
            out["rules"] = dict(self.rules)
        if self.seat_wind is not None:
            out["seat_wind"] = tile_name(self.seat_wind)
        if self.flowers:
            out["flowers"] = tile_names(self.flowers)
        if self.extra:
            out["extra"] = dict(self.extra)
        return out


def _int(obj: Mapping[str, Any], key: str, default: int) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RequestError(f"'{key}' must be a seat number (0, 1, 2 …)")
    return value


def _tiles_field(obj: Mapping[str, Any], key: str) -> str | list[str]:
    value = obj.get(key)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise RequestError(f'\'{key}\' must be a list of tiles such as ["1m", "2m"] or "12m"')


def _wind(obj: Mapping[str, Any], key: str) -> Tile | None:
    """The wind under ``key``, or None when it is absent."""
    if obj.get(key) is None:
        return None
    raw = obj[key]
    tile = parse_tile(raw) if isinstance(raw, str) else -1
    if not EAST <= tile <= NORTH:
        raise RequestError(f"'{key}' must be a wind 1z-4z (East-North), not {raw!r}")
    return tile


@dataclass(frozen=True, slots=True)
class FanScore:
    """One fan counted in an answer."""

    id: str
    name_zh: str
    name_en: str
    points: int
    count: int
    excludes: tuple[str, ...] = ()
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name_zh,
            "name_en": self.name_en,
            "points": self.points,
            "count": self.count,
        }


@dataclass(frozen=True, slots=True)
class ScoreAnswer:
    """The answer to one request; ``error`` set when the request could not be read."""

    legal: bool
    total: int | None = None
    fans: tuple[FanScore, ...] = ()
    deltas: tuple[int, ...] | None = None
    reason: str | None = None
    error: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def failure(cls, error: str) -> ScoreAnswer:
        return cls(legal=False, error=error)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "legal": self.legal,
            "total": self.total,
            "fans": [f.to_json() for f in self.fans],
            "deltas": list(self.deltas) if self.deltas is not None else None,
            "reason": self.reason,
            "error": self.error,
        }
        if self.extra:
            out["extra"] = dict(self.extra)
        return out


def score(request: ScoreRequest) -> ScoreAnswer:
    """Score a request with its variant. Never raises for a bad hand: see the answer."""
    try:
        variant = get_variant(request.variant)
        options = variant.resolve_options(request.rules)
        return variant.score(request, options)
    except (VariantError, RequestError) as exc:
        return ScoreAnswer.failure(str(exc))


def score_json(obj: Any) -> ScoreAnswer:
    """Read and score one request object; any problem becomes an answer with ``error``."""
    try:
        request = ScoreRequest.from_json(obj)
    except RequestError as exc:
        return ScoreAnswer.failure(str(exc))
    return score(request)


def score_line(line: str) -> ScoreAnswer:
    """Score one JSON line of a ``--jsonl`` batch."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return ScoreAnswer.failure(f"not valid JSON: {exc.msg} at column {exc.colno}")
    return score_json(obj)
