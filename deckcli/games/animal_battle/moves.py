"""The legal actions of the player to move, worked out from the state (no trial copies).

``referee legal`` tries every candidate action on a copy of the game (:meth:`.play.
AnimalBattleEngine.tried`): exact, and slow (a copy per candidate). A simulation asks for the
legal actions at every step of thousands of games, so this module answers from the state
alone, rule by rule, as the engine (:mod:`.engine`, :mod:`.turn`) checks them. Card text is
the exception: an action card is tried on a copy (few hands hold one). ``tests/
test_ab_moves.py`` holds the two answers equal on every position of many random games.

Who is to move (:func:`to_move`) is this module's reading of the turn (a played card's choice,
:mod:`.cardtext`, first); the referee lets any player act whose action is legal. Left out on
purpose: playing a card whose text the referee does not model (a judge would have to rule, and
a simulation cannot go on).
"""

from __future__ import annotations

from deckcli.games.animal_battle import BATTLE_STATS, POOL_SIZE, cardtext, effects
from deckcli.games.animal_battle.state import RANK

STATS = tuple(BATTLE_STATS)
_DRAW, _POOL, _ESTABLISH = RANK["draw"], RANK["pool"], RANK["establish"]


def to_move(match) -> str | None:
    """The player whose decision it is, None for the table ('start') or a game that waits."""
    s = match.s
    if s.winner is not None or s.waiting is not None:
        return None
    if s.pending is not None:  # a played card's choice comes first (AB-6.5)
        return s.pending["player"]
    if s.phase == "setup":
        if s.challenger is None:
            return s.first
        if all(d is None for d in s.defenders.values()):
            return s.defending or s.first  # the first player names the opponent (target)
        for pid in _from(s, s.first):  # each fills the Pool in seat order, then is ready
            if pid not in s.ready:
                return pid
        return None
    if s.phase == "promote":
        return s.defending
    dp = s.defending
    if (s.phase == "establish" and s.controller == s.active and dp is not None
            and s.defenders.get(dp) is None):
        return dp  # the Challenger is known: the defending player selects the Defender
    if s.phase == "attack" and s.used and not s.original:
        chooser = match.house.value("next_stat_chooser")
        if chooser == "defender":
            return dp
    return s.active


def _from(s, first: str) -> list[str]:
    i = s.order.index(first)
    return [p for p in s.order[i:] + s.order[:i] if not s.players[p].out]


def legal_actions(match) -> list[tuple]:
    """Every legal action of :func:`to_move`'s player (the table's 'start' when None)."""
    return choices(match)[1]


def choices(match) -> tuple[str | None, list[tuple]]:
    """(:func:`to_move`, its legal actions): what a simulation asks at every step."""
    s = match.s
    if s.winner is not None or s.waiting is not None:
        return None, []
    if s.pending is not None:  # a played card's choice comes first (AB-6.5)
        pid = s.pending["player"]
        return pid, [(pid, "choose", c, None) for c in cardtext.options(s)]
    pid = to_move(match)
    facts = match.facts
    phase = s.phase
    if phase == "setup":
        return pid, _setup(match, pid, facts.animals)
    if pid is None:
        return None, []
    out: list[tuple] = []
    if phase == "promote":
        _promotion(match, pid, out, facts.animals)
    elif pid == s.active:
        _turn(match, s, pid, phase, out, facts.animals)
    else:
        _defending(match, pid, out, facts.animals)
    if phase in facts.play_phases and not facts.playable_ids.isdisjoint(s.players[pid].hand):
        _cards(match, pid, out, facts)
    return pid, out


def _setup(match, pid, animals: frozenset) -> list[tuple]:
    s = match.s
    targets = []
    unrevealed = all(d is None for d in s.defenders.values())
    if (unrevealed and len(s.in_game()) > 2
            and match.house.value("defender_player") == "attacker_choice"):
        targets = [(s.first, "target", o, None) for o in s.order  # AB-G.5
                   if o != s.first and not s.players[o].out]
    if s.challenger is None:
        return [(pid, "reveal_challenger", c, None)
                for c in sorted(animals.intersection(s.players[pid].hand))] + targets
    if unrevealed:
        if s.defending is None:  # more than two players: the first player names whom to attack
            return targets
        out = [(pid, "reveal_defender", c, None)
               for c in sorted(animals.intersection(s.players[pid].hand))]
        return out + (targets if pid == s.first else [])
    if pid is None:
        return [(None, "start", None, None)]
    p = s.players[pid]
    out = [(pid, "ready", None, None)]
    if len(p.pool) < POOL_SIZE:
        out += [(pid, "place", c, None) for c in sorted(animals.intersection(p.hand))]
    return out


