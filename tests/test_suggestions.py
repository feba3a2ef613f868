"""What a message suggests works where a user pastes it.

Every message that suggests a card reference, a command, an option or a house rule is made to
appear, the suggestion is taken out of it as the user would copy it, and it is run where it
belongs: a card reference in `cards show`, `add`, both referees, a decklist line and a game
log; a command as a command; an option added to the command that was refused.
"""

from __future__ import annotations

import re
import shlex

import pytest
from conftest import EXAMPLES, run

GOOD = EXAMPLES / "good" / "championship-deep-divers.txt"


def quoted(message: str, after: str) -> list[str]:
    """The quoted strings ('...' or "...") of ``message`` that follow ``after``: what a user
    would copy."""
    tail = message.split(after, 1)[1]
    return [a or b for a, b in re.findall(r"'([^']+)'|\"([^\"]+)\"", tail)]


# -- card references: ambiguous names and misspellings ------------------------------------

CARD_CASES = [  # (game, what the user typed, the message's lead-in to the suggestion)
    ("animal-battle", "Bison", "as in"),
    ("animal-battle", "Wallrus", "did you mean"),
    ("alpha-walrus", "Walrus", "as in"),
    ("alpha-walrus", "Krlil", "did you mean"),
]


def _suggestions(game: str, typed: str, lead: str) -> list[str]:
    r = run("--game", game, "cards", "show", typed)
    assert r.code == 2 and lead in r.err, r
    found = quoted(r.err, lead)
    assert found, r
    return found


@pytest.mark.parametrize("game,typed,lead", CARD_CASES)
def test_a_suggested_card_works_in_cards_show(game, typed, lead):
    for ref in _suggestions(game, typed, lead):
        assert run("--game", game, "cards", "show", ref).code == 0, ref


