"""What an animal-battle card's text does when it is played: its ``effects:`` data
(:mod:`deckcli.games.effects`), applied by this one small interpreter. It never names a card.

The words an animal-battle card may use (:data:`VOCABULARY`; docs/effects.md shows each with an
example):

* trigger ``play``: when its player plays the card (every animal-battle effect acts then);
* ``draw`` (``value`` cards; ``who``: ``you``, or ``each`` player, the card's player first);
  ``look_at_deck`` (the top ``value`` cards of the player's own deck; ``reorder: true``: the
  player then puts them back in the order they choose); ``reveal_pool`` (the opponent shows the
  player the Animals in their Pool); ``return_to_hand`` (``from: pool``: the player names an
  Animal of their Pool, which goes back to the hand); ``reminder`` (the text restates a rule,
  named by ``rule``: nothing to apply);
* conditions (``if``): ``phase`` (``draw``, ``pool``, ``establish`` or ``attack``: that step of
  the player's own turn) and ``defender: unchosen`` (before the defending player's Defender is
  chosen, with the attack not begun).

A card is played during its player's own turn (AB-6.5, deckcli's reading of a text that names
no turn), while every condition holds and every effect has something to act on (an Animal in
the Pool to return, an opponent to show a Pool). Its effects then apply in the order printed
(:func:`apply`); one that leaves a choice to its player (the order of the cards put back, the
Animal returned) waits for that player's ``choose`` actions (:func:`choose`, :func:`options`),
which come before any other action (AB-6.5). Card text that displaces a general rule
(``overrides``) is :mod:`.effects`'s.

What an effect shows a player is kept in the state for that player alone: the top of their own
deck they have seen (``State.seen_top``, their Animals counted down as they draw) and the
Animals of another player's Pool shown to them (``State.known``, under the house rule
``pool_visibility=hidden``, AB-G.10); :mod:`.view` reads both.
"""

from __future__ import annotations

from collections.abc import Callable

from deckcli.games.animal_battle.state import RANK
from deckcli.games.effects import Vocabulary
from deckcli.games.interface import Illegal

VOCABULARY = Vocabulary(
    triggers={"play": "when its player plays the card"},
    effects={
        "draw": (set(), "draw value cards (who: you, or each player)"),
        "look_at_deck": ({"reorder"}, "look at the top value cards of your own deck; "
                                      "reorder: true puts them back in the order you choose"),
        "reveal_pool": (set(), "your opponent shows you the Animals in their Pool"),
        "return_to_hand": ({"from"}, "an Animal of your Pool (from: pool) goes back to your "
                                     "hand; you name it"),
        "reminder": (set(), "the text restates a rule (rule): nothing to apply"),
    },
    conditions={"phase": "a step of your own turn: draw, pool, establish or attack",
                "defender": "unchosen: before the defending player's Defender is chosen"},
    who={"you": "the card's player", "each": "every player still in the game, the card's "
                                             "player first, then in seat order"},
)
#: the steps of a turn a ``phase`` condition may name
PHASES = ("draw", "pool", "establish", "attack")
#: every step of a turn (what "your own turn" spans, AB-6.5)
TURN = frozenset(("draw", "pool", "establish", "attack", "promote", "end"))
#: keys of the common language the animal-battle interpreter does not apply (no effect of this
#: game lasts, is limited, replaces an event or may be declined): a card using one would be
#: applied wrongly, so ``db check`` refuses it
NOT_APPLIED = ("duration", "limit", "instead", "optional")


# -- db check (DB-2.4) -----------------------------------------------------------------------------
def check(entries, who: str) -> list[tuple[str, str, str]]:
    """What the shared check (:func:`deckcli.games.effects.check_effects`) leaves to this game:
    the values each effect and condition takes, and the keys this interpreter does not apply."""
    out = []
    for n, entry in enumerate(entries, 1):
        where = f"{who}: effects entry {n}"
        name = entry.get("effect")
        if name not in VOCABULARY.effects:
            continue  # said by the shared check
        for key in NOT_APPLIED:
            if key in entry:
                out.append(("db-schema", "DB-2.4", f"{where}: {key} is not a word of "
                            "animal-battle effects (its referee would not apply it)"))
        if name == "reminder":
            continue
        if entry.get("when") != "play":
            out.append(("db-schema", "DB-2.4", f"{where}: an animal-battle effect acts when "
                        "its card is played (when: play)"))
        value = entry.get("value")
        if name in ("draw", "look_at_deck"):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 60:
                out.append(("db-schema", "DB-2.4", f"{where}: {name} takes value, a number "
                            "of cards from 1 to 60"))
        elif value is not None:
            out.append(("db-schema", "DB-2.4", f"{where}: {name} takes no value"))
        if "who" in entry and name != "draw":
            out.append(("db-schema", "DB-2.4", f"{where}: only draw takes who"))
        if "reorder" in entry and not isinstance(entry["reorder"], bool):
            out.append(("db-schema", "DB-2.4", f"{where}: reorder is true or false"))
        if name == "return_to_hand" and entry.get("from") != "pool":
            out.append(("db-schema", "DB-2.4", f"{where}: return_to_hand takes from: pool"))
        cond = entry.get("if")
        if isinstance(cond, dict):
            if "phase" in cond and cond["phase"] not in PHASES:
                out.append(("db-schema", "DB-2.4", f"{where}: phase {cond['phase']!r} is not "
                            f"one of {', '.join(PHASES)}"))
            if "defender" in cond and cond["defender"] != "unchosen":
                out.append(("db-schema", "DB-2.4", f"{where}: defender takes unchosen"))
    return out


