"""How an alpha-walrus player chooses, for ``deckcli simulate`` (``random`` is generic).

``greedy``: lay down Alpha Walrus gear, summon the Alpha Walrus as soon as it can be, summon the
highest-level creature in hand, attach equipment (armor to the highest creature), battle an
opponent when the creatures match up in the attacker's favour (the higher total level), discard
down in the Recover Phase keeping the highest creatures, and end the turn when nothing else is
left. Discard-to-draw, diplomacy and other played cards are not used.
"""

from __future__ import annotations


def _level(card) -> int:
    return card.level or 0


class Greedy:
    name = "greedy"

    def choose(self, engine, view, actions, rng):
        by: dict[str, list] = {}
        for a in actions:
            by.setdefault(a["do"], []).append(a)
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
        if "battle" in by:
            best = self._battle(view, by["battle"])
            if best is not None:
                return best
        if "discard" in by:
            return min(by["discard"], key=lambda a: (_level(hand[a["cards"][0]]),
                                                     a["cards"][0]))
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


def make(spec: str):
    return Greedy() if spec == "greedy" else None


NAMES = ("random", "greedy")
