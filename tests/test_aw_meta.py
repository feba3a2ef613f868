"""The alpha-walrus rules reference against the code and the tests.

* every AW- id the engine, referee, checks or CLI cite exists in the reference;
* every AW- rule of the reference is cited by some test under tests/;
* gaps are marked, name their house-rule key, and the key table points back at them;
* (that the reference is in the project's own words: tests/test_own_words.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from deckcli.games.alpha_walrus.gaps import BY_KEY
from deckcli.games.alpha_walrus.rules import RULES

REPO = Path(__file__).resolve().parent.parent
SOURCES = sorted((REPO / "deckcli" / "games" / "alpha_walrus").glob("*.py")) + [
    REPO / "deckcli" / "games" / "alpha_walrus" / "ruling_commands.py"]
ID = re.compile(r"AW-(?:\d+|G)\.\d+")
IDS = {r.id for r in RULES}


def test_ids_are_unique_and_well_formed():
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    assert all(ID.fullmatch(i) for i in ids), ids
    assert all(r.game == "alpha-walrus" and r.title and r.text for r in RULES)


def test_every_cited_id_exists():
    cited = {}
    for path in SOURCES:
        if path.name == "rules.py":
            continue
        for rid in ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rid, path.name)
    missing = {rid: where for rid, where in cited.items() if rid not in IDS}
    assert not missing, missing
    assert len(cited) > 40  # the scan itself works


def test_ids_in_the_example_game_logs_exist():
    found = set()
    for path in (REPO / "examples" / "games").glob("aw-*.yaml"):
        found |= set(ID.findall(path.read_text(encoding="utf-8")))
    assert found and found <= IDS, sorted(found - IDS)


def test_references_between_rules_exist():
    for r in RULES:
        assert set(r.refs) <= IDS, (r.id, set(r.refs) - IDS)


def test_every_rule_is_cited_by_a_test():
    text = "".join(p.read_text(encoding="utf-8") for p in (REPO / "tests").glob("test_*.py")
                   if p.name != "test_aw_meta.py")
    uncited = sorted(IDS - set(ID.findall(text)))
    assert not uncited, uncited


def test_gaps_are_marked_and_keyed():
    gaps = {r.id: r for r in RULES if r.gap}
    assert set(gaps) == {i for i in IDS if i.startswith("AW-G.")}
    keyed = {g.rule for g in BY_KEY.values()}
    assert keyed == set(gaps), keyed ^ set(gaps)
    for key, gap in BY_KEY.items():
        rid, values, provisional = gap.rule, tuple(gap.values), gap.default
        assert gap.provisional and provisional in values and len(values) >= 2
        text = gaps[rid].text
        assert key in text and f"Provisional: {provisional}" in text, rid
        assert all(v in text for v in values), (rid, values)


def test_rules_are_found_by_the_rulebook():
    from deckcli.rulebook import find_rule, game_rules

    assert find_rule("aw-4.10").title == "Ties favour the defender"
    assert {r.id for r in game_rules("alpha-walrus")} == IDS
