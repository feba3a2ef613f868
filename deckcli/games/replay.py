"""The referee for recorded games, for every game: ``referee check`` and ``referee legal``.

One driver over the game interface (:mod:`deckcli.games.base`): the game reads its log into
a dealt game and a list of steps (``Engine.read_log``), and every step goes through
``Engine.apply``, the same call a simulation plays through. An illegal action is a violation
and changes nothing; the replay goes on from the state the legal actions left. A gap that no
house rule settles stops the replay (a judge must rule); a breach noticed late (a turn that
ended without its player ending it) is the violation of the player who broke the rule.

Both games give the same JSON shape (``check``: :func:`check`, ``legal``: :func:`legal`);
what differs is in ``final`` (the game's own summary of the table) and in a step's game facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.diagnostics import one_line, visible_name
from deckcli.errors import DeckcliError, UsageError

if TYPE_CHECKING:
    from deckcli.games.base import Game
    from deckcli.games.interface import Engine


class Replay:
    """A log replayed: the game, the match as it stands, every step with its outcome."""

    __slots__ = ("game", "engine", "path", "log", "state", "steps", "records", "stopped",
                 "setup")

    engine: Engine

    def __init__(self, game: Game, path, log, state, steps, records, stopped, setup):
        self.game, self.engine = game, game.engine()
        self.path, self.log, self.state, self.steps = path, log, state, steps
        self.records, self.stopped, self.setup = records, stopped, setup


def replay(game: Game, log: dict, path: str | None, house_rules: dict, index) -> Replay:
    """Replay ``log`` by ``game``'s rules, house rules from the command line on top of the
    log's own. A wrong house rule given on the command line is the command's problem, not
    the log's: it is refused first, saying so."""
    try:
        game.house_rules(house_rules)
    except UsageError as exc:
        raise UsageError(f"{exc.message} (given with --house-rule or --event)") from None
    engine = game.engine()
    state, steps, setup = engine.read_log(log, path, house_rules, index)
    records, stopped = [], None
    for step in steps:
        try:
            out = engine.apply(state, step.action)
        except DeckcliError as exc:  # an action the log cannot express: exit 2, with its line
            raise DeckcliError(exc.message, path=path, line=step.line or exc.line) from None
        records.append((step, out))
        if out.stop is not None and out.ok:
            stopped = (step, out.stop)
            break
    return Replay(game, path, log, state, steps, records, stopped, setup)


def _where(step) -> dict:
    """Where a step is, and what it says: the log's own text, escaped as every report shows
    what a file says (:func:`~deckcli.diagnostics.visible_name`: one line, no raw control
    character), in JSON and text alike."""
    return {"step": step.n, "line": step.line, "player": visible_name(step.player),
            "action": visible_name(step.verb), "text": visible_name(step.text)}


def _violation(step, player, d, late: bool = False) -> dict:
    """``late``: a breach by ``player`` noticed only at this step (another player's action)."""
    return {**_where(step), "player": player, "late": late, "code": d.code,
            "severity": d.severity.value, "rule": d.rule, "message": d.message}


def check(rep: Replay) -> dict:
    """The ``referee check`` report (the same keys for every game)."""
    steps, violations, gaps, notes = [], [], [], []
    if rep.setup is not None:
        gaps += [{"step": 0, "line": None, **g.to_json()} for g in rep.setup.gaps]
    for step, out in rep.records:
        steps.append({"step": step.n, "line": step.line, "text": visible_name(step.text),
                      **out.to_json()})
        violations += [_violation(step, step.player, v) for v in out.violations]
        violations += [_violation(step, p, v, late=True) for p, v in out.breaches]
        if out.ok:  # an illegal action settles no gap
            gaps += [{"step": step.n, "line": step.line, **g.to_json()} for g in out.gaps]
        notes += [{"step": step.n, "line": step.line, "note": n} for n in out.remarks]
    stopped = None
    if rep.stopped is not None:
        step, stop = rep.stopped
        stopped = {**_where(step), **stop.to_json()}
    log = rep.log
    return {"game": rep.game.id, "path": rep.path, "players": _players(rep),
            "seed": _seed(log), "house_rules": rep.state.house.to_json(),
            "actions": len(rep.steps), "replayed": len(rep.records),
            "legal": not violations, "violations": violations, "gaps": gaps,
            "stopped": stopped, "notes": notes, "steps": steps,
            "final": rep.engine.summary(rep.state)}


def _players(rep: Replay) -> list[str]:
    final = rep.engine.summary(rep.state)
    return list(final.get("players", {}))


