"""The package's modules import one way (no cycle, even one hidden inside a function) and keep
their private names to themselves (issue 19); its packages sit in layers, and a layer imports
only the layers below it (issue 39)."""

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


# -- packages in layers ---------------------------------------------------------------------------
#: The layers, lowest first: a unit imports only units of its own layer or lower ones (at the top
#: of a module or inside a function: both are dependencies), and the units of one layer import
#: each other in no circle. A unit is a package (``deckcli.decks``) or a top-level module
#: (``deckcli.validate``), with two kinds of their own:
#:
#: * each game, ``deckcli.games.<game>`` (written ``deckcli.games.*`` here): the games package
#:   itself is the game interface and registry that layers low and high need, while a game
#:   uses cards and decks; the registry reaches a game by its name, never by an import;
#: * each package's rules table, ``deckcli.<package>.rules``: rule text, data only, which the
#:   rulebook gathers; the card database's build asks the rulebook whether a rule a card
#:   cites exists.
#:
#: docs/design.md ("Packages import one way too") shows the same table.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("deckcli", "deckcli.records", "deckcli.diagnostics", "deckcli.errors", "deckcli.digest",
     "deckcli.yamlio", "deckcli.rule", "deckcli.files"),
    ("deckcli.cards.rules", "deckcli.decks.rules", "deckcli.events.rules"),
    ("deckcli.games",),
    ("deckcli.rulebook", "deckcli.config"),
    ("deckcli.cards",),
    ("deckcli.decks",),
    ("deckcli.events", "deckcli.games.*"),
    ("deckcli.validate",),
    ("deckcli.roster", "deckcli.rewrite", "deckcli.diff", "deckcli.gamelog", "deckcli.parallel",
     "deckcli.reporters"),
    ("deckcli.sheets", "deckcli.batch"),
    ("deckcli.sim",),
    ("deckcli.build",),
    ("deckcli.editor",),
    ("deckcli.cli",),
    ("deckcli.entry",),
    ("deckcli.__main__",),
)


def _unit(module: str) -> str:
    """The layered unit a module belongs to (see :data:`LAYERS`)."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "games" and _is_package(".".join(parts[:3])):
        return "deckcli.games.*"
    if len(parts) == 3 and parts[2] == "rules":
        return module
    return ".".join(parts[:2])


def _units(graph: dict[str, set[str]], unit) -> dict[str, set[str]]:
    """Unit -> the other units its modules import."""
    out: dict[str, set[str]] = {}
    for a, targets in graph.items():
        out.setdefault(unit(a), set()).update(unit(b) for b in targets)
    for u, targets in out.items():
        targets.discard(u)
        for t in targets:
            out.setdefault(t, set())
    return out


def _against_layers(graph: dict[str, set[str]], layers, unit) -> list[str]:
    """What breaks the layers: a unit in no layer; an import of a higher layer, as "a -> b
    (module a -> module b)"; units importing each other in a circle."""
    level = {u: i for i, layer in enumerate(layers) for u in layer}
    out = [f"{m}: its unit {unit(m)} is in no layer" for m in sorted(graph)
           if unit(m) not in level]
    for a in sorted(graph):
        for b in sorted(graph[a]):
            ua, ub = unit(a), unit(b)
            if ua in level and ub in level and level[ub] > level[ua]:
                out.append(f"{ua} -> {ub} ({a} -> {b})")
    out += [" <-> ".join(c) for c in _cycles(_units(graph, unit))]
    return out


def test_the_layer_check_finds_an_upward_import_hidden_in_a_function():
    graph = _imports()
    assert "deckcli.cards.build" in graph["deckcli.cards"]  # an import inside a function
    before = _against_layers(graph, LAYERS, _unit)

    def planted(importer: str, imported: str) -> list[str]:
        again = {**graph, importer: graph[importer] | {imported}}
        return [f for f in _against_layers(again, LAYERS, _unit) if f not in before]

    upward, circle = planted("deckcli.cards.names", "deckcli.validate")
    assert upward == "deckcli.cards -> deckcli.validate (deckcli.cards.names -> deckcli.validate)"
    assert circle.startswith("deckcli.cards <-> ") and circle.endswith(" <-> deckcli.validate")
    upward, circle = planted("deckcli.games.base", "deckcli.games.animal_battle.engine")
    assert upward == ("deckcli.games -> deckcli.games.* (deckcli.games.base -> "
                      "deckcli.games.animal_battle.engine)")
    assert "deckcli.games <-> " in circle and "deckcli.games.*" in circle
    assert planted("deckcli.records", "deckcli.errors") == [  # one layer, but a circle
        "deckcli.diagnostics <-> deckcli.errors <-> deckcli.records"]
    assert _against_layers({"deckcli.newpkg.x": set()}, LAYERS, _unit) == [
        "deckcli.newpkg.x: its unit deckcli.newpkg is in no layer"]


def test_packages_import_only_lower_layers():
    assert {_unit(m) for m in MODULES} == {u for layer in LAYERS for u in layer}
    found = _against_layers(_imports(), LAYERS, _unit)
    assert not found, "imports of a higher layer, or circles (move the code, or put what " \
        "both need below both): " + "; ".join(found)


def _game_names() -> set[str]:
    """Every registered game's id and the last part of its package's name."""
    from deckcli.games import GAMES

    out = set()
    for game in GAMES.values():
        out.add(game.id)
        out.add(type(game).__module__.split(".")[2])
    return out


def _naming(tree: ast.Module, names: set[str]) -> list[tuple[int, str]]:
    """Where a module's code names a game: an import of a game's package, or a string that
    is not a docstring, an option's ``help=`` text or a rules table's text (which say where
    a rule is checked)."""
    exempt = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant):
            exempt.add(id(body[0].value))
        if isinstance(node, ast.keyword) and node.arg == "help":
            exempt.update(id(n) for n in ast.walk(node.value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mods = [node.module or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in exempt:
            mods = []
            if any(name in node.value for name in names):
                found.append((node.lineno, node.value[:60]))
        else:
            continue
        found += [(node.lineno, f"import {m}") for m in mods
                  if m.startswith("deckcli.games.") and m.split(".")[2] in names]
    return found


def test_no_code_outside_the_games_package_names_a_game():
    """A game is reached through the registry: no module outside ``deckcli/games/`` imports
    a game's package or spells a game's id (the rules tables' texts, docstrings and option
    help aside, which are words for people)."""
    names = _game_names()
    assert {"animal-battle", "alpha-walrus", "animal_battle"} <= names
    bad = {}
    for module, tree in MODULES.items():
        if module == "deckcli.games" or module.startswith("deckcli.games.") or \
                module.endswith(".rules"):
            continue
        found = _naming(tree, names)
        if found:
            bad[module] = found
    assert not bad, bad


def test_the_game_name_finder_finds_an_import_and_a_name():
    tree = ast.parse('"""animal-battle in a docstring is words."""\n'
                     'from deckcli.games.alpha_walrus import cards\n'
                     'click.option("--x", help="animal-battle: words")\n'
                     'if game.id == "animal-battle":\n    pass\n')
    found = _naming(tree, _game_names())
    assert [line for line, _ in found] == [2, 4], found
