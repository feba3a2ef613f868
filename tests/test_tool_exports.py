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


# -- Archidekt and TCGplayer text ----------------------------------------------------------------
@pytest.mark.parametrize("line,entry", [
    ("1x Walrus (abs) 12", (1, "Walrus", "ABS", "12", ())),
    ("1x Walrus (abs) 12 [Animals]", (1, "Walrus", "ABS", "12", ())),
    ("1x Walrus (abs) 12 [Animals] ^Have,#37d67a^", (1, "Walrus", "ABS", "12", ())),
    ("1x Walrus (abs) 12 *F* [Animals] ^Have,#37d67a^", (1, "Walrus", "ABS", "12", ("foil",))),
    ("1x Walrus (abs) 12 [Animals,foil]", (1, "Walrus", "ABS", "12", ("foil",))),
    ("1x Walrus (abs) 12 [Card Draw,Commander{top}] [foil]", (1, "Walrus", "ABS", "12",
                                                               ("foil",))),
    ("1x Walrus (abs) 12 [animals]", (1, "Walrus", "ABS", "12", ())),
    ("1 Walrus ^Want,#ff0000^ ^Have^", (1, "Walrus", None, None, ())),
])
def test_archidekt_lines_read_with_their_categories_ignored(line, entry):
    deck, got = read(line + "\n")
    assert not deck.problems, deck.problems
    assert got == [entry] and not deck.sideboard


def test_a_comment_after_a_marker_is_still_a_comment():
    """The '#' inside '^Have,#37d67a^' is a colour, not a comment; one after it is."""
    deck, _ = read("1x Walrus (abs) 12 [Animals] ^Have,#37d67a^  # keep\n")
    [e] = deck.entries
    assert not deck.problems and (e.name, e.comment) == ("Walrus", "keep")


@pytest.mark.parametrize("category", ["Maybeboard", "Sideboard", "maybeboard",
                                      "Maybeboard{noDeck}{noPrice}", "Considering{noDeck}",
                                      "Animals,Sideboard"])
def test_a_maybeboard_or_sideboard_category_is_not_part_of_the_deck(category):
    """Archidekt's Maybeboard and Sideboard (and a category it marks {noDeck}) are cards the
    player keeps beside the deck: not counted, and the sideboard's warning says so."""
    deck, got = read(f"4x Walrus (abs) 12 [Animals]\n2x Orca (abs) 10 [{category}]\n")
    assert got == [(4, "Walrus", "ABS", "12", ())]
    assert [(e.count, e.name, e.line) for e in deck.sideboard] == [(2, "Orca", 2)]
    [p] = deck.problems
    assert (p.code, p.rule, p.severity.value, p.line) == ("sideboard", "DL-2.7", "warning", 2)
    assert p.message.startswith("2 sideboard cards on line 2 left out")


def test_an_unknown_lower_case_tag_is_still_an_error():
    """A capitalised word in brackets is another tool's category; a lower-case word that is
    no variant tag ('[shiny]', '[fiol]') is still an unknown tag, so a typo is not lost."""
    deck, _ = read("1x Walrus (abs) 12 [Animals] [fiol]\n")
    assert [(p.code, p.rule, p.line) for p in deck.problems] == [("unknown-variant", "DL-4.1", 1)]


def test_an_archidekt_deck_validates_from_the_command_line(deck_file):
    path = deck_file("4x Walrus (abs) 12 [Animals] ^Have,#37d67a^\n"
                     "4x Orca (abs) 10 [Animals]\n4x Narwhal (abs) 13 [Animals]\n"
                     "4x Coelacanth (abs) 28 [Animals]\n4x Vaquita (abs) 18 *F* [Animals]\n"
                     "2x Beluga (abs) 11 [Maybeboard{noDeck}{noPrice}] ^Want,#ff0000^\n")
    r = run("validate", path, "-O", "json")
    assert r.code == 0, r
    deck = r.json()["decks"][0]
    assert deck["card_count"] == 20
    assert [(p["code"], p["line"]) for p in deck["problems"]] == [("sideboard", 6)]


# -- CSV exports ---------------------------------------------------------------------------------
def csv_deck(text: str):
    from deckcli.decks.csvdeck import parse_csv

    deck = parse_csv(text, "d.csv")
    return deck, [(e.count, e.name, e.set_code, e.number, e.variants, e.line) for e in deck.entries]


@pytest.mark.parametrize("header", ["Quantity,Name,Set,Collector Number,Foil",
                                    "quantity,NAME,set,collector number,FOIL",
                                    " Quantity , Name , Set , Collector Number , Foil "])
def test_a_csv_export_with_quantity_and_collector_number_columns_is_read(header):
    deck, got = csv_deck(f"{header}\n4,Walrus,abs,12,\n2,Orca,ABS,10,foil\n")
    assert not deck.problems, deck.problems
    assert got == [(4, "Walrus", "ABS", "12", (), 2), (2, "Orca", "ABS", "10", ("foil",), 3)]


