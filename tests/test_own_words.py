"""The rules references (what `deckcli rules` prints, and the docs) are written in deckcli's own
words: no run of ten words of either game's seed stands in them (tests/seed_runs.py)."""

from __future__ import annotations

import pytest
from conftest import doc_pages
from seed_runs import RUN, recorded, runs

from deckcli.games.alpha_walrus.rules import RULES as AW_RULES
from deckcli.games.animal_battle.rules import RULES as AB_RULES

SEEDS = recorded()
REFERENCES = {"animal-battle": AB_RULES, "alpha-walrus": AW_RULES}


def test_every_seed_is_fingerprinted():
    assert set(SEEDS) == set(REFERENCES)
    assert all(len(found) > 300 for found in SEEDS.values())  # a seed of some 500 words


@pytest.mark.parametrize("game", sorted(REFERENCES))
def test_no_run_of_the_seed_stands_in_a_rule(game):
    copied = [r.id for r in REFERENCES[game] if runs(f"{r.title}. {r.text}") & SEEDS[game]]
    assert not copied, f"{copied}: {RUN} words in a row as the seed has them"


@pytest.mark.parametrize("page", sorted(doc_pages()))
def test_no_run_of_a_seed_stands_in_the_docs(page):
    seen = runs(doc_pages()[page])
    assert not [g for g, found in SEEDS.items() if seen & found]


def test_a_copied_run_would_be_found():
    """The check itself works: the fingerprint of a run is found in a text holding it and
    not in one with a word changed."""
    text = "one two three four five six seven eight nine ten eleven"
    found = runs(text)
    assert runs("and then " + text + " again") >= found
    assert not runs(text.replace("six", "6")) & runs(text)
