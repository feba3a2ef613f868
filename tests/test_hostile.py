"""Hostile input: every command that reads files answers with exit 1 or 2, names the file,
never shows a traceback, and finishes in bounded time and memory. Nothing is ever rewritten.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import EXAMPLES, animals_db, run, run_unprivileged

sys.path.insert(0, str(Path(__file__).parent / "hostile"))
from make_corpus import (  # noqa: E402
    COSTLY,
    HOSTILE_NAMES,
    INDEX_DAMAGE,
    SECRET,
    TARGET_KINDS,
    make,
    make_costly,
    make_escapes,
    make_links,
    make_names,
    make_targets,
    make_walks,
    open_walks,
)

SECONDS = 30


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return make(tmp_path_factory.mktemp("hostile"))


# The segfault reproducers run only in a separate process (test_bounded_memory...), so a
# regression crashes that process and fails its test instead of killing the whole run.
def _names() -> list[str]:
    """The corpus's file names, for the parameters (made in a folder removed at once)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return sorted(n for n in make(Path(tmp) / "corpus") if "segv" not in n)


NAMES = _names()


@contextmanager
def time_limit(seconds: int):
    def boom(signum, frame):
        raise TimeoutError(f"took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def check(result, name: str, codes=(1, 2)):
    if result.code == 0 and "is an event file, not a decklist: skipped" in result.err:
        codes = (0,)  # validate and fmt leave an event file alone (deckcli.decks.kinds)
    assert result.code in codes, result
    text = result.out + result.err
    assert "Traceback" not in text, result
    assert "internal error" not in text, result
    assert name.split("/")[0] in text, result  # the message names the file


def digest(path: Path):
    if path.is_dir():
        return sorted(p.name for p in path.iterdir())
    return path.read_bytes() if path.exists() else None


@pytest.mark.parametrize("name", NAMES)
def test_validate(corpus, name):
    with time_limit(SECONDS):
        r = run("validate", corpus[name], "-O", "json")
    check(r, name)
    r.out.encode("utf-8")  # a report is UTF-8 text: no lone surrogate from the file got in
    if r.code == 1 and r.out:
        deck = r.json()["decks"][0]
        assert deck["legal"] is False and deck["problems"]


@pytest.mark.parametrize("name", NAMES)
def test_event_file(corpus, name, tmp_path):
    deck = tmp_path / "d.txt"
    deck.write_text("4 Walrus\n")
    with time_limit(SECONDS):
        r = run("validate", "--event", corpus[name], deck)
    check(r, name, codes=(2,))


@pytest.mark.parametrize("name", [n for n in NAMES if "." in n and not n.endswith(".txt")
                                  or n.endswith(".txt")])
def test_card_database_source(corpus, name, tmp_path):
    if corpus[name].is_dir():
        pytest.skip("a folder is not a source file")
    db = tmp_path / "db"
    db.mkdir()
    shutil.copy(corpus[name], db / (Path(name).stem + ".yaml"))
    with time_limit(SECONDS):
        r = run("db", "check", "--db", db)
    check(r, Path(name).stem, codes=(1,) if corpus[name].stat().st_size else (0, 1))
    with time_limit(SECONDS):
        r = run("--db", db, "cards", "list")
    assert r.code in ((2,) if corpus[name].stat().st_size else (0, 2)), r
    assert "Traceback" not in r.err


@pytest.mark.parametrize("name", NAMES)
def test_fmt_never_rewrites_a_hostile_file(corpus, name):
    before = digest(corpus[name])
    with time_limit(SECONDS):
        r = run("fmt", corpus[name])
    check(r, name)
    assert digest(corpus[name]) == before


@pytest.mark.parametrize("name", NAMES)
def test_convert(corpus, name, tmp_path):
    out = tmp_path / "out.json"
    with time_limit(SECONDS):
        r = run("convert", corpus[name], "--to", "json", "-o", out)
    check(r, name)
    assert not out.exists()


@pytest.mark.parametrize("name", NAMES)
def test_referee_check(corpus, name):
    with time_limit(SECONDS):
        r = run("referee", "check", corpus[name])
    check(r, name)


@pytest.mark.parametrize("name", ["alias-bomb.yaml", "deep.json", "deep.yaml", "long-line.txt",
                                  "many-lines.txt", "deep-object.json",
                                  # found by the atheris harness: crashed the C YAML parser
                                  "fuzz-structured-segv-deep-compact-block-seq.yaml",
                                  "fuzz-structured-segv-deep-flow-quote-bypass.yaml",
                                  "fuzz-structured-segv-deep-explicit-keys.yaml",
                                  "xml-bomb.dek", "xml-deep.cod", "xml-many-elements.dek"])
def test_bounded_memory_in_a_fresh_process(corpus, name):
    """The heaviest inputs, in a process limited to 1 GiB of address space."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(corpus[name])],
                          capture_output=True, text=True, timeout=60, preexec_fn=limit,
                          env={**os.environ})
    assert proc.returncode in (1, 2), proc
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    assert name in proc.stdout + proc.stderr


def test_yaml_tags_never_run_code(corpus):
    marker = Path("/tmp/deckcli-pwned")
    marker.unlink(missing_ok=True)
    run("validate", corpus["python-tag.yaml"])
    run("validate", "--event", corpus["python-tag.yaml"], corpus["empty.txt"])
    assert not marker.exists()


def test_fifo_is_refused_not_read(tmp_path):
    fifo = tmp_path / "deck.txt"
    os.mkfifo(fifo)
    with time_limit(10):
        r = run("validate", fifo)
    assert r.code == 2 and "not a regular file" in r.err, r


def test_a_collector_number_thousands_of_digits_long_is_no_internal_error(tmp_path):
    """Collector numbers compare with leading zeros ignored (DL-3.2): the digits went through
    int(), which refuses more than 4,300 of them (Python's int max str digits), so a JSON or
    Cockatrice deck, an event's ban or a reference naming such a number ended in 'internal
    error: ValueError: Exceeds the limit (4300 digits)'. It is a number no printing has."""
    from deckcli.cards.names import number_key

    digits = "1" * 5000
    deck = tmp_path / "long.json"
    deck.write_text(f'{{"cards": [{{"count": 4, "name": "Walrus", "set": "ABS", '
                    f'"number": "{digits}"}}]}}\n')
    cod = tmp_path / "long.cod"
    cod.write_text(f'<cockatrice_deck version="1"><zone name="main"><card number="4" '
                   f'name="Walrus" setShortName="ABS" collectorNumber="{digits}"/></zone>'
                   "</cockatrice_deck>\n")
    event = tmp_path / "event.yaml"
    event.write_text(f'name: Long\ngame: animal-battle\nbanned: ["Walrus (ABS) {digits}"]\n')
    for args, code, said in (
            (("validate", deck), 1, "there is no card number 1111"),
            (("validate", cod), 1, "there is no card number 1111"),
            (("fmt", "--check", deck), 1, "would reformat"),
            (("diff", deck, cod), 0, "same"),
            (("validate", "--event", event, EXAMPLES / "good" / "casual-risky.txt"), 2,
             "event.yaml:3: banned card"),
            (("cards", "show", f"ABS {digits}"), 2, "there is no card number 1111"),
            (("referee", "battle", f"ABS {digits}", "Orca", "--stat", "weight"), 2,
             "there is no card number 1111")):
        with time_limit(SECONDS):
            r = run(*args)
        assert r.code == code and said in r.out + r.err, r
        assert "internal error" not in r.err and "Traceback" not in r.err, r
    # the same keys as int() gave where it could: leading zeros go, any script's digits
    assert number_key("0" * 5000 + "12a") == number_key("12A") == "12a"
    assert number_key("P" + "0" * 5000) == "p0" and number_key("\u0661\u0662") == "12"
    assert number_key("\uff10\uff17") == "7" and number_key(digits) == digits


def test_a_control_character_or_bad_byte_in_a_deck_or_event_file_is_named_on_its_line(tmp_path):
    """The YAML reader gives a control character's place as a position in the text: it was
    reported with no line ('... position 46'), the rest of the message on a line of its own.
    A byte that is not UTF-8 in a file with CR line ends was put on line 1."""
    deck = tmp_path / "deck.yaml"
    deck.write_text("name: x\ncards:\n  - {count: 4, name: Walrus}\n# \x01 here\n")
    event = tmp_path / "event.yaml"
    event.write_text("name: Ev\ngame: animal-battle\n\n# \x1b[31m\n")
    old_mac = tmp_path / "old-mac.txt"
    old_mac.write_bytes(b"4 Walrus\r4 Orca\r# caf\xe9\r")
    for args, code, said in (
            (("validate", deck), 1, "deck.yaml:4: error: not valid YAML: unacceptable character "
                                    "#x0001: control characters are not allowed ["),
            (("validate", "--event", event, deck), 2,
             "event.yaml:4: not valid YAML: unacceptable character #x001b: control characters "
             "are not allowed\n"),
            (("validate", old_mac), 1, "old-mac.txt:3: error: not UTF-8: byte 0xE9")):
        r = run(*args)
        assert r.code == code and said in r.out + r.err, r
        assert "position" not in r.out + r.err, r


def test_debug_shows_a_traceback_only_for_internal_errors(monkeypatch, deck_file):
    import deckcli.validate as v

    def broken(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(v, "judge", broken)  # every readable deck's verdict goes through it
    deck = deck_file("4 Walrus\n")
    r = run("validate", deck)
    assert r.code == 2 and "internal error" in r.err and "please report" in r.err
    assert "Traceback" not in r.err
    with pytest.raises(RuntimeError):
        run("--debug", "validate", deck)


CONTROL = "Wal\x01rus\x1b[31m\u202e"  # a C0 control, a terminal escape, a right-to-left override


@pytest.mark.parametrize("output", ["text", "github", "junit", "sarif", "json"])
def test_control_characters_reach_no_report_raw(tmp_path, output):
    """A deck line's (or a file name's) control characters are escaped in every report: raw,
    they would drive the terminal or a CI log, and make the JUnit XML unreadable."""
    import json
    import xml.etree.ElementTree as ET

    (tmp_path / "a.txt").write_text(f"4 {CONTROL}\n16 Orca\n", encoding="utf-8")
    (tmp_path / "b\x1bx.txt").write_text("4 Walrus\n", encoding="utf-8")
    r = run("validate", tmp_path, "-O", output)
    assert r.code == 1, r
    if output == "github":  # the file= property and the messages escaped alike
        assert "'Wal\\x01rus\\x1b[31m\\u202e'" in r.out
        assert "\x01" not in r.out and "\u202e" not in r.out and "\x1b" not in r.out
        assert f"file={tmp_path / 'b'}\\x1bx.txt".replace(":", "%3A") in r.out
        return
    for bad in ("\x01", "\x1b", "\u202e"):
        assert bad not in r.out, (bad, r.out)
    if output == "junit":
        root = ET.fromstring(r.out)
        names = sorted(c.get("name") for c in root.iter("testcase"))
        assert names == sorted([str(tmp_path / "a.txt"), str(tmp_path / "b\\x1bx.txt")])
        assert "'Wal\\x01rus\\x1b[31m\\u202e'" in root.find(".//failure").text
    elif output in ("json", "sarif"):
        json.loads(r.out)
        assert "Wal\\\\x01rus" in r.out  # the escape itself, JSON-quoted
    else:
        assert "'Wal\\x01rus\\x1b[31m\\u202e'" in r.out and "b\\x1bx.txt" in r.out


def test_an_argument_that_is_not_utf8_is_refused():
    """Bytes the locale cannot decode reach Python as lone surrogates: refused up front with
    exit 2, where they used to fail inside the card index as an internal error."""
    for args in (["cards", "show", "Wal\udcffrus"], ["cards", "search", "\udcff"],
                 ["referee", "battle", "Walrus", "Or\udcffca", "--stat", "weight"]):
        r = run(*args)
        assert r.code == 2, r
        assert "is not UTF-8 text" in r.err and "internal error" not in r.err
        assert "\\udcff" in r.err  # shown escaped


# -- places to write that are not a file deckcli may replace ------------------------------------
DECK = Path(__file__).parent.parent / "examples" / "good" / "championship-deep-divers.txt"
EVENT = Path(__file__).parent.parent / "examples" / "event" / "event.yaml"
MATRIX = [EXAMPLES / "good" / n for n in ("casual-risky.txt", "casual-savanna.yaml",
                                          "casual-rainforest.json")]
WRITERS = {
    "sheet -o": lambda out: ("sheet", DECK, "-o", out),
    "report -o": lambda out: ("report", EVENT, "-o", out),
    "validate --output-file": lambda out: ("validate", DECK, "-O", "json", "--output-file", out),
    "convert -o": lambda out: ("convert", DECK, "--to", "text", "-o", out),
    "new": lambda out: ("new", out),
    "add": lambda out: ("add", out, "Orca"),
    "fmt": lambda out: ("fmt", out),
    "export -o": lambda out: ("export", "--event", EVENT, "--to", "csv", "-o", out),
    "build -o": lambda out: ("build", "--collection", DECK, "--games", "20", "--measure", "4",
                             "--policy", "random", "-o", out),
    "simulate --csv": lambda out: ("simulate", *MATRIX, "--games", "2", "--csv", out),
    "simulate --html": lambda out: ("simulate", *MATRIX, "--games", "2", "--html", out),
    "simulate --save-games": lambda out: ("simulate", *MATRIX[:2], "--games", "2",
                                          "--save-games", out),
}


def snapshot(folder: Path) -> dict:
    """Each name in the folder with its kind, and a file's bytes or a link's target."""
    import stat as st

    out = {}
    for p in sorted(folder.iterdir()):
        mode = p.lstat().st_mode
        out[p.name] = (st.S_IFMT(mode), st.S_IMODE(mode),
                       os.readlink(p) if p.is_symlink() else
                       p.read_bytes() if st.S_ISREG(mode) else None)
    return out


@pytest.mark.parametrize("kind", TARGET_KINDS)
@pytest.mark.parametrize("command", WRITERS)
def test_a_target_that_is_not_a_replaceable_file_is_refused(tmp_path, command, kind):
    """Issue 24, 1: every command that writes a file checks its target through one writer: a
    FIFO, a device, a socket, a directory, a symlink to one of them or out of its folder, or a
    read-only file is refused with exit 2 naming it, and left exactly as it was (and nothing
    is left beside it)."""
    if command == "simulate --save-games" and kind == "directory":
        pytest.skip("a folder is what --save-games writes into")
    targets = make_targets(tmp_path)
    if kind not in targets:
        pytest.skip(f"this user cannot make a {kind} (a device node needs root)")
    before = snapshot(tmp_path)
    with time_limit(SECONDS):  # a FIFO opened for writing would wait for a reader forever
        r = run(*WRITERS[command](targets[kind]))
    assert r.code == 2, r
    assert targets[kind].name in r.err and "Traceback" not in r.err, r
    assert "internal error" not in r.err, r
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["validate", "validate -O json", "convert --to text",
                                     "sheet -o -", "cards list", "fmt -"])
def test_a_full_device_behind_stdout_is_a_clear_error(command):
    """Issue 24, 5: stdout on a full device (/dev/full: every write fails with ENOSPC) is one
    clear error and exit 2, not an internal error, and nothing about it at exit."""
    args = command.split()
    if args[0] in ("validate", "convert", "sheet"):
        args.insert(1, str(DECK))
    with open(os.devnull if not os.path.exists("/dev/full") else "/dev/full", "w") as full, \
            open(DECK, "rb") as stdin:
        if full.name == os.devnull:
            pytest.skip("this system has no /dev/full")
        proc = subprocess.run([sys.executable, "-m", "deckcli", *args], stdout=full,
                              stdin=stdin, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 2, proc
    assert proc.stderr == "deckcli: error: could not write the output: No space left on " \
                          "device\n", proc


def _stderr_full(args, tmp: Path, stdout=subprocess.PIPE):
    """``deckcli ARGS`` in a fresh process whose stderr is /dev/full (every write fails with
    ENOSPC), run in ``tmp``."""
    if not os.path.exists("/dev/full"):
        pytest.skip("this system has no /dev/full")
    with open("/dev/full", "w") as full:
        return subprocess.run([sys.executable, "-m", "deckcli", *map(str, args)], cwd=tmp,
                              stdout=stdout, stderr=full, stdin=subprocess.DEVNULL, text=True,
                              timeout=120)


def test_a_full_device_behind_stderr_changes_no_exit_code(tmp_path):
    """Issue 38, 11: a message that cannot be printed is not the job's failure. With stderr on a
    full device, 'validate nonexist.txt' exited 1 (the error about the error escaped as a
    traceback nobody saw) instead of 2, and 'fmt messy.txt' rewrote the file and then exited
    2. The exit code reports the job, whatever became of the messages about it."""
    messy = tmp_path / "messy.txt"
    messy.write_text("4x  Walrus\n", encoding="utf-8")
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nplayers: {alice: good.txt}\n", encoding="utf-8")
    shutil.copy(EXAMPLES / "good" / "casual-risky.txt", tmp_path / "good.txt")
    cases = [
        (["validate", "nonexist.txt"], 2),
        (["validate", "good.txt"], 0),
        (["validate", EXAMPLES / "bad" / "too-many-copies.txt"], 1),
        (["validate", "--event", event, "good.txt"], 0),  # a note on stderr first
        (["fmt", "--check", "messy.txt"], 1),
        (["convert", "good.txt", "--to", "csv"], 0),  # warnings on stderr, the list on stdout
        (["simulate", EXAMPLES / "bad" / "casual-19.txt", "good.txt", "--games", "2",
          "--jobs", "1"], 0),  # a warning: the deck is illegal, simulated anyway
        (["fmt", "messy.txt"], 0),
    ]
    for args, code in cases:
        proc = _stderr_full(args, tmp_path)
        assert proc.returncode == code, (args, proc)
        assert "Traceback" not in proc.stdout, (args, proc)
    assert messy.read_text(encoding="utf-8") == "Animals: 4\n4 Walrus (ABS) 12\n"
    with open("/dev/full", "w") as full:  # stdout full as well: the output is the job
        proc = _stderr_full(["validate", "good.txt"], tmp_path, stdout=full)
    assert proc.returncode == 2, proc


def test_a_yaml_alias_bomb_is_refused_on_the_line_of_the_list_that_crosses_the_limit(corpus):
    """The alias bomb's error names a line as every other error in a file does: the list
    whose expanded size first passes 200,000 values ('f', line 8: 9^6 values), refused before
    anything is expanded."""
    with time_limit(SECONDS):
        r = run("validate", corpus["alias-bomb.yaml"], "-O", "json")
    assert r.code == 1, r
    [problem] = r.json()["decks"][0]["problems"]
    assert (problem["code"], problem["rule"], problem["line"]) == ("bad-structure", "DL-2.6", 8)
    assert "once aliases are expanded" in problem["message"]


@pytest.mark.parametrize("name,line", [("xml-bomb.dek", 3), ("xml-external-entity.cod", 3),
                                       ("xml-parameter-entity.cod", 3),
                                       ("xml-external-dtd.dek", 2),
                                       ("xml-attribute-default.cod", 3)])
def test_xml_entities_and_external_dtds_are_refused_on_their_line(corpus, name, line):
    """Nothing is expanded or fetched: the file of this machine an external entity names
    never reaches a report, nor a count the file never writes out (a DTD's attribute
    default), and the error is on the line that declares it (rule DL-2.9)."""
    with time_limit(SECONDS):
        r = run("validate", corpus[name], "-O", "json")
    assert r.code == 1, r
    [problem] = r.json()["decks"][0]["problems"]
    assert (problem["code"], problem["rule"], problem["line"]) == ("unsafe-xml", "DL-2.9", line)
    assert "root:" not in r.out and "/bin/" not in r.out


# -- a damaged card index ------------------------------------------------------------------------
BAD_DECK = Path(__file__).parent.parent / "examples" / "bad" / "too-many-copies.txt"


def answers() -> tuple:
    """What the commands say with the card index as it is: every card, a legal deck's verdict
    and an illegal deck's problems."""
    cards = run("cards", "list", "-O", "json")
    good = run("validate", DECK, "-O", "json")
    bad = run("validate", BAD_DECK, "-O", "json")
    assert "Traceback" not in cards.err + good.err + bad.err
    return cards.code, cards.out, good.code, good.out, bad.code, bad.out


@pytest.mark.parametrize("damage", INDEX_DAMAGE)
def test_a_damaged_card_index_is_rebuilt_and_answers_correctly(tmp_path, monkeypatch, damage):
    """Issue 24, 3: any damage to the cached index (a zeroed page, random bytes, a dropped
    table, a truncated record or file, rows changed, a hot journal left by a killed update, a
    FIFO, directory or symlink in its place) is found on opening: the run answers exactly as
    with a whole index, at once (never hangs), and the next run finds a whole index again."""
    from deckcli.cards.cache import load

    expected = answers()  # the session's own cache: whole
    assert expected[0] == 0 and expected[2] == 0 and expected[4] == 1
    cache = tmp_path / "cache"
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    assert run("cards", "show", "Walrus").code == 0
    [path] = cache.glob("index-*.sqlite")
    INDEX_DAMAGE[damage](path)
    with time_limit(SECONDS):
        assert answers() == expected
        assert answers() == expected
    if damage != "directory":  # a directory cannot be replaced: each run builds in memory
        assert load(str(path)) is not None, f"{damage}: not rebuilt"
    # the index (or the directory in its place), the note that it was found whole; no
    # journal, no temporary file
    assert sorted(p.name for p in cache.iterdir()) == [path.name, f"{path.name}.checked"]


def _where(conn) -> str:
    """The file an SQLite connection reads (not a path for a database in memory)."""
    return conn.execute("PRAGMA database_list").fetchone()[2]


def test_an_index_found_whole_is_opened_in_place_until_it_changes(tmp_path, monkeypatch):
    """An index file is read whole and its stamp checked once after each change; runs after
    that open it where it lies, read-only (a 100,000-printing index costs a run the pages it
    reads, not 31 MB). Writing to it (even putting its modification time back) or replacing
    it sends the next run back to the whole check, which finds the damage."""
    import sqlite3

    from deckcli.cards.cache import load

    cache = tmp_path / "cache"
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    assert run("cards", "show", "Walrus").code == 0
    [path] = cache.glob("index-*.sqlite")
    conn, meta, _ = load(str(path))
    assert _where(conn) == str(path)  # in place
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("DELETE FROM cards")
    conn.close()
    st = path.stat()
    INDEX_DAMAGE["wrong-rows"](path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the old time back: the change time moves
    assert load(str(path)) is None  # checked whole again: the stamp no longer matches
    expected = answers()
    assert run("cards", "show", "Walrus").code == 0  # rebuilt, noted
    conn, _, _ = load(str(path))
    assert _where(conn) == str(path)
    conn.close()
    note = Path(f"{path}.checked")
    note.write_text("0 0 0 0 0\n")  # a note that does not match: the file is checked whole
    conn, _, _ = load(str(path))
    assert _where(conn) != str(path)  # read whole and opened in memory, then noted again
    conn.close()
    assert _where(load(str(path))[0]) == str(path)
    assert answers() == expected


@pytest.mark.parametrize("damage", ["random-bytes", "zeroed-middle-page", "dropped-table"])
def test_a_damaged_shipped_index_is_not_used(tmp_path, monkeypatch, damage):
    """The index shipped in the package, damaged (a bad download, a disk error), is compiled
    from the card data instead of being copied into the cache."""
    import shutil

    import deckcli.cards.bundled as bundled
    from deckcli.cards.cache import builtin_db_dir, source_files

    expected = answers()
    shipped = tmp_path / "bundled.sqlite"
    shutil.copy(bundled.BUNDLED_INDEX, shipped)
    INDEX_DAMAGE[damage](shipped)
    monkeypatch.setattr(bundled, "BUNDLED_INDEX", str(shipped))
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "cache"))
    assert not bundled.usable(source_files([builtin_db_dir()]))
    with time_limit(SECONDS):
        assert answers() == expected


# -- what a --db folder holds that is not a set file it can read --------------------------------
def _socket(path):
    import socket

    here = os.getcwd()
    os.chdir(path.parent)  # a socket's path is bounded (108 bytes): bind the name alone
    try:
        socket.socket(socket.AF_UNIX).bind(path.name)
    finally:
        os.chdir(here)


#: an entry named like a set file -> how to make it, and what the message says it is
NOT_SET_FILES = {
    "broken symlink": (lambda p: os.symlink("nowhere.yaml", p),
                       "it is a symbolic link to 'nowhere.yaml', which does not exist"),
    "symlink loop": (lambda p: os.symlink(p.name, p), "it is a symbolic link in a loop"),
    "FIFO": (os.mkfifo, "it is a FIFO (named pipe), not a regular file"),
    "socket": (_socket, "it is a socket, not a regular file"),
    "unreadable file": (lambda p: (p.write_text("game: animal-battle\n"), p.chmod(0)),
                        "permission denied"),
}


@pytest.mark.parametrize("where", ["a new file", "in place of a file the index was built from"])
@pytest.mark.parametrize("kind", NOT_SET_FILES)
def test_a_db_folder_entry_that_cannot_be_read_is_an_error_naming_it(tmp_path, kind, where):
    """A broken symlink named like a set file was an internal error (FileNotFoundError) in
    every command but db check, which passed it over in silence; a FIFO made every command
    wait forever for a writer (db check passed it over); a file the user may not read was an
    internal error (PermissionError) once the index was built. Each is now a problem on the
    file (DB-1.1): db check exits 1, every command that needs the index exits 2, at once,
    with or without an index built before."""
    make, why = NOT_SET_FILES[kind]
    db = tmp_path / "db"
    db.mkdir()
    (db / "good.yaml").write_text(
        "game: animal-battle\nset: {code: GUD, name: Good}\ncards:\n"
        '- {number: "1", name: Good Beast, kind: animal, stats: {weight: 5, speed: 10, '
        "lifespan: 3, population: 900, length: 0.4, max_depth: 0}}\n")
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Good Beast\n")

    def deckcli(*args):  # (exit code, stdout, stderr); as a user the kernel checks permissions for
        if kind == "unreadable file":
            proc = run_unprivileged(*args, timeout=SECONDS)
            return proc.returncode, proc.stdout, proc.stderr
        with time_limit(SECONDS):
            r = run(*args)
        return r.code, r.out, r.err

    assert deckcli("--db", db, "cards", "show", "Good Beast")[0] == 0  # an index built
    bad = db / "bad.yaml"
    if where != "a new file":  # the last index is patched when the file list is the same
        bad = db / "good.yaml"
        bad.unlink()
    make(bad)
    commands = {("db", "check", "--db", db): 1, ("db", "build", "--db", db): 2,
                ("--db", db, "cards", "show", "Good Beast"): 2,
                ("--db", db, "validate", deck): 2}
    for args, code in commands.items():
        found = deckcli(*args)
        text = found[1] + found[2]
        assert found[0] == code, (args, found)
        assert "Traceback" not in text and "internal error" not in text, (args, found)
        assert f"{bad}" in text and f"cannot read: {why}" in text, (args, found)
        assert code == 1 or "db check" in found[2], (args, found)  # where to see them all


def test_a_set_file_linked_from_outside_the_db_folder_is_not_read(tmp_path):
    """Issue 38, 2, for the card database's walk: a set file in a --db folder that is a
    symbolic link to a file outside it (and every --allow-read folder) is a db-unreadable
    problem naming the link (DB-1.1), never read: its cards' names are not shown (they were:
    the link was read as any set file)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "set.yaml").write_text(
        f"game: animal-battle\nset: {{code: SEC, name: Secret}}\ncards:\n"
        f'- {{number: "1", name: {SECRET}, kind: animal, stats: {{weight: 5, speed: 10, '
        "lifespan: 3, population: 900, length: 0.4, max_depth: 0}}\n")
    db = tmp_path / "db"
    db.mkdir()
    (db / "linked.yaml").symlink_to(outside / "set.yaml")
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Walrus\n")
    for args, code in {("db", "check", "--db", db): 1, ("db", "build", "--db", db): 2,
                       ("--db", db, "cards", "list", "--set", "SEC"): 2,
                       ("--db", db, "validate", deck): 2}.items():
        r = run(*args)
        assert r.code == code, (args, r)
        assert SECRET not in r.out + r.err, (args, r)
        assert f"{db / 'linked.yaml'}" in r.out + r.err, (args, r)
        assert "symbolic link to a file outside the card database folder" in r.out + r.err
    r = run("--allow-read", outside, "--db", db, "cards", "list", "--set", "SEC")
    assert r.code == 0 and SECRET in r.out, r


@pytest.mark.parametrize("closed", ["a sub-folder", "the --db folder itself"])
def test_a_db_folder_that_cannot_be_listed_is_an_error_naming_it(tmp_path, closed):
    """A folder of set files the user may not list was passed over in silence: 'db check'
    said 'no problems' and its cards were unknown cards. As a folder walk of decks does
    (DL-1.4), every command names it: db check exits 1, the others exit 2."""
    db = tmp_path / "db"
    (db / "promos").mkdir(parents=True)
    (db / "promos" / "spring.yaml").write_text(
        "game: animal-battle\nset: {code: SPR, name: Spring}\ncards:\n"
        '- {number: "P1", name: Walrus, version_of: "12", variants: [promotional]}\n')
    assert run_unprivileged("--db", db, "cards", "show", "Walrus (SPR) P1").returncode == 0
    folder = db / "promos" if closed == "a sub-folder" else db
    folder.chmod(0)
    try:
        for args, code in ((("db", "check", "--db", db), 1),
                           (("--db", db, "cards", "show", "Walrus"), 2)):
            proc = run_unprivileged(*args, timeout=SECONDS)
            text = proc.stdout + proc.stderr
            assert proc.returncode == code, proc
            assert "Traceback" not in text and "internal error" not in text, proc
            assert f"{folder}: " in text and "cannot read this folder: permission denied; " \
                "the set files in it are not read" in text, proc
    finally:
        folder.chmod(0o755)


def test_a_huge_file_in_a_db_folder_is_refused_before_it_is_read(tmp_path):
    """A set file is read whole, and was read whatever its size: a 2 GiB file (here a sparse
    one) ended in 'internal error: MemoryError' in a process of 1 GiB, and a 200 MB file of
    comments took 6 s and 830 MB. Past 16 MiB (a set file of 10,000 printings is about
    1.3 MB) it is a db-too-large problem, found from its size alone."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    db = tmp_path / "db"
    db.mkdir()
    with open(db / "huge.yaml", "wb") as fh:
        fh.truncate(2 << 30)
    for args, code in ((("db", "check", "--db", db), 1),
                       (("--db", db, "cards", "show", "Walrus"), 2)):
        proc = subprocess.run([sys.executable, "-m", "deckcli", *map(str, args)],
                              capture_output=True, text=True, timeout=SECONDS,
                              preexec_fn=limit)
        assert proc.returncode == code, proc
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc
        assert f"{db}/huge.yaml" in proc.stdout + proc.stderr, proc
        assert "file is 2,048 MiB, larger than the 16 MiB a set file may hold" in \
            proc.stdout + proc.stderr, proc



def test_a_set_file_past_the_limit_is_not_read_at_all(tmp_path, monkeypatch):
    """db-too-large is found from the file's size: none of its bytes is read (a 2 GiB file
    was read to 16 MiB + 1 byte, each time a run looked at it, before it was refused)."""
    from deckcli.cards import sources

    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as fh:
        fh.truncate(2 << 30)
    read = []
    real_read = os.read

    def counting_read(fd, n):
        data = real_read(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(sources.os, "read", counting_read)
    with pytest.raises(sources.UnreadableSource) as caught:
        sources.read_source(str(huge))
    assert caught.value.code == "db-too-large", caught.value.message
    assert "file is 2,048 MiB, larger than the 16 MiB" in caught.value.message
    assert sum(read) == 0, read


def test_a_set_file_just_past_the_limit_says_by_how_much(tmp_path):
    """One byte past 16 MiB is not '16 MiB, larger than the 16 MiB': the size is in bytes."""
    db = tmp_path / "db"
    db.mkdir()
    with open(db / "big.yaml", "wb") as fh:
        fh.truncate((16 << 20) + 1)
    r = run("db", "check", "--db", db)
    assert r.code == 1, r
    assert "big.yaml: error: file is 16,777,217 bytes, larger than the 16 MiB a set file may " \
        "hold [db-too-large, rule DB-1.1]" in r.out, r
    with open(db / "big.yaml", "wb") as fh:
        fh.truncate(16 << 20)  # the limit itself is allowed (and read: this one is no YAML)
    assert "db-too-large" not in run("db", "check", "--db", db).out

def test_a_folder_named_like_a_set_file_is_a_folder(tmp_path):
    """Not a file to read, nor a problem: the set files in it join the database."""
    inner = tmp_path / "db" / "promos.yaml"
    inner.mkdir(parents=True)
    (inner / "spring.yaml").write_text(
        "game: animal-battle\nset: {code: SPR, name: Spring}\ncards:\n"
        '- {number: "P1", name: Walrus, version_of: "12", variants: [promotional]}\n')
    r = run("db", "check", "--db", tmp_path / "db")
    assert r.code == 0 and "no problems" in r.out, r
    r = run("--db", tmp_path / "db", "cards", "show", "Walrus (SPR) P1")
    assert r.code == 0, r


# -- folder walks that cannot read everything ----------------------------------------------------
WALKS = ("unreadable-folder", "unreadable-file", "fifo-named-like-a-deck", "too-deep")


@pytest.fixture
def walks(tmp_path):
    made = make_walks(tmp_path)
    yield made
    open_walks(made)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", WALKS)
def test_a_folder_walk_reports_what_it_cannot_read(walks, kind, jobs):
    """Issue 24, 4: a sub-folder a normal user cannot list, a deck file they cannot open, a
    FIFO named like a deck, a folder whose path is too long for the system: each is a problem
    on the report (DL-1.4, exit 1) beside the decks that were read, never a silent pass (the
    run said "1 deck(s): 1 legal") and never a hang. Run as a process the kernel checks
    permissions for (tests run as root here)."""
    import json

    top, inner = walks[kind]
    proc = run_unprivileged("validate", top, "-O", "json", "--jobs", jobs, timeout=SECONDS)
    assert proc.returncode == 1, proc
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc
    report = json.loads(proc.stdout)
    assert report["summary"] == {"decks": 2, "legal": 1, "illegal": 1}, report
    good, bad = sorted(report["decks"], key=lambda d: not d["legal"])
    assert good["path"] == str(top / "good.txt") and good["legal"], report
    assert bad["path"].startswith(str(top / inner)), report
    [problem] = bad["problems"]
    assert (problem["code"], problem["rule"], problem["severity"]) == \
        ("unreadable", "DL-1.4", "error"), problem
    assert {"unreadable-folder": "cannot read this folder: Permission denied; the decks in it "
                                 "are not checked",
            "unreadable-file": "cannot be read: permission denied",
            "fifo-named-like-a-deck": "cannot be read: not a regular file",
            "too-deep": "cannot read this folder: its path is too long for this system ("}[
        kind] in problem["message"], problem
    text = run_unprivileged("validate", top, "--jobs", jobs, timeout=SECONDS)
    assert text.returncode == 1 and "2 deck(s): 1 legal, 1 illegal" in text.stdout, text
    fmt = run_unprivileged("fmt", top, timeout=SECONDS)
    assert fmt.returncode == 1 and "1 could not be formatted" in fmt.stderr, fmt
    assert f"{bad['path']}: error: " in fmt.stderr and "[unreadable, rule DL-1.4]" in fmt.stderr


def test_a_named_file_that_cannot_be_read_still_stops_the_command(walks):
    """A path given on the command line that cannot be read is the command's failure (exit
    2, docs/commands.md), as before: only what a walk finds becomes a problem on the report."""
    top, inner = walks["unreadable-file"]
    proc = run_unprivileged("validate", top / inner, timeout=SECONDS)
    assert proc.returncode == 2 and "hidden.txt: permission denied" in proc.stderr, proc
    proc = run_unprivileged("validate", top / "sub-that-is-not-there", timeout=SECONDS)
    assert proc.returncode == 2, proc


# -- file names that are not valid UTF-8 or hold control characters -----------------------------
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                 "\ud800-\udfff]")  # C0 (but tab, LF), DEL, C1, bidi controls, lone surrogates


@pytest.mark.parametrize("output", ["text", "json", "github", "junit", "sarif"])
def test_hostile_file_names_are_escaped_in_every_format(tmp_path, output):
    """Issue 24, 7: names a folder walk finds with bytes that are not UTF-8, terminal escapes,
    C1 controls, bidi overrides, line breaks: every output format is valid UTF-8 with none of
    them raw, shows each name through the one escaping function (visible_name), and JSON,
    SARIF and JUnit still parse."""
    import json
    import xml.etree.ElementTree as ET

    from deckcli.diagnostics import visible_name

    folder = make_names(tmp_path / "names")
    r = run("validate", folder, "-O", output)
    assert r.code == 1, r
    r.out.encode("utf-8")  # strict: a lone surrogate (a raw non-UTF-8 byte) would fail here
    assert not RAW.search(r.out), RAW.search(r.out)
    for raw, shown in HOSTILE_NAMES.items():
        assert visible_name(os.fsdecode(raw)) == shown
        where = f"{folder}/{shown}"
        if output == "json":
            assert where in [d["path"] for d in json.loads(r.out)["decks"]]
        elif output == "junit":
            assert where in [c.get("name") for c in ET.fromstring(r.out).iter("testcase")]
        elif output == "github":
            assert f"::error file={where.replace(':', '%3A')},line" in r.out or \
                   f"::error file={where.replace(':', '%3A')},title" in r.out
        elif output == "text":
            assert f"{where}: error: " in r.out
    if output == "sarif":  # names are URIs there: percent-encoded, the real bytes
        from urllib.parse import quote

        uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for res in json.loads(r.out)["runs"][0]["results"]}
        for raw in HOSTILE_NAMES:
            assert quote(os.fsencode(folder) + b"/" + raw, safe="/@!$&'()*+,;=-._~") in uris


def test_a_report_of_hostile_names_is_valid_utf8_bytes(tmp_path):
    """The bytes a real process writes, JSON to stdout and to --output-file alike."""
    folder = make_names(tmp_path / "names")
    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(folder), "-O",
                           "json", "--output-file", str(out)], capture_output=True, timeout=60)
    assert proc.returncode == 1, proc
    for data in (proc.stdout, proc.stderr, out.read_bytes()):
        data.decode("utf-8")
        assert not RAW.search(data.decode("utf-8")), data
    proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(folder), "-O",
                           "json"], capture_output=True, timeout=60)
    assert proc.stdout == out.read_bytes()


