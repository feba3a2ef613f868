"""alpha-walrus setup checks: can this shared deck be set up for N players (AW-1.x, AW-8.1)?

None of animal-battle's construction rules apply here (no 20/60 sizes, no four-copy limit).
What is checked, with the numbers for N players (``--players``, default 2):

* exactly one Alpha Walrus card (AW-1.1);
* each of the four Alpha Walrus gear pieces exactly once (AW-8.1: all four on one field);
* at least N diplomacy cards, one per player (AW-1.2);
* at least 3N creatures and 3N non-creatures to deal (AW-1.3). Non-creatures are every card
  that is not a creature, not diplomacy and not the Alpha Walrus: gear, equipment, battle and
  action cards. Gear counts: AW-1.3 splits "creatures and non-creatures" with nothing held back;
* a warning, not an error, when fewer than 2N cards are left to draw after the deal: one Draw
  Phase draw (AW-3.2) for every player in each of the two battle-free opening rounds (AW-1.6)
  runs the deck out. The seed sets no such minimum; an empty deck is gap AW-G.6.
"""

from __future__ import annotations

from deckcli.diagnostics import Diagnostic, error, warning

DEFAULT_PLAYERS = 2
DEAL_EACH = 3  # AW-1.3: three creatures and three non-creatures per player
OPENING_ROUNDS = 2  # AW-1.6: the draw pile must last through the two rounds without battles
NON_CREATURE_KINDS = ("gear", "equipment", "battle", "action")


def players_of(ctx) -> int:
    players = getattr(ctx, "players", None) if ctx is not None else None
    return DEFAULT_PLAYERS if players is None else players


def census(rdeck) -> dict[str, int]:
    """How many cards of each deal group the deck holds."""
    return census_of(rdeck.totals().values())


def census_of(cards) -> dict[str, int]:
    """How many cards of each deal group (card, copies) pairs make."""
    out = {"alpha-walrus": 0, "gear": 0, "diplomacy": 0, "creature": 0, "non-creature": 0}
    for card, copies in cards:
        kind = card.kind
        if kind in ("alpha-walrus", "diplomacy", "creature"):
            out[kind] += copies
        if kind in NON_CREATURE_KINDS:
            out["non-creature"] += copies
        if kind == "gear":
            out["gear"] += copies
    return out


def needs(players: int) -> dict[str, int]:
    """The setup numbers for a table of ``players``."""
    return {"alpha-walrus": 1, "gear": 4, "diplomacy": players,
            "creature": DEAL_EACH * players, "non-creature": DEAL_EACH * players,
            "draw-pile": OPENING_ROUNDS * players}


def draw_pile(counts: dict[str, int], players: int) -> int:
    """Cards left in the deck after the deal (AW-1.1 to AW-1.4)."""
    dealt = players + 2 * DEAL_EACH * players
    return counts["diplomacy"] + counts["creature"] + counts["non-creature"] - dealt


def cannot_start(kinds, players: int) -> str | None:
    """Why no game can start from a shared deck whose cards (one kind a copy) are ``kinds``:
    the deal of AW-1.1 to AW-1.3 cannot be made for ``players``; None when it can."""
    counts = {"alpha-walrus": 0, "diplomacy": 0, "creature": 0, "non-creature": 0}
    for kind in kinds:
        group = "non-creature" if kind in NON_CREATURE_KINDS else kind
        if group in counts:
            counts[group] += 1
    want = needs(players)
    if not counts["alpha-walrus"]:
        return "the deck has no Alpha Walrus card to place in the centre (AW-1.1)"
    for group, rule, each in (("diplomacy", "AW-1.2", 1), ("creature", "AW-1.3", DEAL_EACH),
                              ("non-creature", "AW-1.3", DEAL_EACH)):
        if counts[group] < want[group]:
            return (f"{counts[group]} {group} card(s) for {players} players; each player is "
                    f"dealt {each}, so at least {want[group]} are needed ({rule})")
    return None


def deck_size(fmt: str | None) -> tuple[int, int | None]:
    """A shared deck has no size of its own: whether it can be dealt is :func:`cannot_start`."""
    return 0, None


def copy_limit(card, event_limit: int | None = None) -> int | None:
    """A shared deck has no copy limit (an event may still set one)."""
    return event_limit


def _lines(group) -> list[int]:
    return sorted({r.entry.line for r in group if r.entry.line})


def _where(lines: list[int]) -> str:
    if not lines:
        return ""
    return f" (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))})"


def _gear_pieces(index) -> list:
    if index is None:
        return []
    return [c for c in index.all_cards("alpha-walrus") if c.kind == "gear"]


