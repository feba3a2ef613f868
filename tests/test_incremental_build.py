"""A catalogue rebuilt one changed file at a time (deckcli.cards.parts): the same index, the
same problems at the same lines, as a build that parses every file."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time

import pytest
from conftest import run
from test_card_db import STATS, write_set

TABLES = ("meta", "sets", "cards", "printings", "stats", "files")


def _catalogue(folder):
    """Three set files: a set, a second set with versions of the first one's cards, promos."""
    for f, code in enumerate(("INA", "INB", "INC")):
        lines = []
        for i in range(1, 6):
            lines.append(f'- {{number: "{i}", name: Inc Beast {f}{i}, kind: animal, '
                         f"stats: {STATS}, variants: [foil]}}")
        if f:
            lines.append(f'- {{number: "P{f}", name: Inc Beast 01, version_of: "1", '
                         "variants: [promotional]}")
        write_set(folder, f"{code}.yaml", "\n".join(lines) + "\n", code=code,
                  set_name=f"Incremental {code}")
    return folder


def _build(folder, cache, monkeypatch, reuse=True):
    """open_index(rebuild=True) into its own cache folder: the index's rows, table by table,
    and what the build says of itself (index.built: the PartStore it used, whether it patched
    the last index). A card's data is compared as the value it holds: marshal's bytes for
    equal values differ with how often each object is referenced in the process."""
    import marshal

    from deckcli.cards import open_index

    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    index = open_index([str(folder)], rebuild=True, reuse=reuse)
    rows = {t: sorted(index.conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
            for t in TABLES}
    rows["cards"] = [(*r[:8], marshal.loads(r[8]), *r[9:]) for r in rows["cards"]]
    return rows, index.built


def _forget_index(cache):
    """Delete the index files of a cache folder (the compiled parts stay)."""
    for path in cache.glob("index-*"):
        path.unlink()


def test_one_changed_file_makes_the_index_a_full_build_makes(tmp_path, monkeypatch):
    db = _catalogue(tmp_path / "db")
    first, built = _build(db, tmp_path / "kept", monkeypatch)
    files = built.parts.compiled  # the built-in database's files and these three
    assert built.parts.reused == 0 and files >= 4 and not built.patched
    inb = db / "INB.yaml"  # a new card, a changed statistic, a card gone
    inb.write_text(inb.read_text().replace("speed: 10", "speed: 11", 1)
                   .replace("Inc Beast 15", "Inc Beast 15b")
                   + f'- {{number: "9", name: Inc Newcomer, kind: animal, stats: {STATS}}}\n',
                   encoding="utf-8")
    again, built = _build(db, tmp_path / "kept", monkeypatch)
    # INB.yaml alone parsed again, its rows replaced in the last index, the others' kept
    assert built.patched and built.kept == files - 1 and built.parts.compiled == 1
    full, fresh = _build(db, tmp_path / "fresh", monkeypatch, reuse=False)
    assert fresh.parts is None and not fresh.patched
    assert again == full  # every row of every table
    assert again != first
    names = {row[2] for row in again["cards"]}
    assert "Inc Newcomer" in names and "Inc Beast 15b" in names and "Inc Beast 15" not in names
    assert ("Inc Beast 11" in names) and ("Inc Beast 01" in names)
    _forget_index(tmp_path / "kept")  # no last index: every file linked, from kept parts
    linked, built = _build(db, tmp_path / "kept", monkeypatch)
    assert not built.patched and (built.parts.compiled, built.parts.reused) == (0, files)
    assert linked == full


def _append(path, text):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


#: an edit of the catalogue -> whether the last index can be patched (else every file is linked)
EDITS = {
    "a statistic changed": (lambda db: _replace(db / "INB.yaml", "speed: 10", "speed: 12"), True),
    "a card added (the rows after it move)": (lambda db: _append(
        db / "INB.yaml", f'- {{number: "7", name: Inc Added, kind: animal, stats: {STATS}}}\n'),
        True),
    "a card gone (the rows after it move back)": (lambda db: _replace(
        db / "INB.yaml", f'- {{number: "3", name: Inc Beast 13, kind: animal, stats: {STATS}, '
                         "variants: [foil]}\n", ""), True),
    "a card renamed": (lambda db: _replace(db / "INC.yaml", "Inc Beast 24", "Inc Renamed"), True),
    "a version of another file's card added": (lambda db: _append(
        db / "INB.yaml", '- {number: "V2", name: Inc Beast 02, version_of: "2", '
                         "variants: [alternate-art]}\n"), True),
    "a variant added": (lambda db: _replace(db / "INC.yaml", "[promotional]", "[promotional, foil]"),
                        True),
    "the set renamed": (lambda db: _replace(db / "INC.yaml", "Incremental INC", "Renamed INC"),
                        True),
    "two files changed": (lambda db: (_replace(db / "INB.yaml", "speed: 10", "speed: 13"), _append(
        db / "INC.yaml", f'- {{number: "8", name: Inc Eight, kind: animal, stats: {STATS}}}\n')),
        True),
    "a card other files' versions point at changed": (
        lambda db: _replace(db / "INA.yaml", "speed: 10", "speed: 14"), False),
    "a card another file defines too (a reprint)": (  # INA's card 5, the same figures
        lambda db: _replace(db / "INC.yaml", "Inc Beast 25", "Inc Beast 05"), False),
    "a release date changed": (lambda db: _replace(db / "INB.yaml", "2026-01-01", "2025-06-01"),
                               False),
    "a file added": (lambda db: write_set(
        db, "IND.yaml", f'- {{number: "1", name: Inc Fourth, kind: animal, stats: {STATS}}}\n',
        code="IND", set_name="Incremental IND"), False),
    "a file gone": (lambda db: (db / "INC.yaml").unlink(), False),
}


@pytest.mark.parametrize("edit", EDITS)
def test_every_edit_gives_the_index_a_full_build_gives(tmp_path, monkeypatch, edit):
    """Whether the last index is patched (the changed file's rows replaced) or every file is
    linked again, the index is the one a build from nothing makes, row for row; and the edit
    shows (the rows differ from before it)."""
    change, patched = EDITS[edit]
    db = _catalogue(tmp_path / "db")
    before, _ = _build(db, tmp_path / "kept", monkeypatch)
    change(db)
    again, built = _build(db, tmp_path / "kept", monkeypatch)
    assert built.patched is patched
    full, _ = _build(db, tmp_path / "fresh", monkeypatch, reuse=False)
    assert again == full
    assert again != before


def test_a_patched_index_answers_as_a_full_one(tmp_path, monkeypatch):
    """Commands read a patched index as any other: a card added to one file is shown with its
    printings, a card whose rows moved keeps its own."""
    db = _catalogue(tmp_path / "db")
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "kept"))
    assert run("--db", db, "db", "build").code == 0
    EDITS["a card added (the rows after it move)"][0](db)
    build = run("--db", db, "db", "build")
    assert build.code == 0 and "1 parsed" in build.out and "rows kept" in build.out, build
    shown = [run("--db", db, "cards", "show", name, "-O", "json").out
             for name in ("Inc Added", "Inc Beast 21", "Inc Beast 01")]
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "fresh"))
    assert shown == [run("--db", db, "cards", "show", name, "-O", "json").out
                     for name in ("Inc Added", "Inc Beast 21", "Inc Beast 01")]
    assert '"name": "Inc Added"' in shown[0]


