"""What build and suggest print: the deck in ``fmt``'s form, checked by ``validate``'s own checks
before anyone sees it, its numbers on fresh seeds, and the search's story."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.diagnostics import visible_name
from deckcli.sim.ladder import standings
from deckcli.sim.report import VERSION, fit, pct, players, wrap, wrap_items

if TYPE_CHECKING:
    from deckcli.validate import DeckReport


def deck_text(r, cand) -> tuple[str, DeckReport]:
    """The built deck as ``fmt`` writes it, and its report. A deck the checks refuse, or text
    ``fmt`` would change, is a bug in the search: it is never written (an internal error)."""
    head = [f"game: {r.game.id}"]
    if r.binder.format:
        head.append(f"format: {r.binder.format}")
    return _as_fmt_writes(r, "\n".join([*head, *cand.lines(r.binder)]) + "\n", "text")


def deck_file(r, text: str, to: str, fingerprint: str) -> str:
    """The built deck (``text``: :func:`deck_text`, whose report gave ``fingerprint``) as a
    decklist of format ``to`` (``text``, ``yaml`` or ``json``, as ``-o OUT``'s suffix says),
    in the form ``fmt`` writes for that format. Read back, it must be the same deck (the same
    fingerprint), legal, and left unchanged by ``fmt``; else nothing is written (an internal
    error, as in :func:`deck_text`)."""
    if to == "text":
        return text
    from deckcli.decks.convert import convert
    from deckcli.decks.reader import parse_text_of

    raw = convert(parse_text_of(text, None, "text", is_set=r.index.is_any_set_code), to)
    out, report = _as_fmt_writes(r, raw, to)
    if report.fingerprint != fingerprint:
        raise RuntimeError(f"the built deck as {to} would not read back as the same deck")
    return out


def _as_fmt_writes(r, raw: str, fmt: str) -> tuple[str, DeckReport]:
    """``raw``, a decklist of format ``fmt``, as ``fmt`` writes it, and its report; a
    RuntimeError when the checks refuse it (for alpha-walrus, warn of it) or ``fmt`` would
    change what it wrote."""
    from deckcli.decks.format import format_deck
    from deckcli.decks.reader import parse_text_of
    from deckcli.validate import Options, validate_deck

    is_set = r.index.is_any_set_code
    text = format_deck(parse_text_of(raw, None, fmt, is_set=is_set), raw, r.index, r.game.id)
    again = format_deck(parse_text_of(text, None, fmt, is_set=is_set), text, r.index,
                        r.game.id)
    report = validate_deck(parse_text_of(text, None, fmt, is_set=is_set), r.index,
                           Options(game=r.game.id, format=r.binder.format, event=r.event,
                                   players=r.players if r.game.shared_deck else None))
    warned = [p for p in report.problems if not p.is_error] if r.game.shared_deck else []
    if again != text or not report.legal or warned:
        problems = "; ".join(p.message for p in report.problems if p.is_error or warned)
        raise RuntimeError(f"the search made a deck the rules refuse or fmt would change: "
                           f"{problems or 'fmt is not stable'}")
    return text, report


def _cards(r, text: str) -> list[dict]:
    from deckcli.decks.reader import parse_text_of

    deck = parse_text_of(text, None, "text", is_set=r.index.is_any_set_code)
    return [{"count": e.count, "name": e.name, "set": e.set_code, "number": e.number,
             "variants": list(e.variants)} for e in deck.entries]


OBJECTIVE = ("the mean win rate over the worst half of the matchups (the ceil(K/2) lowest of "
             "K): a matchup already won or lost outright, which no change moves, cannot make "
             "it")
MOVES = "one to three copies, every copy of a card for another card, a card of another kind"


def built(r, cand, measured, explained, stats, compared=None) -> tuple[str, dict]:
    text, report = deck_text(r, cand)
    cards = _cards(r, text)
    result = {"version": VERSION, "game": r.game.id, "format": r.binder.format,
              "seed": r.seed, "card_count": report.card_count,
              "fingerprint": report.fingerprint, "cards": cards,
              "against": [{k: m[k] for k in ("path", "fingerprint", "games", "win_rate",
                                             "ci95")} for m in measured],
              "policy": r.judge.policy, "objective": OBJECTIVE, "explain": explained,
              "search": {"steps": stats["steps"], "raced": stats["raced"],
                         "ahead": stats.get("ahead", 0), "improved": stats["improved"],
                         "restarts": stats.get("restarts", 0), "games": stats["games"],
                         "moves": MOVES}}
    if "styles" in stats:  # --diverse: the styles the archive held at the end
        result["search"]["styles"] = stats["styles"]
    if compared is not None:
        start = stats["start"]
        _, start_report = deck_text(r, start)
        result["start"] = {"fingerprint": start_report.fingerprint,
                           "changes": changes(r.binder, start, cand)}
        result["before_after"] = compared
        result["improved"] = any(c["improved"] for c in compared if c["judge"])
        result["verdict"] = verdict(result)
    result["ladder"] = standings(r.game.id, [r.judge.policy, *(
        c["policy"] for c in result.get("before_after", ()))])
    return text, result


def changes(binder, start, cand) -> list[str]:
    """What the build changed from its start: '-2 Orca (ABS) 10', '+2 Walrus (ABS) 12', ..."""
    out = []
    for i in sorted(set(start.counts) | set(cand.counts)):
        d = cand.counts.get(i, 0) - start.counts.get(i, 0)
        if d:
            out.append(("+" if d > 0 else "-") + binder.stock[i].shown(abs(d)))
    return sorted(out, key=lambda c: (c[0] == "+", c[2:]))


def verdict(result: dict) -> str:
    """One sentence: whether the build improved on its start on fresh games, under the judge's
    policy, by a margin outside the paired interval; if not, what was tried."""
    judge = next(c for c in result["before_after"] if c["judge"])
    s = result["search"]
    tried = (f"{s['steps']:,} steps ({s['moves']}), {s['raced']:,} raced past the first "
             f"screen, {s['ahead']:,} ahead of the incumbent on the search's games, "
             f"{s['improved']:,} shown better by the paired interval, "
             f"{s.get('restarts', 0):,} restarts")
    if not result["start"]["changes"]:
        return (f"no improvement over the starting deck (the binder's strongest cards) was "
                f"found: tried {tried}; the deck built is the start")
    if not judge["improved"]:
        return (f"no improvement over the starting deck was shown on fresh games: the built "
                f"deck's difference, {_signed(judge['change'])}, has a 95% interval holding "
                f"zero ({_signed(judge['ci95'][0])} to {_signed(judge['ci95'][1])}); tried "
                f"{tried}")
    return (f"the built deck beats its start on fresh games under {judge['policy']} play, the "
            f"judge's: {_signed(judge['change'])} (95% CI {_signed(judge['ci95'][0])} to "
            f"{_signed(judge['ci95'][1])})")


def holds(compared: list[dict]) -> bool:
    """Whether the built deck ranks against its start the same way under every policy (both
    better, or both not)."""
    return len({(c["change"] or 0) > 0 for c in compared}) == 1


def render_built(result: dict, stats: dict, text: str | None) -> str:
    lines = [f"built a {result['format']} deck of {result['card_count']:,} cards (seed "
             f"{result['seed']}, fingerprint {result['fingerprint']})",
             f"its win rate, {result['against'][0]['games']:,} fresh games against each deck "
             f"({result['policy']} play):"]
    for a in result["against"]:
        lines.append(f"  {a['path']}: {pct(a['win_rate'])} (95% CI {pct(a['ci95'][0])} to "
                     f"{pct(a['ci95'][1])})")
    lines += players(result)
    lines += wrap(f"objective: {result['objective']}", "  ", first="")
    lines += _before_after_lines(result)
    lines.append("what each card adds (one copy against its best swap from the binder, on the "
                 "same fresh games):")
    for e in result["explain"]:
        if e["swap"] is None:
            lines.append(f"  {e['card']}: no other card in the binder to swap in")
        elif e["adds"] is not None and e["adds"] < 0:  # the swap would do better: said so
            lo, hi = e["ci95"]
            lines += fit(f"{e['card']}: {e['swap']['in']} instead of one would add "
                         f"{_points(-e['adds'])}", f"(95% CI {_signed(-hi)} to {_signed(-lo)})",
                         "  ", "      ")
        else:
            lines += fit(f"{e['card']}: one copy adds {_points(e['adds'] or 0)} over "
                         f"{e['swap']['in']}", f"(95% CI {_signed(e['ci95'][0])} to "
                         f"{_signed(e['ci95'][1])})", "  ", "      ")
    return _ending(lines, result, stats, text)


def _before_after_lines(result: dict) -> list[str]:
    """The start and the built deck side by side on the same fresh games, under each policy,
    and the verdict."""
    compared = result.get("before_after")
    if compared is None:
        return []
    lines = ["before and after (the deck the search started from, then the deck built; the "
             "same fresh games):"]
    changed = result["start"]["changes"]
    lines += wrap_items("  changed:", changed) if changed else \
        ["  changed: nothing (the built deck is its start)"]
    paths = [a["path"] for a in result["against"]]
    for c in compared:
        who = f"{c['policy']} play" + (" (the judge)" if c["judge"] else "")
        sides = "; ".join(f"{p}: {pct(x)} -> {pct(y)}" for p, x, y in
                          zip(paths, c["start"], c["built"]))
        lines += wrap(f"{who}: {sides}", "      ", first="  ")
        lines += fit(f"worst half {pct(c['start_objective'])} -> {pct(c['built_objective'])}, "
                     f"the difference {_signed(c['change'])}", f"(95% CI "
                     f"{_signed(c['ci95'][0])} to {_signed(c['ci95'][1])})", "    ", "      ")
    if changed and not holds(compared):
        lines += wrap("the ranking does not hold across the policies: the built deck is ahead "
                      "of its start under one and not the other", "  ", first="  ")
    lines += wrap(result["verdict"], "  ", first="")
    return lines


def built_shared(r, cand, measured, stats) -> tuple[str, dict]:
    """An alpha-walrus build: the contract's fields (``against`` is empty: the deck is shared),
    and the table's seats measured on fresh seeds."""
    text, report = deck_text(r, cand)
    result = {"version": VERSION, "game": r.game.id, "format": None, "seed": r.seed,
              "card_count": report.card_count, "fingerprint": report.fingerprint,
              "cards": _cards(r, text), "against": [], "players": r.players,
              "policy": r.judge.policy,
              "objective": "the smallest spread of seat win rates (highest less lowest, over "
                           "decided games); ties: fewer undecided games",
              "measured": measured,
              "search": {"steps": stats["steps"], "raced": stats["raced"],
                         "improved": stats["improved"], "games": stats["games"]}}
    result["verdict"] = shared_verdict(result["search"])
    result["ladder"] = standings(r.game.id, [r.judge.policy])
    return text, result


def shared_verdict(s: dict) -> str:
    """One sentence: whether the shared search moved from its first deck (the largest deck the
    collection makes, as the game's table deals it), and what it tried."""
    tried = f"{s['steps']:,} steps, {s['raced']:,} raced past the first screen"
    if not s["improved"]:
        return ("no deck with more even seats than the collection's first deck (the largest "
                f"it makes) was found: tried {tried}; the deck built is that first deck")
    return (f"the search moved {s['improved']:,} times from the collection's first deck to "
            f"more even seats on its own games (tried {tried}); the numbers above are on "
            "fresh games")


def render_built_shared(result: dict, stats: dict, text: str | None) -> str:
    m = result["measured"]
    lines = [f"built a shared deck of {result['card_count']:,} cards for {result['players']} "
             f"players (seed {result['seed']}, fingerprint {result['fingerprint']})",
             f"chosen for the most even seats; measured on {m['games']:,} fresh games "
             f"({result['policy']} play, {m['decided']:,} decided):"]
    for s in m["seats"]:
        lines.append(f"  {s['seat']} won {s['wins']:,}: {pct(s['win_rate'])} (95% CI "
                     f"{pct(s['ci95'][0])} to {pct(s['ci95'][1])})")
    lines.append(f"  spread {_points(m['spread'])}; undecided {m['undecided']:,}; the "
                 f"Final Showdown reached in {m['showdowns']:,}")
    lines += players(result)
    lines += wrap(result["verdict"], "  ", first="")
    return _ending(lines, result, stats, text)


def _ending(lines: list[str], result: dict, stats: dict, text: str | None) -> str:
    """A build's last lines: how the search went, then the deck (unless written to a file)."""
    share = stats["playing"] / stats["seconds"] if stats["seconds"] else 0
    s = result["search"]
    lines.append(f"search: {s['steps']:,} steps, {s['raced']:,} raced past the first screen, "
                 f"{s['improved']:,} improvements, {s['games']:,} games; "
                 f"{stats['all_games']:,} games with the measuring, in {stats['seconds']:.1f} s, "
                 f"{_floor_pct(share)} of it playing games")
    if text is not None:
        lines += ["", text.rstrip("\n")]
    return "\n".join(lines)


def _floor_pct(x: float) -> str:
    return f"{int(x * 100)}%"


def _points(x) -> str:
    """A spread of seat win rates (or a difference) in points, '-' where there is none."""
    return "-" if x is None else f"{100 * x:.1f} points"


def _signed(x) -> str:
    return "-" if x is None else f"{100 * x:+.1f} points"


# -- suggest ---------------------------------------------------------------------------------------
def as_candidate(r, path: str):
    """The player's deck as a candidate over the binder's stock: each of its lines is the
    binder's matching stock where there is one, else stock of its own (the deck's copies)."""
    from deckcli.build.collection import Stock, stock_key
    from deckcli.build.search import Candidate
    from deckcli.decks.reader import read_deck
    from deckcli.decks.resolve import resolve_deck
    from deckcli.errors import unreadable_deck
    from deckcli.games.base import check_playable_size
    from deckcli.sim.run import can_start

    deck = r.decks.get(path) or read_deck(path, is_set=r.index.is_any_set_code)
    rdeck = resolve_deck(r.index, deck, r.game.id, r.binder.format)
    if any(p.is_error for p in [*deck.problems, *rdeck.problems]):
        raise unreadable_deck(path, [*deck.problems, *rdeck.problems])
    counts: dict[int, int] = {}
    notes = []
    for res in rdeck.entries:
        e = res.entry
        key = stock_key(res.card, res.printing, e.variants)
        match = next((i for i, s in enumerate(r.binder.stock) if s.key == key), None)
        if match is None:
            r.binder.stock.append(Stock(res.card, res.printing, tuple(e.variants), e.count,
                                        r.game.play_card(res.card), e.line))
            match = len(r.binder.stock) - 1
            r.binder.limits.setdefault(res.card.id, r.binder.limit(res.card.id))
            notes.append(f"{path}:{e.line}: {e.describe()} is not in the collection; "
                         "suggestions keep it")
        stock = r.binder.stock[match]
        counts[match] = counts.get(match, 0) + e.count
        stock.owned = max(stock.owned, counts[match])
    check_playable_size(sum(counts.values()), path)
    can_start(r.game, (r.binder.stock[i].info.kind for i, n in counts.items()
                       for _ in range(n)), path, r.players)
    return Candidate(counts), notes


def suggested(r, path: str, measured, found) -> dict:
    return {"version": VERSION, "game": r.game.id, "deck": visible_name(path), "seed": r.seed,
            "policy": r.judge.policy,
            "against": [{k: m[k] for k in ("path", "fingerprint", "games", "win_rate",
                                           "ci95")} for m in measured],
            "swaps": found, "ladder": standings(r.game.id, [r.judge.policy])}


def render_suggested(result: dict) -> str:
    if "changes" in result:
        return render_suggested_shared(result)
    lines = [f"{result['deck']}: {result['against'][0]['games']:,} fresh games against each deck "
             f"({result['policy']} play, seed {result['seed']}):"]
    for a in result["against"]:
        lines.append(f"  {a['path']}: {pct(a['win_rate'])} (95% CI {pct(a['ci95'][0])} to "
                     f"{pct(a['ci95'][1])})")
    return "\n".join(lines + players(result) + _found(
        [(f"-{s['out']}, +{s['in']}", s) for s in result["swaps"]],
        "swaps that improve it", "no swap from the collection is shown to improve it"))


def _found(tried: list[tuple[str, dict]], good_head: str, none: str, gain=_signed) -> list[str]:
    """What suggest found: the changes shown to help (the 95% interval of the gain above zero),
    or that none is, then the others tried."""
    good = [(label, c) for label, c in tried if c["improves"]]
    lines = wrap(f"{good_head} (the 95% interval of the gain is above zero):", "  ", first="") \
        if good else wrap(f"{none} (no gain's 95% interval lies above zero)", "  ", first="")
    for label, c in good:  # within 100 columns: a long pair of names puts the interval below
        lines += fit(f"{label}: {gain(c['gain'])}", f"(95% CI {_signed(c['ci95'][0])} to "
                     f"{_signed(c['ci95'][1])})", "  ", "      ")
    rest = [f"  {label} ({_signed(c['gain'])})" for label, c in tried if not c["improves"]]
    if rest:  # one a line: joined on one, they ran to hundreds of columns
        lines += ["tried, not shown to help:", *rest]
    return lines


def suggested_shared(r, path: str, measured, found) -> dict:
    return {"version": VERSION, "game": r.game.id, "deck": path, "seed": r.seed,
            "policy": r.judge.policy, "players": r.players, "measured": measured,
            "changes": found, "ladder": standings(r.game.id, [r.judge.policy])}


def render_suggested_shared(result: dict) -> str:
    m = result["measured"]
    lines = [f"{result['deck']}: {m['games']:,} fresh games for {result['players']} players "
             f"({result['policy']} play, seed {result['seed']}), {m['decided']:,} decided; spread "
             f"of the seats' win rates {_points(m['spread'])}:"]
    for s in m["seats"]:
        lines.append(f"  {s['seat']} won {s['wins']:,}: {pct(s['win_rate'])} (95% CI "
                     f"{pct(s['ci95'][0])} to {pct(s['ci95'][1])})")
    return "\n".join(lines + players(result) + _found(
        [(c["change"], c) for c in result["changes"]], "changes that make the seats more even",
        "no one-copy change from the collection is shown to make the seats more even",
        gain=lambda g: f"spread {_signed(-g)}"))


def sensitivity(found: list[dict]) -> list[dict]:
    """``--sensitivity``'s JSON: for each gap value, the built deck's numbers under it (win
    rates against each deck, or for a shared deck each seat's and the spread)."""
    out = []
    for s in found:
        m = s["measured"]
        entry = {k: s[k] for k in ("gap", "house_rule", "value")}
        if isinstance(m, list):
            entry["against"] = [{k: a[k] for k in ("path", "games", "win_rate", "ci95")}
                                for a in m]
        else:
            entry.update({k: m[k] for k in ("games", "decided", "seats", "spread")})
        out.append(entry)
    return out


def sensitivity_lines(result: dict) -> list[str]:
    """The text of ``--sensitivity`` (nothing when it was not asked for)."""
    found = result.get("sensitivity")
    if found is None:
        return []
    if not found:
        return ["sensitivity: no gap was met in more than a tenth of the fresh games"]
    lines = ["sensitivity (the built deck's fresh games again, one house rule changed):"]
    for s in found:
        if "against" in s:
            what = "; ".join(f"{a['path']}: {pct(a['win_rate'])}" for a in s["against"])
        else:
            spread = "-" if s["spread"] is None else f"{100 * s['spread']:.1f} points"
            what = ", ".join(f"{x['seat']} {pct(x['win_rate'])}" for x in s["seats"]) + \
                f"; spread {spread}"
        lines += wrap(f"{s['gap']} {s['house_rule']}={s['value']}: {what}", "    ", first="  ")
    return lines


def diverse(r, decks: list[tuple]) -> list[dict]:
    """``--diverse``'s JSON: each deck (the built one first) with its cards, fingerprint, its
    fresh games' win rates, and the cards it shares with the first (of its size)."""
    out = []
    first = None
    book = {s.info.id: s.info for s in r.binder.stock}
    for cand, measured in decks:
        text, report = deck_text(r, cand)
        if first is None:
            first = cand
        shared = sum(min(n, first.counts.get(i, 0)) for i, n in cand.counts.items())
        style = list(r.game.deck_style(cand.cards(r.binder), book))
        out.append({"card_count": report.card_count, "fingerprint": report.fingerprint,
                    "style": style, "cards": _cards(r, text), "shared_with_first": shared,
                    "against": [{k: m[k] for k in ("path", "fingerprint", "games", "win_rate",
                                                   "ci95")} for m in measured],
                    "deck": text})
    return out


def diverse_lines(result: dict) -> list[str]:
    """The text of ``--diverse``: each other deck's numbers and how it differs."""
    found = result.get("diverse")
    if not found:
        return []
    lines = [f"{len(found)} decks that play differently (the best deck the search kept of each "
             "style; fresh games):"]
    for n, d in enumerate(found, 1):
        rates = "; ".join(f"{a['path']}: {pct(a['win_rate'])}" for a in d["against"])
        lines += wrap(f"deck {n} ({', '.join(d['style'])}; {d['fingerprint']}, "
                      f"{d['shared_with_first']} of {d['card_count']} cards shared with deck 1): "
                      f"{rates}", "    ", first="  ")
    for n, d in enumerate(found[1:], 2):
        lines += ["", f"deck {n}:", d["deck"].rstrip("\n")]
    return lines
