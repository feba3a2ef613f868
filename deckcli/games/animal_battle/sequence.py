"""The attack sequence worked out from the open table, for the ``expert`` policy
(:mod:`.expert`), which reads only its player's view.

**The sequence.** The attacker names a statistic at each link; it wins the link on any
statistic its Challenger beats the active Defender on, so it always names one of those while
it has one. The defending player, once a Defender falls, promotes a Pool Animal or declines
(AB-5.2); a promoted Animal stops the Challenger when the Challenger beats it on none of the
statistics left (AB-5.6: both are then discarded), and five statistics used with an Animal
still to promote stop it too (AB-G.9, ``becomes_challenger``). :func:`stop_cost` is what
stopping the Challenger costs the defending side at best, whatever statistics the attacker
names (a min-max over the promotions and the statistics, each Animal discarded counted at its
:func:`worth`, between 0.5 and 1.5 by the share of the game's Animals it beats on each
statistic), or infinity where nothing in the Pool can. It depends on the Challenger, the
statistics left and the Pool alone, so it is worked out once a run for each of those, and
only as far as it matters: a stop dearer than what stopping is worth is not worked out to
the end (a branch and bound whose answers are those of the full min-max).
"""

from __future__ import annotations

import math

from deckcli.games.animal_battle import BATTLE_STATS
from deckcli.games.animal_battle.book import kept

STATS = tuple(BATTLE_STATS)
BIT = {s: 1 << i for i, s in enumerate(STATS)}
ALL = (1 << len(STATS)) - 1
INF = math.inf
#: what a lost game costs, in Animals
LOSE = 100.0
#: the score's weights: a standing Challenger's threat per Animal it takes, the most Animals
#: it is expected to take, the next attack, and a first Defender that stays (AB-G.2), by its
#: worth
PARAMS = {"threat": 0.6, "horizon": 3.0, "initiative": 0.5, "standing": 0.2}
#: costs kept a book before they are dropped
_KEEP = 400_000
#: more than the rounding of a sum of a few Animals' worths (see stop_cost's bound)
_SLACK = 1e-9


class Book:
    """What the expert asks of one book's cards, worked out once a book: each Animal's worth,
    the statistics a Challenger beats a Defender on (as bits, by the tie rule), and the costs
    of stopping a Challenger met so far (:func:`stop_cost`)."""

    __slots__ = ("book", "worth", "animals", "beats", "costs", "kept", "holding")

    def __init__(self, book: dict):
        self.book = book
        animals = [c for c in book.values() if c.animal]
        self.animals = frozenset(c.id for c in animals)
        values = {c.id: 0.0 for c in animals}
        for stat, (sense, _rule) in BATTLE_STATS.items():
            ordered = sorted(animals, key=lambda c: c.stats[stat], reverse=sense == "lower")
            for rank, c in enumerate(ordered):
                values[c.id] += rank / max(1, len(animals) - 1)
        self.worth = {cid: 0.5 + v / len(STATS) for cid, v in values.items()}
        self.beats: dict[tuple, int] = {}
        #: the costs of stopping a Challenger (:func:`stop_cost`) met so far: for each
        #: Challenger, Pool and house rules, a small dictionary from the statistics left to
        #: the cost, or -x for a cost known only to be at least x. A sequence asks of one
        #: Pool for several statistics: the Pool is hashed once for them all, and the large
        #: dictionary (a cache miss a look-up) is read once. The same dictionary holds, keyed
        #: by ``(d,)``, the dearest stop once a first Defender ``d`` has fallen (_dearest).
        self.costs: dict[tuple, dict[int | tuple, float]] = {}
        self.kept = 0  # the costs kept in all
        self.holding: dict[tuple, frozenset] = {}  # see walls

    def beaten(self, c: int, d: int, ties: bool) -> int:
        """The statistics (bits) on which Challenger ``c`` wins against Defender ``d``: a
        statistic it is higher (lower, for population) on, and a tie when ``ties`` (the house
        rule stat_tie=challenger)."""
        key = (c, d, ties)
        found = self.beats.get(key)
        if found is None:
            vc, vd = self.book[c].stats, self.book[d].stats
            found = 0
            for stat, (sense, _rule) in BATTLE_STATS.items():
                a, b = vc[stat], vd[stat]
                if (a == b and ties) or (a != b and (a > b) == (sense == "higher")):
                    found |= BIT[stat]
            self.beats[key] = found
        return found

    def walls(self, c: int, ties: bool) -> frozenset:
        """The Animals Challenger ``c`` beats on no statistic (:meth:`beaten`)."""
        key = (c, ties)
        found = self.holding.get(key)
        if found is None:
            found = self.holding[key] = frozenset(d for d in self.animals
                                                  if not self.beaten(c, d, ties))
        return found