# -- when a card may be played ---------------------------------------------------------------------
def on_play(card) -> tuple[dict, ...]:
    """The card's effects that act when it is played (reminders change nothing)."""
    return tuple(e for e in card.effects if e.get("when") == "play"
                 and e.get("effect") != "reminder")


def opponent(s, p: str) -> str | None:
    """The opponent a card's "your opponent" means: the defending player of this turn's
    attack, else the one other player still in the game (None with more than two and none
    named yet)."""
    if s.defending is not None and s.defending != p:
        return s.defending
    others = [o for o in s.order if o != p and not s.players[o].out]
    return others[0] if len(others) == 1 else None


def _own_turn(s, p) -> bool:
    return s.active == p and s.phase in TURN


def _unchosen(s, p) -> bool:
    other = opponent(s, p)
    return (other is not None and s.defenders.get(other) is None and not s.attacked
            and RANK[s.phase] <= RANK["establish"])


#: condition -> value -> (what the text says, the test, the steps of a turn it can hold in)
#: condition key -> value -> (the words a message says, the test of (state, player), the phases
#: in which it can hold)
CONDITIONS: dict[str, dict[str, tuple[str, Callable, frozenset[str]]]] = {
    "phase": {ph: (f"in your {ph} phase" if ph != "establish" else
                   "while you establish the Challenger and Defender",
                   lambda s, p, ph=ph: s.phase == ph, frozenset((ph,))) for ph in PHASES},
    "defender": {"unchosen": ("before the Defender is chosen", _unchosen,
                              frozenset(("draw", "pool", "establish")))},
}


def _needs(s, p, entry) -> str | None:
    """What an effect needs to act on, when it is missing (None: nothing is)."""
    name = entry["effect"]
    if name == "return_to_hand" and not s.players[p].pool:
        return f"it returns an Animal from {p}'s Pool, and the Pool holds none"
    if name == "reveal_pool" and opponent(s, p) is None:
        return "its opponent is not settled yet (the defending player is named first)"
    return None


def problem(s, p: str, card) -> tuple[str, str] | None:
    """Why ``p`` may not play ``card`` now, as (rule, message); None when they may."""
    return _problem(s, p, on_play(card))


def _problem(s, p, entries) -> tuple[str, str] | None:
    if not _own_turn(s, p):
        return "AB-6.5", (f"a card is played during its player's own turn (AB-6.5), and it "
                          f"is {s.active}'s")
    for entry in entries:
        for key, value in (entry.get("if") or {}).items():
            text, test, _phases = CONDITIONS[key][value]
            if not test(s, p):
                return "AB-6.4", f"it can be played only {text}"
        need = _needs(s, p, entry)
        if need:
            return "AB-6.4", need
    return None


def timing(card) -> tuple:
    """(``test(state, player) -> bool``: may the card be played now; the steps of a turn in
    which it can be), for the legal actions (:mod:`.book`)."""
    entries = on_play(card)
    phases = TURN
    for entry in entries:
        for key, value in (entry.get("if") or {}).items():
            phases = phases & CONDITIONS[key][value][2]
    return (lambda s, p: _problem(s, p, entries) is None), phases


# -- applying a played card ------------------------------------------------------------------------
def apply(game, out, p: str, card) -> None:
    """Apply ``card``'s effects, just played by ``p`` (every check passed: :func:`problem`)."""
    out.cite_only(*card.refers_to)
    _run(game, out, p, card, 0)


def _run(game, out, p, card, start: int) -> None:
    s = game.s
    entries = on_play(card)
    for i in range(start, len(entries)):
        if s.winner is not None or s.players[p].out:
            return
        if _EFFECTS[entries[i]["effect"]](game, out, p, card, entries[i], i):
            return  # a choice waits (State.pending)


def _draw(game, out, p, card, entry, i) -> bool:
    s = game.s
    n = int(entry.get("value", 1))
    who = [p] if entry.get("who", "you") == "you" else _from(s, p)
    for pid in who:
        if s.winner is not None or s.players[pid].out:
            continue
        got = game.draw_cards(out, pid, n)
        out.cite("AB-6.4", "{}: {} draws {} card(s)", card.ref, pid, got)
    return False


def _from(s, p) -> list[str]:
    i = s.order.index(p)
    return [o for o in s.order[i:] + s.order[:i] if not s.players[o].out]


def _look(game, out, p, card, entry, i) -> bool:
    s = game.s
    n = min(int(entry["value"]), len(s.players[p].deck))
    seen = dict(s.seen_top or {})
    seen[p] = max(seen.get(p, 0), n)
    s.seen_top = seen
    out.cite("AB-6.4", "{}: {} looks at the top {} card(s) of their deck", card.ref, p, n)
    if entry.get("reorder") and n >= 2:
        s.pending = {"player": p, "card": card.id, "index": i, "n": n, "named": []}
        out.cite("AB-6.5", "{} puts them back in the order they choose (choose CARD, the top "
                 "one first)", p)
        return True
    return False


