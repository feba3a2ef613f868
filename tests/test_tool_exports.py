"""More decklists as other tools export them (rule DL-2.8): Forge's .dck as Forge writes it
(a [general] section with the deck type), Archidekt's and TCGplayer's text lines (a
lower-case set code, category tags in brackets, '^Have,#37d67a^' markers) and CSV exports
with Quantity, Name, Set, Collector Number and Foil columns. Each was read as errors before.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run

from deckcli.decks.text import parse_text

DEEP_DIVERS = EXAMPLES / "good" / "championship-deep-divers.txt"


def read(text: str):
    deck = parse_text(text, "d.txt")
    return deck, [(e.count, e.name, e.set_code, e.number, e.variants) for e in deck.entries]


# -- Forge ---------------------------------------------------------------------------------------
FORGE_AS_WRITTEN = "[metadata]\nName=Deep Divers\n[general]\nConstructed\n[main]\n4 Walrus|ABS\n"


def test_forges_general_section_and_deck_type_are_read(deck_file):
    """Forge writes '[general]' and the deck type ('Constructed') before '[main]': both were
    'not a card entry' errors."""
    r = run("validate", deck_file(FORGE_AS_WRITTEN, "d.dck"), "-O", "json")
    deck = r.json()["decks"][0]
    assert deck["name"] == "Deep Divers" and deck["card_count"] == 4, r
    assert [p["code"] for p in deck["problems"]] == ["deck-size"], r


def test_forges_deck_type_is_kept_as_a_comment_when_rewritten():
    """What [general] says of the deck is no card, but it is the file's: convert keeps it as
    a comment at the top, as it keeps Forge's Description=."""
    r = run("convert", "-", "--to", "text", input=FORGE_AS_WRITTEN)
    assert r.code == 0, r
    assert r.out.startswith("# Constructed\n\nname: Deep Divers\n\n4 Walrus (ABS)\n"), r


@pytest.mark.parametrize("text", [FORGE_AS_WRITTEN.replace("[metadata]\nName=Deep Divers\n", ""),
                                  FORGE_AS_WRITTEN.replace("[general]", "[General]")])
def test_a_forge_file_starting_with_general_is_forge_whatever_its_name(text):
    r = run("validate", "-", "-O", "json", input=text)
    deck = r.json()["decks"][0]
    assert deck["card_count"] == 4 and [p["code"] for p in deck["problems"]] == ["deck-size"], r


def test_a_card_entry_in_forges_general_section_is_still_an_entry():
    deck, got = read("[general]\nConstructed\n4 Walrus|ABS\n")
    assert not deck.problems and got == [(4, "Walrus", "ABS", None, ())]
    assert deck.preamble == ["Constructed"]
