"""The ``deckcli edit`` application (Textual): a view of a :class:`~deckcli.editor.session.Session`.

Panes: Cards (the database, filtered with ``cards search``'s query language), Deck (the deck
grouped by kind as ``fmt`` writes it), and below them Problems (``validate``'s), Stats
(``stats``') and Matchups (``simulate`` against the gauntlet, ``suggest``'s swaps). Every
change redraws the panes from the session; the status line always shows the card count and
the verdict, and a message line says what the last key did.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Input, Static, TabbedContent, TabPane

from deckcli.editor.screens import HelpScreen, QuitScreen, VersionScreen
from deckcli.errors import DeckcliError

#: cards the Cards pane lists at most (a filter matching more lists the first, by name)
RESULTS = 100
CARD_WIDTH = 26  # the cards pane's name column at most (longer names end in an ellipsis)
BAR = 20

CSS = """
#status { height: 1; background: $panel; padding: 0 1; }
#message { height: 1; padding: 0 1; color: $text-muted; }
#main { height: 3fr; }
#cards-pane { width: 3fr; border: round $primary-darken-2; }
#deck-pane { width: 2fr; min-width: 38; border: round $primary-darken-2; }
#deck { scrollbar-size-horizontal: 0; }
DataTable { scrollbar-size-vertical: 1; }
#cards-pane:focus-within, #deck-pane:focus-within { border: round $accent; }
#filter { height: 1; border: none; padding: 0 1; }
#cards-info { height: 1; padding: 0 1; color: $text-muted; }
#bottom { height: 2fr; min-height: 8; }
#cards, #deck, #problems, #matchups, #swaps { height: 1fr; }
#verdict { height: 1; padding: 0 1; }
#matchups-head { height: auto; padding: 0 1; color: $text-muted; }
HelpScreen, QuitScreen, VersionScreen { align: center middle; }
#help { width: 76; max-height: 22; border: round $accent; background: $surface; padding: 0 1; }
#dialog { width: 64; height: auto; border: round $warning; background: $surface; padding: 1; }
#buttons { height: auto; margin-top: 1; }
#buttons Button { margin-right: 1; min-width: 10; }
#versions { width: 60; max-height: 18; border: round $accent; }
"""


class FilterInput(Input):
    """The filter bar. Enter, Down and Escape move to the results; a key that was already on
    its way here when they did (typed right after, '/walrus' Enter '+') is handed back to the
    app as a new key press, so that it goes to the results, as typed."""

    async def _on_key(self, event: events.Key) -> None:
        # here, in the order the keys were typed (a binding would be seen to after them)
        here = self.screen.focused is self  # (has_focus follows later, with the Blur event)
        if event.key in ("enter", "down", "escape") or not here:
            event.stop()
            event.prevent_default()
            if here:
                self.app.action_to_results()
            else:
                self.app.post_message(events.Key(event.key, event.character))
            return
        await super()._on_key(event)


class DeckEditor(App):
    """Build a deck in the terminal."""

    TITLE = "deckcli edit"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("slash", "search", "Search", priority=True),
        Binding("1", "pane('cards')", show=False),
        Binding("2", "pane('deck')", show=False),
        Binding("3", "pane('problems')", show=False),
        Binding("4", "pane('stats')", show=False),
        Binding("5", "pane('matchups')", show=False),
        Binding("m", "simulate", "Matchups"),
        Binding("g", "suggest", "Suggest", show=False),
        Binding("x", "cancel", "Cancel", show=False),
        Binding("plus,equals_sign", "add", "+1", show=False),
        Binding("minus", "remove", "-1", show=False),
        Binding("p", "version", "Printing", show=False),
        Binding("s", "sort(1)", "Sort", show=False),
        Binding("S", "sort(-1)", "Reverse", show=False),
        Binding("a", "apply_swap", "Apply", show=False),
    ]

    def __init__(self, session, *, against=(), policy: str = "expert", games: int = 1000,
                 max_turns: int = 200, seed: int | None = None, db_dirs=(),
                 event_path: str | None = None, players: int | None = None,
                 suggest_options=()):
        super().__init__()
        self.suggest_options = list(suggest_options)  # more options for suggest (--measure)
        self.session = session
        self.against = list(against)
        self.policy, self.games, self.max_turns, self.seed = policy, games, max_turns, seed
        self.db_dirs, self.event_path, self.players = list(db_dirs), event_path, players
        self.found: list = []
        self.query_shown = ""  # the query whose results the cards pane shows
        self.sort_col, self.sort_reverse = 0, False
        self.over = False  # the next save writes over a file changed or removed on disk
        self.jobs: dict[str, subprocess.Popen] = {}
        self.cancelled: set[str] = set()
        self.swaps: list[dict] = []
        self.opponents: list[dict] = []
        self.message = ""
        from deckcli.games import get

        self.game = get(session.game)
        self.stat_names = list(self.game.key_stats)
        self._all = None

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="cards-pane"):
                example = self.game.search_example
                yield FilterInput(placeholder=f"/ search: {example}" if example else "/ search",
                                  id="filter", compact=True)
                yield Static(id="cards-info")
                yield DataTable(id="cards", cursor_type="row", zebra_stripes=False)
            with Vertical(id="deck-pane"):
                yield DataTable(id="deck", cursor_type="row", show_header=False)
        with TabbedContent(id="bottom", initial="problems-tab"):
            with TabPane("Problems", id="problems-tab"):
                yield Static(id="verdict")
                yield DataTable(id="problems", cursor_type="row")
            with TabPane("Stats", id="stats-tab"):
                with VerticalScroll(id="stats-scroll"):
                    yield Static(id="stats")
            with TabPane("Matchups", id="matchups-tab"):
                yield Static(id="matchups-head")
                yield DataTable(id="matchups", cursor_type="row")
                yield DataTable(id="swaps", cursor_type="row")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        if self.animation_level == "none":
            self.query_one("#filter", Input).cursor_blink = False
        self.query_one("#cards-pane").border_title = "Cards"
        self.query_one("#deck-pane").border_title = "Deck"
        cols = ["card", *self.stat_names, "deck"]
        if self.session.collection:
            cols.append("own")
        cols.append("kind")
        self.card_cols = cols
        self.query_one("#deck", DataTable).add_column("entry", key="entry")
        problems = self.query_one("#problems", DataTable)
        for c in ("", "line", "rule", "problem"):
            problems.add_column(c, key=c or "sev")
        m = self.query_one("#matchups", DataTable)
        for c in ("seat" if self.game.shared_deck else "against", "games", "win rate",
                  "95% CI", ""):
            m.add_column(c, key=c or "bar")
        s = self.query_one("#swaps", DataTable)
        for c in ("suggested swap", "gain", "95% CI", ""):
            s.add_column(c, key=c or "shown")
        s.display = bool(self.session.collection)
        self._matchups_head()
        self.run_search("")
        self.refresh_deck()
        self.query_one("#cards", DataTable).focus()
        if self.session.new:
            self.say(f"new deck {self.deck_name()}: written at the first save (Ctrl+S)")

    # -- status and message --------------------------------------------------------------------
    def deck_name(self) -> str:
        from deckcli.diagnostics import visible_name

        return visible_name(self.session.path)

    def say(self, text: str, error: bool = False) -> None:
        self.message = text
        self.query_one("#message", Static).update(
            Text(text, style="bold red" if error else ""))

    def _status(self) -> None:
        r = self.session.report
        where = r.format or r.game
        if self.game.shared_deck:
            where += f", {self.session.options.players or self.game.default_players} players"
        verdict = Text("LEGAL", style="bold green") if r.legal else \
            Text("ILLEGAL", style="bold red")
        line = Text.assemble(
            (self.deck_name(), "bold"), ("*" if self.session.modified else "", "bold yellow"),
            f"  {where}  {r.card_count} card{'s' if r.card_count != 1 else ''}  ", verdict,
            f" ({r.errors} error{'s' if r.errors != 1 else ''}, "
            f"{r.warnings} warning{'s' if r.warnings != 1 else ''})")
        self.query_one("#status", Static).update(line)

    # -- cards pane ----------------------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        # the bar's value now: of keys typed faster than their results, only the last counts
        if event.input.id == "filter" and event.input.value != self.query_shown:
            self.run_search(event.input.value)

    def run_search(self, query: str) -> None:
        """The cards matching ``query`` (``cards search``'s language), the first RESULTS."""
        from deckcli.cards.search import search

        info = self.query_one("#cards-info", Static)
        try:
            if query.strip():
                found = search(self.session.index, query, self.session.game, RESULTS + 1)
            else:
                if self._all is None:
                    self._all = self.session.index.all_cards(self.session.game, RESULTS + 1)
                found = self._all
        except DeckcliError as exc:  # the results stay as they were
            info.update(Text(str(exc), style="red"))
            self.query_shown = query
            return
        more = len(found) > RESULTS
        self.found = found[:RESULTS]
        if not self.found:
            info.update("no cards match")
        elif more:
            info.update(f"the first {RESULTS} by name: type more to narrow")
        else:
            info.update(f"{len(self.found)} card{'s' if len(self.found) != 1 else ''}")
        self.fill_cards()
        self.query_shown = query

    def _sort_key(self, col: str):
        if col == "card":
            return None
        if col == "kind":
            return lambda c: c.kind
        if col == "deck":
            counts = self.session.in_deck()
            return lambda c: counts[c.id]
        if col == "own":
            return lambda c: self.session.owned[c.id]
        return lambda c: c.stats.get(col, float("-inf"))

    def fill_cards(self) -> None:
        from deckcli.diagnostics import number_text

        table = self.query_one("#cards", DataTable)
        col = self.card_cols[self.sort_col]
        key = self._sort_key(col)
        rows = sorted(self.found, key=key) if key else list(self.found)
        if self.sort_reverse:
            rows.reverse()
        counts, owned = self.session.in_deck(), self.session.owned
        keep = table.cursor_row
        table.clear()
        if not table.columns:  # the names narrowed to leave room for the figures
            for c in self.card_cols:
                table.add_column(c, key=c, width=CARD_WIDTH if c == "card" else None)
        for c in rows:
            # Text, not str: a str cell is read as markup, which costs more than the search
            cells = [Text(c.ref, overflow="ellipsis", no_wrap=True),
                     *[Text(number_text(c.stats[s]) if s in c.stats else "-")
                       for s in self.stat_names],
                     Text(str(counts[c.id] or ""))]
            if self.session.collection:
                cells.append(Text(str(owned[c.id] or "")))
            cells.append(Text(c.kind))
            table.add_row(*cells, key=str(c.id))
        if rows:
            table.move_cursor(row=min(keep, len(rows) - 1))
        label = col + (" (reversed)" if self.sort_reverse else "")
        self.query_one("#cards-pane").border_subtitle = f"sorted by {label}"

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        if event.data_table.id != "cards":
            return
        i = self.card_cols.index(str(event.column_key.value))
        if i == self.sort_col:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_col, self.sort_reverse = i, False
        self.fill_cards()

    def action_sort(self, step: int) -> None:
        if step < 0:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_col, self.sort_reverse = (self.sort_col + 1) % len(self.card_cols), False
        self.fill_cards()

    def _card(self):
        table = self.query_one("#cards", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value
        return self.session.index.card(int(key))

    # -- deck pane -----------------------------------------------------------------------------
    def refresh_deck(self) -> None:
        """Redraw everything that depends on the deck: after every change."""
        table = self.query_one("#deck", DataTable)
        keep = table.cursor_row
        table.clear()
        self.rows = self.session.rows()
        for i, row in enumerate(self.rows):
            text = Text(row.text, style="bold") if row.kind == "group" else Text(row.text)
            table.add_row(text, key=str(i))
        if self.rows:
            table.move_cursor(row=min(keep, len(self.rows) - 1))
        self.query_one("#deck-pane").border_subtitle = \
            f"{self.session.report.card_count} cards"
        self._status()
        self._problems()
        if self.query_one("#bottom", TabbedContent).active == "stats-tab":
            self._stats()  # else when the tab is shown: its database figures take a while
        self.fill_cards()

    def _row(self):
        table = self.query_one("#deck", DataTable)
        if not self.rows:
            return None
        row = self.rows[table.cursor_row]
        return row if row.kind == "entry" else None

    def _edit(self, what) -> None:
        try:
            said = what()
        except DeckcliError as exc:
            self.say(str(exc), error=True)
            return
        self.over = False
        self.refresh_deck()
        self.say(said)

    def _where(self) -> str | None:
        focused = self.focused
        return focused.id if focused is not None else None

    def _at_cursor(self, on_row, on_card) -> None:
        """``on_row(row)`` for the deck's row under the cursor, ``on_card(card)`` for the
        card under it in the cards pane; nothing elsewhere."""
        where = self._where()
        if where == "deck":
            row = self._row()
            if row is not None:
                on_row(row)
        elif where == "cards":
            card = self._card()
            if card is not None:
                on_card(card)

    def action_add(self) -> None:
        self._at_cursor(
            lambda row: self._edit(lambda: self.session.add_to_row(row)),
            lambda card: self._edit(lambda: self.session.add(self.session.default_choice(card))))

    def action_remove(self) -> None:
        self._at_cursor(lambda row: self._edit(lambda: self.session.remove_from_row(row)),
                        self._remove_card)

    def _remove_card(self, card) -> None:
        rows = [r for r in self.rows if r.card is not None and r.card.id == card.id]
        if not rows:
            self.say(f"{card.ref} is not in the deck; nothing removed", error=True)
            return
        self._edit(lambda: self.session.remove_from_row(rows[-1]))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        which = event.data_table.id
        if which == "cards":
            self.action_add()
        elif which == "problems":
            self.jump_to_problem(event.cursor_row)
        elif which == "swaps":
            self.apply_swap(event.cursor_row)
        elif which == "deck":
            self.action_version()

    def action_version(self) -> None:
        where = self._where()
        if where == "deck":
            row = self._row()
            if row is None or row.card is None:
                return
            current = self.session.entry_choice(row.entries[0])

            def picked(choice) -> None:
                if choice is not None:
                    self._edit(lambda: self.session.set_version(row, choice))
            self.push_screen(VersionScreen(f"{row.card.name}: printing and variant",
                                           self.session.versions(row.card),
                                           current.key if current else None), picked)
        elif where == "cards":
            card = self._card()
            if card is None:
                return

            def chosen(choice) -> None:
                if choice is not None:
                    self._edit(lambda: self.session.add(choice))
            self.push_screen(VersionScreen(f"add {card.name} as", self.session.versions(card)),
                             chosen)

    # -- problems pane -------------------------------------------------------------------------
    def _problems(self) -> None:
        r = self.session.report
        table = self.query_one("#problems", DataTable)
        table.clear()
        self.problems = list(r.problems)
        for p in self.problems:
            sev = Text("error", style="red") if p.is_error else Text("warning", style="yellow")
            table.add_row(sev, str(p.line or ""), p.rule, p.message)
        fmt = r.format or r.game
        verdict = Text.assemble(
            (f"{fmt}: ", ""), Text("LEGAL", style="bold green") if r.legal else
            Text("ILLEGAL", style="bold red"),
            f", {r.card_count} cards" + ("" if self.problems else ", no problems")
            + (f" (event: {os.path.basename(self.event_path)})" if self.event_path else ""))
        self.query_one("#verdict", Static).update(verdict)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "stats-tab":
            self._stats()

    def jump_to_problem(self, i: int) -> None:
        if not 0 <= i < len(self.problems):
            return
        p = self.problems[i]
        found = None
        for k, row in enumerate(self.rows):
            if p.line is not None and p.line in row.lines:
                found = k
                break
            if found is None and p.card and row.card is not None and row.card.ref == p.card:
                found = k
        if found is None:
            self.say(f"{p.rule}: {p.message} (not about one entry)")
            return
        deck = self.query_one("#deck", DataTable)
        self.screen.set_focus(deck)
        deck.move_cursor(row=found)
        self.say(f"{p.rule}: {p.message}")

    # -- stats pane ----------------------------------------------------------------------------
    def _stats(self) -> None:
        from deckcli.diagnostics import number_text

        doc = self.session.stats()
        out = Text()
        total = doc["cards"] or 1
        plurals = self.game.kinds
        out.append("Cards by kind\n", style="bold")
        for kind, n in doc["kinds"].items():
            out.append(f"  {plurals.get(kind, kind):<14}{n:>4}  ")
            out.append(_bar(n / total), style="cyan")
            out.append(f" {100 * n / total:.0f}%\n")
        if "levels" in doc:
            most = max(doc["levels"].values(), default=0) or 1
            out.append("Creature levels (copies)\n", style="bold")
            for level, n in doc["levels"].items():
                out.append(f"  level {level:<8}{n:>4}  ")
                out.append(_bar(n / most), style="cyan")
                out.append("\n")
        if "stats" in doc:
            out.append("Battle statistics: the share of the database's Animals the deck's "
                       "median beats\n", style="bold")
            for stat, p in doc["stats"].items():
                d = p["deck"] or {}
                share = p["median_beats"]
                out.append(f"  {stat:<11}")
                out.append(_bar(share, 16), style="green")
                out.append(f" {'-' if share is None else f'{100 * share:.0f}%':>4}  median "
                           f"{number_text(d['median']) if d else '-'}, best "
                           f"{number_text(d['best']) if d else '-'} ({p['wins']} wins)\n")
            o = doc["opening_hand"]
            chance = o["chance_at_least_one"]
            out.append(f"Opening hand ({o['cards']} cards, {o['rule']}): ", style="bold")
            out.append(_bar(chance), style="green")
            shown = ">99.99%" if 0.9999 < chance < 1 else f"{100 * chance:.2f}%"
            out.append(f" {shown} at least one Animal, {number_text(o['expected_animals'])} "
                       "expected\n")
        if doc.get("unresolved"):
            out.append(f"{doc['unresolved']} card(s) name no known card and are left out\n",
                       style="yellow")
        self.query_one("#stats", Static).update(out)

    # -- matchups pane -------------------------------------------------------------------------
    def _opponent_paths(self) -> list[str]:
        if self.game.shared_deck:
            return []
        if self.against:
            from deckcli.validate import collect_paths

            return [os.path.abspath(p) for p in collect_paths(self.against)]
        from deckcli.build.gauntlet import decks

        return decks(self.game.id)

    def _matchups_head(self, extra: str = "") -> None:
        if self.game.shared_deck:
            whom = f"shared by {self.players or self.game.default_players} seats"
        else:
            whom = "against each --against deck" if self.against else \
                "against each gauntlet deck"
        text = f"m: {self.games:,} games {whom} ({self.policy} play)"
        text += "; g: suggest swaps" if self.session.collection else ""
        text += "; x: cancel"
        self.query_one("#matchups-head", Static).update(text + (f"\n{extra}" if extra else ""))

    def _snapshot(self) -> str:
        """The deck as it stands, in a file of its own for the process that plays it."""
        folder = tempfile.mkdtemp(prefix="deckcli-edit-")
        from deckcli.decks.format import encode

        path = os.path.join(folder, "deck" + (os.path.splitext(self.session.path)[1] or
                                              ".txt"))
        with open(path, "wb") as fh:
            fh.write(encode(self.session.text, self.session.bom))
        return path

    def action_simulate(self) -> None:
        from deckcli.editor.matchups import simulate_argv

        if "simulate" in self.jobs:
            self.say("a simulation is running already (x cancels it)")
            return
        self.action_pane("matchups")
        paths = self._opponent_paths()
        seed = self.seed
        if seed is None:
            import random

            seed = random.SystemRandom().randrange(1, 1_000_000)
        deck = self._snapshot()
        spec = {"deck": deck, "against": paths, "game": self.game.id, "players": self.players,
                "event": self.event_path and os.path.abspath(self.event_path),
                "db": [os.path.abspath(d) for d in self.db_dirs], "policy": self.policy,
                "games": self.games, "max_turns": self.max_turns, "seed": seed}
        if self.game.shared_deck:
            n = self.players or self.game.default_players
            self.opponents = [{"label": f"p{i + 1}", "seat": f"p{i + 1}"} for i in range(n)]
        else:
            self.opponents = [{"label": os.path.basename(p)} for p in paths]
        self.fill_matchups()
        seats = self.players or self.game.default_players
        self.replay = (f"deckcli simulate DECK --players {seats}" if self.game.shared_deck
                       else "deckcli simulate DECK OPPONENT")
        self.replay += f" --games {self.games} --seed {seed}"
        self._matchups_head(f"seed {seed}: playing...")
        self.say(f"simulating {self.games:,} games a matchup (seed {seed}); x cancels")
        self._start("simulate", simulate_argv(spec), deck)

    def action_suggest(self) -> None:
        from deckcli.editor.matchups import suggest_argv

        if not self.session.collection:
            self.say("suggestions need a collection: deckcli edit DECK --collection FILE",
                     error=True)
            return
        if "suggest" in self.jobs:
            self.say("suggest is running already (x cancels it)")
            return
        self.action_pane("matchups")
        deck = self._snapshot()
        argv = suggest_argv(deck, os.path.abspath(self.session.collection), game=self.game.id,
                            against=[os.path.abspath(p) for p in self.against],
                            event=self.event_path and os.path.abspath(self.event_path),
                            players=self.players,
                            db=[os.path.abspath(d) for d in self.db_dirs])
        argv += self.suggest_options
        self.swaps = []
        self.fill_swaps()
        self.say("suggest: measuring swaps from the collection (this takes a while); "
                 "x cancels")
        self._start("suggest", argv, deck)

    def _start(self, kind: str, argv: list[str], deck: str) -> None:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, text=True, encoding="utf-8")
        self.jobs[kind] = proc
        self.cancelled.discard(kind)
        self._watch(kind, proc, deck)

    @work(thread=True)
    def _watch(self, kind: str, proc: subprocess.Popen, deck: str) -> None:
        """Read the process's lines as they come (a thread: the games run in the process)."""
        out = []
        try:
            for line in proc.stdout:
                if kind == "simulate":
                    self.call_from_thread(self._on_line, json.loads(line))
                else:
                    out.append(line)
            err = proc.stderr.read()
            code = proc.wait()
        finally:
            shutil.rmtree(os.path.dirname(deck), ignore_errors=True)
        self.call_from_thread(self._on_done, kind, code, "".join(out), err)

    def _on_line(self, line: dict) -> None:
        if "error" in line:
            self.say(f"simulate: {line['error']}", error=True)
            return
        if "warning" in line:
            self.say(line["warning"])
            return
        i = line["opponent"]
        if "result" in line:
            r = line["result"]
            if self.game.shared_deck:
                decided = r["games"] - r["results"]["undecided"]
                for o in self.opponents:
                    wr = r["win_rate"][o["seat"]]
                    o.update(played=r["games"], games=r["games"], rate=wr["rate"],
                             ci=wr["ci95"], decided=decided, done=True)
            else:
                self.opponents[i].update(played=r["games"], games=r["games"],
                                         rate=r["win_rate"]["a"], ci=r["win_rate"]["ci95"],
                                         decided=r["results"]["a"] + r["results"]["b"],
                                         done=True)
        elif self.game.shared_deck:
            for o in self.opponents:
                rate = line["rates"][o["seat"]]
                o.update(played=line["played"], games=line["games"], rate=rate["rate"],
                         ci=rate["ci95"], decided=line["decided"])
        else:
            rate = line["rates"]["a"]
            self.opponents[i].update(played=line["played"], games=line["games"],
                                     rate=rate["rate"], ci=rate["ci95"],
                                     decided=line["decided"])
        self.fill_matchups()

    def fill_matchups(self) -> None:
        table = self.query_one("#matchups", DataTable)
        table.clear()
        for o in self.opponents:
            rate, ci = o.get("rate"), o.get("ci")
            played = f"{o.get('played', 0):,}/{o['games']:,}" if "games" in o else "-"
            table.add_row(o["label"], played, _pct(rate),
                          f"{_pct(ci[0])} to {_pct(ci[1])}" if ci else "-",
                          Text(_bar(rate, 12), style="green"))

    def _on_done(self, kind: str, code: int, out: str, err: str) -> None:
        self.jobs.pop(kind, None)
        if kind in self.cancelled:
            self.say(f"{'simulation' if kind == 'simulate' else 'suggest'} cancelled")
            self._matchups_head("cancelled")
            return
        if kind == "simulate":
            if code == 0:
                self._matchups_head(f"done: as {self.replay} says")
                self.say("simulation done")
            elif not self.message.startswith("simulate:"):
                self.say(f"simulate failed: {_last_line(err)}", error=True)
            return
        if code != 0:
            self.say(f"suggest: {_last_line(err)}", error=True)
            return
        try:
            result = json.loads(out)
        except ValueError:
            self.say(f"suggest: {_last_line(err) or 'no report'}", error=True)
            return
        self.swaps = result.get("swaps", result.get("changes", []))
        self.fill_swaps()
        good = sum(1 for s in self.swaps if s.get("improves"))
        self.say(f"suggest: {good} swap{'s' if good != 1 else ''} shown to improve the deck "
                 f"({len(self.swaps)} measured); Enter or a applies the highlighted one")

    def fill_swaps(self) -> None:
        table = self.query_one("#swaps", DataTable)
        table.clear()
        for s in self.swaps:
            label = s["change"] if "change" in s else f"-1 {s['out'][2:]}, +1 {s['in'][2:]}"
            gain, ci = s.get("gain"), s.get("ci95") or [None, None]
            table.add_row(label, _points(gain), f"{_points(ci[0])} to {_points(ci[1])}",
                          "improves" if s.get("improves") else "not shown to help")

    def action_apply_swap(self) -> None:
        table = self.query_one("#swaps", DataTable)
        if self._where() == "swaps" and table.row_count:
            self.apply_swap(table.cursor_row)

    def apply_swap(self, i: int) -> None:
        if not 0 <= i < len(self.swaps):
            return
        s = self.swaps[i]
        if "change" in s:  # alpha-walrus: '+1 CARD' or '-1 CARD'
            sign, ref = s["change"].split(" ", 1)
            steps = [("add" if sign.startswith("+") else "remove", ref)]
        else:
            steps = [("remove", s["out"][2:]), ("add", s["in"][2:])]
        self._edit(lambda: self.session.swap(steps))

    def action_cancel(self) -> None:
        if not self.jobs:
            self.say("nothing is running")
            return
        for kind, proc in list(self.jobs.items()):
            self.cancelled.add(kind)
            proc.terminate()

    # -- everywhere ----------------------------------------------------------------------------
    def action_pane(self, which: str) -> None:
        tabs = self.query_one("#bottom", TabbedContent)
        if which in ("cards", "deck"):
            self.screen.set_focus(self.query_one(f"#{which}", DataTable))
            return
        tabs.active = f"{which}-tab"
        target = {"problems": "#problems", "stats": "#stats-scroll",
                  "matchups": "#swaps" if self.swaps else "#matchups"}[which]
        self.screen.set_focus(self.query_one(target))

    def action_search(self) -> None:
        # at once (focus() waits its turn): the keys typed right after '/' are the query's
        self.screen.set_focus(self.query_one("#filter", Input))

    def check_action(self, action: str, parameters) -> bool | None:
        """The keys taken before the focused widget sees them (so that the keys typed right
        after them go where they lead) are taken only where they mean that: Enter, Down and
        Escape from the filter bar, '/' from anywhere else; never over a dialog."""
        if action == "search":
            return self.screen is self.screen_stack[0] and not (
                self.focused is not None and self.focused.id == "filter")
        return True

    def action_to_results(self) -> None:
        query = self.query_one("#filter", Input).value
        if query != self.query_shown:  # keys typed faster than their results came
            self.run_search(query)
        # set now, not later as focus() does: the next key, already waiting, goes there
        self.screen.set_focus(self.query_one("#cards", DataTable))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_save(self) -> None:
        from deckcli.editor.session import Changed

        try:
            said = self.session.save(over=self.over)
        except Changed as exc:
            self.over = True
            self.say(str(exc), error=True)
            return
        except DeckcliError as exc:
            self.say(str(exc), error=True)
            return
        self.over = False
        self.refresh_deck()
        self.say(said)

    def action_undo(self) -> None:
        if self.session.undo():
            self.refresh_deck()
            self.say("undone")
        else:
            self.say("nothing to undo")

    def action_redo(self) -> None:
        if self.session.redo():
            self.refresh_deck()
            self.say("redone")
        else:
            self.say("nothing to redo")

    async def action_quit(self) -> None:
        if not self.session.modified:
            self.exit()
            return

        def answered(what: str | None) -> None:
            if what == "discard":
                self.exit()
            elif what == "save":
                self.action_save()
                if not self.session.modified:
                    self.exit()
        self.push_screen(QuitScreen(self.deck_name()), answered)

    def on_unmount(self) -> None:
        for proc in self.jobs.values():
            proc.terminate()


def _bar(share, width: int = BAR) -> str:
    filled = 0 if share is None else round(max(0.0, min(1.0, share)) * width)
    return "█" * filled + "·" * (width - filled)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _points(x) -> str:
    return "-" if x is None else f"{100 * x:+.1f} pts"


def _last_line(err: str) -> str:
    lines = [x for x in err.strip().splitlines() if x.strip()]
    return lines[-1] if lines else "it stopped"
