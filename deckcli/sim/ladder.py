"""Where a policy stands on its game's ladder (``Game.ladder``), in the words and the JSON a
report gives it: a win rate is about the players that produced it, so a report says how
strong they are."""

from __future__ import annotations


def standing(game, spec: str) -> dict | None:
    """``spec``'s place on ``game``'s ladder: ``{"rated": the ladder's player it is read from,
    "rank": 1 for the strongest, "of": players rated, "rating", "ci95", "anchor"}``; a
    ``search:N`` the ladder did not rate is read from the ``search`` it did (``rated`` says
    which). None: no ladder, or the policy is not on it."""
    ladder = game.ladder()
    players = ladder.get("players", {})
    rated = spec if spec in players else next(
        (p for p in players if p.split(":")[0] == spec.split(":")[0]), None)
    if rated is None:
        return None
    order = sorted(players, key=lambda p: -players[p]["rating"])
    return {"rated": rated, "rank": order.index(rated) + 1, "of": len(order),
            "rating": players[rated]["rating"], "ci95": players[rated]["ci95"],
            "anchor": ladder.get("anchor")}


def words(spec: str, found: dict | None) -> str:
    """'expert: 2nd of 4 on the ladder (+152 against greedy)', with the ``search:N`` it was
    rated as when that differs; 'expert: not on a measured ladder' without one."""
    if found is None:
        return f"{spec}: not on a measured ladder"
    at = "" if found["rated"] == spec else f"; rated as {found['rated']}"
    rating = "the anchor: rated 0" if found["rated"] == found["anchor"] else \
        f"{found['rating']:+d} against {found['anchor']}"
    return f"{spec}: {_ordinal(found['rank'])} of {found['of']} on the ladder ({rating}{at})"


def standings(game_id: str, specs) -> dict:
    """Each policy of ``specs`` -> its :func:`standing` (None: not on a ladder), for a
    report's JSON."""
    from deckcli.games import get

    game = get(game_id)
    return {s: standing(game, s) for s in dict.fromkeys(specs)}


def items(found: dict) -> list[str]:
    """A report's players and where they stand (``found``: :func:`standings`), one item
    each: 'expert: 2nd of 4 on the ladder (+152 against greedy)'."""
    return [words(s, f) for s, f in found.items()]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
