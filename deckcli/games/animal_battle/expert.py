"""``expert``: the strongest animal-battle heuristic, written from the game's own logic. It
reads only its player's view (:class:`.view.View`) and looks no further than the attack
sequence under way, which it works out exactly.

:mod:`.sequence` works the attack sequence out exactly: :func:`~.sequence.stop_cost`
is what stopping a Challenger costs the defending side at best.

**What an attack is worth.** A Challenger left standing keeps attacking: its ``threat`` is what
it is expected to take before an Animal the defending side still owns (the decklist, which is
open, minus what has been seen) holds it on every statistic, at most ``horizon`` Animals, and
all of them when none can (it can no longer be stopped). Stopping it gains the defending side
its worth, its threat, and the next attack (``initiative``). So the defending side stops it
when the cost is below all that and its threat again (declining leaves it standing), and
declines a hopeless promotion.

With it the expert selects as Defender the Animal whose sequence costs least (of those the
Challenger beats on nothing the strongest, as it stays to meet the next one; else a cheap one,
or one that makes the Challenger spend the statistics a Pool Animal then holds on: the
Challenger always names a statistic it wins on), promotes only when the rest of the sequence
pays, names the statistic that leaves the most to pay for stopping it, and establishes (and
reveals at setup) the Challenger whose sequence pays best against the Defender on the table, or
the one the defending player would select. Where the defending Pool is hidden
(``pool_visibility=hidden``, AB-G.10) it deals the Pool (:data:`SAMPLES` times a decision) from
the Animals the opponent may hold and takes the mean. It fills its Pool with the strongest
Animals first, and plays an action card when it pays (:func:`pays`): a draw or a look at its
own deck at once (it puts its best cards on top), a hidden Pool shown before it attacks, a
statistic once more when its Challenger wins on no unused one, a skipped attack when it cannot
win, a swap of Challenger when another pays clearly more, a Defender from the hand when its
Pool has none that pays, a bigger Pool when its Pool is full, and an Animal back to the hand
when a better one waits there for a full Pool.
"""

from __future__ import annotations

import random

from deckcli.games.animal_battle import POOL_SIZE
from deckcli.games.animal_battle.sequence import (
    ALL,
    BIT,
    LOSE,
    PARAMS,
    Attack,
    Book,
    Rules,
    tables,
)

#: the Pools a hidden Pool is dealt as, for one decision
SAMPLES = 1


