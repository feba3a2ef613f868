"""What a simulation is asked (:class:`SimulateRequest`), what it tells while it runs
(:class:`Listener`), and what it returns (:class:`Simulation`): the plain values between
``deckcli simulate`` and :func:`deckcli.sim.run.simulate`.

The command line only gathers its options into a request, hands it to ``simulate`` with a
listener that writes on stderr, and prints the result in the format asked; everything else
(reading the decks and the event, the game played, the seats, where the games run, the
sensitivity runs) is the library's, so a script can run the same simulation without click.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SimulateRequest:
    """One run of ``deckcli simulate``, each field the option of the same name.

    ``decks``: the paths given (files, folders, ``-``); ``games``: for each pairing (with
    ``until_ci``, at most this many); ``policy``: every player's (None: the game's default),
    ``policy_a``/``policy_b``: deck A's and B's (or seats p1's and p2's); ``house_rules``: the
    ``KEY=VALUE`` rulings as given; ``game``: the game played (None: the event's, else the
    decks'); ``players``: a shared deck's seats; ``csv_path``/``html_path``: the matchup matrix
    files to write; ``save_dir``: the folder for each game's log; ``db_dirs``: extra card
    database folders; ``exclude``: the configuration's ``exclude`` (path -> bool), which a
    folder walk and the event's roster leave out."""

    decks: tuple[str, ...]
    seed: int
    games: int = 1000
    policy: str | None = None
    policy_a: str | None = None
    policy_b: str | None = None
    house_rules: tuple[str, ...] = ()
    event_path: str | None = None
    sensitivity: bool = False
    max_turns: int = 200
    until_ci: float | None = None
    save_dir: str | None = None
    players: int | None = None
    jobs: int | str = "auto"
    scheduler: str | None = None
    csv_path: str | None = None
    html_path: str | None = None
    game: str | None = None
    db_dirs: tuple[str, ...] = ()
    exclude: Callable[[str], bool] | None = None


class Listener:
    """What a run tells while it goes, each a method (as black's ``Report``): this one keeps
    nothing, so a script's run is silent; the command line's writes each on stderr."""

    def warning(self, message: str, rule: str | None = None) -> None:
        """Something the user should know that does not stop the run (an option that changes
        nothing, ``rule``: DL-5.3; an illegal deck played anyway)."""

    def note(self, message: str) -> None:
        """What the run did beside its report (a file a folder walk left out, the game logs
        written)."""

    def wrote(self, path: str) -> None:
        """A file written beside the report (the matchup matrix's CSV or HTML)."""

    def progress(self, total: int | None):
        """What follows the games played (``total`` in the run, None: not known yet): an
        object with ``advance(n)`` after every ``n`` games, ``phase(name, total)`` when the run
        moves on to its next part, and ``finish()`` however the run ends."""
        return _Quiet()


class _Quiet:
    def advance(self, n: int) -> None:
        pass

    def phase(self, name: str | None, total: int | None = None) -> None:
        pass

    def finish(self) -> None:
        pass


@dataclass(frozen=True)
class Simulation:
    """A run's result: ``report`` is its JSON (:mod:`deckcli.sim.report`'s shapes, a matchup
    matrix's for more than two decks); ``labels`` names the decks in the text (None: a
    matrix); ``facts``: the game's record facts the text lists."""

    report: dict
    labels: dict | None
    facts: dict

    def text(self) -> str:
        """The report as ``deckcli simulate`` prints it without ``--output json``."""
        if self.labels is None:
            from deckcli.sim.matrix import render

            return render(self.report)
        from deckcli.sim import report as reporting

        return "\n".join([reporting.render(self.report, self.labels, self.facts),
                          *reporting.sensitivity_lines(self.report)])
