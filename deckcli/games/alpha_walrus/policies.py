"""How an alpha-walrus player chooses, for ``deckcli simulate`` (``random`` and ``search`` are
every game's). A policy reads its player's view (``AlphaWalrusEngine.view``) and the legal
actions, never the game.

* ``greedy`` (the fixed baseline): lay down Alpha Walrus gear, summon the Alpha Walrus as soon
  as it can be, summon the highest-level creature in hand, attach equipment (armor to the
  highest creature), battle an opponent when the creatures match up in the attacker's favour
  (the higher total level), discard down in the Recover Phase keeping the highest creatures,
  play any other card it can once nothing of that is left, take the first option a decision
  offers, and end the turn when nothing else is left.
* ``expert``: plays to summon the Alpha Walrus and win its Final Showdown. It keeps every gear
  piece (never discarded, never passed), lays it down at once, and summons the Alpha Walrus
  when the showdown is safe enough; it battles only where the defender's best answer still
  loses (more attacking creatures than defending ones, or levels that win the fights), for
  gear first; as defender it works out the match-ups that win the battle, or lose the least;
  it plays battle cards that turn a fight, answers with Goamph what would hurt it most, uses
  protection when an opponent's field is stronger, and takes what card text offers when it
  gains something.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations


def _level(card) -> int:
    return card.level or 0


def _power(card, equipment=()) -> int:
    """A creature's level with what it wears (the provisional reading of AW-G.1)."""
    return _level(card) + sum(e.level_bonus for e in equipment)


def _undoes_summon(view, action) -> bool:
    """Whether ``action`` activates a creature's ability that returns that creature to the hand
    (Caribou's Migration): summoning it again and again would be a turn without end."""
    if action["do"] != "activate":
        return False
    card, _eq = view["fields"][view["player"]][action["card"] - 1]
    return any(e.get("when") == "activated" and e.get("effect") == "return_to_hand"
               and e.get("what") == "self" for e in card.effects)


class Greedy:
    name = "greedy"

    def choose(self, engine, view, actions, rng):
        by: dict[str, list] = {}
        for a in actions:
            by.setdefault(a["do"], []).append(a)
        if "choose" in by or "pass" in by:  # a decision: the first option it offers
            return (by.get("choose") or by["pass"])[0]
        if "draw" in by:
            return by["draw"][0]
        if "summon-alpha" in by:
            return by["summon-alpha"][0]
        if "place-gear" in by:
            return by["place-gear"][0]
        hand = {c.ref: c for c in view["hand"]}
        if "summon" in by:
            plain = [a for a in by["summon"] if "discard" not in a] or by["summon"]
            return max(plain, key=lambda a: (_level(hand[a["card"]]), a["card"]))
        if "equip" in by:
            return by["equip"][0]
        for verb in ("battle", "attack"):
            if verb in by:
                best = self._battle(view, by[verb])
                if best is not None:
                    return best
        if "discard" in by:
            return min(by["discard"], key=lambda a: (_level(hand[a["cards"][0]]),
                                                     a["cards"][0]))
        for verb in ("play", "activate"):  # every card it may play, once nothing else is left
            options = [a for a in by.get(verb, ()) if not _undoes_summon(view, a)]
            if options and view["phase"] in ("draw", "play"):
                return options[0]
        for verb in ("end", "recover"):
            if verb in by:
                return by[verb][0]
        return actions[0]

    def _battle(self, view, options):
        me = view["player"]
        mine = sum(_level(c) for c, _eq in view["fields"][me])
        best, edge = None, 0
        for a in options:
            theirs = sum(_level(c) for c, _eq in view["fields"][a["target"]])
            if mine - theirs > edge and a["stake"] == "gear" and view["gear"][a["target"]]:
                best, edge = a, mine - theirs
        return best


# -- expert ---------------------------------------------------------------------------------------
def _fights_won(att: Sequence[int], dfd: Sequence[int], match: dict[int, int]
                ) -> tuple[int, int, int]:
    """(fights the attacker wins, fights the defender wins, attackers left unmatched) of a
    matching (attacker index -> defender index) by levels (AW-4.5, AW-4.10)."""
    a_won = d_won = 0
    for i, j in match.items():
        if att[i] > dfd[j]:
            a_won += 1
        else:
            d_won += 1
    return a_won, d_won, len(att) - len(match)


