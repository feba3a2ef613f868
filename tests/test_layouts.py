"""Decklists as other deck tools write them (docs/decklists.md; rules
DL-2.7, DL-2.8): the count after the card, Deck/Sideboard headers and SB: prefixes, Arena's
About/Name, Moxfield's *F*, '//' comments, Forge's .dck. Each was an error (or, for a
sideboard, counted into the deck) before these layouts were read.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, animals_db, run

from deckcli.decks.text import parse_text

OTHER = EXAMPLES / "other-tools"
DEEP_DIVERS = EXAMPLES / "good" / "championship-deep-divers.txt"


def read(text: str):
    deck = parse_text(text, "d.txt")
    return deck, [(e.count, e.name, e.set_code, e.number, e.variants, e.line) for e in deck.entries]


@pytest.mark.parametrize("line,entry", [
    ("Walrus x4", (4, "Walrus", None, None, ())),
    ("Walrus X4", (4, "Walrus", None, None, ())),
    ("Walrus (ABS) 12 x4", (4, "Walrus", "ABS", "12", ())),
    ("Walrus (ABS) 12 x4 [foil]", (4, "Walrus", "ABS", "12", ("foil",))),
    ("Walrus (ABS) 12 [foil] x4", (4, "Walrus", "ABS", "12", ("foil",))),
    ("4 Walrus (ABS) 12 *F*", (4, "Walrus", "ABS", "12", ("foil",))),
    ("Walrus (ABS) 12 x4 *F*", (4, "Walrus", "ABS", "12", ("foil",))),
    ("4 Walrus (ABS) 12 *F* [first-edition]", (4, "Walrus", "ABS", "12",
                                               ("first-edition", "foil"))),
    ("4 Walrus // a note", (4, "Walrus", None, None, ())),
    ("Walrus x4 // a note", (4, "Walrus", None, None, ())),
    ("4 Walrus|ABS", (4, "Walrus", "ABS", None, ())),
    ("4 Walrus|ABS|2", (4, "Walrus", "ABS", None, ())),  # Forge's art index: no number
])
def test_entry_forms_of_other_tools(line, entry):
    deck, got = read(line + "\n")
    assert not deck.problems, deck.problems
    assert [(*g[:4], tuple(sorted(g[4]))) for g in got] == [(*entry[:4], tuple(sorted(entry[4])))]


def test_a_comment_after_slashes_is_kept_like_one_after_a_hash():
    deck, _ = read("4 Orca\n// above\n4 Walrus // beside\n")
    [_, e] = deck.entries
    assert e.leading == ["above"] and e.comment == "beside"


@pytest.mark.parametrize("header", ["Deck", "deck", "DECK:", "Main", "main:", "Maindeck",
                                    "[main]", "[Main]"])
def test_deck_headers_start_the_deck(header):
    deck, got = read(f"{header}\n4 Walrus\n")
    assert not deck.problems and got == [(4, "Walrus", None, None, (), 2)]


@pytest.mark.parametrize("header", ["Sideboard", "sideboard:", "SIDE", "Side:", "SB:", "sb",
                                    "// Sideboard", "//sideboard", "[sideboard]"])
def test_sideboard_cards_are_not_counted_and_a_warning_says_where(header):
    deck, got = read(f"4 Walrus\n16 Orca\n{header}\n2 Beluga\n1 Narwhal\n")
    assert got == [(4, "Walrus", None, None, (), 1), (16, "Orca", None, None, (), 2)]
    assert [(e.count, e.name, e.line) for e in deck.sideboard] == [(2, "Beluga", 4),
                                                                    (1, "Narwhal", 5)]
    [p] = deck.problems
    assert (p.code, p.rule, p.severity.value, p.line) == ("sideboard", "DL-2.7", "warning", 4)
    assert p.message.startswith("3 sideboard cards on lines 4-5 left out")


def test_sb_prefixed_lines_are_sideboard_cards_wherever_they_stand():
    deck, got = read("SB: 2 Beluga\n4 Walrus\nsb: 1 Narwhal  # spare\n16 Orca\n")
    assert [g[1] for g in got] == ["Walrus", "Orca"]
    assert [(e.name, e.line, e.comment) for e in deck.sideboard] == [
        ("Beluga", 1, None), ("Narwhal", 3, "spare")]
    [p] = deck.problems
    assert "3 sideboard cards on lines 1, 3 left out" in p.message


@pytest.mark.parametrize("line", ["SB: Beluga x2", "sb: Beluga (ABS) 11 x2",
                                  "SB: Beluga x2 [foil]"])
def test_an_sb_prefix_holds_a_count_after_the_card_too(line):
    """'SB: Beluga x2' is a sideboard card written with its count after it, as 'SB: 2 Beluga'
    is: not a main-deck entry named 'SB: Beluga'."""
    deck, got = read(f"4 Walrus\n{line}\n16 Orca\n")
    assert [g[1] for g in got] == ["Walrus", "Orca"]
    assert [(e.count, e.name, e.line) for e in deck.sideboard] == [(2, "Beluga", 2)]
    [p] = deck.problems
    assert p.code == "sideboard" and "2 sideboard cards on line 2 left out" in p.message


@pytest.mark.parametrize("line", ["SB 2 Beluga", "sb 2x Beluga (ABS) 11", "SB  2 Beluga # spare"])
def test_an_sb_prefix_without_its_colon_is_a_sideboard_card(line):
    """docs/decklists.md: layout words take an optional ':', and 'SB' is one of them; 'SB 2 Beluga'
    is the sideboard card 'SB: 2 Beluga' is. The colon may go only where a quantity in digits
    follows, so no card name is read as a prefix."""
    deck, got = read(f"4 Walrus\n{line}\n16 Orca\n")
    assert [g[1] for g in got] == ["Walrus", "Orca"]
    assert [(e.count, e.name, e.line) for e in deck.sideboard] == [(2, "Beluga", 2)]
    [p] = deck.problems
    assert p.code == "sideboard" and "2 sideboard cards on line 2 left out" in p.message


def test_sb_without_a_colon_and_a_quantity_stays_what_it_was():
    """'SB' alone is the sideboard header; 'SB Beluga' (no quantity) is an error on its line."""
    deck, got = read("4 Walrus\nSB\n2 Beluga\n")
    assert [e.name for e in deck.sideboard] == ["Beluga"]
    deck, got = read("4 Walrus\nSB Beluga\n")
    assert [(p.code, p.line) for p in deck.problems] == [("no-quantity", 2)]


def test_deck_after_a_sideboard_goes_back_to_the_deck():
    deck, got = read("Sideboard\n2 Beluga\nDeck\n4 Walrus\n")
    assert [g[1] for g in got] == ["Walrus"] and [e.name for e in deck.sideboard] == ["Beluga"]


def test_a_long_sideboard_is_described_in_bounded_words():
    text = "4 Walrus\nSideboard\n" + "".join("1 Orca\n\n" for _ in range(500))
    deck, _ = read(text)
    [p] = deck.problems
    assert p.message.startswith("500 sideboard cards on lines 3, 5, 7,")
    assert "and 480 more lines" in p.message and len(p.message) < 400


def test_a_bad_sideboard_line_is_still_an_error_on_its_line():
    deck, _ = read("4 Walrus\nSideboard\n0 Orca\n")
    assert [(p.code, p.line) for p in deck.problems] == [("bad-count", 3)]


def test_only_a_sideboard_is_an_empty_deck():
    deck, _ = read("Sideboard\n2 Orca\n")
    assert [p.code for p in deck.problems] == ["empty-deck", "sideboard"]
    assert "outside its sideboard" in deck.problems[0].message


@pytest.mark.parametrize("text,name,line", [
    ("About\nName Deep Divers\n\nDeck\n4 Walrus\n", "Deep Divers", 2),
    ("Name Deep Divers\n4 Walrus\n", "Deep Divers", 1),
    ("name  Tusk and Tide \n4 Walrus\n", "Tusk and Tide", 1),
    ("[metadata]\nName=Deep Divers\nDescription=ocean\n[main]\n4 Walrus\n", "Deep Divers", 2),
])
def test_the_deck_name_of_arena_and_forge(text, name, line):
    deck, got = read(text)
    assert not deck.problems, deck.problems
    assert deck.header == {"name": name} and deck.header_lines == {"name": line}
    assert [g[1] for g in got] == ["Walrus"]


def test_a_name_line_given_twice_or_after_the_deck_is_an_error():
    deck, _ = read("name: A\nName B\n4 Walrus\n")
    assert [(p.code, p.line) for p in deck.problems] == [("duplicate-header", 2)]
    deck, _ = read("4 Walrus\nName B\n")
    assert [(p.code, p.line) for p in deck.problems] == [("no-quantity", 2)]
    deck, _ = read("4 Walrus\n[metadata]\nName=B\n")
    assert [(p.code, p.line) for p in deck.problems] == [("header-after-entries", 3)]


@pytest.mark.parametrize("text,said,line", [("game:\n4 Walrus\n", "game:", 1),
                                            ("name:   \nformat: casual\n4 Walrus\n", "name:", 1),
                                            ("Format :\n4 Walrus\n", "format:", 1),
                                            ("[metadata]\nName=\n[main]\n4 Walrus\n", "Name=", 2),
                                            # Arena's 'Name' line of a deck named '#1 Aggro':
                                            # the rest is a comment, as on every line
                                            ("About\nName #1 Aggro\n\nDeck\n4 Walrus\n",
                                             "Name", 2),
                                            ("name\n4 Walrus\n", "Name", 1)])
def test_a_header_line_with_no_value_is_named_and_ignored(text, said, line):
    """``game:`` with nothing after it says nothing: the deck reads as if the line were not
    there (the game is the default, the name null, as in a YAML deck's ``name: null``), and
    a warning on the line says so, so a half-written header is not silently dropped."""
    deck, got = read(text)
    key = said.rstrip(":=").lower()  # 'Name' (Arena) is the name too
    assert key not in deck.header and key not in deck.header_lines
    assert [(p.code, p.is_error, p.rule, p.line) for p in deck.problems] == [
        ("empty-header", False, "DL-2.3", line)]
    assert f"'{said}'" in deck.problems[0].message
    assert [g[1] for g in got] == ["Walrus"]


@pytest.mark.parametrize("text,line", [("4 Walrus\nAbout\n4 Orca\n", 2),
                                       ("About\n4 Walrus\nabout:\n", 3),
                                       ("Sideboard\n2 Orca\nABOUT\nDeck\n4 Walrus\n", 3)])
def test_an_about_line_after_the_first_entry_is_an_error(text, line):
    """Arena's 'About' comes before the deck, as its 'Name' line does; after an entry it is a
    line without a quantity like any other (the contract: an error on its line)."""
    deck, got = read(text)
    assert [(p.code, p.rule, p.line) for p in deck.problems
            if p.is_error] == [("no-quantity", "DL-2.5", line)], deck.problems
    assert "Walrus" in [g[1] for g in got]  # parsing went on


@pytest.mark.parametrize("line", ["four Walrus", "Walrus", "Walrus x", "Walrus x-1",
                                  "Deck 4", "Sideboard: 3", "About me", "[commander]",
                                  "Name=Deep Divers"])
def test_other_lines_without_a_quantity_stay_errors(line):
    deck, _ = read(f"4 Walrus\n{line}\n")
    assert [(p.code, p.rule, p.line) for p in deck.problems] == [("no-quantity", "DL-2.5", 2)]


def test_a_count_of_zero_after_the_card_is_a_bad_count():
    deck, _ = read("Walrus x0\n")
    assert [(p.code, p.line) for p in deck.problems] == [("bad-count", 1)]


# -- names that meet the layout words ------------------------------------------------------------
@pytest.fixture
def word_db(tmp_path):
    """Cards whose names are the layout words: 'Sideboard', 'Deck Hand', 'Name Tag'."""
    return animals_db(tmp_path / "db", ["Sideboard", "Deck Hand", "Name Tag", "Walrus"])


def test_a_card_named_like_a_layout_word_is_still_a_card(word_db, deck_file):
    """An entry has a quantity, a layout line has none: a card named 'Sideboard' or
    'Name Tag' is read as that card, in front of or after the count, except that 'Name ...'
    before the first entry is the deck's name (as in Arena's layout)."""
    path = deck_file("Name Tag x2\n2 Sideboard\nSideboard x2\nDeck Hand x4\nName Tag x1\n"
                     "3 Name Tag\n")
    r = run("--db", word_db, "validate", path, "-O", "json")
    deck = r.json()["decks"][0]
    assert deck["name"] == "Tag x2"
    assert deck["card_count"] == 12 and not [p for p in deck["problems"]
                                             if p["code"] != "deck-size"], r


# -- whole decks, from the command line ---------------------------------------------------------
@pytest.mark.parametrize("name", ["arena.txt", "moxfield.txt", "forge.dck"])
def test_other_tools_exports_are_the_deep_divers_deck(name):
    """The same 60 cards as examples/good/championship-deep-divers.txt, exported by three
    tools, with a sideboard: the same fingerprint, legal, one warning for the sideboard."""
    want = run("validate", DEEP_DIVERS, "-O", "json").json()["decks"][0]
    r = run("validate", OTHER / name, "--format", "championship", "-O", "json")
    assert r.code == 0, r
    deck = r.json()["decks"][0]
    assert deck["legal"] and deck["card_count"] == 60
    assert deck["fingerprint"] == want["fingerprint"]
    assert deck["name"] == ("Deep Divers" if name != "moxfield.txt" else None)
    assert [(p["code"], p["rule"], p["severity"]) for p in deck["problems"]] == [
        ("sideboard", "DL-2.7", "warning")]


def test_a_folder_walk_takes_forge_decks():
    r = run("validate", OTHER, "--format", "championship", "-O", "json")
    paths = [d["path"] for d in r.json()["decks"]]
    assert str(OTHER / "forge.dck") in paths


def test_fmt_writes_deckcli_form_and_keeps_the_sideboard(tmp_path):
    path = tmp_path / "arena.txt"
    path.write_text((OTHER / "arena.txt").read_text(encoding="utf-8"), encoding="utf-8")
    r = run("fmt", path)
    assert r.code == 0, r
    text = path.read_text(encoding="utf-8")
    assert text.startswith("name: Deep Divers\n\nAnimals: 52\n")
    assert text.endswith("\nSideboard\n2 Walrus (ABS) 12\n2 Beluga (ABS) 11\n")
    assert run("fmt", "--check", path).code == 0
    r = run("validate", path, "--format", "championship", "-O", "json")
    assert r.json()["decks"][0]["fingerprint"] == run(
        "validate", DEEP_DIVERS, "-O", "json").json()["decks"][0]["fingerprint"]


def test_fmt_leaves_a_forge_deck_in_forges_layout(tmp_path):
    path = tmp_path / "forge.dck"
    before = (OTHER / "forge.dck").read_bytes()
    path.write_bytes(before)
    r = run("fmt", path)
    assert r.code == 0 and "left as it is: a Forge deck" in r.err, r
    assert path.read_bytes() == before
    assert run("fmt", "--check", tmp_path).code == 0


def test_add_and_remove_change_a_count_written_after_the_card(deck_file):
    path = deck_file("Walrus x4\nOrca (ABS) 10 x4 [foil]  # big\n4 Narwhal\n")
    assert run("add", path, "Orca (ABS) 10 [foil]", "-n", "2").code == 0
    assert run("remove", path, "Walrus", "-n", "1").code == 0
    assert path.read_text(encoding="utf-8") == \
        "Walrus x3\nOrca (ABS) 10 x6 [foil]  # big\n4 Narwhal\n"


# -- Forge's layout without its .dck name --------------------------------------------------------
FORGE = (OTHER / "forge.dck").read_text(encoding="utf-8")


@pytest.mark.parametrize("text,count", [
    (FORGE, 60), (FORGE.replace("[metadata]\n", "[METADATA]\r\n"), 60),
    ("\n  [Main]\n4 Walrus|ABS\n", 4), ("[sideboard]\n2 Orca\n[main]\n4 Walrus\n", 4)])
def test_forge_content_is_read_as_a_text_decklist_whatever_its_name(text, count, tmp_path):
    """Forge's first line is a '[...]' section line: it was sniffed as JSON ("not valid
    JSON"). Read from stdin or from a file without a suffix, it is a Forge deck."""
    copy = tmp_path / "forge"
    copy.write_text(text, encoding="utf-8")
    for args, given in ((["-"], text), ([copy], None)):
        r = run("validate", *args, "-O", "json", input=given)
        deck = r.json()["decks"][0]
        assert [p["code"] for p in deck["problems"] if p["severity"] == "error"] in (
            [], ["deck-size"]), r
        assert deck["card_count"] == count, r


