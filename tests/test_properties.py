"""Properties (hypothesis): the verdict does not depend on which version of a card is listed,
and no text makes the parser raise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcli.decks.model import Deck, Entry
from deckcli.decks.text import parse_text
from deckcli.validate import Options, validate_deck

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def decks(draw, index):
    cards = index.all_cards("animal-battle")
    chosen = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=22, unique_by=lambda c: c.id))
    rows = []
    for card in chosen:
        printings = index.printings_of(card.id)
        counts = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        for n in counts:
            p = draw(st.sampled_from(printings))
            tags = draw(st.lists(st.sampled_from(p.variants), unique=True)) if p.variants else []
            rows.append((card, p, tuple(tags), n))
    return rows


def to_deck(rows, swap=None):
    deck = Deck("d.txt", "text")
    for i, (card, p, tags, n) in enumerate(rows, start=1):
        if swap is not None:
            p, tags = swap(card, p, tags)
        deck.entries.append(Entry(n, card.name, p.set_code if p else None, p.number if p else None,
                                  tags, i))
    return deck


def verdict(index, deck, fmt):
    report = validate_deck(deck, index, Options(format=fmt))
    return report.legal, sorted((d.code, d.rule) for d in report.problems)


@given(data=st.data(), fmt=st.sampled_from(["casual", "championship"]))
@SETTINGS
def test_swapping_a_version_never_changes_the_verdict(index, data, fmt):
    rows = data.draw(decks(index))

    def other_version(card, p, tags):
        choice = data.draw(st.sampled_from(index.printings_of(card.id)))
        extra = data.draw(st.lists(st.sampled_from(choice.variants), unique=True)) \
            if choice.variants else []
        return choice, tuple(extra)

    before = verdict(index, to_deck(rows), fmt)
    after = verdict(index, to_deck(rows, other_version), fmt)
    assert before == after


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None)
def test_no_text_crashes_the_parser(text):
    deck = parse_text(text, "fuzz.txt", is_set=lambda code: code.upper() in {"ABS", "PRM"})
    for entry in deck.entries:
        assert 1 <= entry.count <= 999 and entry.name.strip()
    for p in deck.problems:
        assert p.path == "fuzz.txt" and p.rule.startswith("DL-")


LINE = st.one_of(
    st.from_regex(r"\A[x]?[0-9]{1,4}[x]? [A-Za-z' ]{1,20}( \([A-Z]{3}\) [0-9]{1,3})?( \[[a-z-]+\])?\Z"),
    st.text(alphabet="0123456789x -#[]():ABSWalrus\t'", max_size=30),
)


@given(st.lists(LINE, max_size=30))
@settings(max_examples=200, deadline=None)
def test_mutated_decklists_never_crash_validation(index, lines):
    deck = parse_text("\n".join(lines), "m.txt", is_set=lambda c: index.is_set_code(None, c))
    report = validate_deck(deck, index, Options())
    assert report.legal in (True, False)
    assert all(p.rule for p in report.problems)
