"""toy-duel's own policy: ``greedy`` leads its highest card and answers with the lowest card
that takes the trick (its lowest card when none does)."""


class Greedy:
    name = "greedy"

    def choose(self, engine, view, actions, rng):
        value = {a: view.book[a[2]].stats["value"] for a in actions}
        if view.led is None:
            return max(actions, key=lambda a: (value[a], a[2]))
        led = view.book[view.led].stats["value"]
        taking = [a for a in actions if value[a] > led]
        return min(taking or actions, key=lambda a: (value[a], a[2]))


def worth(book: dict) -> dict:
    return {cid: float(c.stats.get("value", 0)) for cid, c in book.items()}


POLICIES = {"greedy": Greedy}
