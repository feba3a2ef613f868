"""Plain exceptions raised by the library; the CLI maps them to exit codes (docs/commands.md).

Only two kinds reach the command line:

* ``DeckcliError`` (exit 2): the command could not do its job: a missing path, an invalid card
  database or event file, a card or rule that a look-up asks for and that does not exist.
* anything else is an internal error: one line and exit 2, or a traceback with ``--debug``.

Problems *in a deck* are not exceptions: they are :class:`deckcli.diagnostics.Diagnostic` values.
"""

from __future__ import annotations


class Terminated(BaseException):
    """SIGTERM while a run plays its games: unwinds the command as Ctrl-C does, so its workers
    are stopped before it ends (``deckcli: terminated``, exit 2)."""


class DeckcliError(Exception):
    """The command could not do its job (exit code 2)."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        from deckcli.diagnostics import one_line

        # a message quotes what a file or an option says: its line breaks and control
        # characters escaped, so it is one line of stderr whatever it quotes
        message = one_line(message)
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        from deckcli.diagnostics import visible_name  # a file name's escape sequences

        where = ""
        if self.path is not None:
            shown = visible_name(str(self.path))
            where = f"{shown}:{self.line}: " if self.line else f"{shown}: "
        return f"{where}{self.message}"


def unreadable_deck(path: str, problems) -> DeckcliError:
    """The error (exit 2) of a command that cannot use ``path`` as a deck at all (simulate,
    setup, build): "cannot be read as a deck", with the first error among ``problems`` (the
    diagnostics, in the order to tell them) and its line."""
    first = next((p for p in problems if p.is_error), None)
    why = f": {first.message}" if first else ""
    return DeckcliError(f"cannot be read as a deck{why}", path=path,
                        line=first.line if first else None)


class UsageError(DeckcliError):
    """Options that do not fit together, or a value the command cannot use."""


class ArgumentsError(UsageError):
    """Arguments or options that do not fit the command (two decks of two games, a shared deck
    given with another): the command line says it as click's own usage errors, with where the
    command's --help is."""


class NotFoundError(DeckcliError):
    """A card, rule, statistic or path that was asked for does not exist."""


class CardDatabaseError(DeckcliError):
    """The card database sources cannot be read or compiled."""

    def __init__(self, message: str, problems: list | None = None, **kw):
        super().__init__(message, **kw)
        self.problems = problems or []


class EventFileError(DeckcliError):
    """An event file that is malformed or names things that do not exist."""
