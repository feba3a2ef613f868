"""The quick read of a text decklist (deckcli.decks.quick) against the full reader.

``validate_path`` takes the quick read for a text decklist whose every line reads and resolves
cleanly, and the full reader otherwise. The two must never disagree: on generated decklists,
good and bad, for both games, with and without an event, the report through ``validate_path``
is the report of the full reader. Then: the quick read is really taken for clean decks (else
the comparison proves nothing), it steps aside for each kind of problem line, and the entries
it builds on demand are those the full reader builds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcli.decks.quick import quick_resolve
from deckcli.decks.reader import read_deck
from deckcli.validate import Options, pick, resolve_for, validate_deck, validate_path

SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def full_report(path, index, options):
    """The report of the full reader (never the quick read)."""
    return validate_deck(read_deck(str(path), is_set=index.is_any_set_code), index, options)


def clean_lines(index, game):
    """Entry lines that read and resolve without a problem, in the forms people write."""
    out = []
    for card in index.all_cards(game)[::3]:
        if sum(1 for c in index.all_cards(game) if c.name == card.name) > 1:
            continue  # an ambiguous name is a problem line
        p = index.printings_of(card.id)[0]
        tag = f" [{p.variants[0]}]" if p.variants else ""
        out += [f"{card.name}", f"{card.name} ({p.set_code}) {p.number}",
                f"{card.name} {p.set_code} {p.number}", f"{card.name.upper()}",
                f"{card.name} ({p.set_code}) {p.number}{tag}", f"{card.name}  # a note",
                f"{card.name} ({p.set_code})", f"{card.name}{tag}"]  # narrowed, no printing
    return out


PROBLEM_LINES = [
    "4 Walruss", "0 Orca", "1000 Orca", "-1 Orca", "4 Orca (XYZ) 1", "4 Orca (ABS) 12",
    "4 Orca [shiny]", "4 Bison", "4 Orca (ABS) 999", "Walrus", "author: me", "4", "4 []",
    "x" * 4097, "4 Alpha Walrus", "1 Krill (AWC) 1", "4 Walrus [first-edition, promo]",
]
HEADER_LINES = ["game: animal-battle", "game: alpha-walrus", "game: chess", "format: casual",
                "Format: championship", "format: sealed", "name: Deep Divers", "player: Ann"]
SECTION_LINES = ["Animals", "Animals: 8", "Actions (4)", "Creatures: 3", "Gear 4",
                 "Battle Cards", "# just a comment", "", "   "]
# other tools' lines (DL-2.7, DL-2.8): the quick read takes the first three and Archidekt's
# entries in the deck, and leaves every file with one of the others to the full reader
LAYOUT_LINES = ["Deck", "main:", "// a note", "// Sideboard", "Sideboard", "SB: 2 Orca",
                "sb: 1 Walrus # spare", "About", "Name Deep Divers", "Name Orca x2", "[metadata]",
                "Name=Deep Divers", "[main]", "[sideboard]", "Side:", "[general]", "Constructed",
                "1x Orca (abs) 10 [Animals] ^Have,#37d67a^", "2 Orca [Maybeboard]",
                "1 Walrus [Card Draw,foil] # a note"]


@st.composite
def decklists(draw, index):
    """About half the decks read cleanly (the quick read); the others carry 1 or 2 lines of
    trouble: a problem line, a header out of place, a card of the other game."""
    game = draw(st.sampled_from(["animal-battle", "alpha-walrus"]))
    header = [f"game: {game}" if game == "alpha-walrus" or draw(st.booleans()) else None,
              draw(st.sampled_from([None, "format: casual", "Format: championship"])),
              draw(st.sampled_from([None, "name: Deep Divers"])),
              draw(st.sampled_from([None, "player: Ann"]))]
    lines = [line for line in header if line]
    entry = st.builds(lambda n, x, body: f"{n}{x} {body}", st.integers(1, 9),
                      st.sampled_from(["", "x"]), st.sampled_from(clean_lines(index, game)))
    after = st.builds(lambda n, body, end: f"{body} x{n}{end}", st.integers(1, 9),  # Walrus x4
                      st.sampled_from([x for x in clean_lines(index, game) if "#" not in x]),
                      st.sampled_from(["", " *F*", "  // a note", "  # a note"]))
    lines += draw(st.lists(st.one_of(entry, entry, entry, after, st.sampled_from(SECTION_LINES),
                                     st.sampled_from(LAYOUT_LINES)), max_size=24))
    if draw(st.booleans()):
        other = "alpha-walrus" if game == "animal-battle" else "animal-battle"
        trouble = st.one_of(st.sampled_from(PROBLEM_LINES), st.sampled_from(HEADER_LINES),
                            st.sampled_from(clean_lines(index, other)))
        for line in draw(st.lists(trouble, min_size=1, max_size=2)):
            lines.insert(draw(st.integers(0, len(lines))), line)
    pad = st.sampled_from(["", "", " ", "\t", "  "])  # whitespace around a line changes nothing
    lines = [draw(pad) + line + draw(pad) for line in lines]
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return bom + newline.join(lines) + draw(st.sampled_from(["", newline]))


@pytest.fixture(scope="module")
def event(tmp_path_factory, index):
    from deckcli.events.model import load_event

    path = tmp_path_factory.mktemp("event") / "event.yaml"
    path.write_text('name: E\nbanned: ["Orca", "Walrus"]\nlimited: {"Beluga": 2}\n'
                    "sets: [ABS, DWV, AWC]\n", encoding="utf-8")
    event = load_event(str(path))
    event.resolve(index)  # as validate does: the bans and the limit then act
    return event


OPTIONS = [{}, {"format": "championship"}, {"game": "alpha-walrus"},
           {"game": "alpha-walrus", "players": 5}, {"game": "animal-battle"}, "event"]


@given(data=st.data(), choice=st.sampled_from(OPTIONS))
@SETTINGS
def test_quick_and_full_reading_give_the_same_report(index, event, data, choice):
    text = data.draw(decklists(index))
    options = Options(event=event) if choice == "event" else Options(**choice)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.txt"
        path.write_text(text, encoding="utf-8", newline="")
        quick = validate_path(str(path), index, options)
        full = full_report(path, index, options)
    assert quick.to_json() == full.to_json()


@pytest.mark.parametrize("game", ["animal-battle", "alpha-walrus"])
def test_every_clean_line_is_judged_alike_on_both_routes_at_an_event(index, event, game,
                                                                       tmp_path):
    """Each form of clean line, alone in a deck, against an event with bans, a limit and legal
    sets: the quick read's report is the full reader's (a line naming a set or tags and no
    printing is judged by them, EV-2.1, on both routes)."""
    path = tmp_path / "deck.txt"
    for line in clean_lines(index, game):
        path.write_text(f"game: {game}\n3 {line}\n", encoding="utf-8")
        quick = validate_path(str(path), index, Options(event=event))
        assert quick.to_json() == full_report(path, index, Options(event=event)).to_json(), line


def test_an_events_bans_and_limits_act_on_the_quick_read(index, event, deck_file):
    path = deck_file("4 Walrus\n3 Beluga\n4 Addax\n")  # banned, over the event's limit of 2
    text = path.read_text(encoding="utf-8")
    options = Options(event=event)
    assert quick_resolve(text, str(path), index, options, pick) is not None
    quick = validate_path(str(path), index, options)
    assert quick.to_json() == full_report(path, index, options).to_json()
    assert {(p.code, p.rule) for p in quick.problems} >= {("banned", "EV-1.1"),
                                                          ("copy-limit", "EV-1.3")}


@pytest.mark.parametrize("name", ["championship-deep-divers.txt", "alpha-walrus-4p.txt",
                                  "casual-risky.txt"])
def test_a_clean_deck_takes_the_quick_read(index, name):
    path = EXAMPLES / "good" / name
    text = path.read_text(encoding="utf-8")
    assert quick_resolve(text, str(path), index, Options(), pick) is not None
    assert validate_path(str(path), index, Options()).to_json() == \
        full_report(path, index, Options()).to_json()


@pytest.mark.parametrize("text", [
    "4 Walruss\n",  # unknown card
    "4 Walrus\n0 Orca\n",  # bad count
    "4 Walrus\nWalrus\n",  # no quantity
    "4 Walrus\nname: late\n",  # header after the entries
    "name: a\nname: b\n4 Walrus\n",  # header given twice
    "game:\n4 Walrus\n",  # a header line with no value
    "game: chess\n4 Walrus\n",  # unknown game
    "4 Bison\n",  # ambiguous name
    "4 Walrus [shiny]\n",  # unknown variant
    "4 Orca (ABS) 12\n",  # name and number disagree
    "# only a comment\n",  # no entries
    "4 Walrus\n" + "x" * 4097 + "\n",  # a line over the limit
    "4 Walrus  # " + "x" * 4097 + "\n",  # an entry on a line over the limit
])
def test_a_problem_line_leaves_the_quick_read(index, text, deck_file):
    assert quick_resolve(text, "d.txt", index, Options(), pick) is None
    path = deck_file(text)
    report = validate_path(str(path), index, Options())
    assert report.problems and report.to_json() == full_report(path, index, Options()).to_json()


@pytest.mark.parametrize("text", [
    "Deck\n4 Walrus\n16 Orca\n",  # the deck starts where it starts anyway
    "// Deep Divers\nmain:\nWalrus x4\nOrca (ABS) 10 x16  // big\n",
    "4 Walrus (ABS) 12 *F*\n16 Orca\n",
])
def test_other_tools_lines_that_change_nothing_take_the_quick_read(index, text, deck_file):
    assert quick_resolve(text, "d.txt", index, Options(), pick) is not None
    path = deck_file(text)
    assert validate_path(str(path), index, Options()).to_json() == \
        full_report(path, index, Options()).to_json()


@pytest.mark.parametrize("text", [
    "4 Walrus\nSideboard\n2 Orca\n", "4 Walrus\n// Sideboard\n2 Orca\n",
    "4 Walrus\nSB: 2 Orca\n", "About\nName Deep Divers\n4 Walrus\n",
    "Name Orca x2\n4 Walrus\n",  # the deck's name, though 'Orca x2' reads as an entry
    "[metadata]\nName=Deep Divers\n[main]\n4 Walrus\n",
    "Animals\n4 Walrus\nDeck\n4 Orca\n",  # 'Deck' ends the section the quick read counts
])
def test_a_sideboard_or_a_name_line_leaves_the_quick_read(index, text, deck_file):
    assert quick_resolve(text, "d.txt", index, Options(), pick) is None
    path = deck_file(text)
    assert validate_path(str(path), index, Options()).to_json() == \
        full_report(path, index, Options()).to_json()


def test_entries_built_on_demand_are_the_full_readers(index):
    path = EXAMPLES / "good" / "championship-deep-divers.txt"
    text = path.read_text(encoding="utf-8")
    quick = quick_resolve(text, str(path), index, Options(), pick)[0]
    full = resolve_for(read_deck(str(path), is_set=index.is_any_set_code), index, Options())[0]

    def seen(r):
        e = r.entry
        return (e.count, e.name, e.set_code, e.number, e.variants, e.line, e.whole, r.card,
                r.printing)

    for card_id in full.totals():  # one card's entries, built alone, then from all of them
        assert [seen(r) for r in quick.listing(card_id)] == \
            [seen(r) for r in full.listing(card_id)]
    assert [seen(r) for r in quick.entries] == [seen(r) for r in full.entries]
    assert all(quick.listing(c) == [r for r in quick.entries if r.card.id == c]
               for c in full.totals())
    assert quick.totals() == full.totals() and quick.card_count == full.card_count


@given(game=st.sampled_from([None, "animal-battle", "Alpha-Walrus", "chess"]),
       fmt=st.sampled_from([None, "casual", "Championship", "sealed"]),
       option=st.sampled_from([{}, {"game": "alpha-walrus"}, {"format": "casual"},
                               {"game": "animal-battle", "format": "championship"}]))
@settings(max_examples=120, deadline=None)
def test_a_remembered_pick_is_the_pick(game, fmt, option):
    # validate.pick remembers clean answers for a batch; problems name the file and line
    import deckcli.validate as v
    from deckcli.decks.model import Deck

    def deck(path):
        d = Deck(path, "text")
        for line, (key, value) in enumerate((("game", game), ("format", fmt)), start=1):
            if value is not None:
                d.header[key], d.header_lines[key] = value, line
        return d

    def seen(result):
        found, fmt_, problems = result
        return found, fmt_, [(p.code, p.path, p.line, p.message) for p in problems]

    options = Options(**option)
    v._PICKED.clear()
    fresh = seen(pick(deck("a.txt"), options))
    assert seen(pick(deck("a.txt"), options)) == fresh  # remembered
    other = seen(pick(deck("b.txt"), options))  # another file, same header
    assert other[:2] == fresh[:2]
    assert [p[0] for p in other[2]] == [p[0] for p in fresh[2]]
    assert all(p[1] == "b.txt" for p in other[2])


def test_the_line_memos_stay_bounded(index, monkeypatch, deck_file):
    # a batch of ever-new lines must not grow the memos without end; answers stay the same
    import deckcli.decks.quick as quick
    import deckcli.decks.resolve as resolve

    monkeypatch.setattr(quick, "MEMO_LINES", 3)
    monkeypatch.setattr(resolve, "MEMO_LINES", 3)
    for memo in ("resolve", ("quick", "animal-battle")):  # other tests' lines: start empty
        index.memo.pop(memo, None)
    cards = [c for c in index.all_cards("animal-battle")
             if len(index.cards_named("animal-battle", c.name)) == 1][:12]
    for i in range(4):
        text = "".join(f"{n} {c.name}\n" for n, c in enumerate(cards[i * 3:i * 3 + 3], start=2))
        path = deck_file(text, f"d{i}.txt")
        assert validate_path(str(path), index, Options()).to_json() == \
            full_report(path, index, Options()).to_json()
        assert len(index.memo[("quick", "animal-battle")]) <= 4
        assert len(index.memo["resolve"]) <= 4


def test_a_resolved_deck_compares_without_its_cached_totals(index):
    deck = read_deck(str(EXAMPLES / "good" / "casual-risky.txt"), is_set=index.is_any_set_code)
    one = resolve_for(deck, index, Options())[0]
    two = resolve_for(deck, index, Options())[0]
    assert one.totals() and one == two  # totals asked of one only
