"""The card database: compiled index freshness and safety, --db folders, db check, search."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest
from conftest import EXAMPLES, run

STATS = "{weight: 5, speed: 10, lifespan: 3, population: 900, length: 0.4, max_depth: 0}"


def write_set(folder, name, body, code="TST", game="animal-battle", set_name="Test Promos"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"game: {game}\nset: {{code: {code}, name: {set_name}, released: 2026-01-01}}\n"
                    f"cards:\n{textwrap.dedent(body)}", encoding="utf-8")
    return path


@pytest.fixture
def promo_db(tmp_path):
    db = tmp_path / "db"
    write_set(db, "TST.yaml", f"""\
        - {{number: "1", name: Test Ferret, kind: animal, stats: {STATS}, variants: [foil]}}
        - {{number: "T2", name: Walrus, version_of: "12", variants: [promotional]}}
        """)
    return db


def test_user_set_adds_cards_and_printings(promo_db):
    r = run("--db", promo_db, "cards", "show", "Walrus", "-O", "json")
    assert r.code == 0, r
    assert {"set": "TST", "number": "T2", "variants": ["promotional"],
            "versions": ["regular", "promotional"]} in r.json()["printings"]
    r = run("cards", "show", "Test Ferret", "--db", promo_db)
    assert r.code == 0 and "(TST) 1" in r.out, r
    assert run("cards", "show", "Test Ferret").code == 2  # not without the folder


def test_db_env_variable(promo_db, monkeypatch):
    monkeypatch.setenv("DECKCLI_DB", str(promo_db))
    assert run("cards", "show", "Test Ferret").code == 0


def test_missing_db_folder_exits_2(tmp_path):
    r = run("--db", tmp_path / "nope", "cards", "list")
    assert r.code == 2 and "does not exist" in r.err, r


@pytest.mark.parametrize("given,said", [
    ("", "deckcli: error: Invalid value for '--db': an empty value names no folder (is a "
         "variable in the command line unset?)\n"),
    ("new\nline", "deckcli: error: new\\x0aline: this card database folder does not exist\n")])
def test_a_db_folder_that_is_not_there_is_named_once_on_one_line(given, said):
    """'--db ""' (a script's '--db "$DB"' with DB unset) said ': card database folder  does
    not exist', and a name with a line break was written raw after its escaped form. An
    empty --db is refused as every empty option naming a folder is (issue 38, 12)."""
    for args in (("--db", given, "cards", "list"), ("db", "check", "--db", given)):
        r = run(*args)
        first, _, rest = r.err.partition("\n")
        assert r.code == 2 and first + "\n" == said, r
        # a usage error is followed by where the help is, and nothing else
        command = "deckcli db check" if args[0] == "db" else "deckcli"
        assert rest == ("" if given else f"Try '{command} --help' for help.\n"), r


def test_a_fifo_given_as_db_folder_exits_2(tmp_path):
    """--db names a folder (or one source file): a FIFO is neither, and was silently left
    out (exit 0, the bundled cards only); now exit 2 naming it, and nothing is read from it
    (a read would wait for a writer that never comes)."""
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    for args in (("--db", fifo, "cards", "list"), ("cards", "list", "--db", fifo),
                 ("db", "check", "--db", fifo)):
        r = run(*args)
        assert r.code == 2 and "neither a folder nor a file" in r.err and "cards.fifo" in r.err, r


def test_editing_a_source_rebuilds_the_index(promo_db):
    r = run("--db", promo_db, "cards", "show", "Test Ferret", "-O", "json")
    assert r.json()["stats"]["speed"] == 10
    path = promo_db / "TST.yaml"
    path.write_text(path.read_text().replace("speed: 10", "speed: 12"), encoding="utf-8")
    r = run("--db", promo_db, "cards", "show", "Test Ferret", "-O", "json")
    assert r.json()["stats"]["speed"] == 12, r


def test_a_new_file_in_a_folder_is_picked_up(promo_db):
    assert run("--db", promo_db, "cards", "show", "Test Stoat").code == 2
    write_set(promo_db, "TS2.yaml", f"""\
        - {{number: "1", name: Test Stoat, kind: animal, stats: {STATS}}}
        """, code="TS2", set_name="Second")
    assert run("--db", promo_db, "cards", "show", "Test Stoat").code == 0


def test_two_processes_build_at_once(promo_db, tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "DECKCLI_CACHE_DIR": str(cache)}
    code = ("from deckcli.cards import open_index; "
            f"i = open_index([{str(promo_db)!r}], rebuild=True); "
            "print(len(i.all_cards('animal-battle')))")
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    assert len({o[0] for o in outs}) == 1  # every process saw the same complete index
    leftovers = [p.name for p in cache.iterdir()
                 if not p.name.endswith((".sqlite", ".sqlite.checked"))]
    assert leftovers == ["parts"]  # the compiled source files, each whole, no temporary file
    assert {p.suffix for p in (cache / "parts").iterdir()} == {".part"}
    assert run("--db", promo_db, "cards", "show", "Test Ferret").code == 0


def test_a_run_reading_the_index_does_not_hold_up_another(promo_db, tmp_path, monkeypatch):
    # a run opens the index file in place read-only (or reads it whole into memory) and holds
    # no lock on it; another process that finds the sources touched (same content) records
    # their new times at once, in a new file renamed into place, and the first run goes on
    # reading the file it opened
    import sqlite3

    from deckcli.cards import open_index
    from deckcli.cards.cache import source_dirs, source_files, stat_key

    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "cache"))
    open_index([str(promo_db)])  # built, written, noted as whole
    reading = open_index([str(promo_db)])
    assert reading.conn.execute("PRAGMA database_list").fetchone()[2] == reading.path
    assert reading.cards_named("animal-battle", "Test Ferret")  # the read lock is held now
    _no_compiling(monkeypatch)
    source = promo_db / "TST.yaml"
    os.utime(source, (1_000_000_000, 1_000_000_000))
    files = source_files(source_dirs([str(promo_db)]))
    code = ("from deckcli.cards import open_index; "
            f"i = open_index([{str(promo_db)!r}]); "
            "print(i.cards_named('animal-battle', 'Test Ferret')[0].name)")
    env = {**os.environ, "DECKCLI_CACHE_DIR": str(tmp_path / "cache")}
    other = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=60)
    assert other.returncode == 0 and other.stdout == "Test Ferret\n", other

    def recorded():
        with sqlite3.connect(f"file:{reading.path}?mode=ro", uri=True) as conn:
            return dict(conn.execute("SELECT key, value FROM meta"))["stat_key"]

    assert recorded() == stat_key(files)  # recorded while the first run reads
    assert reading.cards_named("animal-battle", "Test Ferret")[0].name == "Test Ferret"
    assert open_index([str(promo_db)]).cards_named("animal-battle", "Test Ferret")


def test_unwritable_cache_falls_back_to_memory(promo_db, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(blocker / "cache"))  # mkdir fails: NotADirectory
    r = run("--db", promo_db, "cards", "show", "Test Ferret")
    assert r.code == 0, r
    r = run("db", "build")
    assert r.code == 0 and "memory" in r.out, r


def test_db_build_reports_what_it_read():
    r = run("db", "build")
    assert r.code == 0, r
    assert "animal-battle: 5 sets" in r.out
    assert "files read: " in r.out


# -- db check ------------------------------------------------------------------------------

BROKEN = {
    "schema.yaml": ("""\
        - {number: "1", name: Bad Fox, kind: animal, stats: {weight: 1, speed: 1, lifespan: 1, population: 1, length: 1}, colour: red}
        """, "db-schema", "DB-1.2"),
    "missing.yaml": ("""\
        - {number: "1", name: Half Fox, kind: animal, stats: {weight: 1, speed: 1}}
        """, "db-missing-stat", "DB-2.1"),
    "absurd.yaml": ("""\
        - {number: "1", name: Rocket Fox, kind: animal, stats: {weight: 5, speed: 10000, lifespan: 3, population: 9, length: 1, max_depth: 0}}
        """, "db-absurd-stat", "DB-2.2"),
    "negative.yaml": ("""\
        - {number: "1", name: Minus Fox, kind: animal, stats: {weight: -5, speed: 10, lifespan: 3, population: 9, length: 1, max_depth: 0}}
        """, "db-absurd-stat", "DB-2.2"),
    "dangling.yaml": ("""\
        - {number: "P1", name: Ghost Fox, version_of: "77", variants: [promotional]}
        """, "db-dangling-version", "DB-3.3"),
    "variant.yaml": ("""\
        - {number: "1", name: Shiny Fox, kind: animal, stats: %s, variants: [holo]}
        """ % STATS, "db-variant", "DB-3.4"),
    "norule.yaml": ("""\
        - {number: "1", name: Vague Trick, kind: action, text: "Do something nice."}
        """, "db-no-rule", "DB-2.3"),
    "badrule.yaml": ("""\
        - {number: "1", name: Odd Trick, kind: action, text: "Skip.", refers_to: [AB-99.1]}
        """, "db-unknown-rule", "DB-2.3"),
    # DB-1.4: no text line can name it ('4 Seal (Harbor)' reads as set HARBOR)
    "reserved.yaml": ("""\
        - {number: "1", name: Seal (Harbor), kind: animal, stats: %s}
        """ % STATS, "db-name", "DB-1.4"),
    # '//' starts a comment as '#' does: '1 Crab // Shell' is a Crab
    "slashes.yaml": ("""\
        - {number: "1", name: "Crab // Shell", kind: animal, stats: %s}
        """ % STATS, "db-name", "DB-1.4"),
    # a line break (or another control character) in a name: fmt would write two lines
    "newline.yaml": ("""\
        - {number: "1", name: "Two\\nLines", kind: animal, stats: %s}
        """ % STATS, "db-name", "DB-1.4"),
    "blank.yaml": ("""\
        - {number: "1", name: "   ", kind: animal, stats: %s}
        """ % STATS, "db-name", "DB-1.4"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_db_check_finds_each_problem_with_file_and_line(tmp_path, name):
    body, code, rule = BROKEN[name]
    db = tmp_path / "db"
    write_set(db, name, body, code="TQ" + str(sorted(BROKEN).index(name)))
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    found = [p for p in r.json()["problems"] if p["code"] == code]
    assert found, r.json()["problems"]
    assert found[0]["rule"] == rule
    assert found[0]["path"].endswith(name) and found[0]["line"] == 4  # the card's own line


def test_db_check_reports_every_problem_at_once(tmp_path):
    db = tmp_path / "db"
    for i, (name, (body, _code, _rule)) in enumerate(sorted(BROKEN.items())):
        write_set(db, name, body, code=f"T{i}")
    r = run("db", "check", "--db", db, "-O", "json")
    codes = {p["code"] for p in r.json()["problems"]}
    assert {c for _b, c, _r in BROKEN.values()} <= codes


def test_one_problem_in_a_card_does_not_hide_the_next(tmp_path):
    """A card with an unknown variant tag used to be skipped whole: its negative weight and
    the card that reuses its number were only reported once the tag was fixed. A set file
    whose set name conflicts had its cards skipped too."""
    db = tmp_path / "db"
    write_set(db, "A.yaml", """\
        - {number: "1", name: Foo Fox, kind: animal, variants: [shiny], stats: {weight: -5, speed: 1, lifespan: 1, population: 1, length: 1, max_depth: 0}}
        - {number: "1", name: Dup Fox, kind: animal, stats: {weight: 5, speed: 1, lifespan: 1, population: 1, length: 1, max_depth: 0}}
        """, code="TQA")
    write_set(db, "B.yaml", """\
        - {number: "2", name: Bar Fox, kind: animal, stats: {weight: 5, speed: 9999, lifespan: 1, population: 1, length: 1, max_depth: 0}}
        """, code="ABS", set_name="Not The Abyss")
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    found = sorted((p["path"].rsplit("/", 1)[-1], p["line"], p["code"]) for p in r.json()["problems"])
    assert found == [("A.yaml", 4, "db-absurd-stat"), ("A.yaml", 4, "db-variant"),
                     ("A.yaml", 5, "db-duplicate-printing"), ("B.yaml", 2, "db-set-conflict"),
                     ("B.yaml", 4, "db-absurd-stat")]


NOT_FAST = "db-not-a-number: Foo Fox: stats.weight: a statistic is a number, not text ('fast')"


@pytest.mark.parametrize("game,fields,want", [
    ("animal-battle", "kind: animal, stats: {weight: fast, speed: -3, lifespan: 1, "
     "population: 1, length: 1, max_depth: 0}",
     ["db-absurd-stat: Foo Fox 1: speed -3 is outside 0..400", NOT_FAST]),
    ("animal-battle", "kind: animal, stats: {weight: fast, speed: 1, colour: 7}",
     ["db-missing-stat: Foo Fox 1: missing statistics: lifespan, population, length, max_depth",
      NOT_FAST, "db-unknown-stat: Foo Fox 1: unknown statistics: colour"]),
    ("animal-battle", "kind: action, stats: {weight: fast}",
     ["db-action-stats: Foo Fox 1: an action card has no statistics",
      "db-no-rule: Foo Fox 1: its text refers to no rule (add refers_to or overrides)",
      "db-no-text: Foo Fox 1: an action card needs rules text", NOT_FAST]),
    ("animal-battle", "kind: action, text: [Swap], refers_to: [AB-99.9]",
     ["db-schema: Foo Fox: text: Input should be a valid string",
      "db-unknown-rule: Foo Fox 1: rule AB-99.9 does not exist"]),
    ("alpha-walrus", "kind: creature, stats: {level: high, speed: 3}",
     ["db-not-a-number: Foo Fox: stats.level: a statistic is a number, not text ('high')",
      "db-unknown-stat: Foo Fox 1: unknown statistics: speed"]),
    ("alpha-walrus", "kind: gear, armor: maybe, stats: {level: 3}",
     ["db-schema: Foo Fox 1: only equipment has armor",
      "db-schema: Foo Fox: armor: Input should be a valid boolean, unable to interpret input",
      "db-unknown-stat: Foo Fox 1: only creatures have statistics"]),
])
def test_every_problem_of_a_card_is_reported_at_once(tmp_path, game, fields, want):
    """A field that broke the schema hid every other problem of its card: 'weight: fast,
    speed: -3' reported the weight alone, where 'weight: 5, speed: -3' reported the speed.
    The rest of the card is checked as it would be, and what is there is never called
    missing."""
    db = tmp_path / "db"
    write_set(db, "A.yaml", f"""\
        - {{number: "1", name: Foo Fox, {fields}}}
        """, code="TQA", game=game)
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    found = sorted(f"{p['code']}: {p['message']}" for p in r.json()["problems"])
    assert found == want, r


def test_conflicts_name_both_files(tmp_path):
    db = tmp_path / "db"
    write_set(db, "A.yaml", """\
        - {number: "12", name: Walrus, kind: animal, stats: {weight: 9999, speed: 35, lifespan: 40, population: 250000, length: 3.2, max_depth: 500}}
        """, code="ABX")
    write_set(db, "B.yaml", f"""\
        - {{number: "12", name: Some Fox, kind: animal, stats: {STATS}}}
        """, code="ABS", set_name='"Abyss, Bays & Shores"')
    r = run("db", "check", "--db", db)
    assert r.code == 1, r
    assert "Walrus 12 differs from its entry at card_db/animal-battle/ABS.yaml:" in r.out
    assert "stats" in r.out.split("differs", 1)[1].splitlines()[0]
    assert "ABS 12 is also defined at card_db/animal-battle/ABS.yaml:" in r.out
    # a deck check with a broken database is a command that cannot run
    r = run("validate", "--db", db, "examples/good/casual-risky.txt")
    assert r.code == 2 and "db check" in r.err, r


def test_a_yaml_error_in_a_source_is_reported_with_its_line(tmp_path):
    db = tmp_path / "db"
    db.mkdir()
    (db / "X.yaml").write_text("game: animal-battle\nset: {code: XX, name: X}\ncards:\n  - [\n")
    r = run("db", "check", "--db", db)
    assert r.code == 1 and "X.yaml:5" in r.out, r


# -- search ----------------------------------------------------------------------------------

def names(*query):
    r = run("cards", "search", *query, "-O", "json")
    assert r.code == 0, r
    return [c["name"] for c in r.json()]


def test_search_words_and_filters():
    assert names("walrus") == ["Walrus"]
    assert "Snow Leopard" in names('"snow leopard"')
    assert set(names("kind:action", "name:herd")) == {"Herd Instinct"}
    assert all(c in names("set:PRM", "variant:promotional") for c in ("Walrus", "Herd Instinct"))


def test_search_comparisons_and_population_is_a_number():
    rare = names("population<100")
    assert "Vaquita" in rare and "Javan Rhinoceros" in rare and "Walrus" not in rare
    r = run("cards", "search", "speed>=110", "-O", "json").json()
    assert r and all(c["stats"]["speed"] >= 110 for c in r)
    assert names("length=3.2", "name:walrus") == ["Walrus"]


def test_search_or_and_negation():
    both = set(names("name:walrus", "or", "name:orca"))
    assert both == {"Walrus", "Orca"}
    not_cls = names("kind:animal", "-set:CLS")
    assert "Walrus" not in not_cls  # Walrus is reprinted in CLS
    assert set(names("kind:action")) & set(names("-kind:animal")) == set(names("kind:action"))


@pytest.mark.parametrize("query,column", [("speed>", 7), ("kind:animal colour:red", 13),
                                          ("variant:shiny", 9), ('"snow', 1), ("or walrus", 1),
                                          ("speed>nan", 7), ("weight!=NaN", 9)])
def test_malformed_query_exit_2_with_column(query, column):
    r = run("cards", "search", query)
    assert r.code == 2, r
    assert f"query column {column}:" in r.err


@pytest.mark.parametrize("args", [("--limt", "3", "walrus"), ("walrus", "--bogus"),
                                  ("--ouput=json", "walrus")])
def test_an_unknown_long_option_is_a_usage_error_not_a_term(args):
    """'--limt 3 walrus' was read as the terms 'not -limt', '3' and 'walrus': 'no cards match',
    exit 0, and a bare '--bogus' listed every card. Only '-term' negates."""
    r = run("cards", "search", *args)
    assert r.code == 2 and "No such option" in r.err, r
    assert names("-kind:animal") and names("--limit", "1", "kind:animal") == names("kind:animal")[:1]


def test_a_comparison_with_nan_is_refused_and_with_infinity_answered():
    """'speed>nan' matched nothing and 'speed!=nan' nothing either (no comparison with NaN is
    true; SQLite stores it as NULL): a query that cannot mean anything, answered with 'no
    cards match'. Infinity is a bound like any other."""
    r = run("cards", "search", "speed!=nan")
    assert r.code == 2 and "expected a number after 'speed!=', got 'nan'" in r.err, r
    assert names("speed<inf") == names("speed>=0") and names("weight>1e999") == []


@pytest.mark.parametrize("query,message", [
    ("a" * 60_000, "query column 1: a term is longer than 1,000 characters"),
    ('"' + "a b " * 300 + '"', "query column 1: a term is longer than 1,000 characters"),
    (" ".join(["walrus"] * 3000), "query column 701: the query has more than 100 terms"),
    (" or ".join(["speed>1"] * 1200), "the query has more than 100 terms")])
def test_a_query_past_the_index_limits_is_a_usage_error_not_an_internal_error(query, message):
    """A 60,000-character word (SQLite: "LIKE or GLOB pattern too complex"), 3,000 words or
    1,200 terms joined by 'or' ("Expression tree is too large") made `cards search` end in an
    internal error."""
    r = run("cards", "search", query)
    assert r.code == 2 and message in r.err and "internal error" not in r.err, r


@pytest.mark.parametrize("ref", ["Walrus", "walrus (abs) 012", "ABS 12", "PRM P3"])
def test_cards_show_accepts_every_reference_form(ref):
    r = run("cards", "show", ref, "-O", "json")
    assert r.code == 0, r
    assert (r.json()["name"], r.json()["number"]) == ("Walrus", "12")


def test_cards_list_json_shape():
    r = run("cards", "list", "-O", "json")
    cards = r.json()
    walrus = next(c for c in cards if c["name"] == "Walrus")
    assert walrus["stats"] == {"weight": 1200, "speed": 35, "lifespan": 40, "population": 250000,
                               "length": 3.2, "max_depth": 500}
    assert {"set": "PRM", "number": "P3", "variants": ["promotional"]} in walrus["printings"]
    assert {"set": "ABS", "number": "12", "variants": ["foil", "first-edition"]} in walrus["printings"]
    assert {c["kind"] for c in cards} == {"animal", "action"}
    assert all(c["game"] == "animal-battle" for c in cards)
    assert len(cards) >= 130


def test_a_build_prunes_index_files_nobody_used_for_30_days(promo_db, tmp_path, monkeypatch):
    import time

    from deckcli.cards.cache import UNUSED_DAYS

    cache = tmp_path / "cache"
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    assert run("db", "build").code == 0  # the bundled database's index
    bundled = [p for p in cache.iterdir() if p.suffix == ".sqlite"]
    assert len(bundled) == 1
    now = time.time()
    old = now - (UNUSED_DAYS + 1) * 86400
    stale = cache / "index-6-00000000-2.sqlite"  # another --db list, unused for 31 days
    stale.write_bytes(b"an old index")
    os.utime(stale, (old, old))
    stale_note = cache / f"{stale.name}.checked"  # goes with its index, whatever its age
    stale_note.write_text("1 2 3 4 5\n")
    orphan_note = cache / "index-6-22222222-2.sqlite.checked"  # its index is gone already
    orphan_note.write_text("1 2 3 4 5\n")
    recent = cache / "index-6-11111111-2.sqlite"  # used last week: kept
    recent.write_bytes(b"a recent index")
    os.utime(recent, (now - 7 * 86400, now - 7 * 86400))
    dead_tmp = cache / ".index-abc.tmp"  # a build killed two days ago
    dead_tmp.write_bytes(b"half an index")
    os.utime(dead_tmp, (now - 2 * 86400, now - 2 * 86400))
    live_tmp = cache / ".index-def.tmp"  # a build running right now
    live_tmp.write_bytes(b"")
    notes = cache / "README.txt"  # not deckcli's: never touched
    notes.write_text("mine", encoding="utf-8")
    os.utime(notes, (old, old))
    # the bundled index, unused for 31 days too, is kept fresh by being opened
    os.utime(bundled[0], (old, old))
    assert run("cards", "show", "Walrus").code == 0
    assert time.time() - bundled[0].stat().st_mtime < 86400
    from deckcli.cards.cache import load  # the new time noted: the next run opens it in place

    conn = load(str(bundled[0]))[0]
    assert conn.execute("PRAGMA database_list").fetchone()[2] == str(bundled[0])
    conn.close()

    assert run("--db", promo_db, "cards", "show", "Test Ferret").code == 0  # builds: prunes
    left = sorted(p.name for p in cache.iterdir())
    assert stale.name not in left and dead_tmp.name not in left
    assert stale_note.name not in left and orphan_note.name not in left
    assert {recent.name, live_tmp.name, notes.name, bundled[0].name,
            f"{bundled[0].name}.checked"} <= set(left)


# -- the index shipped inside the package (deckcli/cards/bundled.py) ---------------------------


def test_the_shipped_index_is_built_from_the_card_db_as_it_is():
    # after editing card_db/, run 'python -m deckcli.cards.bundled'; until then this fails
    # (and deckcli compiles the sources instead of using the stale copy)
    from deckcli.cards.bundled import BUNDLED_INDEX, usable
    from deckcli.cards.cache import builtin_db_dir, source_files

    assert os.path.exists(BUNDLED_INDEX)
    assert usable(source_files([builtin_db_dir()])), "run: python -m deckcli.cards.bundled"


def _no_compiling(monkeypatch):
    import deckcli.cards.build as build

    def refuse(dirs):
        raise AssertionError(f"compiled the sources of {dirs}")

    monkeypatch.setattr(build, "compile_sources", refuse)


def test_a_fresh_cache_gets_the_shipped_index(tmp_path, monkeypatch):
    import sqlite3

    cache = tmp_path / "cache"
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    _no_compiling(monkeypatch)
    r = run("validate", EXAMPLES / "good" / "championship-deep-divers.txt")
    assert r.code == 0, r
    [copied] = cache.glob("index-*.sqlite")
    meta = dict(sqlite3.connect(copied).execute("SELECT key, value FROM meta"))
    from deckcli.cards.cache import builtin_db_dir, dirs_key

    assert meta["dirs"] == dirs_key([builtin_db_dir()])  # this machine's keys, not the build's
    from deckcli.cards.index import SCHEMA_VERSION

    assert meta["stat_key"].startswith(f"{SCHEMA_VERSION}\n")
    assert run("cards", "show", "Walrus").code == 0  # and the copy is opened as usual


def test_a_read_only_cache_reads_the_shipped_index_in_place(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(blocker / "cache"))
    _no_compiling(monkeypatch)
    r = run("cards", "show", "Walrus", "-O", "json")
    assert r.code == 0, r
    assert r.json()["stats"]["speed"] == 35


def test_edited_sources_are_compiled_not_shadowed_by_the_shipped_index(tmp_path, monkeypatch):
    import shutil

    import deckcli.cards.cache as sources

    db = tmp_path / "card_db"
    shutil.copytree(sources.builtin_db_dir(), db)
    abs_file = db / "animal-battle" / "ABS.yaml"
    text = abs_file.read_text(encoding="utf-8")
    assert text.count("weight: 1200, speed: 35,") == 1  # Walrus (ABS) 12
    abs_file.write_text(text.replace("weight: 1200, speed: 35,", "weight: 1200, speed: 36,"),
                        encoding="utf-8")
    monkeypatch.setattr(sources, "builtin_db_dir", lambda: str(db))
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "cache"))
    r = run("cards", "show", "Walrus", "-O", "json")
    assert r.code == 0, r
    assert r.json()["stats"]["speed"] == 36


