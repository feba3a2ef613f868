"""deckcli's own rules for reading decklists, event files and card databases (DL-, EV-, DB-),
one row per rule: a file in, the verdict and the rule out. The rows for rules tested at length
elsewhere (the grammar, resolution, events) only pin the rule id to one behaviour."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run

GOOD = EXAMPLES / "good" / "casual-savanna.yaml"
STATS = "{weight: 5, speed: 1, lifespan: 1, population: 1, length: 1, max_depth: 0}"
ANIMALS = "".join(f"1 {n}\n" for n in ("Walrus", "Orca", "Narwhal", "Vaquita", "Polar Bear"))
CASUAL = ANIMALS * 4  # 20 cards, four copies of each


def problems(r) -> list[tuple[str, str]]:
    return [(p["rule"], p["severity"]) for d in r.json()["decks"] for p in d["problems"]]


# -- DL: reading decklists --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["deck.txt", "deck.deck", "deck.dck"])
def test_dl_1_2_text_file_kinds(deck_file, name):
    """DL-1.2: .txt, .deck and Forge's .dck are text decklists."""
    r = run("validate", deck_file(CASUAL, name), "-O", "json")
    assert r.code == 0 and problems(r) == [], r


def test_dl_1_2_csv_columns(deck_file):
    """DL-1.2: a .csv decklist has the columns count,name,set,number,variants."""
    rows = "count,name,set,number,variants\n" + "".join(
        f"4,{n},,,\n" for n in ("Walrus", "Orca", "Narwhal", "Vaquita", "Polar Bear"))
    r = run("validate", deck_file(rows, "deck.csv"), "-O", "json")
    assert r.code == 0 and r.json()["decks"][0]["card_count"] == 20, r


@pytest.mark.parametrize("text,rule", [
    ("1000 Walrus\n", "DL-2.2"),            # a count over 999 (a quantity, DL-2.2)
    ("4 " + "W" * 4100 + "\n", "DL-1.3"),   # a line over 4,096 characters
])
def test_dl_1_3_limits(deck_file, text, rule):
    """DL-1.3 (a line's length) and DL-2.2 (a count's size)."""
    r = run("validate", deck_file(text), "-O", "json")
    assert r.code == 1 and (rule, "error") in problems(r), r


def test_dl_1_3_a_file_over_1_mib_is_unreadable(deck_file):
    """DL-1.3: at most 1 MiB a file."""
    r = run("validate", deck_file("# x\n" * 300_000), "-O", "json")
    assert r.code == 1 and ("DL-1.3", "error") in problems(r), r


def test_dl_2_3_a_header_after_the_first_entry_is_an_error(deck_file):
    """DL-2.3."""
    r = run("validate", deck_file(CASUAL + "name: Late\n"), "-O", "json")
    assert r.code == 1 and ("DL-2.3", "error") in problems(r), r


def fingerprint(deck_file, text, name="deck.txt") -> str:
    r = run("validate", deck_file(text, name), "-O", "json")
    assert r.code == 0, r
    return r.json()["decks"][0]["fingerprint"]


@pytest.mark.parametrize("spelling", ["wALRUS", "Walrus", "Wal\u200arus", "ｗａｌｒｕｓ"])
def test_dl_3_1_names_match_folded(deck_file, spelling):
    """DL-3.1: case, NFKC (full-width letters) and white space do not change the card: the same
    fingerprint. A hair space inside a word is not folded away: an unknown card."""
    text = CASUAL.replace("1 Walrus\n", f"1 {spelling}\n", 1)
    if "\u200a" in spelling:
        r = run("validate", deck_file(text), "-O", "json")
        assert r.code == 1 and ("DL-3.3", "error") in problems(r), r
    else:
        assert fingerprint(deck_file, text) == fingerprint(deck_file, CASUAL, "b.txt")


def test_dl_3_1_apostrophes_match(deck_file):
    """DL-3.1: curly and straight apostrophes are equal."""
    straight = CASUAL + "4 Dall's Porpoise\n"
    curly = CASUAL + "4 Dall\u2019s Porpoise\n"
    assert fingerprint(deck_file, curly) == fingerprint(deck_file, straight, "b.txt")


@pytest.mark.parametrize("number,same", [("012", True), ("12", True), ("0012", True),
                                         ("12a", False)])
def test_dl_3_2_collector_numbers(deck_file, number, same):
    """DL-3.2: 012 is 12; 12a is a number of its own."""
    text = CASUAL.replace("1 Walrus\n", f"1 Walrus (ABS) {number}\n", 1)
    r = run("validate", deck_file(text), "-O", "json")
    if same:
        assert r.code == 0 and r.json()["decks"][0]["fingerprint"] == fingerprint(
            deck_file, CASUAL, "b.txt"), r
    else:
        assert r.code == 1, r  # 12a is a number of its own: ABS has no Walrus 12a


