"""Reading an animal-battle game log (YAML or JSON) into a dealt game and a list of actions.

::

    game: animal-battle
    setup:
      seed: 7            # optional: shuffle each deck with random.Random(seed)
      first: p1          # optional: else chosen by the seeded generator, else the first listed
      players:
        p1: {deck: decks/deep.txt}              # a decklist file, relative to the log
        p2: {deck: ["4 Orca", "Walrus (ABS) 12"]}  # or decklist lines (top card first if unseeded)
    house_rules: {stat_tie: defender}
    actions:
      - p1 reveal_challenger Walrus
      - p2 reveal_defender Orca
      - start
      - |                 # one string may hold many actions, one per line ('#' comments)
        p1 stat weight
        p1 end_turn

An action is ``PLAYER VERB [ARGUMENT] [stat=STAT]``, or a mapping ``{player, action, card |
stat | target}``. A log the referee cannot read (unknown verb, player or card) is an error
(exit 2); an action the rules forbid is a violation (exit 1).
"""

from __future__ import annotations

import re

from deckcli.errors import DeckcliError, UsageError
from deckcli.games.animal_battle import GAME
from deckcli.games.animal_battle.engine import ACTIONS, CARD_ACTIONS, Match
from deckcli.games.base import MAX_DECK, MAX_PLAYERS, CardInfo
from deckcli.games.interface import Step

MAX_ACTIONS = 200_000
_PLAYER = re.compile(r"[A-Za-z][\w-]{0,31}")
_COUNT = re.compile(r"\s*(\d{1,6})\s*[xX]?\s+(\S.*)$")


def card_ref(index, text: str):
    """A card from a reference: a name, 'Name (SET) NUM', 'Name SET NUM' or 'SET NUM'.

    Unknown names get "did you mean"; ambiguous names list the candidates; never a guess.
    """
    from deckcli.decks.refs import parse_ref

    return parse_ref(index, GAME.id, text)[0]


