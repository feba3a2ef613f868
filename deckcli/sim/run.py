"""A simulation from decklist files to report: read the decks, settle the house rules, plan the
games, play them where asked, and stop early when ``--until-ci`` is met.

The library entry point is :func:`simulate`: a :class:`~deckcli.sim.request.SimulateRequest` in,
a :class:`~deckcli.sim.request.Simulation` out; the CLI only gathers its options into the
request and prints the result. Its steps are entry points too (:func:`load_deck`,
:func:`house_rules`, :func:`two_decks`, :func:`shared_deck`, :func:`matrix`: the editor's
matchups and ``build`` play through them).
"""

from __future__ import annotations

import os

from deckcli.errors import DeckcliError, UsageError, unreadable_deck
from deckcli.games.base import Game, check_playable_size
from deckcli.sim import report as reporting
from deckcli.sim.ladder import standings
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


def illegal_warnings(decks, doing: str) -> list[str]:
    """The warnings for the decks to be played that are not legal (each with its first
    problems), ``doing`` saying what happens anyway ('simulated anyway': an illegal deck is
    played, never silently), then the one naming the cards whose text no effect data applies
    (:func:`unapplied_warning`)."""
    from deckcli.diagnostics import visible_name

    out = []
    for d in decks:
        if d.errors:
            shown = "; ".join(f"{p.rule}: {p.message}" for p in d.errors[:3])
            more = f" (and {len(d.errors) - 3} more)" if len(d.errors) > 3 else ""
            out.append(f"{visible_name(d.path)} is not a legal deck, {doing}: {shown}{more}")
    unapplied_cards = unapplied_warning([c for d in decks for c in d.cards])
    return out + ([unapplied_cards] if unapplied_cards else [])


def unapplied_warning(cards) -> str | None:
    """The warning naming the cards among ``cards`` (play cards) whose rules text no effect
    data applies (a user's own set, DB-2.5): the games played ignore what they say."""
    refs = sorted({c.ref for c in cards if unapplied(c)})
    if not refs:
        return None
    shown = ", ".join(refs[:8]) + (f" and {len(refs) - 8} more" if len(refs) > 8 else "")
    return (f"the text of {shown} is not applied in these games: it has no effect data "
            "(rule DB-2.5; docs/effects.md)")


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
            "ci95": bounds, "ladder": standings(
                game.id, [_name(game, policies["a"]), _name(game, policies["b"])])}


def _name(game: Game, spec: str) -> str:
    from deckcli.sim.policies import make

    return make(game, spec).name


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


def open_event(path: str, index, exclude, tell):
    """The event file ``path``, its banned and limited cards looked up in ``index`` and the
    configuration's ``exclude`` applied to its roster's folder walk (as ``validate --event``
    reads it); its warnings (an unknown code in ``sets``) told to ``tell``."""
    from deckcli.events.model import load_event

    event = load_event(path)
    event.exclude = exclude
    event.resolve(index)
    for message in event.warnings:
        tell.warning(message)
    return event


