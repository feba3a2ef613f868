"""The animal-battle rules reference, the engine and the tests agree on rule ids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckcli.games.animal_battle import BATTLE_STATS
from deckcli.games.animal_battle.cards import OVERRIDE_EFFECTS
from deckcli.games.animal_battle.effects import EFFECTS, WHEN
from deckcli.games.animal_battle.gaps import GAPS
from deckcli.games.animal_battle.rules import RULES
from deckcli.rulebook import find_rule

PACKAGE = Path(__file__).resolve().parent.parent / "deckcli" / "games" / "animal_battle"
TESTS = Path(__file__).resolve().parent
RULE_ID = re.compile(r"\b(AB-(?:\d+\.\d+|G\.\d+))\b")
AB_IDS = [r.id for r in RULES]


def cited_in(folder: Path, pattern: str = "*.py") -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(folder.glob(pattern)):
        if path.name == "rules.py" and folder == PACKAGE:
            continue  # the reference itself
        for rid in RULE_ID.findall(path.read_text(encoding="utf-8")):
            found.setdefault(rid, set()).add(path.name)
    return found


def test_every_rule_id_the_engine_cites_exists():
    cited = cited_in(PACKAGE)
    assert {"AB-4.4", "AB-5.6", "AB-6.4", "AB-G.1"} <= set(cited)  # the scan finds citations
    missing = {rid: sorted(files) for rid, files in cited.items() if find_rule(rid) is None}
    assert missing == {}


def test_every_rule_id_cited_by_the_cli_and_examples_exists():
    cli = Path(__file__).resolve().parent.parent / "deckcli" / "games" / "animal_battle" / "ruling_commands.py"
    examples = Path(__file__).resolve().parent.parent / "examples" / "games"
    ids = set(RULE_ID.findall(cli.read_text()))
    for path in examples.glob("ab-*.yaml"):
        ids |= set(RULE_ID.findall(path.read_text()))
    assert ids and all(find_rule(rid) is not None for rid in ids), sorted(ids)


@pytest.mark.parametrize("rule_id", AB_IDS)
def test_every_reference_rule_is_cited_by_a_test(rule_id):
    cited = cited_in(TESTS, "test_*.py")
    others = {f for f in cited.get(rule_id, set()) if f != Path(__file__).name}
    assert others, f"{rule_id} is cited by no test"


def test_gap_rules_are_the_gap_table():
    gap_rules = {r.id for r in RULES if r.gap}
    assert gap_rules == set(GAPS) and all(r.id.startswith("AB-G.") == r.gap for r in RULES)
    by_id = {r.id: r for r in RULES}
    for gid, gap in GAPS.items():
        text = by_id[gid].text
        assert gap.key in text, (gid, gap.key)  # the reference names the house-rule key
        for value in gap.values:
            assert value in text, (gid, value)  # ... and every value it may take
        assert f"{gap.key}={gap.default}" in text, gid  # ... and a simulation's default


def test_battle_statistics_cite_their_rules():
    assert sorted(BATTLE_STATS) == ["length", "lifespan", "population", "speed", "weight"]
    assert "max_depth" not in BATTLE_STATS  # AB-2.6
    for stat, (sense, rid) in BATTLE_STATS.items():
        assert sense in ("higher", "lower") and stat.capitalize() == find_rule(rid).title
    assert BATTLE_STATS["population"][0] == "lower"  # AB-2.4


def test_every_in_play_override_is_applied_through_the_effects_table():
    in_play = {e: r for e, r in OVERRIDE_EFFECTS.items() if e != "copy_limit"}  # AB-1.5: decks
    assert set(EFFECTS) == set(in_play)
    assert all(EFFECTS[e].when in WHEN for e in EFFECTS)


def test_action_cards_overrides_name_known_effects(index):
    cards = [c for c in index.all_cards("animal-battle") if c.kind == "action"]
    assert cards
    for card in cards:
        for o in card.data.get("overrides", ()):
            assert OVERRIDE_EFFECTS[o["effect"]] == o["rule"], (card.ref, o)