@pytest.mark.parametrize("text,message", [
    ('[{"count": 4, "name": "Walrus"}]', "a JSON decklist is a mapping with a 'cards' list"),
    ('["main"]', "a JSON decklist is a mapping with a 'cards' list"),
    ("[main", "not valid JSON"),  # no Forge section line: a '[' alone
    ('[\n  "main"\n', "not valid JSON"),
    ('{"cards": [{"count": 4, "name": "Walrus"}]}', None)])
def test_json_arrays_and_objects_stay_json(text, message):
    deck = run("validate", "-", "-O", "json", input=text).json()["decks"][0]
    if message is None:
        assert deck["card_count"] == 4, deck
        assert "bad-structure" not in [p["code"] for p in deck["problems"]], deck
    else:
        assert [p["code"] for p in deck["problems"]] == ["bad-structure"], deck
        assert deck["problems"][0]["message"].startswith(message), deck


@pytest.mark.parametrize("named", [["--stdin-filename", "x.dck"], []])
def test_fmt_stdin_leaves_a_forge_deck_as_the_disk_case_does(named):
    r = run("fmt", *named, "-", input=FORGE)
    assert r.code == 0 and r.out == FORGE, r
    assert "<stdin>: left as it is: a Forge deck keeps Forge's layout" in r.err, r
    r = run("fmt", "--check", *named, "-", input=FORGE)
    assert r.code == 0 and r.out == "", r


