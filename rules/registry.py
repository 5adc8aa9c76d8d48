"""The variant registry (玩法): the ids, the TOML data and the classes registered for them.

Each variant is a folder ``rules/variants/<id>/``: ``<id>.toml`` holds the tile set, hand
size, allowed calls and shapes, the minimum, the named options with their defaults and
the fan table; its ``__init__.py`` defines a :class:`~paipu.rules.variants.Variant`
subclass registered with :func:`register`. This module knows no variant: it finds them
by their folders and imports one (by its dotted name) the first time it is asked for.

>>> all(get_variant(variant_id).spec.id == variant_id for variant_id in variant_ids())
True
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from paipu.rules.fans import FanTable

if TYPE_CHECKING:
    from paipu.rules.variants import Variant

#: The package whose sub-packages are the variants.
VARIANTS_PACKAGE = "paipu.rules.variants"


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
        if self.choices is not None and not any(  # true is not 1, nor 4.0 a 4
            value == c and type(value) is type(c) for c in self.choices
        ):
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
        path = toml_path(variant_id)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise VariantError(
                f"unknown variant {variant_id!r} (known: {', '.join(variant_ids())})"
            ) from None
        if data.get("id") != variant_id:
            raise VariantError(f"{path.name}: id {data.get('id')!r} does not match the file name")
        return cls.from_data(variant_id, data)

    @classmethod
    def from_data(cls, variant_id: str, data: Mapping[str, Any]) -> VariantSpec:
        """The spec of a TOML document already read (a test's variant built from a string)."""
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


_V = TypeVar("_V", bound=type["Variant"])
_REGISTRY: dict[str, type[Variant]] = {}


def register(cls: _V) -> _V:
    """Class decorator: make a :class:`Variant` subclass available under its ``id``."""
    _REGISTRY[cls.id] = cls
    return cls


@cache
def variants_dir() -> Path:
    """The folder of the variants: one sub-folder ``<id>/`` each, holding ``<id>.toml``.

    Found from ``paipu.rules``, which is never compiled: a module compiled by mypyc and
    imported by another does not know where its file lies (``__file__``, ``__spec__``),
    and a compiled fan module (MCR's) reads its variant's fan table through :func:`toml_path`.
    """
    return Path(str(files("paipu.rules"))) / "variants"


def toml_path(variant_id: str) -> Path:
    """Where the data of variant ``variant_id`` lies: ``variants/<id>/<id>.toml``."""
    return variants_dir() / variant_id / f"{variant_id}.toml"


def variant_ids() -> list[str]:
    """Ids of every variant that has a folder with its TOML file."""
    return sorted(p.stem for p in variants_dir().glob("*/*.toml") if p.stem == p.parent.name)


def load_event_kinds(variant_id: str) -> None:
    """Import variant ``variant_id``'s package, so that the event kinds it owns (its own
    or those of the mechanics it composes) are registered before a log of it is decoded.
    An unknown id does nothing here: the replay rejects it with the known ids."""
    if variant_id not in _REGISTRY and variant_id in variant_ids():
        importlib.import_module(f"{VARIANTS_PACKAGE}.{variant_id}")


@cache
def get_variant(variant_id: str) -> Variant:
    """The registered variant with this id, loading its module on first use."""
    if variant_id not in _REGISTRY:
        if variant_id not in variant_ids():
            raise VariantError(
                f"unknown variant {variant_id!r} (known: {', '.join(variant_ids())})"
            )
        importlib.import_module(f"{VARIANTS_PACKAGE}.{variant_id}")
    try:
        return _REGISTRY[variant_id]()
    except KeyError:
        raise VariantError(f"variant {variant_id!r} has data but no rules module") from None
