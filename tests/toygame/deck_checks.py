"""toy-duel's deck checks, card-database checks and what a builder respects."""

from deckcli.diagnostics import Diagnostic, error
from toygame import COPY_LIMIT, MIN_DECK


def check_deck(rdeck, ctx) -> list[Diagnostic]:
    out = []
    if rdeck.card_count < MIN_DECK:
        out.append(error("deck-size", "TD-1.2", f"{rdeck.card_count} cards; a deck holds at "
                         f"least {MIN_DECK}", path=rdeck.path))
    for _cid, (card, total) in rdeck.totals().items():
        if total > COPY_LIMIT:
            out.append(error("copy-limit", "TD-1.3", f"{card.ref}: {total} copies, limit "
                             f"{COPY_LIMIT}", path=rdeck.path, card=card.ref))
    return out


def report_extra(rdeck, ctx, problems) -> dict:
    return {}


def cannot_start(kinds, players: int) -> str | None:
    return None if kinds else "the deck is empty"


def deck_size(fmt) -> tuple[int, int | None]:
    return MIN_DECK, None


def copy_limit(card, event_limit=None) -> int | None:
    return COPY_LIMIT if event_limit is None else min(COPY_LIMIT, event_limit)


def check_entry(entry, rule_exists, unread=frozenset()) -> list[tuple[str, str, str]]:
    if entry.kind != "number":
        return [("db-kind", "DB-1.2", f"kind {entry.kind!r} is not a toy-duel kind (number)")]
    if set(entry.stats or {}) != {"value"}:
        return [("db-missing-stat", "DB-2.1", f"{entry.name}: a number card has one "
                 "statistic, value")]
    return []
