"""How an animal-battle player chooses, for ``deckcli simulate`` (policies see a :class:`.view.
View`, never the game itself).

* ``greedy``: what wins now. Reveal and establish the Animal that beats the opposing Animal on
  the most statistics (the strongest overall when nothing opposes it yet); fill the Pool with
  the strongest Animals in hand; name the unused statistic the player's side wins by the widest
  margin; select as Defender, and promote, the Pool Animal that beats the Challenger on the most
  unused statistics, and decline when none beats it on any; end the turn when nothing else is
  left. Action cards, one step ahead (:func:`gains`): it plays a card the moment the card gains
  it something now, read from what the card's data says it does (never its name): cards drawn
  (a draw, Foraging Run's second card), its next draws put in order (Canopy Lookout: its
  strongest cards on top), an opponent's hidden Pool shown, a bigger Pool when its Pool is full
  and an Animal waits in hand, a weak Pool Animal back to the hand for a stronger one when the
  Pool is full, a statistic once more when its Challenger wins on a used one and no unused
  one, an attack skipped when its Challenger wins on none, a swap of Challenger for a Pool
  Animal that beats the Defender on more statistics, and a Defender from the hand when no Pool
  Animal holds the Challenger on any statistic left and one in the hand does. Where a card
  leaves a choice, it names the strongest card first, and returns its weakest Animal.

``expert`` (:mod:`.expert`) works the attack sequence out exactly. ``search`` is every game's
(:mod:`deckcli.sim.search`); this module gives it the policy its playouts use
(:data:`ROLLOUT`) and what a position is worth where a playout stops (:func:`evaluate`).

Strength, for "strongest": the sum, over the five statistics, of the share of the game's
Animals the card beats on it.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter

from deckcli.games.animal_battle import BATTLE_STATS, POOL_SIZE
from deckcli.games.animal_battle.book import kept
from deckcli.games.animal_battle.chain import compare
from deckcli.games.animal_battle.engine import ACTIONS

STATS = tuple(BATTLE_STATS)


# -- what cards are worth ------------------------------------------------------------------------
def strengths(book: dict) -> dict[int, float]:
    return _facts(book).strength


def card_worth(book: dict) -> dict[int, float]:
    """A card's worth for a builder's first deck: an Animal's strength; an action card less
    than any Animal (a deck needs its Animals first)."""
    strength = _facts(book).strength
    return {cid: strength.get(cid, -1.0) for cid in book}


def deck_style(cards: list, book: dict) -> tuple[str, str]:
    """How a deck plays: how many action cards it holds (none, a few, many), and the battle
    statistic its Animals lean on, the one on which their mean rank among ``book``'s Animals
    is highest (a deck of fast Animals names speed when challenging; ties: the first
    statistic)."""
    from bisect import bisect_right

    from deckcli.games.animal_battle import GAME
    from deckcli.games.base import kind_share

    animals = [c for c in book.values() if c.animal]
    mine = [c for c in cards if c.animal]
    lean, best = "no Animals", -1
    for stat, (sense, _rule) in BATTLE_STATS.items() if mine and animals else ():
        sign = 1 if sense == "higher" else -1
        values = sorted(sign * c.stats[stat] for c in animals)
        # the book's Animals each of the deck's is at least as good as, added up
        ranks = sum(bisect_right(values, sign * c.stats[stat]) for c in mine)
        if ranks > best:
            best, lean = ranks, f"leans on {stat}"
    return kind_share(cards, GAME.kinds), lean


BIT = {s: 1 << i for i, s in enumerate(STATS)}
ALL = (1 << len(STATS)) - 1


def mask(stats) -> int:
    """The statistics as bits (see :data:`BIT`)."""
    m = 0
    for s in stats:
        m |= BIT[s]
    return m


class _Keys(dict):
    """Action -> the key greedy ranks it by in one situation, each worked out on first use
    (``make(action)``): ``max(options, key=keys.__getitem__)`` then runs without a Python call
    for an action seen before, and a run sees the same few actions again and again."""

    __slots__ = ("make",)

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, action):
        found = self[action] = self.make(action)
        return found


class _Worth:
    """What greedy asks of a book's cards, worked out once a book (a run deals thousands of
    games from one book): each Animal's strength, the key "strongest" ranks a card by, and,
    filled in as pairs of cards meet, the statistics on which one beats the other, the margin
    on each statistic (:func:`margin`), and the keys of each kind of choice (:class:`_Keys`)
    for each situation met."""

    __slots__ = ("book", "strength", "strongest", "beaten", "margins", "stat_keys",
                 "defender_keys", "challenge_keys", "plans")

    def __init__(self, book: dict):
        self.book = book
        animals = [c for c in book.values() if c.animal]
        values = {c.id: 0.0 for c in animals}
        for stat, (sense, _rule) in BATTLE_STATS.items():
            ordered = sorted(animals, key=lambda c: c.stats[stat], reverse=sense == "lower")
            for rank, c in enumerate(ordered):
                values[c.id] += rank / max(1, len(animals) - 1)
        self.strength = values
        self.strongest = _Keys(lambda a: (values.get(a[2], 0.0), -a[2]))
        self.beaten: dict[tuple[int, int], int] = {}
        self.margins: dict[tuple[int, int], dict[str, float]] = {}
        self.stat_keys: dict[tuple, _Keys] = {}
        self.defender_keys: dict[tuple, _Keys] = {}
        self.challenge_keys: dict[tuple, _Keys] = {}
        self.plans: dict[tuple, _Plan] = {}  # legal actions -> what greedy does with them

    def beats(self, challenger: int, defender: int) -> int:
        """The statistics (as bits) on which the Challenger beats the Defender."""
        key = (challenger, defender)
        found = self.beaten.get(key)
        if found is None:
            c, d = self.book[challenger].stats, self.book[defender].stats
            found = self.beaten[key] = mask(s for s in STATS
                                            if compare(s, c[s], d[s])[0] == "challenger")
        return found

    def margin(self, challenger: int, defender: int) -> dict[str, float]:
        """Statistic -> :func:`margin` of the Challenger over the Defender."""
        key = (challenger, defender)
        found = self.margins.get(key)
        if found is None:
            found = self.margins[key] = {s: margin(self.book, challenger, defender, s)
                                         for s in STATS}
        return found

    def stat(self, challenger: int, defender: int, sign: int) -> _Keys:
        """Keys of naming a statistic: the margin by which the namer's side wins on it."""
        key = (challenger, defender, sign)
        found = self.stat_keys.get(key)
        if found is None:
            margins = self.margin(challenger, defender)
            found = self.stat_keys[key] = _Keys(lambda a: (sign * margins[a[2]], a[2]))
        return found

    def defender(self, challenger: int, stats: int) -> _Keys:
        """Keys of a Defender against ``challenger``: on how many of ``stats`` it holds, then
        its strength."""
        key = (challenger, stats)
        found = self.defender_keys.get(key)
        if found is None:
            beats, strength = self.beats, self.strength
            found = self.defender_keys[key] = _Keys(lambda a: (
                (stats & ~beats(challenger, a[2])).bit_count(), strength.get(a[2], 0), -a[2]))
        return found

    def challenge(self, opposing: tuple) -> _Keys:
        """Keys of a Challenger against the ``opposing`` Defenders: how many statistics it
        beats them on, then its strength."""
        found = self.challenge_keys.get(opposing)
        if found is None:
            beats, strength = self.beats, self.strength
            found = self.challenge_keys[opposing] = _Keys(lambda a: (
                sum(beats(a[2], d).bit_count() for d in opposing), strength.get(a[2], 0),
                -a[2]))
        return found