@pytest.mark.parametrize("extra", ["", "alpha-walrus", "animal-battle/ABS.yaml"])
def test_a_db_folder_already_read_is_not_read_twice(extra):
    """--db naming the built-in folder (the installed one), or a folder or file inside it,
    used to report every card in it as defined twice (against itself)."""
    from pathlib import Path

    from deckcli.cards.cache import builtin_db_dir

    again = Path(builtin_db_dir()) / extra
    r = run("db", "check", "--db", again)
    assert r.code == 0 and "no problems" in r.out, r
    assert run("--db", again, "validate", EXAMPLES / "good" / "casual-risky.txt").code == 0


def test_cards_show_lists_the_same_versions_in_text_and_json():
    """Every printing's versions, regular copies first, are the same in text and in JSON."""
    for game, ref in (("animal-battle", "Walrus (ABS) 12"), ("animal-battle", "Herd Instinct"),
                      ("alpha-walrus", "Krill (AWC) 1")):
        data = run("--game", game, "cards", "show", ref, "--output", "json").json()
        text = run("--game", game, "cards", "show", ref).out
        for p in data["printings"]:
            assert p["versions"] == ["regular", *p["variants"]]
            assert f"    ({p['set']}) {p['number']}: {', '.join(p['versions'])}\n" in text


