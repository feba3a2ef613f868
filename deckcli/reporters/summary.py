"""What a run over many decks adds up at its end, beside the report: the problems counted by
rule (``validate --statistics``, as ruff's) and the Markdown job summary GitHub Actions shows
on a run's page (``validate -O github`` on GitHub Actions, appended to the file named by
``$GITHUB_STEP_SUMMARY``), since GitHub shows only a few annotations a step.

Each is fed the deck reports one at a time (``add``) and keeps only what it prints: counts,
and a bounded number of rows and problem lines, so a run of thousands of decks streams.
"""

from __future__ import annotations

import re

from deckcli.diagnostics import one_line, visible_name

#: GitHub takes at most 1 MiB of summary a step; these keep a summary well below it
MAX_DECK_ROWS = 1000
MAX_PER_RULE = 20
MAX_BYTES = 900_000


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _titles() -> dict[str, str]:
    from deckcli.rulebook import all_rules

    return {r.id: r.title for r in all_rules()}


class RuleCounts:
    """The problems of a run counted by rule, with the codes they were reported under."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.codes: dict[str, set[str]] = {}

    def add(self, report) -> None:
        for p in report.problems:
            self.counts[p.rule] = self.counts.get(p.rule, 0) + 1
            self.codes.setdefault(p.rule, set()).add(p.code)

    def ranked(self) -> list[str]:
        """The rules, the most problems first (then by id)."""
        from deckcli.rule import rule_sort_key

        return sorted(self.counts, key=lambda r: (-self.counts[r], r.split("-")[0],
                                                  rule_sort_key(r)))

    def render(self) -> str:
        """``problems by rule (N in M rules):`` then one line a rule: count, rule, codes,
        title."""
        if not self.counts:
            return "problems by rule: none"
        rules = self.ranked()
        titles = _titles()
        total = sum(self.counts.values())
        width = max(len(f"{n:,}") for n in self.counts.values())
        rule_width = max(map(len, rules))
        codes = {r: ",".join(sorted(self.codes[r])) for r in rules}
        code_width = max(map(len, codes.values()))
        lines = [f"problems by rule ({total:,} in {_plural(len(rules), 'rule')}):"]
        for r in rules:
            lines.append(f"{self.counts[r]:>{width},}  {r:<{rule_width}}  "
                         f"{codes[r]:<{code_width}}  {titles.get(r, '')}".rstrip())
        return "\n".join(lines)


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&])")


def _text(text: str) -> str:
    """Text from a deck (a message quotes file content) as Markdown that shows it as it is:
    on one line, every character Markdown or HTML would read escaped."""
    return _MARKDOWN.sub(r"\\\1", one_line(text))


def _code(text: str) -> str:
    """A file name as a code span (a ``|`` escaped for the table it may stand in)."""
    text = visible_name(text).replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class StepSummary:
    """The Markdown job summary of a run: the count of decks and verdicts, a row per deck (the
    first :data:`MAX_DECK_ROWS`), and the problems grouped by rule (the first
    :data:`MAX_PER_RULE` of each rule, the others counted)."""

    def __init__(self):
        self.decks = self.legal = 0
        self.rows: list[str] = []
        self.rules = RuleCounts()
        self.shown: dict[str, list[str]] = {}

    def add(self, report) -> None:
        self.decks += 1
        self.legal += report.legal
        self.rules.add(report)
        if len(self.rows) < MAX_DECK_ROWS:
            verdict = "legal" if report.legal else "**ILLEGAL**"
            problems = []
            if report.errors:
                problems.append(_plural(report.errors, "error"))
            if report.warnings:
                problems.append(_plural(report.warnings, "warning"))
            name = _code(report.path) if report.path else f"{_text(report.player or '-')} " \
                "(no deck)"
            self.rows.append(f"| {name} | {verdict} | {', '.join(problems) or 'none'} |")
        for p in report.problems:
            shown = self.shown.setdefault(p.rule, [])
            if len(shown) < MAX_PER_RULE:
                path = p.path or report.path
                where = f"{path}:{p.line}" if path and p.line else path
                at = f"{_code(where)}: " if where else ""
                shown.append(f"- {at}{p.severity.value}: {_text(p.message)} ({_text(p.code)})")

    def render(self) -> str:
        illegal = self.decks - self.legal
        out = ["## deckcli validate", "",
               f"{_plural(self.decks, 'deck')}: {self.legal:,} legal, {illegal:,} illegal", ""]
        if self.rows:
            out += ["| deck | verdict | problems |", "|---|---|---|", *self.rows]
            if self.decks > len(self.rows):
                out.append("")
                out.append(f"and {_plural(self.decks - len(self.rows), 'more deck')} "
                           "(every deck is in the annotations' log and in "
                           "`--output-file` reports)")
            out.append("")
        if self.rules.counts:
            titles = _titles()
            out += ["### Problems by rule", ""]
            for rule in self.rules.ranked():
                n = self.rules.counts[rule]
                title = _text(titles.get(rule, ""))
                out.append(f"<details><summary>{rule} {title} ({_plural(n, 'problem')})"
                           "</summary>")
                out.append("")
                out += self.shown[rule]
                if n > len(self.shown[rule]):
                    out.append(f"- and {n - len(self.shown[rule]):,} more")
                out += ["", "</details>", ""]
        text = "\n".join(out) + "\n"
        if len(text.encode("utf-8")) > MAX_BYTES:  # long messages: cut at a line, and say so
            cut = text.encode("utf-8")[:MAX_BYTES].decode("utf-8", "ignore").rpartition("\n")[0]
            text = cut + "\n\n(the summary is cut here: GitHub takes at most 1 MiB a step)\n"
        return text
