"""Numbers for a deck that a search chose: measured again on fresh seeds, never the games that
chose it (a deck picked as the best of many looks better on those than it is), and what each
card adds.

* :func:`measure`: the deck's win rate against each opponent on seeds the search never used,
  with its 95% interval for seat-swapped pairs (:func:`~deckcli.sim.stats.paired_rate`), as
  ``simulate`` gives it.
* :func:`explain`: for every card of the deck, the best swap for one copy of it from the cards
  left in the binder, and what that swap costs in win rate (the deck's rate less the swapped
  deck's, on the same fresh games), with a 95% paired interval for the difference.
* :func:`improvements`: for ``suggest``, the single-card swaps that raise a deck's win rate,
  measured like that; a swap whose interval holds zero is not an improvement and is not shown
  as one.

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
    from deckcli.build.sensitivity import gaps_met

    out = []
    for k, opponent in enumerate(judge.opponents):
        records = judge.play(cards, opponent, game_seed(judge.seed, f"{salt}:{k}"),
                             list(range(games)))
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
    """The binder's best stocks to take in for one copy of ``out_index`` (room left)."""
    from deckcli.build.search import used_copies

    counts = dict(cand.counts)
    counts[out_index] -= 1
    used = used_copies(binder, counts)
    room = [i for i, s in enumerate(binder.stock)
            if i != out_index and counts.get(i, 0) < s.owned
            and used.get(s.identity, 0) < binder.limit(s.identity)]
    if binder.cannot_start(counts):  # only a card in that lets a game start again
        room = [i for i in room if not binder.cannot_start({**counts, i: counts.get(i, 0) + 1})]
    same_kind = binder.stock[out_index].info.kind
    room.sort(key=lambda i: (binder.stock[i].info.kind != same_kind, -worth[i], i))
    return room[:limit]


def swapped(cand: Candidate, out_index: int, in_index: int):
    from deckcli.build.search import Candidate

    counts = dict(cand.counts)
    counts[out_index] -= 1
    counts[in_index] = counts.get(in_index, 0) + 1
    return Candidate(counts)


def explain(judge: Judge, binder: Binder, cand: Candidate, measured: list[dict], games: int,
            salt: str) -> list[dict]:
    """For each card of the deck: its best swap from the binder and what it costs."""
    from deckcli.build.search import worth_of

    worth = worth_of(binder)
    options_of = {i: _swaps(binder, cand, i, worth) for i in cand.counts}
    # at most: each option screened, the best measured (a screen played before is not again)
    judge.stage("explaining", len(judge.opponents) * sum(
        len(o) * SCREEN + games for o in options_of.values() if o))
    out = []
    for i, n in sorted(cand.counts.items()):
        s = binder.stock[i]
        options = options_of[i]
        row = {"card": s.shown(n), "count": n, "swap": None, "cost": None, "ci95": None}
        if options:
            screened = max(options, key=lambda j: (judge.rate(swapped(cand, i, j), SCREEN), -j))
            other = swapped(cand, i, screened)
            diff = difference(measured, measure(judge, other.cards(binder), games, salt))
            row.update(swap={"out": s.shown(1), "in": binder.stock[screened].shown(1)},
                       cost=diff["change"], ci95=diff["ci95"])
        out.append(row)
    return out


def improvements(judge: Judge, binder: Binder, cand: Candidate, measured: list[dict],
                 games: int, salt: str, most: int = 5) -> list[dict]:
    """The single-card swaps that improve the deck most, measured on the deck's own fresh games
    (``measured``, the same seeds); only those whose 95% paired interval lies above zero are
    improvements."""
    from deckcli.build.search import worth_of

    worth = worth_of(binder)
    options = [(i, j) for i in sorted(cand.counts) for j in _swaps(binder, cand, i, worth,
                                                                     limit=3)]
    judge.stage("screening swaps", (1 + len(options)) * SCREEN * len(judge.opponents))
    base_screen = judge.rate(cand, SCREEN)
    tried = []
    for i, j in options:
        other = swapped(cand, i, j)
        tried.append((judge.rate(other, SCREEN) - base_screen, i, j, other))
    tried.sort(key=lambda t: (-t[0], t[1], t[2]))
    best = [t for t in tried[:most] if t[0] > 0]
    judge.stage("measuring swaps", len(best) * games * len(judge.opponents))
    out = []
    for screen_gain, i, j, other in tried[:most]:
        if screen_gain <= 0:
            break
        diff = difference(measure(judge, other.cards(binder), games, salt), measured)
        out.append({"out": binder.stock[i].shown(1), "in": binder.stock[j].shown(1),
                    "gain": diff["change"], "ci95": diff["ci95"],
                    "improves": diff["ci95"][0] > 0})
    out.sort(key=lambda r: (not r["improves"], -(r["gain"] or 0)))
    return out
