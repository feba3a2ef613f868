"""deckcli new / add / remove: in-place edits with the same safety as fmt."""

from __future__ import annotations

import json
import os
import stat

import pytest
from conftest import run

TWENTY = ("game: animal-battle\nformat: casual\n\nAnimals: 16\n4 Walrus (ABS) 12  # main\n"
          "4 Orca\n4 Beluga\n4 Narwhal\n\nActions: 4\n4 Herd Instinct (DWV) 90\n# end\n")


# -- new ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["deck.txt", "deck.deck", "deck.yaml", "deck.yml", "deck.json"])
def test_new_creates_an_empty_deck_in_the_suffix_format(tmp_path, name):
    path = tmp_path / name
    r = run("new", path, "--name", "Deep Divers", "--player", "Ada", "--format", "championship")
    assert r.code == 0, r
    assert f"created {path} (animal-battle, championship, 0 cards)" in r.err
    from deckcli.decks.reader import read_deck

    deck = read_deck(str(path))
    assert deck.header == {"game": "animal-battle", "format": "championship",
                           "name": "Deep Divers", "player": "Ada"}
    assert deck.entries == [] and [p.code for p in deck.problems] == ["empty-deck"]


def test_new_text_deck_content(tmp_path):
    path = tmp_path / "d.txt"
    assert run("new", path).code == 0
    assert path.read_text() == "game: animal-battle\nformat: casual\n"


def test_new_alpha_walrus_has_no_format(tmp_path):
    path = tmp_path / "d.yaml"
    r = run("new", path, "--game", "alpha-walrus")
    assert r.code == 0, r
    assert path.read_text() == "game: alpha-walrus\ncards: []\n"
    r = run("new", tmp_path / "e.txt", "--game", "alpha-walrus", "--format", "casual")
    assert r.code == 2 and "no formats" in r.err, r
    assert not (tmp_path / "e.txt").exists()


def test_new_never_overwrites(deck_file):
    path = deck_file("4 Walrus\n")
    r = run("new", path)
    assert r.code == 2 and "already exists" in r.err, r
    assert path.read_text() == "4 Walrus\n"


def test_new_refuses_an_unknown_suffix(tmp_path):
    r = run("new", tmp_path / "deck.md")
    assert r.code == 2 and ".txt" in r.err, r
    assert not (tmp_path / "deck.md").exists()


# -- add ---------------------------------------------------------------------------------------
def test_add_to_an_existing_entry_changes_its_count_only(deck_file):
    path = deck_file(TWENTY.replace("4 Orca", "3x Orca"))
    r = run("add", path, "orca")
    assert r.code == 0, r
    assert path.read_text() == TWENTY.replace("4 Orca", "4x Orca")
    assert r.err.splitlines() == [f"{path}: added 1 Orca (now 4)",
                                  f"{path}: 20 cards, casual: legal"]


def test_add_a_name_next_to_a_line_naming_a_printing_adds_a_line(deck_file):
    """A copy of any printing is not a copy of ABS 12: the README's rule for 'add'."""
    path = deck_file("4 Walrus (ABS) 12\n")
    assert run("add", path, "Walrus").code == 0
    assert path.read_text() == "4 Walrus (ABS) 12\n1 Walrus\n"
    assert run("add", path, "ABS 12").code == 0
    assert path.read_text() == "5 Walrus (ABS) 12\n1 Walrus\n"


def test_add_a_new_printing_goes_into_its_section(deck_file):
    path = deck_file(TWENTY)
    r = run("add", path, "Walrus (PRM) P3 [promo]", "--count", "2")
    assert r.code == 0, r
    assert "2 Walrus (PRM) P3 [promotional]" in r.err
    assert path.read_text() == TWENTY.replace("Animals: 16", "Animals: 18").replace(
        "4 Narwhal\n", "4 Narwhal\n2 Walrus (PRM) P3 [promotional]\n")
    verdict = r.err.splitlines()[-1]
    assert verdict.startswith(f"{path}: 22 cards, casual: ILLEGAL (Walrus (ABS) 12: 6 copies, "
                              "limit 4"), r


def test_add_by_set_and_number(deck_file):
    path = deck_file(TWENTY)
    r = run("add", path, "DWV 39")
    assert r.code == 0, r
    assert "1 Bison (DWV) 39\n\nActions: 4" in path.read_text()


