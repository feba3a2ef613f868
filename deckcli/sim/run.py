"""A simulation from decklist files to report: read the decks, settle the house rules, plan the
games, play them where asked, and stop early when ``--until-ci`` is met.

The library entry points are :func:`load_deck`, :func:`house_rules`, :func:`two_decks`,
:func:`shared_deck` and :func:`matrix`; the CLI only parses options and prints.
"""

from __future__ import annotations

import os

from deckcli.errors import DeckcliError, UsageError, unreadable_deck
from deckcli.games.base import Game, check_playable_size
from deckcli.sim import report as reporting
from deckcli.sim.play import Spec, game_seed

BATCH = 100  # with --until-ci the interval is looked at after every BATCH games (50 pairs)


class Deck:
    """A deck read for play: its cards in decklist order, its verdict, its problems."""

    __slots__ = ("path", "game", "fingerprint", "cards", "errors", "label", "players")

    def __init__(self, path, game, fingerprint, cards, errors, label=None, players=None):
        self.path, self.game, self.fingerprint, self.cards = path, game, fingerprint, cards
        self.errors, self.label = errors, label
        self.players = players  # a shared deck's table: --players, else its header; else None



    def to_json(self) -> dict:
        from deckcli.diagnostics import visible_name

        return {"path": visible_name(self.path), "fingerprint": self.fingerprint}


def unapplied(card) -> bool:
    """Whether a play card has rules text and no effect data (nor overrides) to apply it."""
    return bool(card.text) and not card.effects and not card.overrides


def load_deck(path: str, index, game: str | None, players: int | None = None,
              event=None, deck=None) -> Deck:
    """Read a deck for play (``deck``: the file read already). A deck that cannot be read
    (reading errors: a line that is no card entry, as ``diff`` and ``build`` refuse it) or
    cannot start a game stops the command (exit 2); an illegal one is played, its problems
    returned for a warning: judged as ``validate`` judges it, with the ``event``'s format,
    bans, limits and legal sets when one is given."""
    from deckcli.decks.reader import read_deck
    from deckcli.games import GAMES
    from deckcli.validate import Options, validate_resolved

    if deck is None:
        deck = read_deck(path, is_set=index.is_any_set_code)
    report, rdeck = validate_resolved(deck, index, Options(game=game, players=players,
                                                           event=event))
    reading = [p for p in deck.problems if p.is_error]  # lines that are no card entry
    if rdeck is None or not deck.readable or reading:
        raise unreadable_deck(path, [*reading, *report.problems])
    unknown = [p for p in report.problems if p.rule in ("DL-3.3", "DL-3.4")]
    if unknown:
        raise DeckcliError(f"cannot be played: {unknown[0].message}", path=path,
                           line=unknown[0].line)
    check_playable_size(sum(r.entry.count for r in rdeck.entries), path)
    g = GAMES[report.game]
    cards = []
    for r in rdeck.entries:
        cards.extend([g.play_card(r.card)] * r.entry.count)
    errors = [p for p in report.problems if p.is_error]
    # the table it was checked for: --players, else its 'players:' header (alpha-walrus)
    table = report.extra.get("players") if g.shared_deck and not report.extra.get(
        "players_default") else None
    can_start(g, (c.kind for c in cards), path, table)
    return Deck(path, report.game, report.fingerprint, cards, errors, players=table)


def can_start(game: Game, kinds, path: str, players: int | None = None) -> None:
    """Stop (exit 2) for a deck no game can start from (``kinds``: its cards', one a copy):
    none can measure it. What a game needs of a deck is the game's (``Game.cannot_start``)."""
    why = game.cannot_start(kinds, players)
    if why:
        raise DeckcliError(f"cannot start a game: {why}", path=path)


