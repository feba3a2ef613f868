"""Reading decklists: the docs/decklists.md grammar, name and number matching, file encodings."""

from __future__ import annotations

import pytest
from conftest import run

from deckcli.decks.reader import read_deck
from deckcli.decks.resolve import Resolved, resolve_entry
from deckcli.decks.text import parse_text

FILLER = "4 Orca\n4 Vaquita\n4 Narwhal\n4 Coelacanth\n"


def entries(text, index=None):
    deck = parse_text(text, "d.txt", is_set=(lambda c: index.is_set_code(None, c)) if index else None)
    return deck


@pytest.mark.parametrize("line,count,name,set_code,number,variants", [
    ("4 Walrus", 4, "Walrus", None, None, ()),
    ("4x Walrus (ABS) 12", 4, "Walrus", "ABS", "12", ()),
    ("4X Walrus (ABS) 12", 4, "Walrus", "ABS", "12", ()),
    ("x4 Walrus", 4, "Walrus", None, None, ()),
    ("4 x Walrus", 4, "Walrus", None, None, ()),
    ("1 Walrus (ABS) 012 [foil]", 1, "Walrus", "ABS", "012", ("foil",)),
    ("1 Walrus (PRM) P3 [promotional]", 1, "Walrus", "PRM", "P3", ("promotional",)),
    ("1 Walrus (ABS) 12 [foil] [1st]", 1, "Walrus", "ABS", "12", ("foil", "first-edition")),
    ("1 Walrus (ABS) 12 [foil, first-edition]", 1, "Walrus", "ABS", "12", ("foil", "first-edition")),
    ("2 Walrus [alt-art]", 2, "Walrus", None, None, ("alternate-art",)),
    ("4 Walrus ABS 12", 4, "Walrus", "ABS", "12", ()),
    ("4 Walrus   # a trailing comment", 4, "Walrus", None, None, ()),
])
def test_entry_forms(index, line, count, name, set_code, number, variants):
    deck = entries(line + "\n", index)
    assert not deck.problems, deck.problems
    [e] = deck.entries
    assert (e.count, e.name, e.set_code, e.number) == (count, name, set_code, number)
    assert sorted(e.variants) == sorted(variants)
    assert e.line == 1


@pytest.mark.parametrize("line,code,rule", [
    ("four Walrus", "no-quantity", "DL-2.5"),
    ("-1 Orca", "bad-count", "DL-2.2"),
    ("0 Orca", "bad-count", "DL-2.2"),
    ("123456789012345678901234567890 Orca", "bad-count", "DL-2.2"),
    ("1000 Orca", "bad-count", "DL-2.2"),
    ("4", "no-name", "DL-2.1"),
    ("4x", "no-name", "DL-2.1"),
    ("Sideboard: 3", "no-quantity", "DL-2.5"),
])
def test_malformed_lines_are_errors_on_their_line(line, code, rule):
    deck = parse_text("4 Walrus\n" + line + "\n4 Orca\n", "d.txt")
    [p] = deck.problems
    assert (p.code, p.rule, p.line, p.path) == (code, rule, 2, "d.txt")
    assert [e.name for e in deck.entries] == ["Walrus", "Orca"]  # parsing went on


@pytest.mark.parametrize("line,tags", [("1 Walrus [shiny]", ()), ("1 Walrus [foil, shiny]",
                                                                 ("foil",))])
def test_an_unknown_tag_is_an_error_and_the_entry_still_counts(line, tags):
    """Like a name that matches no card, the line's copies are in the deck as listed: the
    count used to drop them and add a deck-size error on top of the tag's."""
    deck = parse_text("4 Walrus\n" + line + "\n4 Orca\n", "d.txt")
    [p] = deck.problems
    assert (p.code, p.rule, p.line) == ("unknown-variant", "DL-4.1", 2)
    assert [(e.count, e.name, e.variants) for e in deck.entries] == [
        (4, "Walrus", ()), (1, "Walrus", tags), (4, "Orca", ())]


