"""Properties (hypothesis): the verdict does not depend on which version of a card is listed,
and no text makes the parser raise."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
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
@example(["4 Walrus", "4 Orca", "4 Vaquita", "4 Narwhal", "4 Coelacanth"])  # legal: 20 cards
@example(["4 Walrus", "4 Orca", "4 Vaquita", "4 Narwhal", "3 Coelacanth"])  # 19 (AB-1.3)
@example(["4 Walrus", "1 Walrus (PRM) P3", "4 Orca", "4 Vaquita", "4 Narwhal", "4 Koala"])
@example(["20 Herd Instinct"])  # no limit on it, but no Animal (AB-3.3)
@example(["16 Herd Instinct", "4x Walrus (ABS) 12 [foil]"])  # legal
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_mutated_decklists_get_the_verdict_the_rules_give(index, lines):
    """Half-mangled lists never crash the check, and its verdict is the one the rules give,
    worked out here from the lines themselves: a casual deck is legal exactly when every line
    reads as an entry naming one known card, it holds 20 or more cards (AB-1.3), no card more
    than its copy limit (AB-1.5, all versions together) and an Animal (AB-3.3)."""
    from deckcli.decks.refs import resolve_ref
    from deckcli.errors import DeckcliError
    from deckcli.rulebook import find_rule

    text = "\n".join(lines)
    deck = parse_text(text, "m.txt", is_set=lambda c: index.is_set_code(None, c))
    report = validate_deck(deck, index, Options())
    assert all(find_rule(p.rule) is not None for p in report.problems)
    assert all(p.line is None or 1 <= p.line <= len(lines) for p in report.problems)

    readable = not [p for p in deck.problems if p.is_error]
    copies: dict[int, int] = {}
    cards = {}
    for e in deck.entries:
        ref = e.name + (f" ({e.set_code}) {e.number}" if e.set_code and e.number else
                        f" ({e.set_code})" if e.set_code else "")
        ref += f" [{', '.join(e.variants)}]" if e.variants else ""
        try:
            card = resolve_ref(index, "animal-battle", ref).card
        except DeckcliError:  # unknown, ambiguous, a tag the card is not printed in
            readable = False
            continue
        copies[card.id] = copies.get(card.id, 0) + e.count
        cards[card.id] = card
    size = sum(e.count for e in deck.entries)
    over_limit = any(limit_of(cards[i]) is not None and n > limit_of(cards[i])
                     for i, n in copies.items())
    animal = any(c.kind == "animal" for c in cards.values())
    expected = readable and size >= 20 and not over_limit and animal
    assert report.legal is expected, (text, report.problems)
    if size < 20 and readable:
        assert "AB-1.3" in {p.rule for p in report.problems}


def limit_of(card) -> int | None:
    """A card's copy limit: four (AB-1.5), unless its text lifts or changes it (AB-6.4, as
    data: Herd Instinct's override of AB-1.5 has the value null, no limit)."""
    for o in card.data.get("overrides", ()):
        if o.get("effect") == "copy_limit":
            return o.get("value")
    return 4
