"""Numbers for a deck that a search chose: measured again on fresh seeds, never the games that
chose it (a deck picked as the best of many looks better on those than it is), and what each
card adds.

* :func:`measure`: the deck's win rate against each opponent on seeds the search never used,
  with its 95% interval for seat-swapped pairs (:func:`~deckcli.sim.stats.paired_rate`), as
  ``simulate`` gives it.
* :func:`explain`: for every card of the deck (its versions together), the best swap for one
  copy of it from the cards left in the binder, and what the card adds over that swap in win
  rate (the deck's rate less the swapped deck's, on the same fresh games), with a 95% paired
  interval for the difference.
* :func:`before_after`: the deck the search started from and the deck built, on the same fresh
  games, under the judge's policy and a second one, with the paired difference.
* :func:`improvements`: for ``suggest``, the swaps (one copy, or every copy of a card) that
  raise a deck's win rate, screened, raced, and the best measured like that; a swap whose
  interval holds zero is not an improvement and is not shown as one.

A deck and its swap play the same deals (the same seeds), and their results on a deal go
together (a correlation near 0.9 for a swap of like cards, in greedy play): the difference is
measured deal by deal, a seat-swapped pair of games against one opponent the unit
(:func:`~deckcli.sim.stats.paired_difference`), two to three times narrower than an interval
that took the two decks' games as independent samples (less where the swap changes many
games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.diagnostics import visible_name
from deckcli.sim.play import game_seed
from deckcli.sim.report import paired_interval
from deckcli.sim.stats import outward, paired_difference, rounded

if TYPE_CHECKING:
    from deckcli.build.collection import Binder
    from deckcli.build.search import Candidate, Judge

SCREEN = 20  # games an opponent to screen a swap
_SCORE = {"a": 1, "b": 0, None: None}  # a game's result for the measured deck (A)


def _tally(records) -> tuple[int, int]:
    wins = sum(1 for r in records if r["winner"] == "a")
    return wins, sum(1 for r in records if r["winner"] is not None)


def measure(judge: Judge, cards, games: int, salt: str) -> list[dict]:
    """The deck against each opponent on fresh seeds (``salt`` names them): games, win rate,
    interval, the raw tallies, each game's result (``scores``: 1 won, 0 lost, None
    undecided, by game number) for paired differences, and the games that met each gap."""
    return measure_all(judge, [cards], games, salt)[0]


def measure_all(judge: Judge, decks: list, games: int, salt: str) -> list[list[dict]]:
    """:func:`measure` of each of ``decks`` (card lists), every game handed out at once."""
    seeds = [game_seed(judge.seed, f"{salt}:{k}") for k in range(len(judge.opponents))]
    played = judge.run_all([(judge.spec(cards, opponent, seed), list(range(games)))
                            for cards in decks
                            for opponent, seed in zip(judge.opponents, seeds)])
    per = len(judge.opponents)
    return [_measured(judge, played[d * per:(d + 1) * per], games) for d in range(len(decks))]


def _measured(judge: Judge, played: list[list[dict]], games: int) -> list[dict]:
    from deckcli.build.sensitivity import gaps_met

    out = []
    for opponent, records in zip(judge.opponents, played):
        wins, decided = _tally(records)
        share = paired_interval(records, lambda r: r["winner"] == "a")
        out.append({"path": visible_name(opponent.path), "fingerprint": opponent.fingerprint,
                    "games": games, "wins": wins, "decided": decided,
                    "win_rate": share["rate"], "ci95": share["ci95"],
                    "scores": [_SCORE[r["winner"]] for r in records],
                    "gaps": dict(gaps_met(records))})
    return out


def difference(x: list[dict], y: list[dict]) -> dict:
    """Deck x's win rate less deck y's, both :func:`measure`d on the same seeds, over the
    games both played (the first of the longer run), against every opponent; with its 95%
    paired interval, the seat-swapped pair of games against one opponent the unit."""
    units = []
    for mx, my in zip(x, y):
        games = list(zip(mx["scores"], my["scores"]))
        units += [games[i:i + 2] for i in range(0, len(games), 2)]
    change, (lo, hi) = paired_difference(units)
    return {"change": rounded(change), "ci95": outward(lo, hi)}


def _swaps(binder: Binder, cand: Candidate, out_index: int, worth, limit: int = 2) -> list[int]:
    """The binder's best stocks to take in for one copy of ``out_index`` (room left; never
    another version of the same card, which plays the same games)."""
    from deckcli.build.search import used_copies

    counts = dict(cand.counts)
    counts[out_index] -= 1
    used = used_copies(binder, counts)
    same = binder.stock[out_index].identity
    room = [i for i, s in enumerate(binder.stock)
            if s.identity != same and counts.get(i, 0) < s.owned
            and used.get(s.identity, 0) < binder.limit(s.identity)]
    if binder.cannot_start(counts):  # only a card in that lets a game start again
        room = [i for i in room if not binder.cannot_start({**counts, i: counts.get(i, 0) + 1})]
    same_kind = binder.stock[out_index].info.kind
    room.sort(key=lambda i: (binder.stock[i].info.kind != same_kind, -worth[i], i))
    return room[:limit]


def swapped(cand: Candidate, out_index: int, in_index: int, n: int = 1):
    """``cand`` with ``n`` copies of ``out_index`` swapped for as many of ``in_index``."""
    from deckcli.build.search import Candidate

    counts = dict(cand.counts)
    counts[out_index] -= n
    counts[in_index] = counts.get(in_index, 0) + n
    return Candidate(counts)


def by_card(binder, cand) -> list[tuple[int, int, list[int]]]:
    """The deck's cards, each once however many versions of it the deck holds (a regular, a
    foil and a promotional Walrus are one card, which plays the same games): (the version
    holding most copies, the copies over all versions, every version held), in the deck's
    order."""
    cards: dict[int, list[int]] = {}
    for i in sorted(cand.counts):
        cards.setdefault(binder.stock[i].identity, []).append(i)
    out = []
    for held in cards.values():
        first = max(held, key=lambda i: (cand.counts[i], -i))
        out.append((first, sum(cand.counts[i] for i in held), held))
    return out


def shown_card(binder, cand, first: int, total: int, held: list[int]) -> str:
    """A card of the deck as a person reads it: its one version, or its name and how many
    versions it is held in."""
    if len(held) == 1:
        return binder.stock[first].shown(total)
    return f"{total} {binder.stock[first].card.name} ({len(held)} versions)"


def explain(judge: Judge, binder: Binder, cand: Candidate, measured: list[dict], games: int,
            salt: str) -> list[dict]:
    """For each card of the deck (its versions together): its best swap from the binder and
    what one copy of it adds over that swap (``adds``: the deck's win rate less the swapped
    deck's, on the same fresh games; ``cost`` is the same number, kept for scripts), with its
    95% paired interval."""
    from deckcli.build.search import worth_of

    worth = worth_of(binder)
    cards = by_card(binder, cand)
    options_of = {i: _swaps(binder, cand, i, worth) for i, _, _ in cards}
    # at most: each option of two screened, the best measured (a screen played before is not
    # played again; a card with one option has nothing to screen)
    judge.stage("explaining", len(judge.opponents) * sum(
        (len(o) > 1) * len(o) * SCREEN + games for o in options_of.values() if o))
    judge.extend_all([swapped(cand, i, j) for i, o in options_of.items() if len(o) > 1
                      for j in o], SCREEN)
    best = {i: o[0] if len(o) == 1 else max(
        o, key=lambda j: (judge.rate(swapped(cand, i, j), SCREEN), -j))
        for i, o in options_of.items() if o}
    against = dict(zip(best, measure_all(judge, [swapped(cand, i, j).cards(binder)
                                                 for i, j in best.items()], games, salt)))
    out = []
    for i, n, held in cards:
        row = {"card": shown_card(binder, cand, i, n, held), "count": n,
               "versions": len(held), "swap": None, "adds": None, "cost": None, "ci95": None}
        if i in best:
            diff = difference(measured, against[i])
            row.update(swap={"out": binder.stock[i].shown(1),
                             "in": binder.stock[best[i]].shown(1)},
                       adds=diff["change"], cost=diff["change"], ci95=diff["ci95"])
        out.append(row)
    return out


def second_policy(game, policy: str) -> str:
    """The policy the before and after are measured under besides the judge's: greedy, or
    when the judge is greedy the game's default (expert), else random (a game with no
    other heuristic)."""
    from deckcli.sim.policies import default, names

    for other in ("greedy", default(game), "random"):
        if other != policy and other in names(game):
            return other
    return policy


def before_after(judge, binder, start, built, measured: list[dict], games: int,
                 salt: str) -> list[dict]:
    """The starting deck and the built deck on the same fresh games (``measured``: the built
    deck's under the judge's policy), under the judge's policy and a second one
    (:func:`second_policy`, on half the games, at least 20): for each policy, both decks' win
    rates against each opponent,
    their objectives, and the built deck's win rate less the start's over the start's
    worst-half matchups (what the search makes larger) with its 95% paired interval."""
    from deckcli.build.search import objective, worst_half

    policy = judge.policy
    out = []
    try:
        for name in dict.fromkeys((policy, second_policy(judge.game, policy))):
            judge.policy = name
            # the second policy on half the games (at least 20): its numbers are a check
            n = games if name == policy else max(20, games // 2)
            decks = ([] if name == policy else [built]) + \
                ([] if start.key == built.key else [start])
            got = measure_all(judge, [d.cards(binder) for d in decks], n, salt)
            after = measured if name == policy else got[0]
            before = after if start.key == built.key else got[-1]
            rates = [m["win_rate"] if m["decided"] else 0.5 for m in before]
            worst = worst_half(rates)
            diff = difference([after[k] for k in worst], [before[k] for k in worst])
            out.append({"policy": name, "judge": name == policy,
                        "start": [m["win_rate"] for m in before],
                        "built": [m["win_rate"] for m in after],
                        "start_objective": rounded(objective(rates)),
                        "built_objective": rounded(objective(
                            [m["win_rate"] if m["decided"] else 0.5 for m in after])),
                        "matchups": worst, **diff,
                        "improved": diff["ci95"][0] > 0})
    finally:
        judge.policy = policy
    return out


RACE = 60  # games an opponent for the better half of the screened swaps


def _whole(binder, cand, out_index: int, worth) -> tuple[int, int] | None:
    """The whole-card swap for ``out_index``: every copy of it for as many of the binder's
    strongest card (not in the deck, of the same kind first) that has the copies and the room;
    (the card in, the copies) or None."""
    from deckcli.build.search import used_copies

    n = cand.counts[out_index]
    counts = {i: c for i, c in cand.counts.items() if i != out_index}
    used = used_copies(binder, counts)
    same, kind = binder.stock[out_index].identity, binder.stock[out_index].info.kind
    fits = [i for i, s in enumerate(binder.stock)
            if s.identity != same and i not in counts and s.owned >= n
            and used.get(s.identity, 0) + n <= binder.limit(s.identity)
            and not binder.cannot_start({**counts, i: n})]
    if n < 2 or not fits:
        return None
    fits.sort(key=lambda i: (binder.stock[i].info.kind != kind, -worth[i], i))
    return fits[0], n


def improvements(judge: Judge, binder: Binder, cand: Candidate,
                 measured: list[dict], games: int, salt: str,
                 most: int = 5) -> list[dict]:
    """The swaps that improve the deck most: each card's single-copy swaps and its whole-card
    swap (every copy of it for another card) screened on a few games, the better half raced on
    to more, the ``most`` best measured on the deck's own fresh games (``measured``, the same
    seeds); only those whose 95% paired interval lies above zero are improvements."""
    from deckcli.build.search import worth_of

    worth = worth_of(binder)
    options = [(i, j, 1) for i in sorted(cand.counts) for j in _swaps(binder, cand, i, worth,
                                                                        limit=3)]
    options += [(i, *w) for i in sorted(cand.counts)
                if (w := _whole(binder, cand, i, worth)) is not None]
    judge.stage("screening swaps", (1 + len(options)) * SCREEN * len(judge.opponents) +
                (1 + len(options) // 2) * (RACE - SCREEN) * len(judge.opponents))
    others = [swapped(cand, i, j, n) for i, j, n in options]
    judge.extend_all([cand, *others], SCREEN)
    tried = [(judge.rate(other, SCREEN) - judge.rate(cand, SCREEN), i, j, n, other)
             for (i, j, n), other in zip(options, others)]
    tried.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    judge.extend_all([cand, *(t[4] for t in tried[:max(most, len(tried) // 2)])], RACE)
    raced = [(judge.rate(t[4], RACE) - judge.rate(cand, RACE), *t[1:])
             for t in tried[:max(most, len(tried) // 2)]]
    raced.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    judge.stage("measuring swaps", min(most, len(raced)) * games * len(judge.opponents))
    out = []
    chosen = raced[:most]
    swaps = measure_all(judge, [t[4].cards(binder) for t in chosen], games, salt)
    for (_, i, j, n, _), other_measured in zip(chosen, swaps):
        diff = difference(other_measured, measured)
        out.append({"out": binder.stock[i].shown(n), "in": binder.stock[j].shown(n),
                    "count": n, "gain": diff["change"], "ci95": diff["ci95"],
                    "improves": diff["ci95"][0] > 0})
    out.sort(key=lambda r: (not r["improves"], -(r["gain"] or 0)))
    return out