@pytest.mark.parametrize("text,name", [
    ("4 Walrus [shiny]\n4 Orca\n4 Narwhal\n4 Vaquita\n4 Koala\n", "d.txt"),
    ("cards:\n  - {count: 4, name: Walrus, variants: [shiny]}\n  - {count: 4, name: Orca}\n"
     "  - {count: 4, name: Narwhal}\n  - {count: 4, name: Vaquita}\n"
     "  - {count: 4, name: Koala}\n", "d.yaml"),
])
def test_an_unknown_tag_leaves_the_count_and_no_size_error(deck_file, text, name):
    path = deck_file(text, name)
    deck = run("validate", path, "-O", "json").json()["decks"][0]
    assert deck["card_count"] == 20
    assert [p["code"] for p in deck["problems"]] == ["unknown-variant"]


def test_headers_and_sections():
    deck = parse_text("# intro\ngame: animal-battle\nformat: championship\nname: Deep\n"
                      "player: Ann\nAnimals: 8\n4 Walrus\n4 Orca\nActions (2)\n2 Second Wind\n",
                      "d.txt")
    assert not deck.problems
    assert deck.header == {"game": "animal-battle", "format": "championship", "name": "Deep",
                           "player": "Ann"}
    assert [(s.word, s.count, len(s.entries)) for s in deck.sections] == [("Animals", 8, 2),
                                                                           ("Actions", 2, 1)]


def test_header_after_first_entry_is_an_error():
    deck = parse_text("4 Walrus\nformat: championship\n", "d.txt")
    assert [(p.code, p.line) for p in deck.problems] == [("header-after-entries", 2)]


def test_a_section_count_far_beyond_the_deck_is_still_checked(deck_file):
    # a count of seven digits or more was dropped without a word
    r = run("validate", deck_file("Animals: 1234567\n4 Walrus\n" + FILLER), "-O", "json")
    [p] = r.json()["decks"][0]["problems"]
    assert (p["code"], p["line"]) == ("section-count", 1)
    assert "says 1,234,567 cards but lists 20" in p["message"]  # 4 and the 16 of FILLER
    r = run("validate", deck_file("Animals: " + "9" * 40 + "\n4 Walrus\n" + FILLER), "-O", "json")
    [p] = r.json()["decks"][0]["problems"]
    assert (p["code"], p["severity"], p["line"]) == ("no-quantity", "error", 1), p


def test_section_count_mismatch_is_a_warning(deck_file):
    r = run("validate", deck_file("Animals: 3\n4 Walrus\n" + FILLER), "-O", "json")
    [p] = r.json()["decks"][0]["problems"]
    assert (p["code"], p["severity"], p["rule"], p["line"]) == ("section-count", "warning", "DL-2.4", 1)
    assert r.code == 0, r


@pytest.mark.parametrize("name", ["walrus", "WALRUS", "  Walrus  ", "ＷＡＬＲＵＳ", "Wal\u00adrus"[:0] + "Walrus"])
def test_names_fold_case_nfkc_and_space(index, name):
    deck = entries(f"4 {name}\n", index)
    r = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
    assert isinstance(r, Resolved) and r.card.ref == "Walrus (ABS) 12"


def test_curly_and_straight_apostrophes_are_equal(index):
    for spelling in ("Cuvier's Beaked Whale", "Cuvier\u2019s Beaked Whale", "cuvier’s  beaked whale"):
        deck = entries(f"1 {spelling}\n", index)
        r = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
        assert isinstance(r, Resolved), r
        assert r.card.name == "Cuvier's Beaked Whale"


@pytest.mark.parametrize("number,ok", [("12", True), ("012", True), ("0012", True), ("12a", False)])
def test_collector_numbers_ignore_leading_zeros(index, number, ok):
    deck = entries(f"1 Walrus (ABS) {number}\n", index)
    r = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
    assert isinstance(r, Resolved) is ok
    if not ok:
        assert r.code == "unknown-printing" and r.rule == "DL-3.3"


def test_promo_number_with_leading_zero(index):
    deck = entries("1 Walrus (PRM) P03\n", index)
    r = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
    assert isinstance(r, Resolved) and r.printing.number == "P3"


def test_unknown_card_suggests_never_substitutes(index):
    deck = entries("4 Wolverin\n", index)
    d = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
    assert d.code == "unknown-card" and d.rule == "DL-3.3" and d.line == 1
    assert "did you mean 'Wolverine'" in d.message