def test_cards_show_never_prints_a_python_none():
    """Card data holds null (Herd Instinct lifts the copy limit: 'copy_limit: null'); the text
    says what it means instead of Python's 'None'."""
    text = run("cards", "show", "Herd Instinct").out
    assert "copy_limit = none (no limit)" in text
    for game in ("animal-battle", "alpha-walrus"):
        for card in run("cards", "list", "--game", game, "--output", "json").json():
            shown = run("--game", game, "cards", "show", f"{card['name']} "
                        f"({card['printings'][0]['set']}) {card['printings'][0]['number']}")
            assert shown.code == 0, shown
            assert "None" not in shown.out and "True" not in shown.out, shown


def _table_refs(out: str) -> list[str]:
    """The first column of a `cards list`/`search` table (rows end with the sets column)."""
    rows = out.split("\n\n")[0].splitlines()[2:]
    return [re.split(r"\s{2,}", row)[0] for row in rows]


@pytest.mark.parametrize("args", [("cards", "list"), ("cards", "list", "--set", "CLS"),
                                  ("cards", "search", "population<1000"),
                                  ("--game", "alpha-walrus", "cards", "list")])
def test_listed_cards_are_references_a_user_can_paste(args):
    """Two cards share the number 44 (Mediterranean Monk Seal, Northern Hairy-Nosed Wombat):
    each row names its card with set and number, and `cards show` takes it back unchanged."""
    r = run(*args)
    assert r.code == 0, r
    refs = _table_refs(r.out)
    assert refs and len(refs) == len(set(refs))
    game = ("--game", "alpha-walrus") if "alpha-walrus" in args else ()
    for ref in refs[:40]:
        assert re.fullmatch(r".+ \([A-Z]+\) \w+", ref), ref
        shown = run(*game, "cards", "show", ref)
        assert shown.code == 0, shown
    if "CLS" in args:
        assert all(" (CLS) " in ref for ref in refs)


