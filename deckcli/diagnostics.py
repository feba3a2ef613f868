"""The one place problems are modelled.

A :class:`Diagnostic` is what every check, parser and referee produces. It is a value (never
changed once made), carries
the rules-reference id it applies (``deckcli rules ID`` explains it), and sorts by
(path, line, code) so reports are stable whatever order the checks ran in.
"""

from __future__ import annotations

from deckcli.records import Record


class Severity:
    """``error`` or ``warning``: two constants, compared by identity (``Severity.ERROR``).

    A plain class rather than an Enum: creating an Enum class at import costs more than this
    module's share of a deck check (see deckcli.records).
    """

    __slots__ = ("value",)
    ERROR: Severity
    WARNING: Severity

    def __init__(self, value: str):
        self.value = value

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Severity.{self.value.upper()}"

    def __reduce__(self):  # pickles (for --jobs) back to the same constant
        return (_severity, (self.value,))


Severity.ERROR = Severity("error")
Severity.WARNING = Severity("warning")


def _severity(value: str) -> Severity:
    return Severity.ERROR if value == "error" else Severity.WARNING


class Diagnostic(Record):
    """One problem: what (code), how bad (severity), which rule, where (path, line, card)."""

    __slots__ = ("code", "severity", "rule", "message", "path", "line", "card")

    def __init__(self, code: str, severity: Severity, rule: str, message: str,
                 path: str | None = None, line: int | None = None, card: str | None = None):
        self.code = code
        self.severity = severity
        self.rule = rule
        self.message = one_line(message)  # one line of any report, whatever it quotes
        self.path = path
        self.line = line
        self.card = card if card is None else one_line(card)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple:
        return (self.path or "", self.line or 0, self.code, self.message)

    def to_json(self) -> dict:
        """The docs/commands.md problem object (the path belongs to the deck, not the problem)."""
        return {"code": self.code, "severity": self.severity.value, "rule": self.rule,
                "message": self.message, "line": self.line, "card": self.card}


def visible(text: str) -> str:
    """``text`` with its control and other invisible characters (but line breaks and tabs)
    written as escapes, ``\\x1b`` or ``\\u202e``: a message quotes what a file says, and a
    terminal escape sequence, a right-to-left override or a character XML cannot hold in a
    deck line must reach no terminal or report as it stands. Text with none (nearly all of
    it) comes back as it is, after one ``str.isprintable()``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\n\t" else _escaped(ch) for ch in text)


def one_line(text: str) -> str:
    """:func:`visible`, and line breaks escaped too (``\\x0a``): a message or note that is one
    line of a report, whatever it quotes from a file, never starts a line of its own. Every
    :class:`Diagnostic`'s message, every error's (:class:`deckcli.errors.DeckcliError`) and
    every status line on stderr goes through it."""
    if text.isprintable():
        return text
    return visible(text).replace("\n", "\\x0a")


def visible_name(text: str | None) -> str | None:
    """A file name, deck name or player name as every report and message shows it: as
    :func:`visible`, and line breaks and tabs escaped too (a name is one line of a table, one
    property of an annotation). A file name's bytes that are not UTF-8 (which Python keeps as
    lone surrogates) come out as ``\\udcff``-style escapes, so no report is ever invalid
    UTF-8. The one escaping function for names: the reporters, JSON included, call it."""
    if text is None or text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


def visible_data(data):
    """``data`` (what a command prints as JSON) with every string in it, keys too, through
    :func:`visible`: JSON writes a line break or an escape character as ``\\n`` or
    ``\\u001b`` itself, but a C1 control or a bidi override as it stands. Returns ``data`` as
    it is when nothing in it needs escaping."""
    if isinstance(data, str):
        return visible(data)
    if isinstance(data, dict):
        return {visible(k) if isinstance(k, str) else k: visible_data(v)
                for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [visible_data(v) for v in data]
    return data


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else (
        f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


def command_text(*args) -> str:
    """A command as a message suggests it, in quotes, spelled so that it pastes back into a
    shell as it stands: ``'deckcli validate deck.txt'``, ``"deckcli validate 'my deck.txt'"``."""
    import shlex

    text = shlex.join(str(a) for a in args)
    return f'"{text}"' if "'" in text else f"'{text}'"


def number_text(value) -> str:
    """A statistic as a judge reads it: ``1,000,000``, ``3.2``, ``0.05``; never ``1e+06``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}"


