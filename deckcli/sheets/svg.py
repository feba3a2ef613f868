"""Charts as inline SVG, drawn here: no script, no library, readable without JavaScript.

Three shapes are enough for the pages deckcli writes:

* :func:`hbars`: labelled horizontal bars (most played cards, verdicts, kinds);
* :func:`range_plot`: one row per deck, a line from its worst to its best value with a dot at
  its median, against a dashed line at the database's median and a shaded band for the
  database's middle half (statistic profiles); values that span two orders of magnitude or
  more are drawn on a log scale, and the axis says which end wins (Population: lower wins);
* :func:`meter`: a small inline bar for a share (0 to 1) inside a table cell.

SVG embedded in HTML needs no namespace declaration, so the pages hold no URL at all.
"""

from __future__ import annotations

import math

from deckcli.sheets.html import esc, num

PALETTE = ("#1f4e99", "#2f8f5b", "#c26b12", "#8a3fa0", "#b42318", "#0f7c8c", "#6b7280")
INK, GRID, MUTED = "#14181f", "#d5dae1", "#5b6472"


def _svg(width: float, height: float, label: str, inner: list[str]) -> str:
    return _svg_start(width, height, label) + "".join(inner) + "</svg>"


def _svg_start(width: float, height: float, label: str) -> str:
    return (f'<svg class="chart" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{esc(label)}">'
            f"<title>{esc(label)}</title>")


