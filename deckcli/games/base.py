"""The game interface: what a game is, and what every game does, so generic code runs on any.

A game registers once (``deckcli/games/__init__.py`` lists the packages; each package's
``__init__`` defines ``GAME``, an instance of a :class:`Game` subclass). Generic code asks the
registry, never a game's modules by name:

* **What a game is** (:class:`Game`): its id, formats, card kinds with the plural a section
  header uses, the statistics a card list shows, its rules reference and one table of gaps
  (:class:`~deckcli.games.house.Gap`: rule id, house-rule key, values, the reading used when
  none is declared; the house rules in force are :mod:`deckcli.games.house`).
* **Deck side** (:class:`Game`): ``check_deck(rdeck, ctx)``, ``report_extra(rdeck, ctx,
  problems)``, ``deal(...)`` for ``deckcli setup``.
* **Play side** (:class:`Engine`, from ``Game.engine()``): ``new_game``, ``legal_actions``,
  ``apply`` (rules applied, gaps met, violations as :class:`~deckcli.diagnostics.Diagnostic`,
  the ruling text built only when read), ``is_over``, ``winner``, ``to_move``, ``view`` (what
  one player may know) and writing a played game back as a game log ``referee check`` reads.

The referee (``deckcli.games.replay``) and the simulator (``deckcli.sim``) both play through
``Engine.apply``, so a simulated game is a legal game by construction. The classes here are
plain ``__slots__`` classes: this module is imported by every deck check (see deckcli.records).
"""

from __future__ import annotations

from deckcli.games.house import Gap, GapMet, HouseRules

#: The most cards one deck brings to a game: a game log's deck holds at most this many
#: (``referee check``), so every game deckcli deals or plays is one a log can hold
#: (``simulate --save-games``). A legal casual deck has no upper size; this is the bound.
MAX_DECK = 100_000

#: The most players at one table: ``setup --players``, ``simulate --players`` and a game log's
#: players (``referee check`` and ``legal``) stop here, so no log asks the referee to try the
#: actions of a thousand players.
MAX_PLAYERS = 12


def check_playable_size(cards: int, path: str) -> None:
    """DeckcliError (exit 2) for a deck of ``cards`` cards that no game is dealt from
    (``setup``, ``simulate``, ``suggest``, ``build --against``)."""
    if cards > MAX_DECK:
        from deckcli.errors import DeckcliError

        raise DeckcliError(f"cannot be played: the deck holds {cards:,} cards, more than the "
                           f"{MAX_DECK:,} a game is dealt from (a game log holds no more)",
                           path=path)