def test_convert_reads_forge_content_from_stdin():
    r = run("convert", "-", "--to", "text", input=FORGE)
    assert r.code == 0 and r.out.startswith(
        "# Description=An ocean deck, saved by Forge\n# Constructed\n\nname: Deep Divers\n\n"
        "4 Walrus (ABS)\n"), r


def test_forges_other_metadata_is_kept_as_a_comment_when_rewritten(tmp_path):
    """Description= and Author= say nothing of the cards, but they are the file's: fmt of
    Forge content in a .txt file keeps them, as comments at the top (they were dropped)."""
    deck = tmp_path / "d.txt"
    deck.write_text("[metadata]\nName=Pod\nDescription=Cold water\nAuthor=Ann\n[main]\n"
                    "4 Walrus|ABS\n16 Orca|ABS\n", encoding="utf-8")
    assert run("fmt", deck).code == 0
    text = deck.read_text(encoding="utf-8")
    assert text.startswith("# Description=Cold water\n# Author=Ann\n\nname: Pod\n"), text


@pytest.mark.parametrize("name,text,line,message", [
    ("m.dek", '<?xml version="1.0"?>\n<Deck>\n  <Cards Quantity="4" Sideboard="maybe" '
     'Name="Walrus"/>\n  <Cards Quantity="20" Sideboard="false" Name="Orca"/>\n</Deck>\n',
     3, "Sideboard='maybe': should be \"true\" or \"false\""),
    ("m.cod", '<?xml version="1.0"?>\n<cockatrice_deck version="1">\n  <zone>\n'
     '    <card number="4" name="Walrus"/>\n  </zone>\n  <zone name="main">\n'
     '    <card number="20" name="Orca"/>\n  </zone>\n</cockatrice_deck>\n',
     3, "a <zone> names the zone its cards are in"),
])
def test_an_xml_deck_that_does_not_say_where_a_card_is_is_an_error(deck_file, name, text,
                                                                     line, message):
    """Deck or sideboard must be said: a card whose zone is not named, or whose Sideboard is
    neither true nor false, is counted nowhere, with an error on its line (it was counted as
    the deck)."""
    r = run("validate", deck_file(text, name), "-O", "json")
    assert r.code == 1, r
    deck = r.json()["decks"][0]
    assert deck["card_count"] == 20  # the Orcas; the other card is in neither
    assert [(p["code"], p["line"]) for p in deck["problems"] if p["severity"] == "error"] == [
        ("bad-structure", line)]
    assert message in deck["problems"][0]["message"]
