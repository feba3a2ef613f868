"""What an alpha-walrus card must carry (used by ``db build`` / ``db check``)."""

from __future__ import annotations

from deckcli.cards.model import LEVEL_BOUNDS, CardEntry
from deckcli.games.alpha_walrus.vocabulary import VOCABULARY
from deckcli.games.effects import check_effects, text_without_effects, unapplied_problem

KINDS = ("creature", "alpha-walrus", "gear", "diplomacy", "equipment", "battle", "action")


def check_entry(entry: CardEntry, rule_exists, unread=frozenset()) -> list[tuple[str, str, str]]:
    """Problems with one defining card entry, as (code, rule id, message). ``unread``: fields
    left out for a schema problem already reported (``text``, ``stats.level``): not missing."""
    out: list[tuple[str, str, str]] = []
    who = f"{entry.name} {entry.number}"
    if entry.kind not in KINDS:
        return [("db-kind", "DB-1.2", f"kind {entry.kind!r} is not an alpha-walrus kind "
                 f"({', '.join(KINDS)})")]
    stats = entry.stats or {}
    given = {*stats, *(f[6:] for f in unread if f.startswith("stats."))}
    if entry.kind in ("creature", "alpha-walrus"):
        level = stats.get("level")
        if level is None:
            if not unread & {"stats", "stats.level"}:
                out.append(("db-missing-stat", "DB-2.1",
                            f"{who}: a creature needs stats.level"))
        elif not (isinstance(level, int) and LEVEL_BOUNDS[0] <= level <= LEVEL_BOUNDS[1]):
            out.append(("db-absurd-stat", "DB-2.2",
                        f"{who}: level {level} is outside {LEVEL_BOUNDS[0]}..{LEVEL_BOUNDS[1]}"))
        extra = sorted(given - {"level"})
        if extra:
            out.append(("db-unknown-stat", "DB-2.1",
                        f"{who}: unknown statistics: {', '.join(extra)}"))
    elif given or "stats" in unread:
        out.append(("db-unknown-stat", "DB-1.2", f"{who}: only creatures have statistics"))
    if entry.kind == "equipment" and entry.armor is None and "armor" not in unread:
        out.append(("db-schema", "DB-1.2", f"{who}: equipment says armor: true or false"))
    if entry.kind != "equipment" and (entry.armor is not None or "armor" in unread):
        out.append(("db-schema", "DB-1.2", f"{who}: only equipment has armor"))
    if entry.kind not in ("creature", "gear") and not entry.text and "text" not in unread:
        out.append(("db-no-text", "DB-2.3", f"{who}: a {entry.kind} card needs rules text"))
    out += check_effects(entry.effects, VOCABULARY, rule_exists, who)
    if text_without_effects(entry.text, entry.effects, entry.overrides):
        out.append(unapplied_problem(who))
    for rid in [*entry.refers_to, *(o.rule for o in entry.overrides)]:
        if not rule_exists(rid):
            out.append(("db-unknown-rule", "DB-2.3", f"{who}: rule {rid} does not exist"))
    return out