class Game:
    """One game: metadata and the deck side. Subclasses fill in the class attributes and
    ``parts``; heavy parts (rules text, engine) are imported only when asked for."""

    id: str = ""
    #: formats the game has, the default first; () for a game without formats
    formats: tuple[str, ...] = ()
    default_format: str | None = None
    #: card kind -> the plural a section header uses, in the order ``fmt`` writes kinds
    kinds: dict[str, str] = {}
    #: the statistics ``cards list`` shows, in order
    key_stats: tuple[str, ...] = ()
    #: one shared deck for the whole table (players instead of formats), or one deck a player
    shared_deck: bool = False
    default_players: int = 2
    #: the prefix of the game's rule ids (``AB`` -> ``AB-5.2``)
    rule_prefix: str = ""
    #: the rule that says who has won
    win_rule: str = ""
    #: the battle statistics and which way each wins: stat -> ("higher" | "lower", rule)
    battle_stats: dict[str, tuple[str, str]] = {}
    #: cards in an opening hand, where the game deals one per player
    opening_hand: int | None = None

    #: where each part lives, ``module`` or ``module:name``: rules (the list of
    #: :class:`deckcli.rule.Rule`), gaps (house-rule key -> :class:`Gap`), deck_checks,
    #: card_entry (``db check`` of one card), setup, engine (an :class:`Engine`), policies
    parts: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"<game {self.id}>"

    def _part(self, name: str):
        """A part of the game (see :attr:`parts`), imported on first use and kept."""
        loaded = _PARTS.get((self.id, name))
        if loaded is None:
            import importlib

            module, _, attr = self.parts[name].partition(":")
            loaded = importlib.import_module(module)
            if attr:
                loaded = getattr(loaded, attr)
            _PARTS[(self.id, name)] = loaded
        return loaded

    # -- what a game is ---------------------------------------------------------------------
    def rules(self) -> list:
        """The rules reference (:class:`deckcli.rule.Rule`), in the project's own words."""
        return self._part("rules")

    def gaps(self) -> dict[str, Gap]:
        """The gap table: house-rule key -> :class:`Gap`."""
        return self._part("gaps")

    def section_kinds(self) -> dict[str, str]:
        """Folded section-header word -> card kind (``animals`` -> ``animal``)."""
        found = _SECTIONS.get(self.id)
        if found is None:
            found = _SECTIONS[self.id] = {p.casefold(): k for k, p in self.kinds.items()}
        return found

    def house_rules(self, given: dict | None = None, *, source: str = "house-rule",
                    simulate: bool = False) -> HouseRules:
        """Declared house rules checked against the gap table (a typo is a usage error)."""
        return HouseRules(self, given or {}, source=source, simulate=simulate)

    # -- deck side --------------------------------------------------------------------------
    def deck_checks(self):
        """The module with ``check_deck(rdeck, ctx)``, ``report_extra(rdeck, ctx,
        problems)`` (and, for a shared deck, ``cannot_deal(kinds, players)``); asked once per
        run and kept (a deck check calls it for every deck)."""
        return self._part("deck_checks")

    def check_card_entry(self, entry, rule_exists) -> list:
        """``db check``: problems with one card entry of the database (game-specific data)."""
        return self._part("card_entry")(entry, rule_exists)

    def setup(self):
        """The module with ``deal(rdeck, seed=, players=, opponent=, index=)`` and
        ``render(result)`` for ``deckcli setup``."""
        return self._part("setup")

    # -- play side --------------------------------------------------------------------------
    def engine(self) -> Engine:
        """The game's :class:`Engine` (one per process)."""
        return self._part("engine")

    def policies(self):
        """The module of the game's own policies for ``simulate``: ``make(spec)`` (a policy,
        or None for a name it does not know) and ``NAMES``."""
        return self._part("policies")


_SECTIONS: dict[str, dict[str, str]] = {}
_PARTS: dict[tuple[str, str], object] = {}


