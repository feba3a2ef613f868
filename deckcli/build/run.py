"""``build`` and ``suggest`` as library calls: :func:`build` and :func:`suggest` take a
:class:`~deckcli.build.request.BuildRequest` and a
:class:`~deckcli.build.request.Listener` and return the result; the command line only
gathers its options and prints.

Everything that could stop a run (the file to write, the event, the collection, the
opponents, the policy) is checked before a game is played. Errors are
:class:`~deckcli.errors.DeckcliError` (exit 2); :class:`~deckcli.errors.ArgumentsError` for
inputs that do not fit together.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from typing import TYPE_CHECKING

from deckcli.build.request import BuildRequest, Built, Listener, Suggested

if TYPE_CHECKING:
    from deckcli.build.search import Judge
    from deckcli.build.shared import SeatJudge


class Session:
    """What build and suggest share: the index, the event, the binder, the opponents, the
    judge (what :mod:`deckcli.build.report` reads: ``game``, ``index``, ``binder``, ``decks``,
    ``event``, ``seed``, ``players``, ``judge``)."""

    def __init__(self, request: BuildRequest, tell: Listener):
        from deckcli.build.collection import read_binder
        from deckcli.build.search import Judge
        from deckcli.cards import open_index
        from deckcli.decks.header import header_game
        from deckcli.decks.reader import read_deck
        from deckcli.errors import ArgumentsError
        from deckcli.gamelog import parse_house_rules
        from deckcli.games import DEFAULT_GAME, get
        from deckcli.sim import run as sim_run
        from deckcli.sim.policies import default, make
        from deckcli.sim.where import backend

        r = request
        self.index = index = open_index(list(r.db_dirs))
        self.event = sim_run.open_event(r.event_path, index, r.exclude, tell) \
            if r.event_path else None
        # each file is read once: its header says its game, and it is what the build reads
        self.decks = {path: read_deck(path, is_set=index.is_any_set_code)
                      for path in (r.deck, r.collection) if path}
        headers = {path: header_game(deck) for path, deck in self.decks.items()}
        said = {g for g in headers.values() if g}
        if len(said) > 1:
            raise ArgumentsError("the deck and the collection are of two games: " + ", ".join(
                f"{path} is {g}" for path, g in headers.items() if g))
        game_id = r.game or (self.event.game if self.event else None) \
            or next(iter(said), None) or DEFAULT_GAME
        self.game = game = get(game_id)
        fmt: str | None = None if game.shared_deck else r.format or (
            self.event.format if self.event else None) or game.default_format  # no formats
        self.binder = read_binder(r.collection, index, game.id, fmt, self.event,
                                  deck=self.decks[r.collection])
        unapplied = sim_run.unapplied_warning([s.info for s in self.binder.stock])
        if unapplied:
            tell.warning(unapplied)
        self.seed = r.seed
        self.opponents = []
        if not game.shared_deck:  # one shared deck: there are no opponents' decks
            from deckcli.validate import walk_decks

            paths = list(r.against) or _gauntlet(game.id)
            mine = r.exclude if r.against else None  # the gauntlet is deckcli's own
            self.opponents = [sim_run.load_deck(p, index, game.id)
                              for p in walk_decks(paths, exclude=mine)]
            if not r.against:  # shown by name: where the package is installed is noise
                for d in self.opponents:
                    d.path = "gauntlet:" + os.path.basename(d.path)
            for message in sim_run.illegal_warnings(self.opponents, "played against anyway"):
                tell.warning(message)
        self.house = sim_run.house_rules(game, parse_house_rules(r.house_rules),
                                         self.event.house_rules if self.event else {})
        self.policy = r.policy or default(game)
        make(game, self.policy)  # an unknown policy: a usage error before any game
        # the effort's defaults are the game's: a shared-deck game may be many times longer
        self.games = r.games or game.build_effort[0]
        self.measure = r.measure or game.build_effort[1]
        # --jobs auto weighs the games the whole run plays, not the search's alone: the
        # measuring plays about ten times --measure a matchup (the built deck, the start under
        # two policies, each card's swap on half of it)
        self.where = backend(r.jobs, r.scheduler,
                             self.games + 10 * self.measure * max(1, len(self.opponents)))
        self.players = r.players
        self.progress = tell.progress(None)
        self.judge: Judge | SeatJudge
        how = {"progress": self.progress.advance, "phase": self.progress.phase}
        if game.shared_deck:
            from deckcli.build.shared import SeatJudge

            self.players = self.players or game.default_players
            self.table = game.shared_table(self.binder, self.players, index)
            self.judge = SeatJudge(game, self.binder, self.players, policy=self.policy,
                                   house=self.house, seed=self.seed, max_turns=r.max_turns,
                                   where=self.where, db_dirs=list(r.db_dirs), **how)
        else:
            self.judge = Judge(game, self.binder, self.opponents, policy=self.policy,
                               house=self.house, seed=self.seed, max_turns=r.max_turns,
                               where=self.where, db_dirs=list(r.db_dirs), **how)

    def close(self) -> None:
        self.progress.finish()
        self.where.close()

    def ignored(self, r: BuildRequest, tell: Listener) -> None:
        """Options that change nothing for this game warn (DL-5.3) instead of passing
        silently."""
        ignored = []
        if self.game.shared_deck:
            if r.against:
                ignored.append(f"--against ({self.game.id} shares one deck: there is no "
                               "opponent's deck)")
            if r.format:
                ignored.append(f"--format {r.format} ({self.game.id} has no formats)")
            if r.diverse:
                ignored.append(f"--diverse {r.diverse} (a shared deck is chosen for the most "
                               "even seats)")
        elif r.players is not None:
            ignored.append(f"--players {r.players} ({self.game.id} plays one deck a player)")
        for what in ignored:
            tell.warning(f"{what} changes nothing and is ignored", rule="DL-5.3")


def build(request: BuildRequest, listener: Listener | None = None) -> Built:
    """Build the strongest legal deck ``request.collection`` can make, judged by simulated
    games, and return it with its report (written to ``request.out`` too, when given).
    ``Built.missing`` says why the collection cannot make a legal deck, when it cannot."""
    from deckcli.build import report

    r, tell = request, listener or Listener()
    out_format = None
    if r.out:  # refused before the search, not after it
        from deckcli.files.write import check_target

        check_target(r.out)
        out_format = written_format(r.out)
    s = Session(r, tell)
    if r.out:  # the deck never replaces the collection, an --against deck or the event
        from deckcli.files.write import check_not_input

        check_not_input(r.out, [r.collection, r.event_path,
                                *(d.path for d in s.opponents if r.against)],
                        "the collection, an --against deck or the event file")
    s.ignored(r, tell)
    why = s.table.missing() if s.game.shared_deck else s.binder.missing()
    if why:
        from deckcli.diagnostics import visible_name

        what = f"{s.players}-player {s.game.id}" if s.game.shared_deck else s.binder.format
        s.close()
        return Built(missing=f"{visible_name(r.collection)}: no legal {what} deck: {why}")
    start = time.perf_counter()
    try:
        found = _shared(s, r) if s.game.shared_deck else _decks(s, r)
    finally:
        s.close()
    text, result, stats = found
    stats["seconds"] = time.perf_counter() - start
    if r.out:
        from deckcli.files.write import atomic_write

        content = report.deck_file(s, text, out_format or "text", result["fingerprint"])
        atomic_write(r.out, content.encode("utf-8"))
        tell.wrote(r.out)
    return Built(deck=text, report=result, stats=stats, shared=s.game.shared_deck)


def _shared(s: Session, r: BuildRequest) -> tuple[str, dict, dict]:
    """A shared deck's build: the deck that evens out the seats most, measured."""
    from deckcli.build import report, shared
    from deckcli.build.sensitivity import sensitivity

    judge = s.judge
    assert isinstance(judge, shared.SeatJudge)
    best, stats = shared.search(judge, s.table, random.Random(s.seed), games=s.games,
                                budget=r.budget)
    judge.stage("measuring", s.measure)
    measured = shared.measure(judge, best, s.measure)
    sensitive = sensitivity(judge, Counter(measured["gaps"]), measured["games"],
                            lambda: shared.measure(judge, best, s.measure)) \
        if r.sensitivity else None
    _totals(stats, judge)
    text, result = report.built_shared(s, best, measured, stats)
    if sensitive is not None:
        result["sensitivity"] = report.sensitivity(sensitive)
    return text, result, stats


