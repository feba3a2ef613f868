"""Round trips through convert and fmt that lost or refused part of a deck (audit 5): each
test names the case that failed, with the deck it failed on."""

from __future__ import annotations

import pytest
from conftest import run


@pytest.mark.parametrize("name", ["Deep  Divers", "Deep\tDivers", "Deep\u00a0Divers"])
def test_cod_keeps_a_deck_name_with_its_inner_spaces(tmp_path, name):
    """`name: Deep  Divers` (two spaces) went to a .cod as written, but the Cockatrice reader
    folded the name's spaces to one, so `convert --to cod -o` ended in an internal error and
    a .cod read back had another name. A name broken over lines is still one name."""
    deck = tmp_path / "deck.txt"
    deck.write_text(f"name: {name}\n4 Walrus\n", encoding="utf-8")
    out = tmp_path / "deck.cod"
    r = run("convert", deck, "--to", "cod", "-o", out)
    assert r.code == 0, r
    r = run("convert", out, "--to", "json")
    assert r.code == 0 and r.json()["name"] == name, r
    folded = tmp_path / "folded.cod"
    folded.write_text('<cockatrice_deck version="1">\n  <deckname>\n    Deep\n    Divers\n'
                      '  </deckname>\n  <zone name="main"><card number="4" name="Walrus"/>'
                      "</zone>\n</cockatrice_deck>\n", encoding="utf-8")
    r = run("convert", folded, "--to", "json")
    assert r.code == 0 and r.json()["name"] == "Deep Divers", r


def test_cod_keeps_blank_comment_lines_at_the_ends_of_the_opening_comments(tmp_path):
    """A deck opening with a comment box ('#', '# Deep Divers', '#') went to a .cod as
    written, but the reader dropped the blank first and last lines: `convert --to cod -o`
    ended in an internal error, and a .cod read back lost them."""
    deck = tmp_path / "deck.txt"
    deck.write_text("#\n# Deep Divers\n#\n\n4 Walrus\n", encoding="utf-8")
    out = tmp_path / "deck.cod"
    r = run("convert", deck, "--to", "cod", "-o", out)
    assert r.code == 0, r
    r = run("convert", out, "--to", "text")
    assert r.code == 0 and r.out.startswith("#\n# Deep Divers\n#\n"), r
    laid_out = tmp_path / "laid-out.cod"
    laid_out.write_text('<cockatrice_deck version="1">\n  <comments>\n    An ocean deck\n'
                        '  </comments>\n  <zone name="main"><card number="4" name="Walrus"/>'
                        "</zone>\n</cockatrice_deck>\n", encoding="utf-8")
    r = run("convert", laid_out, "--to", "text")
    assert r.code == 0 and r.out.startswith("# An ocean deck\n\n4 Walrus"), r


@pytest.mark.parametrize("name", ["#1 Aggro", "Deep # Divers", "Deep // Divers"])
@pytest.mark.parametrize("to", ["text", "arena"])
def test_a_deck_name_a_text_line_reads_otherwise(tmp_path, name, to):
    """A JSON or YAML deck may be named '#1 Aggro', but as the text line 'name: #1 Aggro' (or
    Arena's 'Name #1 Aggro') that is a header with no name and a comment. `convert -o` ended
    in an internal error, and to stdout the name was lost without a word. Now, as for an
    entry's name, -o refuses (nothing written) and says what it would read back as; stdout
    gets the conversion with a warning."""
    deck = tmp_path / "named.json"
    deck.write_text('{"name": "%s", "cards": [{"count": 4, "name": "Walrus"}]}' % name,
                    encoding="utf-8")
    out = tmp_path / "named.txt"
    r = run("convert", deck, "--to", to, "-o", out)
    assert r.code == 2 and "internal error" not in r.err, r
    assert f"'name: {name}' would read back as" in r.err and not out.exists(), r
    r = run("convert", deck, "--to", to)
    assert r.code == 0 and "warning" in r.err and f"'name: {name}'" in r.err, r


@pytest.mark.parametrize("suffix, deck", [
    ("json", '{"cards": [{"count": 4, "name": "Walrus", "comment": " main attacker "}]}'),
    ("yaml", 'cards:\n  - {count: 4, name: Walrus, comment: " main attacker "}\n')])
def test_an_entry_comment_with_spaces_around_it_converts_to_text(tmp_path, suffix, deck):
    """A JSON or YAML entry's comment ' main attacker ' (spaces around it, as a name's are
    taken off) made `convert --to text -o` refuse the deck: the text line's comment reads
    back without them, 'the entry 'Walrus' would read back as another entry'."""
    source = tmp_path / f"deck.{suffix}"
    source.write_text(deck, encoding="utf-8")
    out = tmp_path / "deck.txt"
    r = run("convert", source, "--to", "text", "-o", out)
    assert r.code == 0, r
    assert out.read_text(encoding="utf-8") == "4 Walrus  # main attacker\n"


@pytest.mark.parametrize("comment", ["page\x0cbreak", "one\u2028two", "next\x85line", "del\x7f"])
@pytest.mark.parametrize("where", ["top", "among the entries"])
def test_a_comment_a_yaml_comment_cannot_hold_is_refused_not_an_internal_error(
        tmp_path, comment, where):
    """A text deck's comment line holding a form feed, a Unicode line or next-line
    separator or another character YAML does not allow (pasted from a word processor) was
    written into the YAML as it was, and reading the result back ended in an internal error
    (ruamel's ReaderError or ScannerError). Now the conversion is refused and says why, as
    for a character a Cockatrice deck cannot carry."""
    text = f"# {comment}\n4 Walrus\n" if where == "top" else f"4 Walrus\n# {comment}\n2 Orca\n"
    deck = tmp_path / "deck.txt"
    deck.write_text(text, encoding="utf-8")
    out = tmp_path / "deck.yaml"
    for args in (("-o", out), ()):
        r = run("convert", deck, "--to", "yaml", *args)
        assert r.code == 2 and "internal error" not in r.err, r
        assert "cannot convert it to yaml" in r.err and "YAML" in r.err, r
    assert not out.exists()
