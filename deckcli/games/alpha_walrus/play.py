"""alpha-walrus behind the game interface (:class:`deckcli.games.base.Engine`).

A state is a :class:`~.engine.Match`; an action is a mapping ``{player, do, ...}`` exactly as
a game log writes it (see :mod:`.engine`). The referee driver (:mod:`deckcli.games.replay`)
and the simulator play through :meth:`apply`.
"""

from __future__ import annotations

import copy
import random

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus import GAME, knowledge
from deckcli.games.alpha_walrus import decisions as dec
from deckcli.games.alpha_walrus.engine import Match
from deckcli.games.alpha_walrus.engine_play import needs_target
from deckcli.games.alpha_walrus.state import HAND_MAX, PHASES, Player, State
from deckcli.games.house import HouseRules
from deckcli.games.interface import Engine, Outcome, Step

MAX_ACTIONS = 10_000


def game_rng(seed: int) -> random.Random:
    """The generator of a game's dice and shuffles after the deal (a log's ``seed``)."""
    return random.Random(f"alpha-walrus:{seed}:game")


class AlphaWalrusEngine(Engine):
    game = GAME
    uses_index = True  # actions name cards by reference, looked up in the index

    def __init__(self):
        self._cards: tuple = (None, None)  # (index, its Cards): one a process

    def new_game(self, decks, *, seats=None, seed: int, house_rules: HouseRules,
                 first: str | None = None, index=None, record: bool = False) -> Match:
        """``decks``: ``{"shared": cards}``, the shared deck (``cardref.Card``) in decklist
        order; ``seats``: seat names (default p1, p2), the first takes the first turn. Dealt
        as ``deckcli setup --seed`` deals."""
        from deckcli.games.alpha_walrus.setup import deal_items

        names = list(seats or ("p1", "p2"))
        shared = decks["shared"]
        centre, hands, deck, _ = deal_items([(c, c.kind) for c in shared],
                                            random.Random(seed), names)
        table = {n: Player(n, list(hands[n])) for n in names}
        state = State(table, names, list(deck), [], centre, game_rng(seed))
        match = Match(state, self._cards_of(index), house_rules)
        if record:
            match.start = self.table(match)
        return match

    def _cards_of(self, index):
        if index is None:
            from deckcli.games.alpha_walrus.cardref import default_cards

            return default_cards()
        if self._cards[0] is not index:
            from deckcli.games.alpha_walrus.cardref import Cards

            self._cards = (index, Cards(index))
        return self._cards[1]

    def action_key(self, action) -> tuple:
        """An action (a mapping) as a hashable key: its items, nested ones too."""
        return _frozen(action)

    def clone(self, state: Match) -> Match:
        other = Match(copy.deepcopy(state.state), state.cards, state.house)
        other.showdowns, other.quiet = state.showdowns, state.quiet
        return other

    def quiet(self, state: Match) -> None:
        state.quiet = True



    def players(self, state: Match) -> list[str]:
        return list(state.state.order)

    def facts(self, state: Match) -> dict:
        return {"showdown": state.showdowns > 0}

    def sample(self, view, rng) -> Match:
        """A game consistent with ``view``: the cards the viewer cannot see (the other hands
        and the deck) shuffled from ``rng`` and dealt back in the same numbers, dice and
        reshuffles from then on from a generator seeded from ``rng``. A card the viewer has
        seen in a hand (or that a waiting decision names there) stays in it."""
        match = view.match
        st = copy.deepcopy(match.state)
        me = view.player
        known = st.known.get(me, {})
        kept: dict[str, list] = {}  # player -> the cards of their hand the viewer knows
        hidden = list(st.deck)
        for n, p in st.players.items():
            if n != me:
                hidden += p.hand
        # a card a waiting decision names (one being summoned, say, while its owner's
        # opponents may cancel it) was announced: it stays in its owner's hand
        announced: dict[str, list] = {}
        for d in st.pending:
            owner = (d.get("data") or {}).get("player")
            if d.get("card") and isinstance(owner, str) and owner in st.players and owner != me:
                card = match.cards.find(d["card"])
                if card is not None and st.players[owner].holds(card) is not None:
                    announced.setdefault(owner, []).append(card)
        for n, p in st.players.items():
            if n == me:
                continue
            kept[n] = []
            wanted = list(announced.get(n, ()))
            ids = [c.id for c in wanted]
            for c in known.get(f"hand:{n}", ()):  # a card both seen and announced: once
                if c.id in ids:
                    ids.remove(c.id)
                else:
                    wanted.append(c)
            for c in wanted:
                i = next((k for k, h in enumerate(hidden) if h.id == c.id), None)
                if i is not None and len(kept[n]) < len(p.hand):
                    kept[n].append(hidden.pop(i))
        top = []
        for c in known.get("deck", ()):
            i = next((k for k, h in enumerate(hidden) if h.id == c.id), None)
            if i is not None:
                top.append(hidden.pop(i))
        rng.shuffle(hidden)
        for n, p in st.players.items():
            if n != me:
                need = len(p.hand) - len(kept[n])
                p.hand, hidden = kept[n] + hidden[:need], hidden[need:]
        st.deck = top + hidden
        st.rng = random.Random(rng.getrandbits(64))
        other = Match(st, match.cards, match.house)
        other.showdowns, other.quiet = match.showdowns, True
        return other

    def apply(self, state: Match, action) -> Outcome:
        return state.apply(action)

    def choices(self, state: Match) -> tuple[str | None, list]:
        return self.to_move(state), self.legal_actions(state)

    def legal_actions(self, state: Match) -> list:
        """The legal actions of the player to move, for a simulation: the answers to the
        decision that waits, else the candidates that can be legal at this point of the turn
        (:func:`worth_trying`), each tried on a copy; a 'recover' that changes nothing (the
        Recover Phase has begun) is left out."""
        st = state.state
        if st.pending:
            return dec.actions(st.pending[0])
        return [a for a, _out in self.tried(state, self.to_move(state), quick=True)]

    def tried(self, state: Match, player: str | None = None, *, quick: bool = False) -> list:
        """(action, outcome on a copy) for every candidate the referee accepts as it stands:
        legal, breaking no earlier rule, and not out of turn order."""
        found = []
        if state.state.pending:
            pool = dec.actions(state.state.pending[0])
        else:
            pool = candidates(state)
        if quick:
            pool = [a for a in pool if worth_trying(state, a)]
        st, rng_state = state.state, state.state.rng.getstate()  # one state: copied for each
        for action in pool:
            if player is not None and action["player"] != player:
                continue
            trial = Match(st.copy(rng_state), state.cards, state.house)
            out = trial.apply(action, 0, rollback=False)
            if out.ok and not out.breaches and not any(g.key == "turn_order"
                                                       for g in out.gaps):
                found.append((action, out))
        return found

    def is_over(self, state: Match) -> bool:
        return state.state.winner is not None or state.state.drawn

    def winner(self, state: Match) -> str | None:
        return state.state.winner

    def stopped(self, state: Match):
        return None  # alpha-walrus goes on with provisional readings; it never waits

    def to_move(self, state: Match) -> str | None:
        st = state.state
        if st.winner is not None or st.drawn:
            return None
        if st.pending:
            return st.pending[0]["player"]
        if st.turn is not None:
            return st.turn.player
        live = st.live()
        if st.last_player is None:
            return live[0]
        i = st.order.index(st.last_player)
        ring = st.order[i + 1:] + st.order[: i + 1]
        return next(p for p in ring if p in live)

    def view(self, state: Match, player: str) -> View:
        """Own hand, every field and gear, counts of the other hands and of the deck, the
        discard pile (open), the round and whose turn it is."""
        st = state.state
        return View(state, {"player": player, "round": st.round,
                "turn": st.turn.player if st.turn else None,
                "phase": st.turn.phase if st.turn else None,
                "hand": list(st.players[player].hand),
                "fields": {n: [(c.card, list(c.equipment)) for c in p.field]
                           for n, p in st.players.items()},
                "gear": {n: list(p.gear) for n, p in st.players.items()},
                "hand_sizes": {n: len(p.hand) for n, p in st.players.items()},
                "deck_size": len(st.deck), "discard": list(st.discard),
                "out": [n for n, p in st.players.items() if p.out],
                "centre": st.centre, "known": knowledge.view(st, player),
                "battle": _battle_view(st),
                "turn_state": {"discard_drew": st.turn.discard_drew,
                               "draw_ability": st.turn.draw_ability,
                               "summoned": st.turn.summoned, "alone": st.turn.alone,
                               "battles": st.turn.battles} if st.turn else None,
                "deciding": st.pending[0] if st.pending and
                st.pending[0]["player"] == player else None})

    def log_entry(self, state: Match, action) -> dict:
        return dict(action)

    def action_text(self, state: Match, action) -> str:
        return entry_text(action)

    def game_log(self, state: Match, entries: list, *, house_rules: HouseRules,
                 seed: int) -> dict:
        """A log of the game from its deal (dealt with ``record``): the hands and deck order
        as dealt (:meth:`table`), the seed for the dice, the house rules in force spelled
        out."""
        return {"game": GAME.id, "seed": seed, "players": list(state.state.order),
                "setup": state.start,
                "house_rules": {h["key"]: h["value"] for h in house_rules.used()},
                "actions": entries}

    def table(self, state: Match) -> dict:
        """The table as a log's explicit ``setup`` writes it (cards by reference)."""
        st = state.state
        return {"hands": {n: [c.ref for c in st.players[n].hand] for n in st.order},
                "deck": [c.ref for c in st.deck], "discard": [c.ref for c in st.discard],
                "centre": st.centre.ref if st.centre else None, "round": st.round}

    def turns(self, state: Match) -> int:
        st = state.state
        return (st.round - 1) * len(st.order) + len(st.turns_this_round)

    def summary(self, state: Match) -> dict:
        return state.state.to_json()

    # -- what the referee driver asks of a game ----------------------------------------------
    def read_log(self, log: dict, path: str | None, house_rules: dict, index):
        """The dealt game and the log's actions (each checked when applied)."""
        from deckcli.games.alpha_walrus.cardref import Cards
        from deckcli.games.alpha_walrus.state import initial_state
        from deckcli.yamlio import line_of

        if log.get("game", GAME.id) != GAME.id:
            raise DeckcliError(f"this log is for {log.get('game')!r}, not {GAME.id}", path=path)
        raw = log.get("house_rules") or {}
        if not isinstance(raw, dict):
            raise DeckcliError("'house_rules' maps house-rule keys to values", path=path,
                               line=line_of(log, "house_rules"))
        try:
            house = GAME.house_rules({**raw, **(house_rules or {})})
        except DeckcliError as exc:
            raise DeckcliError(exc.message, path=path, line=line_of(log, "house_rules")) \
                from None
        cards = Cards(index)
        try:
            state = initial_state(log, path, cards)
        except DeckcliError as exc:
            exc.path = exc.path or path
            raise
        actions = log.get("actions") or []
        if len(actions) > MAX_ACTIONS:
            raise DeckcliError(f"a log holds at most {MAX_ACTIONS:,} actions", path=path)
        steps = []
        for i, action in enumerate(actions):
            player = action.get("player") if isinstance(action, dict) else None
            verb = str(action.get("do", "")) if isinstance(action, dict) else ""
            steps.append(Step(i + 1, line_of(actions, i), entry_text(action), player, verb,
                              action))
        return Match(state, cards, house), steps, None

    def describe(self, final: dict) -> str:
        winner = f", winner {final['winner']}" if final["winner"] else (
            ", a draw (AW-G.30)" if final.get("drawn") else "")
        return (f"round {final['round']}, turn {final['turn'] or '-'}{winner}; deck "
                f"{final['deck']}, discard {final['discard']}")

    def position(self, state: Match) -> dict:
        st = state.state
        return {"round": st.round, "active": st.turn.player if st.turn else None,
                "phase": st.turn.phase if st.turn else None}