def house_rules(game: Game, given: dict, event_rules: dict):
    """The house rules in force and where each came from: ``--house-rule``, then the event
    file, then the game's simulation defaults."""
    house = game.house_rules(event_rules, source="event", simulate=True)
    try:
        house.update(given, "house-rule")
    except UsageError as exc:
        raise UsageError(f"{exc.message} (given with --house-rule)") from None
    return house


def _plan(games: int, until_ci: float | None, pairs: bool) -> list[list[int]]:
    """The batches of game numbers: one batch, or BATCH at a time (an even number, so a pair's
    two games stay together) when the interval decides when to stop."""
    if games < 1:
        raise UsageError("--games must be at least 1")
    numbers = list(range(games))
    if until_ci is None:
        return [numbers]
    return [numbers[i:i + BATCH] for i in range(0, games, BATCH)]


def _play(spec: Spec, games: int, until_ci, where, progress, done, saver=None) -> list[dict]:
    """The records of the run's games in order; with a ``saver``, each game's log is written
    as its chunk comes in (and not kept)."""
    records: list[dict] = []
    for batch in _plan(games, until_ci, spec.pairs):
        for part in where.records(spec, batch, progress):
            if saver is not None:
                for r in part:
                    saver.save(r)
            records += part
        if until_ci is not None and done(records):
            break
    return records


def two_decks(game: Game, a: Deck, b: Deck, *, seed: int, policies: dict, house, games: int,
              max_turns: int, until_ci=None, where, saver=None, progress=None,
              db_dirs=()) -> dict:
    """A against B in seat-swapped pairs (game 2k: A first; 2k+1: the same shuffles, B first);
    ``saver``: a :class:`~deckcli.sim.logs.Saver` that writes each game's log."""
    from deckcli.sim.stats import narrow_enough, paired_rate

    spec = Spec(game.id, seed, {"a": a.cards, "b": b.cards}, ["p1", "p2"],
                {"p1": "a", "p2": "b"}, {"p1": policies["a"], "p2": policies["b"]},
                dict(house.given), max_turns, save=saver is not None, db_dirs=tuple(db_dirs))

    def done(records):  # the interval the report gives: for seat-swapped pairs
        units = reporting.pair_units(records, lambda r: r["winner"] == "a")
        return narrow_enough(paired_rate(units), sum(d for _, d in units), until_ci)

    records = _play(spec, games, until_ci, where, progress, done, saver)
    head = {"game": game.id, "seed": seed, "decks": {"a": a.to_json(), "b": b.to_json()},
            "policies": {"a": _name(game, policies["a"]), "b": _name(game, policies["b"])},
            "house_rules": house.used(), "facts": game.record_facts}
    return reporting.two_decks(head, records, house.by_rule)


def shared_deck(game: Game, deck: Deck, *, players: int, seed: int, policies: dict, house,
                games: int, max_turns: int, until_ci=None, where, saver=None,
                progress=None, db_dirs=(), players_default: bool = False) -> dict:
    """One shared deck for ``players`` seats (p1 takes the first turn in every game);
    ``players_default``: the number is the game's default, not asked for (the report says
    so)."""
    from deckcli.sim.stats import narrow_enough, wilson

    seats = [f"p{i + 1}" for i in range(players)]
    spec = Spec(game.id, seed, {"shared": deck.cards}, seats, {}, {s: policies[s] for s in seats},
                dict(house.given), max_turns, save=saver is not None,
                db_dirs=tuple(db_dirs), pairs=False)

    def done(records):
        decided = sum(1 for r in records if r["winner"] is not None)
        return all(narrow_enough(wilson(sum(1 for r in records if r["winner"] == s), decided),
                                 decided, until_ci) for s in seats)

    records = _play(spec, games, until_ci, where, progress, done, saver)
    head = {"game": game.id, "seed": seed, "decks": {"shared": deck.to_json()},
            "policies": {s: _name(game, policies[s]) for s in seats},
            "house_rules": house.used(), "players_default": players_default,
            "facts": game.record_facts}
    return reporting.shared_deck(head, records, seats, house.by_rule)


