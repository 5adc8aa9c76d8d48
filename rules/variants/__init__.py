"""The variant registry (玩法): each variant is a TOML file of data plus a small module.

``rules/variants/<id>.toml`` holds the tile set, hand size, allowed calls and shapes, the
minimum, the named options with their defaults, and the fan table. ``rules/variants/<id>.py``
defines a :class:`Variant` subclass registered with :func:`register`; it adds only what
cannot be data: the fan evaluator, the settlement, special events.

>>> variant = get_variant("mcr")
>>> variant.spec.name_zh, variant.spec.players, variant.spec.min_fan
('国标麻将', 4, 8)
>>> variant.resolve_options({"base_points": 10})["base_points"]
10
"""

from __future__ import annotations

import importlib
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from paipu.rules.fans import FanTable
from paipu.rules.tiles import Tile, standard_set

if TYPE_CHECKING:
    from paipu.rules.score import ScoreAnswer, ScoreRequest

VARIANTS_DIR = Path(__file__).parent


class VariantError(ValueError):
    """An unknown variant or option, or a variant whose data is inconsistent."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A named rule option (玩法选项) with its default and what it means."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None

    def check(self, value: Any) -> Any:
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(repr, self.choices))
            raise VariantError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if self.choices is None and type(value) is not type(self.default):
            kind = type(self.default).__name__
            raise VariantError(f"option {self.name!r} must be a {kind}, not {value!r}")
        return value


class Options(Mapping[str, Any]):
    """Resolved option values: the variant's defaults with a log's ``rules`` applied."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Options({self._values!r})"


@dataclass(frozen=True)
class VariantSpec:
    """The data half of a variant, read from its TOML file."""

    id: str
    name_zh: str
    name_en: str
    players: int
    hand_size: int
    tiles: Mapping[str, Any]
    calls: tuple[str, ...]
    shapes: tuple[str, ...]
    min_fan: int
    multiple_wins: bool
    options: Mapping[str, OptionSpec]
    fans: FanTable
    raw: Mapping[str, Any]

    @classmethod
    def load(cls, variant_id: str) -> VariantSpec:
        path = VARIANTS_DIR / f"{variant_id}.toml"
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise VariantError(
                f"unknown variant {variant_id!r} (known: {', '.join(variant_ids())})"
            ) from None
        if data.get("id") != variant_id:
            raise VariantError(f"{path.name}: id {data.get('id')!r} does not match the file name")
        options = {
            name: OptionSpec(
                name,
                spec["default"],
                spec.get("doc", ""),
                tuple(spec["choices"]) if "choices" in spec else None,
            )
            for name, spec in data.get("options", {}).items()
        }
        return cls(
            id=variant_id,
            name_zh=data["name_zh"],
            name_en=data["name_en"],
            players=int(data["players"]),
            hand_size=int(data["hand_size"]),
            tiles=data.get("tiles", {}),
            calls=tuple(data.get("calls", ())),
            shapes=tuple(data.get("shapes", ("standard",))),
            min_fan=int(data.get("min_fan", 0)),
            multiple_wins=bool(data.get("multiple_wins", False)),
            options=options,
            fans=FanTable.from_rows(data.get("fans", [])),
            raw=data,
        )


class Variant(ABC):
    """A playable variant: its :class:`VariantSpec` plus the behaviour that is code."""

    id: ClassVar[str]
    spec: VariantSpec

    def __init__(self) -> None:
        self.spec = VariantSpec.load(self.id)

    def resolve_options(self, rules: Mapping[str, Any] | None = None) -> Options:
        """Defaults overridden by ``rules``; an unknown option is an error."""
        values = {name: spec.default for name, spec in self.spec.options.items()}
        for name, value in (rules or {}).items():
            if name not in self.spec.options:
                known = ", ".join(self.spec.options) or "none"
                raise VariantError(f"unknown option {name!r} for {self.id} (options: {known})")
            values[name] = self.spec.options[name].check(value)
        return Options(values)

    def wall_tiles(self, options: Options) -> list[Tile]:
        """Every tile of a full set for this variant."""
        tiles = self.spec.tiles
        return standard_set(
            honors=bool(tiles.get("honors", True)), flowers=bool(tiles.get("flowers", False))
        )

    @abstractmethod
    def score(self, request: ScoreRequest, options: Options) -> ScoreAnswer:
        """Score one finished hand."""


_V = TypeVar("_V", bound=type[Variant])
_REGISTRY: dict[str, type[Variant]] = {}


def register(cls: _V) -> _V:
    """Class decorator: make a :class:`Variant` subclass available under its ``id``."""
    _REGISTRY[cls.id] = cls
    return cls


def variant_ids() -> list[str]:
    """Ids of every variant that has a TOML file."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.toml"))


@cache
def get_variant(variant_id: str) -> Variant:
    """The registered variant with this id, loading its module on first use."""
    if variant_id not in _REGISTRY:
        if variant_id not in variant_ids():
            raise VariantError(
                f"unknown variant {variant_id!r} (known: {', '.join(variant_ids())})"
            )
        importlib.import_module(f"{__name__}.{variant_id}")
    try:
        return _REGISTRY[variant_id]()
    except KeyError:
        raise VariantError(f"variant {variant_id!r} has data but no rules module") from None
