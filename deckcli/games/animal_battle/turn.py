"""The turn's actions (AB-4.x), the Defense Chain's (AB-5.x) and the reminders (AB-6.x).

Each method checks first and changes the state only once every check has passed, so an
illegal action (:class:`Illegal`) leaves the game exactly as it was. Where card text in force
displaces the general rule (:mod:`.effects`), the ruling names both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.games.animal_battle import BATTLE_STATS, DEPTH_NAMES, cardtext, chain, effects
from deckcli.games.animal_battle.state import RANK, State
from deckcli.games.interface import Illegal, Stop

if TYPE_CHECKING:
    from deckcli.games.base import CardInfo
    from deckcli.games.house import HouseRules

STATS = ", ".join(BATTLE_STATS)
_DRAW = RANK["draw"]


class TurnActions:
    """Mixed into :class:`deckcli.games.animal_battle.engine.Match`."""

    # what the Match provides (its state and the helpers the turn's actions share)
    s: State
    book: dict[int, CardInfo]
    house: HouseRules

    if TYPE_CHECKING:
        def ref(self, cid) -> str: ...
        def _active(self, player: str, rule: str, what: str) -> None: ...
        def _in_hand(self, pid: str, cid: int, rule: str) -> None: ...
        def _forward(self, target: str) -> None: ...
        def _pool_limit(self, pid: str) -> tuple[int, dict | None]: ...
        def _source(self, out, pid: str, cid: int, role: str) -> str: ...
        def _take(self, pid: str, cid: int, where: str) -> None: ...
        def defending_player(self, out) -> str | None: ...
        def need_challenger(self, out) -> None: ...
        def need_defender(self, out) -> None: ...
        def begin_turn(self, out, pid: str) -> None: ...
        def draw_cards(self, out, pid: str, n: int) -> int: ...
        def refill(self, out, pid: str) -> None: ...
        def _setup_defender_check(self, out): ...
        def _fill(self, out, p, cid): ...

    def _draw(self, out, p, arg, stat):
        s = self.s
        self._active(p, "AB-4.1", "draw")
        if s.turn == 1 and p == s.first:
            raise Illegal("AB-3.6", f"{p} is the first player and skips the draw on the first "
                                    "turn (AB-4.1)")
        if s.drew or RANK[s.phase] > _DRAW:
            raise Illegal("AB-4.1", f"{p} has already drawn this turn (one draw per turn)")
        n, entry = 1, effects.find(s, "extra_draw", p)
        if entry is not None:
            n = int(entry["value"])
            effects.use(s, entry)
            out.cite("AB-6.4", effects.cite(entry) + f": {p} draws {n}")
        got = self.draw_cards(out, p, n)
        if s.winner is not None or s.players[p].out:
            return
        s.drew, s.phase = True, "pool"
        out.cite("AB-4.1", "{} draws {} card(s)", p, got)
        self.need_challenger(out)

    def _place(self, out, p, cid, stat):
        s = self.s
        if s.phase == "setup":
            return self._fill(out, p, cid)
        self._active(p, "AB-4.2", "place Animals into the Pool")
        if RANK[s.phase] > RANK["pool"]:
            raise Illegal("AB-4.2", f"the Pool phase is over (the turn is at '{s.phase}')")
        self._forward("pool")
        self._in_hand(p, cid, "AB-4.2")
        if not self.book[cid].animal:
            raise Illegal("AB-4.2", f"{self.ref(cid)} is not an Animal; only Animals go into "
                                    "the Pool")
        pool = s.players[p].pool
        limit, entry = self._pool_limit(p)
        rule = "AB-4.2" if entry is None else "AB-6.4"
        if len(pool) >= limit:
            raise Illegal(rule, f"{p}'s Pool already holds {len(pool)} Animals (limit {limit})")
        s.players[p].hand.remove(cid)
        pool.append(cid)
        if entry is not None:
            out.cite("AB-6.4", effects.cite(entry) + f": the Pool holds up to {limit}")
        out.cite("AB-4.2", "{} puts {} into the Pool ({}/{})", p, self.ref(cid), len(pool), limit)

    def _ready(self, out, p, arg, stat):
        """A player says their Pool is filled: at setup (AB-3.5), or, on their turn, that the
        Pool phase is over (AB-4.2) and the turn goes on to establishing (AB-4.3). Optional:
        any later action moves the turn on as well."""
        s = self.s
        if s.phase == "setup":
            if s.challenger is None or not any(d is not None for d in s.defenders.values()):
                raise Illegal("AB-3.5", "Pools are filled after the starting Challenger and "
                                        "Defender are revealed (AB-3.3, AB-3.4)")
            if p in s.ready:
                raise Illegal("AB-3.5", f"{p} has already said the Pool is filled")
            s.ready.append(p)
            out.cite("AB-3.5", "{}'s Pool is filled ({})", p, len(s.players[p].pool))
            return
        self._active(p, "AB-4.2", "end the Pool phase")
        if RANK[s.phase] > RANK["pool"]:
            raise Illegal("AB-4.2", f"the Pool phase is over (the turn is at '{s.phase}')")
        self._forward("establish")
        if s.challenger is None:
            raise Illegal("AB-4.3", f"the rules call for a new Challenger: {p} establishes one "
                                    "from the Pool, which ends the Pool phase")
        s.phase = "establish"
        out.cite("AB-4.2", "{}'s Pool phase is over", p)

    def _challenge(self, out, p, cid, stat):
        s = self.s
        if s.phase == "setup":
            raise Illegal("AB-3.3", "at setup the starting Challenger is revealed "
                                    "(reveal_challenger)")
        self._active(p, "AB-4.3", "establish the Challenger")
        if s.challenger is not None and s.controller != p:
            raise Illegal("AB-6.1", f"{self.ref(s.challenger)} is the Challenger, controlled by "
                                    f"{s.controller}; it cannot be replaced")
        if s.challenger is not None:
            return self._swap_challenger(out, p, cid)
        if RANK[s.phase] > RANK["establish"]:
            raise Illegal("AB-4.3", "the Challenger is settled before the attack, and the "
                                    "attack has begun")
        self._forward("establish")
        where = self._source(out, p, cid, "Challenger")
        self._take(p, cid, where)
        s.challenger, s.controller, s.phase = cid, p, "establish"
        out.cite("AB-4.3", "{} establishes {} as the Challenger (from the {})",
                 p, self.ref(cid), where)
        s.defending = self.defending_player(out)
        self.need_defender(out)

    def _swap_challenger(self, out, p, cid):
        s = self.s
        entry = effects.find(s, "replace_challenger", p)
        if entry is None:
            raise Illegal("AB-6.1", f"{self.ref(s.challenger)} is already {p}'s Challenger and "
                                    "cannot be replaced by choice")
        if s.attacked:
            raise Illegal("AB-6.4", f"{entry['card']} swaps the Challenger only before a "
                                    "statistic is chosen")
        self._forward("establish")
        pool = s.players[p].pool
        if cid not in pool or not self.book[cid].animal:
            raise Illegal("AB-6.4", f"{entry['card']} swaps the Challenger for an Animal in the "
                                    f"Pool; {self.ref(cid)} is not in {p}'s Pool")
        old = s.challenger
        assert old is not None  # the card text replaces the Challenger the player has
        pool[pool.index(cid)] = old
        cardtext.left_pool(s, p, cid)
        cardtext.entered_pool(s, p, old)
        s.challenger = cid
        effects.use(s, entry)
        out.cite("AB-6.4", effects.cite(entry) + f": {self.ref(cid)} replaces "
                                                 f"{self.ref(old)}, which goes to the Pool")

    def names_opponent(self, p: str) -> bool:
        """Whether ``p`` is the one player who may name the defending opponent now (the
        active player, or the first player at setup): no other player's ``target`` is tried
        (``referee legal`` would try every opponent of every player)."""
        s = self.s
        return p == s.active or (s.phase == "setup" and p == s.first)

    def _target(self, out, p, other, stat):
        s = self.s
        if not self.names_opponent(p):
            raise Illegal("AB-4.3", f"only {s.active or s.first} names the opponent")
        if other not in s.players or other == p or s.players[other].out:
            raise Illegal("AB-4.3", f"{other} is not an opponent still in the game")
        if RANK[s.phase] > RANK["establish"]:
            raise Illegal("AB-4.3", "the attack has begun; the opponent is settled")
        if s.phase == "setup" and any(d is not None for d in s.defenders.values()):
            raise Illegal("AB-3.4", "the starting Defender is revealed; the opponent is settled")
        if len(s.in_game()) == 2:
            raise Illegal("AB-4.3", "with two players the one opponent defends")
        how = self.house.meet("AB-G.5", f"{p} names {other} as the defending opponent",
                              out.gaps)
        if how != "attacker_choice":
            raise Illegal("AB-G.5", "house rule defender_player=next: the next player in seat "
                                    "order defends")
        s.target = s.defending = other
        out.note("{} attacks {} (house rule defender_player=attacker_choice, AB-G.5)", p, other)
        if s.phase == "setup":
            self._setup_defender_check(out)
        elif s.controller == p:
            self.need_defender(out)

    def _defend(self, out, p, cid, stat):
        s = self.s
        if s.phase == "setup":
            raise Illegal("AB-3.4", "at setup the starting Defender is revealed "
                                    "(reveal_defender)")
        if s.challenger is None or s.controller != s.active:
            raise Illegal("AB-4.3", f"the Challenger is known first; {s.active} has not "
                                    "established one")
        if RANK[s.phase] > RANK["establish"]:
            raise Illegal("AB-5.2", "the attack has begun: a new Defender now comes only by "
                                    "promotion (promote)")
        dp = s.defending
        if dp is None:
            raise Illegal("AB-G.5", f"{s.active} has not named the defending opponent (target)")
        if p != dp:
            raise Illegal("AB-4.3", f"{dp} is the defending player and selects the Defender, "
                                    f"not {p}")
        self._forward("establish")
        old = s.defenders[p]
        if old is not None:
            how = self.house.meet("AB-G.8", f"{p} would swap the active Defender "
                                            f"{self.ref(old)} for {self.ref(cid)}", out.gaps)
            if how == "forbidden":
                raise Illegal("AB-G.8", f"house rule replace_defender=forbidden: "
                                        f"{self.ref(old)} stays the Defender")
        where = self._source(out, p, cid, "Defender")
        pool = s.players[p].pool
        if old is not None and where == "hand" and len(pool) >= self._pool_limit(p)[0]:
            raise Illegal("AB-4.2", f"{self.ref(old)} cannot go back to {p}'s full Pool")
        self._take(p, cid, where)
        if old is not None:
            pool.append(old)
            cardtext.entered_pool(s, p, old)
            out.note("house rule replace_defender=allowed: {} goes back to the Pool (AB-G.8)",
                     self.ref(old))
        # the active player's Pool phase, if it is still on, goes on (AB-4.2): only the
        # active player ends it ('ready', or an action of a later step)
        s.defenders[p], s.original = cid, True
        out.cite("AB-4.3", "{} selects {} as the Defender (from the {})", p, self.ref(cid), where)

    def _stat(self, out, p, arg, stat):
        s = self.s
        stat = stat or arg
        if stat not in BATTLE_STATS:
            if str(stat).replace(" ", "_").replace("-", "_") in DEPTH_NAMES:
                raise Illegal("AB-2.6", "Maximum Depth is species information, never a battle "
                                        f"statistic ({STATS})")
            raise Illegal("AB-4.4", f"{stat!r} is not a battle statistic ({STATS})")
        if s.phase == "setup":
            raise Illegal("AB-3.6", "no attack during setup; the first turn begins with 'start'")
        if s.phase == "promote":
            raise Illegal("AB-5.2", f"{s.defending} must first promote a replacement or decline")
        if s.phase == "end":
            raise Illegal("AB-4.4", "this turn's attack has ended; the turn goes on to its end "
                                    "phase (AB-4.6)")
        if s.challenger is None or s.controller != s.active:
            raise Illegal("AB-4.3", f"{s.active} has no Challenger established to attack with")
        self._forward("attack")
        dp = s.defending
        if dp is None or s.defenders[dp] is None:
            raise Illegal("AB-4.3", f"the defending player ({dp or 'not named'}) has not "
                                    "selected a Defender")
        reuse = None
        if stat in s.used:
            reuse = effects.find(s, "reuse_statistic", p, stat)
            if reuse is None:
                raise Illegal("AB-5.5", f"{stat} was already used in this attack sequence "
                                        f"(used: {', '.join(s.used)})")
        if p is not None:  # None: a position ruling, the statistics are simply given
            if s.original:
                chooser, rule = s.controller, "AB-4.4"
            else:
                how = self.house.meet("AB-G.4", "the next link of the Defense Chain needs a "
                                                "statistic", out.gaps)
                chooser, rule = (s.controller if how == "challenger" else dp), "AB-G.4"
            if p != chooser:
                raise Illegal(rule, f"{chooser} names the statistic, not {p}")
        if reuse is not None:
            effects.use(s, reuse)
            out.cite("AB-6.4", effects.cite(reuse) + f": {stat} may be chosen once more")
        chain.resolve(self, out, stat)

    def _answer_to_defeat(self, p, verb: str) -> None:
        """AB-5.2: once a Defender is defeated, the defending player, and only that player,
        promotes a replacement or declines; at no other time."""
        s = self.s
        if s.phase != "promote":
            raise Illegal("AB-5.2", "no promotion is pending (no Defender has just been "
                                    f"defeated with an Animal in the Pool to replace it): "
                                    f"nothing to {verb}")
        if p != s.defending:
            raise Illegal("AB-5.2", f"only the defending player ({s.defending}) may {verb}")

    def _promote(self, out, p, cid, stat):
        s = self.s
        if s.phase != "promote" and p == s.defending and cid in s.players[p].hand:
            raise Illegal("AB-5.4", f"{self.ref(cid)} is in {p}'s hand; cards from hand "
                                    "cannot enter a Defense Chain, and no promotion is pending")
        self._answer_to_defeat(p, "promote")
        if not self.book[cid].animal:
            raise Illegal("AB-5.2", f"{self.ref(cid)} is not an Animal")
        player = s.players[p]
        entry = None
        if cid in player.pool:
            player.pool.remove(cid)
            cardtext.left_pool(s, p, cid)
        elif cid in player.hand:
            entry = effects.find(s, "hand_to_chain", p)
            if entry is None:
                raise Illegal("AB-5.4", f"{self.ref(cid)} is in {p}'s hand; cards from hand "
                                        "cannot enter an active Defense Chain")
            player.hand.remove(cid)
            effects.use(s, entry)
            out.cite("AB-6.4", effects.cite(entry) + f": {self.ref(cid)} comes from the hand")
        else:
            raise Illegal("AB-5.2", f"{self.ref(cid)} was not already in {p}'s Pool")
        s.defenders[p], s.original = cid, False
        out.cite("AB-5.2", "{} promotes {} as the replacement Defender", p, self.ref(cid))
        chain.after_link(self, out, promoted=True)

    def _decline(self, out, p, arg, stat):
        self._answer_to_defeat(p, "decline")
        how = self.house.meet("AB-G.3", f"{p} declines to promote a replacement", out.gaps)
        chain.no_promotion(self, out, how)

    def _play(self, out, p, cid, stat):
        s = self.s
        if s.phase == "setup":
            raise Illegal("AB-3.1", "cards are played during turns, not during setup")
        self._in_hand(p, cid, "AB-6.4")
        card = self.book[cid]
        if card.kind != "action":
            raise Illegal("AB-6.4", f"{card.ref} is not an action card (Animals go into the "
                                    "Pool, AB-4.2)")
        overrides = effects.playable(card)
        entries = cardtext.on_play(card)
        if not overrides and not entries:
            stop = Stop((card.refers_to or ("AB-6.4",))[0],
                        f"{card.ref} is played: \"{card.text}\"",
                        f"The referee does not model the text of {card.ref}; a judge applies "
                        "it. The replay stops here.", gap=False)
            s.players[p].hand.remove(cid)
            s.players[p].discard.append(cid)
            out.remarks.append(f"{card.ref}: its text has no effect data, so the referee "
                               "does not apply it (DB-2.5)")
            out.stop = s.waiting = stop
            return
        for o in overrides:
            problem = effects.timing_problem(s, p, o)
            if problem:
                raise Illegal("AB-6.4", f"{card.ref}: {problem}")
            if o["effect"] == "reuse_statistic" and stat not in s.used:
                raise Illegal("AB-6.4", f"{card.ref} names a statistic already used in this "
                                        f"attack sequence ({p} play ... stat=NAME); "
                                        f"{stat or 'none is named'} is not one (used: "
                                        f"{', '.join(s.used)})")
        if entries:
            found = cardtext.problem(s, p, card)
            if found:
                raise Illegal(found[0], f"{card.ref}: {found[1]}")
        s.players[p].hand.remove(cid)
        s.players[p].discard.append(cid)
        for o in overrides:
            entry = effects.put_in_force(s, p, card, o, stat)
            out.cite("AB-6.4", f"{p} plays {card.ref}: " + effects.cite(entry))
        if entries:
            out.cite("AB-6.5", "{} plays {}", p, card.ref)
            cardtext.apply(self, out, p, card)

    def _choose(self, out, p, cid, stat):
        cardtext.choose(self, out, p, cid)

    def _end_turn(self, out, p, arg, stat):
        s = self.s
        self._active(p, "AB-4.6", "end the turn")
        self._forward("end")
        if s.phase == "promote":
            raise Illegal("AB-4.5", f"the Defense Chain is unresolved: {s.defending} must "
                                    "promote or decline")
        if s.phase == "attack" and s.used:
            raise Illegal("AB-4.5", "the attack sequence has not ended: the next statistic is "
                                    "still to be named")
        skip = None
        if s.controller == p and not s.attacked:
            skip = effects.find(s, "skip_attack", p)
            if skip is None:
                raise Illegal("AB-6.2", f"{p} has an active Challenger "
                                        f"({self.ref(s.challenger)}) and must attack")
        if s.challenger is None and not s.attacked:
            raise Illegal("AB-4.3", f"the rules call for a new Challenger: {p} must establish "
                                    "one (AB-1.1)")
        if skip is not None:
            effects.use(s, skip)
            out.cite("AB-6.4", effects.cite(skip) + f": {p} ends the turn without attacking")
        elif s.controller != p and not s.attacked:
            out.cite("AB-6.2", "{} controls no Challenger, so no attack is required", p)
        s.phase = "end"
        self.refill(out, p)
        if s.winner is None:
            self.begin_turn(out, s.next_after(p))