@pytest.mark.parametrize("args", [("cards", "search", "kind:animal population<1000"),
                                  ("cards", "list", "--set", "CLS"),
                                  ("--game", "alpha-walrus", "cards", "list", "--kind", "gear")])
def test_as_deck_prints_a_decklist_of_the_results(args, tmp_path):
    r = run(*args, "--as-deck")
    assert r.code == 0, r
    table = run(*args)
    deck = tmp_path / "found.txt"
    deck.write_text(r.out, encoding="utf-8")
    assert run("fmt", "--check", deck).code == 0  # already in fmt's form
    report = run("validate", deck, "--output", "json").json()["decks"][0]
    # every line names one known card: nothing unknown, ambiguous or unreadable
    assert not [p for p in report["problems"] if p["rule"].startswith("DL-")], report
    assert report["card_count"] == len(_table_refs(table.out))
    assert sorted(re.findall(r"^1 (.+)$", r.out, flags=re.M)) == sorted(_table_refs(table.out))


def test_as_deck_and_json_do_not_mix():
    r = run("cards", "list", "--as-deck", "--output", "json")
    assert r.code == 2 and "--as-deck prints a decklist" in r.err, r


@pytest.mark.parametrize("name", ["Two\\nLines", "Crab // Shell"])
def test_a_name_no_text_line_can_hold_makes_the_database_invalid(tmp_path, name):
    """With such a card, 'db check' said 'no problems', and fmt and 'cards list --as-deck'
    then failed with "internal error, please report": the name cannot be written on one text
    line. The database is invalid (exit 2 for the commands that use it), as DB-1.4 says."""
    db = tmp_path / "db"
    write_set(db, "ODD.yaml", f"""\
        - {{number: "1", name: "{name}", kind: animal, stats: {STATS}}}
        """, code="ODD")
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Walrus (ABS) 12\n", encoding="utf-8")
    for args in (["fmt", deck], ["cards", "list", "--set", "ODD", "--as-deck"]):
        r = run("--db", db, *args)
        assert r.code == 2 and "internal error" not in r.err, r
        assert "db check" in r.err, r