def matrix(game: Game, decks: list[Deck], *, seed: int, policies: dict, house, games: int,
           max_turns: int, until_ci=None, where, progress=None, db_dirs=()) -> dict:
    """Every pairing of ``decks``: each pair played once (its own seed from the run's seed and
    the pairing's number), B against A read off as one minus A against B."""
    pairings = []
    k = 0
    for i in range(len(decks)):
        for j in range(i + 1, len(decks)):
            one = two_decks(game, decks[i], decks[j], seed=game_seed(seed, k),
                            policies=policies, house=house, games=games, max_turns=max_turns,
                            until_ci=until_ci, where=where, progress=progress,
                            db_dirs=db_dirs)
            pairings.append({"a": i, "b": j, "seed": one["seed"], "games": one["games"],
                             "results": one["results"], "win_rate": one["win_rate"],
                             "gaps": one["gaps"], "turns": one["turns"],
                             "gap_rulings": one["gap_rulings"]})
            k += 1
    n = len(decks)
    grid = [[None] * n for _ in range(n)]
    bounds = [[None] * n for _ in range(n)]
    for p in pairings:
        i, j, wr = p["a"], p["b"], p["win_rate"]
        if wr["a"] is not None:
            grid[i][j], grid[j][i] = wr["a"], round(1 - wr["a"], 4)
            lo, hi = wr["ci95"]
            bounds[i][j], bounds[j][i] = [lo, hi], [round(1 - hi, 4), round(1 - lo, 4)]
    return {"version": reporting.VERSION, "game": game.id, "seed": seed, "games": games,
            "decks": [d.to_json() for d in decks],
            "policies": {"a": _name(game, policies["a"]), "b": _name(game, policies["b"])},
            "house_rules": house.used(), "pairings": pairings, "matrix": grid,
            "ci95": bounds}


def _name(game: Game, spec: str) -> str:
    from deckcli.sim.policies import make

    return make(game, spec).name


def check_save_targets(folder: str, inputs, games: int) -> None:
    """WriteError (exit 2), before any game, if a log the run may write into
    ``folder`` (``game-00001.yaml`` to the last game's) could not be written: one of
    ``inputs`` (the decks played, the event file), by any name (a deck named like a log, a
    log name that is a link to a deck), or a name the writer refuses to replace
    (:func:`~deckcli.decks.writer.check_target`: a folder, a FIFO, a read-only file, a link
    out of ``folder``). Found after the games, it stopped the run with some logs replaced."""
    import re

    from deckcli.decks.writer import check_not_input, check_target
    from deckcli.sim.logs import log_name

    try:
        names = sorted(os.listdir(folder))
    except OSError:  # not there yet: no log name in it is anything
        return
    for name in names:
        found = re.fullmatch(r"game-(\d{5,})\.yaml", name)
        if found and name == log_name(int(found.group(1)) - 1) and \
                int(found.group(1)) <= games:
            path = os.path.join(folder, name)
            check_not_input(path, inputs, "a deck or event file")
            check_target(path)


def sensitivity(report: dict, replay) -> list[dict]:
    """The same games under each other value of every gap met in more than a tenth of them
    (:data:`~deckcli.sim.report.RESTS_ON`): ``replay(key, value)`` plays them again, the seed,
    decks and policies unchanged, with that one house rule changed, and returns its report.
    One entry a value: the gap, its house rule and value, and that run's results and win
    rates (the report's own shapes)."""
    from deckcli.sim.report import RESTS_ON

    out = []
    games = report["games"]
    for rule, g in report.get("gap_rulings", {}).items():
        if not games or g["games"] <= RESTS_ON * games:
            continue
        for value in g["other_values"]:
            other = replay(g["house_rule"], value)
            out.append({"gap": rule, "house_rule": g["house_rule"], "value": value,
                        "results": other["results"], "win_rate": other["win_rate"]})
    return out