def _facts(book: dict) -> _Worth:
    return kept(_WORTH, book, _Worth)


_WORTH: dict[int, _Worth] = {}


def wins(book, challenger: int, defender: int, stats=ALL) -> int:
    """On how many of ``stats`` (bits) the Challenger beats the Defender."""
    return (_facts(book).beats(challenger, defender) & stats).bit_count()


def holds(book, defender: int, challenger: int, stats=ALL) -> int:
    """On how many of ``stats`` (bits) the Defender is not beaten (a win or a tie)."""
    return (stats & ~_facts(book).beats(challenger, defender)).bit_count()


def margin(book, challenger: int, defender: int, stat: str) -> float:
    """How clearly the Challenger wins on ``stat`` (negative: it loses), relative to size."""
    vc, vd = book[challenger].stats[stat], book[defender].stats[stat]
    sense = BATTLE_STATS[stat][0]
    diff = (vc - vd) if sense == "higher" else (vd - vc)
    return diff / max(abs(vc), abs(vd), 1e-9)


# -- greedy ----------------------------------------------------------------------------------------
#: the verbs greedy weighs, first found first; then those it takes as they come
WEIGHED = ("choose", "draw", "reveal_challenger", "reveal_defender", "place", "challenge",
           "defend", "stat", "promote", "target")
TAKEN = ("ready", "start", "end_turn", "decline")


