"""The animal-battle referee: one battle, one attack sequence, a whole recorded game.

Every answer names the rule it applies. Where the rules are silent (``AB-G.n``) the answer
says ``gap: true``, applies a declared house ruling, and otherwise says a judge must rule.
The plain functions here return JSON-able dicts; ``render_*`` turn them into text.
"""

from __future__ import annotations

from deckcli.diagnostics import number_text
from deckcli.errors import NotFoundError, UsageError
from deckcli.games.animal_battle.chain import compare, describe
from deckcli.games.animal_battle.gaps import check_house_rules, rule_on
from deckcli.games.animal_battle.logfile import card_ref  # noqa: F401  (re-exported)
from deckcli.games.animal_battle.rules import BATTLE_STATS, DEPTH_NAMES

GAME = "animal-battle"


def battle_stat(stat: str) -> str:
    """A battle statistic by name; anything else cannot be ruled on (exit 2)."""
    key = str(stat).strip().lower().replace(" ", "_").replace("-", "_")
    if key in BATTLE_STATS:
        return key
    if key in DEPTH_NAMES:
        raise NotFoundError("max_depth is not a battle statistic: Maximum Depth is species "
                            f"information only (AB-2.6); battle statistics: "
                            f"{', '.join(BATTLE_STATS)}")
    raise NotFoundError(f"{stat!r} is not a battle statistic ({', '.join(BATTLE_STATS)}; "
                        "AB-2.1 to AB-2.5)")


def _animal(card, role: str):
    if card.kind != "animal":
        raise UsageError(f"{card.ref} is an {card.kind} card, not an Animal: it cannot be the "
                         f"{role}")
    return card


def battle(challenger, defender, stat: str, house_rules: dict | None = None) -> dict:
    """One comparison between two cards on one statistic (CONTRACT.md, ``referee battle``)."""
    stat = battle_stat(stat)
    house = check_house_rules(house_rules or {})
    c, d = _animal(challenger, "Challenger"), _animal(defender, "Defender")
    vc, vd = c.stats[stat], d.stats[stat]
    winner, rule = compare(stat, vc, vd)
    result = {"winner": winner, "stat": stat, "values": {"challenger": vc, "defender": vd},
              "rule": rule, "gap": False, "ruling": describe(stat, c, vc, d, vd, winner),
              "house_rule": None, "cards": {"challenger": c.ref, "defender": d.ref}}
    if winner is None:
        record = rule_on("AB-G.1", f"tie on {stat}: both have {number_text(vc)}", house)
        result.update(rule="AB-G.1", gap=True, ruling=f"{c.ref} and {d.ref} both have "
                      f"{number_text(vc)} {stat}. {record['ruling']}")
        if record["value"] is not None:
            result["house_rule"] = {record["house_rule"]: record["value"]}
            if record["value"] in ("challenger", "defender"):
                result["winner"] = record["value"]
    return result


def render_battle(result: dict) -> str:
    winner = result["winner"] or "none"
    flag = " (gap)" if result["gap"] else ""
    return (f"{result['cards']['challenger']} (Challenger) vs {result['cards']['defender']} "
            f"(Defender) on {result['stat']}: {number_text(result['values']['challenger'])} vs "
            f"{number_text(result['values']['defender'])}\nwinner: {winner}  "
            f"rule: {result['rule']}{flag}\n{result['ruling']}")


def attack(challenger, defender, pool: list, stats: list[str],
           house_rules: dict | None = None) -> dict:
    """A whole attack sequence: the Challenger against the Defender, then each Animal of the
    defending player's Pool promoted in turn, on the statistics in the order given."""
    from deckcli.games.animal_battle.engine import Game
    from deckcli.games.animal_battle.state import CardInfo

    stats = [battle_stat(s) for s in stats]
    if not stats:
        raise UsageError("--stats needs at least one battle statistic")
    house = check_house_rules(house_rules or {})
    cards = [_animal(challenger, "Challenger"), _animal(defender, "Defender"),
             *(_animal(c, "a Pool Animal") for c in pool)]
    book = {c.id: CardInfo.of(c) for c in cards}
    game = Game.position(book, challenger=challenger.id, defenders={"p2": defender.id},
                         pools={"p2": [c.id for c in pool]}, house_rules=house)
    game.horizon = "attack"
    s = game.s
    steps, gaps = [], []

    def record(out, text):
        entry = out.to_json()
        entry.update(step=len(steps) + 1, action=text)
        steps.append(entry)
        gaps.extend(out.gaps)
        return out

    named = 0
    for stat in stats:
        if s.phase not in ("establish", "attack") or s.waiting or s.turn > 2:
            break
        out = record(game.act(None, "stat", stat=stat), f"stat {stat}")
        named += 1
        if s.phase == "promote":
            nxt = s.players["p2"].pool[0]
            record(game.act("p2", "promote", nxt), f"promote {book[nxt].ref}")
        if out.violations:
            break
    result = {"challenger": challenger.ref, "defender": defender.ref,
              "pool": [c.ref for c in pool], "stats": stats, "steps": steps,
              "gaps": gaps, "gap": bool(gaps), "house_rules": house,
              "unused": stats[named:], "violations": [v for st in steps
                                                      for v in st["violations"]]}
    result["result"] = _attack_result(game, steps)
    return result


