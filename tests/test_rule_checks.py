"""A rule id leads to the code that checks it: each rules table's CHECKED_IN says which modules
check each rule, and this test holds the table to the code both ways.

* every rule of the reference has an entry, and every module it names exists and cites the id;
* every module that passes a rule id to a check (``Illegal("AB-5.2", ...)``, ``error(code,
  "DL-2.1", ...)``, a gap record, a rule table) is named for that id, so a new check in another
  module cannot go unlisted;
* every rule is cited by a test.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import deckcli
from deckcli.rulebook import all_rules, checked_in, prefixes

PACKAGE = Path(deckcli.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent
#: every registered game's prefix and the project's own: a new game's rules are held too
RULE_ID = re.compile(rf"^(?:{'|'.join(prefixes())})-(?:G\.)?\d+(?:\.\d+)?$")
RULES = all_rules()


def _rule_arguments(tree: ast.AST) -> set[str]:
    """Rule ids a module hands to code: call arguments, and values of tuples, lists, dicts and
    comparisons (rule tables, ``rule == "AB-5.6"``), never docstrings or messages."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            values = node.args[:3]
        elif isinstance(node, (ast.Tuple, ast.List)):
            values = node.elts
        elif isinstance(node, ast.Dict):
            values = node.values
        elif isinstance(node, ast.Compare):
            values = node.comparators
        elif isinstance(node, ast.IfExp):
            values = [node.body, node.orelse]
        else:
            continue
        found |= {v.value for v in values
                  if isinstance(v, ast.Constant) and isinstance(v.value, str)
                  and RULE_ID.match(v.value)}
    return found


def _modules() -> dict[str, set[str]]:
    """module path under deckcli/ -> the rule ids it hands to code (rules tables left out)."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name == "rules.py":
            continue
        out[path.relative_to(PACKAGE).as_posix()] = _rule_arguments(
            ast.parse(path.read_text(encoding="utf-8")))
    return out


MODULES = _modules()


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_every_rule_says_where_it_is_checked_and_those_modules_cite_it(rule):
    where = checked_in(rule.id)
    assert where, f"{rule.id} has no CHECKED_IN entry"
    for module in where:
        path = PACKAGE / module
        assert path.is_file(), (rule.id, module)
        assert rule.id in path.read_text(encoding="utf-8"), (rule.id, module)


def test_every_module_that_checks_a_rule_is_listed_for_it():
    missing = sorted((rid, module) for module, ids in MODULES.items() for rid in ids
                     if module not in checked_in(rid))
    assert not missing, missing


def test_every_rule_is_cited_by_a_test():
    text = "".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_*.py")
                   if p.name != Path(__file__).name)
    uncited = [r.id for r in RULES if not re.search(rf"{re.escape(r.id)}(?![\d.])", text)]
    assert not uncited, uncited
