"""How players choose, a name -> policy table: ``random`` for every game, and each game's own
(``greedy``, ``search``, in ``deckcli/games/<game>/policies.py``).

A policy has ``choose(engine, view, actions, rng) -> action``: the view is what its player may
know (``Engine.view``), the actions are the legal ones, and every random choice comes from
``rng``, the generator the game gives that player (seeded from the run's seed).
"""

from __future__ import annotations

from deckcli.errors import UsageError


class Random:
    """Uniform over the legal actions."""

    name = "random"
    needs_unseen = False

    def choose(self, engine, view, actions, rng):
        return actions[rng.randrange(len(actions))]


def make(game, spec: str):
    """The policy ``spec`` names for ``game`` (a usage error, listing the names, otherwise)."""
    spec = str(spec).strip().lower()
    if spec == "random":
        return Random()
    module = game.policies()
    found = module.make(spec)
    if found is None:
        tune = " (search:N sets its playouts)" if "search" in module.NAMES else ""
        raise UsageError(f"unknown policy {spec!r} for {game.id}; known: "
                         f"{', '.join(module.NAMES)}{tune}")
    return found