def test_add_a_kind_without_a_section_adds_the_section(deck_file):
    path = deck_file("Animals: 4\n4 Walrus\n# the end\n")
    r = run("add", path, "Herd Instinct", "-n", "2")
    assert r.code == 0, r
    assert path.read_text() == ("Animals: 4\n4 Walrus\n\nActions: 2\n2 Herd Instinct\n"
                                "# the end\n")


def test_add_to_an_empty_new_deck(tmp_path):
    path = tmp_path / "d.txt"
    run("new", path)
    r = run("add", path, "Walrus", "-n", "4")
    assert r.code == 0, r
    assert path.read_text() == "game: animal-battle\nformat: casual\n\n4 Walrus\n"
    assert r.err.splitlines()[-1].startswith(f"{path}: 4 cards, casual: ILLEGAL (")


@pytest.mark.parametrize("name,data,after", [
    ("d.txt", b"", b"2 Walrus\n"), ("d.txt", b"\n\n", b"2 Walrus\n"),
    ("d.yaml", b"", b"cards:\n  - {count: 2, name: Walrus}\n"),
    ("d.json", b"\xef\xbb\xbf", b'\xef\xbb\xbf{\n  "cards": [\n    {"count": 2, "name": "Walrus"}\n  ]\n}\n')])
def test_add_to_an_empty_file_fills_it(deck_file, name, data, after):
    """An empty file is no decklist for validate, but add fills it as new would have made it
    (a YAML one stopped on an internal error: its 'cards' list was missing)."""
    path = deck_file(data, name)
    r = run("add", path, "2 Walrus")
    assert r.code == 0, r
    assert path.read_bytes() == after


def test_add_keeps_crlf_bom_comments_and_mode(deck_file):
    path = deck_file(b"\xef\xbb\xbf# mine\r\n4 Walrus  # keep\r\n")
    os.chmod(path, 0o640)
    assert run("add", path, "Orca", "-n", "2").code == 0
    assert path.read_bytes() == b"\xef\xbb\xbf# mine\r\n4 Walrus  # keep\r\n2 Orca\r\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_add_to_yaml_keeps_comments(deck_file):
    path = deck_file("# my deck\nname: X  # the name\ncards:\n  # first\n"
                     "  - {count: 4, name: Walrus}  # four\n", "d.yaml")
    assert run("add", path, "Walrus").code == 0
    assert run("add", path, "Orca").code == 0
    assert path.read_text() == ("# my deck\nname: X  # the name\ncards:\n  # first\n"
                                "  - {count: 5, name: Walrus}  # four\n"
                                "  - {count: 1, name: Orca}\n")


@pytest.mark.parametrize("command", [["add", "Orca"], ["remove", "Walrus"]])
def test_a_yaml_layout_ruamel_cannot_write_back_is_refused_with_what_to_do(deck_file, command):
    """ruamel.yaml writes a block-style entry after a commented flow-style one on a single
    line ('- count: 2 name: Orca'), which is no YAML: the edit stops with advice (exit 2), not
    an internal error, and the file is left as it was; after 'fmt' the edit works."""
    text = ("cards:\n  # animals\n  - {count: 4, name: Walrus}   # walrus!\n  - count: 2\n"
            "    name: Orca       # orca comment\n  - {count: 1, name: Vaquita}\n")
    path = deck_file(text, "d.yaml")
    r = run(command[0], path, command[1])
    assert r.code == 2, r
    assert f"run 'deckcli fmt {path}' first, then edit it" in r.err
    assert "internal error" not in r.err and path.read_text() == text
    assert run("fmt", path).code == 0
    assert run(command[0], path, command[1]).code == 0


def test_add_to_json(deck_file):
    path = deck_file('{"name": "X", "cards": [{"count": 4, "name": "Walrus"}]}', "d.json")
    assert run("add", path, "ABS 10", "-n", "3").code == 0
    data = json.loads(path.read_text())
    assert data == {"name": "X", "cards": [{"count": 4, "name": "Walrus"},
                                           {"count": 3, "name": "Orca", "set": "ABS",
                                            "number": "10"}]}


