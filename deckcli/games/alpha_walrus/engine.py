"""The alpha-walrus game engine: one recorded action at a time, each checked against its rule.

:class:`Game` applies actions to a :class:`~.state.State`. An illegal action is reported with
the rule it breaks and *not applied* (the state stays as it was), so later steps are judged
against a legal table; the one exception is ``end``, which always ends the turn. Play Phase
actions live in :mod:`.engine_play`, battles and the Final Showdown in :mod:`.engine_battle`.

Actions (``do``) and the phase they belong to (AW-3.1; a later action moves the phase on, an
earlier one is out of order):

=============  ==========================  =============================================
do             phase                       rules
=============  ==========================  =============================================
draw           opens the player's turn     AW-3.2, AW-G.6, AW-G.7, AW-1.6 (rounds)
play           Play/Battle/Recover         AW-2.2 (draw), AW-10.5 (Lucky Flipper: Draw),
                                           AW-4.9 (battle cards), diplomacy
summon         Play                        AW-7.1, AW-7.2, AW-5.1, AW-10.1
equip          Play                        AW-6.1, AW-6.2, AW-5.1, AW-10.2
place-gear     Play                        AW-8.1, AW-5.1
discard-draw   any of the player's turn    AW-2.1 to AW-2.5, AW-10.5, AW-G.11
battle         Battle                      AW-1.6, AW-4.x, AW-10.4, AW-10.6 to AW-10.9
summon-alpha   Play                        AW-8.x, AW-9.x, AW-G.21
recover        Recover                     AW-5.1
discard        Recover                     AW-5.2, AW-5.3, AW-G.22
end            ends the turn               AW-1.5, AW-G.5
=============  ==========================  =============================================
"""

from __future__ import annotations

import copy

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus import GAME, effects, engine_battle, engine_play, engine_showdown
from deckcli.games.alpha_walrus import decisions as dec
from deckcli.games.alpha_walrus.state import HAND_MAX, HAND_MIN, PHASES, State, Turn
from deckcli.games.house import HouseRules
from deckcli.games.interface import Illegal, Outcome
from deckcli.rule import rule_sort_key

ACTIONS = ("draw", "play", "summon", "equip", "place-gear", "discard-draw", "activate",
           "battle", "attack", "summon-alpha", "recover", "discard", "end", "choose", "pass")


