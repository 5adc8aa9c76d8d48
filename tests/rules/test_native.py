"""The compiled rules engine (mypyc, ``rules/native.py``): built, used, never stale, and
byte for byte the same as the plain Python engine."""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import paipu.rules
from paipu.rules import native

PURE = os.environ.get(native.PURE_ENV, "") not in ("", "0")
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

# One game of MCR and one of Sichuan (whose table and play derive from compiled classes),
# written as paipu lines; the digest of the lines is printed.
SIMULATE = """
import hashlib
from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, play_game
import paipu.rules
digest = hashlib.sha256()
for variant in ("mcr", "sichuan"):
    job = game_jobs(variant, 8, 11, DEFAULT_PLAYERS, {})[0]
    for line in play_game(job)[0]:
        digest.update(line.encode())
print(paipu.rules.ENGINE, digest.hexdigest())
"""


def run_python(script: str, pure: bool = False) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter, with ``PAIPU_PURE_PYTHON`` set only when ``pure``."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    return subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )


def run_simulation(pure: bool) -> tuple[str, str]:
    engine, digest = run_python(SIMULATE, pure).stdout.split()
    return engine, digest


@pytest.mark.skipif(PURE, reason=f"{native.PURE_ENV} is set: the plain Python engine runs")
def test_the_build_compiled_the_engine_and_it_is_used() -> None:
    """The package was built with its compiled modules, and they are current."""
    assert paipu.rules.ENGINE == "compiled"
    for name, _ in native.compiled_sources(Path(native.__file__).parent):
        module = importlib.import_module(name)
        assert module.__file__ is not None and module.__file__.endswith(SUFFIX), name


@pytest.mark.skipif(PURE, reason=f"{native.PURE_ENV} is set: nothing to compare")
def test_compiled_and_plain_python_engines_write_the_same_bytes() -> None:
    compiled = run_simulation(pure=False)
    plain = run_simulation(pure=True)
    assert compiled[0] == "compiled"
    assert plain[0] == "pure"
    assert compiled[1] == plain[1]


def fake_build(directory: Path) -> None:
    """Sources of every compiled module, a compiled file for each, and their digest;
    ``directory`` stands for ``paipu/rules`` (self-play's modules go beside it)."""
    for (name, source), (_, compiled) in zip(
        native.compiled_sources(directory), native.compiled_sources(directory, SUFFIX), strict=True
    ):
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {name}\n")
        compiled.write_bytes(b"\0")
    (directory / native.DIGEST_FILE).write_text(native.source_digest(directory) + "\n")


def test_a_current_build_is_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    fake_build(tmp_path / "rules")
    assert native.state(tmp_path / "rules") == "compiled"


@pytest.mark.parametrize(
    ("folder", "name"),
    [("rules", native.MODULES[-1]), ("selfplay", native.SELFPLAY_MODULES[0])],
    ids=["rules", "selfplay"],
)
def test_an_edited_source_makes_the_build_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, name: str
) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    fake_build(tmp_path / "rules")
    source = native.module_path(tmp_path / folder, name)
    source.write_text(source.read_text() + "# edited\n")
    assert native.state(tmp_path / "rules") == "stale"
    (tmp_path / "rules" / native.DIGEST_FILE).unlink()
    assert native.state(tmp_path / "rules") == "stale"


def test_pure_python_when_nothing_is_compiled_or_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native.state(tmp_path / "rules") == "pure"
    fake_build(tmp_path / "rules")
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.state(tmp_path / "rules") == "pure"
    monkeypatch.setenv(native.PURE_ENV, "0")
    assert native.state(tmp_path / "rules") == "compiled"


def test_the_digest_covers_every_compiled_source() -> None:
    directory = Path(native.__file__).parent
    digest = hashlib.sha256()
    sources = native.compiled_sources(directory)
    assert {name for name, _ in sources} >= {
        "paipu.rules.replay",
        "paipu.selfplay.loop",
        "paipu.selfplay.bots.core",
    }
    for name, source in sources:
        digest.update(name.encode() + b"\0" + source.read_bytes())
    assert native.source_digest(directory) == digest.hexdigest()


def test_a_stale_build_runs_the_sources_and_says_so(tmp_path: Path) -> None:
    """A stale build warns once and imports every compiled module from its source."""
    if not native.compiled_files(Path(native.__file__).parent):
        pytest.skip("nothing compiled in this install")
    script = (
        "import sys\n"
        "from paipu.rules import native\n"
        "native.state = lambda directory=None: 'stale'\n"
        "native.use_current_code()\n"
        "import paipu.selfplay.bots.core, paipu.rules.shanten\n"
        "print(paipu.selfplay.bots.core.__file__, paipu.rules.shanten.__file__)\n"
    )
    done = run_python(script)
    assert all(path.endswith(".py") for path in done.stdout.split())
    assert "older than its sources" in done.stderr
    assert "pip install -e ." in done.stderr


def test_version_names_how_the_engine_runs() -> None:
    from typer.testing import CliRunner

    from paipu.pipeline.cli import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert f"(rules engine: {paipu.rules.ENGINE})" in result.output
