"""One row per deck-construction and setup sentence of the animal-battle seed.

Each row builds a deck, validates it through the library, and states the verdict and the rule
id of the problem expected (or that there is none). Each row fails if its rule were broken.
"""

from __future__ import annotations

import pytest

from deckcli.decks.text import parse_text
from deckcli.validate import Options, validate_deck


def check(index, text: str, **opts):
    deck = parse_text(text, "deck.txt", is_set=lambda c: index.is_set_code(None, c))
    return validate_deck(deck, index, Options(**opts))


def animals(n: int, per: int = 4) -> str:
    """n cards spread over real Animals, 'per' copies each (<= 4)."""
    names = ["Orca", "Vaquita", "Narwhal", "Coelacanth", "Blue Whale", "Sperm Whale",
             "Whale Shark", "Emperor Penguin", "Great White Shark", "Cheetah", "Meerkat",
             "Addax", "Kakapo", "Giant Panda", "Gharial", "Platypus", "Koala", "Capybara"]
    lines, left = [], n
    for name in names:
        if left <= 0:
            break
        k = min(per, left)
        lines.append(f"{k} {name}")
        left -= k
    assert left == 0, "not enough names for that many cards"
    return "\n".join(lines) + "\n"


ROWS = [
    # (rule sentence, deck text, options, expected legal, expected rule of the error)
    ("AB-1.3 casual: 20 or more cards (20 is enough)", animals(20), {}, True, None),
    ("AB-1.3 casual: 19 is too few", animals(19), {}, False, "AB-1.3"),
    ("AB-1.3 casual: no upper bound", animals(64), {}, True, None),
    ("AB-1.4 championship: exactly 60", animals(60), {"format": "championship"}, True, None),
    ("AB-1.4 championship: 59 is illegal", animals(59), {"format": "championship"}, False, "AB-1.4"),
    ("AB-1.4 championship: 61 is illegal", animals(61), {"format": "championship"}, False, "AB-1.4"),
    ("AB-1.5 four copies are allowed", "4 Walrus\n" + animals(16), {}, True, None),
    ("AB-1.5 a fifth copy is not", "5 Walrus\n" + animals(16), {}, False, "AB-1.5"),
    ("AB-1.5 the copies of one card add up over several lines",
     "3 Walrus\n2 Walrus (ABS) 12\n" + animals(16), {}, False, "AB-1.5"),
    ("AB-1.5 a card is name + collector number: two Bisons are two cards",
     "4 Bison (DWV) 2\n4 Bison (DWV) 39\n" + animals(12), {}, True, None),
    ("AB-1.6 foil, first-edition and promotional versions count together",
     "2 Walrus (ABS) 12 [foil]\n2 Walrus (ABS) 12 [first-edition]\n1 Walrus (PRM) P3 [promo]\n"
     + animals(16), {}, False, "AB-1.6"),
    ("AB-1.6 an alternate-art printing with its own number counts with its card",
     "4 Walrus (ABS) 12\n1 Walrus (ABS) A12 [alternate-art]\n" + animals(16), {}, False, "AB-1.6"),
    ("AB-1.6 a reprint in another set counts with its card",
     "3 Walrus (ABS) 12\n2 Walrus (CLS) C012\n" + animals(16), {}, False, "AB-1.6"),
    ("AB-6.4 card text overrides the copy limit (Herd Instinct)",
     "8 Herd Instinct\n" + animals(16), {}, True, None),
    ("AB-3.3 a deck without Animals cannot reveal a Challenger", "20 Herd Instinct\n", {},
     False, "AB-3.3"),
]


@pytest.mark.parametrize("text,opts,legal,rule", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_deck_rule(index, text, opts, legal, rule):
    report = check(index, text, **opts)
    errors = [p for p in report.problems if p.is_error]
    assert report.legal is legal, errors
    if rule == "AB-1.6":  # the versions-count-together sentence is enforced by the copy limit
        assert [p.rule for p in errors] == ["AB-1.5"]
    elif rule:
        assert [p.rule for p in errors] == [rule]


def test_copy_limit_message_names_lines_and_versions(index):
    report = check(index, "2 Walrus (ABS) 12 [first-edition]\n4 Cheetah\n2 Walrus [foil]\n"
                          "1 Walrus (PRM) P3 [promotional]\n" + animals(12))
    [p] = [p for p in report.problems if p.code == "copy-limit"]
    assert p.card == "Walrus (ABS) 12"
    assert p.line == 1
    assert p.message == ("Walrus (ABS) 12: 5 copies, limit 4 (lines 1, 3, 4: "
                         "2 Walrus (ABS) 12 [first-edition], 2 Walrus [foil], "
                         "1 Walrus (PRM) P3 [promotional])")


@pytest.mark.parametrize("animal_count,warn", [(5, True), (6, False)])
def test_ab_3_1_opening_six_warning(index, animal_count, warn):
    """AB-3.1: the opening hand is six cards. With 20 cards, 5 Animals give 87.1 % (warning),
    6 give 92.3 % (none); with a five-card hand both would warn, with seven neither would."""
    text = animals(animal_count, per=1) + f"{20 - animal_count} Herd Instinct\n"
    report = check(index, text)
    warnings = [p for p in report.problems if p.code == "opening-hand"]
    assert bool(warnings) is warn
    assert report.legal
    if warn:
        assert "87.1%" in warnings[0].message and warnings[0].rule == "AB-3.3"


def test_other_format_is_reported(index):
    report = check(index, animals(60), format="casual")
    assert report.extra["formats"] == {"casual": True, "championship": True}
    report = check(index, animals(24), format="championship")
    assert report.extra["formats"] == {"casual": True, "championship": False}
    assert not report.legal


def test_format_from_header_and_flag(index):
    text = "format: championship\n" + animals(24)
    assert check(index, text).format == "championship"
    assert check(index, text, format="casual").format == "casual"
    assert check(index, animals(24)).format == "casual"


def test_copy_limit_breakdown_labels_every_part_alike(index):
    """Lines naming a printing, only tags, or nothing: each part of the breakdown is one
    version written as a decklist entry names it, never a mix of printings, tags and 'regular'."""
    import re

    report = check(index, "8 Walrus (ABS) 12\n1 Walrus [foil]\n1 Walrus (PRM) P3 [promo]\n"
                          "4 Walrus\n2 Walrus (CLS)\n" + animals(12))
    [p] = [p for p in report.problems if p.code == "copy-limit"]
    parts = re.search(r"\(lines [\d, ]+: (.*)\)$", p.message).group(1).split(", ")
    assert parts == ["8 Walrus (ABS) 12", "1 Walrus [foil]", "1 Walrus (PRM) P3 [promotional]",
                     "4 Walrus", "2 Walrus (CLS)"]
    assert all(re.fullmatch(r"\d+ Walrus( \(\w+\)( \w+)?)?( \[[\w, -]+\])?", x) for x in parts)
