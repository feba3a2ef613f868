"""Deck paths written inside another file: an event file's roster, a game log's ``deck:``.

Event files and game logs come from strangers (a log is passed around, an event file arrives in
a pull request), so what such a path may name is bounded (rule EV-3.2), as a container build
may read only its context folder and Deno reads only the folders ``--allow-read`` names:

* the path is read relative to the folder of the file that names it, and must lead inside that
  folder (symlinks followed), or inside a folder the user allows with
  ``deckcli --allow-read DIR``; an absolute path or one that climbs out with ``../`` is refused,
  and nothing there is opened;
* a folder walk, and an event's scan of its roster's folders for decks nobody is listed for,
  never open a symbolic link whose file is outside the folder (and every allowed one)
  (:func:`deckcli.files.bounds.link_outside`): a pull request can add
  ``decks/leak.txt -> ../../.ssh/id_rsa``;
* a file reached this way none of whose lines is a card entry (``.git/config``, a ``.env``
  inside the folder) is reported as not a decklist, and its lines are not quoted: a report is
  often published, and the lines of such a file are not the event's to show.
"""

from __future__ import annotations

import os

from deckcli.files.bounds import ALLOWED, inside


def linked_path(owner: str, written: str) -> tuple[str, str | None]:
    """(the path as this process opens it, None) for a deck path ``written`` in the file
    ``owner``; or (that path, why it is refused) when it leads outside ``owner``'s folder and
    every allowed one."""
    from deckcli.diagnostics import visible

    if "\x00" in written:  # no file has such a name, and the system refuses to look
        return written.replace("\x00", ""), (f"deck path '{visible(written)}' holds a NUL "
                                              "byte: no file can have that name")
    base = os.path.dirname(owner) or "."
    path = os.path.normpath(os.path.join(base, written))
    real = os.path.realpath(path)
    if any(inside(real, root) for root in (os.path.realpath(base), *ALLOWED)):
        return path, None
    how = "is absolute" if os.path.isabs(written) else "leads outside its folder"
    return path, (f"deck path {visible(written)!r} {how}: a deck path in an event file or a "
                  "game log must lead to a file inside the file's own folder (to let it "
                  "read another folder: 'deckcli --allow-read DIR ...')")


def hide_lines(report, named_in: str) -> None:
    """A deck file reached through a path in ``named_in`` none of whose lines is a card entry
    (no card counted) is not a decklist: its problems on lines, which quote them, become one
    problem that does not."""
    from deckcli.diagnostics import error

    if report.card_count or report.path is None:
        return
    quoted = [p for p in report.problems if p.line is not None]
    if not quoted:
        return
    lines = sorted({p.line for p in quoted})
    kept = [p for p in report.problems if p.line is None]
    kept.append(error("not-a-decklist", "EV-3.2", not_a_decklist_message(named_in),
                      path=report.path, line=lines[0]))
    report.problems[:] = kept


def not_a_decklist_message(named_in: str) -> str:
    """What is said of a file named in ``named_in`` none of whose lines is a card entry."""
    from deckcli.diagnostics import visible_name

    return (f"not a decklist: no line of it is a card entry, so its lines are not shown (it "
            f"was named by {visible_name(named_in)}; 'deckcli validate' on the file itself "
            "shows them)")


def not_a_decklist(path: str) -> str:
    """The message for a deck file named in a game log that has no card entry."""
    from deckcli.diagnostics import visible_name

    return (f"{visible_name(path)} is not a decklist: no line of it is a card entry, so its "
            "lines are not shown ('deckcli validate' on the file itself shows them)")
