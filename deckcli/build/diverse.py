"""``build --diverse K``: K strong decks that play differently, from a MAP-Elites archive
(Mouret and Clune, 2015) of the best deck found of each style (``Game.deck_style``), each
candidate judged, raced and shown better as a step of :func:`.search.search` is."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from deckcli.build.search import (
    KICK,
    LEVELS,
    Candidate,
    Judge,
    challenge,
    exhausted,
    mutate,
    shown_better,
    strongest,
    worth_of,
)

if TYPE_CHECKING:
    from deckcli.build.collection import Binder

#: moves from an archive's deck that make a diverse build's next candidate (one to three, so
#: a candidate can leave its parent's style)
HOPS = (1, 1, 2, 3)


def diverse(judge: Judge, binder: Binder, rng: random.Random, k: int, *, games: int,
            budget: float | None) -> tuple[list[Candidate], dict]:
    """``k`` strong decks that play differently, best first, and how the search went: a
    MAP-Elites archive (Mouret and Clune, 2015) of the best deck found of each style
    (``Game.deck_style``; for animal-battle, how many action cards and the statistic the
    Animals lean on).

    The archive starts with the strongest cards and ``k - 1`` decks :data:`KICK` moves from
    them. Each step takes the stronger of two of the archive's decks drawn at random, moves
    from it (:func:`mutate`, :data:`HOPS` times) and offers the new deck to its style: an
    empty style takes it; a style held takes it only when it wins the race against the deck
    there and is shown better by the paired interval (:func:`challenge`), as a step of
    :func:`search`.
    At the end the styles' decks play on to the most games the budget allows of
    :data:`LEVELS`, and the ``k`` with the highest :func:`objective` on them are returned
    (with fewer styles than ``k``, the best decks the archive replaced fill the list). The
    first, the deck a build writes, is the strongest cards unless the best of the others is
    shown better than them (as a step of :func:`search`)."""
    worth = worth_of(binder)
    book = {s.info.id: s.info for s in binder.stock}
    started = time.monotonic()
    judge.stage("searching", max(games, k * LEVELS[0] * len(judge.opponents)))
    archive: dict[tuple, Candidate] = {}
    spare: list[Candidate] = []  # decks an archive's style held or gave up
    stats: dict = {"steps": 0, "raced": 0, "ahead": 0, "improved": 0, "restarts": 0,
                   "styles": 0}

    def offer(cand: Candidate) -> None:
        style = judge.game.deck_style(cand.cards(binder), book)
        held = archive.get(style)
        if held is None:
            judge.rate(cand, LEVELS[0])
            archive[style] = cand
            return
        if challenge(judge, cand, held, games, stats):
            archive[style] = cand
            spare.append(held)
            stats["improved"] += 1
        else:
            spare.append(cand)

    first = strongest(binder)
    seen = {first.key}
    offer(first)
    for _ in range(k - 1):  # k decks to choose from, even past a small budget
        start = first
        for _ in range(KICK):
            start = mutate(binder, start, rng, worth)
        if start.key not in seen:
            seen.add(start.key)
            offer(start)
    per_step = LEVELS[0] * len(judge.opponents)
    while judge.games + per_step <= games and (budget is None or
                                               time.monotonic() - started < budget):
        stats["steps"] += 1
        # the parent: the stronger of two of the archive's decks drawn at random
        cand = max((archive[style] for style in rng.sample(sorted(archive), min(2, len(archive)))),
                   key=lambda c: (judge.rate(c, LEVELS[0]), c.key))
        for _ in range(rng.choice(HOPS)):
            cand = mutate(binder, cand, rng, worth)
        if cand.key in seen:
            if exhausted(stats, seen):
                break
            continue
        seen.add(cand.key)
        offer(cand)
    # the styles' decks (then the spares) side by side on as many games as the budget allows
    ranked = sorted(archive.values(), key=lambda c: (-judge.rate(c, LEVELS[0]), c.key))
    ranked += sorted(spare, key=lambda c: (-judge.rate(c, LEVELS[0]), c.key))
    picked: list[Candidate] = []
    for cand in ranked:
        if all(cand.key != c.key for c in picked):
            picked.append(cand)
    picked = picked[:k]
    level = LEVELS[0]
    for n in LEVELS[1:]:
        more = sum(max(0, n - len(judge.results.get((c.key, i), ())))
                   for c in picked for i in range(len(judge.opponents)))
        if judge.games + more <= games:
            level = n
    styles = len(archive)
    picked.sort(key=lambda c: (-judge.rate(c, level), c.key))
    lead = picked[0]
    if lead.key != first.key and not shown_better(judge, lead, first, games):
        lead = first
    picked = [lead, *(c for c in picked if c.key != lead.key)][:k]
    stats.update(games=judge.games, start=first, path=[first, picked[0]], styles=styles,
                 level=level)
    return picked, stats