def test_answers_and_problems_are_the_same_from_kept_files(tmp_path, monkeypatch):
    # db check reads kept parts too: every problem, file and line as when the file was parsed
    db = _catalogue(tmp_path / "db")
    write_set(db, "BAD.yaml", f"""\
        - {{number: "1", name: Inc Beast 01, kind: animal, stats: {STATS}}}
        - {{number: "2", name: Broken, kind: animal, stats: {{weight: -5}}}}
        - {{number: "3", name: Inc (Bad), kind: animal, stats: {STATS}, variants: [shiny]}}
        """, code="INA", set_name="Another Name")
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "cache"))
    parsed = run("--db", db, "db", "check")
    kept = run("--db", db, "db", "check")
    assert parsed.code == kept.code == 1
    assert kept.out == parsed.out
    assert "INA.yaml:2: error: set INA is named 'Incremental INA' here but 'Another Name' " \
           "at " in kept.out, kept  # a problem across files, found again each time
    assert "BAD.yaml:5: error: Broken 2: weight -5 is outside" in kept.out
    assert "BAD.yaml:6: error: Inc (Bad): variants.0:" in kept.out
    build = run("--db", db, "db", "build")
    full = run("--db", db, "db", "build", "--full")
    assert build.code == full.code == 2 and build.err == full.err and "BAD.yaml" in build.err
    # and a deck check answers the same from an index built of kept files
    os.remove(db / "BAD.yaml")
    kept_build = run("--db", db, "db", "build")
    assert "0 parsed" in kept_build.out, kept_build
    show = run("--db", db, "cards", "show", "Inc Beast 01", "-O", "json")
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "other"))
    fresh = run("--db", db, "cards", "show", "Inc Beast 01", "-O", "json")
    assert show.code == fresh.code == 0 and show.out == fresh.out
    assert {p["set"] for p in show.json()["printings"]} == {"INA", "INB", "INC"}


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "garbage", "fifo"])
def test_a_damaged_part_is_parsed_again(tmp_path, monkeypatch, damage):
    db = _catalogue(tmp_path / "db")
    first, built = _build(db, tmp_path / "kept", monkeypatch)
    folder = tmp_path / "kept" / "parts"
    names = sorted(os.listdir(folder))
    assert len(names) == built.parts.compiled
    _forget_index(tmp_path / "kept")  # so that the next build reads every part
    victim = folder / names[0]
    body = victim.read_bytes()
    if damage == "flip":  # one byte of the marshal data: the CRC catches it
        victim.write_bytes(body[:len(body) // 2] + bytes([body[len(body) // 2] ^ 1])
                           + body[len(body) // 2 + 1:])
    elif damage == "truncate":
        victim.write_bytes(body[:-3])
    elif damage == "empty":
        victim.write_bytes(b"")
    elif damage == "garbage":  # a right CRC over data of the wrong shape
        import marshal
        from zlib import crc32

        junk = marshal.dumps(("not", "a", "part"))
        victim.write_bytes(crc32(junk).to_bytes(4, "big") + junk)
    else:
        victim.unlink()
        os.mkfifo(victim)  # never opened for a blocking read
    again, built = _build(db, tmp_path / "kept", monkeypatch)
    assert built.parts.compiled == 1 and again == first
    if damage != "fifo":
        assert victim.read_bytes() == body  # written again, whole


def test_a_part_kept_by_other_code_is_not_read(tmp_path, monkeypatch):
    # parts are named by the code that compiled them too: a changed deckcli parses again
    import deckcli.cards.parts as parts_module

    db = _catalogue(tmp_path / "db")
    _build(db, tmp_path / "kept", monkeypatch)
    key = parts_module.code_key
    monkeypatch.setattr(parts_module, "code_key", lambda: key() + "\nanother version")
    _rows, built = _build(db, tmp_path / "kept", monkeypatch)
    assert not built.patched  # nor is an index another code built patched
    assert built.parts.reused == 0 and built.parts.compiled >= 4


def test_a_cache_that_cannot_keep_parts_still_builds(tmp_path, monkeypatch):
    # parts/ is a file here: nothing can be kept, every build parses everything, and works
    db = _catalogue(tmp_path / "db")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "parts").write_text("not a folder")
    for _ in range(2):
        _forget_index(tmp_path / "cache")
        rows, built = _build(db, tmp_path / "cache", monkeypatch)
        assert built.parts.reused == 0 and any(r[2] == "Inc Beast 01" for r in rows["cards"])


def test_index_rows_are_plain_sqlite(tmp_path, monkeypatch):
    # the parts change how an index is built, never what it is: its file opens in sqlite3
    db = _catalogue(tmp_path / "db")
    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(tmp_path / "cache"))
    assert run("--db", db, "db", "build").code == 0
    (index,) = [p for p in (tmp_path / "cache").iterdir() if p.suffix == ".sqlite"]
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM printings WHERE set_code='INB'").fetchone()[0] == 6


def test_a_build_gives_the_garbage_collector_back_as_it_was(tmp_path, monkeypatch):
    # a build pauses the cyclic collector while it makes its records, and restores it, also
    # when the build fails
    import gc

    db = _catalogue(tmp_path / "db")
    assert gc.isenabled()
    _build(db, tmp_path / "cache", monkeypatch)
    assert gc.isenabled()
    write_set(db, "BAD.yaml", "- {number: 1, name: Broken, kind: animal, stats: {}}\n",
              code="BAD", set_name="Bad")
    assert run("--db", db, "db", "build").code == 2
    assert gc.isenabled()
    gc.disable()
    try:
        assert run("--db", db, "db", "check").code == 1
        assert not gc.isenabled()  # paused by the caller: left paused
    finally:
        gc.enable()


def test_parts_nobody_used_for_30_days_and_dead_temporary_files_are_deleted(tmp_path,
                                                                            monkeypatch):
    from deckcli.cards.cache import UNUSED_DAYS
    from deckcli.cards.parts import prune

    folder = tmp_path / "parts"
    folder.mkdir()
    old = time.time() - (UNUSED_DAYS + 1) * 86400
    for name, age in (("old.part", old), ("fresh.part", None), (".part-x.tmp", old - 1),
                      (".part-y.tmp", None), ("notes.txt", old)):
        (folder / name).write_bytes(b"x")
        if age is not None:
            os.utime(folder / name, (age, age))
    assert prune(str(folder)) == [".part-x.tmp", "old.part"]
    assert sorted(os.listdir(folder)) == [".part-y.tmp", "fresh.part", "notes.txt"]


def test_a_patched_index_is_patched_again_edit_after_edit(tmp_path, monkeypatch):
    """Edits one after another, each patched into the index the last patch left: after every
    one, the index a build from nothing makes."""
    db = _catalogue(tmp_path / "db")
    _build(db, tmp_path / "kept", monkeypatch)
    for n, (edit, (change, _patched)) in enumerate(
            (e, v) for e, v in EDITS.items() if v[1]):
        change(db)
        again, built = _build(db, tmp_path / "kept", monkeypatch)
        assert built.patched, edit
        full, _ = _build(db, tmp_path / f"fresh{n}", monkeypatch, reuse=False)
        assert again == full, edit


def _opened(folders, cache, monkeypatch):
    """The index's rows as a command finds it (open_index, no forced rebuild: reused when its
    sources are as they were), table by table, as :func:`_build` gives them."""
    import marshal

    from deckcli.cards import open_index

    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    index = open_index([str(f) for f in folders])
    rows = {t: sorted(index.conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
            for t in TABLES}
    rows["cards"] = [(*r[:8], marshal.loads(r[8]), *r[9:]) for r in rows["cards"]]
    return rows


def _move(db, old, new):
    (db / new).parent.mkdir(parents=True, exist_ok=True)
    os.rename(db / old, db / new)


#: a move of set files that keeps every file's bytes: the index must follow it all the same
MOVES = {
    # INB comes after INA.yaml in the order of definitions now: its reprint of Inc Beast 01
    # is the card's first entry, and the card's base set is INB
    "into a sub-folder": (lambda db, other: (
        _replace(db / "INB.yaml", "Inc Beast 11", "Inc Beast 01"),
        _move(db, "INB.yaml", "m/INB.yaml")), lambda db, other: _move(db, "m", "zz")),
    "into another --db folder": (lambda db, other: None,
                                 lambda db, other: _move(db, "INC.yaml", other / "INC.yaml")),
    "renamed": (lambda db, other: None, lambda db, other: _move(db, "INC.yaml", "INX.yaml")),
    # INB.yaml and INC.yaml are of one size; given one time too (as a tarball or 'cp -p'
    # leaves files), renames that swap them change no path, size or modification time
    "two files swapped by renames": (lambda db, other: [
        os.utime(db / f, ns=(1_700_000_000 * 10**9,) * 2) for f in ("INB.yaml", "INC.yaml")],
        lambda db, other: (_move(db, "INB.yaml", "tmp"), _move(db, "INC.yaml", "INB.yaml"),
                           _move(db, "tmp", "INC.yaml"))),
    "a file copied over with its time ('cp -p')": (lambda db, other: _same_time(
        db / "INB.yaml", other / "INB.edited"), lambda db, other: shutil.copy2(
        other / "INB.edited", db / "INB.yaml")),
}


def _same_time(path, edited):
    """An edit of ``path`` of the same size at ``edited`` (not a set file: no .yaml), both
    given one modification time."""
    edited.write_text(path.read_text(encoding="utf-8").replace("speed: 10", "speed: 12", 1),
                      encoding="utf-8")
    for f in (path, edited):
        os.utime(f, ns=(1_700_000_000 * 10**9,) * 2)


@pytest.mark.parametrize("move", MOVES)
def test_a_moved_set_file_gives_the_index_a_full_build_gives(tmp_path, monkeypatch, move):
    """The index records where each file was read (its files table, the place of every card
    and printing, the order of definitions): a file moved with its bytes unchanged was
    found 'the same content' and the index of the old places kept; files swapped or copied
    over each other with their sizes and times as before were not even looked at again."""
    setup, change = MOVES[move]
    db, other = _catalogue(tmp_path / "db"), tmp_path / "other"
    other.mkdir()
    setup(db, other)
    before = _opened([db, other], tmp_path / "kept", monkeypatch)
    change(db, other)
    again = _opened([db, other], tmp_path / "kept", monkeypatch)
    assert again == _opened([db, other], tmp_path / "fresh", monkeypatch)
    assert again != before