def _seed(log: dict):
    seed = log.get("seed", (log.get("setup") or {}).get("seed")
                   if isinstance(log.get("setup"), dict) else None)
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def legal(rep: Replay) -> dict:
    """The ``referee legal`` report: every action the rules allow next, each with the rules
    it would apply, every gap it would meet, and where a judge would have to rule."""
    engine, state = rep.engine, rep.state
    stopped = None
    if rep.stopped is not None:
        step, stop = rep.stopped
        stopped = {**_where(step), **stop.to_json()}
    actions = []
    if not engine.is_over(state) and stopped is None:
        for action, out in engine.tried(state):
            actions.append({
                "player": out.player, "action": out.action,
                "text": engine.action_text(state, action),
                "entry": engine.log_entry(state, action), "rules": list(out.rules),
                "gaps": list(dict.fromkeys(g.rule for g in out.gaps)),
                "stop": out.stop.to_json() if out.stop else None})
    acting = list(dict.fromkeys(a["player"] for a in actions if a["player"]))
    return {"game": rep.game.id, "path": rep.path, "replayed": len(rep.records),
            "violations": sum(len(o.violations) + len(o.breaches) for _s, o in rep.records),
            "player": acting[0] if len(acting) == 1 else None, "acting": acting,
            **engine.position(state), "winner": engine.winner(state), "stopped": stopped,
            "actions": actions, "final": engine.summary(state)}


# -- text ----------------------------------------------------------------------------------
def _at(item: dict) -> str:
    return f"step {item['step']}" + (f" (line {item['line']})" if item.get("line") else "")


def render_check(result: dict, describe, *, every_step: bool = False) -> str:
    """``describe(final)``: the game's own words for where it stands (``Engine.describe``)."""
    settled = [g for g in result["gaps"] if g["settled"]]
    provisional = [g for g in result["gaps"] if not g["settled"] and g["value"] is not None]
    head = (f"{result['path']}: {result['replayed']:,} of {result['actions']:,} actions "
            f"replayed, {len(result['violations']):,} violation(s), {len(settled):,} gap(s) "
            "settled by house rules")
    if provisional:
        head += f", {len(provisional):,} met with a provisional reading"
    lines = [head]
    if every_step:
        for s in result["steps"]:
            mark = "ok" if s["ok"] else "ILLEGAL"
            lines.append(f"  {_at(s)} '{s['text']}': {mark} [{', '.join(s['rules'])}]")
            lines.extend(f"      {one_line(n)}" for n in s["notes"])
    for v in result["violations"]:
        whose = f" (broken by {v['player']})" if v["late"] else ""
        lines.append(f"  {_at(v)} '{v['text']}'{whose}: {v['rule']}: {v['message']}")
    for g in result["gaps"]:
        if g["value"] is not None:
            lines.append(f"  {_at(g)} gap {g['rule']}: {one_line(g['situation'])}. "
                         f"{one_line(g['ruling'])}")
    for n in result["notes"]:
        lines.append(f"  {_at(n)} note: {one_line(n['note'])}")
    if result["stopped"]:
        st = result["stopped"]
        lines.append(f"  STOPPED at {_at(st)} '{st['text']}': {st['rule']}: "
                     f"{one_line(st['ruling'])}")
    lines.append(f"final: {one_line(describe(result['final']))}")
    return "\n".join(lines)


def render_legal(result: dict, win_rule: str) -> str:
    where = ", ".join(f"{k} {result[k]}" for k in ("turn", "round") if k in result)
    head = f"{result['path']}: after {result['replayed']:,} actions, {where}"
    if result["winner"]:
        return f"{head}: the game is over, {result['winner']} won ({win_rule})"
    if result["stopped"]:
        w = result["stopped"]
        return f"{head}: stopped at step {w['step']}: {w['rule']}: {w['ruling']}"
    acting, active = result["acting"], result["active"]
    who = (", ".join(acting) if acting else active or "nobody") + " to act"
    if active and acting and acting != [active]:
        who += f" (on {active}'s turn)"  # the defending player promotes, say
    phase = f", phase {result['phase']}" if result.get("phase") else ""
    lines = [f"{head}{phase}, {who}:"]
    for a in result["actions"]:
        stop = a["stop"]
        others = [g for g in a["gaps"] if not stop or g != stop["rule"]]
        if stop and stop["gap"]:
            extra = f"  (then gap {stop['rule']}: a judge must rule"
            extra += f"; after it, gap {', '.join(others)})" if others else ")"
        elif stop:  # a stop that is no gap: card text the referee does not model
            extra = f"  (then a judge must rule on the card's text, {stop['rule']})"
        else:
            extra = f"  (gap {', '.join(others)})" if others else ""
        lines.append(f"  {a['text']:<45} {', '.join(a['rules'][:3])}{extra}")
    if result["violations"]:
        lines.append(f"(the log has {result['violations']:,} violation(s); illegal actions were "
                     "not applied)")
    return "\n".join(lines)