def best_defence(att: list[int], dfd: list[int]) -> tuple[dict[int, int], bool]:
    """The defender's match-ups (attacker index -> defender index) by levels: the matching
    that wins the battle (every attacker matched, AW-4.7, and at least half the fights,
    AW-G.2's majority and AW-4.10) losing the fewest of its own creatures; when no matching
    wins, the one that loses the fewest of its creatures and beats the most attackers (an
    attacker left unmatched costs nothing). Second value: whether the defender wins."""
    return _defence(tuple(att), tuple(dfd))[:2]


def losses(att: list[int], dfd: list[int]) -> tuple[bool, int, int]:
    """(whether the defender wins, attacking creatures lost, defending creatures lost) when the
    defender answers with :func:`best_defence`."""
    _match, holds, a_lost, d_lost = _defence(tuple(att), tuple(dfd))
    return holds, a_lost, d_lost


def _with_cards(att: list[int], dfd: list[int], bonuses: list[int]) -> tuple[bool, int, int]:
    """:func:`losses` when the attacker plays its level bonuses after the defender's
    match-ups, each on the lost fight it turns at the least cost (the defender's own battle
    cards unknown, so not counted)."""
    match, _holds, _a, _d = _defence(tuple(att), tuple(dfd))
    levels = list(att)
    spare = list(bonuses)
    lost = sorted((dfd[j] - att[i] + 1, i) for i, j in match.items() if att[i] <= dfd[j])
    for need, i in lost:
        fit = [b for b in spare if b >= need]
        if fit:
            b = min(fit)
            spare.remove(b)
            levels[i] += b
    a_won, d_won, unmatched = _fights_won(levels, list(dfd), match)
    return (not unmatched and d_won >= a_won), d_won, a_won


_DEFENCES: dict = {}


def _defence(att: tuple, dfd: tuple) -> tuple:
    found = _DEFENCES.get((att, dfd))
    if found is not None:
        return found
    n, m = len(att), len(dfd)
    best: tuple = ({}, False, 0, 0)
    key = None
    for k in range(min(n, m), -1, -1):
        for chosen in permutations(range(m), k):
            for attackers in permutations(range(n), k):
                match = dict(zip(attackers, chosen))
                a_won, d_won, unmatched = _fights_won(att, dfd, match)
                wins = not unmatched and d_won >= a_won
                score = (wins, -a_won, d_won)
                if key is None or score > key:
                    best, key = (match, wins, d_won, a_won), score
    if len(_DEFENCES) > 50_000:
        _DEFENCES.clear()
    _DEFENCES[(att, dfd)] = best
    return best


