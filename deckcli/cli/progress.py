"""Progress of a long run (``simulate``, ``build``, ``suggest``) on stderr: the phase, the
games played of the phase's total, and the time left.

* On a terminal: one line, redrawn in place (``\\r``), at most ten times a second, cleared
  when the run ends.
* Anywhere else (a CI log, a file): a line of its own every few seconds, then one saying how
  long the run took, so a log shows the run is alive without filling up.

Nothing is shown for a run that ends within :data:`DELAY` seconds, and nothing ever goes to
stdout: the results and their bytes are the same with or without it.
``DECKCLI_PROGRESS_INTERVAL=SECONDS`` sets the delay before the first line and the time
between lines (``0``: from the first game and at every chunk of games), ``off`` turns it off.
"""

from __future__ import annotations

import os
import sys
import time

DELAY = 2.0  # seconds before the first line: a run shorter than this shows none
EVERY = 5.0  # seconds between lines off a terminal
REDRAW = 0.1  # seconds between redraws on a terminal
ENV = "DECKCLI_PROGRESS_INTERVAL"


class Progress:
    """``advance(n)`` after every ``n`` games played; ``phase(name, total)`` when a run moves
    on to its next part; ``finish()`` at the end, however the run ended."""

    def __init__(self, command: str, phase: str | None = None, total: int | None = None,
                 stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.command = command
        self.tty = _isatty(self.stream)
        self.delay, every = _timing(self.tty)
        self.gap = min(REDRAW, every) if self.tty else every  # seconds between lines
        self.on = self.delay is not None
        self.start = self.last = time.monotonic()
        self.shown = 0  # width of the line on a terminal; lines written elsewhere
        self.games = 0  # in the whole run
        self.phase(phase, total)

    def phase(self, name: str | None, total: int | None = None) -> None:
        """The run's next part: ``name`` (None: the run has one) and its games, if known."""
        self.name, self.total = name, total
        self.done = 0
        self.since = time.monotonic()

    def advance(self, n: int) -> None:
        self.done += n
        self.games += n
        if not self.on:
            return
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        if self.shown and now - self.last < self.gap:
            return
        self.last = now
        self._show(self.line(now))

    def line(self, now: float) -> str:
        """'simulate: 1,200 of 20,000 games (6%), about 1 min 40 s left'."""
        head = f"{self.command}: {self.name}, " if self.name else f"{self.command}: "
        if self.total is None or self.done > self.total:
            return f"{head}{self.done:,} games"
        text = f"{head}{self.done:,} of {self.total:,} games ({100 * self.done // self.total}%)"
        spent = now - self.since
        if self.done and spent > 0 and self.done < self.total:
            left = duration(spent * (self.total - self.done) / self.done)
            text += f", {left} left" if left.startswith("under") else f", about {left} left"
        return text

    def _show(self, text: str) -> None:
        try:
            if self.tty:
                pad = " " * max(0, self.shown - len(text))
                self.stream.write(f"\r{text}{pad}")
                self.shown = len(text)
            else:
                self.stream.write(f"deckcli: {text}\n")
                self.shown += 1
            self.stream.flush()
        except (OSError, ValueError):
            self.on = False  # stderr is gone: the run goes on without it

    def finish(self) -> None:
        """Clear the terminal's line; elsewhere, once lines were shown, say what the run
        played in how long. Called more than once, it does nothing more."""
        if not self.on or not self.shown:
            self.on = False
            return
        self.on = False
        try:
            if self.tty:
                self.stream.write("\r" + " " * self.shown + "\r")
            else:
                took = duration(time.monotonic() - self.start)
                self.stream.write(f"deckcli: {self.command}: {self.games:,} games played in "
                                  f"{took}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass


def duration(seconds: float) -> str:
    """'under 1 s', '5 s', '1 min 40 s', '2 h 5 min'."""
    s = max(0, round(seconds))
    if s < 1:
        return "under 1 s"
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _timing(tty: bool) -> tuple[float | None, float]:
    """(seconds before the first line or None for no progress, seconds between lines)."""
    raw = os.environ.get(ENV)
    if raw is None or not raw.strip():
        return DELAY, EVERY
    if raw.strip().lower() == "off":
        return None, EVERY
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        sys.stderr.write(f"deckcli: warning: {ENV}={raw!r} is not a number of seconds or "
                         "'off'; ignored\n")
        return DELAY, EVERY
    return seconds, seconds
