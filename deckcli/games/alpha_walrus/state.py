"""The table during an alpha-walrus game: hands, fields, gear, deck, discard pile, whose turn.

Card movements that a rule governs live here so every path applies them the same way:
discarding a creature takes its equipment along (AW-6.1, AW-7.2) unless the equipment
``survives_discard``; discarded gear is shuffled back into the deck (AW-5.3); the limits on
the field (AW-7.1) and on armor (AW-6.2) read card data (``field_limit``, ``armor_limit``).

A log starts either from ``deck:`` (dealt by :func:`.setup.deal` with the log's ``seed``) or from
an explicit ``setup:`` (hands, deck, optionally fields, gear, discard pile and the round).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from dataclasses import field as dfield

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus.cardref import Card
from deckcli.games.base import MAX_PLAYERS
from deckcli.yamlio import line_of

PHASES = ("draw", "play", "battle", "recover")
HAND_MIN, HAND_MAX = 5, 7  # AW-1.5
FIELD_LIMIT = 4  # AW-7.1
ARMOR_LIMIT = 2  # AW-6.2


def draws_for_level(level: int) -> tuple[int, str]:
    """AW-2.3 to AW-2.5: cards drawn for discarding a creature of this level."""
    if level >= 9:
        return 3, "AW-2.5"
    if level >= 6:
        return 2, "AW-2.4"
    return 1, "AW-2.3"


@dataclass
class Creature:
    card: Card
    equipment: list[Card] = dfield(default_factory=list)
    uid: int = 0  # this creature's time on the field (abilities once a turn go by it)

    @property
    def armor(self) -> int:
        return sum(1 for e in self.equipment if e.armor)

    def armor_limit(self, extra: Card | None = None) -> int:
        """AW-6.2: two, unless worn equipment says more (effect armor_limit)."""
        worn = self.equipment + ([extra] if extra else [])
        values = [int(e2.get("value", 0)) for e in worn for e2 in e.effect("armor_limit")]
        return max([ARMOR_LIMIT, *values])

    def copy(self) -> Creature:
        return Creature(self.card, list(self.equipment), self.uid)

    def to_json(self) -> dict:
        return {"card": self.card.ref, "level": self.card.level,
                "equipment": [e.ref for e in self.equipment]}


@dataclass
class Player:
    name: str
    hand: list[Card] = dfield(default_factory=list)
    field: list[Creature] = dfield(default_factory=list)
    gear: list[Card] = dfield(default_factory=list)
    out: bool = False

    def field_limit(self, without: int | None = None) -> int:
        """AW-7.1: four, unless equipment worn on this field says more (effect field_limit)."""
        values = [int(e2.get("value", 0)) for i, c in enumerate(self.field) if i != without
                  for e in c.equipment for e2 in e.effect("field_limit")]
        return max([FIELD_LIMIT, *values])

    def holds(self, card: Card) -> int | None:
        for i, c in enumerate(self.hand):
            if c.id == card.id:
                return i
        return None

    def to_json(self) -> dict:
        return {"hand": len(self.hand), "hand_cards": [c.ref for c in self.hand],
                "field": [c.to_json() for c in self.field], "gear": [g.ref for g in self.gear],
                "out": self.out}


@dataclass
class Turn:
    player: str
    phase: str = "draw"
    drew: bool = False
    discard_drew: bool = False
    draw_ability: str | None = None  # another draw ability used this turn (AW-2.2)
    lucky_flipper: bool = False
    battles: int = 0
    summoned: int = 0  # creatures summoned this turn (Grizzly Bear summons alone)
    alone: bool = False  # a creature that summons alone was summoned this turn
    used: list = dfield(default_factory=list)  # uids of creatures whose ability was used
    triggered_draw: bool = False  # a creature's text drew for this turn's player (AW-G.29)

    def copy(self) -> Turn:
        return Turn(self.player, self.phase, self.drew, self.discard_drew, self.draw_ability,
                    self.lucky_flipper, self.battles, self.summoned, self.alone,
                    list(self.used), self.triggered_draw)


@dataclass
class State:
    players: dict[str, Player]
    order: list[str]
    deck: list[Card]
    discard: list[Card] = dfield(default_factory=list)
    centre: Card | None = None
    rng: random.Random = dfield(default_factory=lambda: random.Random(0))
    round: int = 1
    turn: Turn | None = None
    last_player: str | None = None
    turns_this_round: list[str] = dfield(default_factory=list)
    protections: list[dict] = dfield(default_factory=list)
    alpha_gear: list[Card] = dfield(default_factory=list)
    winner: str | None = None
    #: decisions waiting for a player (the first is the one asked now): see .decisions
    pending: list = dfield(default_factory=list)
    #: card text waiting to act, in order (see .effects)
    queue: list = dfield(default_factory=list)
    #: the battle being fought, step by step (see .engine_battle), or None
    battle: dict | None = None
    #: what each player knows of hidden cards: player -> {"hand:NAME": [cards],
    #: "deck": [top cards in order], "told": [facts]} (see .knowledge)
    known: dict = dfield(default_factory=dict)
    next_uid: int = 1
    #: how often each table came back at a turn's start (AW-G.30), and whether it ended so
    seen: dict = dfield(default_factory=dict)
    drawn: bool = False

    def __deepcopy__(self, memo):
        """A copy for trying an action: cards are immutable and shared, containers are new."""
        return self.copy()

    def copy(self, rng_state: tuple | None = None) -> State:
        """``copy.deepcopy(self)``; ``rng_state``: ``self.rng.getstate()`` when the caller took
        it already (once for the many copies of one state that trying each action makes). The
        generator's copy is made without seeding it first (a seed from the system costs more
        than the copy)."""
        rng = random.Random.__new__(type(self.rng))
        rng.setstate(self.rng.getstate() if rng_state is None else rng_state)
        players = {n: Player(n, list(p.hand), [c.copy() for c in p.field], list(p.gear),
                             p.out)
                   for n, p in self.players.items()}
        turn = self.turn.copy() if self.turn is not None else None
        return State(players, list(self.order), list(self.deck), list(self.discard),
                     self.centre, rng, self.round, turn, self.last_player,
                     list(self.turns_this_round), [dict(p) for p in self.protections],
                     list(self.alpha_gear), self.winner, _deep(self.pending),
                     _deep(self.queue), _deep(self.battle), _deep(self.known),
                     self.next_uid, dict(self.seen), self.drawn)

    def uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1

    def creature(self, owner: str, uid: int) -> tuple[int, Creature] | None:
        """(position, creature) of the creature ``uid`` on ``owner``'s field, if it is there."""
        for i, c in enumerate(self.players[owner].field):
            if c.uid == uid:
                return i, c
        return None

    def live(self) -> list[str]:
        return [p for p in self.order if not self.players[p].out]

    def card_total(self) -> int:
        """Every card still in the game (conserved by every legal action)."""
        n = len(self.deck) + len(self.discard) + len(self.alpha_gear)
        if self.battle is not None:  # battle cards played and not yet spent (AW-4.9)
            n += len(self.battle["cards"])
        for p in self.players.values():
            n += len(p.hand) + len(p.gear) + sum(1 + len(c.equipment) for c in p.field)
        return n

    # -- card movements ------------------------------------------------------------------
    def draw(self, player: str, n: int, house, gaps: list, events: list) -> list[Card]:
        """Draw n cards; AW-G.6 when the deck is empty."""
        got = []
        for _ in range(n):
            if not self.deck:
                mode = house.value("empty_deck")
                if mode == "reshuffle" and self.discard:
                    self.deck = list(self.discard)
                    self.discard.clear()
                    self.rng.shuffle(self.deck)
                    _known_shuffled(self)
                gaps.append(house.record("empty_deck", f"{player} draws from an empty deck",
                                      "the discard pile was shuffled into a new deck"
                                      if self.deck else "nothing is drawn"))
                if not self.deck:
                    break
            got.append(self.deck.pop(0))
            _known_drew(self)
        self.players[player].hand.extend(got)
        if got:
            events.append(f"{player} draws {len(got)}")
        return got

    def to_discard(self, card: Card, events: list) -> None:
        """Discard one card; gear is shuffled back into the deck instead (AW-5.3)."""
        if card.kind == "gear":
            pos = self.rng.randint(0, len(self.deck))
            self.deck.insert(pos, card)
            _known_shuffled(self)
            events.append(f"{card.ref} shuffled back into the deck (AW-5.3)")
        else:
            self.discard.append(card)

    def discard_creature(self, owner: str, idx: int, events: list) -> Creature:
        """AW-6.1 / AW-7.2: the creature goes, and its equipment with it unless it survives."""
        p = self.players[owner]
        creature = p.field.pop(idx)
        self.to_discard(creature.card, events)
        for e in creature.equipment:
            if e.survives_discard:
                p.hand.append(e)
                events.append(f"{e.ref} returns to {owner}'s hand (its survives_discard effect)")
            else:
                self.to_discard(e, events)
        return creature

    def shuffle_into_deck(self, cards: list[Card]) -> None:
        self.deck.extend(cards)
        self.rng.shuffle(self.deck)
        _known_shuffled(self)

    def to_json(self) -> dict:
        t = self.turn
        out = {"round": self.round, "turn": t.player if t else None, "drawn": self.drawn,
               "phase": t.phase if t else None, "winner": self.winner,
               "centre": self.centre.ref if self.centre else None,
               "deck": len(self.deck), "discard": len(self.discard),
               "players": {n: self.players[n].to_json() for n in self.order}}
        if self.pending:  # a decision waits: who decides what (AW-11.2)
            d = self.pending[0]
            out["waiting"] = {"player": d["player"], "decision": d["kind"], "card": d["card"],
                              "prompt": d["prompt"]}
        return out


