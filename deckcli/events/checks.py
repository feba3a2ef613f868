"""What an event adds to a deck check: bans (EV-1.1, EV-1.2) and legal sets (EV-2.1).

Limits (EV-1.3) are applied by the game's own copy-limit check, which takes the event's
per-card maximum as the tighter limit.
"""

from __future__ import annotations

from deckcli.diagnostics import Diagnostic, error


def check_event_rules(rdeck, event, index) -> list[Diagnostic]:
    path = rdeck.path
    out: list[Diagnostic] = []
    totals = rdeck.totals()
    bans = {b.card_id: b for b in event.active_bans() if b.card_id is not None}
    for card_id, ban in bans.items():
        if card_id not in totals:
            continue
        since = f" since {ban.effective.isoformat()}" if ban.effective else ""
        for r in rdeck.listing(card_id):  # every entry of it: each line gets its error
            out.append(error("banned", "EV-1.1",
                             f"{r.card.ref} is banned at {event.name or 'this event'}{since} "
                             f"(every version of it; listed here as {r.entry.describe()})",
                             path=path, line=r.entry.line, card=r.card.ref))
    if event.sets is None:
        return out
    legal_sets = set(event.sets)
    for r in rdeck.entries:
        if r.printing is not None:
            if r.printing.set_code not in legal_sets:
                out.append(error(
                    "set-not-legal", "EV-2.1",
                    f"{r.card.name} {r.printing.ref}: set {r.printing.set_code} is not legal "
                    f"at this event (legal sets: {', '.join(sorted(legal_sets))})",
                    path=path, line=r.entry.line, card=r.card.ref))
        elif not any(p.set_code in legal_sets for p in index.printings_of(r.card.id)):
            out.append(error(
                "set-not-legal", "EV-2.1",
                f"{r.card.ref} has no printing in a legal set "
                f"({', '.join(sorted(legal_sets))})",
                path=path, line=r.entry.line, card=r.card.ref))
    return out
