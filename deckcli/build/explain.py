"""Numbers for a deck that a search chose: measured again on fresh seeds, never the games that
chose it (a deck picked as the best of many looks better on those than it is), and what each
card adds.

* :func:`measure`: the deck's win rate against each opponent on seeds the search never used,
  with its 95% Wilson interval.
* :func:`explain`: for every card of the deck, the best swap for one copy of it from the cards
  left in the binder, and what that swap costs in win rate (the deck's rate less the swapped
  deck's, on the same fresh games), with a 95% interval for the difference (Newcombe's method
  from the two Wilson intervals).
* :func:`improvements`: for ``suggest``, the single-card swaps that raise a deck's win rate,
  measured like that; a swap whose interval holds zero is not an improvement and is not shown
  as one.
"""

from __future__ import annotations

import math

from deckcli.diagnostics import visible_name
from deckcli.sim.play import game_seed
from deckcli.sim.report import interval
from deckcli.sim.stats import outward, wilson

SCREEN = 20  # games an opponent to screen a swap


def _tally(records) -> tuple[int, int]:
    wins = sum(1 for r in records if r["winner"] == "a")
    return wins, sum(1 for r in records if r["winner"] is not None)


def measure(judge, cards, games: int, salt: str) -> list[dict]:
    """The deck against each opponent on fresh seeds (``salt`` names them): games, win rate,
    interval, and the raw tallies."""
    out = []
    for k, opponent in enumerate(judge.opponents):
        records = judge.play(cards, opponent, game_seed(judge.seed, f"{salt}:{k}"),
                             list(range(games)))
        wins, decided = _tally(records)
        out.append({"path": visible_name(opponent.path), "fingerprint": opponent.fingerprint,
                    "games": games, "wins": wins, "decided": decided,
                    "win_rate": interval(wins, decided)["rate"],
                    "ci95": interval(wins, decided)["ci95"]})
    return out


def pooled(measured: list[dict]) -> tuple[int, int]:
    return sum(m["wins"] for m in measured), sum(m["decided"] for m in measured)


def difference(a: tuple[int, int], b: tuple[int, int]) -> dict:
    """Rate a less rate b, with Newcombe's 95% interval (the hybrid score interval)."""
    (wa, na), (wb, nb) = a, b
    if not na or not nb:
        return {"change": None, "ci95": [-1.0, 1.0]}
    pa, pb = wa / na, wb / nb
    la, ua = wilson(wa, na)
    lb, ub = wilson(wb, nb)
    d = pa - pb
    lo = d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2)
    hi = d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)
    return {"change": round(d, 4), "ci95": outward(max(-1.0, lo), min(1.0, hi))}


def _swaps(binder, cand, out_index: int, worth, limit: int = 2) -> list[int]:
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


def swapped(cand, out_index: int, in_index: int):
    from deckcli.build.search import Candidate

    counts = dict(cand.counts)
    counts[out_index] -= 1
    counts[in_index] = counts.get(in_index, 0) + 1
    return Candidate(counts)


def explain(judge, binder, cand, measured: list[dict], games: int, salt: str) -> list[dict]:
    """For each card of the deck: its best swap from the binder and what it costs."""
    from deckcli.build.search import worth_of

    worth = worth_of(binder)
    base = pooled(measured)
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
            got = pooled(measure(judge, other.cards(binder), games, salt))
            diff = difference(base, got)
            row.update(swap={"out": s.shown(1), "in": binder.stock[screened].shown(1)},
                       cost=diff["change"], ci95=diff["ci95"])
        out.append(row)
    return out


def improvements(judge, binder, cand, measured: list[dict], games: int, salt: str,
                 most: int = 5) -> list[dict]:
    """The single-card swaps that improve the deck most, measured on fresh games; only those
    whose 95% interval lies above zero are improvements."""
    from deckcli.build.search import worth_of

    worth = worth_of(binder)
    base = pooled(measured)
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
        got = pooled(measure(judge, other.cards(binder), games, salt))
        diff = difference(got, base)
        out.append({"out": binder.stock[i].shown(1), "in": binder.stock[j].shown(1),
                    "gain": diff["change"], "ci95": diff["ci95"],
                    "improves": diff["ci95"][0] > 0})
    out.sort(key=lambda r: (not r["improves"], -(r["gain"] or 0)))
    return out
