"""What play asks of a game's cards again and again, worked out once a book (card id ->
:class:`~deckcli.games.base.CardInfo`): which ids are Animals, and for each action card whose
text the engine models (:mod:`.effects`, :mod:`.cardtext`) the tests of its timing and whether
it names a statistic again. A simulation deals thousands of games from one book
(``AnimalBattleEngine.new_game`` keeps it), so they are worked out once a run.
"""

from __future__ import annotations

from deckcli.games.animal_battle import cardtext, effects


class Facts:
    """``animals``: the Animals' ids; ``playable``: card id -> (timing tests, names a statistic
    again) for the cards whose text acts in play (:func:`effects.playable`,
    :func:`cardtext.on_play`), ``playable_ids`` their ids, and ``play_phases`` the phases of a
    turn in which one of them may be played (:func:`effects.timing_phases`,
    :func:`cardtext.timing`)."""

    __slots__ = ("book", "animals", "playable", "playable_ids", "play_phases")

    def __init__(self, book: dict):
        self.book = book
        self.animals = frozenset(cid for cid, c in book.items() if c.animal)
        playable: dict = {}
        phases: set[str] = set()
        for cid, c in book.items():
            if c.kind != "action":
                continue
            overrides = effects.playable(c)
            tests = [effects.timing_test(o) for o in overrides]
            when = [effects.timing_phases(o) for o in overrides]
            if cardtext.on_play(c):
                test, can = cardtext.timing(c)
                tests.append(test)
                when.append(can)
            if tests:
                playable[cid] = (tuple(tests),
                                 any(o["effect"] == "reuse_statistic" for o in overrides))
                phases |= frozenset.intersection(*when)
        self.playable = playable
        self.playable_ids = frozenset(playable)
        self.play_phases = frozenset(phases)


def kept(cache: dict, book: dict, make):
    """``make(book)``, worked out once a book and kept in ``cache`` while the book is in use
    (at most 16 books: a cache keyed by a book's id would otherwise keep every game's book
    alive). What ``make`` returns holds the book as ``.book``, so a new book that happens to
    get an old one's id is never given the old one's answers."""
    found = cache.get(id(book))
    if found is None or found.book is not book:
        if len(cache) >= 16:
            cache.clear()
        found = cache[id(book)] = make(book)
    return found


def facts(book: dict) -> Facts:
    """The :class:`Facts` of ``book``, kept for the books in use."""
    return kept(_FACTS, book, Facts)


_FACTS: dict[int, Facts] = {}