class Greedy:
    name = "greedy"
    _book = _plans = None  # the book of the last choice, and its plans

    def choose(self, engine, view, actions, rng):
        """Greedy's choice, remembered: the same legal actions, in the same situation, get the
        same answer (:class:`_Plan`), so a run works each choice out once."""
        if actions[-1][1] == "play":  # the legal actions list cards last
            found = _play(view, actions)
            if found is not None:
                return found
        book = view.book
        if book is not self._book:  # a new book: its plans (kept a book, see _facts)
            self._book, self._plans = book, _facts(book).plans
        plans = self._plans
        assert plans is not None  # set with the book above
        key = tuple(actions)
        plan = plans.get(key)
        if plan is None:
            if len(plans) >= _PLANS:
                plans.clear()
            plan = plans[key] = _plan(self, view, actions)
        if plan.situation is None:
            return plan.action
        situation = plan.situation(view)
        found = plan.chosen.get(situation)
        if found is None:
            found = plan.chosen[situation] = plan.weigh(self, view, plan.options, actions)
        return found

    def decide(self, view, actions, verb: str | None = None):
        """Greedy's choice worked out afresh (what :meth:`choose` remembers); ``verb``: the
        verb it weighs (:func:`_first_verb`), when the caller knows it already."""
        if actions[-1][1] == "play":
            found = _play(view, actions)
            if found is not None:
                return found
        verb = verb or _first_verb(actions)
        weigh = _WEIGH.get(verb)
        if weigh is not None:
            return weigh(self, view, [a for a in actions if a[1] == verb], actions)
        if _RANK[verb] < _LAST:
            for a in actions:
                if a[1] == verb:
                    return a
        return actions[0]

    def _draw(self, view, options, _all):
        return options[0]

    def _target(self, view, options, _all):
        return options[0]

    def _strongest(self, view, options):
        return max(options, key=_facts(view.book).strongest.__getitem__)

    def _reveal_challenger(self, view, options, _all):
        return self._strongest(view, options)

    def _place(self, view, options, _all):
        return self._strongest(view, options)

    def _challenge(self, view, options, _all):
        opposing = view.opposing
        if not opposing:
            return self._strongest(view, options)
        return max(options, key=_facts(view.book).challenge(opposing).__getitem__)

    def _reveal_defender(self, view, options, _all):
        return self._defender(view, options, ALL)

    def _defend(self, view, options, _all):
        return self._defender(view, options, ALL)

    def _defender(self, view, options, stats):
        return max(options, key=_facts(view.book).defender(view.challenger, stats).__getitem__)

    def _stat(self, view, options, _all):
        sign = 1 if view.player == view.controller else -1  # the defender names it: AB-G.4
        return max(options, key=_facts(view.book).stat(view.challenger, view.defender,
                                                       sign).__getitem__)

    def _choose(self, view, options, _all):
        """The card a played card's choice names: the strongest first when cards go back on
        the deck, the weakest Animal when one goes back to the hand."""
        strongest = _facts(view.book).strongest
        if view.pending["n"]:
            return max(options, key=strongest.__getitem__)
        return min(options, key=strongest.__getitem__)

    def _promote(self, view, options, actions):
        left = ALL & ~mask(view.used)
        best = self._defender(view, options, left)
        if holds(view.book, best[2], view.challenger, left) == 0:
            for a in actions:
                if a[1] == "decline":
                    return a
        return best


class _Plan:
    """What greedy does with one list of legal actions: ``action`` when the list alone
    decides; else ``weigh(greedy, view, options, actions)``, whose answer depends only on
    ``situation(view)`` (the parts of the view that weigher reads) and is kept in ``chosen``
    by situation."""

    __slots__ = ("action", "weigh", "options", "situation", "chosen")

    def __init__(self, action=None, weigh=None, options=None, situation=None):
        self.action, self.weigh, self.options, self.situation = action, weigh, options, situation
        self.chosen: dict = {}


def _first_verb(actions) -> str:
    """The verb greedy weighs among ``actions``: the first of WEIGHED, then TAKEN, found."""
    return min(map(_VERB, actions), key=_RANK.__getitem__)


def _plan(greedy: Greedy, view, actions) -> _Plan:
    verb = _first_verb(actions)
    situation = _SITUATION[verb]
    if situation is None:  # the list alone decides (a view is read only for its book)
        return _Plan(greedy.decide(view, actions, verb))
    return _Plan(None, _WEIGH[verb], [a for a in actions if a[1] == verb], situation)


