"""What a game is: its metadata and deck side (:class:`Game`), and the card it plays with.

A game registers once (``deckcli/games/__init__.py`` lists the packages; each package's
``__init__`` defines ``GAME``, an instance of a :class:`Game` subclass). Generic code asks the
registry, never a game's modules by name, and then the game object:

* **What a game is**: its id, formats, card kinds with the plural a section header uses, the
  statistics a card list shows, its rules reference and one table of gaps
  (:class:`~deckcli.games.house.Gap`; the house rules in force are :mod:`deckcli.games.house`).
* **Deck side**: ``deck_checks()`` (checks of one deck, the copy limit and deck size a builder
  respects, whether a game can start from a deck), ``setup()`` for ``deckcli setup``,
  ``play_card(card)`` (a card of the index as play reads it).
* **Play side**: ``engine()``, the :class:`~deckcli.games.interface.Engine` (the whole play
  interface: see :mod:`deckcli.games.interface`), and ``policies()``.

The classes here are plain ``__slots__`` classes: this module is imported by every deck check
(see deckcli.records).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from deckcli.games.house import Gap, HouseRules

if TYPE_CHECKING:
    from deckcli.games.interface import Engine

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
    #: what a simulation's report counts of this game's finished games: the name of a fact
    #: (:meth:`~deckcli.games.interface.Engine.facts`) -> (its key in the report, the words a
    #: text report says it with)
    record_facts: dict[str, tuple[str, str]] = {}
    #: ``build`` and ``suggest`` when not told: (games the search plays, fresh games per
    #: opponent for the numbers reported); a game with long games asks for fewer
    build_effort: tuple[int, int] = (3000, 200)
    #: an example of a card search in this game's terms, the placeholder of ``edit``'s filter
    search_example: str = ""

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

    def rules_module(self) -> str:
        """The module of the rules table (it also holds ``CHECKED_IN``: where each rule is
        checked)."""
        return self.parts["rules"].partition(":")[0]

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
        problems)``, ``cannot_start(kinds, players)``, ``deck_size(fmt)`` and
        ``copy_limit(card, event_limit)``; asked once per
        run and kept (a deck check calls it for every deck)."""
        return self._part("deck_checks")

    def check_card_entry(self, entry, rule_exists, unread=frozenset()) -> list:
        """``db check``: problems with one card entry of the database (game-specific data).
        ``unread``: the fields (``text``, ``stats.weight``) whose value broke the schema, left
        out of ``entry`` and reported already: they are there, so never called missing."""
        return self._part("card_entry")(entry, rule_exists, unread)

    def play_card(self, card) -> CardInfo:
        """A card of the index as play reads it (``parts["play_card"]``, else
        :meth:`CardInfo.of`): what ``Engine.new_game`` is dealt."""
        if "play_card" in self.parts:
            return self._part("play_card")(card)
        return CardInfo.of(card)

    def cannot_start(self, kinds, players: int | None) -> str | None:
        """Why no game can start from a deck (``kinds``: its cards' kinds, one a copy), for
        ``players`` at the table; None when one can."""
        return self.deck_checks().cannot_start(list(kinds), players or self.default_players)

    def deck_size(self, fmt: str | None) -> tuple[int, int | None]:
        """(fewest cards, most cards or None) a legal deck of ``fmt`` holds."""
        return self.deck_checks().deck_size(fmt)

    def copy_limit(self, card, event_limit: int | None = None) -> int | None:
        """The copies of ``card`` a legal deck may hold (None: any number), under an event
        that limits it to ``event_limit`` copies."""
        return self.deck_checks().copy_limit(card, event_limit)

    def card_worth(self, book: dict) -> dict:
        """How much each card of ``book`` (card id -> play card) is worth in a first deck,
        from its own figures (``parts["worth"]``); a builder starts from the best. A card
        left out is worth an average card's."""
        if "worth" in self.parts:
            return self._part("worth")(book)
        return {}

    def ladder(self) -> dict:
        """Where the game's players stood on its last measured ladder (``parts["ladder"]``,
        written from a ``benchmarks/ladder.py`` run): ``{"measured": how, "anchor": the
        player rated 0, "players": {policy: {"rating": r, "ci95": [lo, hi]}}}``; empty when
        none was measured."""
        return self._part("ladder") if "ladder" in self.parts else {}

    def deck_style(self, cards: list, book: dict) -> tuple[str, ...]:
        """How a deck of ``cards`` (play cards) plays, in a few words a builder can sort decks
        by (``build --diverse`` keeps the best deck of each style): ``parts["style"]``, given
        ``book`` (card id -> play card: every card the builder could take), else how much of
        the deck is of kinds other than the game's first (:func:`kind_share`)."""
        if "style" in self.parts:
            return self._part("style")(cards, book)
        return (kind_share(cards, self.kinds),)

    def shared_table(self, binder, players: int, index):
        """For a game with one shared deck: what a builder must respect of the deck a table of
        ``players`` is dealt from, over ``binder`` (``parts["table"]``): ``fits(counts)``,
        ``fixed(kind)``, ``first_deck()``, ``mutate(counts, rng)``, ``missing()``."""
        return self._part("table")(binder, players, index)

    def setup(self):
        """The module with ``deal(rdeck, seed=, players=, opponent=, index=)`` and
        ``render(result)`` for ``deckcli setup``."""
        return self._part("setup")

    # -- play side --------------------------------------------------------------------------
    def engine(self) -> Engine:
        """The game's :class:`~deckcli.games.interface.Engine` (one per process)."""
        return self._part("engine")

    def rulings(self) -> list:
        """The game's single rulings (:class:`deckcli.games.rulings.Ruling`), each a
        ``deckcli referee NAME`` subcommand (``parts["rulings"]``; none by default)."""
        return self._part("rulings") if "rulings" in self.parts else []

    def policies(self):
        """The module of the game's own policies for ``simulate``: ``POLICIES`` (name ->
        a callable making the policy), ``ROLLOUT`` and ``evaluate`` (for ``search``)."""
        return self._part("policies")


_SECTIONS: dict[str, dict[str, str]] = {}
_PARTS: dict[tuple[str, str], object] = {}


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
    def of(cls, card) -> Self:
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


def kind_share(cards: list, kinds: dict) -> str:
    """How much of a deck is of kinds other than the first of ``kinds`` (a game's main kind,
    animal-battle's Animals): none, a few (under a sixth) or many, named by the others'
    plural ('no Actions', 'a few Actions', 'many Actions')."""
    names = list(kinds)
    other = " and ".join(kinds[k] for k in names[1:]) or "other cards"
    n = sum(1 for c in cards if c.kind != names[0]) if names else 0
    if not n:
        return f"no {other}"
    return f"a few {other}" if n * 6 < len(cards) else f"many {other}"
