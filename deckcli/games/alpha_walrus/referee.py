"""The alpha-walrus referee for recorded games: ``deckcli referee check|legal GAMELOG``.

Game-log format (YAML or JSON)::

    game: alpha-walrus
    seed: 7                     # deals the deck and rolls every die / shuffle the log leaves open
    players: [alice, bob]       # seat order (a number N means p1..pN; default 2)
    deck: ../good/alpha-walrus-2p.yaml    # dealt as `deckcli setup` deals it (relative path)
    # ... or, instead of deck, an explicit table (handy for a position in mid-game):
    setup:
      hands: {alice: [Krill, ...], bob: [...]}
      deck: [...]               # top card first
      field: {alice: [{creature: Orca, equipment: [Blubber Vest]}]}   # optional
      gear: {alice: [Alpha Walrus Tusks]}                              # optional
      discard: [...]            # optional
      round: 3                  # optional, default 1
    house_rules: {battle_winner: majority}     # optional; --house-rule/--event override
    actions:                    # one per entry: {player, do, ...} (see engine / engine_battle)
      - {player: alice, do: draw}
      - {player: alice, do: summon, card: Krill}

Cards are named as ``Name (SET) NUM``, ``SET NUM`` or a name that fits one card.
A log that cannot be read (unknown player, action or card; a deck that cannot be dealt) is an
error of the command (exit 2); an illegal action is a violation (exit 1).
"""

from __future__ import annotations

import copy

from deckcli.games.alpha_walrus.engine import ACTIONS, Game
from deckcli.games.alpha_walrus.gaps import HouseRules
from deckcli.games.alpha_walrus.state import HAND_MAX, initial_state

MAX_ACTIONS = 10_000


def _line(log, i):
    from deckcli.yamlio import line_of

    return line_of(log.get("actions"), i)


def start(log: dict, path: str | None, house_rules: dict | None, cards=None) -> Game:
    from deckcli.errors import DeckcliError
    from deckcli.games.alpha_walrus.cardref import default_cards

    if log.get("game", "alpha-walrus") != "alpha-walrus":
        raise DeckcliError(f"this log is for {log.get('game')!r}, not alpha-walrus", path=path)
    raw = log.get("house_rules") or {}
    if not isinstance(raw, dict):
        raise DeckcliError("'house_rules' maps house-rule keys to values", path=path)
    given = dict(raw)
    given.update(house_rules or {})
    house = HouseRules(given)
    cards = cards or default_cards()
    try:
        state = initial_state(log, path, cards)
    except DeckcliError as exc:
        exc.path = exc.path or path
        raise
    return Game(state, cards, house)


def replay(log: dict, path: str | None, house_rules: dict | None, cards=None):
    from deckcli.errors import DeckcliError

    game = start(log, path, house_rules, cards)
    actions = log.get("actions") or []
    if len(actions) > MAX_ACTIONS:
        raise DeckcliError(f"a log holds at most {MAX_ACTIONS} actions", path=path)
    steps = []
    for i, action in enumerate(actions):
        try:
            steps.append(game.apply(action, i + 1))
        except DeckcliError as exc:
            raise DeckcliError(exc.message, path=path, line=_line(log, i)) from None
    return game, steps


def check_log(log: dict, path: str | None, house_rules: dict | None, *, cards=None,
              index=None) -> dict:
    cards = cards or _cards_from(index)
    game, steps = replay(log, path, house_rules, cards)
    violations, gaps, notes = [], [], []
    for i, s in enumerate(steps):
        line = _line(log, i)
        for v in s["violations"]:
            violations.append({"step": s["step"], "action": s["action"], "player": s["player"],
                               "rule": v["rule"], "message": v["message"], "line": line})
        for g in s["gaps"]:
            gaps.append({"step": s["step"], "rule": g["rule"], "key": g["key"],
                         "situation": g["situation"], "ruling": g["ruling"],
                         "settled": g["settled"]})
        notes += [{"step": s["step"], "note": n} for n in s["notes"]]
    return {"game": "alpha-walrus", "path": path, "seed": log.get("seed", 0),
            "players": list(game.state.order), "house_rules": game.house.to_json(),
            "steps": steps, "violations": violations, "gaps": gaps, "notes": notes,
            "legal": not violations, "final": game.state.to_json()}


def render_check(result: dict) -> str:
    out = [f"{result['path']}: alpha-walrus, {len(result['players'])} players "
           f"({', '.join(result['players'])}), seed {result['seed']}"]
    for s in result["steps"]:
        mark = "ok" if s["ok"] else "ILLEGAL"
        what = s["action"]
        out.append(f"  step {s['step']:>3} {s['player']} {what}: {mark} "
                   f"[{', '.join(s['rules'])}]")
        for e in s["events"]:
            out.append(f"           {e}")
        for v in s["violations"]:
            out.append(f"           violation {v['rule']}: {v['message']}")
        for g in s["gaps"]:
            out.append(f"           gap {g['rule']}: {g['situation']}; {g['ruling']}")
    f = result["final"]
    out.append("")
    out.append(f"final: round {f['round']}, turn {f['turn'] or '-'}"
               f"{', winner ' + f['winner'] if f['winner'] else ''}; deck {f['deck']}, "
               f"discard {f['discard']}")
    for name, p in f["players"].items():
        field = ", ".join(c["card"] + (f" + {len(c['equipment'])} eq" if c["equipment"] else "")
                          for c in p["field"]) or "-"
        out.append(f"  {name}{' (out)' if p['out'] else ''}: hand {p['hand']}, field {field}, "
                   f"gear {len(p['gear'])}")
    n_v, n_g = len(result["violations"]), len(result["gaps"])
    out.append(f"{n_v} violation(s), {n_g} gap(s)"
               + ("" if n_v else "; every action is legal"))
    return "\n".join(out)