@pytest.mark.parametrize("value,tags", [("foil", ("foil",)), ("Foil", ("foil",)),
                                        ("true", ("foil",)), ("TRUE", ("foil",)),
                                        ("yes", ("foil",)), ("1", ("foil",)), ("", ()),
                                        ("false", ()), ("no", ()), ("0", ()), ("normal", ())])
def test_the_foil_column_says_whether_the_foil_version_is_meant(value, tags):
    deck, got = csv_deck(f"Quantity,Name,Foil\n4,Walrus,{value}\n")
    assert not deck.problems and got == [(4, "Walrus", None, None, tags, 2)]


def test_a_foil_column_and_variant_tags_add_up():
    deck, got = csv_deck("count,name,set,number,variants,foil\n1,Walrus,ABS,12,first-edition,yes\n")
    assert not deck.problems and [sorted(g[4]) for g in got] == [["first-edition", "foil"]]


@pytest.mark.parametrize("value", ["etched", "maybe", "2"])
def test_a_foil_value_that_says_neither_is_an_error_never_dropped(value):
    """A foil cell deckcli cannot read is an error on its line: the card is not taken as the
    regular version in silence. Its copies still count, as an unknown tag's do."""
    deck, got = csv_deck(f"Quantity,Name,Foil\n4,Walrus,\n4,Orca,{value}\n")
    assert [(p.code, p.rule, p.line) for p in deck.problems] == [("unknown-variant", "DL-4.1", 3)]
    assert f"'{value}'" in deck.problems[0].message
    assert [g[:2] for g in got] == [(4, "Walrus"), (4, "Orca")]


@pytest.mark.parametrize("header,twice", [("count,Quantity,name", "count"),
                                          ("Quantity,Name,Number,Collector Number", "number")])
def test_two_columns_for_the_same_thing_are_an_error(header, twice):
    deck, _ = csv_deck(f"{header}\n4,4,Walrus,12\n")
    [p] = deck.problems
    assert (p.code, p.line) == ("bad-structure", 1)
    assert p.message.endswith(f"the column {twice} more than once"), p.message


def test_a_csv_header_without_a_count_names_both_spellings():
    deck, _ = csv_deck("Name,Set\nWalrus,ABS\n")
    [p] = deck.problems
    assert (p.code, p.line) == ("bad-structure", 1)
    assert "count (or Quantity)" in p.message and "name" in p.message


def test_a_csv_export_validates_from_the_command_line(deck_file):
    path = deck_file("Quantity,Name,Set,Collector Number,Foil\n4,Walrus,ABS,12,\n"
                     "4,Orca,ABS,10,\n4,Narwhal,ABS,13,\n4,Coelacanth,ABS,28,\n"
                     "4,Vaquita,ABS,18,true\n", "export.csv")
    r = run("validate", path, "-O", "json")
    assert r.code == 0, r
    assert r.json()["decks"][0]["card_count"] == 20


# -- examples/other-tools: one file per layout the README lists ----------------------------------
OTHER = EXAMPLES / "other-tools"
README = EXAMPLES.parent / "README.md"


def _readme_layouts() -> list[str]:
    """The files the README's table of other tools' layouts names, one per row."""
    text = README.read_text(encoding="utf-8")
    table = text.split("| layout |", 1)[1].split("\n\n", 1)[0]
    rows = [row for row in table.splitlines()[2:] if row.startswith("|")]
    return [row.split("|")[2].strip().strip("`") for row in rows]


def test_the_readme_lists_one_layout_per_file_of_other_tools():
    """The README said the folder holds 'one deck in each' of 8 layouts, with 6 files there."""
    listed = _readme_layouts()
    assert len(listed) == len(set(listed)) >= 8, listed
    assert sorted(listed) == sorted(p.name for p in OTHER.iterdir()), listed


@pytest.mark.parametrize("name", sorted(p.name for p in OTHER.iterdir()))
def test_every_other_tools_file_is_the_deep_divers_deck(name):
    """Each file holds examples/good/championship-deep-divers.txt as its tool writes it: the
    same fingerprint and size, legal, and at most the warning that a sideboard is left out."""
    want = run("validate", DEEP_DIVERS, "-O", "json").json()["decks"][0]
    r = run("validate", OTHER / name, "--format", "championship", "-O", "json")
    assert r.code == 0, r
    deck = r.json()["decks"][0]
    assert deck["legal"] and deck["card_count"] == 60, r
    assert deck["fingerprint"] == want["fingerprint"], r
    assert [p["code"] for p in deck["problems"]] in ([], ["sideboard"]), r
    r = run("diff", DEEP_DIVERS, OTHER / name)
    assert r.code == 0 and r.out.splitlines()[-1] == "same cards", r
