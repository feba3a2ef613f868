"""``search[:N]``: information-set Monte Carlo tree search, for every game, over the game
interface alone (:mod:`deckcli.games.interface`).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). The searching player sees only
its view; each of the N iterations deals a whole game consistent with that view
(``Engine.sample``: a determinization, with chance re-seeded from the searcher's generator),
then walks one tree shared by every determinization:

* **selection**: at a node, the actions legal in this determinization; one never tried here is
  expanded first, else the child with the best upper confidence bound, where a child's
  exploration counts the iterations in which it was *available* (legal), not the parent's
  visits (availability counts, which keep a rarely legal action from looking over-explored);
* **playout**: from the new node, the game's rollout policy (its strongest heuristic, for every
  player) plays ``depth`` more decisions, then the game's evaluation scores the position for
  every player (``returns`` when the game is over);
* **back-propagation**: every node on the path adds each player's score; a node's value is
  read for the player who chose the action leading to it (max^n: with more than two players
  each chooses for itself).

The action played is the root's most visited child, but only when it has at least
:data:`MIN_VISITS` visits and its mean score beats that of the action the game's strongest
heuristic (its default policy, ``expert``) would play by :data:`MARGIN`; otherwise the
heuristic's action. So the search starts from the best player deckcli has and departs from it
only where its deals show something clearly better: with few iterations it plays as the
heuristic does, and a handful of unlucky deals cannot talk it out of a sound move. Every
random choice comes from the player's generator, so a run replays; ``tests/test_simulate.py``
holds the search to what its player may know (the twin-game test).

The game supplies, through its policies module: ``ROLLOUT`` (the name of the policy playouts
use, default ``random``) and ``evaluate(engine, state) -> {player: score in [0, 1]}``
(default: the engine's ``returns``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcli.games.base import Game
    from deckcli.games.interface import Engine

#: iterations a decision when ``search`` is given no number
DEFAULT_ITERATIONS = 64
#: decisions a playout makes before the position is evaluated
DEFAULT_DEPTH = 40
#: the exploration constant of the upper confidence bound (scores are in [0, 1])
EXPLORE = 0.7
#: how much better (in score) the search's choice must look than the heuristic's to replace it
MARGIN = 0.05
#: the visits the search's choice needs before it may replace the heuristic's
MIN_VISITS = 8


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "action")

    def __init__(self, action=None):
        self.action = action  # the action leading here (the game's own value)
        self.children: dict = {}  # action key -> _Node
        self.visits = 0
        self.avail = 0
        self.total: dict[str, float] = {}  # player -> summed score


class Search:
    """An ISMCTS player (see the module's docstring)."""

    def __init__(self, game: Game, rollout, iterations: int = DEFAULT_ITERATIONS,
                 depth: int = DEFAULT_DEPTH, prior=None):
        """``rollout``: the policy every player's playouts use (the game's ``ROLLOUT``);
        ``prior``: the heuristic whose choice the search keeps unless it finds better."""
        self.game, self.iterations, self.depth = game, iterations, depth
        self.name = "search" if iterations == DEFAULT_ITERATIONS else f"search:{iterations}"
        self.rollout = rollout
        self.prior = prior
        self.evaluate = getattr(game.policies(), "evaluate", None)

    def choose(self, engine: Engine, view, actions, rng):
        if len(actions) == 1:
            return actions[0]
        key = engine.action_key
        me = view.player
        legal_keys = {key(a): a for a in actions}
        hint = None
        if self.prior is not None:
            hint = self.prior.choose(engine, view, actions, rng)
        root = _Node()
        for _ in range(self.iterations):
            state = engine.sample(view, rng)
            self._iterate(engine, root, state, rng)
        best = None
        for k, child in root.children.items():
            if k in legal_keys and (best is None or (child.visits, _mean(child, me)) >
                                    (best.visits, _mean(best, me))):
                best = child
        if best is None:  # the samples never met the real choice: the heuristic's
            return hint if hint is not None else self.rollout.choose(engine, view, actions, rng)
        if hint is not None:
            kept = root.children.get(key(hint))
            if kept is None or best.visits < MIN_VISITS or \
                    _mean(best, me) < _mean(kept, me) + MARGIN:
                return hint
        return legal_keys[key(best.action)]

    def _iterate(self, engine: Engine, root: _Node, state, rng) -> None:
        key = engine.action_key
        node = root
        path: list[tuple[_Node, str | None]] = [(root, None)]
        expanded = False
        while not engine.is_over(state) and not expanded:
            mover, legal = engine.choices(state)
            if not legal:
                break
            if mover is None or len(legal) == 1:  # no decision here: not a node of the tree
                engine.apply(state, legal[0])
                continue
            children = node.children
            keyed = [(key(a), a) for a in legal]
            untried = []
            for k, a in keyed:
                child = children.get(k)
                if child is None:
                    untried.append((k, a))
                else:
                    child.avail += 1
            if untried:
                k, action = untried[rng.randrange(len(untried))]
                child = children[k] = _Node(action)
                child.avail = 1
                expanded = True
            else:  # the action as this deal has it: the same key may name other objects in
                # another deal (a card held at another place in the hand)
                k, action = max(keyed, key=lambda ka: _ucb(children[ka[0]], mover))
                child = children[k]
            engine.apply(state, action)
            node = child
            path.append((child, mover))
        scores = self._playout(engine, state, rng)
        for n, _mover in path:
            n.visits += 1
            total = n.total
            for p, v in scores.items():
                total[p] = total.get(p, 0.0) + v

    def _playout(self, engine: Engine, state, rng) -> dict[str, float]:
        policy = self.rollout
        for _ in range(self.depth):
            if engine.is_over(state):
                break
            mover, legal = engine.choices(state)
            if not legal:
                break
            if mover is None or len(legal) == 1:
                action = legal[0]
            else:
                action = policy.choose(engine, engine.view(state, mover), legal, rng)
            engine.apply(state, action)
        if not engine.is_over(state) and self.evaluate is not None:
            return self.evaluate(engine, state)
        return engine.returns(state)


def _mean(node: _Node, player: str) -> float:
    return node.total.get(player, 0.0) / node.visits if node.visits else 0.0


def _ucb(node: _Node, player: str) -> float:
    if not node.visits:
        return math.inf
    return (node.total.get(player, 0.0) / node.visits
            + EXPLORE * math.sqrt(math.log(max(node.avail, 1)) / node.visits))


def make(game: Game, spec: str, rollout, prior=None) -> Search | None:
    """``search`` or ``search:N`` (N iterations a decision, 1 to 100,000) with playouts by
    ``rollout``; None for another name."""
    name, _, arg = spec.partition(":")
    if name != "search":
        return None
    if not arg:
        return Search(game, rollout, prior=prior)
    if arg.isdigit() and 1 <= int(arg) <= 100_000:
        return Search(game, rollout, int(arg), prior=prior)
    return None