# -- EV: event files ------------------------------------------------------------------------------
def test_ev_4_1_an_events_house_rules_decide_a_gap(tmp_path):
    """EV-4.1: a Walrus against a Walrus ties on every statistic (gap AB-G.1): the event's stat_tie
    decides it, and the ruling names the house rule."""
    event = tmp_path / "event.yaml"
    for value in ("challenger", "defender"):
        event.write_text(f"name: E\nhouse_rules: {{stat_tie: {value}}}\n", encoding="utf-8")
        r = run("referee", "battle", "Walrus", "Walrus", "--stat", "weight", "--event", event,
                "-O", "json")
        assert r.code == 0, r
        data = r.json()
        assert data["gap"] and data["rule"] == "AB-G.1" and data["winner"] == value
        assert data["house_rule"] == {"stat_tie": value}


# -- DB: card database files ----------------------------------------------------------------------
def write_set(folder, name, code, cards, game="animal-battle", set_name="Test Set"):
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(f"game: {game}\nset: {{code: {code}, name: {set_name}}}\n"
                               f"cards:\n{cards}", encoding="utf-8")


def db_problems(db) -> list[tuple[str, str]]:
    r = run("db", "check", "--db", db, "-O", "json")
    return r.code, [(p["rule"], p["code"]) for p in r.json()["problems"]]


def test_db_1_1_a_set_file_describes_one_set(tmp_path):
    """DB-1.1: one file, one set of one game."""
    db = tmp_path / "db"
    write_set(db, "TQA.yaml", "TQA", f"  - {{number: '1', name: Quiz Fox, kind: animal, "
                                     f"stats: {STATS}}}\n")
    assert db_problems(db) == (0, [])
    r = run("cards", "show", "Quiz Fox", "--db", db, "-O", "json")
    assert r.code == 0 and r.json()["printings"][0]["set"] == "TQA", r


def test_db_1_3_a_set_file_names_a_known_game(tmp_path):
    """DB-1.3."""
    db = tmp_path / "db"
    write_set(db, "TQA.yaml", "TQA", f"  - {{number: '1', name: Quiz Fox, kind: animal, "
                                     f"stats: {STATS}}}\n", game="chess")
    code, found = db_problems(db)
    assert code == 1 and [rule for rule, _ in found] == ["DB-1.3"], found


def test_db_3_1_a_printing_is_defined_once(tmp_path):
    """DB-3.1."""
    db = tmp_path / "db"
    card = f"  - {{number: '1', name: Quiz Fox, kind: animal, stats: {STATS}}}\n"
    write_set(db, "A.yaml", "TQA", card)
    write_set(db, "B.yaml", "TQA", card.replace("Quiz Fox", "Quiz Owl"))
    code, found = db_problems(db)
    assert code == 1 and ("DB-3.1", "db-duplicate-printing") in found, found


def test_db_3_2_one_card_has_one_set_of_figures(tmp_path):
    """DB-3.2."""
    db = tmp_path / "db"
    write_set(db, "A.yaml", "TQA", f"  - {{number: '1', name: Quiz Fox, kind: animal, "
                                   f"stats: {STATS}}}\n")
    write_set(db, "B.yaml", "TQB", f"  - {{number: '1', name: Quiz Fox, kind: animal, "
                                   f"stats: {STATS.replace('weight: 5', 'weight: 6')}}}\n")
    code, found = db_problems(db)
    assert code == 1 and ("DB-3.2", "db-identity-conflict") in found, found


def test_db_3_5_one_set_one_name(tmp_path):
    """DB-3.5: several files may add to a set if they give it one name."""
    db = tmp_path / "db"
    write_set(db, "A.yaml", "TQA", f"  - {{number: '1', name: Quiz Fox, kind: animal, "
                                   f"stats: {STATS}}}\n")
    write_set(db, "B.yaml", "TQA", f"  - {{number: '2', name: Quiz Owl, kind: animal, "
                                   f"stats: {STATS}}}\n", set_name="Another Name")
    code, found = db_problems(db)
    assert code == 1 and ("DB-3.5", "db-set-conflict") in found, found
    write_set(db, "B.yaml", "TQA", f"  - {{number: '2', name: Quiz Owl, kind: animal, "
                                   f"stats: {STATS}}}\n")  # the same name: a promo drop
    assert db_problems(db) == (0, [])
