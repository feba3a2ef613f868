"""deckcli convert: golden outputs for every reader and writer, round trips between deckcli's
four formats, the registration list. (What each format keeps: tests/test_round_trips.py.)"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GOLDEN = Path(__file__).parent / "golden" / "convert"
UPDATE = os.environ.get("DECKCLI_UPDATE_GOLDEN") == "1"
FORMATS = ("text", "yaml", "json", "csv")
SUFFIX = {"text": "txt", "yaml": "yaml", "json": "json", "csv": "csv"}


@pytest.mark.parametrize("source", ["deck.input.txt", "deck.input.yaml", "deck.input.cod",
                                    "deck.input.dek"])
@pytest.mark.parametrize("to", ["text", "yaml", "json", "csv", "arena", "cod", "dek",
                                "registration"])
def test_golden(source, to):
    r = run("convert", GOLDEN / source, "--to", to)
    assert r.code == 0, r
    stem = source.split(".")[0] + "." + source.rsplit(".", 1)[1]
    expected = GOLDEN / f"{stem}.{to}.expected"
    if UPDATE:
        expected.write_text(r.out, encoding="utf-8")
    assert r.out == expected.read_text(encoding="utf-8"), r


def test_csv_has_the_contract_columns():
    r = run("convert", GOLDEN / "deck.input.txt", "--to", "csv")
    lines = r.out.splitlines()
    assert lines[0] == "count,name,set,number,variants"
    assert "1,Walrus,ABS,12,foil;first-edition" in lines
    assert "4,Orca,,," in lines
    assert not any("Deep Divers" in x for x in lines)  # cards only


def test_registration_list_has_header_subtotals_and_total():
    r = run("convert", GOLDEN / "deck.input.txt", "--to", "registration")
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert "Deck name: Deep Divers" in lines and "Player:    Ada Lovelace" in lines
    assert "Game:      animal-battle" in lines and "Format:    casual" in lines
    assert "Animals (17)" in lines and "  Animals subtotal: 17" in lines
    assert "Actions (3)" in lines and "  Actions subtotal: 3" in lines
    assert "Total: 20 cards" in lines
    assert lines.index("Animals (17)") < lines.index("Actions (3)") < lines.index("Total: 20 cards")


def test_registration_lists_unknown_cards_apart(deck_file):
    path = deck_file("2 Orca\n1 Wlarus\n")
    r = run("convert", path, "--to", "registration")
    assert r.code == 0, r
    assert "Unknown cards (1)" in r.out and "  Unknown cards subtotal: 1" in r.out
    assert "Total: 3 cards" in r.out
    assert "Player:    ________________________" in r.out


def test_output_file_is_written(tmp_path):
    out = tmp_path / "deck.json"
    r = run("convert", GOLDEN / "deck.input.txt", "--to", "json", "-o", out)
    assert r.code == 0 and r.out == "", r
    assert out.read_text(encoding="utf-8") == \
        (GOLDEN / "deck.txt.json.expected").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["deck.json"]


def test_output_file_that_is_not_a_deck_is_not_overwritten(tmp_path):
    out = tmp_path / "notes.txt"
    out.write_text("shopping list\nmilk\n")
    r = run("convert", GOLDEN / "deck.input.txt", "--to", "text", "-o", out)
    assert r.code == 2 and "not overwriting" in r.err, r
    assert out.read_text() == "shopping list\nmilk\n"


def test_registration_list_can_be_written_again(tmp_path):
    out = tmp_path / "registration.txt"
    for _ in range(2):
        r = run("convert", GOLDEN / "deck.input.txt", "--to", "registration", "-o", out)
        assert r.code == 0, r
    assert out.read_text() == (GOLDEN / "deck.txt.registration.expected").read_text()


def test_output_file_that_is_a_deck_is_replaced(tmp_path):
    out = tmp_path / "old.yaml"
    out.write_text("cards:\n  - {count: 1, name: Orca}\n")
    r = run("convert", GOLDEN / "deck.input.txt", "--to", "yaml", "-o", out)
    assert r.code == 0, r
    assert "name: Deep Divers" in out.read_text()


@pytest.mark.parametrize("to,name", [("yaml", "deck.txt"), ("json", "deck.yaml"),
                                     ("text", "deck.json"), ("csv", "deck.txt"),
                                     ("yaml", "deck.csv"), ("json", "deck.deck")])
def test_an_output_file_read_back_as_another_format_is_refused(tmp_path, to, name):
    """YAML written into deck.txt would be read back as a broken text decklist: refused,
    and the file left as it was. (Without a suffix the content decides: see below.)"""
    src = tmp_path / "src.txt"
    src.write_text("name: Pod\n4 Walrus\n16 Orca\n", encoding="utf-8")
    out = tmp_path / name
    if name.endswith(".txt"):  # an earlier deck there stays as it was
        out.write_text("4 Walrus\n", encoding="utf-8")
    r = run("convert", src, "--to", to, "-o", out)
    assert r.code == 2, r
    assert "would be read back as a" in r.err and "nothing written" in r.err
    if name.endswith(".txt"):
        assert out.read_text(encoding="utf-8") == "4 Walrus\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["src.txt", name] if name.endswith(".txt") else ["src.txt"])


@pytest.mark.parametrize("to", ["text", "yaml", "json"])
def test_an_output_file_without_a_suffix_is_read_by_its_content(tmp_path, to):
    src = tmp_path / "src.txt"
    src.write_text("name: Pod\n4 Walrus\n16 Orca\n", encoding="utf-8")
    r = run("convert", src, "--to", to, "-o", tmp_path / "deck")
    assert r.code == 0, r
    back = run("validate", tmp_path / "deck", "-O", "json").json()["decks"][0]
    assert back["card_count"] == 20 and back["name"] == "Pod"


@pytest.mark.parametrize("to", ["text", "yaml", "json", "csv"])
def test_a_name_holding_a_set_code_and_number_is_written_whole(tmp_path, mark_db, to):
    """'Mark DWV 2' is a card's name (DWV 2 is also Bison): converted, the entry must still
    name that card, not 'Mark' from set DWV."""
    src = tmp_path / "src.txt"
    src.write_text("4 Mark DWV 2\n4 Walrus ABS 12\n", encoding="utf-8")
    out = tmp_path / f"out{ {'text': '.txt', 'yaml': '.yaml', 'json': '.json', 'csv': '.csv'}[to]}"
    r = run("--db", mark_db, "convert", src, "--to", to, "-o", out)
    assert r.code == 0, r
    back = run("--db", mark_db, "validate", out, "-O", "json").json()["decks"][0]
    assert back["problems"] == [] or all(p["code"] == "deck-size" for p in back["problems"])
    assert back["fingerprint"] == run("--db", mark_db, "validate", src, "-O", "json").json()[
        "decks"][0]["fingerprint"]
    text = out.read_text(encoding="utf-8")
    assert "Mark DWV 2" in text and "DWV" not in text.replace("Mark DWV 2", "")


def test_a_deck_with_errors_is_not_converted(deck_file):
    path = deck_file("four Walrus\n")
    r = run("convert", path, "--to", "json")
    assert r.code == 1 and ":1: error:" in r.err and r.out == "", r


def test_missing_file_exits_2(tmp_path):
    r = run("convert", tmp_path / "gone.txt", "--to", "json")
    assert r.code == 2 and "Traceback" not in r.err, r


def test_bad_target_is_a_usage_error():
    r = run("convert", GOLDEN / "deck.input.txt", "--to", "pdf")
    assert r.code == 2, r


def test_stdin_converts():
    r = run("convert", "-", "--to", "csv", input="4 Walrus (ABS) 12 [foil]\n")
    assert r.code == 0, r
    assert r.out == "count,name,set,number,variants\n4,Walrus,ABS,12,foil\n"


# -- round trips -------------------------------------------------------------------------------
def _parse(text: str, fmt: str):
    from deckcli.decks.reader import parse_text_of

    deck = parse_text_of(text, f"d.{SUFFIX[fmt]}", fmt)
    assert not [p for p in deck.problems if p.is_error], (text, deck.problems)
    return deck


def _entries(deck, comments=True):
    return [(e.count, e.name, e.set_code, e.number, frozenset(e.variants),
             e.comment if comments else None) for e in deck.entries]


WORDS = st.text(st.characters(whitelist_categories=("L", "N"), whitelist_characters=" -'.!"),
                min_size=1, max_size=16).map(lambda s: " ".join(s.split())).filter(bool)


@st.composite
def model_decks(draw, index):
    from deckcli.decks.model import Deck, Entry

    deck = Deck("d.txt", "text")
    for key in draw(st.lists(st.sampled_from(["game", "format", "name", "player"]),
                             unique=True)):
        deck.header[key] = draw(WORDS)
    cards = index.all_cards()
    for _ in range(draw(st.integers(1, 12))):
        card = draw(st.sampled_from(cards))
        printing = draw(st.sampled_from([None, *index.printings_of(card.id)]))
        name = draw(st.sampled_from([card.name, card.name.lower()]))
        set_code = number = None
        tags: tuple = ()
        if printing is not None:
            set_code = printing.set_code
            number = draw(st.sampled_from([printing.number, None]))
            if printing.variants:
                tags = tuple(draw(st.lists(st.sampled_from(printing.variants), unique=True)))
        comment = draw(st.one_of(st.none(), WORDS))
        deck.entries.append(Entry(draw(st.integers(1, 999)), name, set_code, number, tags,
                                  comment=comment))
    return deck


SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("source", FORMATS)
@pytest.mark.parametrize("target", FORMATS)
@given(data=st.data())
@SETTINGS
def test_round_trip_keeps_the_deck(index, source, target, data):
    from deckcli.decks.convert import convert

    model = data.draw(model_decks(index))
    first = _parse(convert(model, source), source)
    middle = _parse(convert(first, target), target)
    back = _parse(convert(middle, source), source)
    lossless = "csv" not in (source, target)
    assert _entries(back, lossless) == _entries(first, lossless)
    assert _entries(middle, lossless) == _entries(first, lossless)
    if lossless:
        assert back.header == first.header == middle.header
    if source != "csv":
        assert first.header == model.header
    assert _entries(first, source != "csv") == _entries(model, source != "csv")


def test_text_round_trip_keeps_comments_and_sections():
    from deckcli.decks.convert import convert

    text = (GOLDEN / "deck.input.txt").read_text(encoding="utf-8")
    deck = _parse(text, "text")
    assert convert(deck, "text") == text.replace("# Deep Divers, registered for the spring "
                                                 "league\n", "# Deep Divers, registered for the "
                                                 "spring league\n\n").replace(
        "3 Herd Instinct (DWV) 90\n# end", "3 Herd Instinct (DWV) 90\n\n# end")
    back = _parse(convert(_parse(convert(deck, "yaml"), "yaml"), "text"), "text")
    assert _entries(back) == _entries(deck) and back.header == deck.header


@pytest.mark.parametrize("value", ["true", "no", "123", "1e3", "null", "0o17", "~", "a: b",
                                   "- x", "'quoted'"])
@pytest.mark.parametrize("target", ["yaml", "json", "text"])
def test_header_values_that_look_like_other_things_survive(value, target):
    from deckcli.decks.convert import convert
    from deckcli.decks.model import Deck, Entry

    deck = Deck("d.txt", "text", header={"name": value, "player": value},
                entries=[Entry(2, "Orca", comment=value)])
    back = _parse(convert(deck, target), target)
    assert back.header == deck.header and back.entries[0].comment == value


def test_a_csv_list_converted_with_game_carries_that_game(tmp_path):
    """CSV carries cards only: an alpha-walrus deck came back from CSV as an animal-battle
    deck, even with --game alpha-walrus on the command that converted it back."""
    csv_file = tmp_path / "aw.csv"
    r = run("convert", EXAMPLES / "good" / "alpha-walrus-4p.txt", "--to", "csv", "-o", csv_file)
    assert r.code == 0, r
    for to, suffix in (("text", ".txt"), ("yaml", ".yaml"), ("json", ".json")):
        out = tmp_path / f"aw{suffix}"
        r = run("convert", csv_file, "--to", to, "--game", "alpha-walrus", "-o", out)
        assert r.code == 0, r
        deck = run("validate", out, "--players", "4", "-O", "json").json()["decks"][0]
        assert deck["game"] == "alpha-walrus" and deck["legal"], deck
    r = run("convert", csv_file, "--to", "text")  # no --game: nothing is made up
    assert "game:" not in r.out


# -- arena: QTY NAME (SET) NUMBER ---------------------------------------------------------------
def test_arena_writes_every_resolved_entry_with_its_printing():
    """docs/decklists.md: 'convert --to arena writes Deck then QTY NAME (SET) NUMBER lines'. A line
    naming only the card (or only a set) gets the card's own printing; one naming a printing
    keeps it; an unknown or ambiguous name keeps what it has (validate reports it)."""
    r = run("convert", "-", "--to", "arena",
            input="4 Walrus\nOrca x4\n4 Narwhal [foil]\n1 Walrus (PRM) P3 [promo]\n"
                  "1 Beluga (ABS)\n4 Wlarus\n4 Bison\nSideboard\n2 Dugong\n")
    assert r.code == 0, r
    assert r.out == ("Deck\n4 Walrus (ABS) 12\n4 Orca (ABS) 10\n4 Narwhal (ABS) 13\n"
                     "1 Walrus (PRM) P3\n1 Beluga (ABS) 11\n4 Wlarus\n4 Bison\n\n"
                     "Sideboard\n2 Dugong (ABS) 19\n")
    assert "arena cannot hold the variant tags of 2 entries" in r.err, r


def test_arena_output_file_is_read_back_as_the_same_deck(tmp_path):
    out = tmp_path / "arena.txt"
    r = run("convert", "-", "--to", "arena", "-o", out, input="4 Walrus\n2 orca\n")
    assert r.code == 0, r
    assert out.read_text(encoding="utf-8") == "Deck\n4 Walrus (ABS) 12\n2 orca (ABS) 10\n"


@pytest.mark.parametrize("to", ["arena", "text", "csv"])
def test_convert_onto_its_own_input_is_refused_and_the_deck_kept(tmp_path, to):
    """A conversion carries only what its target can: written over its own source it would
    lose the rest (tags, comments, the format header). Refused, exit 2, the file untouched."""
    deck = tmp_path / "d.txt"
    shutil.copy(EXAMPLES / "good" / "championship-deep-divers.txt", deck)
    before = deck.read_bytes()
    r = run("convert", deck, "--to", to, "-o", deck)
    assert r.code == 2 and "is the deck being converted" in r.err, r
    assert deck.read_bytes() == before


def test_dek_refuses_a_deck_whose_card_its_name_alone_does_not_name(tmp_path):
    """A .dek names cards by name only. Bison (DWV) 2 and Bison (DWV) 39 are two cards: as
    'Bison' they would read back as an ambiguous name, another deck than the one converted.
    `convert -o` writes only a file that reads back as the same deck: refused, nothing
    written; to stdout, a warning names the card."""
    deck = tmp_path / "herd.txt"
    deck.write_text("4 Bison (DWV) 2\n2 Bison (DWV) 39\n4 Walrus (ABS) 12\n", encoding="utf-8")
    out = tmp_path / "herd.dek"
    r = run("convert", deck, "--to", "dek", "-o", out)
    assert r.code == 2 and "Traceback" not in r.err, r
    assert "'Bison'" in r.err and "Bison (DWV) 39" in r.err, r
    assert not out.exists()
    r = run("convert", deck, "--to", "dek")
    assert r.code == 0 and 'Name="Bison"' in r.out, r
    assert "warning" in r.err and "Bison (DWV) 2" in r.err, r
    # a name that names one card converts as before, and reads back as the same cards
    deck.write_text("4 Walrus (ABS) 12\n4 Orca (ABS) 10\n", encoding="utf-8")
    r = run("convert", deck, "--to", "dek", "-o", out)
    assert r.code == 0, r
    assert run("diff", deck, out).code == 0


def test_dek_of_an_alpha_walrus_deck_keeps_its_two_walruses_apart(tmp_path):
    """alpha-walrus has two cards named Walrus (levels 6 and 8): a .dek cannot tell them
    apart."""
    deck = tmp_path / "floe.txt"
    deck.write_text("game: alpha-walrus\n2 Walrus (AWC) 22\n1 Walrus (AWC) 30\n",
                    encoding="utf-8")
    out = tmp_path / "floe.dek"
    r = run("convert", deck, "--to", "dek", "-o", out)
    assert r.code == 2 and "Walrus (AWC) 30" in r.err and not out.exists(), r


@pytest.mark.parametrize("name", ["Walrus # hi", "Walrus (ABS) 12", "Walrus [foil]",
                                  "Walrus *F*", "Walrus ABS 12", "Walrus // note"])
@pytest.mark.parametrize("to", ["text", "arena"])
def test_a_name_no_card_has_that_a_text_line_reads_otherwise(tmp_path, name, to):
    """A JSON deck may name a card no database has, 'Walrus # hi' (validate says so). Written
    as a text line, that name is a Walrus and a comment: an unknown card would become a real
    one. `convert -o` refuses, nothing written, and names the entry; to stdout, a warning
    does. A name a text line keeps ('Walrus x3' has its count first) converts as before."""
    deck = tmp_path / "odd.json"
    deck.write_text('{"cards": [{"count": 4, "name": "Orca"}, {"count": 2, "name": "%s"}]}'
                    % name, encoding="utf-8")
    out = tmp_path / "odd.txt"
    r = run("convert", deck, "--to", to, "-o", out)
    assert r.code == 2 and "internal error" not in r.err, r
    assert f"the entry '{name}' would read back as 'Walrus'" in r.err, r
    assert not out.exists()
    r = run("convert", deck, "--to", to)
    assert r.code == 0 and "warning" in r.err and f"'{name}'" in r.err, r
    deck.write_text('{"cards": [{"count": 2, "name": "Walrus x3"}]}', encoding="utf-8")
    r = run("convert", deck, "--to", to, "-o", out)
    assert r.code == 0 and "warning" not in r.err, r
    assert "2 Walrus x3" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("to", ["csv", "json", "arena", "cod", "dek"])
def test_section_headers_fmt_wrote_are_left_out_without_a_warning(to):
    """The championship example is as fmt writes it: its section headers ('Animals: 52',
    'Actions: 8') say only what its cards say, and fmt writes them again from the cards, so
    a target without sections drops them without a warning (there was one)."""
    deck = EXAMPLES / "good" / "championship-deep-divers.txt"
    assert run("fmt", "--check", deck).code == 0
    r = run("convert", deck, "--to", to)
    assert r.code == 0, r
    assert "section headers" not in r.err and "warning: " in r.err, r  # the header's still


@pytest.mark.parametrize("text,why", [
    ("Actions: 4\n4 Walrus\n", "an Animal under Actions"),
    ("Animals: 5\n4 Walrus\n", "a count its entries do not make"),
    ("Animals\n4 Walrus\nAnimals\n4 Orca\n", "one kind's header twice"),
])
def test_section_headers_that_say_more_than_the_cards_are_warned_about(deck_file, text, why):
    r = run("convert", deck_file(text), "--to", "csv")
    assert r.code == 0, r
    assert "warning: csv cannot hold the section headers" in r.err, (why, r)