@pytest.mark.parametrize("line", ["4 Walrus (ZZZ) 12", "4 Walrus (ZZZ)"])
def test_an_unknown_set_code_names_the_games_codes(index, line):
    d = resolve_entry(index, "animal-battle", entries(line + "\n", index).entries[0], "d.txt")
    assert (d.code, d.rule, d.line) == ("unknown-set", "DL-3.3", 1)
    assert d.message == ("ZZZ is not a set code of animal-battle (known: "
                         + ", ".join(s["code"] for s in index.sets("animal-battle")) + ")")


@pytest.mark.parametrize("line,name,code", [("4 Walrus (DWV)", "Walrus", "DWV"),
                                             ("4 cuvier’s beaked whale (RFS)",
                                              "Cuvier's Beaked Whale", "RFS")])
def test_a_card_not_printed_in_the_set_named_is_no_unknown_name(index, line, name, code):
    """'4 Walrus (DWV)': Walrus is an animal-battle card, only not printed in DWV. The error
    says so and lists its printings; it never claims that no card has the name (nor sends
    the player to the other game)."""
    d = resolve_entry(index, "animal-battle", entries(line + "\n", index).entries[0], "d.txt")
    assert (d.code, d.rule, d.line) == ("unknown-printing", "DL-3.3", 1), d
    assert "no animal-battle card is named" not in d.message
    assert d.message.startswith(f"{name} has no printing in set {code}; "), d.message
    assert "is printed as (ABS) " in d.message and "alpha-walrus" not in d.message


def test_ambiguous_name_lists_candidates(index):
    deck = entries("4 Bison\n", index)
    d = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
    assert d.code == "ambiguous-card" and d.rule == "DL-3.4"
    assert "Bison (DWV) 2" in d.message and "Bison (DWV) 39" in d.message


def test_name_and_printing_must_agree(index):
    deck = entries("4 Orca (ABS) 12\n", index)
    d = resolve_entry(index, "animal-battle", deck.entries[0], "d.txt")
    assert (d.code, d.rule) == ("name-mismatch", "DL-3.5")


def test_tags_narrow_and_may_be_left_out(index):
    ok = entries("1 Walrus (PRM) P3\n1 Walrus (ABS) 12 [foil]\n1 Walrus [alt-art]\n", index)
    for e in ok.entries:
        assert isinstance(resolve_entry(index, "animal-battle", e, "d.txt"), Resolved)
    bad = entries("1 Walrus (PRM) P3 [foil]\n", index)
    d = resolve_entry(index, "animal-battle", bad.entries[0], "d.txt")
    assert (d.code, d.rule) == ("variant-not-printed", "DL-4.2")


def test_set_code_word_that_is_part_of_a_name_stays_in_the_name(tmp_path, mark_db):
    """'4 Mark DWV 2' is the card 'Mark DWV 2' when such a card exists, not Bison (DWV) 2."""
    db = mark_db
    deck = tmp_path / "d.txt"
    deck.write_text("4 Mark DWV 2\n4 Bison DWV 2\n" + FILLER + "4 Cheetah\n", encoding="utf-8")
    r = run("--db", db, "validate", deck, "-O", "json")
    assert r.code == 0, r
    # had "Mark" been read as Bison (DWV) 2, Bison would have 8 copies and the deck be illegal
    assert r.json()["decks"][0]["card_count"] == 28


@pytest.mark.parametrize("data", [
    b"\xef\xbb\xbf4 Walrus\r\n4 Orca\r\n4 Vaquita\r\n4 Narwhal\r\n4 Coelacanth\r\n",
    b"4 Walrus\r\n4 Orca\r\n4 Vaquita\r\n4 Narwhal\r\n4 Coelacanth",
])
def test_bom_and_crlf(deck_file, data):
    r = run("validate", deck_file(data))
    assert r.code == 0, r


@pytest.mark.parametrize("data,what", [
    ("4 Walrus\n".encode("utf-16"), "UTF-16"),
    ("4 Walrus\n4 Caf\u00e9\n".encode("latin-1"), "not UTF-8"),
    (b"4 Walrus\n\x00\x01\x02", "NUL"),
])
def test_wrong_encoding_is_a_deck_problem_not_a_crash(deck_file, data, what):
    r = run("validate", deck_file(data), "-O", "json")
    assert r.code == 1, r
    [p] = r.json()["decks"][0]["problems"]
    assert what in p["message"] and p["rule"] == "DL-1.1"