def check_deck(rdeck, ctx) -> list[Diagnostic]:
    path = rdeck.path
    out: list[Diagnostic] = []
    players = players_of(ctx)
    if players < 2:
        return [error("player-count", "AW-1.2",
                      f"alpha-walrus is played by at least 2 players, not {players}", path=path)]
    counts = census(rdeck)
    want = needs(players)
    totals = rdeck.totals()  # card id -> [card, copies]

    # AW-1.1: exactly one Alpha Walrus.
    alpha = [cid for cid, (card, _) in totals.items() if card.kind == "alpha-walrus"]
    if counts["alpha-walrus"] == 0:
        out.append(error("no-alpha-walrus", "AW-1.1",
                         "the deck has no Alpha Walrus card; setup places exactly 1 in the "
                         "centre", path=path))
    elif counts["alpha-walrus"] > 1:
        lines = sorted({ln for cid in alpha for ln in _lines(rdeck.listing(cid))})
        out.append(error("alpha-walrus-count", "AW-1.1",
                         f"{counts['alpha-walrus']} Alpha Walrus cards, exactly 1 allowed"
                         f"{_where(lines)}",
                         path=path, line=lines[0] if lines else None,
                         card=totals[alpha[0]][0].ref))

    # AW-8.1: the four gear pieces, once each.
    index = getattr(ctx, "index", None)
    by_ref = {card.ref: cid for cid, (card, _) in totals.items() if card.kind == "gear"}
    pieces = _gear_pieces(index)  # compared by reference: the index may be another run's
    held = sum(1 for p in pieces if p.ref in by_ref)
    for piece in pieces:
        if piece.ref not in by_ref:
            out.append(error("gear-missing", "AW-8.1",
                             f"{piece.ref} is missing: the deck holds {held} of the 4 Alpha "
                             "Walrus gear pieces, and the Final Showdown needs all 4",
                             path=path, card=piece.ref))
    for ref, cid in by_ref.items():
        total = totals[cid][1]
        if total > 1:
            lines = _lines(rdeck.listing(cid))
            out.append(error("gear-copies", "AW-8.1",
                             f"{ref}: {total} copies; each of the 4 gear pieces "
                             f"is in the deck exactly once{_where(lines)}",
                             path=path, line=lines[0] if lines else None, card=ref))

    # AW-1.2 / AW-1.3: enough to deal.
    if counts["diplomacy"] < want["diplomacy"]:
        out.append(error("diplomacy-count", "AW-1.2",
                         f"{counts['diplomacy']} diplomacy card(s) for {players} players; each "
                         f"player is dealt 1, so at least {want['diplomacy']} are needed",
                         path=path))
    if counts["creature"] < want["creature"]:
        out.append(error("creature-count", "AW-1.3",
                         f"{counts['creature']} creature(s) for {players} players; each player "
                         f"is dealt {DEAL_EACH}, so at least {want['creature']} are needed",
                         path=path))
    if counts["non-creature"] < want["non-creature"]:
        out.append(error("non-creature-count", "AW-1.3",
                         f"{counts['non-creature']} non-creature card(s) (gear, equipment, "
                         f"battle, action) for {players} players; each player is dealt "
                         f"{DEAL_EACH}, so at least {want['non-creature']} are needed",
                         path=path))

    # AW-3.2 with AW-1.6: will the deck last through the opening rounds? The seed sets no
    # such minimum, and what a draw from an empty deck does is gap AW-G.6: a warning only.
    dealable = all(counts[k] >= want[k] for k in ("diplomacy", "creature", "non-creature"))
    if dealable:
        left = draw_pile(counts, players)
        if left < want["draw-pile"]:
            out.append(warning("draw-pile", "AW-3.2",
                               f"after the deal {left} card(s) are left to draw; {players} "
                               f"players drawing 1 card each in the {OPENING_ROUNDS} rounds "
                               f"without battles (AW-1.6) need {want['draw-pile']}, so the "
                               "deck runs out before the first battle (what an empty deck "
                               "does is gap AW-G.6)", path=path))
    return out


def report_extra(rdeck, ctx, problems) -> dict:
    players = players_of(ctx)
    counts = census(rdeck)
    setup = {"alpha_walrus": counts["alpha-walrus"], "gear": counts["gear"],
             "diplomacy": counts["diplomacy"], "creatures": counts["creature"],
             "non_creatures": counts["non-creature"],
             "draw_pile": max(draw_pile(counts, players), 0), "needs": needs(players)}
    return {"players": players, "players_default": getattr(ctx, "players", None) is None,
            "setup": setup}
