"""Which files are decklists: a decklist repository holds other files too.

Beside its decks, an event's repository holds an event file (maybe ``spring-2026.yaml``, not
``event.yaml``), a CI workflow, a ``requirements.txt``, a README. None of them is a deck, and
reading one as a deck reports errors in a file nobody meant to check. So:

* a folder walk takes a file when its suffix is a decklist's (:data:`DECK_SUFFIXES`) and
  :func:`deck_file_name` does not rule it out by name: hidden names (``.github/``,
  ``.pre-commit-config.yaml``), ``event.yaml``/``event.yml``, and text files named like pip's
  or a project's own (``requirements*.txt``, ``constraints*.txt``, ``README*``, ``LICENSE*``,
  ``CHANGELOG*``);
* a YAML or JSON file, in a walk or named on the command line, is then looked at by
  :func:`other_kind`: a mapping without ``cards`` whose keys are a game log's (``actions``:
  the referee checks those), an event file's (``players``, ``banned``, ``limited``, ``sets``,
  ``house_rules``), a GitHub workflow's (``jobs``), a pre-commit configuration's
  (``repos``) or one of deckcli's own reports (``version`` with ``decks`` or SARIF's
  ``runs``: a report kept beside the decks it reports on) is that kind of file, and is
  skipped with a note. So is a set file of the card database (``set`` holding a mapping,
  beside ``cards``: a promo set kept with the decks for ``--db``), though it has ``cards``.
  A file that is none of these stays a deck, so a malformed decklist is still reported.
"""

from __future__ import annotations

import os
import re

from deckcli.config import NAMES as CONFIG_NAMES  # the configuration files' names
from deckcli.decks.reader import DECK_SUFFIXES

SKIP_NAMES = ("event.yaml", "event.yml")
#: Text files by these names are a project's or pip's, never decks.
TEXT_PREFIXES = ("requirements", "constraints", "readme", "license", "changelog")
_EVENT_KEYS = frozenset({"players", "banned", "limited", "sets", "house_rules"})
_STRUCTURED = (".yaml", ".yml", ".json")
_TOP_KEY = r"""^(?:"([^"]+)"|'([^']+)'|([A-Za-z_][\w-]*))[ \t]*:(?:[ \t]|$)"""
_SNIFF_BYTES = 1 << 20  # as much as any decklist or event file may hold


def deck_file_name(name: str) -> bool:
    """Whether a folder walk takes a file of this name as a decklist (by its name alone)."""
    lower = name.lower()
    if not lower.endswith(DECK_SUFFIXES) or name[0] == "." or lower in SKIP_NAMES:
        return False
    return not (lower.endswith(".txt") and lower.startswith(TEXT_PREFIXES))




def named_kind(path: str) -> str | None:
    """What a file named on the command line is when it is not a decklist: an event file or a
    configuration file by its name (a pre-commit hook passes them: ``event.yaml``,
    ``deckcli.toml``), else what its content shows (:func:`other_kind`)."""
    name = os.path.basename(path).lower()
    if name in SKIP_NAMES:
        return "an event file"
    if name in CONFIG_NAMES:
        return "a configuration file"
    return other_kind(path)


def other_kind(path: str) -> str | None:
    """What a YAML or JSON file is when it is not a decklist ('a game log', 'an event file',
    'a GitHub workflow', 'a pre-commit configuration', 'a deckcli report', 'a card database
    set file'), else None (a decklist, or unreadable: then the deck reader says why)."""
    if not path.lower().endswith(_STRUCTURED):
        return None
    from deckcli.decks.reader import open_regular
    from deckcli.errors import NotFoundError

    try:  # never a blocking open: a FIFO named like a deck would hang the walk
        fd, _ = open_regular(path)
    except NotFoundError:
        return None
    try:
        data = os.read(fd, _SNIFF_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        top = _json_top(text)
        keys, set_mapping = set(top), isinstance(top.get("set"), dict)
    else:
        keys = _yaml_keys(text)
        set_mapping = "set" in keys and re.search(_SET_MAPPING, text, re.M) is not None
    if {"set", "cards"} <= keys and set_mapping:  # a deck has no 'set'; a set file's names it
        return "a card database set file"
    if not keys or "cards" in keys:
        return None
    if "actions" in keys:  # before the event keys: an alpha-walrus log has 'players' too
        return "a game log"
    if keys & _EVENT_KEYS:
        return "an event file"
    if "jobs" in keys:
        return "a GitHub workflow"
    if "repos" in keys:
        return "a pre-commit configuration"
    if "version" in keys and ("decks" in keys or "runs" in keys):
        return "a deckcli report"  # validate's JSON or SARIF, export's or simulate's JSON
    return None


def _yaml_keys(text: str) -> set[str]:
    """The keys of a YAML mapping's top level (lines that start with a key and a colon)."""
    return {a or b or c for a, b, c in re.findall(_TOP_KEY, text, re.M)}


#: a YAML set file's 'set:' line, whose value is a mapping: '{code: PRM, ...}' on the line, or
#: nothing there and the mapping's lines below it, indented (not a list's '- ')
_SET_MAPPING = (r"""^(?:set|"set"|'set')[ \t]*:[ \t]*(?:\{|(?:#[^\n]*)?\r?\n"""
                r"""(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]+(?!-[ \t\r\n])[^\s#])""")


def _json_top(text: str) -> dict:
    """The top-level mapping of a JSON file (empty when it is not JSON or not a mapping)."""
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past any deck: the reader says
        return {}
    return data if isinstance(data, dict) else {}


#: what :func:`skipped_note` calls the file standard output is being written to
OWN_OUTPUT = "this command's output"


def own_output():
    """(device, inode) of the regular file standard output goes to, else None.

    ``validate decks -O json > decks/report.json``: the shell has made the file (empty)
    before deckcli runs, so a folder walk would meet it as an empty deck and fail the run; it
    is this command's output, and left out (:data:`OWN_OUTPUT`)."""
    import stat
    import sys

    try:
        st = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # closed, or not a file (a test's buffer)
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def is_own_output(entry, own) -> bool:
    """Whether ``entry`` (a directory entry, or a path) is the file :func:`own_output` found
    (``own``). An entry's inode comes with the listing, so only a file with that inode is
    looked at again."""
    if own is None:
        return False
    try:
        if isinstance(entry, str):
            st = os.stat(entry, follow_symlinks=False)
            return (st.st_dev, st.st_ino) == own
        return entry.inode() == own[1] and entry.stat(follow_symlinks=False).st_dev == own[0]
    except OSError:
        return False


def skipped_note(path: str, kind: str) -> str:
    from deckcli.diagnostics import visible_name

    if kind.startswith("excluded"):  # by the configuration's exclude
        return f"{visible_name(path)} is {kind}: skipped"
    what = {"an event file": "give it with --event",
            "a game log": "check it with deckcli referee check",
            "a card database set file": "check it with deckcli db check --db FOLDER",
            }.get(kind, "not checked")
    return f"{visible_name(path)} is {kind}, not a decklist: skipped ({what})"

