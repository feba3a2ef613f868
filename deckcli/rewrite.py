"""Is the rewritten deck still the same deck? The check every rewrite (``fmt``, ``add``,
``remove``, the deck editor's save) runs before it writes: the new text, parsed again, must
hold the same cards (card identity, printing, variant tags, counted: :mod:`deckcli.decks.same`)
and get the same verdict from ``validate``. It sits above :mod:`deckcli.validate`, whose
verdict it compares; the write itself is :mod:`deckcli.files.write`'s.
"""

from __future__ import annotations

from deckcli.decks.same import deck_cards


def verdict(deck, index, game: str | None, event=None) -> tuple[bool, tuple[str, ...]]:
    """What ``validate`` (with ``--event``, when given) says about a deck: legal or not, and
    which error codes."""
    from deckcli.validate import Options, validate_deck

    report = validate_deck(deck, index, Options(game=game, event=event))
    return report.legal, tuple(sorted({p.code for p in report.problems if p.is_error}))


def same_deck(old_deck, new_deck, index, game: str | None, event=None) -> bool:
    """Same cards (identity, printing, variants, counts), same header, same validate verdict
    (at ``event``, when given)."""
    from deckcli.validate import Options, pick_game

    if old_deck.header != new_deck.header:
        return False
    resolved_game, problems = pick_game(old_deck, Options(game=game))
    if not any(p.is_error for p in problems) and deck_cards(old_deck, index, resolved_game) != \
            deck_cards(new_deck, index, resolved_game):
        return False
    return verdict(old_deck, index, game, event) == verdict(new_deck, index, game, event)