def test_add_a_typo_suggests_and_writes_nothing(deck_file):
    path = deck_file(TWENTY)
    r = run("add", path, "Wallrus")
    assert r.code == 2 and "did you mean 'Walrus'" in r.err, r
    assert path.read_text() == TWENTY


def test_add_an_ambiguous_name_lists_candidates(deck_file):
    path = deck_file(TWENTY)
    r = run("add", path, "Bison")
    assert r.code == 2, r
    assert "Bison (DWV) 2" in r.err and "Bison (DWV) 39" in r.err
    assert path.read_text() == TWENTY


def test_add_a_wrong_number_writes_nothing(deck_file):
    path = deck_file(TWENTY)
    r = run("add", path, "ABS 999")
    assert r.code == 2 and "no card number 999" in r.err, r
    assert path.read_text() == TWENTY


def test_add_to_a_deck_with_errors_is_refused(deck_file):
    path = deck_file("four Walrus\n")
    r = run("add", path, "Orca")
    assert r.code == 2 and f"{path}:1: cannot edit it: 'four Walrus' is not" in r.err, r
    assert path.read_text() == "four Walrus\n"


@pytest.mark.parametrize("data,where", [(b"caf\xe9 4 Walrus\n", ":1: cannot edit it: not UTF-8"),
                                        (b"4 Walrus\n\xff\n", ":2: cannot edit it: not UTF-8")])
def test_add_to_a_file_that_is_not_text_names_the_line(deck_file, data, where):
    path = deck_file(data)
    r = run("add", path, "Orca")
    assert r.code == 2 and f"{path}{where}" in r.err, r
    assert "line None" not in r.err and path.read_bytes() == data


def test_add_uses_the_deck_game(deck_file):
    path = deck_file("game: alpha-walrus\n1 Krill (AWC) 1\n")
    r = run("add", path, "Goamph (AWC) 73")
    assert r.code == 0, r
    assert "1 Goamph (AWC) 73" in path.read_text()
    assert ", alpha-walrus: " in r.err.splitlines()[-1]


@pytest.mark.parametrize("card,line", [
    ("4 Orca", "4 Orca"), ("4x Orca (ABS) 10 [foil]", "4 Orca (ABS) 10 [foil]"),
    ("x2 Orca", "2 Orca"), ("Orca x3", "3 Orca"), ("2 DWV 39", "2 Bison (DWV) 39"),
    ("Orca", "1 Orca")])
def test_add_takes_a_decklist_line(deck_file, card, line):
    """CARD is written as on a decklist line, the README says, and a decklist line starts
    with its quantity: '4 Orca' was an unknown card ('did you mean Orca?')."""
    path = deck_file("4 Walrus\n")
    r = run("add", path, card)
    assert r.code == 0, r
    assert f"{path}: added {line}" in r.err, r
    count = int(line.split()[0])
    from deckcli.decks.reader import read_deck

    assert read_deck(str(path)).card_count == 4 + count


def test_add_and_remove_take_several_cards_in_one_call(deck_file):
    path = deck_file(TWENTY)
    r = run("add", path, "2 Bison (DWV) 2", "Orca", "1 Walrus (PRM) P3")
    assert r.code == 0, r
    said = r.err.splitlines()
    assert said[:3] == [f"{path}: added 2 Bison (DWV) 2", f"{path}: added 1 Orca (now 5)",
                        f"{path}: added 1 Walrus (PRM) P3"], r
    assert len(said) == 4 and said[3].startswith(f"{path}: 24 cards, casual: ILLEGAL"), r
    text = path.read_text()
    assert "\n2 Bison (DWV) 2\n" in text and "\n5 Orca\n" in text, text
    assert "\n1 Walrus (PRM) P3\n" in text and "Animals: 20\n" in text, text
    r = run("remove", path, "2 Bison (DWV) 2", "Walrus (PRM) P3", "1 Orca")
    assert r.code == 0, r
    assert path.read_text() == TWENTY


def test_a_bad_card_among_several_writes_nothing(deck_file):
    path = deck_file(TWENTY)
    for args in (["add", path, "2 Orca", "Wallrus"], ["remove", path, "Orca", "Bison (DWV) 2"],
                 ["add", path, "1000 Orca"], ["add", path, "0 Orca"]):
        r = run(*args)
        assert r.code == 2 and "deckcli: error:" in r.err, r
        assert path.read_text() == TWENTY


