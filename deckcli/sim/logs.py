"""A simulated game written as a game log (YAML) that ``deckcli referee check`` replays.

The log is the game's own (``Engine.game_log``: the deal's seed and decks or table, the house
rules in force spelled out, the actions); this module writes it as YAML a person can read,
with animal-battle's actions as one block of lines (:func:`log_text`, in the process that
played the game), and :class:`Saver` writes each log into ``--save-games DIR`` as soon as its
game and every game before it are played, so no run holds more than a few chunks of logs.
"""

from __future__ import annotations

import io
import os
import re


def log_text(log: dict) -> str:
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import LiteralScalarString

    data = dict(log)
    actions = data.get("actions") or []
    if actions and all(isinstance(a, str) for a in actions):
        data["actions"] = [LiteralScalarString(a + "\n") if "\n" in a else a for a in actions]
    yaml = YAML()
    yaml.default_flow_style = None
    yaml.width = 100
    out = io.StringIO()
    out.write("# a game played by deckcli simulate; deckcli referee check replays it\n")
    yaml.dump(data, out)
    return out.getvalue()


def log_name(n: int) -> str:
    """The file name of game ``n``'s log (counted from 0)."""
    return f"game-{n + 1:05d}.yaml"


class Saver:
    """``--save-games DIR``: each game's log (``record["log"]``, its bytes) written as the
    records come, in game order, and taken out of the record. ``written``: games 1 to
    ``written`` have their logs in DIR from this run."""

    def __init__(self, folder: str):
        self.folder = folder
        self.written = 0

    def save(self, record: dict) -> None:
        from deckcli.decks.limits import MAX_FILE_BYTES
        from deckcli.errors import DeckcliError
        from deckcli.files.write import atomic_write, writable_folder

        data = record.pop("log")
        n = record["n"]
        if len(data) > MAX_FILE_BYTES:  # every saved log is one referee check reads
            raise DeckcliError(f"game {n + 1}'s log would take {len(data) / 1024:,.0f} KiB, "
                               f"more than the {MAX_FILE_BYTES >> 10:,} KiB a game log may "
                               "hold (its decks are listed card by card); not saved",
                               path=self.folder)
        if not self.written:
            writable_folder(self.folder)
        path = os.path.join(self.folder, log_name(n))
        try:
            atomic_write(path, data)
        except BaseException:  # stopped part-way: after the rename (syncing the folder),
            if _holds(path, data):  # the log is in place all the same
                self.written = n + 1
            raise
        self.written = n + 1

    def stopped(self) -> str:
        """What a run that stopped part-way left in DIR, exactly."""
        from deckcli.diagnostics import visible_name

        where = visible_name(self.folder)
        return (f"{where}: the logs of games 1 to {self.written:,} were written by this run "
                f"({_span(0, self.written - 1)}), no later game's")

    def left_over(self, played: int) -> str | None:
        """A note on the logs in DIR past the ``played`` games of this run, which an earlier
        run wrote and this one left as they were (None when there are none)."""
        from deckcli.diagnostics import visible_name

        try:
            names = os.listdir(self.folder)
        except OSError:
            return None
        older = sorted(int(m.group(1)) - 1 for m in map(_LOG.fullmatch, names)
                       if m and int(m.group(1)) > played and m.group(0) == log_name(
                           int(m.group(1)) - 1))
        if not older:
            return None
        which = log_name(older[0]) if len(older) == 1 else _span(older[0], older[-1])
        return (f"{visible_name(self.folder)} also holds {len(older):,} older game "
                f"log{'s' if len(older) > 1 else ''} ({which}) that this run of {played:,} "
                "games did not write")


_LOG = re.compile(r"game-(\d{5,})\.yaml")


def check_save_targets(folder: str, inputs, games: int) -> None:
    """WriteError (exit 2), before any game, if a log the run may write into
    ``folder`` (``game-00001.yaml`` to the last game's) could not be written: one of
    ``inputs`` (the decks played, the event file), by any name (a deck named like a log, a
    log name that is a link to a deck), or a name the writer refuses to replace
    (:func:`~deckcli.files.write.check_target`: a folder, a FIFO, a read-only file, a link
    out of ``folder``). Found after the games, it stopped the run with some logs replaced."""
    from deckcli.files.write import check_not_input, check_target

    try:
        names = sorted(os.listdir(folder))
    except OSError:  # not there yet: no log name in it is anything
        return
    for name in names:
        found = _LOG.fullmatch(name)
        if found and name == log_name(int(found.group(1)) - 1) and \
                int(found.group(1)) <= games:
            path = os.path.join(folder, name)
            check_not_input(path, inputs, "a deck or event file")
            check_target(path)


def _holds(path: str, data: bytes) -> bool:
    """Whether the file at ``path`` holds exactly ``data``."""
    try:
        with open(path, "rb") as f:
            return f.read(len(data) + 1) == data
    except OSError:
        return False


def _span(first: int, last: int) -> str:
    return log_name(first) if first == last else f"{log_name(first)} to {log_name(last)}"
