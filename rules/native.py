"""Which rules-engine modules are compiled to C, and whether the compiled ones are current.

The rules engine is plain, type-annotated Python. When the package is built, ``setup.py``
also compiles the modules in :data:`MODULES` (the hot paths of self-play, replay and the
decision review's tile efficiency) with mypyc into one C extension library, and writes
:data:`DIGEST_FILE` beside it: the SHA-256 of the sources it compiled. Python imports a
compiled module in preference to its source, so the same code runs about 2.4× faster
(docs/benchmarks.md).

:func:`use_current_code` runs when ``paipu.rules`` is imported. If a source has changed
since it was compiled (an edit, a ``git pull``), or ``PAIPU_PURE_PYTHON=1`` is set, every
module in :data:`MODULES` is imported from its source instead: all of them, because
compiled modules call each other directly, bypassing a module loaded from source. A stale
build says so once on stderr, with the command that rebuilds it; it never runs old code.

This module imports nothing from the package: ``setup.py`` reads :data:`MODULES` from it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: Modules of ``paipu.rules`` compiled by mypyc, in the order their sources are digested.
#: Not the variants' classes: they register themselves with a class decorator, which mypyc
#: compiles as a plain Python class, and their package's ``__init__`` (its ``__path__``,
#: compiled, would not find the variant modules). A variant's hot modules (MCR's fans) are
#: listed in its own folder, in :data:`VARIANT_LIST`, and added after these.
MODULES: tuple[str, ...] = (
    "tiles",
    "core.tiles",
    "core.wild",
    "core.shapes",
    "core.decompose",
    "core.shanten",
    "melds",
    "decompose",
    "shanten",
    "efficiency",
    "settlement",
    "score",
    "request_checks",
    "legal",
    "replay",
    "wall",
)
#: A variant folder's list of its modules to compile, one name a line (``#`` comments).
VARIANT_LIST = "compiled.txt"


def variant_modules(directory: Path) -> tuple[str, ...]:
    """``variants.<id>.<module>`` for each module the variant folders of ``directory`` list
    in their :data:`VARIANT_LIST`, by folder name, in the order listed."""
    names: list[str] = []
    for listing in sorted((directory / "variants").glob(f"*/{VARIANT_LIST}")):
        for line in listing.read_text(encoding="utf-8").splitlines():
            module = line.split("#", 1)[0].strip()
            if module:
                names.append(f"variants.{listing.parent.name}.{module}")
    return tuple(names)


MODULES += variant_modules(Path(__file__).resolve().parent)
#: Modules of ``paipu.selfplay`` compiled too (self-play's hot path: its loop and the
#: bots; ``bots.tile_set`` must be, as its bot derives from the compiled ``BotCore``).
#: That package lies beside this one, in the repository and installed alike.
SELFPLAY_MODULES: tuple[str, ...] = (
    "loop",
    "bots.core",
    "bots.fans",
    "bots.regional",
    "bots.tile_set",
)
SELFPLAY_PACKAGE = "paipu.selfplay"
#: The SHA-256 of the compiled sources, written by the build beside the compiled modules.
DIGEST_FILE = "native.sha256"
#: Set to a non-empty value other than ``0`` to run the rules engine as plain Python.
PURE_ENV = "PAIPU_PURE_PYTHON"
PACKAGE = "paipu.rules"
REBUILD = "pip install -e .  (or set PAIPU_PURE_PYTHON=1 to silence this)"


def module_path(directory: Path, name: str, suffix: str = ".py") -> Path:
    """Where module ``name`` of :data:`MODULES` lies in ``directory``, with ``suffix``."""
    path = directory.joinpath(*name.split("."))
    return path.with_name(path.name + suffix)


def compiled_sources(directory: Path, suffix: str = ".py") -> list[tuple[str, Path]]:
    """(full dotted name, file with ``suffix``) of every compiled module, in digest order:
    :data:`MODULES` in ``directory`` (``paipu.rules``'s folder), then
    :data:`SELFPLAY_MODULES` in the ``selfplay`` folder beside it."""
    selfplay = directory.parent / "selfplay"
    return [(f"{PACKAGE}.{name}", module_path(directory, name, suffix)) for name in MODULES] + [
        (f"{SELFPLAY_PACKAGE}.{name}", module_path(selfplay, name, suffix))
        for name in SELFPLAY_MODULES
    ]


def source_digest(directory: Path) -> str:
    """SHA-256 of the sources of every compiled module (:func:`compiled_sources`), in order."""
    digest = hashlib.sha256()
    for name, source in compiled_sources(directory):
        digest.update(name.encode() + b"\0")
        digest.update(source.read_bytes())
    return digest.hexdigest()


def compiled_files(directory: Path) -> list[Path]:
    """The compiled modules of :func:`compiled_sources` found for ``directory``."""
    return [
        path
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for _, path in compiled_sources(directory, suffix)
        if path.is_file()
    ]


def state(directory: Path | None = None) -> str:
    """``compiled``, ``pure`` (nothing compiled, or ``PAIPU_PURE_PYTHON`` set) or ``stale``."""
    directory = directory or Path(__file__).parent
    if not compiled_files(directory) or os.environ.get(PURE_ENV, "") not in ("", "0"):
        return "pure"
    recorded = directory / DIGEST_FILE
    try:
        current = recorded.read_text().strip() == source_digest(directory)
    except OSError:  # no digest, or a source missing: the build cannot be trusted
        current = False
    return "compiled" if current else "stale"


class _SourceFinder(MetaPathFinder):
    """Finds the compiled modules (:func:`compiled_sources`) as their ``.py`` sources."""

    def __init__(self, directory: Path) -> None:
        self.sources = dict(compiled_sources(directory))

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def use_current_code() -> str:
    """Import the sources instead of the compiled modules unless these are current.

    Returns the :func:`state`. Called once, when ``paipu.rules`` is imported.
    """
    directory = Path(__file__).parent
    now = state(directory)
    if now == "stale":
        print(
            f"paipu: the compiled rules engine in {directory} is older than its sources; "
            f"running them as plain Python (slower). Rebuild with: {REBUILD}",
            file=sys.stderr,
        )
    if now != "compiled" and compiled_files(directory):
        sys.meta_path.insert(0, _SourceFinder(directory))
    return now
