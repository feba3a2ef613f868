"""Build the large hostile inputs into a folder (the small ones are stored beside this file)."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent


def make(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for p in sorted(HERE.iterdir()):
        if p.is_file() and p.suffix in (".txt", ".yaml", ".json", ".cod", ".dek", ".csv") \
                and p.name != "README.md":
            shutil.copy(p, folder / p.name)
            files[p.name] = folder / p.name

    def put(name: str, data: bytes) -> None:
        (folder / name).write_bytes(data)
        files[name] = folder / name

    put("deep.json", b"[" * 200_000 + b"]" * 200_000)
    put("deep-object.json", b'{"a":' * 200_000 + b"1" + b"}" * 200_000)
    put("deep.yaml", b"cards: " + b"[" * 200_000 + b"]" * 200_000 + b"\n")
    put("long-line.txt", b"4 " + b"W" * (2 << 20) + b"\n")
    put("many-lines.txt", b"".join(b"1 Walrus\n" for _ in range(50_000)))
    put("oversized.txt", b"4 Walrus\n" * 150_000)  # 1.3 MB: over the size limit
    # "\ud800" and "\udc80" escapes: JSON reads them as lone surrogates, no characters
    put("surrogate-card.json", b'{"cards": [{"count": 4, "name": "Walrus"},\n'
                               b' {"count": 4, "name": "\\ud800"}]}\n')
    put("surrogate-header.json", b'{"name": "\\udc80", "player": "\\ud800x",\n'
                                 b' "cards": [{"count": 4, "name": "Walrus"}]}\n')
    put("surrogate-key.json", b'{"cards": [{"count": 4, "name": "Walrus", "\\udfff": 1}]}\n')
    # json keeps the last of two equal keys: this deck would read as an empty one
    put("duplicate-keys.json", b'{"cards": [{"count": 20, "name": "Orca"}],\n "cards": []}\n')
    # XML nested far deeper than any deck, and more elements than a deck has entries
    put("xml-deep.cod", b"<cockatrice_deck>" + b"<zone>" * 100_000 + b"</zone>" * 100_000
        + b"</cockatrice_deck>\n")
    put("xml-many-elements.dek", b"<Deck>\n" + b'<Cards Quantity="1" Name="Walrus"/>\n' * 30_000
        + b"</Deck>\n")
    rng = random.Random(1234)
    put("random-bytes.txt", bytes(rng.randrange(256) for _ in range(4096)))
    put("random-bytes.yaml", bytes(rng.randrange(256) for _ in range(4096)))
    loop = folder / "loop-dir"
    loop.mkdir(exist_ok=True)
    if not (loop / "self").is_symlink():
        os.symlink(loop, loop / "self")
    if not (loop / "cycle.txt").is_symlink():
        os.symlink(loop / "cycle.txt", loop / "cycle.txt")  # a link to itself
    files["loop-dir"] = loop
    sub = folder / "a-directory.txt"
    sub.mkdir(exist_ok=True)
    files["a-directory.txt"] = sub
    return files


def make_targets(folder: Path) -> dict[str, Path]:
    """Places a command might be told to write that it must never replace: each an existing
    path that is not a regular file deckcli may replace. A kind this process cannot make (a
    device node needs root) is left out."""
    import socket
    import stat

    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    fifo = folder / "fifo.txt"
    os.mkfifo(fifo)
    made["fifo"] = fifo
    try:
        os.mknod(folder / "device.txt", stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null
        made["device"] = folder / "device.txt"
    except (PermissionError, AttributeError):
        pass
    here = os.getcwd()
    os.chdir(folder)  # a socket's path is limited to ~100 bytes: bind it by its short name
    try:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind("socket.txt")
        sock.close()
        made["socket"] = folder / "socket.txt"
    finally:
        os.chdir(here)
    (folder / "directory.txt").mkdir()
    made["directory"] = folder / "directory.txt"
    (folder / "link-to-fifo.txt").symlink_to("fifo.txt")  # a link inside the folder
    made["link-to-fifo"] = folder / "link-to-fifo.txt"
    (folder / "link-outside.txt").symlink_to(os.devnull)  # a link out of the folder
    made["link-outside"] = folder / "link-outside.txt"
    ro = folder / "read-only.txt"
    ro.write_text("4 Walrus\n")
    ro.chmod(0o444)
    made["read-only"] = ro
    return made


TARGET_KINDS = ("fifo", "device", "socket", "directory", "link-to-fifo", "link-outside",
                "read-only")


# -- a damaged card index (deckcli/cards/cache.py) ---------------------------------------------
def _zero_page(path: Path, which: str) -> None:
    pages = path.stat().st_size // 4096
    number = {"first": 0, "middle": pages // 2, "last": pages - 1}[which]
    with open(path, "r+b") as fh:
        fh.seek(number * 4096)
        fh.write(b"\0" * 4096)


def _random_bytes(path: Path) -> None:
    rng = random.Random(24)
    with open(path, "r+b") as fh:
        fh.seek(rng.randrange(4096, path.stat().st_size - 256))
        fh.write(bytes(rng.randrange(256) for _ in range(200)))


def _with_sqlite(sql: str):
    def damage(path: Path) -> None:
        import sqlite3

        conn = sqlite3.connect(path)
        conn.executescript(sql)
        conn.close()
    return damage


def _hot_journal(path: Path) -> None:
    """A process killed in the middle of changing the index in place (as older versions
    updated its key): pages written into the file, the rollback journal left beside it."""
    import subprocess
    import sys

    code = ("import os, sqlite3, sys\n"
            "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "conn.execute('PRAGMA cache_size=1')\n"  # changed pages spill into the file
            "conn.execute('BEGIN IMMEDIATE')\n"
            "conn.execute(\"UPDATE meta SET value = 'x' || value WHERE key = 'stat_key'\")\n"
            "conn.execute('DELETE FROM printings')\n"
            "os._exit(9)\n")
    subprocess.run([sys.executable, "-c", code, str(path)], check=False)
    if not Path(f"{path}-journal").exists():
        raise AssertionError("the killed update left no journal")


def _replace_with(make_it):
    def damage(path: Path) -> None:
        path.unlink()
        make_it(path)
    return damage


#: kind of damage -> a function that does it to an index file in place
INDEX_DAMAGE = {
    "zeroed-first-page": lambda p: _zero_page(p, "first"),
    "zeroed-middle-page": lambda p: _zero_page(p, "middle"),
    "zeroed-last-page": lambda p: _zero_page(p, "last"),
    "random-bytes": _random_bytes,
    "dropped-table": _with_sqlite("DROP TABLE printings;"),
    "truncated-record": _with_sqlite("UPDATE cards SET data = substr(data, 1, 10);"),
    "wrong-rows": _with_sqlite("UPDATE stats SET value = value + 1;"),  # well-formed, wrong
    "truncated-file": lambda p: os.truncate(p, p.stat().st_size // 2),
    "empty-file": lambda p: os.truncate(p, 0),
    "hot-journal": _hot_journal,
    "fifo": _replace_with(os.mkfifo),
    "directory": _replace_with(os.mkdir),
    "symlink-to-a-device": _replace_with(lambda p: os.symlink("/dev/zero", p)),
    "not-an-index": _replace_with(lambda p: p.write_bytes(b"SQLite format 3\0" + b"x" * 8192)),
}


# -- folders a walk cannot read all of ---------------------------------------------------------
def make_walks(folder: Path) -> dict[str, tuple[Path, str]]:
    """Folders to walk, each holding a legal deck (good.txt) beside something the walk finds
    and cannot read: name -> (the folder, the name in it that leads to what cannot be read).
    Permissions are set but only bind a process the kernel checks them for (not root)."""
    good = (HERE.parent.parent / "examples" / "good" / "casual-risky.txt").read_bytes()
    walks = {}

    def top(name: str) -> Path:
        path = folder / name
        path.mkdir(parents=True)
        (path / "good.txt").write_bytes(good)
        return path

    closed = top("unreadable-folder")
    (closed / "sub").mkdir()
    (closed / "sub" / "bad.txt").write_text("four Walrus\n")
    (closed / "sub").chmod(0)
    walks["unreadable-folder"] = (closed, "sub")
    closed_file = top("unreadable-file")
    (closed_file / "hidden.txt").write_text("four Walrus\n")
    (closed_file / "hidden.txt").chmod(0)
    walks["unreadable-file"] = (closed_file, "hidden.txt")
    fifo = top("fifo-named-like-a-deck")
    os.mkfifo(fifo / "deck.yaml")
    walks["fifo-named-like-a-deck"] = (fifo, "deck.yaml")
    deep = top("too-deep")
    fd = os.open(deep, os.O_RDONLY)  # made relative to each folder: no path is ever too long
    name, depth = "d" * 200, 0
    try:
        while depth * 201 < 5000:  # past PATH_MAX (4,096 on Linux)
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd, depth = inner, depth + 1
        out = os.open("bad.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, b"four Walrus\n")
        os.close(out)
    finally:
        os.close(fd)
    walks["too-deep"] = (deep, name)  # a folder below this one has a path too long to open
    return walks


def open_walks(walks: dict) -> None:
    """Undo make_walks' permissions, so the folders can be deleted."""
    for name in ("unreadable-folder", "unreadable-file"):
        top, inner = walks[name]
        (top / inner).chmod(0o755)