def test_yaml_and_json_entries_keep_their_lines(tmp_path):
    y = tmp_path / "d.yaml"
    y.write_text("game: animal-battle\ncards:\n  - {count: 4, name: Walrus}\n"
                 "  - {count: 2, name: Wolverin}\n", encoding="utf-8")
    deck = read_deck(str(y))
    assert [e.line for e in deck.entries] == [3, 4]
    j = tmp_path / "d.json"
    j.write_text('{"cards": [\n {"count": 4, "name": "Walrus"},\n\n {"count": 1, "name": "Orca"}\n]}',
                 encoding="utf-8")
    assert [e.line for e in read_deck(str(j)).entries] == [2, 4]


@pytest.mark.parametrize("text,code", [
    ("cards: 5\n", "bad-structure"),
    ("- 4 Walrus\n", "bad-structure"),
    ("cards:\n  - {count: four, name: Walrus}\n", "bad-count"),
    ("cards:\n  - {count: 4}\n", "no-name"),
    ("cards:\n  - {count: 4, name: Walrus, colour: red}\n", "bad-entry"),
    ("cards: [\n", "bad-structure"),
    ("a: 1\na: 2\ncards: []\n", "bad-structure"),
    ("cards: !!python/object/apply:os.system ['true']\n", "bad-structure"),
])
def test_bad_yaml_decks(deck_file, text, code):
    r = run("validate", deck_file(text, "d.yaml"), "-O", "json")
    assert r.code == 1, r
    codes = [p["code"] for p in r.json()["decks"][0]["problems"]]
    assert code in codes
    assert all(p["line"] for p in r.json()["decks"][0]["problems"] if p["code"] == code)


@pytest.mark.parametrize("value,shown", [("true", "true"), ("false", "false"), ("null", "null"),
                                         ('"four"', "'four'")])
def test_a_bad_value_is_shown_as_the_file_writes_it(deck_file, value, shown):
    """YAML's true and null, not Python's True and None."""
    r = run("validate", deck_file(f"cards:\n  - {{count: {value}, name: Walrus}}\n", "d.yaml"),
            "-O", "json")
    [p] = [p for p in r.json()["decks"][0]["problems"] if p["code"] == "bad-count"]
    assert p["message"] == f"count must be a whole number, not {shown}", p


@pytest.mark.parametrize("text,line,key", [
    ('{"cards": [{"count": 20, "name": "Orca"}],\n "cards": []}\n', 1, "cards"),
    ('{"cards": [\n  {"count": 4, "name": "Orca", "name": "Walrus"}]}\n', 2, "name"),
])
def test_a_json_key_given_twice_is_an_error_on_its_line(deck_file, text, line, key):
    """As in YAML: json itself keeps the last value, so the first deck read as empty."""
    r = run("validate", deck_file(text, "d.json"), "-O", "json")
    assert r.code == 1, r
    [p] = r.json()["decks"][0]["problems"]
    assert (p["code"], p["rule"], p["line"]) == ("bad-structure", "DL-2.6", line)
    assert p["message"] == f"key '{key}' is given twice in one object"


@pytest.mark.parametrize("game,header,warned", [
    ("animal-battle", "Creatures: 20", True), ("animal-battle", "Battle Cards", True),
    ("animal-battle", "Animals: 20", False), ("animal-battle", "Actions", False),
    ("alpha-walrus", "Animals", True), ("alpha-walrus", "Creatures", False),
])
def test_a_section_of_another_games_kind_is_a_warning(deck_file, game, header, warned):
    """DL-2.4: the rules of one game never leak into the other, and neither do its kinds."""
    r = run("validate", deck_file(f"{header}\n4 Walrus (ABS) 12\n16 Orca\n"), "--game", game,
            "-O", "json")
    found = [p for p in r.json()["decks"][0]["problems"] if p["code"] == "section-kind"]
    assert bool(found) == warned, found
    if warned:
        assert found[0]["severity"] == "warning" and found[0]["line"] == 1
        assert found[0]["rule"] == "DL-2.4"