def _known_drew(st) -> None:
    if st.known:
        from deckcli.games.alpha_walrus.knowledge import drew

        drew(st, 1)


def _known_shuffled(st) -> None:
    if st.known:
        from deckcli.games.alpha_walrus.knowledge import deck_changed

        deck_changed(st)


def _deep(value):
    """A copy of plain data (dicts, lists, tuples of cards, numbers and text): containers
    new, cards shared (they are immutable)."""
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    if isinstance(value, Creature):
        return value.copy()
    return value


# ------------------------------------------------------------------------------- loading
def _names(log: dict) -> tuple[list[str], bool]:
    raw = log.get("players")
    if raw is None:
        return ["p1", "p2"], True
    if isinstance(raw, bool) or not isinstance(raw, (int, list)):
        raise DeckcliError("'players' is a number (2 or more) or a list of names")
    if isinstance(raw, int):
        if not 2 <= raw <= MAX_PLAYERS:
            raise DeckcliError(f"'players' must be 2 to {MAX_PLAYERS}, not {raw}")
        return [f"p{i + 1}" for i in range(raw)], False
    names = [str(x) for x in raw]
    if len(names) < 2 or len(set(names)) != len(names) or len(names) > MAX_PLAYERS:
        raise DeckcliError(f"'players' lists 2 to {MAX_PLAYERS} different names")
    return names, False


