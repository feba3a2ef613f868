"""A catalogue rebuilt one changed file at a time (deckcli.cards.parts): the same index, the
same problems at the same lines, as a build that parses every file."""

from __future__ import annotations

import os
import sqlite3
import time

import pytest
from conftest import run
from test_card_db import STATS, write_set

TABLES = ("meta", "sets", "cards", "printings", "stats")


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
    and the PartStore it used. A card's data is compared as the value it holds: marshal's
    bytes for equal values differ with how often each object is referenced in the process."""
    import marshal

    from deckcli.cards import open_index

    monkeypatch.setenv("DECKCLI_CACHE_DIR", str(cache))
    index = open_index([str(folder)], rebuild=True, reuse=reuse)
    rows = {t: sorted(index.conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
            for t in TABLES}
    rows["cards"] = [(*r[:8], marshal.loads(r[8]), *r[9:]) for r in rows["cards"]]
    return rows, index.built.parts


def test_one_changed_file_makes_the_index_a_full_build_makes(tmp_path, monkeypatch):
    db = _catalogue(tmp_path / "db")
    first, parts = _build(db, tmp_path / "kept", monkeypatch)
    files = parts.compiled  # the built-in database's files and these three
    assert parts.reused == 0 and files >= 4
    inb = db / "INB.yaml"  # a new card, a changed statistic, a card gone
    inb.write_text(inb.read_text().replace("speed: 10", "speed: 11", 1)
                   .replace("Inc Beast 15", "Inc Beast 15b")
                   + f'- {{number: "9", name: Inc Newcomer, kind: animal, stats: {STATS}}}\n',
                   encoding="utf-8")
    again, parts = _build(db, tmp_path / "kept", monkeypatch)
    assert (parts.compiled, parts.reused) == (1, files - 1)  # INB.yaml alone parsed again
    full, none = _build(db, tmp_path / "fresh", monkeypatch, reuse=False)
    assert none is None
    assert again == full  # every row of every table
    assert again != first
    names = {row[2] for row in again["cards"]}
    assert "Inc Newcomer" in names and "Inc Beast 15b" in names and "Inc Beast 15" not in names
    assert ("Inc Beast 11" in names) and ("Inc Beast 01" in names)


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
    first, parts = _build(db, tmp_path / "kept", monkeypatch)
    folder = tmp_path / "kept" / "parts"
    names = sorted(os.listdir(folder))
    assert len(names) == parts.compiled
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
    again, parts = _build(db, tmp_path / "kept", monkeypatch)
    assert parts.compiled == 1 and again == first
    if damage != "fifo":
        assert victim.read_bytes() == body  # written again, whole


def test_a_part_kept_by_other_code_is_not_read(tmp_path, monkeypatch):
    # parts are named by the code that compiled them too: a changed deckcli parses again
    import deckcli.cards.parts as parts_module

    db = _catalogue(tmp_path / "db")
    _build(db, tmp_path / "kept", monkeypatch)
    key = parts_module.code_key
    monkeypatch.setattr(parts_module, "code_key", lambda: key() + "\nanother version")
    _rows, parts = _build(db, tmp_path / "kept", monkeypatch)
    assert parts.reused == 0 and parts.compiled >= 4


def test_a_cache_that_cannot_keep_parts_still_builds(tmp_path, monkeypatch):
    # parts/ is a file here: nothing can be kept, every build parses everything, and works
    db = _catalogue(tmp_path / "db")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "parts").write_text("not a folder")
    for _ in range(2):
        rows, parts = _build(db, tmp_path / "cache", monkeypatch)
        assert parts.reused == 0 and any(r[2] == "Inc Beast 01" for r in rows["cards"])


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