def simulate(request, listener=None):
    """Play the games ``request`` (a :class:`~deckcli.sim.request.SimulateRequest`) asks for
    and return the :class:`~deckcli.sim.request.Simulation`: two decks A against B, more (or
    a folder) every pairing as a matchup matrix (written as ``csv_path``/``html_path``), a
    shared-deck game's one deck for its seats; with ``sensitivity``, the same games again
    under each other value of the gaps they met. Everything that could stop the run (a file
    the run would write, the event, the decks, the policies) is checked before a game is
    played; what the run tells as it goes goes to ``listener``
    (:class:`~deckcli.sim.request.Listener`). Raises :class:`~deckcli.errors.DeckcliError`:
    :class:`~deckcli.errors.ArgumentsError` for decks that do not fit together."""
    from deckcli.cards import open_index
    from deckcli.diagnostics import visible_name
    from deckcli.errors import ArgumentsError
    from deckcli.files.write import check_not_input, check_target, writable_folder
    from deckcli.gamelog import parse_house_rules
    from deckcli.games import get
    from deckcli.sim.logs import check_save_targets
    from deckcli.sim.policies import default, make
    from deckcli.sim.request import Listener, Simulation
    from deckcli.sim.where import backend

    r, tell = request, listener or Listener()
    for target in (r.csv_path, r.html_path):  # refused before any game is played
        if target:
            check_target(target)
    if r.save_dir:
        writable_folder(r.save_dir)
    index = open_index(list(r.db_dirs))
    event = open_event(r.event_path, index, r.exclude, tell) if r.event_path else None
    wanted = r.game or (event.game if event else None)
    entries = _deck_paths(r.decks, r.exclude, tell)
    inputs = [*(path for path, _ in entries), r.event_path]
    for target in (r.csv_path, r.html_path):  # the matrix never replaces a deck it plays
        if target:
            check_not_input(target, inputs, "a deck or event file")
    if r.save_dir:  # a log never replaces a deck it plays (or the event file), nor what the
        check_save_targets(r.save_dir, inputs, r.games)  # writer refuses: found before a game
    game_id, loaded = _load_decks(entries, index, wanted, r.players, event, tell)
    g = get(game_id)
    ignored = []
    if r.players is not None and not g.shared_deck:
        ignored.append(f"--players {r.players} ({g.id} plays one deck a player)")
    if (r.csv_path or r.html_path) and (g.shared_deck or len(loaded) == 2):
        ignored.append("--csv/--html (a matchup matrix needs more than two decks)")
    if r.sensitivity and not g.shared_deck and len(loaded) > 2:
        ignored.append("--sensitivity (it goes with two decks or a shared deck)")
    for what in ignored:  # an option that changes nothing is said (DL-5.3)
        tell.warning(f"{what} changes nothing and is ignored", rule="DL-5.3")
    for message in illegal_warnings(loaded, "simulated anyway"):
        tell.warning(message)
    given, event_rules = parse_house_rules(r.house_rules), event.house_rules if event else {}
    house = house_rules(g, given, event_rules)
    policy = r.policy or default(g)
    pa, pb = r.policy_a or policy, r.policy_b or policy
    for spec in {pa, pb, policy}:
        make(g, spec)  # an unknown policy is a usage error before any game
    common = {"seed": r.seed, "house": house, "games": r.games, "max_turns": r.max_turns,
              "until_ci": r.until_ci, "db_dirs": list(r.db_dirs)}
    pairings = 1 if (g.shared_deck or len(loaded) == 2) else len(loaded) * (len(loaded) - 1) // 2
    where = backend(r.jobs, r.scheduler, r.games * pairings)
    progress = tell.progress(r.games * pairings)
    saver = None
    if r.save_dir:
        from deckcli.sim.logs import Saver

        saver = Saver(r.save_dir)
    try:
        if g.shared_deck:
            if len(loaded) != 1:
                raise ArgumentsError(f"{g.id} is played with one shared deck: give one "
                                     "DECK and --players N")
            n = loaded[0].players or g.default_players  # --players, else the deck's header
            seats = {f"p{i + 1}": policy for i in range(n)}
            seats["p1"], seats["p2"] = pa, pb
            def play(saver=None, progress=None, **changed):
                return shared_deck(g, loaded[0], players=n, policies=seats, where=where,
                                   saver=saver, progress=progress,
                                   players_default=loaded[0].players is None,
                                   **{**common, **changed})
            labels = {"shared": visible_name(loaded[0].path)}
        elif len(loaded) == 2:
            def play(saver=None, progress=None, **changed):
                return two_decks(g, loaded[0], loaded[1], policies={"a": pa, "b": pb},
                                 where=where, saver=saver, progress=progress,
                                 **{**common, **changed})
            labels = {k: visible_name(d.path) for k, d in zip("ab", loaded)}
        elif len(loaded) < 2:
            raise ArgumentsError("give two decks (A and B), more for a matchup matrix, or "
                                 "a folder of decks")
        else:
            if r.save_dir:
                raise ArgumentsError("--save-games goes with two decks")
            result = matrix(g, loaded, policies={"a": pa, "b": pb}, where=where,
                            progress=progress.advance, **common)
            from deckcli.sim.matrix import write

            write(result, r.csv_path, r.html_path, tell.wrote)
            labels = None
        if labels is not None:
            result = play(saver=saver, progress=progress.advance)
            if r.sensitivity:  # the same games, one house rule changed at a time
                result["sensitivity"] = sensitivity(result, lambda key, value: play(
                    house=house_rules(g, {**given, key: value}, event_rules)))
    except BaseException:  # stopped part-way (a write failed, Ctrl-C): say which logs are
        if saver is not None and saver.written:  # this run's, exactly
            progress.finish()
            tell.note(saver.stopped())
        raise
    finally:
        progress.finish()
        where.close()
    if saver is not None:
        older = saver.left_over(result["games"])
        if older:
            tell.note(older)
    return Simulation(result, labels, g.record_facts)


