"""``--output text``: a summary table (one row per deck), then every problem, then a total;
with ``quiet``, the illegal decks' rows and problems only, then the total."""

from __future__ import annotations

from deckcli.diagnostics import colour_on, one_line, paint, paint_status, visible_name
from deckcli.reporters import Reporter


def table(headers: list[str], rows: list[list], painted: int | None = None) -> str:
    """A plain column table (the shape of tabulate's "simple" format); the words of column
    ``painted`` (a verdict) get their colour, after the padding is worked out.

    Written here rather than imported: tabulate pulls in importlib.metadata, which alone
    costs more than the rest of a deck check (benchmarks/cold_start.py times start-up).
    """
    cells = [[visible_name(str(c)) for c in row] for row in rows]  # a name's control characters
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]

    def line(values, body=False):
        return "  ".join((paint(v) + " " * (w - len(v)) if body and i == painted else v.ljust(w))
                         for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out.extend(line(r, True) for r in cells)
    return "\n".join(out)


def problem_line(p, path: str | None) -> str:
    """``file:line: severity: message [code, rule ID]``, one line: a line break that a message
    quotes from a file (a key, a set code) is shown as ``\\x0a``, never one that would start
    a line reading as another file's problem."""
    where = visible_name(p.path or path or "-")
    if p.line:
        where += f":{p.line}"
    return f"{where}: {p.severity.value}: {one_line(p.message)} [{p.code}, rule {p.rule}]"


def verdict(report) -> str:
    return "legal" if report.legal else "ILLEGAL"


class TextReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.rows: list[list] = []
        self.lines: list[str] = []
        self.games: set[str] = set()

    def add(self, report, rendered: str | None = None) -> None:
        super().add(report)
        if self.options.get("quiet") and report.legal:
            return  # --quiet: the failures only
        self.games.add(report.game)
        fmt = report.format or "-"
        players = report.extra.get("players")
        if players is not None:  # a shared deck: checked for a number of players
            fmt = f"{players} players"
            if report.extra.get("players_default"):
                fmt += " (default)"
        passes = report.extra.get("formats")
        also = ", ".join(f for f, ok in passes.items() if ok) if passes else ""
        problems = f"{report.errors:,} error(s)" if report.errors else "none"
        if report.warnings:
            problems += f", {report.warnings:,} warning(s)"
        self.rows.append([report.path or "-", report.player or "-", report.game, fmt,
                          f"{report.card_count:,}", verdict(report), also or "-", problems,
                          report.fingerprint or "-"])
        for p in report.problems:
            self.lines.append(problem_line(p, report.path))

    def close(self) -> None:
        on = colour_on(self.stream)  # verdicts, errors and warnings in colour on a terminal
        out = []
        if self.rows:  # no deck (every file named was something else): only the count
            out.append(table(["deck", "player", "game", "format", "cards", "verdict",
                              "passes", "problems", "fingerprint"], self.rows,
                             5 if on else None))
        if self.lines:
            out.append("")
            out.extend(paint_status(line, on) for line in self.lines)
        if out:
            out.append("")
        out.append(f"{self.decks:,} deck(s): {self.legal:,} legal, {self.illegal:,} illegal")
        self.stream.write("\n".join(out) + "\n")
