"""Turn a path (or stdin) into a :class:`Deck`: read bytes, check encoding and size, dispatch.

Nothing here raises for a bad *deck*: unreadable content becomes a problem on the deck (exit 1).
A path that does not exist or is not a file raises :class:`~deckcli.errors.NotFoundError`
(exit 2), because then the command could not do its job.
"""

from __future__ import annotations

import os
import stat

from deckcli.cards.sources import read_bounded
from deckcli.decks.limits import MAX_FILE_BYTES
from deckcli.decks.model import Deck
from deckcli.diagnostics import error
from deckcli.errors import NotFoundError
from deckcli.files.text import decode_text

DECK_SUFFIXES = (".txt", ".deck", ".dck", ".yaml", ".yml", ".json", ".cod", ".dek")
FORMAT_BY_SUFFIX = {".txt": "text", ".deck": "text", ".dck": "text", ".yaml": "yaml",
                    ".yml": "yaml", ".json": "json", ".csv": "csv", ".cod": "cod",
                    ".dek": "dek"}


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
S_ISREG = stat.S_ISREG


def open_regular(path: str, what: str = "a deck file") -> tuple[int, os.stat_result]:
    """An fd (and its stat) open for reading ``path``, a regular file; NotFoundError if not.

    Opened without blocking and checked with fstat, so a FIFO or device is refused instead of
    waiting forever, and a directory is named as one (not ``what`` the command reads)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise NotFoundError("no such file", path=path) from None
    except PermissionError:
        raise NotFoundError("permission denied", path=path) from None
    except IsADirectoryError:
        raise NotFoundError(f"{path} is a directory, not {what}", path=path) from None
    except OSError as exc:  # a symlink loop (ELOOP), a name too long, ...
        raise NotFoundError(f"cannot read: {exc.strerror or exc}", path=path) from None
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode):
            if stat.S_ISDIR(st.st_mode):
                raise NotFoundError(f"{path} is a directory, not {what}", path=path)
            raise NotFoundError("not a regular file", path=path)  # a FIFO or device would
            # block or never end
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def check_readable(path: str) -> None:
    """NotFoundError (exit 2) unless ``path`` is a regular file this process may read."""
    os.close(open_regular(path)[0])


def read_bytes(path: str, what: str = "a deck file") -> bytes:
    """The file's bytes, at most the size limit (+1 to detect an overflow); a FIFO, device or
    directory is refused without blocking (:func:`open_regular`: ``what`` names the file)."""
    fd, st = open_regular(path, what)
    try:
        return read_bounded(fd, st.st_size, MAX_FILE_BYTES)
    except OSError as exc:
        raise NotFoundError(f"cannot read: {exc.strerror or exc}", path=path) from None
    finally:
        os.close(fd)


def decode(data: bytes, path: str | None) -> tuple[str | None, Deck | None]:
    """UTF-8 text (BOM stripped), or a Deck that only carries the reason it is unreadable."""

    def fail(code: str, message: str, line: int | None = None):
        deck = Deck(path, "text")
        deck.problems.append(error(code, "DL-1.1" if code != "too-large" else "DL-1.3",
                                   message, path=path, line=line))
        return None, deck

    if len(data) > MAX_FILE_BYTES:
        return fail("too-large", f"file is larger than the {MAX_FILE_BYTES // 1024} KiB limit")
    text, problem = decode_text(data, "a text decklist")
    if problem is not None:
        return fail(*problem)
    if not text.strip():  # nothing, or blank lines: no decklist at all, as a binary file
        return fail("empty-file", "the file is empty: not a decklist")
    return text, None


#: what may stand before a path's last ".txt" for it to be other than the suffix of a name
#: (no character, a folder separator, a drive's colon, a dot): detect_format then asks splitext
_NO_NAME_BEFORE = ("", "/", "\\", ":", ".")


def detect_format(path: str | None, text: str, default: str = "text") -> str:
    if path and path != "-":
        if path[-4:] == ".txt" and path[-5:-4] not in _NO_NAME_BEFORE:
            return "text"  # what splitext finds: a name (not only dots) before the suffix
        fmt = FORMAT_BY_SUFFIX.get(os.path.splitext(path)[1].lower())
        if fmt:
            return fmt
    stripped = text.lstrip()
    if stripped.startswith("["):
        from deckcli.decks.layouts import forge_start

        return "text" if forge_start(stripped) else "json"  # Forge's '[metadata]', '[main]'
    if stripped.startswith("{"):
        return "json"
    if stripped.startswith("<"):  # XML: its first element says whose
        return "dek" if "<Deck" in stripped[:4096] and "<cockatrice_deck" not in \
            stripped[:4096] else "cod"
    first = next((ln for ln in stripped.splitlines() if ln.strip() and not ln.startswith("#")), "")
    if first.startswith("cards:") or first.rstrip() == "---":
        return "yaml"
    if "\ncards:" in "\n" + text.replace("\r", "\n"):
        return "yaml"  # header keys first (game:, name:), then the 'cards:' list: no text line
    return default


#: another tool's own layout, by the suffix of its files
OTHER_TOOLS = {".dck": "Forge", ".cod": "Cockatrice", ".dek": "MTGO"}


def other_tool(name: str | None, text: str) -> str | None:
    """Which other tool's layout a decklist is in (Forge, Cockatrice, MTGO), else None.

    Decided as :func:`detect_format` decides how to read it, so a file and the same bytes on
    stdin get one answer: by the suffix of ``name`` (a path, or ``--stdin-filename``) when it
    is a decklist suffix, else by the content: Cockatrice or MTGO XML, or Forge's section
    lines (``[metadata]``, ``[general]``, ``[main]``, ``[sideboard]``) first."""
    if name and name != "-":
        suffix = os.path.splitext(name)[1].lower()
        if suffix in FORMAT_BY_SUFFIX:
            return OTHER_TOOLS.get(suffix)
    kind = detect_format(None, text)
    if kind in ("cod", "dek"):
        return OTHER_TOOLS["." + kind]
    # detect_format takes a first '[' as text only on one of Forge's section lines
    return "Forge" if kind == "text" and text.lstrip()[:1] == "[" else None


def parse_text_of(text: str, path: str | None, fmt: str, is_set=None, bom: bool = False) -> Deck:
    if fmt == "text":
        from deckcli.decks.text import parse_text

        deck = parse_text(text, path, is_set=is_set)
    elif fmt in ("yaml", "json"):
        from deckcli.decks.structured import parse_structured

        deck = parse_structured(text, path, fmt)
    elif fmt == "csv":
        from deckcli.decks.csvdeck import parse_csv

        deck = parse_csv(text, path)
    elif fmt in ("cod", "dek"):
        from deckcli.decks.xmldeck import parse_xml

        deck = parse_xml(text, path, fmt)
    else:  # pragma: no cover - formats come from FORMAT_BY_SUFFIX
        raise ValueError(fmt)
    deck.bom = bom
    return deck


def read_source(path: str, *, is_set=None, fmt: str | None = None,
                stdin_name: str | None = None) -> tuple[Deck, str | None, bytes]:
    """(deck, text, bytes) for a path or '-' (stdin); text is None when it could not be decoded.

    For commands that rewrite a file (fmt, convert, add, remove) and need the original text
    and bytes besides the deck. ``stdin_name``'s suffix says what '-' holds.
    """
    shown, data, text, kind, failed = read_text(path, fmt=fmt, stdin_name=stdin_name)
    if failed is not None:
        return failed, None, data
    return deck_from_text(text, data, shown, kind, is_set=is_set), text, data


def read_text(path: str, *, fmt: str | None = None, stdin_name: str | None = None):
    """(name shown in messages, bytes, text, format, None) for a path or '-' (stdin), or
    (name, bytes, None, None, a Deck that says why) when the bytes cannot be decoded."""
    shown = path if path != "-" else "<stdin>"
    if path == "-":
        import sys

        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    else:
        data = read_bytes(path)
    text, failed = decode(data, shown)
    if failed is not None:
        return shown, data, None, None, failed
    kind = fmt or detect_format(stdin_name if path == "-" and stdin_name else path, text)
    return shown, data, text, kind, None


def deck_from_text(text: str, data: bytes, shown: str, fmt: str, *, is_set=None) -> Deck:
    """The deck in ``text``, which :func:`decode` made of ``data`` (that says if it had a BOM)."""
    return parse_text_of(text, shown, fmt, is_set=is_set, bom=data.startswith(b"\xef\xbb\xbf"))


def read_deck(path: str, *, is_set=None, fmt: str | None = None) -> Deck:
    """Read and parse one decklist; problems in it are on ``deck.problems``."""
    return read_source(path, is_set=is_set, fmt=fmt)[0]
