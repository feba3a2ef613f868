"""What each format keeps (issue 25, defect 11; docs/decklists.md's table): a text decklist
converted to each format and back to text keeps its fingerprint and everything that format
can carry, and `convert` warns, kind by kind, about what the target leaves out.
"""

from __future__ import annotations

import pytest
from conftest import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcli.decks.convert import convert
from deckcli.decks.reader import parse_text_of
from deckcli.validate import Options, validate_deck

HEADER = {"game", "format", "name", "player"}
# The table of docs/decklists.md, written out here on its own (not read from deckcli.decks.carry)
KEEPS = {
    "text": HEADER | {"top", "comments", "entry comments", "printings", "variants", "sections",
                      "sideboard"},
    "yaml": HEADER | {"top", "comments", "entry comments", "printings", "variants", "sections"},
    "json": HEADER | {"entry comments", "printings", "variants"},
    "csv": {"printings", "variants"},
    "arena": {"name", "printings", "sideboard"},
    "cod": {"name", "top", "printings", "sideboard"},
    "dek": {"sideboard"},
}
SUFFIX = {"text": "txt", "yaml": "yaml", "json": "json", "csv": "csv", "arena": "txt",
          "cod": "cod", "dek": "dek"}


def parse(text: str, fmt: str):
    kind = "text" if fmt == "arena" else fmt
    deck = parse_text_of(text, f"d.{SUFFIX[fmt]}", kind)
    assert not [p for p in deck.problems if p.is_error], (fmt, text, deck.problems)
    if kind == "yaml":
        from deckcli.decks.yamlfmt import read_comments

        read_comments(deck, text)
    return deck


def seen(deck, keeps: set) -> dict:
    """What of ``deck`` a format that keeps ``keeps`` must give back."""
    def entry(e):
        return (e.count, e.name,
                (e.set_code, e.number) if "printings" in keeps else None,
                sorted(e.variants) if "variants" in keeps else None,
                e.comment if "entry comments" in keeps else None,
                e.leading if "comments" in keeps else None,
                e.section if "sections" in keeps else None)

    return {"header": {k: v for k, v in deck.header.items() if k in keeps},
            "entries": [entry(e) for e in deck.entries],
            "sideboard": [entry(e) for e in deck.sideboard] if "sideboard" in keeps else [],
            "top": deck.preamble if "top" in keeps else [],
            "end": deck.trailer if "comments" in keeps else [],
            "sections": [(s.word, s.count) for s in deck.sections] if "sections" in keeps
            else []}


WORDS = st.text(st.characters(whitelist_categories=("L", "N"), whitelist_characters=" '.!"),
                min_size=1, max_size=14).map(lambda s: " ".join(s.split())).filter(bool)


@st.composite
def text_decks(draw, index):
    """A text decklist with every kind of thing: opening comments, header lines, sections,
    comments above and after entries, printings, variant tags, a sideboard, closing comments."""
    game = "animal-battle"
    cards = [c for c in index.all_cards(game) if len(index.cards_named(game, c.name)) == 1]

    def entry():
        card = draw(st.sampled_from(cards))
        line = f"{draw(st.integers(1, 4))} {card.name}"
        printing = draw(st.sampled_from([None, *index.printings_of(card.id)]))
        if printing is not None:
            line += f" ({printing.set_code})" + draw(st.sampled_from([f" {printing.number}", ""]))
            if printing.variants:
                tags = draw(st.lists(st.sampled_from(printing.variants), unique=True))
                line += f" [{', '.join(tags)}]" if tags else ""
        out = [f"# {c}" for c in draw(st.lists(WORDS, max_size=2))]
        return out + [line + draw(st.sampled_from(["", *(f"  # {w}" for w in [draw(WORDS)])]))]

    lines = [f"# {c}" for c in draw(st.lists(WORDS, max_size=2))]
    lines += [""] if lines else []
    header = draw(st.lists(st.sampled_from(sorted(HEADER - {"game"})), unique=True))
    lines += [f"{k}: {draw(WORDS)}" for k in header] + [""]
    for _ in range(draw(st.integers(1, 3))):
        heading = draw(st.sampled_from([None, "Animals", "Actions: 3", "Animals: 12"]))
        if heading and not (len(lines) > 1 and lines[-1] == heading):
            lines.append(heading)
        for _ in range(draw(st.integers(1, 4))):
            lines += entry()
    if draw(st.booleans()):
        lines.append("Sideboard")
        for _ in range(draw(st.integers(1, 2))):
            lines += entry()
    if draw(st.booleans()):
        lines += ["", f"# {draw(WORDS)}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fmt", list(KEEPS))
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_text_to_each_format_and_back_keeps_what_the_format_carries(index, fmt, data):
    first = parse(data.draw(text_decks(index)), "text")
    middle = parse(convert(first, fmt), fmt)
    back = parse(convert(middle, "text"), "text")
    assert seen(back, KEEPS[fmt]) == seen(first, KEEPS[fmt])
    assert seen(middle, KEEPS[fmt]) == seen(first, KEEPS[fmt])
    fingerprint = validate_deck(first, index, Options()).fingerprint
    assert validate_deck(back, index, Options()).fingerprint == fingerprint


