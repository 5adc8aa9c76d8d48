"""Recorded-only hands (只有记分, no events): what a club writes down, in the paipu hand model.

A score sheet row (../shared/spec/score-sheet.md) or a 国标小助手 detail entry
(../shared/spec/mahjong-helper-records.md) becomes a :class:`~paipu.rules.record.HandRecord`
with no events and an empty deal. The recorded result (``result``: winners, discarder, fans
claimed, totals, deltas) is the claim; what only a sheet carries lives in
``source["recorded"]``:

``penalties``
    points within the deltas that are not the win's settlement (罚分 / 调整), by seat.
``tiles``
    per win (in the order of ``result.wins``), the winner's tiles as the fields of a score
    request (``hand``, ``melds``, ``win_tile``, ``flags``, ``flowers``, ``round_wind``,
    ``seat_wind``, ``extra``), or null where none were written.
``fans_complete``
    whether the fans listed are the whole claim (a sheet), or only the ones marked, the
    total being typed apart (国标小助手's manual hands).
``flowers``, ``note``, ``unplayed``
    flowers without tiles, the sheet's note, a hand never played (国标小助手's 超时).

>>> record = recorded_hand("mcr", "s1", 0, ("a", "b", "c", "d"), 0, None, (0, 0, 0, 0),
...                        {"format": "score-sheet"})
>>> is_recorded(record), record.result.outcome, record.events
(True, 'draw', ())
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any

from paipu.rules.fans import FanDef, FanTable
from paipu.rules.record import HandRecord, RecordedResult, RecordedWin
from paipu.rules.tiles import Tile
from paipu.rules.variants import get_variant

#: ``source["kind"]`` of a recorded-only hand, and the database's ``hands.source_kind``.
RECORDED = "recorded"
EVENTS = "events"


def is_recorded(record: HandRecord) -> bool:
    """A recorded-only hand: no events, an empty deal, and a ``source`` saying so."""
    return (
        not record.events
        and not any(record.deal)
        and record.source is not None
        and record.source.get("kind") == RECORDED
    )


def recorded_facts(record: HandRecord) -> Mapping[str, Any]:
    """The sheet's own facts of a recorded-only hand (``source["recorded"]``)."""
    facts = record.source.get("recorded") if record.source is not None else None
    return facts if isinstance(facts, Mapping) else {}


def unplayed(record: HandRecord) -> bool:
    """A hand never played (国标小助手's 超时): kept for its penalties, never a dispute, left
    out of statistics."""
    return bool(recorded_facts(record).get("unplayed"))


def recorded_hand(
    variant: str,
    game: str,
    hand: int,
    players: tuple[str, ...],
    dealer: int,
    wins: Sequence[RecordedWin] | None,
    deltas: tuple[int, ...],
    source: Mapping[str, Any],
    *,
    facts: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any] | None = None,
    time: str | None = None,
    round_wind: Tile | None = None,
    seat_winds: tuple[Tile, ...] | None = None,
    outcome: str | None = None,
) -> HandRecord:
    """A recorded-only hand; ``wins`` None or empty is a drawn hand."""
    kwargs: dict[str, Any] = {}
    if round_wind is not None:
        kwargs["round_wind"] = round_wind
    return HandRecord(
        variant=variant,
        game=game,
        hand=hand,
        players=players,
        dealer=dealer,
        deal=tuple(() for _ in players),
        events=(),
        seat_winds=seat_winds,
        rules=dict(rules or {}),
        time=time,
        result=RecordedResult(outcome or ("win" if wins else "draw"), tuple(wins or ()), deltas),
        source={**source, "kind": RECORDED, "recorded": dict(facts or {})},
        **kwargs,
    )


def fan_index(table: FanTable, aliases: Mapping[str, str] = {}) -> dict[str, FanDef]:
    """Every way a sheet may name a fan: its id, Chinese name, English name (any case),
    and the variant's aliases (``fan_aliases.toml``)."""
    index: dict[str, FanDef] = {}
    for fan in table.fans:
        for name in (fan.id, fan.name_zh, fan.name_en):
            index[_key(name)] = fan
    for alias, fan_id in aliases.items():
        if fan_id in table.by_id:
            index[_key(alias)] = table.by_id[fan_id]
    return index


@cache
def sheet_fans(variant: str) -> Mapping[str, Any]:
    """The variant's section of ``sheet_fans.toml`` (``aliases``, ``alone``), or {}."""
    text = (files("paipu.parsers") / "sheet_fans.toml").read_text(encoding="utf-8")
    section = tomllib.loads(text).get(variant, {})
    return section if isinstance(section, Mapping) else {}


@cache
def variant_fan_index(variant: str) -> Mapping[str, FanDef]:
    """:func:`fan_index` of a registered variant, with its aliases."""
    table = get_variant(variant).spec.fans
    return fan_index(table, sheet_fans(variant).get("aliases", {}))


def find_fan(index: Mapping[str, FanDef], name: str) -> FanDef | None:
    return index.get(_key(name))


def _key(name: str) -> str:
    return " ".join(name.replace("・", " ").replace("·", " ").replace("_", " ").split()).casefold()
