"""Writing decklists safely: atomic replacement, and the "is it still the same deck?" check.

:func:`atomic_write` never leaves a half-written deck behind: the new bytes go to a temporary
file in the same folder, are flushed to disk, take the old file's mode, and only then replace
the old file in one ``os.replace``. If anything fails on the way, the temporary file is removed
and the original is untouched.

:func:`same_deck` is the check every rewrite (``fmt``, ``add``, ``remove``) runs before it
writes: the new text, parsed again, must hold the same cards (card identity, printing, variant
tags, counted) and get the same verdict from ``validate``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections import Counter

from deckcli.errors import DeckcliError


class WriteError(DeckcliError):
    """A deck file could not be written (exit 2); the original is left as it was."""


def _target(path: str) -> str:
    """The file to replace: the path itself, or where a symlink inside the deck's folder points."""
    if os.path.isdir(path):
        raise WriteError("is a directory, not a file", path=path)
    if not os.path.islink(path):
        return path
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    real = os.path.realpath(path)
    try:
        inside = os.path.commonpath([folder, real]) == folder
    except ValueError:  # different drives
        inside = False
    if not inside:
        raise WriteError(f"is a symlink to {real}, outside the deck's folder; not writing through "
                         "it", path=path)
    if os.path.isdir(real):
        raise WriteError("is a symlink to a directory, not a file", path=path)
    return real


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: str | os.PathLike, data: bytes, *, overwrite: bool = True) -> None:
    """Replace (or, with ``overwrite=False``, create) ``path`` with ``data``, all or nothing.

    Raises :class:`WriteError` when the target is a directory, a symlink pointing outside the
    deck's folder, already exists (``overwrite=False``), or the write fails.
    """
    path = os.fspath(path)
    target = _target(path)
    if not overwrite and os.path.lexists(path):
        raise WriteError("already exists; not overwriting it", path=path)
    folder = os.path.dirname(os.path.abspath(target))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _default_mode()
    except OSError as exc:
        raise WriteError(f"cannot read its permissions: {exc.strerror or exc}", path=path) from None
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if overwrite:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)  # fails if the file appeared meanwhile: never clobber it
            os.unlink(tmp)
        tmp = None
        _sync_folder(folder)
    except FileExistsError:
        raise WriteError("already exists; not overwriting it", path=path) from None
    except OSError as exc:
        raise WriteError(f"could not write: {exc.strerror or exc}; the file is unchanged",
                         path=path) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _sync_folder(folder: str) -> None:
    """Make the rename durable where the platform allows it (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- equivalence --------------------------------------------------------------------------------
def deck_cards(deck, index, game: str) -> Counter:
    """The deck as a multiset of (card identity, printing, variant tags), counted.

    An entry that does not resolve counts by what it says (folded name, set, number), so two
    versions of a deck with the same unknown line still compare equal.
    """
    from deckcli.cards.names import fold_name, number_key
    from deckcli.decks.resolve import Resolved, resolve_entry

    out: Counter = Counter()
    for entry in deck.entries:
        r = resolve_entry(index, game, entry, deck.path)
        tags = frozenset(entry.variants)
        if isinstance(r, Resolved):
            printing = (r.printing.id if r.printing is not None
                        else ("set", entry.set_code) if entry.set_code else None)
            key = normal_key(index, ("card", r.card.id, printing, tags))
        else:
            key = ("?", fold_name(entry.name), entry.set_code or "",
                   number_key(entry.number) if entry.number else "", tags)
        out[key] += entry.count
    return out


def normal_key(index, key: tuple) -> tuple:
    """A (card, printing, tags) key with "no printing named" read as the card's own printing.

    An entry that names only the card stands for the printing fmt writes for it (see
    :func:`deckcli.decks.resolve.default_printing`), so "4 Walrus" and "4 Walrus (ABS) 12"
    are the same four cards.
    """
    kind, card_id, printing, tags = key
    if kind != "card" or isinstance(printing, int):
        return key
    from deckcli.decks.resolve import default_printing

    set_code = printing[1] if printing else None
    found = default_printing(index, index.card(card_id), tags, set_code)
    return (kind, card_id, found.id, tags) if found is not None else key


def verdict(deck, index, game: str | None, event=None) -> tuple[bool, tuple[str, ...]]:
    """What ``validate`` (with ``--event``, when given) says about a deck: legal or not, and
    which error codes."""
    from deckcli.validate import Options, validate_deck

    report = validate_deck(deck, index, Options(game=game, event=event))
    return report.legal, tuple(sorted({p.code for p in report.problems if p.is_error}))


def same_deck(old_deck, new_deck, index, game: str | None, event=None) -> bool:
    """Same cards (identity, printing, variants, counts), same header, same validate verdict
    (at ``event``, when given)."""
    from deckcli.validate import Options, pick_game

    if old_deck.header != new_deck.header:
        return False
    resolved_game, problems = pick_game(old_deck, Options(game=game))
    if not problems and deck_cards(old_deck, index, resolved_game) != \
            deck_cards(new_deck, index, resolved_game):
        return False
    return verdict(old_deck, index, game, event) == verdict(new_deck, index, game, event)