class Illegal(Exception):
    """An action the rules do not allow: answered as a violation, never raised to the user."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message


class Stop:
    """Why a game cannot go on without a judge: a gap nothing settles, or card text the
    referee does not model (``gap`` False)."""

    __slots__ = ("rule", "situation", "ruling", "gap", "record")

    def __init__(self, rule: str, situation: str, ruling: str, gap: bool = True, record=None):
        self.rule, self.situation, self.ruling, self.gap = rule, situation, ruling, gap
        self.record = record  # the GapMet, for a gap

    @classmethod
    def at_gap(cls, record: GapMet) -> Stop:
        return cls(record.rule, record.situation, record.ruling, True, record)

    def to_json(self) -> dict:
        return {"rule": self.rule, "situation": self.situation, "ruling": self.ruling,
                "gap": self.gap}


class Outcome:
    """The answer to one action: the rules applied, what happened (the ruling), gaps met,
    violations, and a stop when a judge must rule. An action with a violation changed nothing.

    Ruling lines are kept as a template and its values and formatted only when read
    (:attr:`notes`): a simulation applies millions of actions and reads none of them.
    """

    __slots__ = ("player", "action", "rules", "_notes", "violations", "breaches", "gaps",
                 "stop", "facts", "remarks")

    def __init__(self, player: str | None, action: str):
        self.player = player
        self.action = action
        self.rules: list[str] = []
        self._notes: list = []  # (rule, template, values), or a line already written
        self.violations = _NONE  # Diagnostic: this action is illegal (a list once there is one)
        self.breaches = _NONE  # (player, Diagnostic): another player's earlier breach
        self.gaps: list[GapMet] = []
        self.stop: Stop | None = None
        self.facts: dict = {}  # game-specific facts of the step (dice rolled, a battle's result)
        self.remarks: list[str] = []  # card text the referee could not apply

    def cite(self, rule: str, text, *args) -> None:
        """Name a rule the action applied, with what it did: ``text.format(*args)``, or
        ``text(*args)`` for a function that writes it (both only when read)."""
        if rule not in self.rules:
            self.rules.append(rule)
        self._notes.append((rule, text, args))

    def cite_only(self, *rules: str) -> None:
        for rule in rules:
            if rule not in self.rules:
                self.rules.append(rule)

    def note(self, text: str, *args) -> None:
        self._notes.append((None, text, args))

    def violate(self, rule: str, message: str) -> None:
        from deckcli.diagnostics import error

        if self.violations is _NONE:
            self.violations = []
        self.violations.append(error("illegal-action", rule, message))
        self.cite_only(rule)

    def breach(self, player: str, rule: str, message: str) -> None:
        """A rule another player broke earlier, noticed only now (a turn that ended without
        its player ending it): the violation is that player's; this action stands."""
        from deckcli.diagnostics import error

        if self.breaches is _NONE:
            self.breaches = []
        self.breaches.append((player, error("illegal-action", rule, message)))
        self.cite_only(rule)

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def notes(self) -> list[str]:
        out = []
        for item in self._notes:
            if item.__class__ is str:
                out.append(item)
                continue
            rule, text, args = item
            if callable(text):
                line = text(*args)
            else:
                line = text.format(*args) if args else text
            out.append(f"{line} [{rule}]" if rule else line)
        return out

    def to_json(self) -> dict:
        notes = self.notes
        return {"player": self.player, "action": self.action, "ok": self.ok,
                "rules": list(self.rules), "ruling": " ".join(notes), "notes": notes,
                "violations": [_violation(v) for v in self.violations],
                "breaches": [{"player": p, **_violation(v)} for p, v in self.breaches],
                "gaps": [g.to_json() for g in self.gaps],
                "stop": self.stop.to_json() if self.stop else None, **self.facts}


_NONE: tuple = ()  # an empty list that is never appended to (Outcome makes its own)


def _violation(d) -> dict:
    return {"code": d.code, "severity": d.severity.value, "rule": d.rule, "message": d.message}


class Quiet(Outcome):
    """An :class:`Outcome` that keeps no ruling lines: what a simulation plays with. It reads
    an action's violations, gaps and stop, never its rulings, and applies millions of actions.
    The rules are checked and applied exactly as with an Outcome; only the text is not kept."""

    __slots__ = ()

    def cite(self, rule: str, text, *args) -> None:
        pass

    def note(self, text: str, *args) -> None:
        pass


class CardInfo:
    """What play needs of one card, resolved once per game: immutable, shared by copies of a
    game state. ``overrides`` is card text that displaces a general rule (animal-battle,
    AB-6.4); ``effects`` is card text that acts in play (alpha-walrus)."""

    __slots__ = ("id", "ref", "name", "kind", "stats", "overrides", "effects", "traits",
                 "armor", "text", "refers_to", "animal", "level")

    def __init__(self, id: int, ref: str, name: str, kind: str, stats: dict, *,
                 overrides: tuple = (), effects: tuple = (), traits: tuple = (),
                 armor: bool = False, text: str = "", refers_to: tuple = ()):
        self.id, self.ref, self.name, self.kind, self.stats = id, ref, name, kind, stats
        self.overrides, self.effects, self.traits = overrides, effects, traits
        self.armor, self.text, self.refers_to = armor, text, refers_to
        self.animal = kind == "animal"
        level = stats.get("level")
        self.level = int(level) if level is not None else None

    @classmethod
    def of(cls, card) -> CardInfo:
        data = card.data or {}
        return cls(card.id, card.ref, card.name, card.kind, dict(card.stats or {}),
                   overrides=tuple(dict(o) for o in data.get("overrides", ())),
                   effects=tuple(dict(e) for e in (data.get("effects") or ())),
                   traits=tuple(data.get("traits") or ()), armor=bool(data.get("armor")),
                   text=data.get("text", ""), refers_to=tuple(data.get("refers_to", ())))

    def __deepcopy__(self, memo):  # immutable: a copied game state shares its cards
        return self

    def __repr__(self) -> str:
        return f"CardInfo({self.ref!r})"

    def effect(self, name: str) -> list[dict]:
        return [e for e in self.effects if e.get("effect") == name]


