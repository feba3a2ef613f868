"""How players choose, a name -> policy table: ``random`` and ``search[:N]`` (information-set
tree search, :mod:`.search`) for every game, and each game's own heuristics (``greedy``,
``expert``, in ``deckcli/games/<game>/policies.py``).

A policy has ``choose(engine, view, actions, rng) -> action``: the view is what its player may
know (``Engine.view``), the actions are the legal ones, and every random choice comes from
``rng``, the generator the game gives that player (seeded from the run's seed).
"""

from __future__ import annotations

from deckcli.errors import UsageError


class Random:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, engine, view, actions, rng):
        return actions[rng.randrange(len(actions))]


def make(game, spec: str):
    """The policy ``spec`` names for ``game`` (a usage error, listing the names, otherwise)."""
    from deckcli.sim import search

    spec = str(spec).strip().lower()
    if spec == "random":
        return Random()
    module = game.policies()
    found = module.make(spec)
    if found is None and spec.startswith("search"):
        found = search.make(game, spec, make(game, getattr(module, "ROLLOUT", "random")))
    if found is None:
        raise UsageError(f"unknown policy {spec!r} for {game.id}; known: {', '.join(names(game))} "
                         "(search:N sets its iterations a decision)")
    return found


def names(game) -> list[str]:
    """Every policy name ``game`` knows, the generic ones included."""
    module = game.policies()
    return ["random", *(n for n in module.NAMES if n != "random"), "search"]
