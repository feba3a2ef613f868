"""``deckcli setup`` for alpha-walrus: the seed's setup, step by step, from one seeded generator.

1. AW-1.1: the Alpha Walrus goes to the centre.
2. AW-1.2: the diplomacy cards come out; the pile is shuffled and one card is dealt to each
   player in seat order.
3. AW-1.3: creatures and non-creatures (gear, equipment, battle, action) form two piles, each
   shuffled; each player gets 3 creatures, then 3 non-creatures, one card at a time in seat order.
4. AW-1.4: the undealt diplomacy, creature and non-creature cards are shuffled into one deck.

All shuffles use ``random.Random(seed)`` in that order, so a seed replays the same deal.
Players are named ``p1`` .. ``pN`` in seat order.
"""

from __future__ import annotations

import random

from deckcli.games.alpha_walrus import GAME
from deckcli.games.alpha_walrus.deck_checks import DEAL_EACH, NON_CREATURE_KINDS, players_of


class _Ctx:
    def __init__(self, players, index):
        self.players = players
        self.index = index


def expand(rdeck) -> list:
    """One (ref, kind) per physical card, in decklist order."""
    out = []
    for r in rdeck.entries:
        out.extend([(r.card.ref, r.card.kind)] * r.entry.count)
    return out


def deal(rdeck, *, seed, players=None, opponent=None, index=None) -> dict:
    from deckcli.games.alpha_walrus.deck_checks import check_deck

    n = players_of(_Ctx(players, None))
    result = {"game": GAME.id, "seed": seed, "players": n,
              "players_default": players is None, "deck_path": rdeck.deck.path,
              "centre": None, "hands": [], "deck": {"count": 0, "order": []},
              "steps": [], "problems": [], "warnings": []}
    problems = [p for p in rdeck.problems if p.is_error]
    if index is None:
        try:
            from deckcli.games.alpha_walrus.cardref import default_cards

            index = default_cards().index
        except Exception:  # noqa: BLE001 - without an index the gear check is skipped
            index = None
    checks = check_deck(rdeck, _Ctx(n, index))
    problems += [p for p in checks if p.is_error]
    result["warnings"] = [p.to_json() for p in rdeck.problems + checks if not p.is_error]
    if opponent is not None:
        result["warnings"].append({"code": "one-deck", "severity": "warning",
                                   "rule": "AW-1.4", "line": None, "card": None,
                                   "message": "alpha-walrus uses one shared deck; "
                                              "--opponent is ignored"})
    if problems:
        result["problems"] = [p.to_json() for p in problems]
        return result
    names = [f"p{i + 1}" for i in range(n)]
    centre, hands, deck, spare = deal_items(expand(rdeck), random.Random(seed), names)
    result["centre"] = centre
    result["steps"] = [
        {"rule": "AW-1.1", "text": f"{centre} placed in the centre"},
        {"rule": "AW-1.2", "text": f"{n} diplomacy card(s) dealt, {spare} left over"},
        {"rule": "AW-1.3", "text": f"{DEAL_EACH} creatures and {DEAL_EACH} non-creatures "
                                   "dealt to every player"},
        {"rule": "AW-1.4", "text": f"{len(deck):,} cards shuffled into the deck"}]
    result["hands"] = [{"player": p, "hand": hands[p]} for p in names]
    result["deck"] = {"count": len(deck), "order": deck}
    return result


def deal_items(items: list[tuple], rng: random.Random, names: list[str]) -> tuple:
    """The deal of AW-1.1 to AW-1.4 over ``(card, kind)`` items (a card is whatever the caller
    deals: a reference, a card object): (centre, hands by player, deck top first, diplomacy
    cards left over). Every shuffle comes from ``rng``, in the seed's order."""
    hands: dict[str, list] = {p: [] for p in names}
    centre = next(card for card, kind in items if kind == "alpha-walrus")  # AW-1.1
    diplomacy = [card for card, kind in items if kind == "diplomacy"]  # AW-1.2
    rng.shuffle(diplomacy)
    for p in names:
        hands[p].append(diplomacy.pop(0))
    spare = len(diplomacy)
    creatures = [card for card, kind in items if kind == "creature"]  # AW-1.3
    others = [card for card, kind in items if kind in NON_CREATURE_KINDS]
    rng.shuffle(creatures)
    rng.shuffle(others)
    for pile in (creatures, others):
        for _ in range(DEAL_EACH):
            for p in names:
                hands[p].append(pile.pop(0))
    deck = diplomacy + creatures + others  # AW-1.4
    rng.shuffle(deck)
    return centre, hands, deck, spare


def render(result: dict) -> str:
    lines = [f"alpha-walrus setup, seed {result['seed']}, {result['players']} players"
             + (" (default)" if result.get("players_default") else "")]
    if result["problems"]:
        lines.append("the deck cannot be set up:")
        for p in result["problems"]:
            where = f"line {p['line']}: " if p.get("line") else ""
            lines.append(f"  {where}{p['message']} [{p['code']}, rule {p['rule']}]")
        return "\n".join(lines)
    for step in result["steps"]:
        lines.append(f"  [{step['rule']}] {step['text']}")
    lines.append(f"centre: {result['centre']}")
    for h in result["hands"]:
        lines.append(f"{h['player']} ({len(h['hand'])} cards):")
        lines.extend(f"  {ref}" for ref in h["hand"])
    lines.append(f"deck: {result['deck']['count']:,} cards, top first:")
    lines.extend(f"  {i + 1:>3}. {ref}" for i, ref in enumerate(result["deck"]["order"]))
    for w in result.get("warnings", ()):
        lines.append(f"warning: {w['message']} [rule {w['rule']}]")
    return "\n".join(lines)
