"""Shared HTML helpers: escaping, number formatting, the page skeleton and the base CSS.

Every page deckcli writes is self-contained: styles are inline in ``<style>``, charts are inline
SVG (:mod:`deckcli.sheets.svg`), there is no script, no font, image or stylesheet fetched from
anywhere, and links only point at anchors inside the page. Every value that comes from a deck,
an event file or the card database goes through :func:`esc`.
"""

from __future__ import annotations

import html
import re

from deckcli.diagnostics import visible

PAPERS = {"auto": "auto", "a4": "A4", "letter": "letter"}

#: The page box every sheet is designed for: the smaller of A4 (210x297 mm) and US Letter
#: (216x279 mm) is 210x279 mm; minus 12 mm margins that leaves 186x255 mm of content.
MARGIN_MM = 12

FONT = '"DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif'
MONO = '"DejaVu Sans Mono", "Liberation Mono", Consolas, "Courier New", monospace'

BASE_CSS = f"""
*, *::before, *::after {{ box-sizing: border-box; }}
html {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
body {{ margin: 0; font-family: {FONT}; color: #14181f; background: #e8ebef;
       font-size: 10pt; line-height: 1.35; }}
h1, h2, h3 {{ margin: 0; font-weight: 700; }}
table {{ border-collapse: collapse; }}
.mono {{ font-family: {MONO}; }}
.muted {{ color: #5b6472; }}
.ok {{ color: #17663a; }}
.bad {{ color: #b42318; }}
.warn {{ color: #9a5b00; }}
a {{ color: #1f4e99; }}
svg text {{ font-family: {FONT}; }}
"""


def esc(value) -> str:
    """Text safe inside an element or a quoted attribute; control and other invisible
    characters from a deck (a name, a player) shown as escapes, as in every report, and a
    line break written as ``&#10;`` (the same white space to a browser): a page printed to
    stdout (``-o -``) has no line that a file started, which a CI log would read as its own
    (``::error file=...``)."""
    return html.escape(visible("" if value is None else str(value)),
                       quote=True).replace("\n", "&#10;")


def anchor(rule_id: str) -> str:
    """The id of a rule's entry in a page's appendix: ``rule-AB-1.5``."""
    return "rule-" + re.sub(r"[^A-Za-z0-9_.-]", "-", rule_id)


def num(value, digits: int = 2) -> str:
    """12000 -> '12,000'; 3.20 -> '3.2'; 0.0004 -> '0.0004'; None -> '-'."""
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    if isinstance(value, int):
        return f"{value:,}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1 or value == 0:
        return f"{value:,.{digits}f}".rstrip("0").rstrip(".")
    return f"{value:.{digits}g}" if abs(value) < 0.01 else f"{value:.{digits + 1}f}".rstrip("0")


def pct(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value * 100:.{digits}f}%"


def page(title: str, body: str, css: str, *, paper: str = "auto") -> str:
    """A complete HTML document: doctype, inline styles, the body; nothing loaded from outside."""
    head, tail = page_ends(title, css, paper=paper)
    return f"{head}{body}{tail}"


def page_ends(title: str, css: str, *, paper: str = "auto") -> tuple[str, str]:
    """What a page (:func:`page`) holds before its body and after it: a page written in parts
    (the event report, streamed) puts its body between them."""
    size = PAPERS.get(paper, "auto")
    page_css = f"@page {{ size: {size}; margin: {MARGIN_MM}mm; }}"
    from deckcli import __version__

    return ("<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="deckcli {esc(__version__)}">\n'
            f"<title>{esc(title)}</title>\n"
            f"<style>\n{page_css}\n{BASE_CSS}\n{css}\n</style>\n</head>\n<body>\n",
            "\n</body>\n</html>\n")


def problem_items(problems, *, limit: int | None = None, link_rules: bool = False,
                  max_chars: int | None = None) -> str:
    """``<li>`` items for problems: severity, message, rule id (linked to the appendix)."""
    shown = problems if limit is None else problems[:limit]
    out = []
    for p in shown:
        message = p.message
        if max_chars and len(message) > max_chars:
            message = message[: max_chars - 1].rstrip() + "\u2026"
        where = f"line {p.line}: " if p.line else ""
        rule = (f'<a href="#{anchor(p.rule)}">{esc(p.rule)}</a>' if link_rules
                else esc(p.rule))
        cls = "bad" if p.is_error else "warn"
        out.append(f'<li><span class="{cls}">{esc(p.severity.value)}</span> {esc(where)}'
                   f"{esc(message)} <span class=\"muted\">[{esc(p.code)}, rule {rule}]</span>"
                   "</li>")
    if limit is not None and len(problems) > limit:
        from deckcli.diagnostics import command_text

        path = next((p.path for p in problems if p.path), None)
        check = command_text("deckcli", "validate", *([path] if path else []))
        out.append(f'<li class="muted">\u2026 and {len(problems) - limit} more '
                   f"(run {esc(check)} for the full list)</li>")
    return "\n".join(out)