def _seed(log: dict) -> int:
    seed = log.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DeckcliError("'seed' is a whole number")
    return seed


def _cards(cards, value, what: str, kinds: tuple[str, ...] = ()) -> list[Card]:
    """The cards a setup list names; with ``kinds``, each must be of one of them (a Goamph
    on the field would otherwise fight as a creature of level 0). A problem names the
    list's line."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise DeckcliError(f"{what} is a list of cards", line=line_of(value))
    return [_card(cards, v, what, kinds, line_of(value, i)) for i, v in enumerate(value)]


def _card(cards, ref, what: str, kinds: tuple[str, ...] = (), line: int | None = None):
    try:
        card = cards.find(ref)
    except DeckcliError as exc:
        exc.line = exc.line or line
        raise
    if kinds and card.kind not in kinds:
        raise DeckcliError(f"{what}: {card.ref} is {card.a_kind}, not "
                           f"{' or '.join(_A_KIND.get(k, k) for k in kinds)}", line=line)
    return card


_A_KIND = {"creature": "a creature", "gear": "an Alpha Walrus gear piece",
           "equipment": "equipment", "alpha-walrus": "the Alpha Walrus"}


def initial_state(log: dict, path: str | None, cards) -> State:
    names, _ = _names(log)
    seed = _seed(log)
    rng = random.Random(f"alpha-walrus:{seed}:game")
    if "deck" in log and "setup" not in log:
        return _dealt_state(log, path, cards, names, seed, rng)
    setup = log.get("setup")
    if not isinstance(setup, dict):
        raise DeckcliError("a game log gives 'deck' (a decklist to deal from) or 'setup' "
                           "(hands and deck)", path=path)
    hands = setup.get("hands") or {}
    if not isinstance(hands, dict) or set(map(str, hands)) - set(names):
        raise DeckcliError("setup.hands maps player names (from 'players') to lists of cards",
                           path=path)
    players = {n: Player(n, _cards(cards, hands.get(n), f"setup.hands.{n}")) for n in names}
    for key, attr in (("gear", "gear"),):
        for n, value in (setup.get(key) or {}).items():
            if str(n) not in players:
                raise DeckcliError(f"setup.{key} names an unknown player {n!r}", path=path)
            setattr(players[str(n)], attr,
                    _cards(cards, value, f"setup.{key}.{n}", ("gear",)))
    for n, value in (setup.get("field") or {}).items():
        if str(n) not in players or not isinstance(value, list):
            raise DeckcliError("setup.field maps player names to lists of creatures", path=path)
        where = f"setup.field.{n}"
        for i, item in enumerate(value):
            line = line_of(value, i)
            if isinstance(item, dict):
                c = Creature(_card(cards, item.get("creature"), where, ("creature",), line),
                             _cards(cards, item.get("equipment"), f"{where} equipment",
                                    ("equipment",)))
            else:
                c = Creature(_card(cards, item, where, ("creature",), line))
            players[str(n)].field.append(c)
    centre = setup.get("centre", "Alpha Walrus")
    state = State(players, names, _cards(cards, setup.get("deck"), "setup.deck"),
                  _cards(cards, setup.get("discard"), "setup.discard"),
                  _card(cards, centre, "setup.centre", ("alpha-walrus",), line_of(setup, "centre"))
                  if centre else None, rng)
    rnd = setup.get("round", 1)
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
        raise DeckcliError("setup.round is a whole number of at least 1", path=path)
    state.round = rnd
    for p in state.players.values():  # creatures on a log's table get their uids as summoned
        for c in p.field:
            c.uid = state.uid()
    return state


def _dealt_state(log, path, cards, names, seed, rng) -> State:
    from deckcli.decks.linked import linked_path, not_a_decklist
    from deckcli.decks.reader import read_deck
    from deckcli.decks.resolve import resolve_deck
    from deckcli.games.alpha_walrus.setup import deal

    deck_path = log["deck"]
    if not isinstance(deck_path, str) or not deck_path.strip():
        from deckcli.yamlio import a_kind_of

        shown = "empty" if isinstance(deck_path, str) else a_kind_of(deck_path)
        raise DeckcliError(f"deck: should be the path of the shared deck's file, not {shown}",
                           path=path, line=line_of(log, "deck"))
    if path:  # a log from a stranger reads nothing outside its folder (EV-3.2)
        deck_path, refused = linked_path(path, deck_path)
        if refused:
            raise DeckcliError(f"{refused} [rule EV-3.2]", path=path,
                               line=line_of(log, "deck"))
    index = cards.index
    d = read_deck(deck_path, is_set=index.is_any_set_code)
    if path and not d.entries:
        raise DeckcliError(not_a_decklist(deck_path), path=path, line=line_of(log, "deck"))
    rdeck = resolve_deck(index, d, "alpha-walrus", None)
    rdeck.problems[:0] = list(d.problems)
    result = deal(rdeck, seed=seed, players=len(names), index=index)
    if result["problems"]:
        first = result["problems"][0]
        raise DeckcliError(f"the deck {log['deck']} cannot be dealt for {len(names)} players: "
                           f"{first['message']} (rule {first['rule']})", path=path)
    players = {}
    for n, h in zip(names, result["hands"]):
        players[n] = Player(n, [cards.find(ref) for ref in h["hand"]])
    return State(players, names, [cards.find(ref) for ref in result["deck"]["order"]], [],
                 cards.find(result["centre"]), rng)
