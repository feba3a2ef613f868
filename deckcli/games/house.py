"""Gaps and house rules: the situations a game's rules leave open (:class:`Gap`), the house
rules in force for one game (:class:`HouseRules`), each time a game meets a gap
(:class:`GapMet`), and the stop a gap nothing settles makes (:class:`JudgeNeeded`).

Each game declares its gap table (``deckcli/games/<game>/gaps.py``); :meth:`deckcli.games.base.
Game.house_rules` makes the :class:`HouseRules` a referee or a simulation plays under. Plain
``__slots__`` classes, imported with the game interface by every deck check.
"""

from __future__ import annotations

from deckcli.errors import UsageError


class Gap:
    """A situation the rules leave open, and the house rule that settles it.

    ``values`` maps each accepted value to what it rules. ``default`` is the reading used when
    no house rule is declared: by a simulation always, and by the referee only when
    ``provisional`` (alpha-walrus goes on with a provisional reading; animal-battle stops and
    asks a judge).
    """

    __slots__ = ("rule", "key", "question", "values", "default", "provisional")

    def __init__(self, rule: str, key: str, question: str, values: dict[str, str],
                 default: str, provisional: bool = False):
        if default not in values:
            raise ValueError(f"{rule}: default {default!r} is not one of its values")
        self.rule, self.key, self.question = rule, key, question
        self.values, self.default, self.provisional = values, default, provisional

    def to_json(self) -> dict:
        return {"rule": self.rule, "house_rule": self.key, "question": self.question,
                "values": dict(self.values), "default": self.default,
                "provisional": self.provisional}


class HouseRules:
    """The house rules in force for one game: each declared value with where it came from.

    ``value(key)`` is the declared value, else the gap's default where one applies (always in
    a simulation; in the referee only for a provisional gap), else None: a judge must rule.
    """

    __slots__ = ("game", "gaps", "by_rule", "given", "sources", "simulate", "_values")

    def __init__(self, game, given: dict, *, source: str = "house-rule",
                 simulate: bool = False):
        # game: the deckcli.games.base.Game these rules are for (which imports this module)
        self.game = game
        self.gaps = game.gaps()
        self.by_rule = {g.rule: g for g in self.gaps.values()}
        self.given: dict[str, str] = {}
        self.sources: dict[str, str] = {}
        self.simulate = simulate
        self.update(given, source)

    def update(self, given: dict, source: str) -> None:
        """Declare more house rules (a later source overrides an earlier one)."""
        for key, value in (given or {}).items():
            key, value = str(key).strip(), str(value).strip()
            gap = self.gaps.get(key)
            if gap is None:
                raise UsageError(f"unknown {self.game.id} house rule {key!r}; known: "
                                 f"{', '.join(sorted(self.gaps))}")
            if value not in gap.values and value.lower() in gap.values:
                value = value.lower()
            if value not in gap.values:
                raise UsageError(f"house rule {key}={value} is not one of "
                                 f"{', '.join(gap.values)} ({gap.rule})")
            self.given[key] = value
            self.sources[key] = source
        self._values = {key: self._value(key) for key in self.gaps}  # asked at every step

    def declaring(self, key: str, value: str) -> HouseRules:
        """A copy with one more house rule declared (to try what each reading would do)."""
        other = HouseRules(self.game, self.given, simulate=self.simulate)
        other.sources = dict(self.sources)
        other.update({key: value}, "trial")
        return other

    def value(self, key: str) -> str | None:
        return self._values[key]

    def _value(self, key: str) -> str | None:
        found = self.given.get(key)
        if found is not None:
            return found
        gap = self.gaps[key]
        return gap.default if (self.simulate or gap.provisional) else None

    def settled(self, key: str) -> bool:
        """Whether a house rule settles this key: one was declared, or this is a simulation,
        whose defaults are house rules it declares (its report lists them, source 'default')."""
        return self.simulate or key in self.given

    def meet(self, gap: str, situation: str, log: list, applied: str | None = None) -> str:
        """Record that the game met a gap (by rule id, ``AB-G.1``, or house-rule key) in
        ``log``, and return the ruling's value; raise :class:`JudgeNeeded` when nothing
        settles it."""
        record = self.record(gap, situation, applied)
        log.append(record)
        if record.value is None:
            raise JudgeNeeded(record)
        return record.value

    def record(self, gap: str, situation: str, applied: str | None = None) -> GapMet:
        """A gap met, with the value that settles it (None: a judge must rule)."""
        found = self.by_rule.get(gap) or self.gaps[gap]
        return GapMet(found, situation, self.value(found.key), self.settled(found.key),
                      applied, self.sources.get(found.key, "default"))

    def used(self) -> list[dict]:
        """Every house rule in force with its source: declared ones, then the defaults a
        simulation falls back on (``source: default``)."""
        out = [{"key": k, "value": v, "source": self.sources[k]} for k, v in self.given.items()]
        if self.simulate:
            out += [{"key": k, "value": g.default, "source": "default"}
                    for k, g in self.gaps.items() if k not in self.given]
        return out

    def to_json(self) -> dict:
        return dict(self.given)


class GapMet:
    """One time a game met a gap: the situation, the value applied (None: a judge must rule),
    whether a house rule declared it. The ruling's text is built only when read."""

    __slots__ = ("gap", "situation", "value", "settled", "applied", "source")

    def __init__(self, gap: Gap, situation: str, value: str | None, settled: bool,
                 applied: str | None = None, source: str = "house-rule"):
        self.gap, self.situation, self.value = gap, situation, value
        self.settled, self.applied, self.source = settled, applied, source

    @property
    def rule(self) -> str:
        return self.gap.rule

    @property
    def key(self) -> str:
        return self.gap.key

    @property
    def ruling(self) -> str:
        gap, value = self.gap, self.value
        if value is None:
            return (f"The rules do not say {gap.question} ({gap.rule}). A judge must rule, or "
                    f"declare a house rule: {gap.key}={'|'.join(gap.values)}.")
        what = self.applied or gap.values[value]
        if self.settled:
            how = " (the simulation's default)" if self.source == "default" else ""
            return f"House rule {gap.key}={value}{how}: {what} ({gap.rule})."
        how = "simulation default" if not gap.provisional else "provisional reading"
        others = ", ".join(v for v in gap.values if v != value)
        return (f"No house rule {gap.key}; {how} {value}: {what} ({gap.rule}; declare "
                f"--house-rule {gap.key}={'|'.join(gap.values)}; other: {others}).")

    def to_json(self) -> dict:
        return {"rule": self.rule, "house_rule": self.key, "value": self.value,
                "settled": self.settled, "situation": self.situation, "ruling": self.ruling}


class JudgeNeeded(Exception):
    """A gap that no house rule settles: the game stops until a judge rules."""

    def __init__(self, record: GapMet):
        super().__init__(record.situation)
        self.record = record