def _attack_result(game, steps) -> dict:
    s = game.s
    if s.waiting:
        return {"ended": False, "by": s.waiting["rule"], "summary":
                f"stopped at a gap ({s.waiting['rule']}): a judge must rule"}
    if s.turn > 2:
        rule = next((r for st in steps for r in st["rules"] if r in ("AB-5.6", "AB-5.7")),
                    "AB-G.2")
        return {"ended": True, "by": rule, "control": s.active, "summary":
                f"the attack ends: control passes to the defending player ({rule}, AB-6.3)"}
    if s.phase == "end":
        rule = next((g["rule"] for st in steps for g in st["gaps"]), "AB-4.5")
        return {"ended": True, "by": rule, "control": "p1",
                "summary": "the attack ends; the Challenger's player keeps control "
                           f"({rule})"}
    left = [x for x in BATTLE_STATS if x not in s.used]
    return {"ended": False, "by": "AB-5.3", "summary": "the attack goes on: a Defender stands "
            f"and {len(left)} statistic(s) remain ({', '.join(left)})"}


def render_attack(result: dict) -> str:
    lines = [f"{result['challenger']} attacks {result['defender']}"
             + (f" (Pool: {', '.join(result['pool'])})" if result["pool"] else "")]
    for st in result["steps"]:
        lines.append(f"{st['step']:>2}. {st['action']}")
        for v in st["violations"]:
            lines.append(f"    ILLEGAL {v['rule']}: {v['message']}")
        lines.extend("    " + note for note in st["notes"])
        if st["stop"]:
            lines.append(f"    GAP {st['stop']['rule']}: {st['stop']['ruling']}")
    if result["unused"]:
        lines.append(f"not reached: {', '.join(result['unused'])}")
    lines.append(result["result"]["summary"])
    return "\n".join(lines)


# -- recorded games --------------------------------------------------------------------------
def _replay(log: dict, path: str, house_rules: dict, index=None):
    from deckcli.games.animal_battle import logfile

    if index is None:
        from deckcli.cards.cache import open_index

        index = open_index()
    game, steps = logfile.read(index, log, path, house_rules)
    violations, gaps, stopped, done = [], [], None, 0
    for g in game.setup.gaps:
        gaps.append({"step": 0, "line": None, **g})
    for step in steps:
        out = game.act(step.player, step.verb, step.arg, step.stat)
        done += 1
        for v in out.violations:
            violations.append({"step": step.n, "line": step.line, "action": step.text,
                               "rule": v["rule"], "message": v["message"]})
        for g in out.gaps if not out.violations else ():  # an illegal action settles nothing
            gaps.append({"step": step.n, "line": step.line, "rule": g["rule"],
                         "situation": g["situation"], "ruling": g["ruling"],
                         "house_rule": g["house_rule"], "value": g["value"]})
        if out.stop is not None and not out.violations:
            stopped = {"step": step.n, "line": step.line, "action": step.text,
                       "rule": out.stop["rule"], "gap": out.stop.get("gap", True),
                       "ruling": out.stop["ruling"]}
            break
    return game, steps, done, violations, gaps, stopped


def check_log(log: dict, path: str, house_rules: dict, *, index=None) -> dict:
    game, steps, done, violations, gaps, stopped = _replay(log, path, house_rules, index)
    return {"game": GAME, "path": path, "steps": done, "actions": len(steps),
            "house_rules": game.house, "violations": violations, "gaps": gaps,
            "stopped": stopped, "final": game.summary()}


def _where(item: dict) -> str:
    return f"step {item['step']}" + (f" (line {item['line']})" if item.get("line") else "")