def _battle_view(st) -> dict | None:
    """The battle being fought, as everyone sees it."""
    b = st.battle
    if b is None:
        return None
    return {"attacker": b["attacker"], "target": b["target"], "stake": b["stake"],
            "stage": b["stage"], "matches": [list(m) for m in b["matches"]],
            "next": b["next"],
            "cards": [[side, card.ref, k] for side, card, k in b["cards"]]}


class View(dict):
    """What one player may know, as a mapping (see ``AlphaWalrusEngine.view``); ``player`` is
    the viewer. It keeps the game it was made of only for :meth:`AlphaWalrusEngine.sample`,
    which deals what the viewer cannot see again: a policy reads the mapping alone."""

    def __init__(self, match, seen: dict):
        super().__init__(seen)
        self.player = seen["player"]
        self.match = match

    def public(self) -> dict:
        return dict(self)


def _frozen(value):
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def entry_text(action) -> str:
    """An action as one line: ``alice battle target=bob stake=gear``."""
    if not isinstance(action, dict):
        return str(action)
    head = [str(action.get("player", "?")), str(action.get("do", "?"))]
    head += [f"{k}={_short(v)}" for k, v in action.items() if k not in ("player", "do")]
    return " ".join(head)


def _short(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    return str(value)


#: the phase each kind of action belongs to (AW-3.1): an action whose phase has passed is
#: illegal (engine.Match.gate), so a simulation need not try it
_LATEST = {"summon": 1, "equip": 1, "place-gear": 1, "summon-alpha": 1, "battle": 2,
           "attack": 2, "discard": 3, "recover": 3}


def worth_trying(state: Match, action: dict) -> bool:
    """False for a candidate the engine is sure to refuse here, or that changes nothing: its
    phase is over (AW-3.1), no battle before round 3 (AW-1.6), a Recover discard with seven
    cards or fewer (AW-5.2), making room on a field that has room or none on a full one
    (AW-7.1, AW-7.2), the Alpha Walrus without four gear pieces (AW-8.1), a second
    'recover'. The rest are tried."""
    st = state.state
    t = st.turn
    do = action["do"]
    if t is None:
        return True
    now = PHASES.index(t.phase)
    latest = _LATEST.get(do)
    if latest is not None and now > latest:
        return False
    p = st.players[action["player"]]
    if do == "recover":
        return now < 3
    if do in ("battle", "attack"):
        return st.round > 2 and bool(p.field)
    if do == "discard":
        return len(p.hand) > HAND_MAX
    if do == "summon":
        full = len(p.field) >= p.field_limit()
        return full == ("discard" in action)
    if do == "summon-alpha":
        return len(p.gear) >= 4
    return True


def candidates(state: Match) -> list[dict]:
    """Concrete next actions worth trying at this point of the game (not yet judged)."""
    st = state.state
    if st.winner is not None or st.drawn:
        return []
    t = st.turn
    if t is None:
        return [{"player": p, "do": "draw"} for p in st.live()]
    me = t.player
    p = st.players[me]
    out: list[dict] = []
    distinct = list({c.id: c for c in p.hand}.values())
    opponents = [o for o in st.live() if o != me]
    for c in distinct:
        ref = c.ref
        if c.kind == "creature":
            out.append({"player": me, "do": "summon", "card": ref})
            for k in range(len(p.field)):
                out.append({"player": me, "do": "summon", "card": ref, "discard": k + 1})
        elif c.kind == "equipment":
            out += [{"player": me, "do": "equip", "card": ref, "to": k + 1}
                    for k in range(len(p.field))]
        elif c.kind == "gear":
            out.append({"player": me, "do": "place-gear", "card": ref})
        elif c.kind in ("action", "diplomacy") and not c.effect("cancel"):
            if needs_target(c):
                out += [{"player": me, "do": "play", "card": ref, "target": o} for o in opponents]
            else:
                out.append({"player": me, "do": "play", "card": ref})
        out.append({"player": me, "do": "discard-draw", "card": ref})
        if len(p.hand) > HAND_MAX:
            out.append({"player": me, "do": "discard", "cards": [ref]})
    for o in opponents:  # declared; the defender's choices and the rest follow as decisions
        for stake in ("gear", "hand"):
            out.append({"player": me, "do": "attack", "target": o, "stake": stake})
    for k, creature in enumerate(p.field):  # abilities (Ringed Seal, Caribou)
        if any(e.get("when") == "activated" for e in creature.card.effects):
            out.append({"player": me, "do": "activate", "card": k + 1})
    out.append({"player": me, "do": "summon-alpha"})
    out += [{"player": me, "do": "recover"}, {"player": me, "do": "end"}]
    return out


ENGINE = AlphaWalrusEngine()