def error(code: str, rule: str, message: str, **where) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, rule, message, **where)


def warning(code: str, rule: str, message: str, **where) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, rule, message, **where)


def sort_diagnostics(diags) -> list[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)


# -- colour on a terminal ----------------------------------------------------------------------
#: ``--color`` for this run: ``auto`` (colour on a terminal only, and never with NO_COLOR set
#: or TERM=dumb), ``always`` or ``never``. The command line sets it (deckcli.cli).
COLOUR = ["auto"]
#: SGR codes: verdicts green and bold red, errors bold red, warnings yellow, notes dim.
_SGR = {"legal": "32", "ILLEGAL": "1;31", "error": "1;31", "warning": "33", "note": "2"}


def colour_on(stream) -> bool:
    """Whether text written to ``stream`` gets colour: never a file deckcli writes (a stream
    marked ``colour_ok = False``), always or never as ``--color`` says, else on a terminal."""
    if not getattr(stream, "colour_ok", True) or COLOUR[0] == "never":
        return False
    if COLOUR[0] == "always":
        return True
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def paint(word: str, on: bool = True) -> str:
    """``word`` (a verdict or a severity) in its colour when ``on``."""
    code = _SGR.get(word)
    return f"\x1b[{code}m{word}\x1b[0m" if on and code else word


def paint_status(line: str, on: bool) -> str:
    """A status or problem line with its severity word (``deckcli: error:``, ``deck.txt:3:
    warning:``) or an edit's verdict (``: ILLEGAL (``, ``: legal``) coloured when ``on``."""
    if not on:
        return line
    for word in ("error", "warning", "note"):
        head, sep, tail = line.partition(f": {word}: ")
        if sep:
            return f"{head}: {paint(word)}: {tail}"
    for verdict, marker in (("ILLEGAL", ": ILLEGAL ("), ("legal", ": legal")):
        if marker in line and (verdict == "ILLEGAL" or line.endswith(marker)):
            head, _, tail = line.rpartition(marker)
            return f"{head}: {paint(verdict)}{marker[len(verdict) + 2:]}{tail}"
    return line


# -- the same problem on many lines ---------------------------------------------------------------
#: A file's problems of one code on lines, at most this many; then one "and N more lines like it".
MAX_SAME = 10


class Repeats:
    """Adds a file's problems to ``problems``, at most :data:`MAX_SAME` of each code on lines;
    the rest are counted, and :meth:`close` adds one problem saying how many more lines have
    it and where they end. A 1 MiB file of 520,000 bad lines costs a report of a few lines,
    not 100 MB, and time and memory stay bounded by the input's size alone."""

    __slots__ = ("problems", "path", "seen", "more")

    def __init__(self, problems: list, path: str | None):
        self.problems, self.path = problems, path
        self.seen: dict[str, int] = {}
        self.more: dict[str, list] = {}  # code -> [first left out, how many, last line]

    def full(self, code: str) -> bool:
        """Whether a new problem of ``code`` would only be counted (its message need not be
        made)."""
        return self.seen.get(code, 0) >= MAX_SAME

    def add(self, severity, code: str, rule: str, message, line: int | None) -> None:
        """``message``: the text, or a function making it (called only if it is shown)."""
        n = self.seen.get(code, 0)
        self.seen[code] = n + 1
        if n < MAX_SAME or line is None:
            self.problems.append(severity(code, rule, message() if callable(message)
                                          else message, path=self.path, line=line))
            return
        more = self.more.get(code)
        if more is None:
            self.more[code] = [(severity, rule, line), 1, line]
        else:
            more[1] += 1
            more[2] = line

    def close(self) -> None:
        for code, ((severity, rule, first), count, last) in self.more.items():
            lines = "line" if count == 1 else "lines"
            self.problems.append(severity(
                code, rule, f"and {count:,} more {lines} like it (from line {first:,} to "
                f"{last:,}; the first {MAX_SAME} are shown)", path=self.path, line=first))
        self.more.clear()