@pytest.mark.parametrize("game,typed,lead", CARD_CASES)
def test_a_suggested_card_works_in_add(game, typed, lead, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(f"game: {game}\n", encoding="utf-8")
    r = run("add", deck, typed)
    assert r.code == 2 and lead in r.err, r
    for ref in quoted(r.err, lead):
        assert run("add", deck, ref).code == 0, ref


@pytest.mark.parametrize("game,typed,lead", CARD_CASES)
def test_a_suggested_card_works_in_the_referee(game, typed, lead):
    if game == "animal-battle":
        command = ["referee", "battle", "{}", "Orca", "--stat", "weight"]
    else:
        command = ["--game", game, "referee", "battle", "{}", "--defender", "Krill",
                   "--stake", "gear", "--round", "3", "--seed", "1"]
    r = run(*[typed if a == "{}" else a for a in command])
    assert r.code == 2 and lead in r.err, r
    for ref in quoted(r.err, lead):
        pasted = run(*[ref if a == "{}" else a for a in command])
        assert pasted.code in (0, 1) and lead not in pasted.err, pasted


@pytest.mark.parametrize("game,typed,lead", CARD_CASES)
def test_a_suggested_card_works_on_a_decklist_line(game, typed, lead, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(f"game: {game}\n2 {typed}\n", encoding="utf-8")
    r = run("validate", deck, "--output", "json")
    [problem] = [p for p in r.json()["decks"][0]["problems"] if p["line"] == 2]
    for ref in quoted(problem["message"], lead):
        deck.write_text(f"game: {game}\n2 {ref}\n", encoding="utf-8")
        again = run("validate", deck, "--output", "json").json()["decks"][0]["problems"]
        assert not [p for p in again if p["line"] == 2], (ref, again)


def test_a_suggested_card_works_in_a_game_log(tmp_path):
    log = tmp_path / "game.yaml"
    body = ("game: animal-battle\nsetup:\n  first: p1\n  players:\n"
            "    p1: {deck: ['Bison (DWV) 2', Orca, Walrus, Narwhal, Vaquita, Koala]}\n"
            "    p2: {deck: [Fin Whale, Sea Otter, Adelie Penguin, Arctic Fox, Moose, Koala]}\n"
            "actions:\n  - p1 reveal_challenger {}\n")
    log.write_text(body.replace("{}", "Bison"), encoding="utf-8")
    r = run("referee", "check", log)
    assert r.code == 2 and "as in" in r.err, r
    [ref] = quoted(r.err, "as in")
    log.write_text(body.replace("{}", ref), encoding="utf-8")
    assert run("referee", "check", log).code == 0


# -- commands and options a message suggests -----------------------------------------------

def test_a_suggested_rules_command_runs():
    r = run("rules", "AB-9.9")
    assert r.code == 2, r
    [command] = quoted(r.err, "run")
    assert run(*shlex.split(command)[1:]).code == 0


def test_a_suggested_game_option_runs_when_added():
    """'referee attack' under alpha-walrus (or 'discard' under animal-battle): the message
    says which --game to add, and adding it to the same command line works."""
    for command in (["referee", "discard", "Krill"],
                    ["--game", "alpha-walrus", "referee", "attack", "--challenger", "Orca",
                     "--defender", "Walrus", "--stats", "weight"],
                    ["referee", "--game", "alpha-walrus", "attack", "--challenger", "Orca",
                     "--defender", "Walrus", "--stats", "weight"]):
        r = run(*command)
        assert r.code == 2 and "add --game" in r.err, r
        option = r.err.split("add ", 1)[1].split()[:2]
        assert run(*command, *option).code in (0, 1), (command, option)


def test_a_suggested_query_term_runs():
    r = run("cards", "search", "kind>animal")
    assert r.code == 2, r
    [term] = quoted(r.err, "use")
    assert term == "kind:VALUE"
    assert run("cards", "search", term.replace("VALUE", "animal")).code == 0


def test_a_suggested_db_check_checks_the_folders_that_failed(tmp_path):
    """A broken --db folder stops a command with 'run ... db check ...': that command must
    check the same folders, or it reports the built-in database clean and finds nothing."""
    bad = tmp_path / "my cards"
    bad.mkdir()
    (bad / "X.yaml").write_text("game: animal-battle\nset: {code: XX, name: X}\ncards:\n"
                                "  - {number: '1', name: Ghost, kind: animal}\n",
                                encoding="utf-8")
    r = run("--db", bad, "validate", GOOD)
    assert r.code == 2 and "db check" in r.err, r
    [command] = [c for c in quoted(r.err, "(run") if c.startswith("deckcli db check")]
    pasted = run(*shlex.split(command)[1:])
    assert pasted.code == 1 and "Ghost" in pasted.out, pasted


def test_a_suggested_validate_names_the_deck(tmp_path):
    """'add' refusing a deck with errors, and 'stats' leaving lines out, suggest running
    validate: on that deck, so the pasted command lists the errors."""
    deck = tmp_path / "my deck.txt"  # a name a shell splits unless it is quoted
    deck.write_text("4 Walrus\nfour Orca\n", encoding="utf-8")
    for command in (["add", deck, "Orca"], ["stats", deck]):
        r = run(*command)
        [suggested] = [c for c in quoted(r.err, "deckcli: ") if c.startswith("deckcli validate")]
        pasted = run(*shlex.split(suggested)[1:])
        assert pasted.code == 1 and "four Orca" in pasted.out, (command, pasted)


def test_a_suggested_fmt_runs_and_then_the_edit_works(tmp_path):
    deck = tmp_path / "my deck.yaml"  # a name a shell splits unless it is quoted
    deck.write_text("cards:\n  # animals\n  - {count: 4, name: Walrus}   # walrus!\n"
                    "  - count: 2\n    name: Orca       # orca comment\n"
                    "  - {count: 1, name: Vaquita}\n", encoding="utf-8")
    r = run("add", deck, "Narwhal")
    assert r.code == 2, r
    [command] = [c for c in quoted(r.err, "run") if c.startswith("deckcli fmt")]
    assert run(*shlex.split(command)[1:]).code == 0
    assert run("add", deck, "Narwhal").code == 0


def test_every_house_rule_a_message_offers_is_accepted():
    """'declare a house rule: stat_tie=challenger|defender|replay': each value pasted as
    --house-rule KEY=VALUE is taken (the gap is settled, not refused with exit 2)."""
    log = EXAMPLES / "games" / "ab-gap-tie.yaml"
    r = run("referee", "check", log)
    [offer] = re.findall(r"declare a house rule: (\w+)=([\w|-]+)", r.out)
    key, values = offer
    for value in values.split("|"):
        pasted = run("referee", "check", log, "--house-rule", f"{key}={value}")
        assert pasted.code in (0, 1) and f"{key}={value}" in pasted.out, pasted


def test_a_sheet_that_shows_only_some_problems_names_the_validate_that_lists_them(tmp_path):
    import html

    deck = tmp_path / "long list.txt"
    deck.write_text("".join(f"1 Nosuchcard{i}\n" for i in range(9)), encoding="utf-8")
    r = run("sheet", deck, "-o", "-")
    assert r.code == 0, r
    page = html.unescape(re.sub(r"<[^>]+>", "", r.out))
    [command] = [c for c in quoted(page, "more (run") if c.startswith("deckcli validate")]
    pasted = run(*shlex.split(command)[1:])
    assert pasted.code == 1 and "Nosuchcard8" in pasted.out, pasted
