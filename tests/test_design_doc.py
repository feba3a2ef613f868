"""docs/design.md, "Adding a game, a policy, an output format, a decklist format", is true: the
files and tables it names exist and hold the built-in entries, and the game package it lists
is exactly the toy game's (tests/toygame), which needs nothing outside its own package."""

from __future__ import annotations

import importlib
import re
import sys

import pytest
from conftest import REPO

DOC = (REPO / "docs" / "design.md").read_text(encoding="utf-8")
TOY = REPO / "tests" / "toygame"


def section(title: str, level: str = "###") -> str:
    """The text of the doc's section ``title``, up to the next heading of its level or above."""
    start = DOC.index(f"\n{level} {title}\n")
    found = re.compile(rf"\n#{{2,{len(level)}}} ").search(DOC, start + 1)
    return DOC[start:found.start() if found else len(DOC)]


RECIPES = section("Adding a game, a policy, an output format, a decklist format", "##")


def package_listing() -> dict[str, list[str]]:
    """The game package the doc lists: file -> the names it says the file declares."""
    block = re.search(r"```\ntoygame/\n(.*?)```", section("Adding a game"), re.S).group(1)
    listed = {}
    for line in block.splitlines():
        path, _, says = line.strip().partition("  ")
        head = says.strip().split(":")[0]
        listed[path] = re.findall(r"\b[A-Z][A-Z_]+\b|\b[a-z_]+\b", head) if path.endswith(
            ".py") else []
    return listed


@pytest.fixture()
def toygame(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "tests"))
    import toygame

    return toygame


def test_the_game_package_the_doc_lists_is_exactly_the_toy_games(toygame):
    listed = package_listing()
    files = {p.relative_to(TOY).as_posix() for p in TOY.rglob("*") if p.is_file()
             and "__pycache__" not in p.parts}
    # the toy's example decks and collection are its tests' data, and the doc says so
    examples = {f for f in files if f.startswith("decks/") or f == "binder.txt"}
    assert "`tests/toygame/decks/` and `tests/toygame/binder.txt` are the toy's example" in \
        " ".join(RECIPES.split())
    assert set(listed) == files - examples


def test_each_file_of_the_toy_game_declares_what_the_doc_says(toygame):
    from deckcli.games.base import Game
    from deckcli.games.interface import Engine

    for path, names in package_listing().items():
        if not path.endswith(".py"):
            continue
        module = importlib.import_module("toygame" + ("" if path == "__init__.py" else
                                                      "." + path[:-3]))
        declared = [n for n in names if n.isupper() or callable(getattr(module, n, None))]
        assert declared and all(hasattr(module, n) for n in declared), (path, names)
    assert isinstance(toygame.GAME, Game)
    assert isinstance(importlib.import_module("toygame.engine").ENGINE, Engine)
    # every part the game names is in its own package, in a file the doc lists
    modules = {"toygame" + ("" if p == "__init__.py" else "." + p[:-3])
               for p in package_listing() if p.endswith(".py")}
    for part in ("rules", "gaps", "deck_checks", "card_entry", "setup", "engine", "policies"):
        assert part in toygame.GAME.parts and part in RECIPES, part
    assert {where.partition(":")[0] for where in toygame.GAME.parts.values()} <= modules


def test_the_toy_game_needs_no_change_outside_its_package():
    """Registered through DECKCLI_GAMES alone: deckcli's own files never name it."""
    from deckcli import games

    assert "toygame" not in " ".join(games._PACKAGES)
    assert games.PLUGINS_VARIABLE == "DECKCLI_GAMES" and "`DECKCLI_GAMES`" in RECIPES
    named = [p for p in (REPO / "deckcli").rglob("*") if p.is_file() and p.suffix in (
        ".py", ".yaml", ".json", ".toml") and re.search(r"toygame|toy[-_]duel", p.read_text(
            encoding="utf-8", errors="replace"))]
    assert named == []
    assert "toygame" not in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_every_path_the_recipes_name_exists():
    paths = set(re.findall(r"`((?:deckcli|tests|docs|benchmarks)/[\w./-]+)`", RECIPES))
    assert len(paths) > 15
    missing = sorted(p for p in paths if "NAME" not in p and not (REPO / p).exists())
    assert missing == []


def test_the_policy_tables_hold_the_built_in_policies():
    from deckcli.games import GAMES
    from deckcli.sim import policies

    assert "`POLICIES`" in section("Adding a policy")
    documented = (REPO / "docs" / "simulate.md").read_text(encoding="utf-8")
    for game_id in ("animal-battle", "alpha-walrus"):
        game = GAMES[game_id]
        table = game.policies().POLICIES
        assert {"greedy", "expert"} <= set(table), game_id
        for name, maker in table.items():
            assert maker().name == name and callable(maker().choose), (game_id, name)
        assert policies.names(game) == ["random", *table, "search"]
        for name in policies.names(game):  # each has its row in docs/simulate.md
            assert f"\n| `{name}`" in documented, name


def test_the_reporters_table_holds_every_output_format():
    from deckcli.cli.validate_cmd import OUTPUTS
    from deckcli.reporters import REPORTERS, Reporter, get_reporter

    assert "`REPORTERS`" in section("Adding an output format")
    assert list(REPORTERS) == ["text", "json", "github", "junit", "sarif"] == OUTPUTS
    for name, where in REPORTERS.items():
        assert where.startswith(f"deckcli.reporters.{name}:"), where
        assert issubclass(get_reporter(name), Reporter), name
        for case in ("bad", "event"):
            assert (REPO / "tests" / "golden" / "validate" / f"{case}.{name}").exists()


def test_the_decklist_format_tables_agree_with_each_other_and_the_docs():
    from deckcli.decks.carry import CARRIES
    from deckcli.decks.convert import SUFFIX, TARGETS
    from deckcli.decks.reader import DECK_SUFFIXES, FORMAT_BY_SUFFIX, OTHER_TOOLS

    text = section("Adding a decklist format")
    for name in ("FORMAT_BY_SUFFIX", "DECK_SUFFIXES", "OTHER_TOOLS", "TARGETS", "SUFFIX",
                 "CARRIES", "detect_format", "parse_text_of"):
        assert f"`{name}`" in text, name
    assert set(FORMAT_BY_SUFFIX.values()) == {"text", "yaml", "json", "csv", "cod", "dek"}
    assert set(DECK_SUFFIXES) == set(FORMAT_BY_SUFFIX) - {".csv"}  # CSV: named, never walked
    assert set(OTHER_TOOLS) <= set(FORMAT_BY_SUFFIX)
    assert set(FORMAT_BY_SUFFIX.values()) <= set(TARGETS) == set(SUFFIX)
    assert set(CARRIES) == set(TARGETS) - {"registration"}
    # docs/decklists.md, "What convert keeps": a column for each format CARRIES holds
    decklists = (REPO / "docs" / "decklists.md").read_text(encoding="utf-8")
    head = decklists[decklists.index("## What `convert` keeps"):].split("\n| |", 1)[1]
    columns = [c.strip() for c in head.split("\n", 1)[0].strip(" |").split("|")]
    assert columns == list(CARRIES)


def test_the_sim_package_names_only_modules_it_has():
    import deckcli.sim

    named = set(re.findall(r":mod:`\.(\w+)`", deckcli.sim.__doc__))
    assert named and all((REPO / "deckcli" / "sim" / f"{m}.py").exists() for m in named), named
    assert "simulate" in deckcli.sim.__doc__ and "SimulateRequest" in deckcli.sim.__doc__


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