@pytest.mark.parametrize("game", ["animal-battle", "alpha-walrus"])
def test_cards_list_json_gives_every_card_the_same_keys(game):
    """A script reads `card["stats"]` of every object: a card without statistics (an action, a
    piece of equipment) has an empty `stats` object, not a missing key."""
    cards = run("cards", "list", "--game", game, "--output", "json").json()
    for card in cards:
        assert {"game", "name", "number", "kind", "stats", "printings"} <= card.keys(), card
        assert isinstance(card["stats"], dict), card
    bare = [c for c in cards if c["kind"] in ("action", "equipment", "diplomacy", "battle")]
    assert bare and all(c["stats"] == {} for c in bare)
    first = bare[0]["printings"][0]
    shown = run("--game", game, "cards", "show", f"{bare[0]['name']} ({first['set']}) "
                f"{first['number']}", "--output", "json").json()
    assert shown["stats"] == {}


def test_db_check_text_gives_each_problem_one_line(tmp_path):
    """A file name with a line break in it is shown escaped, as validate's report shows it:
    the text output is one line a problem, then the summary."""
    db = tmp_path / "db"
    body, _code, _rule = BROKEN["newline.yaml"]
    write_set(db, "new\nline.yaml", body, code="TQN")
    r = run("db", "check", "--db", db)
    assert r.code == 1, r
    lines = r.out.splitlines()
    assert lines[-1].endswith("problem(s)")
    assert all(re.match(r".+new\\x0aline\.yaml:\d+: (error|warning): ", x) for x in lines[:-1]), \
        lines


