"""The editor's simulations and suggestions, each in a process of its own (games are
CPU-bound: the editor stays responsive, and cancelling one is ending its process).

* :func:`simulate_argv`: this module run as ``python -m deckcli.editor.matchups SPEC``. It
  plays the deck against each opponent with ``simulate``'s own entry points
  (:func:`deckcli.sim.run.load_deck`, :func:`~deckcli.sim.run.house_rules`,
  :func:`~deckcli.sim.run.two_decks`, :func:`~deckcli.sim.run.shared_deck`), and prints one
  JSON line each time a chunk of games is played (the tallies so far) and one with each
  opponent's report, the one ``simulate --output json`` prints for the same seed and games.
* :func:`suggest_argv`: ``deckcli suggest DECK --collection FILE --output json`` itself.

The policy, the number of games and the turn bound are given by the caller: ``deckcli edit``
passes ``simulate``'s own defaults, so when those change the editor follows.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter


def simulate_argv(spec: dict) -> list[str]:
    """The command that plays ``spec``: deck (a path), against (paths; none for a shared
    deck), game, players, event (a path or None), db (folders), policy, games, max_turns,
    seed."""
    return [sys.executable, "-m", "deckcli.editor.matchups", json.dumps(spec)]


def suggest_argv(deck: str, collection: str, *, game: str, against=(), event=None,
                 players=None, db=()) -> list[str]:
    """``deckcli suggest``, its report as JSON on stdout (its defaults: the command's)."""
    argv = [sys.executable, "-m", "deckcli"]
    for folder in db:
        argv += ["--db", folder]
    argv += ["suggest", deck, "--collection", collection, "--game", game, "--output", "json"]
    for path in against:
        argv += ["--against", path]
    if event:
        argv += ["--event", event]
    if players:
        argv += ["--players", str(players)]
    return argv


def tally(winners: Counter, sides) -> dict:
    """Wins of each side (``a``/``b``, or seats) and undecided games, from the winners of the
    games played so far, with each side's win rate and 95% interval over the decided games
    (``simulate``'s own :func:`deckcli.sim.report.interval`)."""
    from deckcli.sim.report import interval

    decided = sum(winners[s] for s in sides)
    out = {"wins": {s: winners[s] for s in sides}, "undecided": winners[None],
           "decided": decided}
    out["rates"] = {s: interval(winners[s], decided) for s in sides}
    return out


class _Streaming:
    """A ``where`` backend (:mod:`deckcli.sim.where`) that plays in this process, chunk by
    chunk, and says after each chunk how the games stand."""

    def __init__(self, opponent: int, sides, emit):
        self.opponent, self.sides, self.emit = opponent, sides, emit

    def records(self, spec, numbers, progress=None):
        from deckcli.sim.play import play_many
        from deckcli.sim.where import chunks

        winners: Counter = Counter()
        played = 0
        for part in chunks(numbers):
            records = play_many(spec, part)
            played += len(records)
            winners.update(r["winner"] for r in records)
            self.emit({"opponent": self.opponent, "played": played,
                       "games": len(numbers), **tally(winners, self.sides)})
            yield records

    def run(self, spec, numbers, progress=None) -> list[dict]:
        return [r for part in self.records(spec, numbers, progress) for r in part]

    def close(self) -> None:
        pass


def play(spec: dict, emit) -> None:
    """Play ``spec`` (see :func:`simulate_argv`), calling ``emit`` with each line."""
    from deckcli.cards import open_index
    from deckcli.diagnostics import visible_name
    from deckcli.games import get
    from deckcli.sim import run

    index = open_index(spec.get("db") or ())
    event = None
    if spec.get("event"):
        from deckcli.events.model import load_event

        event = load_event(spec["event"])
        event.resolve(index)
    g = get(spec["game"])
    deck = run.load_deck(spec["deck"], index, g.id, spec.get("players"), event)
    house = run.house_rules(g, {}, event.house_rules if event else {})
    common = {"seed": spec["seed"], "house": house, "games": spec["games"],
              "max_turns": spec["max_turns"], "db_dirs": spec.get("db") or ()}
    if g.shared_deck:
        n = spec.get("players") or g.default_players
        seats = [f"p{i + 1}" for i in range(n)]
        result = run.shared_deck(g, deck, players=n, policies=dict.fromkeys(seats, spec["policy"]),
                                 where=_Streaming(0, seats, emit),
                                 players_default=spec.get("players") is None, **common)
        emit({"opponent": 0, "result": result})
        return
    for i, path in enumerate(spec["against"]):
        other = run.load_deck(path, index, g.id)
        if other.errors:
            emit({"opponent": i, "warning": f"{visible_name(path)} is not a legal deck, "
                                            f"played anyway: {other.errors[0].message}"})
        result = run.two_decks(g, deck, other, policies={"a": spec["policy"],
                                                          "b": spec["policy"]},
                               where=_Streaming(i, ("a", "b"), emit), **common)
        emit({"opponent": i, "result": result})


def main(argv: list[str]) -> int:
    from deckcli.errors import DeckcliError

    def emit(line: dict) -> None:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()

    try:
        play(json.loads(argv[0]), emit)
    except DeckcliError as exc:
        emit({"error": str(exc)})
        return 2
    except BrokenPipeError:  # the editor stopped listening (cancelled): nothing to say
        os._exit(0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
