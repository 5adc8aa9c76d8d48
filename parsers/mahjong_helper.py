"""国标小助手 (ChineseOfficialMahjongHelper) score-sheet records: ``record.json`` (one
record), ``history_record.json`` (an array) and the app's P2P stream (a count and records,
each ended by a NUL byte). The format: ../shared/spec/mahjong-helper-records.md.

Each entry of a record's ``detail`` becomes a recorded-only MCR hand
(:mod:`paipu.parsers.recorded`): ``game`` is the record's ``start_time`` and ``title``,
``hand`` the entry's index. The seats are the players' starting seats (``name`` order), the
dealer and the winds follow the app's 换位 table, the fans come from the three bit fields,
the deltas are what the app's sheet shows (its ``TranslateDetailToScoreTable``), penalties
included. Old keys (``win_claim``, ``false_win``, ``score``, ``fan_flag``, ``packed_fan``,
``unique_fan``, ``multiple_fan``) are upgraded as the app upgrades them. Where the app
would silently drop or zero a value, the reader says so: a wrong value rejects its hand
with the JSON path; an unknown key of a record is reported and its hands still load.

>>> from paipu.rules.tiles import tile_names
>>> melds, concealed, win = helper_tiles("[123m]234456s5789p5p")
>>> melds, tile_names(concealed), tile_names([win])
([('chi', [0, 1, 2], 1)], ['2s', '3s', '4s', '4s', '5s', '6s', '5p', '7p', '8p', '9p'], ['5p'])
>>> DEALERS
(0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 1, 0, 3, 2, 0, 1)
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from paipu.parsers import Parsed, ParseResult, Rejected, read_whole
from paipu.parsers.recorded import recorded_hand
from paipu.rules.record import RecordedFan, RecordedWin
from paipu.rules.tiles import EAST, Tile, parse_tile, tile_name, tile_names
from paipu.rules.variants import get_variant
from paipu.rules.variants.mcr.settlement import mcr_win_deltas

FORMAT = "mahjong-helper"
VARIANT = "mcr"
HANDS = 16
RECORD_KEYS = frozenset({"name", "detail", "mode", "start_time", "end_time", "title"})
DETAIL_KEYS = frozenset(
    {
        "win_flag",
        "claim_flag",
        "fan",
        "fan_bits",
        "fan2_bits",
        "fan1_bits",
        "penalty_scores",
        "timeout",
        "win_hand",
    }
)
LEGACY_KEYS = frozenset(
    {"win_claim", "false_win", "score", "fan_flag", "packed_fan", "unique_fan", "multiple_fan"}
)
WIN_HAND_KEYS = frozenset({"tiles", "win_flag", "flower_count"})
#: ``win_hand`` keys of before 2017-07-25 (numeric arrays): nothing converts them.
OLD_WIN_HAND_KEYS = frozenset({"fixed_packs", "standing_tiles", "win_tile"})

#: Round seats (每圈座位): player p's seat wind index (0 East … 3 North) in round r.
ROUND_SEATS = ((0, 1, 3, 2), (1, 0, 2, 3), (2, 3, 0, 1), (3, 2, 1, 0))


def seat_wind_index(player: int, hand: int) -> int:
    """Player ``player``'s seat wind (0 East … 3 North) in hand ``hand`` (0…15)."""
    return (ROUND_SEATS[player][hand // 4] - hand % 4) % 4


#: The dealer (庄) of each hand: the player whose seat wind is East.
DEALERS = tuple(next(p for p in range(4) if seat_wind_index(p, k) == 0) for k in range(HANDS))

#: Fan enum numbers (the ``index`` of rules/variants/mcr.toml) of each field.
FAN_BITS_TOP = 58  # fan_bits: bit = 58 − enum, enums 1…58
FAN2_FIRST, FAN2_COUNT = 59, 10  # 2-bit counts
FAN1_FIRST, FAN1_COUNT = 69, 14  # 4-bit counts (花牌 k 12, 明暗杠 k 13)
FLOWER_ENUM = 81

#: Legacy bundles and bits, as fan enum numbers (upgraded into fan2_bits / fan1_bits).
PACKED_FAN = {
    1: (62, 68, 63),
    2: (62, 63),
    3: (68, 63),
    4: (60, 61),
    5: (67,),
    6: (65, 73, 73),
    7: (62, 66),
    8: (66, 67),
}
UNIQUE_FAN = (59, 60, 61, 62, 63, 66, 67, 68, 74, 76, 77, 78, 79, 80)
MULTIPLE_FAN = (64, 65, 69, 70, 71, 72, 73, 75, 81)

#: The app's honour letters and paipu's tiles (E S W N, 中 C, 发 F, 白 P); the old ``z``
#: suffix counted 1-7z as E S W N 中 发 白.
HONOR_LETTERS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "C": "7z", "F": "6z", "P": "5z"}
OLD_Z = {"1": "1z", "2": "2z", "3": "3z", "4": "4z", "5": "7z", "6": "6z", "7": "5z"}
_GROUP = re.compile(r"([1-9]+)([msp])|([1-7]+)z|([ESWNCFP])")
_BRACKET = re.compile(r"\[([^\]]*)\]")
_MELD_BODY = re.compile(r"^(?P<body>[1-9]+[msp]|[1-7]+z|[ESWNCFP]+),?(?P<digit>\d)?$")


class HelperError(ValueError):
    """A value of a record that is wrong; the message starts with its JSON path."""


def looks_like_helper(text: str) -> bool:
    """A 国标小助手 record, history array or P2P stream, judged from its first characters."""
    stripped = text.lstrip("\ufeff").lstrip()
    if re.match(r"^\d+\x00", stripped):
        return True
    if stripped.startswith("["):
        first = re.match(r'\[\s*\{\s*"([^"]*)"', stripped)
        return first is None or first.group(1) in RECORD_KEYS | {"detail"}
    first = re.match(r'\{\s*"([^"]*)"\s*:', stripped)
    return first is not None and first.group(1) in RECORD_KEYS


def parse_helper(path: Path) -> Iterator[ParseResult]:
    """Every hand of a 国标小助手 file."""
    text = read_whole(path)
    if isinstance(text, Rejected):
        yield text
        return
    yield from parse_helper_text(text, str(path))


def parse_helper_text(text: str, name: str) -> Iterator[ParseResult]:
    """Every hand of a 国标小助手 file's text."""
    stripped = text.lstrip()
    if re.match(r"^\d+\x00", stripped):
        count_text, *chunks = stripped.split("\x00")
        records = [c for c in chunks if c.strip()]
        if int(count_text) != len(records):
            yield Rejected(
                name, 1, f"the P2P stream announces {count_text} records, holds {len(records)}"
            )
        for i, chunk in enumerate(records):
            try:
                obj = json.loads(chunk)
            except json.JSONDecodeError as exc:
                yield Rejected(name, 1, f"record {i}: not valid JSON: {exc.msg}")
                continue
            yield from parse_record(obj, name, f"record {i}")
        return
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        yield Rejected(name, exc.lineno, f"not valid JSON: {exc.msg} at column {exc.colno}")
        return
    if isinstance(obj, list):
        for i, record in enumerate(obj):
            yield from parse_record(record, name, f"$[{i}]")
    else:
        yield from parse_record(obj, name, "$")


def parse_record(obj: Any, name: str, root: str) -> Iterator[ParseResult]:
    """The hands of one record object (``root`` is its JSON path)."""
    if not isinstance(obj, Mapping):
        yield Rejected(name, 1, f"{root}: a record is a JSON object")
        return
    for key in sorted(set(obj) - RECORD_KEYS):
        yield Rejected(name, 1, f"{root}.{key}: unknown key; the app ignores it")
    try:
        players = _names(obj.get("name"), f"{root}.name")
        start = _uint(obj.get("start_time", 0), 64, f"{root}.start_time")
        _uint(obj.get("end_time", 0), 64, f"{root}.end_time")
        mode = _uint(obj.get("mode", 0), 8, f"{root}.mode")
        if mode != 0:
            raise HelperError(f"{root}.mode: {mode} (全铳) is compiled out of the app; only 0")
        title = obj.get("title", "")
        if not isinstance(title, str):
            raise HelperError(f"{root}.title: must be a string")
        details = obj.get("detail", [])
        if not isinstance(details, list):
            raise HelperError(f"{root}.detail: must be an array of hands")
    except HelperError as exc:
        yield Rejected(name, 1, str(exc))
        return
    game = f"{start} {title}".strip()
    time = (
        dt.datetime.fromtimestamp(start, dt.UTC).replace(tzinfo=None).isoformat() if start else None
    )
    for k, detail in enumerate(details):
        path = f"{root}.detail[{k}]"
        if k >= HANDS:
            yield Rejected(
                name,
                1,
                f"{path}: a sitting has 16 hands; the app ignores the rest",
                game,
                k,
                variant=VARIANT,
                players=players,
            )
            continue
        try:
            yield parse_detail(detail, k, players, game, time, name, path)
        except HelperError as exc:
            yield Rejected(name, 1, str(exc), game, k, variant=VARIANT, players=players)


def parse_detail(
    detail: Any,
    k: int,
    players: tuple[str, ...],
    game: str,
    time: str | None,
    name: str,
    path: str,
) -> Parsed:
    """One hand from a ``detail`` entry; :class:`HelperError` for a wrong value."""
    if not isinstance(detail, Mapping):
        raise HelperError(f"{path}: a hand is a JSON object")
    unknown = sorted(set(detail) - DETAIL_KEYS - LEGACY_KEYS)
    if unknown:
        raise HelperError(f"{path}.{unknown[0]}: unknown key; the app would drop it")
    fields = _upgraded(detail, path)
    win_flag = _uint(fields.get("win_flag", 0), 8, f"{path}.win_flag")
    claim_flag = _uint(fields.get("claim_flag", 0), 8, f"{path}.claim_flag")
    fan = _uint(fields.get("fan", 0), 16, f"{path}.fan")
    fan_bits = _uint(fields.get("fan_bits", 0), FAN_BITS_TOP, f"{path}.fan_bits")
    fan2_bits = _uint(fields.get("fan2_bits", 0), 2 * FAN2_COUNT, f"{path}.fan2_bits")
    fan1_bits = _uint(fields.get("fan1_bits", 0), 4 * FAN1_COUNT, f"{path}.fan1_bits")
    penalties = fields.get("penalty_scores", [0, 0, 0, 0])
    if (
        not isinstance(penalties, list)
        or len(penalties) != 4
        or not all(_is_int(p) and -(2**15) <= p < 2**15 for p in penalties)
    ):
        raise HelperError(f"{path}.penalty_scores: must be 4 whole numbers (int16)")
    timeout = fields.get("timeout", False)
    if not isinstance(timeout, bool):
        raise HelperError(f"{path}.timeout: must be true or false")
    winner = _player(win_flag, f"{path}.win_flag")
    discarder = _player(claim_flag, f"{path}.claim_flag")
    fans = fans_of_fields(fan_bits, fan2_bits, fan1_bits)
    if winner is None and (discarder is not None or fan or fans):
        what = "claim_flag" if discarder is not None else "fan"
        raise HelperError(f"{path}.{what}: set on a hand nobody won (win_flag 0)")
    if winner is not None and discarder is None:
        raise HelperError(f"{path}.claim_flag: 0 on a won hand (self-drawn is claim = win)")
    if timeout and winner is not None:
        raise HelperError(f"{path}.timeout: true on a hand with a winner")
    from_seat = None if discarder == winner else discarder
    facts: dict[str, Any] = {"fans_complete": False}
    if any(penalties):
        facts["penalties"] = list(penalties)
    if k >= 4:  # the seat winds of the app's other seat mode (固定), for the audit
        facts["fixed_seat_winds"] = [tile_name(EAST + (p - k % 4) % 4) for p in range(4)]
    win_hand = fields.get("win_hand", {})
    request = None
    if winner is not None:
        request = _win_request(win_hand, winner, from_seat, k, f"{path}.win_hand")
    elif win_hand:
        _check_win_hand(win_hand, f"{path}.win_hand")
    if request is not None:
        facts["tiles"] = [request]
        facts["fans_complete"] = True
    if timeout:
        facts["unplayed"] = True
    deltas = list(penalties)
    wins = []
    if winner is not None:
        if fan >= 8:
            for seat, delta in enumerate(mcr_win_deltas(4, winner, from_seat, fan)):
                deltas[seat] += delta
        tile = parse_tile(request["win_tile"]) if request is not None else None
        wins.append(RecordedWin(winner, from_seat, tile, fan, fans))
    record = recorded_hand(
        VARIANT,
        game,
        k,
        players,
        DEALERS[k],
        wins,
        tuple(deltas),
        {"format": FORMAT, "file": name, "path": path},
        facts=facts,
        time=time,
        round_wind=EAST + k // 4,
        seat_winds=tuple(EAST + seat_wind_index(p, k) for p in range(4)),
        outcome="abort" if timeout else None,
    )
    return Parsed(record, name, 1)


def _upgraded(detail: Mapping[str, Any], path: str) -> dict[str, Any]:
    """The detail with its legacy keys upgraded, as the app does after an update."""
    fields = {k: v for k, v in detail.items() if k in DETAIL_KEYS}
    if "win_claim" in detail and "win_flag" not in detail:
        value = _uint(detail["win_claim"], 8, f"{path}.win_claim")
        fields["win_flag"], fields["claim_flag"] = value >> 4, value & 0xF
    if "score" in detail and "fan" not in detail:
        fields["fan"] = detail["score"]
    if "fan_flag" in detail and "fan_bits" not in detail:
        fields["fan_bits"] = detail["fan_flag"]
    if "false_win" in detail and "penalty_scores" not in detail:
        mask = _uint(detail["false_win"], 4, f"{path}.false_win")
        false = [p for p in range(4) if mask >> p & 1]
        fields["penalty_scores"] = [
            -30 * (p in false) + 10 * sum(1 for q in false if q != p) for p in range(4)
        ]
    counts: list[int] = []
    if "packed_fan" in detail:
        value = _uint(detail["packed_fan"], 8, f"{path}.packed_fan")
        if value and value not in PACKED_FAN:
            raise HelperError(f"{path}.packed_fan: {value} is not a bundle (1-8)")
        counts += PACKED_FAN.get(value, ())
    if "unique_fan" in detail:
        value = _uint(detail["unique_fan"], len(UNIQUE_FAN), f"{path}.unique_fan")
        counts += [enum for i, enum in enumerate(UNIQUE_FAN) if value >> i & 1]
    if "multiple_fan" in detail:
        value = _uint(detail["multiple_fan"], 4 * len(MULTIPLE_FAN), f"{path}.multiple_fan")
        for i, enum in enumerate(MULTIPLE_FAN):
            counts += [enum] * (value >> 4 * i & 0xF)
    if counts:
        fan2 = _uint(fields.get("fan2_bits", 0), 2 * FAN2_COUNT, f"{path}.fan2_bits")
        fan1 = _uint(fields.get("fan1_bits", 0), 4 * FAN1_COUNT, f"{path}.fan1_bits")
        tally: dict[int, int] = {}
        for enum in counts:
            tally[enum] = tally.get(enum, 0) + 1
        for enum, n in tally.items():
            if enum < FAN1_FIRST:
                fan2 |= min(n, 3) << 2 * (enum - FAN2_FIRST)
            else:
                fan1 |= min(n, 15) << 4 * (enum - FAN1_FIRST)
        fields["fan2_bits"], fields["fan1_bits"] = fan2, fan1
    return fields


def fans_of_fields(fan_bits: int, fan2_bits: int, fan1_bits: int) -> tuple[RecordedFan, ...]:
    """The claimed fans of the three fields, in the fan table's order."""
    by_index = {f.index: f for f in get_variant(VARIANT).spec.fans.fans}
    counts: dict[int, int] = {}
    for bit in range(FAN_BITS_TOP):
        if fan_bits >> bit & 1:
            counts[FAN_BITS_TOP - bit] = 1
    for k in range(FAN2_COUNT):
        if n := fan2_bits >> 2 * k & 3:
            counts[FAN2_FIRST + k] = n
    for k in range(FAN1_COUNT):
        if n := fan1_bits >> 4 * k & 0xF:
            counts[FAN1_FIRST + k] = n
    return tuple(
        RecordedFan(by_index[enum].id, by_index[enum].points, n)
        for enum, n in sorted(counts.items())
    )


def helper_tiles(text: str) -> tuple[list[tuple[str, list[Tile], int | None]], list[Tile], Tile]:
    """``win_hand.tiles``: the melds (kind, tiles, digit), the concealed tiles and the
    winning tile; :class:`ValueError` naming what cannot be read."""
    melds = []
    pos = 0
    for match in _BRACKET.finditer(text):
        if match.start() != pos:
            break
        melds.append(_meld(match.group(1)))
        pos = match.end()
    rest = text[pos:]
    if "[" in rest or "]" in rest:
        raise ValueError(f"melds come first, each in brackets: {text!r}")
    tiles = _tiles(rest)
    if not tiles:
        raise ValueError(f"no concealed tiles after the melds: {text!r}")
    expected = 13 - 3 * len(melds)
    if len(tiles) - 1 != expected:
        raise ValueError(
            f"{len(tiles) - 1} concealed tiles before the winning tile; with {len(melds)} "
            f"meld(s) there are {expected}"
        )
    return melds, tiles[:-1], tiles[-1]


def _tiles(text: str) -> list[Tile]:
    out: list[Tile] = []
    pos = 0
    for match in _GROUP.finditer(text):
        if match.start() != pos:
            break
        digits, suit, old_z, honor = match.groups()
        if digits:
            out += [parse_tile(f"{d}{suit}") for d in digits]
        elif old_z:
            out += [parse_tile(OLD_Z[d]) for d in old_z]
        else:
            out.append(parse_tile(HONOR_LETTERS[honor]))
        pos = match.end()
    if pos != len(text):
        raise ValueError(f"cannot read tiles {text[pos:]!r} (expected e.g. 234456s5789p5p, EEE)")
    return out


def _meld(body: str) -> tuple[str, list[Tile], int | None]:
    match = _MELD_BODY.match(body)
    if match is None:
        raise ValueError(f"cannot read the meld [{body}]")
    tiles = sorted(_tiles(match["body"]))
    digit = int(match["digit"]) if match["digit"] is not None else None
    if len(tiles) == 4 and len(set(tiles)) == 1:
        if digit in (None, 0, 4):
            return "concealed_kong", tiles, None
        if digit in (1, 2, 3):
            return "kong", tiles, digit
        if digit in (5, 6, 7):
            return "added_kong", tiles, digit - 4
        raise ValueError(f"[{body}]: a kong's digit is 1-3 or 5-7")
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return "pong", tiles, digit if digit not in (None, 0, 4) else 1
    is_run = len(set(tiles)) == 3 and tiles[2] - tiles[0] == 2
    if len(tiles) == 3 and is_run and tiles[0] < 27 and tiles[0] // 9 == tiles[2] // 9:
        return "chi", tiles, digit or 1
    raise ValueError(f"[{body}] is not a chow, pung or kong")


def _check_win_hand(win_hand: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(win_hand, Mapping):
        raise HelperError(f"{path}: must be an object (tiles, win_flag, flower_count)")
    unknown = sorted(set(win_hand) - WIN_HAND_KEYS - OLD_WIN_HAND_KEYS)
    if unknown:
        raise HelperError(f"{path}.{unknown[0]}: unknown key; the app would drop it")
    if not isinstance(win_hand.get("tiles", ""), str):
        raise HelperError(f"{path}.tiles: must be a string")
    _uint(win_hand.get("win_flag", 0), 8, f"{path}.win_flag")
    flowers = _uint(win_hand.get("flower_count", 0), 8, f"{path}.flower_count")
    if flowers > 8:
        raise HelperError(f"{path}.flower_count: {flowers}; there are 8 flowers")
    return win_hand


def _win_request(
    win_hand: Any, winner: int, from_seat: int | None, k: int, path: str
) -> dict[str, Any] | None:
    """The winner's tiles as score-request fields, with the calculator's flag corrections;
    None when the tiles were not recorded."""
    win_hand = _check_win_hand(win_hand, path)
    text = win_hand.get("tiles", "")
    if not text:
        return None
    try:
        melds, concealed, win_tile = helper_tiles(text)
    except ValueError as exc:
        raise HelperError(f"{path}.tiles: {exc}") from None
    bits = int(win_hand.get("win_flag", 0))
    self_drawn = from_seat is None
    in_melds = sum(t == win_tile for _, tiles, _ in melds for t in tiles)
    in_hand = sum(t == win_tile for t in concealed) + 1
    last_of_kind = (bool(bits & 2) and in_hand == 1) or in_melds == 3
    kong = bool(bits & 4)
    has_kong = any(len(tiles) == 4 for _, tiles, _ in melds)
    flags = {
        "last_tile": bool(bits & 8),
        "kong_replacement": kong and self_drawn and has_kong,
        "robbing_kong": kong and not self_drawn and in_melds == 0 and in_hand < 2,
        "last_of_kind": last_of_kind,
    }
    if flags["robbing_kong"]:
        flags["last_of_kind"] = False
    request: dict[str, Any] = {
        "hand": tile_names(concealed),
        "melds": [{"kind": kind, "tiles": tile_names(tiles)} for kind, tiles, _ in melds],
        "win_tile": tile_name(win_tile),
        "flags": {name: value for name, value in flags.items() if value},
        "round_wind": tile_name(EAST + k // 4),
        "seat_wind": tile_name(EAST + seat_wind_index(winner, k)),
    }
    flowers = int(win_hand.get("flower_count", 0))
    if flowers:
        request["flowers"] = [f"{i}f" for i in range(1, flowers + 1)]
    return request


def _names(value: Any, path: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(v, str) for v in value):
        raise HelperError(f"{path}: must be 4 player names (the app ignores anything else)")
    return tuple(v or f"P{i}" for i, v in enumerate(value))


def _player(flags: int, path: str) -> int | None:
    if flags & ~0xF:
        raise HelperError(f"{path}: {flags} sets a bit beyond the 4 players")
    if flags & (flags - 1):
        raise HelperError(f"{path}: {flags} names two players; the app writes one")
    return flags.bit_length() - 1 if flags else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _uint(value: Any, bits: int, path: str) -> int:
    if not _is_int(value) or not 0 <= value < 2**bits:
        raise HelperError(f"{path}: {value!r} is not a whole number 0 to 2^{bits} - 1")
    return int(value)
