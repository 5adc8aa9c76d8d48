"""Run every docstring example of the paipu packages against their sources, and count them.

The compiled engine that ``.ci/run`` installs makes the modules of ``rules/native.py``
MODULES C extensions, and ``doctest`` finds no examples in a compiled module: their
examples (shanten, settlement, tiles, decompose, wall…) would silently not run. So the
examples run in a child interpreter with ``PAIPU_PURE_PYTHON=1``, where every module is
imported from its source, and each module must attempt exactly as many examples as the
docstrings of its source hold (counted here with ``ast``): an example doctest does not find
fails the test as surely as one that gives the wrong answer.
"""

from __future__ import annotations

import ast
import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: Package name → its folder in the repository (pyproject.toml's package-dir).
PACKAGES = {
    "paipu.rules": "rules",
    "paipu.selfplay": "selfplay",
    "paipu.parsers": "parsers",
    "paipu.pipeline": "pipeline",
    "paipu.reports": "reports",
}
#: Fewer examples than this in all means the count itself went wrong.
AT_LEAST = 150

CHILD = r"""
import doctest, importlib, json, sys
import paipu.rules
results = {"engine": paipu.rules.ENGINE, "modules": {}}
for name in json.loads(sys.argv[1]):
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # mcr_reference without pymahjonggb
        results["modules"][name] = {"skipped": str(exc)}
        continue
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = []
    for test in sorted(finder.find(module), key=lambda t: t.name):
        runner.run(test, out=report.append)
    counted = runner.summarize(verbose=False)
    results["modules"][name] = {
        "file": getattr(module, "__file__", None),
        "attempted": counted.attempted,
        "failed": counted.failed,
        "report": "".join(report)[-4000:],
    }
print(json.dumps(results))
"""


def _module_names() -> list[str]:
    names = []
    for package, folder in PACKAGES.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = path.relative_to(REPO / folder).with_suffix("").parts
            if parts[-1] == "__main__":
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join((package, *parts)))
    return names


def _source(name: str) -> Path:
    package = next(p for p in PACKAGES if name == p or name.startswith(p + "."))
    path = REPO / PACKAGES[package] / Path(*name[len(package) :].lstrip(".").split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _docstrings(node: ast.AST) -> list[str]:
    """The docstrings doctest searches: the module's, its classes' and functions', and
    recursively those of the classes' members (not of functions nested in functions)."""
    found = []
    doc = ast.get_docstring(node, clean=False) if isinstance(node, ast.Module) else None
    if doc:
        found.append(doc)
    for child in getattr(node, "body", []):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            doc = ast.get_docstring(child, clean=False)
            if doc:
                found.append(doc)
            if isinstance(child, ast.ClassDef):
                found.extend(d for d in _docstrings(child) if d is not doc)
    return found


def examples_in_source(name: str) -> int:
    """How many docstring examples the source of module ``name`` holds."""
    tree = ast.parse(_source(name).read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    return sum(len(parser.get_examples(doc)) for doc in _docstrings(tree))


MODULES = _module_names()


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    env = {**os.environ, "PAIPU_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(MODULES)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["engine"] == "pure", out["engine"]  # the child ran the sources
    return out["modules"]


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples(results: dict[str, dict], module_name: str) -> None:
    result = results[module_name]
    if "skipped" in result:
        pytest.skip(f"{module_name} cannot be imported: {result['skipped']}")
    assert result["failed"] == 0, f"{module_name}:\n{result['report']}"
    assert Path(result["file"]).resolve() == _source(module_name).resolve()
    expected = examples_in_source(module_name)
    assert result["attempted"] == expected, (
        f"{module_name}: {result['attempted']} examples run of the {expected} in its source"
    )


def test_the_examples_of_the_compiled_modules_are_counted(results: dict[str, dict]) -> None:
    from paipu.rules.native import MODULES as COMPILED
    from paipu.rules.native import SELFPLAY_MODULES

    names = [f"paipu.rules.{name}" for name in COMPILED]
    names += [f"paipu.selfplay.{name}" for name in SELFPLAY_MODULES]
    ran = sum(results[name].get("attempted", 0) for name in names)
    held = sum(examples_in_source(name) for name in names)
    assert ran == held > 0, f"{ran} of the {held} examples of the compiled modules ran"
    assert sum(r.get("attempted", 0) for r in results.values()) >= AT_LEAST
