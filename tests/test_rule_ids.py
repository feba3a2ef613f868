"""Every rule id deckcli's code or data cites exists in the rules reference (docs/commands.md:
"Every rule is an id that deckcli rules knows"), and ids are unique and stable in shape."""

from __future__ import annotations

import re

import pytest
from conftest import REPO, run

from deckcli.rulebook import all_rules, find_rule

ID = re.compile(r"""["'\[ ]((?:AB|AW|DL|EV|DB)-(?:\d+|G)\.\d+)\b""")


def cited_ids() -> dict[str, str]:
    found = {}
    for folder in ("deckcli", "card_db", "examples"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix in (".py", ".yaml", ".yml", ".txt", ".json") and path.is_file():
                for rid in ID.findall(path.read_text(encoding="utf-8", errors="replace")):
                    found.setdefault(rid, str(path.relative_to(REPO)))
    return found


def test_ids_are_unique_and_well_formed():
    ids = [r.id for r in all_rules()]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"(AB|AW|DL|EV|DB)-(\d+|G)\.\d+", i) for i in ids)


@pytest.mark.parametrize("rid,where", sorted(cited_ids().items()))
def test_cited_rule_exists(rid, where):
    assert find_rule(rid) is not None, f"{where} cites {rid}, which the rules reference lacks"


def test_rules_json_shape():
    data = run("rules", "--output", "json").json()
    assert {tuple(sorted(r)) for r in data} == {("game", "id", "text", "title")}
    games = {r["game"] for r in data}
    assert games == {"animal-battle", "alpha-walrus", None}
    assert run("rules", "--game", "alpha-walrus", "-O", "json").json()[0]["game"] == "alpha-walrus"


def test_rule_references_point_at_rules():
    for rule in all_rules():
        for ref in rule.refs:
            assert find_rule(ref) is not None, (rule.id, ref)
