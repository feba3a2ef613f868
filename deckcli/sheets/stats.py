"""Deck statistics against the card database (``deckcli stats``), as plain data.

animal-battle: card counts by kind; for each of the five battle statistics (AB-2.1 to AB-2.5)
the deck's Animals against every Animal in the database: the deck's median, best and worst and
the database's median, best and worst. "Best" follows the statistic's winning sense, so for
Population (AB-2.4, lower wins) the best is the *lowest* population. Maximum Depth is not a battle
statistic (AB-2.6) and is left out. Deck figures count every copy (four Walrus weigh four times
in the median, as they do in the draws); database figures count each card identity once.
The opening hand (AB-3.1, six cards): the exact hypergeometric chance of at least one Animal,
as ``validate`` computes it, and the expected number of Animals.

alpha-walrus: counts by kind and the creature level distribution (copies per level).

:func:`deck_stats` returns the ``--output json`` document described in docs/commands.md.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from statistics import median, quantiles

from deckcli.decks.checks import chance_at_least_one, expected_hits

JSON_VERSION = 1
UNITS = {"weight": "kg", "speed": "km/h", "lifespan": "years", "population": "individuals",
         "length": "m"}


def battle_stats(game: str | None = None) -> dict[str, tuple[str, str]]:
    """stat -> (winning sense 'higher'|'lower', rule id), in the rules' order: the battle
    statistics of ``game`` (default: the default game)."""
    from deckcli.games import DEFAULT_GAME, GAMES

    return dict(GAMES[game or DEFAULT_GAME].battle_stats)


def is_better(stat: str, a, b) -> bool:
    """True when value ``a`` beats value ``b`` in a battle on ``stat``."""
    sense = battle_stats()[stat][0]
    return a < b if sense == "lower" else a > b


def _best_worst(stat: str, values: list) -> tuple:
    lower = battle_stats()[stat][0] == "lower"
    return (min(values), max(values)) if lower else (max(values), min(values))


def database_values(index, game: str | None = None) -> dict[str, list]:
    """Sorted values of every battle statistic over the database's Animals (one per card)."""
    cache = getattr(index, "_sheet_stat_values", None)
    if cache is None:
        cache = {}
        try:
            index._sheet_stat_values = cache
        except AttributeError:  # pragma: no cover - an index without attributes
            pass
    if game not in cache:
        values: dict[str, list] = {s: [] for s in battle_stats()}
        for card in index.all_cards(game):
            if card.kind != "animal":
                continue
            for stat, found in values.items():
                v = card.stats.get(stat)
                if isinstance(v, (int, float)):
                    found.append(v)
        cache[game] = {s: sorted(v) for s, v in values.items()}
    return cache[game]


def beaten_share(stat: str, value, sorted_values: list) -> float | None:
    """Share of database Animals that ``value`` beats outright on ``stat`` (ties do not count)."""
    if not sorted_values:
        return None
    if battle_stats()[stat][0] == "lower":
        beaten = len(sorted_values) - bisect_right(sorted_values, value)
    else:
        beaten = bisect_left(sorted_values, value)
    return beaten / len(sorted_values)


def kind_counts(rdeck, game: str) -> dict[str, int]:
    """Copies per card kind, in the game's kind order (kinds the deck lacks are 0)."""
    from deckcli.games import GAMES

    counts = Counter()
    for r in rdeck.entries:
        counts[r.card.kind] += r.entry.count
    out = {k: counts.pop(k, 0) for k in GAMES[game].kinds}
    out.update(sorted(counts.items()))
    return out


def stat_profile(rdeck, stat: str, db_sorted: list) -> dict:
    """The deck's Animals on one statistic, with the database's median, best and worst."""
    sense, rule = battle_stats()[stat]
    values: list = []
    best = worst = None
    for r in rdeck.entries:
        v = r.card.stats.get(stat) if r.card.kind == "animal" else None
        if not isinstance(v, (int, float)):
            continue
        values.extend([v] * r.entry.count)
        # of equal values the first card by name: the figures must not hang on the lines' order
        here = (v, r.card.ref)
        if best is None or is_better(stat, v, best[0]) or (v == best[0] and here[1] < best[1]):
            best = here
        if worst is None or is_better(stat, worst[0], v) or (v == worst[0] and here[1] < worst[1]):
            worst = here
    out = {"wins": sense, "rule": rule, "unit": UNITS.get(stat), "animals": len(values),
           "deck": None,
           "database": None, "median_beats": None}
    if values:
        deck_median = median(values)
        out["deck"] = {"median": deck_median, "best": best[0], "best_card": best[1],
                       "worst": worst[0], "worst_card": worst[1]}
        out["median_beats"] = beaten_share(stat, deck_median, db_sorted)
    if db_sorted:
        db_best, db_worst = _best_worst(stat, db_sorted)
        q1, q3 = _quartiles(db_sorted)
        out["database"] = {"median": median(db_sorted), "best": db_best, "worst": db_worst,
                           "q1": q1, "q3": q3, "animals": len(db_sorted)}
    return out


def _quartiles(sorted_values: list) -> tuple:
    """First and third quartiles (the 'inclusive' method); a single value is its own."""
    if len(sorted_values) < 2:
        return sorted_values[0], sorted_values[0]
    q = quantiles(sorted_values, n=4, method="inclusive")
    return q[0], q[2]


def deck_stats(sheet, index) -> dict:
    """The statistics document of one deck (a :class:`deckcli.sheets.DeckSheet`)."""
    from deckcli.games import GAMES

    r = sheet.report
    rdeck = sheet.rdeck
    if rdeck is not None:
        unresolved = r.card_count - sum(x.entry.count for x in rdeck.entries)
    else:
        unresolved = r.card_count
    out = {"version": JSON_VERSION, "path": r.path, "game": r.game, "format": r.format,
           "name": r.name, "cards": r.card_count, "unresolved": unresolved}
    game = GAMES[r.game]
    if rdeck is None:  # unreadable: nothing counted, each kind at 0 (docs/commands.md)
        out["kinds"] = dict.fromkeys(game.kinds, 0)
        return out
    out["kinds"] = kind_counts(rdeck, r.game)
    if "level" in game.key_stats:  # a game of creature levels: how they spread
        levels = Counter()
        for x in rdeck.entries:
            level = x.card.stats.get("level") if x.card.kind == "creature" else None
            if isinstance(level, int):
                levels[level] += x.entry.count
        out["levels"] = {str(k): levels[k] for k in sorted(levels)}
        return out
    animals = out["kinds"].get("animal", 0)
    size, hand = r.card_count, game.opening_hand
    out["opening_hand"] = {
        "cards": hand, "animals": animals, "rule": "AB-3.3",
        "chance_at_least_one": chance_at_least_one(size, animals, hand),
        "expected_animals": expected_hits(size, animals, hand)}
    db = database_values(index, r.game)
    out["stats"] = {stat: stat_profile(rdeck, stat, db[stat]) for stat in game.battle_stats}
    return out
