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
        self.message = message
        self.path = path
        self.line = line
        self.card = card

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple:
        return (self.path or "", self.line or 0, self.code, self.message)

    def to_json(self) -> dict:
        """The CONTRACT.md problem object (the path belongs to the deck, not the problem)."""
        return {"code": self.code, "severity": self.severity.value, "rule": self.rule,
                "message": self.message, "line": self.line, "card": self.card}


def error(code: str, rule: str, message: str, **where) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, rule, message, **where)


def warning(code: str, rule: str, message: str, **where) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, rule, message, **where)


def sort_diagnostics(diags) -> list[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)