def test_the_error_of_a_command_with_an_invalid_database_is_one_line_naming_the_place(tmp_path):
    """A problem of a whole file (no line) was shown as 'FILE:None: ...', and a file name
    with a line break split the message over two lines; the name is shown as every report
    shows one (visible_name), the line only where there is one."""
    db = tmp_path / "db"
    db.mkdir()
    os.symlink("nowhere.yaml", db / "gone.yaml")
    r = run("--db", db, "cards", "show", "Walrus")
    assert r.code == 2 and f"first: {db}/gone.yaml: cannot read: " in r.err, r
    assert "None" not in r.err, r
    (db / "gone.yaml").unlink()
    body, _code, _rule = BROKEN["newline.yaml"]
    write_set(db, "new\nline.yaml", body, code="TQN")
    r = run("--db", db, "cards", "show", "Walrus")
    assert r.code == 2 and f"first: {db}/new\\x0aline.yaml:4: 'Two\\nLines': " in r.err, r
    assert len(r.err.splitlines()) == 1, r


#: a battle statistic written as something other than a finite number -> how the message
#: shows it (a boolean was read as 1 or 0 and numeric text as the number: both passed)
NOT_NUMBERS = {"fast": "text ('fast')", '"12"': "text ('12')", "true": "true/false (true)",
               "false": "true/false (false)", "no": "text ('no')", "null": "null",
               "[1, 2]": "a list", "2026-01-01": "a date",
               ".nan": "NaN", ".inf": "infinity", "-.inf": "infinity", "1e400": "infinity"}


@pytest.mark.parametrize("value", NOT_NUMBERS)
@pytest.mark.parametrize("game", ["animal-battle", "alpha-walrus"])
def test_a_statistic_that_is_not_a_finite_number_is_an_error_on_its_line(tmp_path, value, game):
    """Each figure is a number (DB-2.1): the problem is on the statistic's own line where
    the statistics are written one a line."""
    stat, kind = ("speed", "animal") if game == "animal-battle" else ("level", "creature")
    others = ["weight: 5", "lifespan: 3", "population: 900", "length: 0.4", "max_depth: 0"]
    db = tmp_path / "db"
    write_set(db, "NUM.yaml", "".join(f"{line}\n" for line in [
        '- number: "1"', "  name: Odd Beast", f"  kind: {kind}", "  stats:",
        f"    {stat}: {value}", *(f"    {o}" for o in others if game == "animal-battle")]),
        code="NUM", game=game)
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    found = [(p["line"], p["code"], p["rule"], p["message"]) for p in r.json()["problems"]]
    assert (8, "db-not-a-number", "DB-2.1", f"Odd Beast: stats.{stat}: a statistic is a number, "
            f"not {NOT_NUMBERS[value]}") in found, found
    r = run("--db", db, "cards", "list")
    assert r.code == 2 and "NUM.yaml:8: Odd Beast: stats." in r.err, r


#: a set file's bytes after its three head lines and one good card -> the line and the
#: message of its problem (lines 1-4 are the head and the good card)
BAD_BYTES = {
    "latin-1": (b"# caf\xe9\n", 5, "not UTF-8: byte 0xE9 cannot be read"),
    "latin-1 after CR line ends": (b"\r\r# caf\xe9\r", 7, "not UTF-8: byte 0xE9"),
    "a NUL byte": (b"# \x00\n", 5, "file holds a NUL byte"),
    "a control character in a comment": (b"# \x01 here\n", 5,
                                         "not valid YAML: unacceptable character #x0001: "
                                         "control characters are not allowed"),
    "an escape in a name": (b'- {number: "2", name: "Wal\x1brus", kind: action}\n', 5,
                            "not valid YAML: unacceptable character #x001b"),
    "DEL after CRLF line ends": (b"#\r\n#\r\n# \x7f\r\n", 7,
                                 "not valid YAML: unacceptable character #x007f"),
}


@pytest.mark.parametrize("bad", BAD_BYTES)
def test_a_source_that_is_not_utf8_or_holds_control_characters_names_its_line(tmp_path, bad):
    """A byte that is not UTF-8 was 'cannot read: 'utf-8' codec can't decode byte 0xe9 in
    position 231: ...' with no line, and a control character 'not valid YAML: ...
    position 228' with no line and the rest of ruamel's message on a second line."""
    tail, line, said = BAD_BYTES[bad]
    db = tmp_path / "db"
    path = write_set(db, "BYT.yaml", f"""\
        - {{number: "1", name: Byte Beast, kind: animal, stats: {STATS}}}
        """, code="BYT")
    path.write_bytes(path.read_bytes() + tail)
    r = run("db", "check", "--db", db)
    assert r.code == 1, r
    assert f"BYT.yaml:{line}: error: {said}" in r.out, r
    assert "position" not in r.out and len(r.out.splitlines()) == 2, r


def test_a_utf16_source_is_named_as_such(tmp_path):
    db = tmp_path / "db"
    path = write_set(db, "U16.yaml", f"""\
        - {{number: "1", name: Wide Beast, kind: animal, stats: {STATS}}}
        """, code="U16")
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    r = run("db", "check", "--db", db)
    assert r.code == 1 and "U16.yaml:1: error: file is UTF-16; save it as UTF-8" in r.out, r


#: collector numbers no text decklist line can end with: '1 Beast (NUM) 12 b' names a card
#: 'Beast (NUM) 12 b', '(NUM) 8#1' is number 8 and a comment, '(NUM) *F*' the foil mark
UNWRITABLE_NUMBERS = ["12 b", "12\\t1", " 12", "12\\u00a0", "8#1", "1//2", "[1]", "1]", "*F*",
                      "*f*", "1\\e", "1\\n2", "1\\u2028"]
#: and some that every line names as they are
WRITABLE_NUMBERS = ["12", "007", "A12", "P300", "12a", "x4", "1(2)", "C-12", "SWSH001"]


@pytest.mark.parametrize("number", UNWRITABLE_NUMBERS)
def test_a_collector_number_no_text_line_can_end_with_is_an_error(tmp_path, number):
    """A printing numbered '12 b' passed db check, then could be played from a JSON deck but
    named on no text line: 'validate' of '1 Spaced Beast (NUM) 12 b' said there is no such
    card, and 'convert --to text -o' refused the JSON deck. DB-1.5, as DB-1.4 for names."""
    db = tmp_path / "db"
    write_set(db, "NUM.yaml", f"""\
        - {{number: "{number}", name: Spaced Beast, kind: animal, stats: {STATS}}}
        """, code="NUM")
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    found = [(p["line"], p["code"], p["rule"]) for p in r.json()["problems"]]
    assert found == [(4, "db-number", "DB-1.5")], r.json()
    assert "a collector number is one word a decklist line can end with" in r.out, r
    r = run("--db", db, "cards", "show", "Spaced Beast")
    assert r.code == 2 and "db check" in r.err, r


def test_collector_numbers_a_text_line_can_end_with_pass_and_read_back(tmp_path):
    db = tmp_path / "db"
    write_set(db, "NUM.yaml", "".join(
        f'- {{number: "{n}", name: Beast {i}, kind: animal, stats: {STATS}}}\n'
        for i, n in enumerate(WRITABLE_NUMBERS)), code="NUM")
    assert run("db", "check", "--db", db).code == 0
    deck = tmp_path / "deck.txt"
    deck.write_text("".join(f"1 Beast {i} (NUM) {n}\n" for i, n in enumerate(WRITABLE_NUMBERS)))
    r = run("--db", db, "validate", deck, "-O", "json")
    assert [p["code"] for p in r.json()["decks"][0]["problems"]] == ["deck-size"], r


@pytest.mark.parametrize("args", [("cards", "search", "kind:animal population<1000"),
                                  ("cards", "list"), ("--game", "alpha-walrus", "cards", "list")])
def test_number_columns_are_right_aligned(args):
    """A statistic's digits line up on the right, as numbers are read (they were left-aligned:
    '1,800' above '76'); names, kinds and sets stay on the left."""
    from deckcli.games import GAMES

    r = run(*args)
    assert r.code == 0, r
    header, dashes, *rows = r.out.split("\n\n")[0].splitlines()
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]
    names = [header[a:b].strip() for a, b in spans]
    game = "alpha-walrus" if "alpha-walrus" in args else "animal-battle"
    numeric = [i for i, n in enumerate(names) if n in GAMES[game].key_stats]
    assert numeric, names
    for row in rows:
        row = row.ljust(spans[-1][1])
        for i in numeric:
            a, b = spans[i]
            cell = row[a:b]
            assert cell.strip() and cell == cell.strip().rjust(b - a), (names[i], row)
        a, b = spans[0]
        assert row[a:b] == row[a:b].strip().ljust(b - a)
