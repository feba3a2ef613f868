"""One comparison and the Defense Chain that follows it (AB-2.x, AB-4.4, AB-5.x, AB-6.3).

:func:`compare` is the whole of a battle: two printed values, the statistic's direction, the
rule. :func:`resolve` applies a comparison's result to a game, link by link, naming each rule
and stopping at every gap the house rules do not settle.
"""

from __future__ import annotations

from deckcli.diagnostics import number_text
from deckcli.games.animal_battle import BATTLE_STATS, effects

STAT_COUNT = len(BATTLE_STATS)


def compare(stat: str, challenger: float, defender: float) -> tuple[str | None, str]:
    """('challenger' | 'defender' | None for a tie, the statistic's rule id)."""
    sense, rule = BATTLE_STATS[stat]
    if challenger == defender:
        return None, rule
    higher = challenger > defender
    return ("challenger" if higher == (sense == "higher") else "defender"), rule


def describe(stat: str, c, vc, d, vd, winner: str | None) -> str:
    sense, rule = BATTLE_STATS[stat]
    how = "higher" if sense == "higher" else "lower"
    if winner is None:
        return f"{stat}: {c.ref} {number_text(vc)} ties {d.ref} {number_text(vd)}"
    won = c if winner == "challenger" else d
    return (f"{stat} ({how} wins, {rule}): {c.ref} {number_text(vc)} vs {d.ref} "
            f"{number_text(vd)}: {won.ref} wins")


def resolve(game, out, stat: str) -> None:
    """Compare the Challenger with the active Defender on stat and apply the result."""
    s, book = game.s, game.book
    dp = s.defending
    c, d = book[s.challenger], book[s.defenders[dp]]
    vc, vd = c.stats[stat], d.stats[stat]
    s.used.append(stat)
    s.attacked = True
    s.phase = "attack"
    winner, rule = compare(stat, vc, vd)
    out.cite(rule, describe, stat, c, vc, d, vd, winner)
    out.cite("AB-4.4", "{} is now used in this attack sequence ({})", stat, ', '.join(s.used))
    if winner is None:
        how = game.house.meet("AB-G.1", f"tie on {stat}: {c.ref} and {d.ref} both have "
                                        f"{number_text(vc)}", out.gaps)
        if how == "replay":
            out.note("house rule stat_tie=replay: the tie is void, {} stays used (AB-G.1)", stat)
            after_link(game, out)
            return
        winner = how
        out.note("house rule stat_tie={}: the {} wins the tie (AB-G.1)", how, how)
    if winner == "challenger":
        defender_falls(game, out)
    else:
        defender_wins(game, out)


def can_promote(game, pid: str) -> bool:
    """Whether the defending player has an Animal to promote (Pool, or hand by card text)."""
    p, book, animals = game.s.players[pid], game.book, game.facts.animals
    if not animals.isdisjoint(p.pool):
        return True
    if animals.isdisjoint(p.hand):
        return False
    if effects.find(game.s, "hand_to_chain", pid):
        return True
    return any(o["effect"] == "hand_to_chain" for c in p.hand for o in book[c].overrides)


def defender_falls(game, out) -> None:
    s = game.s
    dp = s.defending
    d = s.defenders[dp]
    s.defenders[dp] = None
    s.players[dp].discard.append(d)
    out.cite("AB-5.1", "{} is defeated and goes to {}'s discard pile", game.book[d].ref, dp)
    if can_promote(game, dp):
        if not stats_left(game):
            how = game.house.meet("AB-G.9", f"{game.book[d].ref} falls on the last unused "
                                            f"statistic and {dp} has an Animal to promote",
                                  out.gaps)
            if how == "attack_ends":
                end_attack(game, out, f"house rule last_stat_promote=attack_ends: no statistic "
                                      f"is left, so no promotion; the attack ends and "
                                      f"{s.controller} keeps the Challenger (AB-G.9)")
                return
            out.note("house rule last_stat_promote=becomes_challenger: {} may still promote, "
                     "though no statistic is left (AB-G.9)", dp)
        s.phase = "promote"
        out.cite("AB-5.2", "{} may promote a replacement from the Pool, or decline", dp)
        return
    how = game.house.meet("AB-G.3", f"{dp} has no Animal in the Pool to promote", out.gaps)
    no_promotion(game, out, how)