def _decks(s: Session, r: BuildRequest) -> tuple[str, dict, dict]:
    """A deck of one's own: the search (or ``diverse`` searches), then the built deck measured
    on fresh games, set beside the start, and each card's part in it."""
    from deckcli.build import report
    from deckcli.build.diverse import diverse
    from deckcli.build.explain import before_after, explain, measure, measure_all
    from deckcli.build.search import Judge, search
    from deckcli.build.sensitivity import sensitivity

    judge = s.judge
    assert isinstance(judge, Judge)
    picks: list = []
    if r.diverse:
        picks, stats = diverse(judge, s.binder, random.Random(s.seed), r.diverse,
                               games=s.games, budget=r.budget)
        best = picks[0]
    else:
        best, stats = search(judge, s.binder, random.Random(s.seed), games=s.games,
                             budget=r.budget)
    judge.stage("measuring", s.measure * len(s.opponents) * max(1, len(picks)))
    measured, *rest = measure_all(judge, [c.cards(s.binder) for c in picks or [best]],
                                  s.measure, "final")
    others = list(zip(picks[1:], rest))
    judge.stage("before and after", 2 * s.measure * len(s.opponents))
    compared = before_after(judge, s.binder, stats["start"], best, measured, s.measure,
                            "final")
    explained = explain(judge, s.binder, best, measured, max(20, s.measure // 2), "final")
    sensitive = None
    if r.sensitivity:
        sensitive = sensitivity(judge, sum((Counter(m["gaps"]) for m in measured), Counter()),
                                sum(m["games"] for m in measured),
                                lambda: measure(judge, best.cards(s.binder), s.measure,
                                                "final"))
    _totals(stats, judge)
    text, result = report.built(s, best, measured, explained, stats, compared)
    if sensitive is not None:
        result["sensitivity"] = report.sensitivity(sensitive)
    if r.diverse:
        result["diverse"] = report.diverse(s, [(best, measured), *others])
    return text, result, stats


def _totals(stats: dict, judge) -> None:
    """The games the whole run played (the measuring included), and the time spent playing
    them."""
    stats["playing"] = judge.playing
    stats["all_games"] = judge.games


def suggest(request: BuildRequest, listener: Listener | None = None) -> Suggested:
    """The few single-card swaps from ``request.collection`` that improve ``request.deck``
    most, each with its simulated gain and paired 95% interval (a shared deck: the one-copy
    changes that even out the seats)."""
    from deckcli.build import report, shared
    from deckcli.build.explain import improvements, measure

    r, tell = request, listener or Listener()
    if r.deck is None:
        from deckcli.errors import ArgumentsError

        raise ArgumentsError("suggest improves a deck: give the deck")
    s = Session(r, tell)
    s.ignored(r, tell)
    try:
        cand, problems = report.as_candidate(s, r.deck)
        judge = s.judge
        if isinstance(judge, shared.SeatJudge):  # one-copy changes that even out the seats
            judge.stage("measuring", s.measure)
            seats = shared.measure(judge, cand, s.measure)
            found = shared.improvements(judge, s.table, cand, s.measure, s.games)
            result = report.suggested_shared(s, r.deck, seats, found)
        else:
            judge.stage("measuring", s.measure * len(s.opponents))
            measured = measure(judge, cand.cards(s.binder), s.measure, "final")
            swaps = improvements(judge, s.binder, cand, measured, s.measure, "final")
            result = report.suggested(s, r.deck, measured, swaps)
    finally:
        s.close()
    for p in problems:
        tell.warning(p)
    return Suggested(result)


def _gauntlet(game_id: str) -> list[str]:
    from deckcli.build.gauntlet import decks
    from deckcli.errors import ArgumentsError

    found = decks(game_id)
    if not found:
        raise ArgumentsError(f"{game_id} has no gauntlet: give --against DECK")
    return found


def written_format(out: str) -> str:
    """The decklist format ``out`` is read back as (its suffix, as every command reads a
    file): ``text`` (``.txt``, ``.deck``, ``.dck``, any other suffix), ``yaml`` or ``json``,
    which build writes as ``fmt`` writes them. A CSV, Cockatrice or MTGO file cannot say which
    game and format the deck is for, so it would not read back as the deck built: UsageError
    (exit 2), naming the convert that makes one from a text decklist."""
    from deckcli.decks.reader import detect_format
    from deckcli.diagnostics import command_text, visible_name
    from deckcli.errors import UsageError

    found = detect_format(out, "")
    if found in ("text", "yaml", "json"):
        return found
    text = visible_name(os.path.splitext(out)[0] + ".txt")
    then = command_text("deckcli", "convert", text, "--to", found, "-o", visible_name(out))
    raise UsageError(f"would be read back as a {found} decklist, which cannot say the deck's "
                     f"game and format: write a .txt, .yaml or .json deck, then {then}; "
                     "nothing built", path=out)
