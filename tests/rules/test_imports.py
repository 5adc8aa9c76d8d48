"""The imports of the rules engine (issue 12): they form no cycle, and none hides in a
function to dodge one.

These read the sources with :mod:`ast`; nothing is imported, so they take well under a
second.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The packages read here and where their sources lie (pyproject's package-dir).
PACKAGES = {"paipu.rules": ROOT / "rules", "paipu.selfplay": ROOT / "selfplay"}

#: The one module that may import a module by a name it computes: the registry, loading
#: the variant a record or a request names by its folder.
DYNAMIC_IMPORTERS = {"paipu.rules.registry"}


def modules() -> dict[str, Path]:
    """Every module of :data:`PACKAGES` by dotted name (a package by its ``__init__``)."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def _function_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner


def _names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement asks for (relative ones resolved)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        anchor = parts if is_package else parts[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def test_no_paipu_import_inside_a_function() -> None:
    """An import placed in a function to dodge a cycle hides the cycle: none is left, and
    no module but the registry imports by a computed name (``importlib``)."""
    found = []
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in _function_imports(tree):
            if any(n.startswith("paipu") for n in _names(node, module, is_package)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        if module not in DYNAMIC_IMPORTERS:
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr == "import_module") or (
                    isinstance(node, ast.alias) and node.name == "import_module"
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: import_module")
    assert found == [], "imports inside functions:\n" + "\n".join(found)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports that run when the module is imported (not those for type checkers)."""
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    pending.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])


def import_graph() -> dict[str, set[str]]:
    """Module → the modules importing it runs: each imported module and its packages
    (importing ``a.b.c`` runs ``a`` and ``a.b`` first)."""
    known = modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _module_level_imports(tree):
            for name in _names(node, module, path.name == "__init__.py"):
                parts = name.split(".")
                for end in range(1, len(parts) + 1):
                    target = ".".join(parts[:end])
                    if target in known and target != module and not module.startswith(target + "."):
                        graph[module].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert "paipu.rules.replay" in graph["paipu.rules.variants"] or graph, graph
    found = cycles(graph)
    assert found == [], "import cycles:\n" + "\n".join(" ↔ ".join(c) for c in found)


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_rules_never_import_self_play() -> None:
    """Self-play (``paipu.selfplay``) imports the rules, never the other way round, not even
    for type checkers: the rules replay a hand whoever played it."""
    known = modules()
    found = []
    for module, path in known.items():
        if not module.startswith("paipu.rules"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = _names(node, module, path.name == "__init__.py")
                if any(n == "paipu.selfplay" or n.startswith("paipu.selfplay.") for n in names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == [], "the rules import self-play:\n" + "\n".join(found)