class Expert:
    """The ``expert`` policy (see the module's docstring)."""

    name = "expert"

    def __init__(self, samples: int = SAMPLES, params: dict | None = None):
        self.samples = samples
        self.params = {**PARAMS, **(params or {})}

    #: what one choice works out once (:meth:`attack`), None between choices
    _memo: dict | None = None

    def choose(self, engine, view, actions, rng):
        self._memo = {}
        try:
            return self._decide(view, actions)
        finally:
            self._memo = None

    def _decide(self, view, actions):
        verb = actions[0][1]
        if verb == "choose":
            return self._choose(view, actions)
        if actions[-1][1] == "play":  # the legal actions list cards last
            for a in actions:
                if a[1] == "play" and pays(self, view, a):
                    return a
        by: dict[str, list] = {}
        for a in actions:
            by.setdefault(a[1], []).append(a)
        for verb in ("start", "draw", "target"):
            if verb in by:
                return by[verb][0]
        if "reveal_challenger" in by:
            return self._reveal_challenger(view, by["reveal_challenger"])
        if "reveal_defender" in by:
            return self._reveal_defender(view, by["reveal_defender"])
        if "place" in by:
            w = tables(view.book).worth
            return max(by["place"], key=lambda a: (w[a[2]], -a[2]))
        if "promote" in by or "decline" in by:
            return self._promote(view, by.get("promote", []), by.get("decline", []))
        if "defend" in by:
            return self._defend(view, by["defend"])
        if "challenge" in by:
            if view.challenger is None:
                return self._challenge(view, by["challenge"])
            swap = self._swap(view, by["challenge"])  # a card lets it swap (Tag Team)
            if swap is not None:
                return swap
        if "stat" in by:
            return self._stat(view, by["stat"])
        for verb in ("ready", "end_turn"):
            if verb in by:
                return by[verb][0]
        return actions[0]

    # -- what a Challenger threatens ---------------------------------------------------------------
    def attack(self, view, c: int, defending: str) -> Attack:
        """``c`` against ``defending``, worked out once a choice (a choice weighs each of its
        options against the same view): the defending side's Animals read once, each
        Challenger's attack once."""
        memo = self._memo if self._memo is not None else {}
        found = memo.get((c, defending))
        if found is None:
            side = memo.get(defending)
            if side is None:
                tab, owned = tables(view.book), self._owned(view, defending)
                side = memo[defending] = (tab, Rules(view.house), owned, _mean_worth(tab, owned))
            tab, rules, owned, mean = side
            found = memo[c, defending] = Attack(tab, rules, c,
                                                self._threat(tab, rules, c, owned, mean),
                                                self.params["initiative"])
        return found

    def _threat(self, tab: Book, rules: Rules, c: int, against: list[int],
                mean: float | None = None) -> float:
        """What ``c`` is expected to take from ``against`` (the defending side's Animals)
        before one of them holds it on every statistic: ``horizon`` Animals at most. ``mean``:
        their mean worth, when the caller has it."""
        if not against:
            return 0.0
        holding = tab.walls(c, rules.ties)
        walls = sum(map(holding.__contains__, against))  # (map: no Python frame a card)
        horizon = self.params["horizon"]
        kills = horizon if not walls else min(horizon, (len(against) - walls) / walls)
        if mean is None:
            mean = _mean_worth(tab, against)
        return self.params["threat"] * kills * mean

    def _owned(self, view, pid: str) -> list[int]:
        """The Animals ``pid`` still has, as the viewer knows them: the decklist (open) less
        what has been seen elsewhere."""
        animals = tables(view.book).animals
        cards = [*self._unseen(view, pid), *view.pool_of(pid)]
        if pid == view.player:
            cards += view.hand
            cards += view.top
        d = view.defenders.get(pid)
        if d is not None:
            cards.append(d)
        return list(filter(animals.__contains__, cards))

    def _pools(self, view, pid: str) -> list[tuple]:
        """``pid``'s Pool as the viewer knows it, or the Pools it may be: dealt a few times
        from the Animals ``pid`` may hold (AB-G.10), each sorted."""
        known = list(view.pool_of(pid))
        size = view.pool_sizes[pid]
        if pid == view.player or len(known) >= size:
            return [tuple(sorted(known))]
        animals = tables(view.book).animals
        hidden = list(filter(animals.__contains__, self._unseen(view, pid)))
        need = min(size - len(known), len(hidden))
        rng = random.Random(hash((tuple(known), tuple(hidden), size)))
        return [tuple(sorted(known + rng.sample(hidden, need))) for _ in range(self.samples)]

    def _unseen(self, view, pid: str) -> tuple:
        """``view.unseen[pid]``, read once a choice."""
        memo = self._memo
        if memo is None:
            return view.unseen_of(pid)
        found = memo.get(("unseen", pid))
        if found is None:
            found = memo[("unseen", pid)] = view.unseen_of(pid)
        return found

    # -- the defending side ------------------------------------------------------------------------
    def _defend(self, view, options):
        me = view.player
        attack = self.attack(view, view.challenger, me)
        w = attack.tab.worth
        pool = sorted(view.pool_of(me))  # a Defender from the hand (AB-G.7) leaves it whole
        return max(options, key=lambda a: (attack.defended(
            a[2], _without(pool, a[2]) if a[2] in pool else tuple(pool)), -w[a[2]], -a[2]))

    def _reveal_defender(self, view, options):
        """The starting Defender, from the opening hand; the hand's other Animals fill the
        Pool next (AB-3.5), the strongest five."""
        me = view.player
        attack = self.attack(view, view.challenger, me)
        w = attack.tab.worth
        hand = sorted(c for c in view.hand if c in attack.tab.animals)

        def score(a):
            rest = sorted(_without(hand, a[2]), key=lambda c: -w[c])[:POOL_SIZE]
            return attack.defended(a[2], tuple(sorted(rest))), -w[a[2]], -a[2]

        return max(options, key=score)

    def _promote(self, view, promotes, declines):
        me = view.player
        attack = self.attack(view, view.challenger, me)
        left = ALL & ~_mask(view.used)
        pool = sorted(view.pool_of(me))
        scored: list[tuple[float, int, float, tuple]]
        scored = [(attack.declined(tuple(pool)), 1, 0, a) for a in declines]
        for a in promotes:
            r = a[2]
            rest = _without(pool, r) if r in pool else tuple(pool)  # or from the hand
            scored.append((attack.promoted(r, left, rest), 0, -attack.tab.worth[r], a))
        return max(scored, key=lambda t: t[:3])[3]

    # -- the attacking side ------------------------------------------------------------------------
    def _stat(self, view, options):
        me, defending = view.player, view.defending
        assert defending is not None  # a statistic is named in an attack on a defending player
        attack = self.attack(view, view.challenger, defending)
        d, used, original = view.defender, _mask(view.used), view.original
        left = ALL & ~used
        pools = self._pools(view, defending)
        sign = -1 if view.controller == me else 1  # AB-G.4: the defending player names it

        def score(a):
            bit = BIT[a[2]]
            return sign * sum(attack.named(d, left, bit, pool, original) for pool in pools), a[2]

        return max(options, key=score)

    def _sequence(self, view, c: int, defending: str, pools: list[tuple],
                  defender: int | None) -> float:
        """The attacker's mean score of a sequence Challenger ``c`` starts: against
        ``defender``, or the Defender the defending side would select from its Pool."""
        attack = self.attack(view, c, defending)
        total = 0.0
        for pool in pools:
            if defender is not None:
                total -= attack.defended(defender, pool)
            elif not pool:
                total += LOSE  # no Defender to select (AB-1.1)
            else:
                total -= max(attack.defended(d, _without(pool, d)) for d in set(pool))
        return total / len(pools)

    def _challenge(self, view, options):
        defending = _opponent(view)
        assert defending is not None  # a challenge is offered only with an opponent in the game
        pools = self._pools(view, defending)
        defender = view.defenders.get(defending)
        return max(options, key=lambda a: (self._sequence(view, a[2], defending, pools,
                                                          defender), -a[2]))

    def _swap(self, view, options):
        """The Pool Animal to swap the Challenger for, when one pays more; else None."""
        defending = _opponent(view)
        assert defending is not None  # (as in _challenge)
        pools = self._pools(view, defending)
        defender = view.defenders.get(defending)
        now = self._sequence(view, view.challenger, defending, pools, defender)
        best = max(options, key=lambda a: (self._sequence(view, a[2], defending, pools,
                                                          defender), -a[2]))
        if self._sequence(view, best[2], defending, pools, defender) > now:
            return best
        return None

    def _reveal_challenger(self, view, options):
        """At setup the opponent then reveals the Defender from an opening hand and fills the
        Pool with its other Animals: hands dealt a few times from what it may hold."""
        other = _opponent(view)
        assert other is not None  # setup: every opponent is still in the game
        animals = tables(view.book).animals
        unseen = list(view.unseen[other])
        size = min(view.hand_sizes[other], len(unseen))
        rng = random.Random(hash(tuple(unseen)))
        hands = [tuple(sorted(c for c in rng.sample(unseen, size) if c in animals))
                 for _ in range(self.samples)]
        return max(options, key=lambda a: (self._sequence(view, a[2], other, hands, None),
                                           -a[2]))

    # -- choices a played card leaves --------------------------------------------------------------
    def _choose(self, view, actions):
        """The card to put back next on top of the deck (the best first: an Animal by worth,
        then other cards), or the Animal to return to the hand (the weakest)."""
        w = tables(view.book).worth
        if (view.pending or {}).get("n"):
            return max(actions, key=lambda a: (w.get(a[2], 0.4), -a[2]))
        return min(actions, key=lambda a: (w.get(a[2], 0.0), a[2]))