def _reveal(game, out, p, card, entry, i) -> bool:
    s = game.s
    other = opponent(s, p)
    pool = s.players[other].pool
    how = game.house.meet("AB-G.10", f"{card.ref}: {other} shows {p} the Animals in their "
                                     "Pool", out.gaps)
    if how == "open":
        out.cite("AB-6.4", "{}: {}'s Pool is open to every player (house rule "
                 "pool_visibility=open, AB-G.10): nothing new is shown", card.ref, other)
        return False
    known = {v: dict(k) for v, k in (s.known or {}).items()}
    known.setdefault(p, {})[other] = list(pool)
    s.known = known
    out.cite("AB-6.4", "{}: {} shows {} the Animals in their Pool: {}", card.ref, other, p,
             ", ".join(game.ref(c) for c in pool) or "none")
    return False


def _return(game, out, p, card, entry, i) -> bool:
    game.s.pending = {"player": p, "card": card.id, "index": i, "n": 0, "named": []}
    out.cite("AB-6.5", "{}: {} names the Animal of their Pool that goes back to the hand "
             "(choose CARD)", card.ref, p)
    return True


_EFFECTS = {"draw": _draw, "look_at_deck": _look, "reveal_pool": _reveal,
            "return_to_hand": _return}


# -- the choices a played card leaves to its player ------------------------------------------------
def _remaining(s) -> list[int]:
    """The cards still to be put back (a reorder) or that may be named (a return)."""
    pending = s.pending
    player = s.players[pending["player"]]
    if pending["n"] == 0:
        return list(player.pool)
    left = player.deck[-pending["n"]:]
    for c in pending["named"]:
        left.remove(c)
    return left


def options(s) -> list[int]:
    """The cards the pending choice may name, each once, sorted."""
    return sorted(set(_remaining(s)))


def choose(game, out, p: str, cid) -> None:
    """``p`` names ``cid`` for the card whose choice is pending (AB-6.5)."""
    s = game.s
    pending = s.pending
    if pending is None:
        raise Illegal("AB-6.5", "no card's text leaves a choice to make now")
    if p != pending["player"]:
        raise Illegal("AB-6.5", f"the choice is {pending['player']}'s, for "
                                f"{game.ref(pending['card'])}")
    card = game.book[pending["card"]]
    left = _remaining(s)
    if cid not in left:
        what = ("an Animal of their Pool" if pending["n"] == 0
                else "one of the cards they looked at and have not put back")
        raise Illegal("AB-6.4", f"{card.ref}: {game.ref(cid)} is not {what}")
    player = s.players[p]
    if pending["n"] == 0:
        player.pool.remove(cid)
        player.hand.append(cid)
        left_pool(s, p, cid, shown=False)
        out.cite("AB-6.4", "{}: {} returns {} from the Pool to the hand (neither the "
                 "Challenger nor an active Defender is ever in the Pool)", card.ref, p,
                 game.ref(cid))
        s.pending = None
        _run(game, out, p, card, pending["index"] + 1)
        return
    named = [*pending["named"], cid]
    s.pending = {**pending, "named": named}  # a copied game shares the old one (State.copy)
    out.cite("AB-6.4", "{}: {} puts {} back as card {} from the top", card.ref, p,
             game.ref(cid), len(named))
    if len(left) > 2:
        return
    last = left[1] if left[0] == cid else left[0]
    order = [*named, last]  # top first
    player.deck[-pending["n"]:] = order[::-1]
    out.cite("AB-6.4", "{}: {} goes back beneath them, card {} from the top", card.ref,
             game.ref(last), len(order))
    s.pending = None
    _run(game, out, p, card, pending["index"] + 1)


# -- what players know of each other's Pools (AB-G.10) ---------------------------------------------
def left_pool(s, owner: str, cid: int, shown: bool = True) -> None:
    """``cid`` left ``owner``'s Pool: in the open (a Challenger, a Defender: every player saw
    which), or unseen (``shown`` False: back to the hand), when what others knew of that Pool
    no longer says which Animals are in it."""
    if not s.known:
        return
    known = {}
    for viewer, pools in s.known.items():
        pools = dict(pools)
        cards = pools.get(owner)
        if cards is not None and viewer != owner:
            if not shown:
                del pools[owner]
            elif cid in cards:
                cards = list(cards)
                cards.remove(cid)
                pools[owner] = cards
        known[viewer] = pools
    s.known = known


def entered_pool(s, owner: str, cid: int) -> None:
    """``cid`` went into ``owner``'s Pool in the open (a Challenger swapped out, a Defender
    put back): every other player knows it is there."""
    known = {v: dict(k) for v, k in (s.known or {}).items()}
    for viewer in s.order:
        if viewer != owner:
            pools = known.setdefault(viewer, {})
            pools[owner] = [*pools.get(owner, ()), cid]
    s.known = known