def _deck_paths(decks, exclude, tell) -> list[tuple[str, bool]]:
    """The deck files given, each with whether a folder walk found it (True) or it was named
    (False); what a walk finds that is no deck is left out with a note, and a path the walk
    found and could not read (a link out of the folder) stops the command (exit 2)."""
    from deckcli.decks.kinds import skipped_note
    from deckcli.validate import collect_paths, refuse_unread, stdin_once

    def collect(arg: str) -> list[str]:
        skipped: list = []
        found = collect_paths([arg], skipped, exclude)
        for path, kind in skipped:
            tell.note(skipped_note(path, kind))
        return found

    stdin_once(decks)
    return [(path, arg != "-" and os.path.isdir(arg))
            for arg in decks for path in refuse_unread(collect(arg))]


def _load_decks(entries, index, wanted, players, event, tell) -> tuple[str, list[Deck]]:
    """The game played and the decks to play. Those named as files are played as ``wanted``
    (else each as its header says: two games among them stop the command); a folder's decks
    of another game than the one played are skipped, each named in a warning. The game
    played: ``wanted`` (--game, the event's), else the named decks', else the one game of the
    folders' decks, else animal-battle (whose decks play one another; an alpha-walrus deck
    is played alone)."""
    from deckcli.decks.reader import read_deck
    from deckcli.diagnostics import visible_name
    from deckcli.errors import ArgumentsError
    from deckcli.games import DEFAULT_GAME
    from deckcli.validate import Options, pick_game

    named = {i: load_deck(path, index, wanted, players, event)
             for i, (path, walked) in enumerate(entries) if not walked}
    found = {}
    for i, (path, walked) in enumerate(entries):
        if walked:
            deck = read_deck(path, is_set=index.is_any_set_code)
            header, said = pick_game(deck, Options())  # the game its header names
            found[i] = deck, None if any(p.is_error for p in said) else header
    games = {g for _, g in found.values() if g}
    game_id = wanted or next((d.game for d in named.values()), None) or (
        next(iter(games)) if len(games) == 1 else DEFAULT_GAME)
    mixed = sorted({d.game for d in named.values()} - {game_id})
    if mixed:
        raise ArgumentsError(f"the decks are of more than one game ({game_id}, "
                             f"{', '.join(mixed)}); give decks of one game")
    loaded = []
    for i, (path, _) in enumerate(entries):
        if i in named:
            loaded.append(named[i])
            continue
        deck, own = found[i]
        if own is not None and own != game_id:
            tell.warning(f"{visible_name(path)} is an {own} deck, and {game_id} is played: "
                         "skipped (--game picks the game)")
            continue
        loaded.append(load_deck(path, index, wanted or game_id, players, event, deck))
    return game_id, loaded

