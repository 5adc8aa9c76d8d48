"""Fan tables (番种表): the data side of scoring.

Each variant's TOML lists its fans (``[[fans]]``: ``id``, ``name_zh``, ``name_en``,
``points``, ``excludes`` …). A variant's evaluator declares, with :func:`produces`, which
fan ids each of its detectors can yield; :func:`check_coverage` fails loudly when the TOML
and the code disagree, so that a fan can never be silently missing or unpriced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar


class FanTableError(ValueError):
    """A fan table and its evaluator disagree."""


@dataclass(frozen=True, slots=True)
class FanDef:
    """One fan (番种) of a variant's table."""

    index: int
    id: str
    name_zh: str
    name_en: str
    points: int
    repeatable: bool = False
    excludes: tuple[str, ...] = ()
    demotes: tuple[tuple[str, str], ...] = ()
    absorbs: tuple[tuple[str, int], ...] = ()
    not_counted: str = ""

    @classmethod
    def from_toml(cls, row: Mapping[str, Any]) -> FanDef:
        known = set(cls.__slots__)  # type: ignore[attr-defined]
        unknown = set(row) - known
        if unknown:
            raise FanTableError(f"fan {row.get('id')!r}: unknown keys {sorted(unknown)}")
        return cls(
            index=int(row["index"]),
            id=str(row["id"]),
            name_zh=str(row["name_zh"]),
            name_en=str(row["name_en"]),
            points=int(row["points"]),
            repeatable=bool(row.get("repeatable", False)),
            excludes=tuple(row.get("excludes", ())),
            demotes=tuple(dict(row.get("demotes", {})).items()),
            absorbs=tuple((k, int(v)) for k, v in dict(row.get("absorbs", {})).items()),
            not_counted=str(row.get("not_counted", "")),
        )


@dataclass(frozen=True)
class FanTable:
    """A variant's fans, addressable by id and by index."""

    fans: tuple[FanDef, ...]
    by_id: Mapping[str, FanDef] = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        by_id: dict[str, FanDef] = {}
        for fan in self.fans:
            if fan.id in by_id:
                raise FanTableError(f"fan id {fan.id!r} is listed twice")
            by_id[fan.id] = fan
        for fan in self.fans:
            refs = list(fan.excludes) + [a for a, _ in fan.demotes] + [b for _, b in fan.demotes]
            refs += [a for a, _ in fan.absorbs]
            for ref in refs:
                if ref not in by_id:
                    raise FanTableError(f"fan {fan.id!r} refers to unknown fan {ref!r}")
        object.__setattr__(self, "by_id", by_id)
        object.__setattr__(self, "size", max((f.index for f in self.fans), default=0) + 1)

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]]) -> FanTable:
        return cls(tuple(FanDef.from_toml(r) for r in rows))

    def index(self, fan_id: str) -> int:
        try:
            return self.by_id[fan_id].index
        except KeyError:
            raise FanTableError(f"no fan {fan_id!r} in the table") from None

    def values(self) -> list[int]:
        """Points per instance, indexed by fan index."""
        out = [0] * self.size
        for fan in self.fans:
            out[fan.index] = fan.points
        return out


_F = TypeVar("_F", bound=Callable[..., Any])


def produces(registry: dict[str, str], *fan_ids: str) -> Callable[[_F], _F]:
    """Declare that the decorated detector can yield ``fan_ids``; recorded in ``registry``."""

    def mark(func: _F) -> _F:
        for fan_id in fan_ids:
            if fan_id in registry and registry[fan_id] != func.__name__:
                raise FanTableError(
                    f"fan {fan_id!r} produced by both {registry[fan_id]} and {func.__name__}"
                )
            registry[fan_id] = func.__name__
        return func

    return mark


def check_coverage(table: FanTable, registry: Mapping[str, str], variant: str) -> None:
    """Every fan in the table has a detector and every detector's fan is in the table."""
    missing = sorted(set(table.by_id) - set(registry))
    extra = sorted(set(registry) - set(table.by_id))
    if missing:
        raise FanTableError(f"{variant}: fans without a detector: {', '.join(missing)}")
    if extra:
        raise FanTableError(f"{variant}: detectors for fans not in the table: {', '.join(extra)}")
