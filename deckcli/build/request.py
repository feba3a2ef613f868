"""What a build or a suggestion is asked (:class:`BuildRequest`), what it tells while it runs
(:class:`Listener`), and what it returns (:class:`Built`, :class:`Suggested`): the plain values
between ``deckcli build``/``deckcli suggest`` and :mod:`deckcli.build.run`.

The command line only gathers its options into a request, hands it to
:func:`deckcli.build.run.build` (or ``suggest``) with a listener that writes on stderr, and
prints the result; reading the collection, the event and the opponents, choosing the game and
the judge, the search, the measuring and writing ``out`` are the library's, so a script can run
the same build without click.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from deckcli.sim.request import Listener as _SimListener


@dataclass(frozen=True)
class BuildRequest:
    """One run of ``deckcli build`` or ``deckcli suggest``, each field the option of the same
    name.

    ``collection``: the binder (a decklist whose counts are the copies owned); ``deck``: the
    deck ``suggest`` improves (None for ``build``); ``games``/``measure``: the search's games
    in all and the fresh games against each opponent for the numbers reported (None: the
    game's ``build_effort``); ``policy``: how both sides play the judging games (None: the
    game's default); ``against``: decks or folders to be judged against (empty: the game's
    gauntlet); ``game``: the game played (None: the event's, else the files' headers', else the
    default game); ``out``: a file to write the built deck to (a text, YAML or JSON decklist by
    its suffix, written atomically after the build); ``exclude``: the configuration's
    ``exclude`` (path -> bool), which an ``against`` folder walk leaves out."""

    collection: str
    seed: int
    deck: str | None = None
    format: str | None = None
    players: int | None = None
    policy: str | None = None
    games: int | None = None
    measure: int | None = None
    budget: float | None = None
    house_rules: tuple[str, ...] = ()
    event_path: str | None = None
    against: tuple[str, ...] = ()
    game: str | None = None
    max_turns: int = 200
    jobs: int | str = "auto"
    scheduler: str | None = None
    sensitivity: bool = False
    diverse: int | None = None
    out: str | None = None
    db_dirs: tuple[str, ...] = ()
    exclude: Callable[[str], bool] | None = None


class Listener(_SimListener):
    """What a build tells while it goes (as :class:`deckcli.sim.request.Listener`): warnings,
    the file written, and the progress of its games. ``progress(None)`` gives the object the
    build reports to: ``advance(n)`` after every ``n`` games, ``phase(name, total)`` when it
    moves on to its next part (searching, measuring, before and after), ``finish()`` however
    it ends."""


@dataclass
class Built:
    """A build's result. ``missing``: why the collection cannot make a legal deck (then nothing
    else is set, and the command exits 1); ``deck``: the built deck as a text decklist, as
    ``fmt`` writes it; ``report``: the JSON report; ``stats``: the search's own figures (games,
    steps, seconds)."""

    missing: str | None = None
    deck: str = ""
    report: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    shared: bool = False

    def text(self, with_deck: bool = True) -> str:
        """The report as ``deckcli build`` prints it without ``--output json`` (the deck at its
        end when ``with_deck``)."""
        from deckcli.build import report

        render = report.render_built_shared if self.shared else report.render_built
        return "\n".join([render(self.report, self.stats, self.deck if with_deck else None),
                          *report.sensitivity_lines(self.report),
                          *report.diverse_lines(self.report)])


@dataclass
class Suggested:
    """A suggestion's result: ``report`` is its JSON."""

    report: dict

    def text(self) -> str:
        """The report as ``deckcli suggest`` prints it without ``--output json``."""
        from deckcli.build.report import render_suggested

        return render_suggested(self.report)
