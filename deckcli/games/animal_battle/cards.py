"""What an animal-battle card must carry (used by ``db build`` / ``db check``): its kind, an
Animal's statistics, an action card's text with the data that applies it, ``overrides`` (text
that displaces a general rule, AB-6.4: :mod:`.effects`) and ``effects`` (what the text does
when the card is played, in the words of :data:`.cardtext.VOCABULARY`, DB-2.4); text with
neither is DB-2.5's problem.
"""

from __future__ import annotations

from deckcli.cards.model import ANIMAL_STATS, STAT_BOUNDS, CardEntry
from deckcli.diagnostics import number_text

KINDS = ("animal", "action")
#: Overrides the engine knows how to apply, by effect name -> the rule it displaces.
OVERRIDE_EFFECTS = {
    "copy_limit": "AB-1.5",  # value: int or null (no limit)
    "skip_attack": "AB-6.2",  # the Challenger's player may decline to attack
    "replace_challenger": "AB-6.1",  # the Challenger may be swapped for a Pool Animal
    "reuse_statistic": "AB-5.5",  # one statistic may be chosen a second time
    "hand_to_chain": "AB-5.4",  # an Animal from hand may be promoted into the chain
    "pool_size": "AB-4.2",  # value: the Pool's size limit
    "extra_draw": "AB-4.1",  # value: cards drawn in the draw phase
}


def check_entry(entry: CardEntry, rule_exists, unread=frozenset()) -> list[tuple[str, str, str]]:
    """Problems with one defining card entry, as (code, rule id, message). ``unread``: fields
    left out for a schema problem already reported (``text``, ``stats.weight``): not missing."""
    out: list[tuple[str, str, str]] = []
    if entry.kind not in KINDS:
        out.append(("db-kind", "DB-1.2",
                    f"kind {entry.kind!r} is not an animal-battle kind ({', '.join(KINDS)})"))
        return out
    if entry.kind == "animal":
        stats = entry.stats or {}
        missing = [s for s in ANIMAL_STATS if s not in stats and f"stats.{s}" not in unread]
        if missing and "stats" not in unread:
            out.append(("db-missing-stat", "DB-2.1",
                        f"{entry.name} {entry.number}: missing statistics: {', '.join(missing)}"))
        given = {*stats, *(f[6:] for f in unread if f.startswith("stats."))}
        unknown = sorted(given - set(ANIMAL_STATS))
        if unknown:
            out.append(("db-unknown-stat", "DB-2.1",
                        f"{entry.name} {entry.number}: unknown statistics: {', '.join(unknown)}"))
        for stat, value in stats.items():
            if stat not in STAT_BOUNDS:
                continue
            lo, hi = STAT_BOUNDS[stat]
            if not (lo <= value <= hi):
                out.append(("db-absurd-stat", "DB-2.2",
                            f"{entry.name} {entry.number}: {stat} {number_text(value)} is "
                            f"outside {lo:,}..{hi:,}"))
        if entry.overrides or entry.effects:
            out.append(("db-animal-text", "DB-2.3",
                        f"{entry.name} {entry.number}: Animal cards carry no overrides or "
                        "effects"))
    else:
        if entry.stats or any(f.startswith("stats") for f in unread):
            out.append(("db-action-stats", "DB-1.2",
                        f"{entry.name} {entry.number}: an action card has no statistics"))
        if not entry.text and "text" not in unread:
            out.append(("db-no-text", "DB-2.3",
                        f"{entry.name} {entry.number}: an action card needs rules text"))
        named = list(entry.refers_to) + [o.rule for o in entry.overrides]
        if not named and not unread & {"refers_to", "overrides"}:
            out.append(("db-no-rule", "DB-2.3",
                        f"{entry.name} {entry.number}: its text refers to no rule "
                        "(add refers_to or overrides)"))
        for rid in named:
            if not rule_exists(rid):
                out.append(("db-unknown-rule", "DB-2.3",
                            f"{entry.name} {entry.number}: rule {rid} does not exist"))
        for o in entry.overrides:
            expected = OVERRIDE_EFFECTS.get(o.effect)
            if expected is None:
                out.append(("db-unknown-effect", "DB-2.3",
                            f"{entry.name} {entry.number}: override effect {o.effect!r} is not "
                            f"one the referee knows ({', '.join(OVERRIDE_EFFECTS)})"))
            elif expected != o.rule:
                out.append(("db-override-rule", "DB-2.3",
                            f"{entry.name} {entry.number}: effect {o.effect} overrides "
                            f"{expected}, not {o.rule}"))
        out += _effects(entry, rule_exists, unread)
    return out


def _effects(entry: CardEntry, rule_exists, unread) -> list[tuple[str, str, str]]:
    """DB-2.4: the card's ``effects`` in this game's words; DB-2.5: text nothing applies."""
    from deckcli.games.animal_battle import cardtext
    from deckcli.games.effects import check_effects, text_without_effects, unapplied_problem

    who = f"{entry.name} {entry.number}"
    entries = [{"effect": e.effect, **(e.model_extra or {})} for e in entry.effects]
    out = check_effects(entries, cardtext.VOCABULARY, rule_exists, who)
    out += cardtext.check(entries, who)
    if (text_without_effects(entry.text, entries, entry.overrides)
            and not unread & {"effects", "overrides"}):
        out.append(unapplied_problem(who))
    return out
