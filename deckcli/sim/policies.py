"""How players choose, a name -> policy table: ``random`` and ``search[:N]`` (information-set
tree search, :mod:`.search`) for every game, and each game's own heuristics (``greedy``,
``expert``, in ``deckcli/games/<game>/policies.py``).

A policy has ``choose(engine, view, actions, rng) -> action``: the view is what its player may
know (``Engine.view``), the actions are the legal ones, and every random choice comes from
``rng``, the generator the game gives that player (seeded from the run's seed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.errors import UsageError

if TYPE_CHECKING:
    from deckcli.games.base import Game


class Random:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, engine, view, actions, rng):
        return actions[rng.randrange(len(actions))]


def make(game: Game, spec: str):
    """The policy ``spec`` names for ``game`` (a usage error, listing the names, otherwise)."""
    from deckcli.sim import search

    spec = str(spec).strip().lower()
    if spec == "random":
        return Random()
    module = game.policies()
    found = module.POLICIES[spec]() if spec in module.POLICIES else None
    if found is None and spec.startswith("search"):
        found = search.make(game, spec, make(game, getattr(module, "ROLLOUT", "random")),
                            prior=make(game, default(game)))
    if found is None:
        raise UsageError(f"unknown policy {spec!r} for {game.id}; known: {', '.join(names(game))} "
                         "(search:N sets its iterations a decision)")
    return found


#: what plays when no policy is named: the strongest heuristic, where the game has one
DEFAULT = "expert"


def default(game: Game) -> str:
    """The policy a run uses when none is named: ``expert``, else (a game without one) the
    game's last listed heuristic."""
    known = names(game)
    return DEFAULT if DEFAULT in known else [n for n in known if n != "search"][-1]


def names(game: Game) -> list[str]:
    """Every policy name ``game`` knows, the generic ones included."""
    module = game.policies()
    return ["random", *module.POLICIES, "search"]
