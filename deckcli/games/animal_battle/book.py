"""What play asks of a game's cards again and again, worked out once a book (card id ->
:class:`~deckcli.games.base.CardInfo`): which ids are Animals, and for each action card whose
text the engine models (:mod:`.effects`) the tests of its timing and whether it names a
statistic again. A simulation deals thousands of games from one book
(``AnimalBattleEngine.new_game`` keeps it), so they are worked out once a run.
"""

from __future__ import annotations

from deckcli.games.animal_battle import effects


class Facts:
    """``animals``: the Animals' ids; ``playable``: card id -> (timing tests, names a statistic
    again) for the cards whose text acts in play (:func:`effects.playable`), and
    ``playable_ids`` their ids."""

    __slots__ = ("book", "animals", "playable", "playable_ids")

    def __init__(self, book: dict):
        self.book = book
        self.animals = frozenset(cid for cid, c in book.items() if c.animal)
        playable = {}
        for cid, c in book.items():
            if c.kind != "action":
                continue
            overrides = effects.playable(c)
            if overrides:
                playable[cid] = (tuple(effects.timing_test(o) for o in overrides),
                                 any(o["effect"] == "reuse_statistic" for o in overrides))
        self.playable = playable
        self.playable_ids = frozenset(playable)


def facts(book: dict) -> Facts:
    """The :class:`Facts` of ``book``, kept for the books in use."""
    found = _FACTS.get(id(book))
    if found is None or found.book is not book:
        if len(_FACTS) >= 16:  # a book is kept only while it is in use
            _FACTS.clear()
        found = _FACTS[id(book)] = Facts(book)
    return found


_FACTS: dict[int, Facts] = {}