def no_promotion(game, out, how: str) -> None:
    s = game.s
    dp = s.defending
    if how == "defender_loses":
        game.lose(out, dp, f"{dp} provides no Defender (house rule decline_promote="
                           "defender_loses, AB-G.3)")
        return
    end_attack(game, out, f"house rule decline_promote=attack_ends: the attack ends; "
                          f"{s.controller} keeps the Challenger (AB-G.3)")


def end_attack(game, out, why: str) -> None:
    s = game.s
    s.phase = "end"
    effects.expire(s, "sequence")
    out.note(why)


def defender_wins(game, out) -> None:
    s = game.s
    if not s.original:
        out.cite("AB-5.6", "the replacement Defender wins: both active Animals are discarded")
        both_discarded(game, out)
        return
    how = game.house.meet("AB-G.2", f"the original Defender "
                                    f"{game.book[s.defenders[s.defending]].ref} beats the "
                                    "Challenger", out.gaps)
    if how == "as_replacement":
        out.note("house rule original_defender_wins=as_replacement: as AB-5.6 (AB-G.2)")
        both_discarded(game, out)
        return
    c = s.challenger
    s.players[s.controller].discard.append(c)
    s.challenger = s.controller = None
    end_attack(game, out, f"house rule original_defender_wins=discard_challenger: "
                          f"{game.book[c].ref} is discarded, the attack ends (AB-G.2)")


def both_discarded(game, out) -> None:
    s = game.s
    dp = s.defending
    s.players[s.controller].discard.append(s.challenger)
    s.players[dp].discard.append(s.defenders[dp])
    s.challenger = s.controller = None
    s.defenders[dp] = None
    change_control(game, out, dp, "AB-5.6")


def stats_left(game) -> bool:
    s = game.s
    return len(set(s.used)) < STAT_COUNT or effects.find(s, "reuse_statistic") is not None


def after_link(game, out, promoted: bool = False) -> None:
    """A Defender stands after a link (a tie replayed, or a replacement ``promoted``): the
    chain goes on, unless no statistic is left."""
    s = game.s
    s.phase = "attack"
    if stats_left(game):
        out.cite("AB-5.3", "the next comparison uses a statistic not yet used")
        return
    dp = s.defending
    survivor = s.defenders[dp]
    s.players[s.controller].discard.append(s.challenger)
    if promoted:  # promoted with no statistic left: never compared (AB-G.9)
        out.note("house rule last_stat_promote=becomes_challenger: {}, promoted after the last "
                 "statistic, counts as the surviving Defender (AB-G.9)", game.book[survivor].ref)
    out.cite("AB-5.7", "all five statistics are used: {} is discarded and {} becomes {}'s "
             "Challenger", game.book[s.challenger].ref, game.book[survivor].ref, dp)
    s.defenders[dp] = None
    s.challenger, s.controller = survivor, dp
    change_control(game, out, dp, "AB-5.7")


def change_control(game, out, new: str, because: str) -> None:
    """AB-6.3: the attack ends, the ending turn's player refills (AB-4.6), a fresh turn starts."""
    s = game.s
    old = s.active
    out.cite("AB-6.3", "control passes to {} ({}): the attack ends and a fresh turn begins",
             new, because)
    s.phase = "end"
    if game.horizon == "attack":  # a ruling on one attack: what follows is another question
        s.active, s.turn, s.phase = new, s.turn + 1, "draw"
        return
    game.refill(out, old)
    if s.winner is None:
        game.begin_turn(out, new)
