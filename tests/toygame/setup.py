"""``deckcli setup`` for toy-duel: each deck shuffled, three cards drawn."""

from toygame import GAME
from toygame.engine import deal as deal_game


def deal(rdeck, *, seed, players=None, opponent=None, index=None) -> dict:
    other = opponent or rdeck
    book, decks = {}, {}
    for pid, rd in (("p1", rdeck), ("p2", other)):
        cards = []
        for r in rd.entries:
            book.setdefault(r.card.id, GAME.play_card(r.card))
            cards.extend([r.card.id] * r.entry.count)
        decks[pid] = cards
    duel = deal_game(book, decks, ["p1", "p2"], "p1", seed, GAME.house_rules({}))
    return {"game": GAME.id, "seed": seed, "players": 2, "first": "p1", "rules": ["TD-2.1"],
            "hands": {p: [book[c].ref for c in h] for p, h in duel.hands.items()},
            "problems": []}


def render(result: dict) -> str:
    lines = [f"toy-duel setup, seed {result['seed']} (TD-2.1):"]
    lines += [f"  {p}: {', '.join(h)}" for p, h in result["hands"].items()]
    return "\n".join(lines)