def _from_hand_allowed(match) -> bool:
    """AB-G.7: may a new Challenger or Defender come straight from the hand?"""
    return match.house.value("new_animal_from") == "pool_or_hand"


def _turn(match, s, pid: str, phase: str, out: list, animals: frozenset) -> None:
    p = s.players[pid]
    rank = RANK[phase]
    if (rank <= _ESTABLISH and len(s.order) > 2 and len(s.in_game()) > 2
            and match.house.value("defender_player") == "attacker_choice"):
        out += [(pid, "target", o, None) for o in s.order
                if o != pid and not s.players[o].out]  # AB-G.5: the attacker names whom
    if phase == "draw":
        if not s.drew:
            out.append((pid, "draw", None, None))
        return
    challenger = s.challenger
    in_force = s.overrides  # card text in force (rarely): effects.find has nothing to find
    if rank <= _POOL:
        if len(p.pool) < (match._pool_limit(pid)[0] if in_force else POOL_SIZE):
            out += [(pid, "place", c, None) for c in sorted(animals.intersection(p.hand))]
        if challenger is not None:  # else establishing the Challenger ends the Pool phase
            out.append((pid, "ready", None, None))
    controls = s.controller == pid
    if challenger is None:
        if rank <= _ESTABLISH:
            sources = p.pool + p.hand if _from_hand_allowed(match) else p.pool
            out += [(pid, "challenge", c, None) for c in sorted(animals.intersection(sources))]
    else:
        if (in_force and controls and not s.attacked and rank <= _ESTABLISH
                and effects.find(s, "replace_challenger", pid)):
            out += [(pid, "challenge", c, None) for c in sorted(animals.intersection(p.pool))]
        if controls:  # only the Challenger's controller attacks with it (AB-4.4)
            _statistics(match, pid, out)
    # AB-4.5, AB-6.2, AB-4.3: the turn may end once its attack is over (or needs none)
    if phase == "attack" and s.used:
        return
    if controls and not s.attacked and not (in_force and effects.find(s, "skip_attack", pid)):
        return
    if not (challenger is None and not s.attacked):
        out.append((pid, "end_turn", None, None))


def _statistics(match, pid, out: list) -> None:
    s = match.s
    if s.phase not in ("pool", "establish", "attack") or s.challenger is None:
        return
    if s.controller != s.active:
        return
    dp = s.defending
    if dp is None or s.defenders.get(dp) is None:
        return
    if s.original:
        chooser = s.controller
    else:
        chooser = s.controller if match.house.value("next_stat_chooser") == "challenger" else dp
    if pid != chooser:
        return
    used = s.used
    if not used:
        found = _STAT_ACTIONS.get(pid)
        if found is None:
            found = _STAT_ACTIONS[pid] = [(pid, "stat", stat, None) for stat in STATS]
        out += found
        return
    for stat in STATS:
        if stat not in used or effects.find(s, "reuse_statistic", pid, stat):
            out.append((pid, "stat", stat, None))


#: player id -> naming each statistic (the same tuples every time)
_STAT_ACTIONS: dict[str, list[tuple]] = {}


def _defending(match, pid, out: list, animals: frozenset) -> None:
    """The defending player's choices on another player's turn: the Defender (AB-4.3), and
    the statistic when the house rule gives the next link's choice to the defender."""
    s = match.s
    if pid == s.defending and s.phase == "establish" and s.defenders.get(pid) is None:
        p = s.players[pid]
        sources = p.pool + p.hand if _from_hand_allowed(match) else p.pool
        out += [(pid, "defend", c, None) for c in sorted(animals.intersection(sources))]
    _statistics(match, pid, out)


def _promotion(match, pid, out: list, animals: frozenset) -> None:
    s = match.s
    p = s.players[pid]
    out += [(pid, "promote", c, None) for c in sorted(animals.intersection(p.pool))]
    if effects.find(s, "hand_to_chain", pid):
        out += [(pid, "promote", c, None) for c in sorted(animals.intersection(p.hand))
                if c not in p.pool]
    out.append((pid, "decline", None, None))


def _cards(match, pid, out: list, facts) -> None:
    """Action cards in hand whose text the referee models and whose timing holds now (AB-6.4,
    AB-6.5, :mod:`.effects`, :mod:`.cardtext`); a card naming a statistic again
    (reuse_statistic) once for each statistic used. A card whose text is not modelled is left
    out: playing it stops the game."""
    s = match.s
    if s.phase == "setup":
        return
    held = facts.playable_ids.intersection(s.players[pid].hand)
    playable = facts.playable
    for c in sorted(held) if len(held) > 1 else held:
        tests, reuse = playable[c]
        for test in tests:
            if not test(s, pid):
                break
        else:
            if reuse:
                out += [(pid, "play", c, stat) for stat in dict.fromkeys(s.used)]
            else:
                out.append((pid, "play", c, None))