class LogReader:
    """Turns a loaded log mapping into a Game and Steps; resolves each card text once."""

    def __init__(self, index, log: dict, path: str):
        self.index, self.log, self.path = index, log, path
        self.book: dict[int, CardInfo] = {}
        self._refs: dict[str, int] = {}

    def fail(self, message: str, line: int | None = None, key=None, obj=None):
        from deckcli.yamlio import line_of

        if line is None and obj is not None:
            line = line_of(obj, key)
        raise DeckcliError(message, path=self.path, line=line)

    def card(self, text: str, line: int | None = None) -> int:
        cid = self._refs.get(text)
        if cid is None:
            try:
                card = card_ref(self.index, text)
            except DeckcliError as exc:
                self.fail(exc.message, line)
            if card.id not in self.book:
                self.book[card.id] = CardInfo.of(card)
            cid = self._refs[text] = card.id
        return cid

    def game(self, house_rules: dict) -> Match:
        log = self.log
        if log.get("game", GAME.id) != GAME.id:
            self.fail(f"this log is for {log.get('game')!r}, not {GAME.id}", obj=log,
                      key="game")
        setup = log.get("setup")
        if not isinstance(setup, dict) or not isinstance(setup.get("players"), dict):
            self.fail("an animal-battle log needs setup.players (player id -> {deck: ...})",
                      obj=log, key="setup" if "setup" in log else None)
        players = setup["players"]
        if len(players) < 2:
            self.fail("the game needs at least two players (AB-1.2)", obj=setup, key="players")
        if len(players) > MAX_PLAYERS:  # before a deck is read: a table, not a crowd
            self.fail(f"setup.players lists {len(players):,} players; a game log holds at most "
                      f"{MAX_PLAYERS}, as setup deals", obj=setup, key="players")
        decks = {}
        for pid, spec in players.items():
            pid = str(pid)
            if not _PLAYER.fullmatch(pid):
                self.fail(f"{pid!r} is not a player id (a letter, then letters, digits, - or _)",
                          obj=players, key=pid)
            deck = spec.get("deck") if isinstance(spec, dict) else spec
            decks[pid] = self.deck(deck, players, pid)
        seed = setup.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            self.fail("setup.seed must be an integer", obj=setup, key="seed")
        first = setup.get("first")
        if first is not None and str(first) not in decks:
            self.fail(f"setup.first names {first!r}, not a player of this log", obj=setup,
                      key="first")
        declared = log.get("house_rules") or {}
        if not isinstance(declared, dict):
            self.fail("house_rules must be a mapping of KEY: VALUE", obj=log, key="house_rules")
        rules = dict(declared)
        rules.update(house_rules or {})
        try:
            house = GAME.house_rules(rules)
        except UsageError as exc:
            self.fail(exc.message, obj=log, key="house_rules" if "house_rules" in log else None)
        return Match(self.book, decks, seed=seed, first=None if first is None else str(first),
                     house_rules=house)

    def deck(self, deck, players, pid) -> list[int]:
        from deckcli.decks.linked import linked_path, not_a_decklist
        from deckcli.decks.reader import read_deck
        from deckcli.decks.resolve import resolve_deck
        from deckcli.decks.text import parse_text

        is_set = self.index.is_any_set_code
        if isinstance(deck, list):
            return self.deck_lines(deck, players, pid)
        if isinstance(deck, str) and "\n" in deck:
            parsed = parse_text(deck, self.path, is_set=is_set)
        elif isinstance(deck, str):
            where, refused = linked_path(self.path, deck)
            if refused:  # a log from a stranger reads nothing outside its folder (EV-3.2)
                self.fail(f"{pid}'s deck: {refused} [rule EV-3.2]", obj=players, key=pid)
            try:
                parsed = read_deck(where, is_set=is_set)
            except DeckcliError as exc:
                self.fail(f"{pid}'s deck: {exc}", obj=players, key=pid)
            if not parsed.entries:  # not a decklist: its lines are not quoted (EV-3.2)
                self.fail(f"{pid}'s deck: {not_a_decklist(where)}", obj=players, key=pid)
        else:
            self.fail(f"{pid}'s deck must be a decklist path or a list of lines", obj=players,
                      key=pid)
        rdeck = resolve_deck(self.index, parsed, GAME.id, None)
        problems = [*parsed.problems, *rdeck.problems]
        if problems:
            self.fail(f"{pid}'s deck: {problems[0].message}", obj=players, key=pid)
        total = sum(r.entry.count for r in rdeck.entries)
        if total > MAX_DECK:  # as for a deck listed in the log: a shuffle per replay is costly
            self.fail(f"{pid}'s deck: {total:,} cards, more than the {MAX_DECK:,} a game log's "
                      "deck may hold", obj=players, key=pid)
        out = []
        for r in rdeck.entries:
            if r.card.id not in self.book:
                self.book[r.card.id] = CardInfo.of(r.card)
            out.extend([r.card.id] * r.entry.count)
        return out

    def deck_lines(self, lines: list, players, pid) -> list[int]:
        """Decklist lines ('4 Orca', 'Walrus (ABS) 12'), in order; each text resolved once."""
        from deckcli.yamlio import line_of

        out: list[int] = []
        for i, line in enumerate(lines):
            m = _COUNT.match(str(line))
            count, text = (int(m[1]), m[2]) if m else (1, str(line))
            if count < 1 or len(out) + count > MAX_DECK:
                self.fail(f"{pid}'s deck: count {count} is out of range", line_of(lines, i))
            out.extend([self.card(text, line_of(lines, i))] * count)
        return out

    def steps(self, players) -> list[Step]:
        from deckcli.yamlio import line_of

        actions = self.log.get("actions") or []
        out: list[Step] = []
        for i, item in enumerate(actions):
            base = line_of(actions, i)
            if isinstance(item, dict):
                out.append(self._mapping(item, len(out) + 1, base, players))
                continue
            if not isinstance(item, str):
                self.fail("an action is a string 'PLAYER VERB [ARGUMENT]' or a mapping", base)
            lines = item.split("\n")
            offset = 1 if ("\n" in item and base is not None) else 0
            for k, raw in enumerate(lines):
                text = raw.split("#", 1)[0].strip()
                if text:
                    line = None if base is None else base + offset + k
                    out.append(self._parse(text, len(out) + 1, line, players))
            if len(out) > MAX_ACTIONS:
                self.fail(f"more than {MAX_ACTIONS:,} actions", base)
        return out

    def _parse(self, text: str, n: int, line, players) -> Step:
        words = text.split()
        if words == ["start"]:
            return Step(n, line, text, None, "start", (None, "start", None, None))
        opts = {}
        while len(words) > 2 and "=" in words[-1]:
            key, _, value = words.pop().partition("=")
            opts[key] = value
        if len(words) < 2:
            self.fail(f"'{text}' is not an action: PLAYER VERB [ARGUMENT]", line)
        player, verb, arg = words[0], words[1], " ".join(words[2:]) or None
        return self._step(n, line, text, player, verb, arg, opts.pop("stat", None), opts,
                          players)

    def _mapping(self, item: dict, n: int, line, players) -> Step:
        player, verb = item.get("player"), item.get("action", item.get("do"))
        arg = item.get("card", item.get("target"))
        stat = item.get("stat")
        if verb == "stat" and arg is None:
            arg, stat = stat, None
        text = " ".join(str(x) for x in (player, verb, arg) if x is not None)
        return self._step(n, line, text, None if player is None else str(player), str(verb),
                          arg, stat, {}, players)

    def _step(self, n, line, text, player, verb, arg, stat, opts, players) -> Step:
        if verb not in ACTIONS:
            self.fail(f"'{verb}' is not an animal-battle action ({', '.join(ACTIONS)})", line)
        if opts:
            self.fail(f"unknown option {', '.join(opts)} in '{text}' (only stat=...)", line)
        if verb != "start" and player not in players:
            self.fail(f"'{player}' is not a player of this log ({', '.join(players)})", line)
        if verb in CARD_ACTIONS:
            if arg is None:
                self.fail(f"'{text}': {verb} needs a card", line)
            arg = self.card(str(arg), line)
        elif verb == "stat":
            if arg is None:
                self.fail(f"'{text}': stat needs a statistic", line)
            arg = str(arg).lower()
        elif verb == "target":
            if arg is None:
                self.fail(f"'{text}': target needs a player", line)
            arg = str(arg)
        elif arg is not None:
            self.fail(f"'{text}': {verb} takes no argument", line)
        if stat is not None:
            stat = str(stat).lower()
            if verb not in ("stat", "play"):  # only a statistic or a card that names one
                self.fail(f"'{text}': {verb} takes no stat=", line)
            if verb == "stat" and stat != arg:
                self.fail(f"'{text}' names two statistics, {arg} and stat={stat}", line)
        return Step(n, line, text, player, verb, (player, verb, arg, stat))


def read(index, log: dict, path: str, house_rules: dict) -> tuple[Match, list[Step]]:
    reader = LogReader(index, log, path)
    game = reader.game(house_rules)
    return game, reader.steps(game.s.players)
