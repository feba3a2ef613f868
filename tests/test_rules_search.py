"""`deckcli rules WORDS`: whole words and their inflections, best matches first."""

from __future__ import annotations

import pytest
from conftest import run

from deckcli.rulebook import search_rules, word_forms


def ids(*words: str, game: str | None = None) -> list[str]:
    return [r.id for r in search_rules(" ".join(words), game)]


def test_tie_finds_ties_and_tied_but_not_words_that_hold_the_letters():
    found = ids("tie")
    for rid in ("AB-G.1", "AW-4.10", "AW-8.5"):  # "Tie on a statistic", "Ties favour ...", "... ties go to the dice"
        assert rid in found
    # 'abilities' (AW-2.2, AW-10.5) and 'Quantities' (DL-2.2) hold the letters t-i-e, not the word
    for rid in ("AW-2.2", "AW-10.5", "DL-2.2"):
        assert rid not in found


def test_best_matches_first():
    """A rule whose title is about the word comes before one that only mentions it."""
    found = ids("tie")
    assert found[0] == "AB-G.1"  # the word itself in the title
    assert found.index("AW-4.10") < found.index("AW-G.14")  # "Ties" in the title, then text only


@pytest.mark.parametrize("forms", [("tie", "ties", "tied"), ("use", "used", "uses", "using"),
                                   ("stop", "stopped", "stops"), ("ability", "abilities"),
                                   ("copy", "copies"), ("game", "games"), ("class", "classes")])
def test_inflections_are_one_word(forms):
    for a in forms:
        for b in forms:
            assert word_forms(a) & word_forms(b), (a, b, word_forms(a), word_forms(b))


@pytest.mark.parametrize("a,b", [("tie", "abilities"), ("tie", "quantities"), ("tie", "tide"),
                                 ("defend", "defender"), ("stat", "state"), ("us", "used")])
def test_other_words_stay_apart(a, b):
    assert not word_forms(a) & word_forms(b)


def test_every_word_must_match():
    found = ids("copy", "limit")
    assert found[0] == "AB-1.5"  # "Copy limit"
    assert all("AB-2" not in r for r in found)
    assert ids("copy", "zebra") == []


def test_from_the_command_line():
    r = run("rules", "tie", "--output", "json")
    assert r.code == 0, r
    assert [x["id"] for x in r.json()] == ids("tie")
    # the word as written first: "Ties favour ...", "... ties go to the dice", then "Tie on ..."
    assert ids("ties")[:3] == ["AW-4.10", "AW-8.5", "AB-G.1"]
    r = run("rules", "zebra")
    assert r.code == 0 and r.out == "" and "no rules match 'zebra'" in r.err, r


@pytest.mark.parametrize("asked", ["AB 5.2", "ab5.2", "AB-5.2", "ab - 5.2", "Ab 5.2"])
def test_an_id_written_with_a_space_or_no_hyphen_finds_its_rule(asked):
    """'rules AB 5.2' found nothing and exited 0 (searched as the words 'AB' and '5.2')."""
    for args in ([asked], asked.split()):
        r = run("rules", *args, "--output", "json")
        assert r.code == 0, r
        assert [x["id"] for x in r.json()] == ["AB-5.2"], r


def test_a_number_without_its_prefix_finds_every_rule_of_that_number():
    """'rules 5.2' found nothing and exited 0. Every game's rule (and deckcli's own) of
    that number is shown; --game keeps its game's."""
    r = run("rules", "5.2", "--output", "json")
    assert r.code == 0, r
    assert {x["id"] for x in r.json()} == {"AB-5.2", "AW-5.2", "DL-5.2"}, r
    r = run("rules", "5.2", "--game", "alpha-walrus", "--output", "json")
    assert r.code == 0 and [x["id"] for x in r.json()] == ["AW-5.2"], r
    r = run("rules", "5.2")
    assert r.code == 0 and r.out.startswith("AB-5.2  Promoting a replacement\n"), r
    assert "\nAW-5.2  " in r.out and "\nDL-5.2  " in r.out, r
    r = run("rules", "g.3", "--output", "json")
    assert {x["id"] for x in r.json()} == {"AB-G.3", "AW-G.3"}, r


@pytest.mark.parametrize("asked", ["9.9", "AB 9.9", "AB9.9", "G.99", "DL 5.2.7"])
def test_an_id_shaped_query_that_matches_nothing_exits_2(asked):
    r = run("rules", asked)
    assert r.code == 2 and r.out == "", r
    assert "no rule" in r.err and "deckcli rules" in r.err, r


@pytest.mark.parametrize("words", [["Pool", "5"], ["5"], ["of", "5.2"]])
def test_words_with_a_number_are_still_a_search(words):
    """A number without a dot, or beside other words, is no rule id: a search (exit 0)."""
    r = run("rules", *words)
    assert r.code == 0 and "no rule has the id" not in r.err, r
    assert r.out or "no rules match" in r.err, r
def test_a_rule_shows_where_it_is_checked_only_with_verbose():
    """Judges read the rule and its references; the source files that check it are for
    contributors: shown with --verbose (they were always shown)."""
    from deckcli.rulebook import checked_in

    modules = checked_in("AB-1.5")
    r = run("rules", "AB-1.5")
    assert r.code == 0 and r.out.startswith("AB-1.5  Copy limit\n"), r
    assert "see also: AB-1.6" in r.out and "checked in" not in r.out and "deckcli/" not in r.out
    r = run("rules", "AB-1.5", "--verbose")
    assert r.code == 0, r
    assert f"    checked in: {', '.join('deckcli/' + m for m in modules)}" in r.out.splitlines()