DECK = """# Deep Divers, for the spring league
game: animal-battle
format: casual
name: Deep Divers
player: Ada Lovelace

Animals: 8
# the main attacker
4 Walrus (ABS) 12 [foil]  # four of them
4 Orca

Sideboard
2 Beluga
# end
"""
# What convert --to FORMAT warns about for DECK: each kind the format leaves out (its
# section header says only what its cards say, as fmt writes it: left out without a word)
WARNED = {
    "text": [],
    "yaml": ["the sideboard (2 cards)"],
    "json": ["1 comment line at the top", "2 comment lines among the entries",
             "the sideboard (2 cards)"],
    "csv": ["the header lines 'game: animal-battle', 'format: casual', 'name: Deep Divers', "
            "'player: Ada Lovelace'", "1 comment line at the top",
            "2 comment lines among the entries", "the comments after 1 entry",
            "the sideboard (2 cards)"],
    "arena": ["the header lines 'game: animal-battle', 'format: casual', "
              "'player: Ada Lovelace'", "1 comment line at the top",
              "2 comment lines among the entries", "the comments after 1 entry",
              "the variant tags of 1 entry"],
    "cod": ["the header lines 'game: animal-battle', 'format: casual', 'player: Ada Lovelace'",
            "2 comment lines among the entries", "the comments after 1 entry",
            "the variant tags of 1 entry"],
    "dek": ["the header lines 'game: animal-battle', 'format: casual', 'name: Deep Divers', "
            "'player: Ada Lovelace'", "1 comment line at the top",
            "2 comment lines among the entries", "the comments after 1 entry",
            "the printings (set, number) of 1 entry", "the variant tags of 1 entry"],
}


@pytest.mark.parametrize("fmt", list(WARNED))
def test_convert_warns_about_each_kind_of_thing_the_target_leaves_out(deck_file, fmt):
    path = deck_file(DECK)
    r = run("convert", path, "--to", fmt)
    assert r.code == 0, r
    warned = [line.split(f"warning: {fmt} cannot hold ", 1)[1].removesuffix("; left out")
              for line in r.err.splitlines() if "warning:" in line]
    assert warned == WARNED[fmt], r
    assert all(line.startswith(f"{path}: warning: ") for line in r.err.splitlines()), r


def test_yaml_to_text_keeps_the_comments_and_section_headers(deck_file, tmp_path):
    """Issue 25, defect 11: a YAML deck's comments were lost on the way to text."""
    yaml = tmp_path / "deck.yaml"
    assert run("convert", deck_file(DECK), "--to", "yaml", "-o", yaml).code == 0
    text = yaml.read_text(encoding="utf-8")
    assert "# the main attacker" in text and "# -- Animals: 8 --" in text
    r = run("convert", yaml, "--to", "text")
    assert r.code == 0 and r.err == "", r
    assert r.out == ("# Deep Divers, for the spring league\n\ngame: animal-battle\n"
                     "format: casual\nname: Deep Divers\nplayer: Ada Lovelace\n\nAnimals: 8\n"
                     "# the main attacker\n4 Walrus (ABS) 12 [foil]  # four of them\n4 Orca\n\n"
                     "# end\n")


def test_a_hand_written_yaml_deck_keeps_its_comments_in_text(deck_file):
    path = deck_file("# my deck\nname: Pod  # not carried: a header's own comment\ncards:\n"
                     "  # big ones\n  - {count: 4, name: Orca}  # four\n"
                     "  - count: 2\n    name: Walrus\n# bye\n", "deck.yaml")
    r = run("convert", path, "--to", "text")
    assert r.out == "# my deck\n\nname: Pod\n\n# big ones\n4 Orca  # four\n2 Walrus\n\n# bye\n", r


def test_csv_says_it_leaves_the_format_out(deck_file):
    """Issue 25, defect 11: CSV dropped 'format:' without a word."""
    r = run("convert", deck_file("format: championship\n4 Walrus\n"), "--to", "csv")
    assert r.code == 0 and r.out == "count,name,set,number,variants\n4,Walrus,,,\n", r
    assert "warning: csv cannot hold the header line 'format: championship'; left out" in r.err