class Step:
    """One action read from a game log: its number, line, the text as written, who acts, the
    verb, and the action in the engine's own form."""

    __slots__ = ("n", "line", "text", "player", "verb", "action")

    def __init__(self, n: int, line: int | None, text: str, player: str | None, verb: str,
                 action):
        self.n, self.line, self.text = n, line, text
        self.player, self.verb, self.action = player, verb, action

    def __repr__(self) -> str:
        return f"Step({self.n}, {self.text!r})"


class Engine:
    """The play side of a game: one state API for every game (after OpenSpiel).

    A *state* is the game's own match object; an *action* is the game's own value (a tuple,
    a mapping): generic code passes both along without looking inside, and asks the engine
    to write an action as a game-log entry (:meth:`log_entry`).
    """

    game: Game
    #: whether a view follows the game it was made of (then a simulation asks
    #: :meth:`view` once a game for each player, where the view holds no unseen cards)
    live_views: bool = False

    def new_game(self, decks, *, seed: int, house_rules: HouseRules, players=None):
        """A dealt game. ``decks``: player id -> list of card ids (one deck a player), or
        one list for a shared deck with ``players`` seats. Every shuffle and die comes from a
        generator seeded with ``seed``."""
        raise NotImplementedError

    def legal_actions(self, state) -> list:
        """Every action the rules allow now (for the player :meth:`to_move`)."""
        raise NotImplementedError

    def choices(self, state) -> tuple:
        """(:meth:`to_move`, :meth:`legal_actions`): a simulation asks both at every step."""
        return self.to_move(state), self.legal_actions(state)

    def apply(self, state, action) -> Outcome:
        """Judge one action and apply it if it is legal; an illegal one changes nothing."""
        raise NotImplementedError

    def quiet(self, state) -> None:
        """Keep no ruling text for the actions applied to ``state`` from now on (a simulation
        reads none): outcomes still carry every violation, gap and stop. A game whose
        rulings cost little to keep may ignore this."""

    def is_over(self, state) -> bool:
        raise NotImplementedError

    def winner(self, state) -> str | None:
        raise NotImplementedError

    def to_move(self, state) -> str | None:
        """The player whose decision it is."""
        raise NotImplementedError

    def stopped(self, state) -> Stop | None:
        """Why the game waits for a judge, if it does."""
        raise NotImplementedError

    def view(self, state, player: str):
        """What ``player`` may know of the state (their hand, the open table; never another
        player's hand or any deck's order): the only state a policy sees."""
        raise NotImplementedError

    def log_entry(self, state, action):
        """The action as a game log writes it (before it is applied)."""
        raise NotImplementedError

    def action_text(self, state, action) -> str:
        """The action on one line, as a person reads it (``p1 stat weight``)."""
        raise NotImplementedError

    def game_log(self, state, entries: list, *, house_rules: HouseRules, seed: int) -> dict:
        """A played game as a log ``referee check`` replays: setup, house rules, entries."""
        raise NotImplementedError

    def turns(self, state) -> int:
        """How many turns the game has had (for ``--max-turns`` and game lengths)."""
        raise NotImplementedError

    def summary(self, state) -> dict:
        """The state as JSON-able facts (a checked log's ``final``)."""
        raise NotImplementedError
