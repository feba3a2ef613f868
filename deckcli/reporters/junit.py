"""``--output junit``: one testcase per deck, a failure per illegal deck listing its problems.

Every text is passed through :func:`~deckcli.diagnostics.visible`: XML 1.0 cannot hold most
control characters, and a file name may have them."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from deckcli.diagnostics import visible, visible_name
from deckcli.reporters import Reporter
from deckcli.reporters.text import problem_line


class JunitReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.cases: list[ET.Element] = []

    def add(self, report, rendered: str | None = None) -> None:
        super().add(report)
        case = ET.Element("testcase", classname=f"deckcli.{report.game}",
                          name=visible_name(report.path or f"player {report.player}"))
        if not report.legal:
            failure = ET.SubElement(case, "failure", type="illegal",
                                    message=f"illegal deck: {report.errors:,} error(s)")
            failure.text = visible("\n".join(problem_line(p, report.path)
                                              for p in report.problems))
        elif report.problems:
            out = ET.SubElement(case, "system-out")
            out.text = visible("\n".join(problem_line(p, report.path)
                                          for p in report.problems))
        self.cases.append(case)

    def close(self) -> None:
        suites = ET.Element("testsuites", name="deckcli validate", tests=str(self.decks),
                            failures=str(self.illegal))
        suite = ET.SubElement(suites, "testsuite", name="deckcli validate",
                              tests=str(self.decks), failures=str(self.illegal), errors="0",
                              skipped="0")
        suite.extend(self.cases)
        ET.indent(suites)
        self.stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.stream.write(ET.tostring(suites, encoding="unicode") + "\n")