def test_count_applies_to_the_cards_that_give_no_quantity(deck_file):
    path = deck_file("4 Walrus\n")
    r = run("add", path, "Orca", "Beluga", "--count", "3")
    assert r.code == 0, r
    assert path.read_text() == "4 Walrus\n3 Orca\n3 Beluga\n"
    r = run("add", path, "2 Orca", "--count", "3")
    assert r.code == 2 and "--count" in r.err, r  # two counts for one card: which one?
    assert path.read_text() == "4 Walrus\n3 Orca\n3 Beluga\n"


# -- remove ------------------------------------------------------------------------------------
def test_remove_lowers_the_count_and_the_section_total(deck_file):
    path = deck_file(TWENTY)
    r = run("remove", path, "Walrus", "-n", "1")
    assert r.code == 0, r
    assert path.read_text() == TWENTY.replace("Animals: 16", "Animals: 15").replace(
        "4 Walrus (ABS) 12  # main", "3 Walrus (ABS) 12  # main")
    assert r.err.splitlines()[-1] == f"{path}: 19 cards, casual: ILLEGAL (casual decks hold " \
        "at least 20 cards; this deck has 19)"


def test_remove_more_than_present_removes_the_entry_and_says_so(deck_file):
    path = deck_file(TWENTY)
    r = run("remove", path, "Herd Instinct", "--count", "9")
    assert r.code == 0, r
    assert "removed all 4 Herd Instinct (asked to remove 9); the entry is gone" in r.err
    assert path.read_text() == TWENTY.replace("Actions: 4", "Actions: 0").replace(
        "4 Herd Instinct (DWV) 90\n", "")


def test_remove_a_card_that_is_not_there_writes_nothing(deck_file):
    path = deck_file(TWENTY)
    r = run("remove", path, "Bison (DWV) 2")
    assert r.code == 2 and "not in the deck" in r.err, r
    assert path.read_text() == TWENTY


def test_remove_a_printing_leaves_other_printings(deck_file):
    text = "4 Walrus (ABS) 12\n1 Walrus (PRM) P3\n"
    path = deck_file(text)
    assert run("remove", path, "PRM P3").code == 0
    assert path.read_text() == "4 Walrus (ABS) 12\n"


@pytest.mark.parametrize("count,left", [(1, "4 Walrus (ABS) 12\n"), (2, "3 Walrus (ABS) 12\n"),
                                        (5, "\n"), (9, "\n")])
def test_remove_a_name_from_lines_with_and_without_a_printing(deck_file, count, left):
    """'Walrus' removes copies of any printing; the check before writing added the two lines'
    changes into one (keeping only one of them) and refused a correct edit as an internal
    error."""
    path = deck_file("4 Walrus (ABS) 12\n1 Walrus\n")
    r = run("remove", path, "Walrus", "--count", str(count))
    assert r.code == 0, r
    assert path.read_text() == left


def test_remove_from_yaml(deck_file):
    path = deck_file("cards:\n  - {count: 4, name: Walrus}\n  - {count: 2, name: Orca}\n",
                     "d.yaml")
    assert run("remove", path, "Walrus", "-n", "4").code == 0
    assert path.read_text() == "cards:\n  - {count: 2, name: Orca}\n"


def test_a_failed_write_leaves_the_deck(deck_file, monkeypatch):
    path = deck_file(TWENTY)

    def boom(*a, **k):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", boom)
    r = run("add", path, "Orca")
    monkeypatch.undo()
    assert r.code == 2 and "Input/output error" in r.err, r
    assert path.read_text() == TWENTY
    assert [p.name for p in path.parent.iterdir()] == ["deck.txt"]


def test_a_wrong_edit_is_caught_before_writing(deck_file, monkeypatch):
    from deckcli.decks import edit

    real = edit._rewrite_text
    monkeypatch.setattr(edit, "_rewrite_text",
                        lambda *a, **k: real(*a, **k).replace("4 Orca", "5 Orca"))
    path = deck_file(TWENTY)
    r = run("add", path, "Beluga")
    assert r.code == 2 and "internal error, please report" in r.err, r
    assert path.read_text() == TWENTY
