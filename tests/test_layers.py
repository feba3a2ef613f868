"""The package's modules import one way (no cycle, even one hidden inside a function) and keep
their private names to themselves (issue 19)."""

from __future__ import annotations

import ast

from conftest import REPO

PACKAGE = REPO / "deckcli"


def _modules() -> dict[str, ast.Module]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


MODULES = _modules()


def _target(importer: str, node: ast.ImportFrom, alias: ast.alias) -> str:
    """The module an import names: ``from deckcli.cards import cache`` is deckcli.cards.cache,
    ``from deckcli.cards.cache import load`` is deckcli.cards.cache."""
    base = node.module or ""
    if node.level:  # relative: resolved against the importer's package
        package = importer if importer in MODULES and _is_package(importer) else \
            importer.rsplit(".", 1)[0]
        up = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*up, base] if base else up)
    full = f"{base}.{alias.name}"
    return full if full in MODULES else base


def _is_package(name: str) -> bool:
    return (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists()


def _imports() -> dict[str, set[str]]:
    """Module -> the deckcli modules it imports anywhere (at the top or inside a function)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for name, tree in MODULES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [_target(name, node, a) for a in node.names]
            else:
                continue
            for t in targets:
                while t and t not in MODULES:  # deckcli.x.y of a name: its module
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    graph = _imports()
    assert "deckcli.cards.build" in graph["deckcli.cards"]  # imported inside a function
    cycles = _cycles(graph)
    assert not cycles, "modules that import each other (put what they share below both): " + \
        "; ".join(" <-> ".join(c) for c in cycles)


def test_no_private_name_is_imported_from_another_module():
    found = []
    for name, tree in MODULES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "")
                                                     .startswith("deckcli")):
                found += [f"{name}: from {node.module} import {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, found