def render_check(result: dict) -> str:
    settled = [g for g in result["gaps"] if g.get("value")]
    lines = [(f"{result['path']}: {result['steps']} of {result['actions']} actions replayed, "
              f"{len(result['violations'])} violation(s), {len(settled)} gap(s) settled by "
              "house rules")]
    for v in result["violations"]:
        lines.append(f"  {_where(v)} '{v['action']}': {v['rule']}: {v['message']}")
    for g in settled:
        lines.append(f"  {_where(g)} gap {g['rule']}: {g['situation']}. {g['ruling']}")
    if result["stopped"]:
        st = result["stopped"]
        lines.append(f"  STOPPED at {_where(st)} '{st['action']}': {st['rule']}: {st['ruling']}")
    f = result["final"]
    state = (f"winner {f['winner']}" if f["winner"] else "in setup" if f["phase"] == "setup"
             else f"{f['active']} to act, phase {f['phase']}")
    lines.append(f"final: turn {f['turn']}, {state}")
    return "\n".join(lines)


def legal_actions(log: dict, path: str, house_rules: dict, *, index=None) -> dict:
    """The actions the rules allow next, each tried on a copy of the replayed game."""
    game, _steps, done, _violations, _gaps, stopped = _replay(log, path, house_rules, index)
    s = game.s
    result = {"game": GAME, "path": path, "steps": done, "turn": s.turn, "phase": s.phase,
              "active": s.active, "winner": s.winner, "waiting": stopped, "actions": []}
    if s.winner is None and stopped is None:
        result["actions"] = candidates(game)
    return result


def candidates(game, raw: bool = False) -> list:
    """Every legal next action: player, action, argument, the rules it applies, gap if any.

    ``raw``: (player, action, arg, stat) tuples as ``Game.act`` takes them.
    """
    s, book = game.s, game.book
    found = []
    for pid in s.in_game():
        p = s.players[pid]
        animals = sorted({c for c in p.hand + p.pool if book[c].animal})
        tries = [("draw", None, None), ("decline", None, None), ("end_turn", None, None)]
        tries += [(v, c, None) for v in ("reveal_challenger", "reveal_defender", "place",
                                         "challenge", "defend", "promote") for c in animals]
        tries += [("stat", st, None) for st in BATTLE_STATS]
        tries += [("target", o, None) for o in s.order if o != pid]
        for c in sorted({c for c in p.hand if book[c].kind == "action"}):
            tries.append(("play", c, None))
            tries += [("play", c, st) for st in dict.fromkeys(s.used)]
        for verb, arg, stat in tries:
            out = game.clone().act(pid, verb, arg, stat)
            if out.violations:
                continue
            if raw:
                found.append((pid, verb, arg, stat))
                continue
            shown = book[arg].ref if isinstance(arg, int) else arg
            text = " ".join(str(x) for x in (pid, verb, shown) if x is not None)
            if stat:
                text += f" stat={stat}"
            found.append({"player": pid, "action": verb, "arg": shown, "stat": stat,
                          "text": text, "rules": out.rules,
                          "gap": out.stop["rule"] if out.stop else None})
    if s.phase == "setup":
        out = game.clone().act(None, "start")
        if not out.violations and raw:
            found.append((None, "start", None, None))
        elif not out.violations:
            found.append({"player": None, "action": "start", "arg": None, "stat": None,
                          "text": "start", "rules": out.rules, "gap": None})
    return found


def render_legal(result: dict) -> str:
    head = f"{result['path']}: after {result['steps']} actions, turn {result['turn']}"
    if result["winner"]:
        return f"{head}: the game is over, {result['winner']} won (AB-1.1)"
    if result["waiting"]:
        w = result["waiting"]
        return f"{head}: stopped at step {w['step']}: {w['rule']}: {w['ruling']}"
    acting = list(dict.fromkeys(a["player"] for a in result["actions"] if a["player"]))
    who = (", ".join(acting) if acting else result["active"] or "setup") + " to act"
    if result["active"] and acting and acting != [result["active"]]:
        who += f" (on {result['active']}'s turn)"  # the defending player promotes, say
    lines = [f"{head}, phase {result['phase']}, {who}:"]
    for a in result["actions"]:
        extra = ""
        if a["gap"] and a["gap"].startswith("AB-G."):
            extra = f"  (then gap {a['gap']}: a judge must rule)"
        elif a["gap"]:  # a stop that is no gap: card text the referee does not model
            extra = f"  (then a judge must rule on the card's text, {a['gap']})"
        lines.append(f"  {a['text']:<45} {', '.join(a['rules'][:3])}{extra}")
    return "\n".join(lines)
