"""The layout of the rules engine (issue 12): a folder per variant, and no variant named
outside its folder.

These read the sources with :mod:`ast`; nothing is imported, so they take well under a
second.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
VARIANTS = RULES / "variants"


def variant_ids() -> list[str]:
    return sorted(p.parent.name for p in VARIANTS.glob("*/*.toml") if p.stem == p.parent.name)


def strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every string constant of a module as (line, text): docstrings only by their
    examples (``>>>`` and ``...`` lines), which are code; their prose may name a game."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if id(node) in docstrings:
                text = "\n".join(
                    line for line in text.splitlines() if line.strip().startswith((">>>", "..."))
                )
            yield node.lineno, text


def test_every_variant_is_a_folder_with_its_data_and_class() -> None:
    ids = variant_ids()
    assert len(ids) >= 5, ids
    for variant_id in ids:
        folder = VARIANTS / variant_id
        assert (folder / "__init__.py").is_file(), f"{folder}: no __init__.py (the class)"
    loose = sorted(p.name for p in VARIANTS.iterdir() if p.is_file() and p.name != "__init__.py")
    assert loose == [], f"files of no variant's folder in rules/variants/: {loose}"


def test_no_variant_id_appears_outside_its_folder() -> None:
    """Adding a variant touches only its folder: no other module of ``rules/`` names one
    (a dispatch on ``variant.id == ...``, a dotted path, a TOML file name)."""
    ids = variant_ids()
    found = []
    for path in sorted(RULES.rglob("*")):
        if path.suffix not in (".py", ".toml", ".txt") or "__pycache__" in path.parts:
            continue
        relative = path.relative_to(RULES)
        owner = relative.parts[1] if relative.parts[0] == "variants" else None
        others = [v for v in ids if v != owner]
        pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(others) + r")(?![A-Za-z0-9])")
        if path.suffix == ".py":
            texts = list(strings(ast.parse(path.read_text(encoding="utf-8"))))
        else:
            texts = list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))
        for line, text in texts:
            for match in pattern.finditer(text):
                found.append(f"rules/{relative}:{line}: {match.group(1)!r}")
    assert found == [], "variant ids outside their folders:\n" + "\n".join(found)


def test_no_module_imports_another_variants_folder() -> None:
    """What two variants share is a mechanic or a core module, never one variant's module
    imported by another, or by the core (MCR's request checks once served the regional
    table from MCR's folder)."""
    ids = variant_ids()
    found = []
    for path in sorted(RULES.rglob("*.py")):
        relative = path.relative_to(RULES)
        owner = relative.parts[1] if relative.parts[0] == "variants" else None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                inside = parts[:3] == ["paipu", "rules", "variants"] and len(parts) > 3
                if inside and parts[3] in ids and parts[3] != owner:
                    found.append(f"rules/{relative}:{node.lineno}: {name}")
    assert found == [], "imports of another variant's folder:\n" + "\n".join(found)


def _calls(tree: ast.AST, names: tuple[str, ...]) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            yield node


def _is_table(node: ast.expr) -> bool:
    """``table`` or ``<anything>.table``: the replay table a variant is handed."""
    return (isinstance(node, ast.Name) and node.id == "table") or (
        isinstance(node, ast.Attribute) and node.attr == "table"
    )


def test_variants_reach_the_table_only_through_typed_attributes() -> None:
    """One replay table (issue 12): a variant keeps its state in the object it gives the
    table (``Variant.new_state``), so none asks which table it has (``isinstance(table,
    …)``) or reads a field only some table has (``getattr(table, …)``)."""
    found = []
    for path in sorted(VARIANTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree, ("isinstance", "getattr", "hasattr")):
            if call.args and _is_table(call.args[0]):
                found.append(f"{path.relative_to(ROOT)}:{call.lineno}: {call.func.id}(table, …)")  # type: ignore[attr-defined]
    assert found == [], "\n".join(found)


def _isinstance_tests(node: ast.If) -> Iterator[ast.If]:
    """The ``if``/``elif`` branches of one chain whose test is an ``isinstance`` call."""
    while True:
        test = node.test
        func = test.func if isinstance(test, ast.Call) else None
        if isinstance(func, ast.Name) and func.id == "isinstance":
            yield node
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
        else:
            return


def test_the_table_dispatches_events_by_its_handlers_only() -> None:
    """The table's ``apply`` finds each event's handler in one mapping (its own and its
    variant state's): no ``isinstance`` in it, no ``if isinstance … elif isinstance …``
    chain anywhere in the table or the legal moves, no ``replay_special`` hook, and no
    second table module."""
    assert not (RULES / "regional_table.py").exists()
    for name in ("replay.py", "legal.py"):
        tree = ast.parse((RULES / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If):
                chain = list(_isinstance_tests(node))
                assert len(chain) < 2, f"rules/{name}:{node.lineno}: an isinstance chain"
            if isinstance(node, ast.FunctionDef) and node.name == "apply":
                assert not list(_calls(node, ("isinstance",))), f"rules/{name}: isinstance in apply"
    for path in sorted(RULES.rglob("*.py")):
        assert "replay_special" not in path.read_text(encoding="utf-8"), path


def hooks_of(path: Path, class_name: str) -> set[str]:
    """The method names a class of ``path`` defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name]
    return {n.name for n in node.body if isinstance(n, ast.FunctionDef)}


def test_no_variant_state_hides_a_hook_under_an_attribute() -> None:
    """A variant's table state (a class derived from a ``…State``) that keeps
    ``self.<hook> = …`` where :class:`~paipu.rules.replay.VariantState` has a hook of that
    name replaces the hook with data, and the table calls it: 5-fan's ``self.penalties``
    list met Harbin's ``penalties()`` hook in the merge of stop 24 (a TypeError the fuzzer
    found)."""
    hooks = hooks_of(RULES / "replay.py", "VariantState") - {"__init__"}
    clashes = []
    for path in [*VARIANTS.glob("*/*.py"), *(RULES / "mechanics").glob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            if not any(ast.unparse(b).endswith("State") for b in cls.bases):
                continue
            for node in ast.walk(cls):
                targets = (
                    node.targets
                    if isinstance(node, ast.Assign)
                    else [node.target]
                    if isinstance(node, ast.AnnAssign)
                    else []
                )
                clashes += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {cls.name}: self.{t.attr}"
                    for t in targets
                    if isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    and t.attr in hooks
                ]
    assert clashes == []
