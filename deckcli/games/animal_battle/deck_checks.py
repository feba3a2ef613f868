"""animal-battle deck construction (AB-1.3 to AB-1.6) and setup checks (AB-3.1, AB-3.3).

Each check names its rule. Card text that changes a rule (a deck-limit exception, AB-6.4) is
read from the card's ``overrides`` data, never special-cased here.
"""

from __future__ import annotations

from deckcli.decks.checks import breakdown, chance_at_least_one
from deckcli.diagnostics import Diagnostic, error, warning
from deckcli.games.animal_battle import COPY_LIMIT, OPENING_HAND, SIZES

OPENING_WARN_BELOW = 0.90


def size_fits(fmt: str, count: int) -> bool:
    low, high, _ = SIZES[fmt]
    return count >= low and (high is None or count <= high)


def size_problem(fmt: str, count: int, path) -> Diagnostic | None:
    low, high, rule = SIZES[fmt]
    if not size_fits(fmt, count):
        want = f"exactly {low}" if high == low else f"at least {low}"
        return error("deck-size", rule,
                     f"{fmt} decks hold {want} cards; this deck has {count:,}", path=path)
    return None


def card_limit(card) -> tuple[int | None, str]:
    """A card's own copy limit and the rule that sets it: its text (AB-6.4) beats AB-1.5."""
    limit, rule = COPY_LIMIT, "AB-1.5"
    for o in card.overrides("copy_limit"):
        limit, rule = o.get("value"), "AB-6.4"
    return limit, rule


def with_event_limit(own: tuple[int | None, str], event_limit: int) -> tuple[int | None, str]:
    """A card's copy limit and its rule (``own``: :func:`card_limit`) under an event that
    limits the card: the event's limit (EV-1.3) when it is the tighter one."""
    limit, _rule = own
    if limit is None or event_limit < limit:
        return event_limit, "EV-1.3"
    return own


def copy_limit(card, event_limit: int | None = None) -> int | None:
    """The copies of ``card`` a deck may hold (None: any): :func:`card_limit`, tightened by
    an event's limit (:func:`with_event_limit`)."""
    own = card_limit(card)
    if event_limit is not None:
        own = with_event_limit(own, event_limit)
    return own[0]


def deck_size(fmt: str | None) -> tuple[int, int | None]:
    """(fewest, most or None) cards of a legal deck of ``fmt`` (AB-1.3, AB-1.4)."""
    low, high, _rule = SIZES[fmt or "casual"]
    return low, high


def cannot_start(kinds, players: int) -> str | None:
    """Why no game can start from a player's deck: it holds no Animal to reveal as the
    starting Challenger (AB-3.3); None when one can."""
    if "animal" not in kinds:
        return "the deck has no Animal to reveal as the starting Challenger (AB-3.3)"
    return None


def check_deck(rdeck, ctx) -> list[Diagnostic]:
    path = rdeck.path
    out: list[Diagnostic] = []
    count = rdeck.card_count
    problem = size_problem(rdeck.format, count, path)
    if problem:
        out.append(problem)

    limited = ctx.limited if ctx is not None else {}
    # card id -> (whether it is an Animal, *card_limit(card)): the same for every deck
    # checked against this index
    index = getattr(ctx, "index", None)
    own = index.memo.setdefault("ab-card-facts", {}) if index is not None else {}
    animals = 0
    totals = rdeck.totals()
    for card_id, (card, total) in totals.items():  # every version together (AB-1.6)
        facts = own.get(card_id)
        if facts is None:
            facts = own[card_id] = (card.kind == "animal", *card_limit(card))
        animal, limit, rule = facts
        if animal:
            animals += total
        if card_id in limited:
            limit, rule = with_event_limit((limit, rule), limited[card_id])
        if limit is not None and total > limit:
            why = ""
            if rule == "AB-6.4":
                why = " (its own text sets this limit)"
            elif rule == "EV-1.3":
                why = " (the event limits this card)"
            group = rdeck.listing(card_id)
            first = min((r.entry.line for r in group if r.entry.line), default=None)
            out.append(error("copy-limit", rule,
                             f"{card.ref}: {total:,} copies, limit {limit}{why} "
                             f"({breakdown(group)})",
                             path=path, line=first, card=card.ref))

    if animals == 0 and totals:
        out.append(error("no-animal", "AB-3.3",
                         "the deck has no Animal card, so no starting Challenger can ever be "
                         "revealed", path=path))
    elif animals and count:
        p = chance_at_least_one(count, animals, OPENING_HAND)
        if p < OPENING_WARN_BELOW:
            out.append(warning("opening-hand", "AB-3.3",
                               f"only a {p:.1%} chance of at least one Animal in the opening "
                               f"{OPENING_HAND} cards ({animals:,} Animals in {count:,} cards); "
                               f"below {OPENING_WARN_BELOW:.0%} the deck often cannot reveal a "
                               "Challenger", path=path))
    return out


def report_extra(rdeck, ctx, problems) -> dict:
    """Facts for the report: whether the deck would pass each format (size is the only rule
    that depends on the format)."""
    other = False  # an error besides the deck's size: a plain loop, asked for every deck
    for p in problems:
        if p.is_error and p.code != "deck-size":
            other = True
            break
    count = rdeck.card_count
    return {"formats": {fmt: not other and size_fits(fmt, count) for fmt in SIZES}}
