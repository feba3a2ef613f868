"""``--output github``: workflow-command annotations that GitHub Actions shows on the diff.

Escaping follows GitHub's toolkit: in the message ``%``, CR and LF; in properties (file, title)
also ``:`` and ``,``. Before that, a file name's control characters and bytes that are not
UTF-8 are escaped as in every report (:func:`~deckcli.diagnostics.visible_name`): the
toolkit's escapes leave an escape sequence raw, and the runner would print it to the log.
"""

from __future__ import annotations

from deckcli.diagnostics import visible_name
from deckcli.reporters import Reporter


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(p, path: str | None) -> str:
    path = p.path or path
    props = []
    if path:
        props.append(f"file={escape_property(visible_name(path))}")
    if p.line:
        props.append(f"line={p.line}")
    props.append(f"title={escape_property(f'{p.code} ({p.rule})')}")
    return f"::{p.severity.value} {','.join(props)}::{escape_data(p.message)}"


class GithubReporter(Reporter):
    @staticmethod
    def render(report) -> str:
        return "".join(annotation(p, report.path) + "\n" for p in report.problems)

    def add(self, report, rendered: str | None = None) -> None:
        super().add(report)
        self.stream.write(rendered if rendered is not None else self.render(report))

    def close(self) -> None:
        self.stream.write(f"deckcli: {self.decks:,} deck(s): {self.legal:,} legal, "
                          f"{self.illegal:,} illegal\n")