def _text(x, y, s, *, anchor="start", size=11, fill=INK, weight="normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{esc(s)}</text>')


def hbars(rows: list[tuple[str, float, str]], *, label: str, width: int = 760,
          label_width: int = 230, bar: int = 16, gap: int = 5, colors=None,
          maximum: float | None = None, text_width: int = 170) -> str:
    """Horizontal bars: rows of (label, value, text shown after the bar)."""
    top = max((v for _, v, _ in rows), default=0)
    top = maximum if maximum else top
    track = width - label_width - text_width
    inner = []
    for i, (name, value, shown) in enumerate(rows):
        y = i * (bar + gap)
        w = 0 if not top else max(1.5, track * value / top) if value else 0
        color = (colors[i % len(colors)] if colors else PALETTE[0])
        inner.append(_text(label_width - 6, y + bar * 0.78, _clip(name, 34), anchor="end"))
        inner.append(f'<rect x="{label_width}" y="{y}" width="{track}" height="{bar}" '
                     f'fill="#f1f3f6"/>')
        inner.append(f'<rect x="{label_width}" y="{y}" width="{w:.1f}" height="{bar}" '
                     f'fill="{color}"/>')
        inner.append(_text(label_width + w + 5, y + bar * 0.78, shown, size=10.5, fill=MUTED))
    height = max(1, len(rows)) * (bar + gap)
    return _svg(width, height, label, inner)


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "\u2026"


class Scale:
    """Value -> x, linear or log10, over [lo, hi] mapped to [x0, x1]."""

    def __init__(self, lo: float, hi: float, x0: float, x1: float):
        self.log = lo > 0 and hi / lo >= 100
        if self.log:
            lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
        elif lo == hi:
            lo, hi = lo - 1, hi + 1
        else:
            pad = (hi - lo) * 0.04
            lo, hi = (0 if lo >= 0 and lo - pad < 0 else lo - pad), hi + pad
        self.lo, self.hi, self.x0, self.x1 = lo, hi, x0, x1

    def __call__(self, v: float) -> float:
        if self.log:
            v = max(v, self.lo)
            t = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        else:
            t = (v - self.lo) / (self.hi - self.lo)
        return self.x0 + t * (self.x1 - self.x0)

    def ticks(self) -> list[float]:
        if self.log:
            a, b = round(math.log10(self.lo)), round(math.log10(self.hi))
            step = max(1, math.ceil((b - a) / 6))
            return [10.0 ** e for e in range(a, b + 1, step)]
        raw = (self.hi - self.lo) / 5
        mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
        step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
        first = math.ceil(self.lo / step) * step
        return [first + i * step for i in range(int((self.hi - first) / step) + 1)]


def range_plot(rows: list[tuple[str, float, float, float]], **kw) -> str:
    """Rows of (label, worst, median, best): a line worst..best with a dot at the median.

    ``reference`` draws a dashed line (the database's median), ``band`` a shaded range behind
    the rows (the database's middle half, first to third quartile). See
    :func:`range_plot_parts`."""
    return "".join(range_plot_parts(rows, **kw))


def range_plot_parts(rows: list[tuple[str, float, float, float]], *, label: str,
                     reference=None, reference_label: str = "database median",
                     sense: str = "higher", unit: str | None = None,
                     band: tuple[float, float] | None = None,
                     band_label: str = "middle half of the database", width: int = 900,
                     label_width: int = 210):
    """:func:`range_plot` as the strings it is made of, in order: a page of 20,000 decks
    writes them as they come rather than hold the whole chart (megabytes) at once."""
    row_h, top, bottom = 22, 24, 42
    values = [v for _, *vals in rows for v in vals if v is not None]
    for extra in (reference, *(band or ())):
        if extra is not None:
            values.append(extra)
    if not values:
        values = [0, 1]
    scale = Scale(min(values), max(values), label_width + 10, width - 30)
    height = top + max(1, len(rows)) * row_h + bottom
    axis_y = height - bottom + 4
    inner = []
    if band is not None:
        x1, x2 = sorted((scale(band[0]), scale(band[1])))
        inner.append(f'<rect x="{x1:.1f}" y="{top - 4}" width="{max(x2 - x1, 1):.1f}" '
                     f'height="{axis_y - top + 4}" fill="#fbecd9"/>')
    for t in scale.ticks():
        x = scale(t)
        inner.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{axis_y}" '
                     f'stroke="{GRID}" stroke-width="1"/>')
        inner.append(_text(x, axis_y + 13, num(t), anchor="middle", size=9.5, fill=MUTED))
    wins = "\u2190 lower wins" if sense == "lower" else "higher wins \u2192"
    note = f"{wins} \u00b7 {'log' if scale.log else 'linear'} scale" + (f" \u00b7 {unit}" if unit
                                                                         else "")
    if band is not None:
        note += f" \u00b7 shaded: {band_label}"
    inner.append(_text(width - 30, height - 6, note, anchor="end", size=10, fill=MUTED))
    if reference is not None:
        x = scale(reference)
        inner.append(f'<line x1="{x:.1f}" y1="{top - 8}" x2="{x:.1f}" y2="{axis_y}" '
                     f'stroke="{PALETTE[2]}" stroke-width="1.6" stroke-dasharray="4 3"/>')
        anchor = "end" if x > width - 140 else "start" if x < label_width + 80 else "middle"
        inner.append(_text(x, top - 11, f"{reference_label} {num(reference)}",
                           anchor=anchor, size=9.5, fill=PALETTE[2], weight="bold"))
    yield _svg_start(width, height, label) + "".join(inner)
    for i, (name, worst, mid, best) in enumerate(rows):
        y = top + i * row_h + row_h / 2
        row = _text(label_width - 4, y + 4, _clip(name, 32), anchor="end", size=10.5)
        if mid is None:
            yield row + _text(label_width + 12, y + 4, "no Animals", size=10, fill=MUTED)
            continue
        x1, x2 = sorted((scale(worst), scale(best)))
        yield (f'{row}<line x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}" '
               f'stroke="{PALETTE[0]}" stroke-width="3" stroke-linecap="round" '
               'opacity="0.45"/>'
               f'<circle cx="{scale(mid):.1f}" cy="{y:.1f}" r="5" fill="{PALETTE[0]}">'
               f"<title>{esc(name)}: median {esc(num(mid))}, best {esc(num(best))}, "
               f"worst {esc(num(worst))}</title></circle>")
    yield "</svg>"


def meter(share: float | None, *, width: int = 90, height: int = 9) -> str:
    """A small bar for a share between 0 and 1 (an empty track for None)."""
    w = 0 if share is None else max(0.0, min(1.0, share)) * width
    return (f'<svg class="meter" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
            f' aria-hidden="true"><rect width="{width}" height="{height}" fill="#e6e9ee"/>'
            f'<rect width="{w:.1f}" height="{height}" fill="{PALETTE[0]}"/></svg>')