class Match:
    """One game being played: the table (:class:`~.state.State`), card look-ups, house rules.

    :meth:`apply` judges one action; while it runs, ``out`` is its :class:`Outcome` and
    ``events`` the lines of its ruling (what happened, in order).
    """

    def __init__(self, state: State, cards, house: HouseRules):
        if not isinstance(house, HouseRules):
            house = GAME.house_rules(house)
        self.state = state
        self.cards = cards
        self.house = house
        self.step = 0
        self.showdowns = 0  # Final Showdowns begun (for a simulation's report)
        self.start: dict | None = None  # the table as dealt, for a game log
        self.quiet = False  # a simulation: no snapshot (an illegal action there is a bug)
        self.out = Outcome(None, "")
        self.events: list = self.out._notes

    # -- the step loop -------------------------------------------------------------------
    def apply(self, action, step: int | None = None, *, rollback: bool = True) -> Outcome:
        """Judge one action (``step``: its number, default the next) and apply it if legal.
        ``rollback=False`` is for a throwaway copy (``legal``): no snapshot is taken."""
        step = self.step + 1 if step is None else step
        if not isinstance(action, dict):
            raise DeckcliError(f"step {step}: an action is a mapping with player and do")
        do = str(action.get("do", "")).strip()
        player = action.get("player")
        if do not in ACTIONS:
            raise DeckcliError(f"step {step}: unknown action do: {do!r} (known: "
                               f"{', '.join(ACTIONS)})")
        if player is None or str(player) not in self.state.players:
            raise DeckcliError(f"step {step}: 'player' must be one of "
                               f"{', '.join(self.state.order)}, not {player!r}")
        player = str(player)
        self.step = step
        out = self.out = Outcome(player, do)
        self.events = out._notes
        # cards are shared: only the containers are new
        saved = copy.deepcopy(self.state) if rollback and not self.quiet else None
        try:
            st = self.state
            if st.winner is not None:
                raise Illegal("AW-9.1", f"the game is over: {st.winner} won it")
            if st.drawn:
                raise Illegal("AW-G.30", "the game ended in a draw: the same table came back "
                                         "a third time (house rule repeated_position=draw)")
            if st.pending:
                waiting = st.pending[0]
                if do in ("choose", "pass") and player != waiting["player"]:
                    raise Illegal("AW-11.2", f"{waiting['player']} decides now: "
                                             f"{waiting['prompt']}")
                if do not in ("choose", "pass"):  # the log moved on: what it did not record
                    dec.close_by_default(self, f"{player}'s {do}")  # was not chosen
            elif do in ("choose", "pass"):
                raise Illegal("AW-11.2", f"no decision waits for {player}")
            if self.state.players[player].out:
                raise Illegal("AW-9.2", f"{player} was removed from the game")
            getattr(self, "do_" + do.replace("-", "_"))(player, action)
            self.settle()
        except Illegal as exc:  # an illegal action changes nothing and settles no gap
            if saved is not None:
                self.state = saved
            out._notes.clear()
            out.gaps.clear()
            out.facts.clear()
            out.remarks.clear()
            out.rules.clear()
            out.breaches = ()
            out.violate(exc.rule, exc.message)
        for g in out.gaps:
            self.cite(g.rule)
        out.rules.sort(key=rule_sort_key)
        return out

    def settle(self) -> None:
        """Run what waits to happen (card text queued, a battle's next stage) until a player
        owes a decision or nothing is left."""
        st = self.state
        guard = 0
        while not st.pending and st.winner is None and guard < 10_000:
            guard += 1
            if st.queue:
                effects.run(self, st.queue.pop(0))
            elif st.battle is not None:
                engine_battle.advance(self)
            else:
                break

    # -- decisions ------------------------------------------------------------------------
    def do_choose(self, player: str, action: dict) -> None:
        decision = self.state.pending[0]
        option = dec.option_of(decision, action)
        if option is None:
            shown = ", ".join(str(o) for o in decision["options"][:12])
            raise Illegal("AW-11.2", f"{player} decides {decision['prompt']}: one of {shown}"
                          + (" (or pass)" if decision["may_pass"] else "")
                          + f", not {action.get('option')!r}")
        self.state.pending.pop(0)
        self.event(f"{player} chooses {option} ({decision['prompt']})")
        self.cite("AW-11.2")
        dec.resolve(self, decision, option)

    def do_pass(self, player: str, action: dict) -> None:
        decision = self.state.pending[0]
        if not decision["may_pass"]:
            raise Illegal("AW-11.2", f"{player} must decide {decision['prompt']}: passing is "
                                     "not an option")
        self.state.pending.pop(0)
        self.event(f"{player} passes ({decision['prompt']})")
        dec.resolve(self, decision, dec.PASS)

    # -- helpers -------------------------------------------------------------------------
    def cite(self, *rules: str) -> None:
        self.out.cite_only(*rules)

    def event(self, text: str) -> None:
        self.events.append(text)

    def gap(self, record) -> None:
        self.out.gaps.append(record)
        self.cite(record.rule)

    def card(self, action: dict, key: str = "card"):
        if action.get(key) is None:
            raise DeckcliError(f"step {self.step}: {action.get('do')} needs '{key}'")
        return self.cards.find(action[key])

    def from_hand(self, player: str, card, rule: str) -> int:
        idx = self.state.players[player].holds(card)
        if idx is None:
            raise Illegal(rule, f"{player} does not hold {card.ref}")
        return idx

    def field_pos(self, player: str, ref, rule: str, taken=()) -> int:
        """A creature on a field: a 1-based position or a card name/reference."""
        field = self.state.players[player].field
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 1 <= ref <= len(field):
                return ref - 1
            raise Illegal(rule, f"{player} has no creature at position {ref} "
                                f"({len(field)} on the field)")
        card = self.cards.find(ref)
        for i, c in enumerate(field):
            if c.card.id == card.id and i not in taken:
                return i
        raise Illegal(rule, f"{player} has no {card.ref} on the field")

    def turn_of(self, player: str) -> Turn:
        t = self.state.turn
        if t is None:
            raise Illegal("AW-3.1", f"no turn is under way; {player}'s turn starts with the "
                                    "Draw Phase (do: draw)")
        if t.player != player:
            raise Illegal("AW-3.1", f"it is {t.player}'s turn, not {player}'s")
        return t

    def gate(self, player: str, phases: tuple[str, ...], late_rule: str = "AW-3.1") -> Turn:
        """AW-3.1: the action's phase must not have passed; move the turn on to it."""
        t = self.turn_of(player)
        cur = PHASES.index(t.phase)
        ahead = [PHASES.index(p) for p in phases if PHASES.index(p) >= cur]
        if not ahead:
            raise Illegal(late_rule, f"{player} is in the {t.phase.title()} Phase; this belongs "
                                     f"to the {' or '.join(p.title() for p in phases)} Phase")
        new = PHASES[min(ahead)]
        if new != t.phase:
            t.phase = new
            self.event(f"{player} moves to the {new.title()} Phase")
        return t

    def field_gate(self, player: str) -> Turn:
        """A card put on the field (a summon, equipment, gear, the Alpha Walrus) belongs to the
        Play Phase (AW-3.3). Once it has passed, the rule broken is the one of the phase the
        turn is in: the Recover Phase puts nothing new on the field (AW-5.1); the Battle Phase
        comes after the Play Phase, which does not come back (AW-3.1)."""
        t = self.turn_of(player)
        return self.gate(player, ("play",), "AW-5.1" if t.phase == "recover" else "AW-3.1")

    def goamph(self, by, target: str, rule: str) -> None:
        """AW-10.1 to AW-10.4: a player answers an action with a Goamph from hand."""
        by = str(by)
        if by not in self.state.players:
            raise DeckcliError(f"step {self.step}: cancelled_by names an unknown player "
                               f"{by!r}")
        if self.state.players[by].out:
            raise Illegal("AW-9.2", f"{by} was removed from the game")
        hand = self.state.players[by].hand
        cancels = [(i, c) for i, c in enumerate(hand) if c.effect("cancel")]
        if not cancels:
            raise Illegal("AW-10.3", f"{by} holds no card that cancels an action (Goamph)")
        fit = [(i, c) for i, c in cancels
               if any(target in e.get("targets", ()) for e in c.effect("cancel"))]
        if not fit:
            targets = sorted({t for _, c in cancels for e in c.effect("cancel")
                              for t in e.get("targets", ())})
            raise Illegal("AW-10.3", f"{cancels[0][1].name} cancels {', '.join(targets)}; "
                                     f"not this action ({target})")
        i, g = fit[0]
        effects.discard_card(self, effects.take(self, by, i), by, "hand", "played")
        self.event(f"{by} plays {g.ref}: the action is cancelled")
        self.cite("AW-10.3", rule)

    # -- Draw Phase and turns ------------------------------------------------------------
    def do_draw(self, player: str, action: dict) -> None:
        st = self.state
        if st.turn is not None and st.turn.player == player:
            raise Illegal("AW-3.2", f"{player} already drew for this turn; the Draw Phase "
                                    "draws one card")
        if st.turn is not None:
            self.end_turn(st.turn.player, implicit=True)
        self.check_turn_order(player)
        st.turn = Turn(player)
        st.turns_this_round.append(player)
        st.last_player = player
        self.event(f"round {st.round}: {player}'s turn")
        if self.repeated(player):
            return
        st.draw(player, 1, self.house, self.out.gaps, self.events)
        st.turn.drew = True
        self.cite("AW-3.1", "AW-3.2")

    def repeated(self, player: str) -> bool:
        """AW-G.30: the table at the start of this turn (every hand, field and gear, the deck
        in order, the discard pile) has been the same at the start of two earlier turns of the
        same player: the game has stopped going anywhere. With repeated_position=draw (the
        provisional reading) it ends there with no winner."""
        st = self.state
        key = hash((player, tuple(
            (tuple(sorted(c.id for c in p.hand)),
             tuple((c.card.id, tuple(e.id for e in c.equipment)) for c in p.field),
             tuple(g.id for g in p.gear), p.out) for p in st.players.values()),
            tuple(c.id for c in st.deck), tuple(sorted(c.id for c in st.discard))))
        seen = st.seen[key] = st.seen.get(key, 0) + 1
        if seen < 3:
            return False
        mode = self.house.value("repeated_position")
        self.gap(self.house.record("repeated_position", f"the table at the start of {player}'s "
                                   "turn is the same for the third time",
                                   "the game ends with no winner" if mode == "draw"
                                   else "play goes on"))
        if mode == "draw":
            st.drawn = True
            self.event("the game ends in a draw: the same table came back a third time")
            return True
        return False

    def check_turn_order(self, player: str) -> None:
        """Rounds (AW-1.6) and turn order (AW-G.7)."""
        st, house = self.state, self.house
        live = st.live()
        if st.turns_this_round and set(live) <= set(st.turns_this_round):
            st.round += 1
            st.turns_this_round = []
        mode = house.value("turn_order")
        if house.settled("turn_order"):
            self.cite("AW-G.7")
        if len(live) < len(st.order):
            self.cite("AW-9.4")
        if player in st.turns_this_round:
            if house.settled("turn_order"):
                raise Illegal("AW-G.7", f"{player} already had a turn in round {st.round}")
            self.gap(house.record("turn_order", f"{player} takes a second turn in round "
                                  f"{st.round}", f"a new round ({st.round + 1}) starts"))
            st.round += 1
            st.turns_this_round = []
            return
        if mode != "listed":
            return
        if st.last_player is None:
            expected = live[0]
        else:
            i = st.order.index(st.last_player)
            ring = st.order[i + 1:] + st.order[: i + 1]
            expected = next(p for p in ring if p in live)
        if player != expected:
            if house.settled("turn_order"):
                raise Illegal("AW-G.7", f"{expected} takes the next turn, not {player}")
            self.gap(house.record("turn_order", f"{player} takes the turn after "
                                  f"{st.last_player or 'the deal'}; seat order names "
                                  f"{expected}", f"{player}'s turn is accepted"))

    def end_turn(self, player: str, implicit: bool = False) -> None:
        """AW-5.2 (no more than seven cards) and AW-G.5 (fewer than five) when a turn ends.

        An ``end`` over the limit is illegal and changes nothing: the turn goes on, and the
        player can still discard in the Recover Phase. A turn that ends without ``end``, by
        the next player's draw, cannot be undone: the breach is reported as the player's own
        (``player`` on the violation), not as the next player's draw."""
        st = self.state
        hand = st.players[player].hand
        if len(hand) > HAND_MAX:
            message = (f"{player} ends the turn holding {len(hand)} cards; the limit is "
                       f"{HAND_MAX} (AW-1.5): discard down in the Recover Phase")
            if not implicit:
                raise Illegal("AW-5.2", message)
            self.out.breach(player, "AW-5.2",
                            message + " (the next turn began without 'end')")
        elif len(hand) < HAND_MIN:
            mode = self.house.value("hand_minimum")
            held = len(hand)
            if mode == "refill":
                st.draw(player, HAND_MIN - held, self.house, self.out.gaps, self.events)
            self.gap(self.house.record("hand_minimum", f"{player} ends the turn with {held} "
                                       f"cards, fewer than {HAND_MIN}",
                                       f"{player} draws up to {HAND_MIN}" if mode == "refill"
                                       else "nothing is drawn"))
        self.cite("AW-1.5")
        st.turn = None
        how = " (the next turn began without 'end')" if implicit else ""
        self.event(f"{player}'s turn ends{how}")

    def do_end(self, player: str, action: dict) -> None:
        self.turn_of(player)
        self.end_turn(player)

    # -- Play Phase (engine_play) -------------------------------------------------------
    def do_play(self, player: str, action: dict) -> None:
        engine_play.play(self, player, action)

    def do_summon(self, player: str, action: dict) -> None:
        engine_play.summon(self, player, action)

    def do_equip(self, player: str, action: dict) -> None:
        engine_play.equip(self, player, action)

    def do_place_gear(self, player: str, action: dict) -> None:
        engine_play.place_gear(self, player, action)

    def do_discard_draw(self, player: str, action: dict) -> None:
        engine_play.discard_draw(self, player, action)

    def do_activate(self, player: str, action: dict) -> None:
        engine_play.activate(self, player, action)

    # -- Recover Phase -------------------------------------------------------------------
    def do_recover(self, player: str, action: dict) -> None:
        t = self.gate(player, ("recover",))
        self.cite("AW-5.1")
        if not t.battles:
            self.cite("AW-3.4")
            self.event(f"{player} did not battle this turn (optional, AW-3.4)")

    def do_discard(self, player: str, action: dict) -> None:
        st = self.state
        self.gate(player, ("recover",))
        raw = action.get("cards", [action["card"]] if "card" in action else None)
        if not isinstance(raw, list) or not raw:
            raise DeckcliError(f"step {self.step}: discard needs 'card' or 'cards'")
        p = st.players[player]
        before = len(p.hand)
        if before <= HAND_MAX:
            raise Illegal("AW-5.2", f"{player} holds {before} cards; Recover discards are only "
                                    f"for a hand over {HAND_MAX}")
        after = before - len(raw)
        if after < HAND_MIN:
            raise Illegal("AW-5.2", f"discarding {len(raw)} of {before} cards would leave "
                                    f"{after}; keep at least {HAND_MIN}")
        if after < HAND_MAX:  # AW-G.22: past the limit, down towards the minimum
            house = self.house
            if house.value("recover_discard") == "to-seven" and house.settled("recover_discard"):
                raise Illegal("AW-G.22", f"discarding {len(raw)} of {before} cards would leave "
                                         f"{after}; the house rule recover_discard=to-seven "
                                         f"discards down to {HAND_MAX}, {before - HAND_MAX} "
                                         "card(s)")
            self.gap(house.record("recover_discard", f"{player} discards {len(raw)} of {before} "
                                  f"cards, keeping {after}, fewer than the limit of {HAND_MAX}",
                                  f"the discard stands: {after} cards kept"))
        for ref in raw:
            card = self.cards.find(ref)
            idx = self.from_hand(player, card, "AW-5.2")
            effects.discard_from_hand(self, player, idx, "recover")
            if card.kind == "gear":
                self.cite("AW-5.3")
        self.event(f"{player} discards {len(raw)}, keeping {len(p.hand)}")
        self.cite("AW-5.2")

    # -- battles and the Final Showdown (engine_battle) ------------------------------------
    def do_battle(self, player: str, action: dict) -> None:
        engine_battle.battle(self, player, action)

    def do_attack(self, player: str, action: dict) -> None:
        engine_battle.attack(self, player, action)

    def do_summon_alpha(self, player: str, action: dict) -> None:
        engine_showdown.summon_alpha(self, player, action)
        if "showdown" in self.out.facts:
            self.showdowns += 1
