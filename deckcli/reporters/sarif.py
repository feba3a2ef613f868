"""``--output sarif``: SARIF 2.1.0 for code-scanning tools; the rules array holds rule ids."""

from __future__ import annotations

import json

from deckcli import __version__
from deckcli.reporters import Reporter


def _uri(path: str) -> str:
    """A path as a SARIF ``uri`` (a relative URI reference): '/' separators (a '\\' is one
    on Windows only: elsewhere it is part of a file's name, and encoded), and spaces,
    '%', '#', '?' and other characters outside a URI percent-encoded (UTF-8). ':' is encoded
    too: in a first segment it would make ``a:b.txt`` a URI of scheme ``a``."""
    import os
    from urllib.parse import quote

    return quote(path.replace(os.sep, "/"), safe="/@!$&'()*+,;=-._~",
                 errors="surrogateescape")


class SarifReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.results: list[dict] = []
        self.rule_index: dict[str, int] = {}

    def add(self, report, rendered: str | None = None) -> None:
        super().add(report)
        for p in report.problems:
            if p.rule not in self.rule_index:
                self.rule_index[p.rule] = len(self.rule_index)
            result = {"ruleId": p.rule, "ruleIndex": self.rule_index[p.rule],
                      "level": "error" if p.is_error else "warning",
                      "message": {"text": p.message},
                      "properties": {"code": p.code, "card": p.card, "game": report.game}}
            path = p.path or report.path  # an event file's problem (a missing deck)
            if path:
                loc = {"artifactLocation": {"uri": _uri(path)}}
                if p.line:
                    loc["region"] = {"startLine": p.line}
                result["locations"] = [{"physicalLocation": loc}]
            self.results.append(result)

    def close(self) -> None:
        from deckcli.rulebook import find_rule

        rules = []
        for rule_id in self.rule_index:
            rule = find_rule(rule_id)
            entry = {"id": rule_id}
            if rule is not None:
                entry.update(name=rule.title, shortDescription={"text": rule.title},
                             fullDescription={"text": rule.text},
                             help={"text": f"deckcli rules {rule_id}"})
            rules.append(entry)
        sarif = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "deckcli", "version": __version__,
                                    "rules": rules}},
                "results": self.results,
                "properties": {"summary": self.summary()},
            }],
        }
        self.stream.write(json.dumps(sarif, indent=2, ensure_ascii=False) + "\n")