# -- file names a report must not print raw ----------------------------------------------------
#: file-name bytes -> how every report shows the name (the escape, never the raw character)
HOSTILE_NAMES = {
    b"caf\xe9.txt": "caf\\udce9.txt",  # Latin-1, not UTF-8: a lone surrogate in Python
    b"\xff\xfe.txt": "\\udcff\\udcfe.txt",
    b"esc\x1b[31mred.txt": "esc\\x1b[31mred.txt",  # a terminal colour escape
    b"csi\xc2\x9b31m.txt": "csi\\x9b31m.txt",  # the C1 control CSI, in UTF-8
    b"rlo\xe2\x80\xaetxt.exe.txt": "rlo\\u202etxt.exe.txt",  # a right-to-left override
    b"new\nline.txt": "new\\x0aline.txt",
    b"tab\tbell\x07.txt": "tab\\x09bell\\x07.txt",
    b"del\x7f.txt": "del\\x7f.txt",
}


def make_names(folder: Path, deck: bytes = b"4 Walrus\n") -> Path:
    """A folder of decks named by HOSTILE_NAMES, each holding ``deck`` (by default one line:
    illegal, too few cards)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in HOSTILE_NAMES:
        with open(os.path.join(os.fsencode(folder), name), "wb") as fh:
            fh.write(deck)
    return folder


# -- paths in event files and game logs that lead out of their folder --------------------------
SECRET = "hunter2-SECRET-of-this-machine"



def make_escapes(folder: Path) -> dict:
    """An event folder (``event/``, a legal deck ``alice.txt``) beside a ``secret/`` folder;
    for each way in ESCAPES, an event file whose roster names the secret file that way, and
    animal-battle and alpha-walrus game logs whose deck does. ``event/inside.txt`` (inside the
    folder, no card entry in it: a ``.git/config`` or ``.env`` would be such a file) is named
    by ``inside.yaml`` and the ``inside-*`` logs. Returns the paths by name."""
    good = (HERE.parent.parent / "examples" / "good" / "casual-risky.txt").read_bytes()
    aw = (HERE.parent.parent / "examples" / "good" / "alpha-walrus-2p.yaml").read_bytes()
    secret = folder / "secret"
    secret.mkdir(parents=True)
    (secret / "creds.txt").write_text(f"password={SECRET}\ntoken: {SECRET}\n")
    (secret / "good.txt").write_bytes(good)  # a real deck outside: still not read
    event = folder / "event"
    event.mkdir()
    (event / "alice.txt").write_bytes(good)
    (event / "aw.yaml").write_bytes(aw)
    (event / "inside.txt").write_text(f"[http]\n\textraheader = AUTHORIZATION: {SECRET}\n")
    os.symlink(secret / "creds.txt", event / "link.txt")
    written = {"climbs-out": "../secret/creds.txt", "absolute": str(secret / "creds.txt"),
               "symlink-out": "link.txt", "allowed-climb": "../secret/good.txt",
               "inside": "inside.txt"}
    made = {"event": event, "secret": secret}
    for way, path in written.items():
        (event / f"{way}.yaml").write_text(
            f"name: E\ngame: animal-battle\nformat: casual\nplayers:\n  alice: alice.txt\n"
            f"  mallory: {path}\n")
        (event / f"{way}-ab-log.yaml").write_text(
            f"game: animal-battle\nsetup:\n  players:\n    p1: {{deck: {path}}}\n"
            f"    p2: {{deck: alice.txt}}\nactions: []\n")
        (event / f"{way}-aw-log.yaml").write_text(
            f"game: alpha-walrus\nseed: 7\nplayers: 2\ndeck: {path}\nactions: []\n")
        made[way] = event / f"{way}.yaml"
    return made


def make_links(folder: Path) -> dict:
    """Deck folders holding symbolic links out of themselves, beside ``outside/creds.txt``
    (a card entry, then the secret: a file quoted line by line if read as a deck):

    * ``decks/``: ``good.txt`` (a legal casual deck), ``inside.txt`` (a link to it),
      ``leak.txt -> ../outside/creds.txt`` and ``abs.txt``, a link by absolute path;
    * ``event/``: an event whose roster lists ``decks/alice.txt``, its folder ``event/decks``
      holding ``notes.txt -> ../../outside/creds.txt`` and ``abs.txt`` (absolute), nobody's.

    Returns the paths by name."""
    good = (HERE.parent.parent / "examples" / "good" / "casual-risky.txt").read_bytes()
    outside = folder / "outside"
    outside.mkdir(parents=True)
    creds = outside / "creds.txt"
    creds.write_text(f"4 Walrus\npassword={SECRET}\ntoken: {SECRET}\n")
    decks = folder / "decks"
    decks.mkdir()
    (decks / "good.txt").write_bytes(good)
    (decks / "inside.txt").symlink_to("good.txt")
    (decks / "leak.txt").symlink_to("../outside/creds.txt")
    (decks / "abs.txt").symlink_to(creds)
    event = folder / "event"
    (event / "decks").mkdir(parents=True)
    (event / "decks" / "alice.txt").write_bytes(good)
    (event / "decks" / "notes.txt").symlink_to("../../outside/creds.txt")
    (event / "decks" / "abs.txt").symlink_to(creds)
    (event / "event.yaml").write_text("name: E\ngame: animal-battle\nformat: casual\n"
                                      "players:\n  alice: decks/alice.txt\n")
    return {"outside": outside, "decks": decks, "event": event / "event.yaml",
            "links": [decks / "leak.txt", decks / "abs.txt"],
            "event_links": [event / "decks" / "abs.txt", event / "decks" / "notes.txt"]}


# -- small inputs that would cost a great deal -------------------------------------------------
#: each under the 1 MiB limit; name -> bytes
COSTLY = {
    "blank-lines-first.yaml": b"\n" * 900_000 + b"cards:\n  - {count: 4, name: Walrus}\n",
    "blank-lines-between.yaml": b"cards:\n  - {count: 4, name: Walrus}\n" + b"\n" * 900_000
                                + b"  - {count: 4, name: Orca}\n",
    "comment-lines.yaml": b"#\n" * 500_000 + b"cards:\n  - {count: 4, name: Walrus}\n",
    "comment-and-blank-lines.yaml": b"cards:\n  - {count: 4, name: Walrus}\n"
                                    + b"  # a note\n\n" * 80_000 + b"  - {count: 4, name: Orca}\n",
    "one-letter-lines.txt": b"a\n" * 520_000,
    "bad-count-rows.csv": b"count,name\n" + b"x,Walrus\n" * 110_000,
}


def make_costly(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, data in COSTLY.items():
        assert len(data) < 1 << 20, name
        (folder / name).write_bytes(data)
        out[name] = folder / name
    return out
