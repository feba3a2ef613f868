"""What an event adds to a deck check: bans (EV-1.1, EV-1.2) and legal sets (EV-2.1).

Limits (EV-1.3) are applied by the game's own copy-limit check, which takes the event's
per-card maximum as the tighter limit.
"""

from __future__ import annotations

from deckcli.diagnostics import Diagnostic, error, visible_name


def check_event_rules(rdeck, event, index) -> list[Diagnostic]:
    path = rdeck.path
    out: list[Diagnostic] = []
    totals = rdeck.totals()
    name = visible_name(event.name) or "this event"  # a name is one line in every report
    for card_id, ban in event.banned_ids().items():
        if card_id not in totals:
            continue
        since = f" since {ban.effective.isoformat()}" if ban.effective else ""
        for r in rdeck.listing(card_id):  # every entry of it: each line gets its error
            out.append(error("banned", "EV-1.1",
                             f"{r.card.ref} is banned at {name}{since} "
                             f"(every version of it; listed here as {r.entry.describe()})",
                             path=path, line=r.entry.line, card=r.card.ref))
    if event.sets is None:
        return out
    faults = _set_faults(rdeck, event.legal_sets(), index)
    if any(faults):  # most decks are all in legal sets, and then no entry is built here
        for r, fault in zip(rdeck.entries, faults):
            if fault is not None:
                out.append(error("set-not-legal", "EV-2.1", fault, path=path,
                                 line=r.entry.line, card=r.card.ref))
    return out


def _set_faults(rdeck, legal_sets: frozenset[str], index) -> list[str | None]:
    """For each resolved entry, in deck order: why its set is not legal (EV-2.1), or None.

    The answer depends only on the card and what the entry says of its printing (printing,
    set, tags) and the legal sets, so it is remembered on the index for the rest of the run:
    a batch asks it for every line."""
    memo = index.memo.setdefault(("event-sets", legal_sets), {})  # what is printed -> fault
    out = []
    for card, printing, set_code, tags, whole in rdeck.printed():
        key = (card.id, printing.id) if printing is not None else (
            card.id, None, set_code, tags, whole)
        fault = memo.get(key, False)
        if fault is False:
            fault = memo[key] = _set_fault(card, printing, set_code, tags, whole, legal_sets,
                                           index)
        out.append(fault)
    return out


def _set_fault(card, printing, set_code, tags, whole, legal_sets: frozenset[str], index
               ) -> str | None:
    """Why an entry is not legal under the legal sets, or None. An entry naming no printing
    stands for any printing of the card in its set (if it names one) and its variant tags:
    it is legal when one of those is in a legal set."""
    from deckcli.decks.resolve import printings_fitting, whole_is_name

    shown = ", ".join(sorted(legal_sets)) or "none the card database knows"
    if printing is not None:
        if printing.set_code in legal_sets:
            return None
        return (f"{card.name} {printing.ref}: set {printing.set_code} is not legal at this "
                f"event (legal sets: {shown})")
    if set_code is not None and whole_is_name(index, card.game, whole):
        set_code = None  # the "set code" was part of the card's name
    if any(p.set_code in legal_sets for p in printings_fitting(index, card, tags, set_code)):
        return None
    if set_code is not None:
        return (f"{card.name} ({set_code}): set {set_code} is not legal at this event "
                f"(legal sets: {shown})")
    if tags:
        return (f"{card.ref} [{', '.join(tags)}]: no printing in a legal set is "
                f"{' and '.join(tags)} (legal sets: {shown})")
    return f"{card.ref} has no printing in a legal set ({shown})"