_BOOKS: dict[int, Book] = {}


def tables(book: dict) -> Book:
    return kept(_BOOKS, book, Book)


def worth(book: dict) -> dict[int, float]:
    """Each Animal's worth, from 0.5 to 1.5: how much of the game's field it beats."""
    return tables(book).worth


class Rules:
    """What of the house rules a sequence depends on, read from a view's house rules."""

    __slots__ = ("ties", "original_wins", "decline_loses", "defender_names", "last_stat",
                 "key")

    def __init__(self, house):
        value = house.value
        self.ties = value("stat_tie") == "challenger"  # replay: read as the Defender's
        self.original_wins = (value("original_defender_wins") or "discard_challenger") \
            == "discard_challenger"
        self.decline_loses = value("decline_promote") == "defender_loses"
        self.defender_names = value("next_stat_chooser") == "defender"
        self.last_stat = (value("last_stat_promote") or "becomes_challenger") \
            == "becomes_challenger"
        # the three as one small integer: a memo's key holds it, and a tuple's hash is worked
        # out again at every look-up
        self.key = self.ties + 2 * self.defender_names + 4 * self.last_stat


def stop_cost(tab: Book, rules: Rules, c: int, left: int, pool: tuple,
              bound: float = INF) -> float:
    """What stopping Challenger ``c`` costs the defending side at best from a promotion, in
    Animals discarded (by worth), whatever the attacker names: ``left`` the statistics not
    used yet (bits), ``pool`` (sorted) the Animals it may promote. Infinity: it cannot.

    Only ``min(bound, cost)`` is wanted: below ``bound`` the answer is the cost, else it is a
    number from ``bound`` to the cost (a promotion that cannot come in under it is not worked
    out further)."""
    return _cost(tab, rules, c, left, pool, _costs(tab, rules, c, pool), bound)


def _costs(tab: Book, rules: Rules, c: int, pool: tuple) -> dict[int | tuple, float]:
    """The costs kept for ``c`` and ``pool`` (see ``Book.costs``)."""
    key = (c, pool, rules.key)
    found = tab.costs.get(key)
    if found is None:
        if tab.kept >= _KEEP:
            tab.costs.clear()
            tab.kept = 0
        found = tab.costs[key] = {}
    return found


def _cost(tab: Book, rules: Rules, c: int, left: int, pool: tuple,
          memo: dict[int | tuple, float], bound: float) -> float:
    """:func:`stop_cost`, with ``memo`` the costs kept for ``c`` and ``pool``."""
    found = memo.get(left)
    if found is not None:
        if found >= 0:
            return found
        if -found >= bound:  # known only to be at least -found, and that is enough
            return -found
    if not pool:
        found = INF
    elif not left:  # AB-G.9: promoted after the last statistic, it becomes the Challenger
        found = 0.0 if rules.last_stat else INF
    else:
        found = INF
        worth = tab.worth
        for i, r in enumerate(pool):
            if i and pool[i - 1] == r:
                continue
            w = worth[r]
            limit = found if found < bound else bound
            if w >= limit:  # what follows costs nothing or more
                continue
            # a little over what would take r's cost past the limit, so no cost the sum
            # rounds under it is cut short
            sub = limit - w + _SLACK
            after = _after(tab, rules, c, r, left, pool[:i] + pool[i + 1:], sub)
            if after < sub:  # worked out exactly
                cost = w + after
                if cost < found:
                    found = cost
        if found >= bound != INF:  # no promotion comes in under it: the cost is at least it
            if bound > 0:  # kept as -bound: the sign tells it from a cost (never below 0)
                tab.kept += left not in memo
                memo[left] = -bound
            return bound
    tab.kept += left not in memo
    memo[left] = found
    return found


def _after(tab: Book, rules: Rules, c: int, d: int, left: int, pool: tuple,
           bound: float = INF) -> float:
    """What stopping ``c`` still costs once ``d`` stands as a promoted Defender (0 when it
    holds on every statistic left: AB-5.6, it is discarded with the Challenger, counted by
    the caller); below ``bound`` exactly, else a number from ``bound`` to it (as
    :func:`stop_cost`)."""
    beaten = tab.beats.get((c, d, rules.ties))
    if beaten is None:
        beaten = tab.beaten(c, d, rules.ties)
    beaten &= left
    if not beaten:
        return 0.0
    if rules.defender_names and beaten != left:  # AB-G.4: it names one d holds on
        return 0.0
    memo = _costs(tab, rules, c, pool)
    best: float | None = None
    rest = beaten
    while rest:
        bit = rest & -rest
        rest ^= bit
        cost = _cost(tab, rules, c, left & ~bit, pool, memo, bound)
        if rules.defender_names:  # the defending player names the cheapest
            best = cost if best is None or cost < best else best
        else:  # the attacker names the dearest: one at the bound settles it
            if cost >= bound:
                return cost
            best = cost if best is None or cost > best else best
    assert best is not None  # beaten is not empty: the loop ran
    return best


