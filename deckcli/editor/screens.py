"""The editor's dialogs: the keys (help), quitting with unsaved changes, choosing a version."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

#: (keys, what they do), by pane: the help screen and docs/commands.md list the same
KEYS = [
    ("Everywhere", [
        ("Tab / Shift+Tab", "next / previous pane"),
        ("1 2 3 4 5", "the Cards, Deck, Problems, Stats, Matchups pane"),
        ("/", "search the cards (the filter bar)"),
        ("Ctrl+S", "save, as fmt writes it"),
        ("Ctrl+Z / Ctrl+Y", "undo / redo"),
        ("m", "simulate against the gauntlet (or --against decks)"),
        ("g", "suggest swaps from the collection (--collection)"),
        ("x", "cancel the simulation or suggestion running"),
        ("? / F1", "the keys"),
        ("q / Ctrl+Q", "quit (asks first if there are unsaved changes)"),
    ]),
    ("Cards", [
        ("(typing)", "filter with the query language of cards search"),
        ("Enter / Down / Escape", "from the filter bar to the results"),
        ("+ or Enter", "add a copy of the card (its own printing)"),
        ("-", "remove a copy of it"),
        ("p", "add a copy in a printing or variant you choose"),
        ("s / S", "sort by the next column / reverse"),
    ]),
    ("Deck", [
        ("Up / Down", "move between entries"),
        ("+ / -", "add / remove a copy of the entry"),
        ("p", "choose the entry's printing or variant"),
    ]),
    ("Problems", [
        ("Enter", "jump to the problem's entry in the deck"),
    ]),
    ("Matchups", [
        ("Enter / a", "apply the highlighted suggested swap"),
    ]),
]


class HelpScreen(ModalScreen):
    """Every key, by pane."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        from rich.table import Table
        from rich.text import Text

        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for pane, keys in KEYS:
            grid.add_row(Text(pane, style="bold"), "")
            for key, what in keys:
                grid.add_row(Text("  " + key), Text(what))
            grid.add_row("", "")
        grid.add_row("", Text("The mouse works too: click a pane, a row, a tab, or a column's "
                              "header to sort by it."))
        with VerticalScroll(id="help"):
            yield Static(grid)

    def on_mount(self) -> None:
        box = self.query_one("#help")
        box.border_title = "deckcli edit: keys (Escape closes)"
        box.focus()

    def action_dismiss(self, result=None) -> None:  # noqa: D401 - Textual's action
        self.dismiss(result)


class QuitScreen(ModalScreen[str]):
    """Unsaved changes: save, quit without saving, or stay."""

    BINDINGS = [Binding("s", "choose('save')", "Save"), Binding("d", "choose('discard')",
                                                              "Discard"),
                Binding("escape,c", "choose('cancel')", "Cancel")]

    def __init__(self, name: str):
        super().__init__()
        self.deck_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"{self.deck_name} has unsaved changes.\nSave them before quitting?")
            with Horizontal(id="buttons"):
                yield Button("Save and quit (s)", id="save", variant="primary")
                yield Button("Quit without saving (d)", id="discard", variant="error")
                yield Button("Cancel (Esc)", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class VersionScreen(ModalScreen):
    """The printings and variants of a card; Enter picks one, Escape picks none."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: list, current=None):
        super().__init__()
        self.title_text, self.choices, self.current = title, choices, current

    def compose(self) -> ComposeResult:
        options = []
        for i, c in enumerate(self.choices):
            mark = "  (now)" if self.current is not None and c.key == self.current else ""
            options.append(Option(Text(c.describe() + mark), id=str(i)))  # '[foil]' as text
        yield OptionList(*options, id="versions")

    def on_mount(self) -> None:
        box = self.query_one(OptionList)
        box.border_title = self.title_text
        box.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[int(event.option.id)])

    def action_cancel(self) -> None:
        self.dismiss(None)
