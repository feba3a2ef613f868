"""What a builder of an alpha-walrus shared deck must respect: the deck a table of players
can be dealt from (:class:`Table`), over a collection (``deckcli.build``'s binder).

The generic builder (``deckcli/build/shared.py``) asks ``Game.shared_table(binder, players,
index)`` for one and searches only the decks it ``fits``.
"""

from __future__ import annotations

import random

from deckcli.games.alpha_walrus import GAME
from deckcli.games.alpha_walrus.deck_checks import census_of, draw_pile, needs

FIXED = ("alpha-walrus", "gear")  # exactly one of each (AW-1.1, AW-8.1): never searched


class Table:
    """What a shared deck must hold for ``players`` (the setup numbers of
    :mod:`.deck_checks`), and the collection it comes from."""

    def __init__(self, binder, players: int, index):
        self.binder, self.players = binder, players
        self.need = needs(players)
        self.gear = sorted({c.ref for c in index.all_cards(GAME.id) if c.kind == "gear"})

    @staticmethod
    def fixed(kind: str) -> bool:
        """Cards of this kind are never searched: exactly one of each (AW-1.1, AW-8.1)."""
        return kind in FIXED

    def census(self, counts: dict[int, int]) -> dict[str, int]:
        return census_of((self.binder.stock[i].card, n) for i, n in counts.items())

    def left_to_draw(self, got: dict[str, int]) -> int:
        return draw_pile(got, self.players)

    def missing(self) -> str | None:
        """Why no deck from this collection sets up for the table, in numbers; None if one can.
        The largest deck it makes (:meth:`first_deck`) is the one to judge by."""
        counts = self.first_deck()
        got = self.census(counts)
        held = {self.binder.stock[i].card.ref for i in counts}
        n = self.players
        why = []
        if not got["alpha-walrus"]:
            why.append("no Alpha Walrus card (setup needs exactly 1, AW-1.1)")
        lacking = [g for g in self.gear if g not in held]
        if lacking:
            why.append(f"{4 - len(lacking)} of the 4 Alpha Walrus gear pieces (missing: "
                       f"{', '.join(lacking)}; AW-8.1)")
        for kind, rule in (("diplomacy", "AW-1.2"), ("creature", "AW-1.3"),
                           ("non-creature", "AW-1.3")):
            if got[kind] < self.need[kind]:
                why.append(f"{got[kind]} {kind} card(s); {n} players need "
                           f"{self.need[kind]} ({rule})")
        if not why and self.left_to_draw(got) < self.need["draw-pile"]:
            why.append(f"{sum(counts.values())} usable cards; after the deal {n} players need "
                       f"{self.need['draw-pile']} left to draw (AW-1.6, AW-3.2)")
        return "; ".join(why) if why else None

    def fits(self, counts: dict[int, int]) -> bool:
        got = self.census(counts)
        return all(got[g] >= self.need[g] for g in ("diplomacy", "creature", "non-creature")) \
            and self.left_to_draw(got) >= self.need["draw-pile"]

    def first_deck(self) -> dict[int, int]:
        """One Alpha Walrus, each gear piece once, and every other copy the collection owns
        (stock index -> copies)."""
        counts, taken = {}, set()
        for i, s in enumerate(self.binder.stock):
            if self.fixed(s.info.kind):
                if s.card.ref not in taken and s.owned:
                    counts[i] = 1
                    taken.add(s.card.ref)
            else:
                counts[i] = s.owned
        return counts

    def mutate(self, have: dict[int, int], rng: random.Random) -> dict[int, int]:
        """Add, remove or swap one copy (never the Alpha Walrus or a gear piece), keeping the
        setup numbers; the same counts back when no such step is found."""
        free = [i for i, s in enumerate(self.binder.stock) if s.info.kind not in FIXED]
        for _ in range(20):
            counts = dict(have)
            step = rng.choice(("add", "remove", "swap", "swap"))
            held = [i for i in free if counts.get(i, 0) > 0]
            room = [i for i in free if counts.get(i, 0) < self.binder.stock[i].owned]
            if step in ("remove", "swap") and held:
                out = rng.choice(held)
                counts[out] -= 1
                room = [i for i in room if i != out]
            elif step != "add":
                continue
            if step in ("add", "swap"):
                if not room:
                    continue
                pick = rng.choice(room)
                counts[pick] = counts.get(pick, 0) + 1
            if _key(counts) != _key(have) and self.fits(counts):
                return counts
        return have


def _key(counts: dict[int, int]) -> tuple:
    return tuple(sorted((i, n) for i, n in counts.items() if n))


def table(binder, players: int, index) -> Table:
    return Table(binder, players, index)
