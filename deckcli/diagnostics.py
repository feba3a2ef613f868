"""The one place problems are modelled.

A :class:`Diagnostic` is what every check, parser and referee produces. It is frozen, carries
the rules-reference id it applies (``deckcli rules ID`` explains it), and sorts by
(path, line, code) so reports are stable whatever order the checks ran in.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    rule: str
    message: str
    path: str | None = None
    line: int | None = None
    card: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple:
        return (self.path or "", self.line or 0, self.code, self.message)

    def to_json(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        del data["path"]
        return data


def error(code: str, rule: str, message: str, **where) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, rule, message, **where)


def warning(code: str, rule: str, message: str, **where) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, rule, message, **where)


def sort_diagnostics(diags) -> list[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)