# --------------------------------------------------------------------------- legal actions
def candidates(game: Game) -> list[dict]:
    """Concrete next actions worth trying at this point of the game (not yet filtered)."""
    st = game.state
    if st.winner is not None:
        return []
    t = st.turn
    if t is None:
        return [{"player": p, "do": "draw"} for p in st.live()]
    me = t.player
    p = st.players[me]
    out: list[dict] = []
    seen = set()
    distinct = []
    for c in p.hand:
        if c.id not in seen:
            seen.add(c.id)
            distinct.append(c)
    opponents = [o for o in st.live() if o != me]
    for c in distinct:
        ref = c.ref
        if c.kind == "creature":
            out.append({"player": me, "do": "summon", "card": ref})
            for k in range(len(p.field)):
                out.append({"player": me, "do": "summon", "card": ref, "discard": k + 1})
        elif c.kind == "equipment":
            out += [{"player": me, "do": "equip", "card": ref, "to": k + 1}
                    for k in range(len(p.field))]
        elif c.kind == "gear":
            out.append({"player": me, "do": "place-gear", "card": ref})
        elif c.kind in ("action", "diplomacy") and not c.effect("cancel"):
            if c.effect("protect_from_battle"):
                out += [{"player": me, "do": "play", "card": ref, "target": o} for o in opponents]
            else:
                out.append({"player": me, "do": "play", "card": ref})
        out.append({"player": me, "do": "discard-draw", "card": ref})
        if len(p.hand) > HAND_MAX:
            out.append({"player": me, "do": "discard", "cards": [ref]})
    for o in opponents:
        d = st.players[o]
        match = {k + 1: k + 1 for k in range(min(len(p.field), len(d.field)))}
        for stake in ("gear", "hand"):
            out.append({"player": me, "do": "battle", "target": o, "stake": stake,
                        "match": match})
    out.append({"player": me, "do": "summon-alpha"})
    out += [{"player": me, "do": "recover"}, {"player": me, "do": "end"}]
    return out


def legal_moves(game: Game) -> list[dict]:
    """The candidates that the referee accepts without a violation (state left unchanged)."""
    out = []
    for action in candidates(game):
        trial = Game(copy.deepcopy(game.state), game.cards, game.house)
        rec = trial.apply(copy.deepcopy(action), 0)
        if rec["ok"] and not any(g["key"] == "turn_order" for g in rec["gaps"]):
            out.append({**action, "rules": rec["rules"]})
    return out


def legal_actions(log: dict, path: str | None, house_rules: dict | None, *, cards=None,
                  index=None) -> dict:
    cards = cards or _cards_from(index)
    game, steps = replay(log, path, house_rules, cards)
    st = game.state
    moves = legal_moves(game)
    if st.turn is None:
        who = [m["player"] for m in moves]
        player = who[0] if len(set(who)) == 1 else None
    else:
        player = st.turn.player
    return {"game": "alpha-walrus", "path": path, "after_step": len(steps),
            "violations": sum(len(s["violations"]) for s in steps),
            "round": st.round, "player": player,
            "phase": st.turn.phase if st.turn else None, "winner": st.winner,
            "actions": moves, "final": st.to_json()}


def render_legal(result: dict) -> str:
    head = (f"{result['path']}: after step {result['after_step']}, round {result['round']}, "
            f"{result['player'] or 'next player'}"
            + (f" in the {result['phase'].title()} Phase" if result["phase"] else ""))
    if result["winner"]:
        return head + f"\nthe game is over: {result['winner']} won (AW-9.1)"
    lines = [head, f"{len(result['actions'])} legal action(s):"]
    for a in result["actions"]:
        extra = " ".join(f"{k}={v}" for k, v in a.items() if k not in ("player", "do", "rules"))
        lines.append(f"  {a['player']} {a['do']} {extra}".rstrip()
                     + f"  [{', '.join(a['rules'])}]")
    if result["violations"]:
        lines.append(f"(the log has {result['violations']} violation(s); illegal actions were "
                     "not applied)")
    return "\n".join(lines)


__all__ = ["ACTIONS", "check_log", "legal_actions", "render_check", "render_legal"]


def _cards_from(index):
    """Card look-ups on a given index (``--db`` folders), or None for the built-in database."""
    if index is None:
        return None
    from deckcli.games.alpha_walrus.cardref import Cards

    return Cards(index)