def _dearest(tab: Book, rules: Rules, c: int, d: int, beaten: int, pool: tuple,
             bound: float = INF) -> float:
    """The most :func:`stop_cost` of ``c`` once it has beaten ``d`` on one of ``beaten``
    (bits), worked out once a book for each Challenger, Defender and Pool; below ``bound``
    exactly, else a number from ``bound`` to it."""
    memo = _costs(tab, rules, c, pool)
    key = (d,)  # beside the statistics' bits, in the same dictionary
    found = memo.get(key)
    if found is not None and (found >= 0 or -found >= bound):
        return found if found >= 0 else -found
    found = -INF
    for bit in _bits(beaten):
        cost = _cost(tab, rules, c, ALL & ~bit, pool, memo, bound)
        if cost > found:
            found = cost
        if found >= bound:
            break
    if found < bound:  # worked out exactly (beaten is not empty: a cost, 0 or more)
        tab.kept += key not in memo
        memo[key] = found
    elif found > 0:  # known only to be at least found: kept as -found
        tab.kept += key not in memo
        memo[key] = -found
    return found


class Attack:
    """One Challenger against one defending side: its threat, what removing it gains, and
    the defending side's score of each way a sequence may go (see the module's docstring)."""

    __slots__ = ("tab", "rules", "c", "threat", "gain", "cap")

    def __init__(self, tab: Book, rules: Rules, c: int, threat: float, initiative: float):
        self.tab, self.rules, self.c, self.threat = tab, rules, c, threat
        self.gain = tab.worth[c] + threat + initiative  # the Challenger gone
        #: the most stopping it is worth: what it gains, and the threat left by declining
        self.cap = INF if rules.decline_loses else self.gain + threat

    def fallen(self, left: int, pool: tuple) -> float:
        """The defending side's score once its Defender has fallen (before the promotion),
        with ``left`` statistics and ``pool`` to promote from: stop the Challenger, or
        decline."""
        return self.gain - min(self.cap, stop_cost(self.tab, self.rules, self.c, left, pool,
                                                   self.cap))

    def defended(self, d: int, pool: tuple) -> float:
        """The defending side's score of a sequence against ``d`` as the first Defender."""
        tab = self.tab
        beaten = tab.beaten(self.c, d, self.rules.ties)
        if not beaten:  # AB-G.2
            if self.rules.original_wins:
                return self.gain + PARAMS["standing"] * tab.worth[d]
            return self.gain - tab.worth[d]
        # the attacker names the statistic whose stop costs most: min over the statistics of
        # gain - min(cap, cost) is gain - min(cap, the dearest cost), the same number
        return -tab.worth[d] + (self.gain - min(self.cap, _dearest(tab, self.rules, self.c, d,
                                                                    beaten, pool, self.cap)))

    def promoted(self, r: int, left: int, pool: tuple) -> float:
        """The defending side's score of promoting ``r`` (``pool`` without it)."""
        tab = self.tab
        if not left:  # AB-G.9
            return self.gain if self.rules.last_stat else self.declined(pool)
        after = _after(tab, self.rules, self.c, r, left, pool, self.cap)
        return self.gain - tab.worth[r] - min(self.cap, after)

    def declined(self, pool: tuple) -> float:
        return -LOSE if self.rules.decline_loses else -self.threat

    def named(self, d: int, left: int, bit: int, pool: tuple, original: bool) -> float:
        """The defending side's score once the statistic ``bit`` is named against ``d``
        (``left``: the statistics not used before it; a statistic named again, Second Wind,
        is not in it)."""
        tab = self.tab
        if not tab.beaten(self.c, d, self.rules.ties) & bit:  # d holds
            if original and self.rules.original_wins:  # AB-G.2
                return self.gain + PARAMS["standing"] * tab.worth[d]
            return self.gain - tab.worth[d]  # AB-5.6
        return -tab.worth[d] + self.fallen(left & ~bit, pool)


def _bits(mask: int):
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit
