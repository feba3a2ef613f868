"""The play side of the game interface: everything generic code asks of a game in play.

After OpenSpiel, one state API for every game. A *state* is the game's own match object and an
*action* the game's own value (a tuple, a mapping): generic code (``deckcli.sim``,
``deckcli.build``, the referee driver ``deckcli.games.replay``, the search player) passes both
along without looking inside, and asks the :class:`Engine` for everything else:

* **dealing and playing**: :meth:`Engine.new_game`, :meth:`~Engine.choices` (who decides now
  and the legal actions), :meth:`~Engine.apply` (judge one action and apply it if legal: the
  referee and the simulator share it, so a simulated game is legal by construction),
  :meth:`~Engine.clone`;
* **how it ends**: :meth:`~Engine.is_over`, :meth:`~Engine.winner`, :meth:`~Engine.players`
  (the seats still in the game), :meth:`~Engine.returns` (per player, for a search);
* **what a player may know**: :meth:`~Engine.view` (the only thing a policy reads) and
  :meth:`~Engine.sample` (a whole state consistent with a view: a determinization, for
  information-set search). Chance is the state's own generator, seeded at the deal; a sampled
  state gets a generator of its own from the searcher's, so a search cannot see future dice;
* **records**: :meth:`~Engine.log_entry`, :meth:`~Engine.game_log` (a played game as a log
  ``referee check`` replays), :meth:`~Engine.deal_gaps`, :meth:`~Engine.facts`,
  :meth:`~Engine.turns`, :meth:`~Engine.summary`;
* **the referee driver**: :meth:`~Engine.read_log`, :meth:`~Engine.tried` (``referee legal``),
  :meth:`~Engine.describe`, :meth:`~Engine.position`.

An action applied through :meth:`Engine.apply` answers with an :class:`Outcome`: the rules
applied, the gaps met, the violations, and a :class:`Stop` when a judge must rule.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the interface names them; importing them here would cost every deck check
    from random import Random

    from deckcli.games.house import GapMet, HouseRules


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
        self.violations: Any = _NONE  # Diagnostic: this action is illegal (a list once one)
        self.breaches: Any = _NONE  # (player, Diagnostic): another player's earlier breach
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


class Engine(ABC):
    """The play side of a game (see the module's docstring). One per process: an engine keeps
    no game of its own, only what it worked out once for many (a deck's tables)."""

    game: Any  # the Game (deckcli.games.base) this engine plays
    #: whether a view follows the game it was made of: a simulation then asks :meth:`view`
    #: once a game for each player instead of at every choice
    live_views: bool = False
    #: whether :meth:`new_game` needs the card index (``index=``): a game whose actions name
    #: cards by reference looks them up there
    uses_index: bool = False

    # -- dealing and playing ------------------------------------------------------------------
    @abstractmethod
    def new_game(self, decks: dict[str, list], *, seats: list[str], seed: int,
                 house_rules: HouseRules, first: str | None = None, index=None,
                 record: bool = False):
        """A dealt game. ``decks``: seat -> its cards (the game's play cards, see
        :meth:`deckcli.games.base.Game.play_card`), or for a game with one shared deck
        ``{"shared": cards}``; ``seats``: the players in seat order; ``first``: who takes the
        first turn, where the caller decides it (else the deal does). Every shuffle and die
        comes from a generator seeded with ``seed``. ``record``: keep what :meth:`game_log`
        needs to write the game back as a log."""

    @abstractmethod
    def choices(self, state) -> tuple[str | None, list]:
        """(the player whose decision it is, every action the rules allow them now). The
        player is None where nobody decides (a game that waits for a judge, or the table's
        own step such as ending a setup)."""

    def legal_actions(self, state) -> list:
        """Every action the rules allow now (for :meth:`to_move`'s player)."""
        return self.choices(state)[1]

    def to_move(self, state) -> str | None:
        """The player whose decision it is."""
        return self.choices(state)[0]

    @abstractmethod
    def apply(self, state, action) -> Outcome:
        """Judge one action and apply it if it is legal; an illegal one changes nothing."""

    def quiet(self, state) -> None:  # noqa: B027 - a game whose rulings cost little may ignore it
        """Keep no ruling text for the actions applied to ``state`` from now on (a simulation
        reads none): outcomes still carry every violation, gap and stop."""

    @abstractmethod
    def clone(self, state):
        """An independent copy of the state (cards are shared: they are immutable)."""

    def action_key(self, action) -> Hashable:
        """A hashable key for an action, equal for equal actions (a search's tree keys)."""
        return action

    # -- how it ends ---------------------------------------------------------------------------
    @abstractmethod
    def is_over(self, state) -> bool: ...

    @abstractmethod
    def winner(self, state) -> str | None: ...

    @abstractmethod
    def stopped(self, state) -> Stop | None:
        """Why the game waits for a judge, if it does."""

    @abstractmethod
    def players(self, state) -> list[str]:
        """Every seat of the game, in seat order (those out of the game included)."""

    def returns(self, state) -> dict[str, float]:
        """Each player's result: 1 for the winner, 0 for the others; a game not over (or
        undecided) gives every player an equal share."""
        seats = self.players(state)
        won = self.winner(state)
        if won is None:
            return {p: 1 / len(seats) for p in seats}
        return {p: 1.0 if p == won else 0.0 for p in seats}

    # -- what a player may know ----------------------------------------------------------------
    @abstractmethod
    def view(self, state, player: str):
        """What ``player`` may know of the state: the open table, their own hand, counts of
        what is hidden, and what card effects showed them; never another player's hand or a
        deck's order. The only state a policy reads. Two states that differ only in what
        ``player`` cannot know give equal views."""

    @abstractmethod
    def sample(self, view, rng: Random):
        """A whole state consistent with ``view`` (a determinization): what the viewer cannot
        see dealt at random from ``rng``, and chance from then on drawn from a generator seeded
        from ``rng``."""

    # -- records ---------------------------------------------------------------------------------
    @abstractmethod
    def log_entry(self, state, action):
        """The action as a game log writes it (asked before it is applied)."""

    @abstractmethod
    def action_text(self, state, action) -> str:
        """The action on one line, as a person reads it (``p1 stat weight``)."""

    @abstractmethod
    def game_log(self, state, entries: list, *, house_rules: HouseRules, seed: int) -> dict:
        """A played game (dealt with ``record=True``) as a log ``referee check`` replays:
        the deal, the house rules in force spelled out, the entries."""

    def deal_gaps(self, state) -> list[GapMet]:
        """The gaps the deal itself met (before any action)."""
        return []

    def facts(self, state) -> dict:
        """Facts of a finished game a simulation's report counts, as ``{name: bool}`` (for
        example whether a Final Showdown was reached). See :attr:`Game.record_facts`."""
        return {}

    @abstractmethod
    def turns(self, state) -> int:
        """How many turns the game has had (for ``--max-turns`` and game lengths)."""

    @abstractmethod
    def summary(self, state) -> dict:
        """The state as JSON-able facts (a checked log's ``final``)."""

    # -- the referee driver ----------------------------------------------------------------------
    @abstractmethod
    def read_log(self, log: dict, path: str | None, house_rules: dict, index
                 ) -> tuple[Any, list[Step], Outcome | None]:
        """A log read into (the dealt game, its steps, the deal's outcome or None); an action
        the log cannot express is a DeckcliError naming its line."""

    @abstractmethod
    def tried(self, state, player: str | None = None) -> list[tuple[Any, Outcome]]:
        """(action, its outcome on a copy) for every action the referee accepts next
        (``referee legal``): exact, and slower than :meth:`choices`."""

    @abstractmethod
    def describe(self, final: dict) -> str:
        """Where a checked game stands, in a line (``final``: :meth:`summary`)."""

    @abstractmethod
    def position(self, state) -> dict:
        """Where the game stands, as ``referee legal`` reports it (turn, phase, who acts)."""
