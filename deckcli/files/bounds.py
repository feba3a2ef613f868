"""Where a folder walk may read, and which folders ``deckcli --allow-read DIR`` adds.

A folder walk (of decks, of the card database's set files, of an event's roster folders) never
opens a symbolic link whose file is outside the folder walked and every allowed one
(:func:`link_outside`): a pull request can add ``decks/leak.txt -> ../../.ssh/id_rsa``. Paths
written inside a file (an event's roster, a game log's ``deck:``) are bounded the same way by
:func:`deckcli.decks.linked.linked_path`.
"""

from __future__ import annotations

import os

#: Folders ``deckcli --allow-read DIR`` adds, as real paths; set for each run by the CLI.
ALLOWED: list[str] = []


def allow(folders) -> None:
    ALLOWED[:] = [os.path.realpath(f) for f in folders]


def inside(real: str, root: str) -> bool:
    """Whether the real path ``real`` is the folder ``root`` or inside it."""
    try:
        return os.path.commonpath([root, real]) == root
    except ValueError:  # another drive
        return False


class Bounds:
    """Where the files a folder walk or an event's scan reads may be: the real paths of the
    folder and of every folder allowed (``roots``); what the folder is called in a message,
    and the rule a link out of it breaks."""

    __slots__ = ("roots", "what", "rule")

    def __init__(self, folder: str, what: str, rule: str):
        self.roots = (os.path.realpath(folder), *ALLOWED)
        self.what, self.rule = what, rule


def link_outside(path: str, bounds: Bounds) -> str | None:
    """Why the symbolic link at ``path`` is not read: its file (links followed, as the system
    would open it) is outside every folder of ``bounds``; None when it is inside one. Nothing
    of the file, not even where it is, goes into the message."""
    real = os.path.realpath(path)
    if any(inside(real, root) for root in bounds.roots):
        return None
    return (f"a symbolic link to a file outside {bounds.what}: not read, and nothing of it "
            "is shown (to let links lead into another folder: 'deckcli --allow-read DIR "
            "...')")