#: verb -> what of the view greedy's weigher of that verb reads; None: nothing but the book
_SITUATION = dict.fromkeys(ACTIONS)
_SITUATION.update({
    "challenge": attrgetter("opposing"),
    "reveal_defender": attrgetter("challenger"),
    "defend": attrgetter("challenger"),
    "stat": attrgetter("challenger", "defender", "player", "controller"),
    "promote": attrgetter("challenger", "used"),
    "choose": lambda view: bool(view.pending["n"]),
})
#: plans kept a book before they are dropped (a run meets a few thousand)
_PLANS = 100_000


#: verb -> its place in WEIGHED then TAKEN, every other verb after them all
_RANK = {verb: i for i, verb in enumerate(WEIGHED + TAKEN)}
_LAST = len(_RANK)
_RANK.update((verb, _LAST) for verb in ACTIONS if verb not in _RANK)
_VERB = itemgetter(1)
#: verb -> the method that weighs its options
_WEIGH = {verb: getattr(Greedy, "_" + verb) for verb in WEIGHED}


# -- greedy's action cards ------------------------------------------------------------------------
def _play(view, actions):
    """The first card of ``actions`` that :func:`gains` now, or None."""
    for a in actions:
        if a[1] == "play" and gains(view, a):
            return a
    return None


def gains(view, action) -> bool:
    """Whether playing the card of ``action`` gains greedy something now (see the module's
    docstring), by its effects and overrides."""
    book, me = view.book, view.player
    card = book[action[2]]
    facts = _facts(book)
    animals = [c for c in view.hand if book[c].animal]
    pool = view.pools[me]
    for e in card.effects:
        name = e.get("effect")
        if name == "draw":
            return view.deck_sizes[me] > 0
        if name == "look_at_deck":
            return view.deck_sizes[me] > 1
        if name == "reveal_pool":
            return any(len(view.pools[p]) < view.pool_sizes[p] for p in view.order if p != me)
        if name == "return_to_hand":
            return (len(pool) >= POOL_SIZE and bool(animals) and max(
                facts.strength[c] for c in animals) > min(facts.strength[c] for c in pool))
    c, d = view.challenger, view.defender
    for o in card.overrides:
        name = o.get("effect")
        if name == "extra_draw":
            return view.deck_sizes[me] > 1
        if name == "pool_size":
            return len(pool) >= POOL_SIZE and bool(animals)
        if name in ("skip_attack", "reuse_statistic", "replace_challenger") and (
                d is None or c is None or view.controller != me):
            return False
        if name == "skip_attack":
            return not facts.beats(c, d)
        left = ALL & ~mask(view.used)
        if name == "reuse_statistic":
            return not facts.beats(c, d) & left and bool(facts.beats(c, d) & BIT[action[3]])
        if name == "replace_challenger":
            return any(wins(book, r, d) > wins(book, c, d) for r in pool)
        if name == "hand_to_chain":
            return (not any(holds(book, r, c, left) for r in pool)
                    and any(holds(book, r, c, left) for r in animals))
    return False


# -- what a search's playout ends on -----------------------------------------------------------
def evaluate(engine, match) -> dict[str, float]:
    """A position's worth to each player, for a search whose playout stops before the end:
    1 for the winner; else each player's share of the Animals still in play (Pools, hands,
    decks, the Challenger and Defenders), with a little more for holding the Challenger."""
    s = match.s
    if s.winner is not None:
        return {pid: 1.0 if pid == s.winner else 0.0 for pid in s.players}
    animals = match.facts.animals
    count = {}
    for pid, p in s.players.items():
        n = 0.0 if p.out else float(len(p.pool) + sum(1 for c in p.hand if c in animals)
                                    + sum(1 for c in p.deck if c in animals))
        if s.defenders.get(pid) is not None:
            n += 1
        if s.controller == pid and s.challenger is not None:
            n += 1.5
        count[pid] = n
    total = sum(count.values()) or 1.0
    return {pid: n / total for pid, n in count.items()}


def _expert():
    from deckcli.games.animal_battle.expert import Expert

    return Expert()


#: the policies of this game by name, as ``--policy`` takes them (``random`` and ``search`` are
#: every game's); expert's module is read when it plays
POLICIES = {"greedy": Greedy, "expert": _expert}
#: the policy a search plays its playouts with: expert, the opponent it must beat. Against expert
#: in the examples/good/casual-savanna.yaml mirror (60 seat-swapped games, seed 11), the default
#: search won 70.0% (95% CI 56.4% to 80.8%) with expert's playouts and 46.7% (32.9% to 61.0%) with
#: greedy's, at three times the cost a decision
ROLLOUT = "expert"