@pytest.mark.parametrize("output", ["text", "json", "csv", "html"])
def test_simulate_and_build_escape_hostile_deck_names(tmp_path, output):
    """Issue 24, 7: simulate's report and matchup matrix, and build's opponents, name decks a
    folder walk found through the same escaping function: never a raw byte that is not UTF-8
    or a raw control character (simulate wrote both, in text and JSON alike)."""
    import json

    from deckcli.diagnostics import visible_name

    folder = make_names(tmp_path / "names", deck=(EXAMPLES / "good" / "casual-risky.txt")
                        .read_bytes())
    args = ["simulate", folder, "--games", "2", "--jobs", "1", "--seed", "1"]
    out = tmp_path / f"matrix.{output}"
    if output in ("csv", "html"):
        r = run(*args, f"--{output}", out)
        assert r.code == 0, r
        text = out.read_bytes().decode("utf-8")  # strict: no lone surrogate got in
    else:
        r = run(*args, "-O", output)
        assert r.code == 0, r
        text = r.out
        text.encode("utf-8")
    assert not RAW.search(text), RAW.search(text)
    shown = [visible_name(os.fsdecode(raw)) for raw in HOSTILE_NAMES]
    if output == "json":
        paths = {d["path"] for d in json.loads(text)["decks"]}
        assert paths == {f"{folder}/{name}" for name in shown}, paths
    else:
        for name in shown:
            assert name[:10] in text, (name, text)
    if output == "text":  # build's report names its opponents alike
        r = run("build", "--collection", EXAMPLES / "good" / "casual-risky.txt", "--against",
                folder, "--games", "20", "--measure", "4", "--seed", "1", "--policy", "random")
        assert r.code == 0, r  # stdout is no terminal here: the report is on stderr
        r.err.encode("utf-8")
        assert not RAW.search(r.err), RAW.search(r.err)
        for name in shown:
            assert f"  {folder}/{name}: " in r.err, (name, r.err)


def test_roster_names_with_control_characters_are_escaped_in_diff_and_export(tmp_path):
    """A roster comes in a pull request: a player name with a line break or a bidi override
    must not forge a line of a judge's deck check, or reach a published list as it stands."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "played").mkdir()
    for folder in ("decks", "played"):
        shutil.copy(EXAMPLES / "event" / "decks" / "alice.txt", tmp_path / folder / "a.txt")
    event = tmp_path / "event.yaml"
    event.write_text('name: E\nplayers:\n  "x\\ny: same cards": decks/gone.txt\n'
                     '  "bo\\u202eb\\e[31m": decks/a.txt\n', encoding="utf-8")
    r = run("diff", "--event", event, "--played", tmp_path / "played")
    assert r.code == 1 and not RAW.search(r.out), r
    assert [line.split(":")[0] for line in r.out.splitlines()[:2]] == [
        "x\\x0ay", "bo\\u202eb\\x1b[31m"], r
    for args in (["diff", "--event", event, "--played", tmp_path / "played", "-O", "json"],
                 ["export", "--event", event, "--to", "json"],
                 ["export", "--event", event, "--to", "csv"],
                 ["export", "--event", event, "--to", "html"]):
        r = run(*args)
        assert r.code == 1 and not RAW.search(r.out) and "\\u001b" not in r.out, (args, r)


#: a file name that, printed raw, would start a line of its own, colour the terminal and run
#: the rest of the line right to left
FORGING = "deck\nwrote elsewhere\x1b[31m\u202e"


def _writers_status(tmp: Path) -> dict:
    """Each command that writes a file (or folder), writing one named with FORGING."""
    name = tmp / FORGING
    db = animals_db(tmp / f"db{FORGING}", ["Zorilla"])
    return {
        "build -o": ["build", "--collection", EXAMPLES / "good" / "casual-risky.txt",
                     "--games", "20", "--measure", "4", "--jobs", "1", "--seed", "1",
                     "--policy", "random", "-o", f"{name}.txt"],
        "simulate --csv": ["simulate", *MATRIX, "--games", "2", "--jobs", "1", "--csv",
                           f"{name}.csv"],
        "sheet -o": ["sheet", DECK, "-o", f"{name}.html"],
        "report -o": ["report", EVENT, "-o", f"{name}.report.html"],
        "export -o": ["export", "--event", EVENT, "--to", "csv", "-o", f"{name}.export.csv"],
        "convert -o": ["convert", DECK, "--to", "json", "-o", f"{name}.json"],
        "new": ["new", f"{name}.new.txt"],
        "add": ["add", f"{name}.new.txt", "Orca"],
        "remove": ["remove", f"{name}.new.txt", "Orca"],
        "db build": ["db", "build", "--db", db],
    }


def test_status_lines_of_every_writer_show_file_names_escaped(tmp_path):
    """'wrote PATH', 'created PATH', an edit's 'PATH: added ...' and db build's 'source: DIR'
    show a name as every report does (visible_name): a line break, a terminal escape or a
    right-to-left override in it would forge or hide a line of output (they were printed raw,
    but by fmt and convert)."""
    from deckcli.diagnostics import visible_name

    shown = visible_name(FORGING)
    for what, args in _writers_status(tmp_path).items():
        r = run(*args)
        assert r.code in (0, 1), (what, r)
        assert not RAW.search(r.err + r.out), (what, r)
        assert shown in r.err + r.out, (what, r)


def test_warnings_and_notes_naming_a_file_show_it_escaped(tmp_path):
    """A warning or note on stderr that names a file (an illegal deck simulated anyway, a
    collection that makes no deck, a deck diff cannot read, validate's note on a roster not
    checked) shows it through visible_name too (they were printed raw)."""
    from deckcli.diagnostics import visible_name

    illegal = tmp_path / f"{FORGING}.txt"
    illegal.write_bytes((EXAMPLES / "bad" / "casual-19.txt").read_bytes())
    unreadable = tmp_path / f"{FORGING}.bad.txt"
    unreadable.write_text("four Walrus\n")
    event = tmp_path / f"{FORGING}.event.yaml"
    event.write_text("name: E\nplayers: {alice: decks/alice.txt}\n")
    for named, args in ((illegal, ["simulate", illegal, MATRIX[0], "--games", "2"]),
                        (illegal, ["build", "--collection", illegal]),
                        (unreadable, ["diff", unreadable, MATRIX[0]]),
                        (event, ["validate", "--event", event, MATRIX[0]])):
        r = run(*args, *(["--jobs", "1"] if args[0] == "simulate" else []))
        assert not RAW.search(r.err), (args, r)
        assert visible_name(str(named)) in r.err, (args, r)


# -- paths in event files and game logs ---------------------------------------------------------
@pytest.fixture
def escapes(tmp_path):
    return make_escapes(tmp_path)


def _roster_commands(event: Path, tmp: Path) -> dict:
    return {"validate": ("validate", "--event", event, "-O", "json"),
            "report": ("report", event, "-o", tmp / "report.html"),
            "sheet": ("sheet", "--event", event, "-o", tmp / "sheet.html"),
            "export": ("export", "--event", event, "--to", "json"),
            "diff": ("diff", "--event", event, "--played", event.parent)}


@pytest.mark.parametrize("way", ["climbs-out", "absolute", "symlink-out"])
def test_a_path_out_of_its_folder_is_refused_in_every_command(escapes, way, tmp_path):
    """Issue 24, 2: a roster path or a game log's deck path that is absolute, climbs out with
    ../ or goes through a symlink out of the file's folder is refused (EV-3.2, exit 2, on its
    line), and nothing of the file it names reaches any output (every line of it came back
    quoted in a "not a card entry" message)."""
    line = {"event": 6, "ab": 4, "aw": 4}
    for name, args in _roster_commands(escapes[way], tmp_path).items():
        r = run(*args)
        assert r.code == 2, (name, r)
        assert f"{escapes[way]}:{line['event']}: deck path " in r.err, (name, r)
        assert "[rule EV-3.2]" in r.err and "deckcli --allow-read DIR" in r.err, (name, r)
        assert SECRET not in r.out + r.err and "password" not in r.out + r.err, (name, r)
        assert not list(tmp_path.glob("*.html")), name
    for game in ("ab", "aw"):
        log = escapes["event"] / f"{way}-{game}-log.yaml"
        for verb in ("check", "legal"):
            r = run("referee", verb, log)
            assert r.code == 2, (game, verb, r)
            assert "EV-3.2" in r.err and f"{log}:{line[game]}" in r.err, (game, verb, r)
            assert SECRET not in r.out + r.err, (game, verb, r)


def test_a_nul_byte_in_a_deck_path_is_refused_on_its_line_in_every_command(tmp_path):
    """No file can have such a name, and the system refuses to look one up: an error on the
    line (EV-3.2, exit 2), never an internal error."""
    (tmp_path / "a.txt").write_text("4 Walrus\n", encoding="utf-8")
    event = tmp_path / "event.yaml"
    event.write_text('name: E\nplayers:\n  ann: a.txt\n  bob: "a.txt\\0"\n', encoding="utf-8")
    for name, args in _roster_commands(event, tmp_path).items():
        r = run(*args)
        assert r.code == 2 and f"{event}:4: deck path 'a.txt\\x00' holds a NUL byte" in r.err, \
            (name, r)
        assert "internal error" not in r.err, (name, r)
    log = tmp_path / "log.yaml"
    log.write_text('game: animal-battle\nsetup:\n  first: p1\n  players:\n'
                   '    p1: {deck: "a.txt\\0"}\n    p2: {deck: a.txt}\nactions: []\n',
                   encoding="utf-8")
    for verb in ("check", "legal"):
        r = run("referee", verb, log)
        assert r.code == 2 and f"{log}:5: " in r.err and "holds a NUL byte" in r.err, (verb, r)


@pytest.mark.parametrize("value,shown", [("~", "null"), ("true", "true/false"),
                                         ("{a: 1}", "a mapping"), ('""', "empty"),
                                         ("[[[]]]", "a list")])
def test_a_shared_deck_that_is_not_a_path_is_an_error_on_its_line(tmp_path, value, shown):
    log = tmp_path / "g.yaml"
    text = (EXAMPLES / "games" / "aw-dealt.yaml").read_text(encoding="utf-8")
    log.write_text(text.replace("deck: decks/alpha-walrus-2p.yaml", f"deck: {value}"),
                   encoding="utf-8")
    r = run("referee", "check", log)
    assert r.code == 2, r
    assert f"{log}:5: deck: should be the path of the shared deck's file, not {shown}" in r.err


def test_allow_read_lets_a_path_lead_into_the_folder_named(escapes):
    """deckcli --allow-read DIR: the user says a roster may lead there (a real deck there is
    read then); without it the same roster is refused."""
    event = escapes["allowed-climb"]
    assert run("validate", "--event", event).code == 2
    r = run("--allow-read", escapes["secret"], "validate", "--event", event, "-O", "json")
    assert r.code == 1, r  # the folders' other files are unlisted decks, not legal ones
    decks = {d["player"]: d for d in r.json()["decks"] if d["player"]}
    assert decks["mallory"]["legal"] and decks["alice"]["legal"], decks
    assert decks["mallory"]["path"] == str(escapes["secret"] / "good.txt"), decks
    log = escapes["event"] / "allowed-climb-ab-log.yaml"
    assert run("referee", "check", log).code == 2
    assert run("--allow-read", escapes["secret"], "referee", "check", log).code == 0


def test_a_file_in_the_folder_that_is_not_a_decklist_is_not_quoted(escapes, tmp_path):
    """A roster path or log deck inside the folder that names a file none of whose lines is a
    card entry (a .git/config: a CI token) is reported as not a decklist, without its lines,
    in every output (validate, report, sheet, export, referee check)."""
    event = escapes["inside"]
    inside = escapes["event"] / "inside.txt"
    r = run("validate", "--event", event, "-O", "json")
    assert r.code == 1, r
    [mallory] = [d for d in r.json()["decks"] if d["player"] == "mallory"]
    [problem] = [p for p in mallory["problems"] if p["line"] is not None]
    assert (problem["code"], problem["rule"], problem["line"]) == ("not-a-decklist", "EV-3.2", 1)
    for name, args in _roster_commands(event, tmp_path).items():
        r = run(*args)
        assert "Traceback" not in r.err and "internal error" not in r.err, (name, r)
        shown = r.out + r.err + "".join(p.read_text() for p in tmp_path.glob("*.html"))
        assert SECRET not in shown and "extraheader" not in shown, (name, r)
    for game in ("ab", "aw"):
        r = run("referee", "check", escapes["event"] / f"inside-{game}-log.yaml")
        assert r.code == 2 and f"{inside} is not a decklist" in r.err, (game, r)
        assert SECRET not in r.out + r.err, (game, r)
    r = run("validate", inside)  # named on the command line, by the user: shown in full
    assert r.code == 1 and SECRET in r.out, r


def test_diff_of_an_event_does_not_quote_a_roster_file_that_is_not_a_decklist(tmp_path):
    """Issue 38, 3: ``diff --event E --played DIR`` with ``mallory: .env`` in the roster printed
    the token on the .env's first line in its text and in JSON's ``problem`` ("cannot be read
    as a deck (line 1: 'GITHUB_TOKEN=...' is not a card entry ...)"), where ``validate
    --event`` says only that the file is not a decklist. Now both say that, alike."""
    good = (EXAMPLES / "event" / "decks" / "alice.txt").read_bytes()
    (tmp_path / "alice.txt").write_bytes(good)
    (tmp_path / ".env").write_text(f"GITHUB_TOKEN={SECRET}\nAWS_KEY={SECRET}\n")
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nplayers:\n  alice: alice.txt\n  mallory: .env\n")
    played = tmp_path / "played"
    played.mkdir()
    (played / "alice.txt").write_bytes(good)
    (played / "mallory.txt").write_bytes(good)
    text = run("diff", "--event", event, "--played", played)
    assert text.code == 1 and SECRET not in text.out + text.err, text
    assert f"mallory: MISSING: the registered deck {tmp_path / '.env'} is not a decklist: no " \
           "line of it is a card entry, so its lines are not shown" in text.out, text
    js = run("diff", "--event", event, "--played", played, "-O", "json")
    assert js.code == 1 and SECRET not in js.out + js.err, js
    [mallory] = [p for p in js.json()["players"] if p["player"] == "mallory"]
    assert "is not a decklist" in mallory["problem"], mallory
    r = run("validate", "--event", event, "-O", "json")
    [deck] = [d for d in r.json()["decks"] if d["player"] == "mallory"]
    assert [p["code"] for p in deck["problems"] if p["line"]] == ["not-a-decklist"], deck


# -- symbolic links out of the folder a walk or an event's scan reads ----------------------------
@pytest.fixture
def links(tmp_path):
    return make_links(tmp_path / "links")


def _refused_links(r, links) -> None:
    """Each link named, as refused, and nothing of the file behind it shown."""
    assert SECRET not in r.out + r.err and "password" not in r.out + r.err, r
    assert "Traceback" not in r.err and "internal error" not in r.err, r
    for link in links:
        assert str(link) in r.out + r.err, (link, r)


@pytest.mark.parametrize("output", ["text", "json", "github", "junit", "sarif"])
def test_an_events_scan_for_unlisted_decks_never_opens_a_link_out_of_its_folder(links, output):
    """Issue 38, 1: a deck folder of the roster holding ``notes.txt -> ../../outside/creds.txt``
    (or a link by absolute path) was read as an unlisted deck, and its lines came back quoted
    ("'password=...' is not a card entry") in every output format. The scan refuses such a
    link before anything is opened (EV-3.2): a problem naming the link, nothing quoted."""
    r = run("validate", "--event", links["event"], "-O", output)
    assert r.code == 1, r
    _refused_links(r, links["event_links"])
    if output == "json":
        decks = {d["path"]: d for d in r.json()["decks"]}
        for link in links["event_links"]:
            deck = decks[str(link)]
            assert not deck["legal"] and deck["card_count"] == 0, deck
            assert [(p["code"], p["rule"], p["line"]) for p in deck["problems"]
                    if p["severity"] == "error"] == [("link-outside", "EV-3.2", None)], deck
        assert decks[str(links["event"].parent / "decks" / "alice.txt")]["legal"], decks
    if output == "github":
        assert f"::error file={links['event_links'][0]},title=link-outside (EV-3.2)::" in r.out


def test_report_sheet_and_export_never_open_a_link_out_of_the_events_folder(links):
    """The same scan feeds the event's HTML report and sheets: the link is a deck that was not
    read, never a page of the outside file's lines."""
    event = links["event"]
    for args in (("report", event, "-o", "-"), ("sheet", "--event", event, "-o", "-")):
        r = run(*args)
        assert r.code == 0, (args, r)
        _refused_links(r, links["event_links"])
        assert "link-outside" in r.out, (args, r)
    for to in ("json", "csv", "html"):
        r = run("export", "--event", event, "--to", to)
        assert r.code == 0 and SECRET not in r.out + r.err, (to, r)


def test_allow_read_lets_an_events_scan_follow_a_link_into_the_folder_named(links):
    """deckcli --allow-read DIR: a link into DIR is read as any deck beside the roster's."""
    r = run("--allow-read", links["outside"], "validate", "--event", links["event"], "-O", "json")
    assert r.code == 1, r
    decks = {d["path"]: d for d in r.json()["decks"]}
    for link in links["event_links"]:
        assert decks[str(link)]["card_count"] == 4, decks[str(link)]
        assert "link-outside" not in {p["code"] for p in decks[str(link)]["problems"]}


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("output", ["text", "json", "github", "junit", "sarif"])
def test_a_folder_walk_never_follows_a_link_out_of_the_folder(links, output, jobs):
    """Issue 38, 2: ``validate decks -O github`` over a pull request that adds ``decks/leak.txt
    -> ../outside/x`` read the file behind the link and quoted its lines into the CI log. A
    walk refuses a file link that leaves the folder walked (DL-1.4): a problem naming the
    link, nothing quoted; a link inside the folder is read as before."""
    r = run("validate", links["decks"], "-O", output, "--jobs", jobs)
    assert r.code == 1, r
    _refused_links(r, links["links"])
    if output == "json":
        decks = {d["path"]: d for d in r.json()["decks"]}
        for link in links["links"]:
            assert [(p["code"], p["rule"], p["severity"]) for p in decks[str(link)]["problems"]] \
                == [("link-outside", "DL-1.4", "error")], decks[str(link)]
        assert decks[str(links["decks"] / "inside.txt")]["legal"], decks
        assert r.json()["summary"] == {"decks": 4, "legal": 2, "illegal": 2}, r


def test_every_command_that_walks_a_folder_refuses_a_link_out_of_it(links, tmp_path):
    """fmt, sheet, simulate, build and suggest --against and diff --played walk folders with
    the same walk: none of them reads the file behind a link out of the folder. A command
    that reports deck by deck reports the link (exit 1; sheet writes its page, exit 0); one
    that plays or compares the decks stops, naming it (exit 2)."""
    decks, good = links["decks"], links["decks"] / "good.txt"
    before = (links["outside"] / "creds.txt").read_bytes()
    against = ("--games", "20", "--measure", "4", "--jobs", "1", "--seed", "1")
    cases = {
        "fmt": (("fmt", decks), 1),
        "fmt --check": (("fmt", "--check", decks), 1),
        "sheet": (("sheet", decks, "-o", "-"), 0),
        "simulate": (("simulate", decks, "--games", "2", "--jobs", "1"), 2),
        "build --against": (("build", "--collection", good, "--against", decks, *against), 2),
        "suggest --against": (("suggest", good, "--collection", good, "--against", decks,
                               *against), 2),
        "diff --played": (("diff", "--event", links["event"], "--played", decks), 2),
    }
    for what, (args, code) in cases.items():
        r = run(*args)
        assert r.code == code, (what, r)
        shown = links["links"] if code != 2 else sorted(links["links"])[:1]  # the first found
        _refused_links(r, shown)
        assert (links["outside"] / "creds.txt").read_bytes() == before, what
    r = run("--allow-read", links["outside"], "fmt", "--check", decks)
    assert "link-outside" not in r.err, r


# -- small inputs that cost a great deal --------------------------------------------------------
def _limited(args, seconds: float, cwd=None):
    """``python -m deckcli ARGS`` in a process limited to 1 GiB of address space and to
    ``seconds`` of CPU time (a run past it is killed by SIGXCPU and fails the test, however
    loaded the machine is): (CompletedProcess, None). The cases it guards were quadratic, many
    times over the limit; the speed itself is measured by benchmarks/, not here."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds)))

    proc = subprocess.run([sys.executable, "-m", "deckcli", *map(str, args)], capture_output=True,
                          text=True, preexec_fn=limit, cwd=cwd)
    return proc, None


@pytest.mark.parametrize("name", ["one-letter-lines.txt", "bad-count-rows.csv"])
def test_the_same_problem_on_many_lines_is_reported_a_bounded_number_of_times(tmp_path, name):
    """Issue 24, 8: 520,000 one-letter lines (1 MiB) gave 100 MB of JSON and took 10 s: each
    code is shown on its first 10 lines, then once more as "and N more lines like it"; the
    report is a few KB in every format, and the run costs what reading the file costs."""
    path = make_costly(tmp_path)[name]
    lines = COSTLY[name].count(b"\n")
    code = {"one-letter-lines.txt": "no-quantity", "bad-count-rows.csv": "bad-count"}[name]
    first = 1 if name.endswith(".txt") else 2  # the CSV's header is line 1
    for output in ("json", "text", "github", "junit", "sarif"):
        proc, _ = _limited(["validate", path, "-O", output], 10)
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr
        assert len(proc.stdout) < 20_000, (output, len(proc.stdout))
        assert f"and {lines - first + 1 - 10:,} more lines like it (from line {first + 10:,} " \
               f"to {lines:,}" in proc.stdout, (output, proc.stdout[-600:])
    import json

    problems = json.loads(_limited(["validate", path, "-O", "json"], 10)[0].stdout)[
        "decks"][0]["problems"]
    same = [p for p in problems if p["code"] == code]
    assert [p["line"] for p in same] == list(range(first, first + 11)), same


@pytest.mark.parametrize("name", ["blank-lines-first.yaml", "blank-lines-between.yaml"])
def test_fmt_of_a_yaml_deck_of_blank_lines_is_fast_and_stable(tmp_path, name):
    """Issue 24, 8: fmt on a YAML deck of 900,000 blank lines (under 1 MiB) took 12-20 s and,
    with the blank lines first, ended in "internal error: formatting is not stable" (five blank
    lines first did too). Runs of blank lines become one, none first; a second fmt changes
    nothing."""
    path = make_costly(tmp_path)[name]
    proc, _ = _limited(["fmt", path], 10)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr and "1 file reformatted" in proc.stderr, proc
    text = path.read_text()
    assert not text.startswith("\n") and "\n\n\n" not in text, text[:200]
    assert [ln.split("name: ")[1].split(",")[0] for ln in text.splitlines() if "name:" in ln] \
        == (["Walrus"] if "first" in name else ["Orca", "Walrus"]), text
    again, _ = _limited(["fmt", "--check", path], 10)
    assert again.returncode == 0, again.stderr


def test_blank_lines_inside_a_multi_line_value_are_kept(tmp_path):
    """Blank lines that are part of a value (a '|' block, a quoted string over lines) are not
    runs to cut: the value reads back the same."""
    deck = tmp_path / "notes.yaml"
    deck.write_text('\n\n\nname: "Deep\n\n\n  Divers"\nnotes: |\n  one\n\n\n\n  two\n\n\n'
                    'cards:\n  - {count: 4, name: Walrus}\n')
    r = run("fmt", deck)
    assert r.code == 0, r
    from deckcli.yamlio import load_yaml

    data = load_yaml(deck.read_text())
    assert data["name"] == "Deep\n\nDivers" and data["notes"] == "one\n\n\n\ntwo\n", data


_PEAK = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
         "sys.exit(p.returncode)")


@pytest.mark.parametrize("name, comments", [("comment-lines.yaml", 500_000),
                                            ("comment-and-blank-lines.yaml", 80_000)])
def test_fmt_of_a_yaml_deck_of_comment_lines_costs_what_its_size_does(tmp_path, name, comments):
    """Issue 24, 8: fmt on 500,000 comment lines took 16-27 s and 310-430 MB (the round-trip
    parser keeps a token of every line). Runs of comment lines reach it joined into a few long
    lines and are split again as written: every comment is kept, in its place, and a second fmt
    changes nothing."""
    path = make_costly(tmp_path)[name]
    proc = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "deckcli", "fmt",
                           str(path)], capture_output=True, text=True,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (10, 10)))
    assert proc.returncode == 0, proc.stderr  # within 10 s of CPU: killed by SIGXCPU past it
    peak_mb = int(proc.stderr.strip().splitlines()[-1]) / 1024  # ru_maxrss: KiB on Linux
    assert peak_mb < 150, peak_mb
    text = path.read_text()
    assert text.count("#") == comments, text[:300]
    assert text.count("\n\n") <= (comments if "blank" in name else 0)
    if name == "comment-lines.yaml":
        assert text == "#\n" * 500_000 + 'cards:\n  - {count: 4, name: Walrus, set: ABS, ' \
                                          'number: "12"}\n'
    assert run("fmt", "--check", path).code == 0


def test_comments_in_every_place_of_a_yaml_deck_survive_fmt_as_written(tmp_path):
    """The comment lines fmt joins for the parser come back line by line where they were: at the
    top, between header keys, above entries (moved with them), after the list, after later keys,
    in a list item, with odd indents; a '|' block's '#' lines stay its text; a deck holding the
    joining character itself is formatted without joining."""
    deck = tmp_path / "notes.yaml"
    deck.write_text("# a\n#  b\n\n\n# c\nname: X\n  # odd\n# even\nnotes: |\n  # text\n"
                    "  # more text\ncards:  # e\n  # w1\n\n  #w2\n  - {count: 4, name: Walrus}\n"
                    "  # o1\n  # o2\n  - {count: 4, name: Orca}\n# after\n# after 2\n"
                    "player: Y\n# z1\n# z2\n")
    r = run("fmt", deck)
    assert r.code == 0, r
    assert deck.read_text() == (
        "# a\n#  b\n\n# c\nname: X\n  # odd\n# even\nplayer: Y\n# z1\n# z2\ncards:  # e\n"
        "  # o1\n  # o2\n  - {count: 4, name: Orca, set: ABS, number: \"10\"}\n  # w1\n  # w2\n"
        "  - {count: 4, name: Walrus, set: ABS, number: \"12\"}\n# after\n# after 2\nnotes: |\n"
        "  # text\n  # more text\n"), deck.read_text()
    assert run("fmt", "--check", deck).code == 0
    odd = tmp_path / "odd.yaml"
    odd.write_text("# one \U0010fffd two\n# three\ncards:\n  - {count: 4, name: Walrus}\n")
    assert run("fmt", odd).code == 0
    assert odd.read_text().startswith("# one \U0010fffd two\n# three\ncards:\n")


def test_add_to_a_yaml_deck_of_comment_lines_is_fast_and_changes_only_its_entry(tmp_path):
    """Issue 24, 8: `add` on a YAML deck of 500,000 comment lines took 42 s and 490 MB (the
    round-trip parser, twice). Its comment runs reach the parser joined as fmt's do, and come
    back exactly as they were: blank lines, odd indents and trailing spaces included, since an
    edit changes no line but its entry's."""
    path = make_costly(tmp_path)["comment-lines.yaml"]
    proc = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "deckcli", "add",
                           str(path), "Orca"], capture_output=True, text=True,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (10, 10)))
    assert proc.returncode == 0, proc.stderr  # within 10 s of CPU: killed by SIGXCPU past it
    peak_mb = int(proc.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 150, peak_mb
    assert path.read_bytes() == COSTLY["comment-lines.yaml"] + b"  - {count: 1, name: Orca}\n"
    deck = tmp_path / "mixed.yaml"
    head = "# a\n#  b   \n\n\n# c\n\nname: X\n  # odd\n# even\n\n\ncards:  # e\n  # w1\n\n  #w2\n"
    deck.write_text(head + "  - {count: 4, name: Walrus}\n# after\n\n\n# after 2\n")
    assert run("add", deck, "Walrus").code == 0
    assert deck.read_text() == head + "  - {count: 5, name: Walrus}\n# after\n\n\n# after 2\n"
