"""Build paipu, compiling the rules engine's hot modules to C with mypyc.

Everything is declared in pyproject.toml; this file only adds the compiled modules
(``paipu.rules.native.MODULES``). mypyc compiles the type-annotated sources as they are
into one C extension library; Python then imports the compiled modules in preference to
the sources: the same code, about 2.4× faster. The build writes the sources' SHA-256
beside them, so that an edited source is run as Python until the next build
(``rules/native.py``).

``PAIPU_PURE_PYTHON=1 pip install .`` skips the compilation (no C compiler needed). If
mypyc or the C compiler fails, the build says so and installs the plain Python engine.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE = runpy.run_path(str(ROOT / "rules" / "native.py"))
#: Where mypyc sees the sources under their package names (paipu/rules/…).
STAGE = Path("build") / "mypyc-src"


def packages() -> list[str]:
    """Every package: each folder holding an ``__init__.py`` under a root of pyproject's
    ``package-dir`` (``paipu.rules`` is ``rules/``, …), sub-packages included."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        roots = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    found = []
    for package, folder in sorted(roots.items()):
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            relative = init.parent.relative_to(ROOT / folder)
            found.append(".".join((package, *relative.parts)))
    return found


def warn(message: str) -> None:
    print(f"paipu build: {message}", file=sys.stderr)


#: The folders holding compiled modules: ``paipu.rules`` and ``paipu.selfplay``.
COMPILED_FOLDERS = ("rules", "selfplay")


def stage_sources() -> list[str]:
    """Copy the rules and self-play packages to ``STAGE/paipu/``; the paths of the modules
    to compile.

    The repository keeps ``paipu.rules`` in ``rules/`` (and ``paipu.selfplay`` in
    ``selfplay/``); mypy names modules by their path, so it reads a copy laid out as the
    installed packages.
    """
    shutil.rmtree(STAGE, ignore_errors=True)
    for folder in COMPILED_FOLDERS:
        shutil.copytree(
            ROOT / folder,
            STAGE / "paipu" / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        )
    return [str(path) for _, path in NATIVE["compiled_sources"](STAGE / "paipu" / "rules")]


def remove_old_builds() -> None:
    """Delete compiled modules an earlier in-place (editable) build left in ``rules/`` or
    ``selfplay/``.

    They are build outputs; a module that is no longer compiled must not shadow its source.
    """
    for suffix in EXTENSION_SUFFIXES:
        for folder in COMPILED_FOLDERS:
            for path in (ROOT / folder).rglob(f"*{suffix}"):
                path.unlink()
    (ROOT / "rules" / NATIVE["DIGEST_FILE"]).unlink(missing_ok=True)


def compiled_extensions() -> list[Extension]:
    """The mypyc extensions, or none (pure Python) when asked or when mypyc fails."""
    remove_old_builds()
    if os.environ.get(NATIVE["PURE_ENV"], "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        warn("mypyc is not installed: the rules engine stays plain Python")
        return []
    paths = stage_sources()
    os.environ["MYPYPATH"] = str(STAGE)
    try:
        return mypycify(
            [
                "--explicit-package-bases",
                "--cache-dir",
                str(Path("build") / "mypy-cache"),
                *paths,
            ],
            opt_level="3",
            group_name="paipu.rules.native",
            target_dir=str(Path("build") / "mypyc"),
        )
    except (Exception, SystemExit) as exc:  # a type error mypyc refuses to compile
        warn(f"mypyc failed ({exc}): the rules engine stays plain Python")
        return []


class BuildNative(build_ext):
    """Build the compiled modules, then record the digest of the sources they came from.

    A failed C build removes what it built and leaves the plain Python engine.
    """

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no C compiler, or a compile error
            warn(f"compiling the rules engine failed ({exc}): it stays plain Python")
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            return
        shim = next(e for e in self.extensions if e.name.startswith("paipu.rules."))
        directory = Path(self.get_ext_fullpath(shim.name)).parent
        digest = NATIVE["source_digest"](ROOT / "rules")
        (directory / NATIVE["DIGEST_FILE"]).write_text(digest + "\n")


setup(
    packages=packages(),
    ext_modules=compiled_extensions(),
    cmdclass={"build_ext": BuildNative},
)