def pays(expert: Expert, view, action) -> bool:
    """Whether playing the card of ``action`` now pays (see the module's docstring), by what
    its data says it does, never by its name."""
    card = view.book[action[2]]
    me = view.player
    tab = tables(view.book)
    for e in card.effects:
        name = e.get("effect")
        if name == "draw":
            return view.deck_sizes[me] > 0 and (e.get("who", "you") == "you" or all(
                view.deck_sizes[p] == 0 for p in view.order if p != me))
        if name == "look_at_deck":
            return view.deck_sizes[me] > max(1, len(view.top))
        if name == "reveal_pool":
            other = _opponent(view)
            return (view.hidden_pools and other is not None
                    and len(view.pool_of(other)) < view.pool_sizes[other])
        if name == "return_to_hand":
            pool = view.pool_of(me)
            best = max((tab.worth[c] for c in view.hand if c in tab.animals), default=None)
            return (len(pool) >= POOL_SIZE and best is not None
                    and best > min(tab.worth[c] for c in pool))
    for o in card.overrides:
        name = o.get("effect")
        if name == "extra_draw":
            return view.deck_sizes[me] > 1
        if name == "pool_size":
            return len(view.pool_of(me)) >= POOL_SIZE and any(c in tab.animals
                                                            for c in view.hand)
        d, c = view.defender, view.challenger
        if name == "skip_attack":
            return d is not None and not tab.beaten(c, d, Rules(view.house).ties)
        if name == "reuse_statistic":
            if d is None or view.controller != me:
                return False
            beaten = tab.beaten(c, d, Rules(view.house).ties)
            return not beaten & ~_mask(view.used) and bool(beaten & BIT[action[3]])
        if name == "hand_to_chain":
            attack = expert.attack(view, c, me)
            left = ALL & ~_mask(view.used)
            pool = tuple(sorted(view.pool_of(me)))
            now = max([attack.declined(pool)] + [attack.promoted(r, left, _without(pool, r))
                                                 for r in set(pool)])
            return any(attack.promoted(r, left, pool) > now
                       for r in set(view.hand) if r in tab.animals)
        if name == "replace_challenger":
            if view.controller != me or _opponent(view) is None or not view.pool_of(me):
                return False
            swap = expert._swap(view, [(me, "challenge", r, None) for r in set(view.pool_of(me))])
            return swap is not None
    return False


def _opponent(view) -> str | None:
    """The defending player of this attack, else the next player in seat order still in the
    game (the one opponent of a two-player game)."""
    if view.defending is not None and view.defending != view.player:
        return view.defending
    order = list(view.order)
    i = order.index(view.player)
    for p in order[i + 1:] + order[:i]:
        if p not in view.out:
            return p
    return None


def _mean_worth(tab: Book, cards: list[int]) -> float:
    """The mean worth of ``cards`` (0 for none)."""
    return sum(map(tab.worth.__getitem__, cards)) / len(cards) if cards else 0.0


def _without(cards, c) -> tuple:
    """``cards`` (sorted) less one copy of ``c``."""
    cards = tuple(cards)  # a tuple as it is, a list once
    i = cards.index(c)
    return cards[:i] + cards[i + 1:]


def _mask(stats) -> int:
    m = 0
    for s in stats:
        m |= BIT[s]
    return m