class Expert:
    name = "expert"

    def choose(self, engine, view, actions, rng):
        by: dict[str, list] = {}
        for a in actions:
            by.setdefault(a["do"], []).append(a)
        deciding = view.get("deciding")
        if deciding is not None:
            return self._decide(view, deciding, by, actions, rng)
        if "draw" in by:
            return by["draw"][0]
        hand = {c.ref: c for c in view["hand"]}
        plays = {a["card"]: a for a in by.get("play", [])}
        phase = view["phase"]
        if phase == "draw":  # Lucky Flipper changes this Draw Phase only
            for ref, a in plays.items():
                if hand[ref].effect("extra_draw"):
                    return a
        if "summon-alpha" in by and self._showdown_safe(view):
            return by["summon-alpha"][0]
        if "place-gear" in by:
            return by["place-gear"][0]
        choice = self._summon(view, by.get("summon", []), hand)
        if choice is not None:
            return choice
        choice = self._equip(view, by.get("equip", []), hand)
        if choice is not None:
            return choice
        choice = self._play(view, plays, hand)
        if choice is not None:
            return choice
        choice = self._discard_draw(view, by.get("discard-draw", []), hand)
        if choice is not None:
            return choice
        choice = self._attack(view, by.get("attack", []) + by.get("battle", []))
        if choice is not None:
            return choice
        if "discard" in by:  # down to the limit: never a gear piece
            return min(by["discard"], key=lambda a: (_keep(hand[a["cards"][0]]),
                                                     a["cards"][0]))
        for verb in ("end", "recover"):
            if verb in by:
                return by[verb][0]
        return actions[0]

    # -- the turn's own actions ---------------------------------------------------------------
    def _showdown_safe(self, view) -> bool:
        """The Alpha Walrus (level 12) against each opponent's strongest creature (no
        equipment counts, AW-G.15): safe when none can reach it with the battle cards an
        opponent may hold (+3 at most, Deep Dive). When the game stands still (the deck is
        empty, or late rounds) waiting wins nothing: then the risk of a tie (+2) is taken."""
        me = view["player"]
        stalling = view["deck_size"] == 0 or view["round"] >= 12
        for n, field in view["fields"].items():
            if n == me or n in view["out"]:
                continue
            top = max((_level(c) for c, _eq in field), default=0)
            reach = top + (3 if view["hand_sizes"][n] else 0)
            if reach >= 12 and not (stalling and top + 2 <= 12):
                return False
        return True

    def _summon(self, view, options, hand):
        if not options:
            return None
        me = view["player"]
        field = view["fields"][me]
        plain = [a for a in options if "discard" not in a]
        if plain:
            return max(plain, key=lambda a: (_level(hand[a["card"]]), a["card"]))
        # a full field: make room only for a clearly stronger creature
        best = None
        for a in options:
            out = field[a["discard"] - 1]
            gain = _level(hand[a["card"]]) - _power(out[0], out[1])
            if gain >= 2 and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def _equip(self, view, options, hand):
        if not options:
            return None
        me = view["player"]
        field = view["fields"][me]

        def value(a):
            card = hand[a["card"]]
            target = field[a["to"] - 1]
            useful = card.level_bonus or card.effect("field_limit") or card.effect(
                "armor_limit") or card.survives_discard
            return (bool(useful), _power(target[0], target[1]), a["card"])
        return max(options, key=value)

    def _play(self, view, plays, hand):
        me = view["player"]
        ts = view.get("turn_state") or {}
        for ref, a in plays.items():
            card = hand[ref]
            words = {e.get("effect") for e in card.effects}
            if "draw" in words and not ts.get("discard_drew"):
                return a
            if "take_from_discard" in words and any(
                    c.kind in ("equipment", "battle") for c in view["discard"]):
                return a
            if "protect_from_battle" in words or "give_card" in words:
                target = a.get("target")
                if target and self._threat(view, target) > self._threat(view, me):
                    return a
            if "discard_creature" in words:
                mine = len(view["fields"][me])
                if mine < 4 and any(len(f) >= 4 for n, f in view["fields"].items() if n != me):
                    return a
            if "count_gear" in words or "pass_cards" in words:
                return a
        return None

    def _threat(self, view, who: str) -> int:
        return sum(_power(c, eq) for c, eq in view["fields"][who])

    def _discard_draw(self, view, options, hand):
        """Discard a creature weaker than the whole (full) field, or a spare non-creature,
        to draw; never a gear piece."""
        if not options:
            return None
        me = view["player"]
        field = view["fields"][me]
        weakest = min((_power(c, eq) for c, eq in field), default=0)
        full = len(field) >= 4
        for a in sorted(options, key=lambda a: _keep(hand[a["card"]])):
            card = hand[a["card"]]
            if card.kind == "gear":
                continue
            if card.kind == "creature" and full and _level(card) < weakest:
                return a
            if card.kind == "diplomacy" and len(view["hand"]) > 5:
                return a
        return None

    def _attack(self, view, options):
        """Battle where the defender's best answer still loses (gear first), or where it
        costs the defender more creatures than the attacker: a trade that leaves the
        attacker more creatures for the next battle."""
        me = view["player"]
        mine = [_power(c, eq) for c, eq in view["fields"][me]]
        if not mine:
            return None
        bonuses = sorted((c.level_bonus for c in view["hand"]
                          if c.kind == "battle" and c.level_bonus), reverse=True)
        best = None
        for a in options:
            target = a["target"]
            theirs = [_power(c, eq) for c, eq in view["fields"][target]]
            holds, a_lost, d_lost = losses(mine, theirs)
            if holds and bonuses:  # the battle cards it holds, played after the match-ups
                holds, a_lost, d_lost = _with_cards(mine, theirs, bonuses)
            has_gear = bool(view["gear"][target])
            if a["stake"] == "gear" and not has_gear:
                continue
            attrition = d_lost == a_lost and max(mine) > max(theirs, default=0)
            if holds and d_lost < a_lost or (holds and d_lost == a_lost and not attrition):
                continue
            score = (not holds, a["stake"] == "gear", d_lost - a_lost,
                     len(mine) - len(theirs))
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None

    # -- decisions ------------------------------------------------------------------------------
    def _decide(self, view, d, by, actions, rng):
        kind = d["kind"]
        options = by.get("choose", [])
        passing = by.get("pass", [None])[0]
        handler = getattr(self, f"_d_{kind}", None)
        if handler is not None:
            found = handler(view, d, options, passing)
            if found is not None:
                return found
        if passing is not None and kind in _DECLINE:
            return passing
        return options[0] if options else actions[0]

    def _d_match(self, view, d, options, passing):
        """Defend with the matching that wins the battle, or loses the least."""
        b = view["battle"]
        me = view["player"]
        att = [_power(c, eq) for c, eq in view["fields"][b["attacker"]]]
        dfd = [_power(c, eq) for c, eq in view["fields"][me]]
        plan, _holds = best_defence(att, dfd)
        want = plan.get(b["next"])
        for a in options:
            if (want is None and a["option"] == "none") or a["option"] == (
                    want + 1 if want is not None else None):
                return a
        return None

    def _d_goamph(self, view, d, options, passing):
        """Cancel a battle it would lose, or the summon of a creature of level 8 or more."""
        data = d["data"]
        if data["target"] == "battle":
            b = view["battle"]
            if b is None or b["target"] != view["player"]:
                return passing
            att = [_power(c, eq) for c, eq in view["fields"][b["attacker"]]]
            dfd = [_power(c, eq) for c, eq in view["fields"][view["player"]]]
            return passing if best_defence(att, dfd)[1] else options[0]
        if data["target"] == "summon" and (data.get("level") or 0) >= 8:
            return options[0]
        return passing

    def _d_battle_card(self, view, d, options, passing):
        """Play a level bonus on a creature whose fight it turns; else pass."""
        b = view["battle"]
        me = view["player"]
        attacking = b["attacker"] == me
        other = b["target"] if attacking else b["attacker"]
        mine = [_power(c, eq) for c, eq in view["fields"][me]]
        theirs = [_power(c, eq) for c, eq in view["fields"][other]]
        hand = {c.ref: c for c in view["hand"]}
        for i, j in b["matches"]:
            k, o = (i, j) if attacking else (j, i)
            if k >= len(mine) or o >= len(theirs):
                continue
            lose = mine[k] <= theirs[o] if attacking else mine[k] < theirs[o]
            if not lose:
                continue
            for a in options:
                opt = a["option"]
                card = hand.get(opt.get("card"))
                if card is None or opt.get("on") != k + 1:
                    continue
                after = mine[k] + card.level_bonus
                if (after > theirs[o]) if attacking else (after >= theirs[o]):
                    return a
        if any(hand.get(a["option"].get("card")) is not None and
               hand[a["option"]["card"]].effect("save_loser") for a in options):
            return next(a for a in options if hand[a["option"]["card"]].effect("save_loser"))
        return passing

    def _d_white_flag(self, view, d, options, passing):
        b = view["battle"]
        att = [_power(c, eq) for c, eq in view["fields"][b["attacker"]]]
        dfd = [_power(c, eq) for c, eq in view["fields"][view["player"]]]
        _plan, holds = best_defence(att, dfd)
        return passing if holds else (options[0] if options else None)

    def _d_discard_own(self, view, d, options, passing):
        hand = {c.ref: c for c in view["hand"]}
        return min(options, key=lambda a: (_keep(hand[a["option"]]), a["option"]))

    _d_give_card = _d_discard_own
    _d_pass_card = _d_discard_own

    def _d_pay_instead(self, view, d, options, passing):
        hand = {c.ref: c for c in view["hand"]}
        fine = [a for a in options if not any(hand[r].kind == "gear" for r in a["option"])]
        if not fine:
            return passing
        return min(fine, key=lambda a: sorted((_keep(hand[r]) for r in a["option"]),
                                              reverse=True))

    def _d_second_wind(self, view, d, options, passing):
        field = view["fields"][view["player"]]
        return max(options, key=lambda a: _power(*field[a["option"] - 1])) if options else None

    def _d_stake(self, view, d, options, passing):
        return options[0] if options else None

    def _d_discard_to_draw(self, view, d, options, passing):
        hand = {c.ref: c for c in view["hand"]}
        spare = [a for a in options if hand[a["option"]].kind not in ("gear",)]
        return min(spare, key=lambda a: _keep(hand[a["option"]])) if spare else passing


#: decisions expert declines unless a handler above takes them
_DECLINE = frozenset({"goamph", "white_flag", "battle_card", "pay_instead", "discard_to_draw"})


def _keep(card) -> tuple:
    """How much a card is worth keeping (lower goes first): gear above all, then creatures by
    level, equipment by its bonus."""
    if card.kind == "gear":
        return (9, 0)
    if card.kind == "creature":
        return (2, _level(card))
    if card.kind == "equipment":
        return (3, card.level_bonus)
    if card.kind == "battle":
        return (4, card.level_bonus)
    return (1, 0)


#: the policies of this game by name, as ``--policy`` takes them (``random`` and ``search`` are
#: every game's)
POLICIES = {"greedy": Greedy, "expert": Expert}
#: the policy a search plays its playouts with
ROLLOUT = "expert"
