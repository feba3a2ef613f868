"""``deckcli setup`` for animal-battle: the setup of section 3, dealt from a seeded shuffle.

Shuffle each deck and draw six (AB-3.1), choose the first player fairly (AB-3.2: the seeded
generator), show which Animals could be revealed as the starting Challenger (AB-3.3) and
Defender (AB-3.4), and the Pools as filled (AB-3.5). The deal is the referee engine's own, so a
game log with the same decks and seed starts from exactly this position.
"""

from __future__ import annotations

from typing import Any

from deckcli.games.animal_battle import GAME, POOL_SIZE
from deckcli.games.animal_battle.engine import Match
from deckcli.games.base import CardInfo


def _problem(player: str, d) -> dict:
    return {"player": player, "code": d.code, "rule": d.rule, "message": d.message,
            "path": d.path, "line": d.line}


def deal(rdeck, *, seed: int, players: int | None = None, opponent=None, index=None) -> dict:
    """Deal DECK against OPPONENT (default: a copy of DECK); more players get copies of DECK."""
    from deckcli.games.animal_battle.deck_checks import check_deck

    count = players or 2
    sources = {f"p{i + 1}": rdeck for i in range(count)}
    if opponent is not None:
        sources["p2"] = opponent
    problems: list[dict] = []
    checked = {}
    book: dict[int, CardInfo] = {}
    decks: dict[str, list[int]] = {}
    for pid, rd in sources.items():
        if id(rd) not in checked:
            found = [*rd.problems, *(d for d in check_deck(rd, None) if d.is_error)]
            checked[id(rd)] = found
            problems.extend(_problem(pid, d) for d in found if d.is_error)
        cards = []
        for r in rd.entries:
            book.setdefault(r.card.id, CardInfo.of(r.card))
            cards.extend([r.card.id] * r.entry.count)
        decks[pid] = cards
    game = Match(book, decks, seed=seed)
    s = game.s

    def ref(c):
        return book[c].ref
    animals = {pid: [c for c in p.hand if book[c].animal] for pid, p in s.players.items()}
    hands = {pid: [ref(c) for c in p.hand] for pid, p in s.players.items()}
    first = s.first
    result: dict[str, Any]
    result = {"game": GAME.id, "seed": seed, "players": count, "first": first,
              "decks": {pid: {"path": rd.deck.path, "cards": len(decks[pid]),
                              "left": len(s.players[pid].deck)} for pid, rd in sources.items()},
              "hands": hands, "rules": ["AB-3.1", "AB-3.2"], "problems": problems}
    revealed: dict[str, int] = {}
    chall = animals[first]
    result["challenger"] = {"player": first, "rule": "AB-3.3", "candidates":
                            [ref(c) for c in dict.fromkeys(chall)],
                            "revealed": ref(chall[0]) if chall else None}
    if chall:
        revealed[first] = chall[0]
    else:
        problems.append({"player": first, "code": "no-challenger", "rule": "AB-3.3",
                         "message": f"{first}'s opening hand holds no Animal, so no starting "
                                    f"Challenger can be revealed; {first} loses (AB-1.1)",
                         "path": sources[first].deck.path, "line": None})
    opponents = [p for p in s.order if p != first]
    if len(opponents) == 1:
        dp = opponents[0]
        cands = animals[dp]
        result["defender"] = {"player": dp, "rule": "AB-3.4", "gap": None,
                              "candidates": [ref(c) for c in dict.fromkeys(cands)],
                              "revealed": ref(cands[0]) if cands else None}
        if cands:
            revealed[dp] = cands[0]
        else:
            loses = f"; {dp} loses (AB-1.1)" if chall else ""
            problems.append({"player": dp, "code": "no-defender", "rule": "AB-3.4",
                             "message": f"{dp}'s opening hand holds no Animal, so no starting "
                                        f"Defender can be revealed (AB-3.4){loses}",
                             "path": sources[dp].deck.path, "line": None})
    else:
        result["defender"] = {
            "player": None, "rule": "AB-3.4", "revealed": None,
            "gap": "AB-G.5: which opponent defends with more than two players is a house rule "
                   "(defender_player=next|attacker_choice)",
            "candidates": {p: [ref(c) for c in dict.fromkeys(animals[p])] for p in opponents}}
    pools = {}
    for pid in s.order:
        rest = list(animals[pid])
        if pid in revealed:
            rest.remove(revealed[pid])
        pools[pid] = [ref(c) for c in rest[:POOL_SIZE]]
    result["pools"] = pools
    result["rules"] += ["AB-3.3", "AB-3.4", "AB-3.5", "AB-3.6"]
    return result


def render(result: dict) -> str:
    lines = [(f"animal-battle setup, seed {result['seed']} (replay with --seed "
              f"{result['seed']}); {result['players']} players"),
             (f"first player: {result['first']} (chosen by the seeded shuffle, AB-3.2); "
              "skips the first draw but attacks (AB-3.6)")]
    for pid, hand in result["hands"].items():
        deck = result["decks"][pid]
        lines.append(f"{pid} ({deck['path'] or 'deck'}, {deck['cards']:,} cards): opening hand "
                     f"(AB-3.1): {', '.join(hand) or '-'}")
    c = result["challenger"]
    lines.append(f"starting Challenger ({c['player']}, the first player: AB-3.3, AB-3.6): "
                 "could reveal "
                 f"{', '.join(c['candidates']) or 'nothing'}"
                 + (f"; revealed here: {c['revealed']}" if c["revealed"] else ""))
    d = result["defender"]
    if d["player"]:
        lines.append(f"starting Defender ({d['player']}, AB-3.4): could reveal "
                     f"{', '.join(d['candidates']) or 'nothing'}"
                     + (f"; revealed here: {d['revealed']}" if d["revealed"] else ""))
    else:
        lines.append(f"starting Defender: {d['gap']}")
        for pid, cands in d["candidates"].items():
            lines.append(f"  {pid} could reveal {', '.join(cands) or 'nothing'}")
    for pid, pool in result["pools"].items():
        lines.append(f"{pid}'s Pool as filled (AB-3.5, up to {POOL_SIZE}): "
                     f"{', '.join(pool) or '(empty)'}")
    for p in result["problems"]:
        where = f"{p['path']}:{p['line']}: " if p.get("path") and p.get("line") else ""
        lines.append(f"problem ({p['player']}): {where}{p['rule']}: {p['message']}")
    return "\n".join(lines)
