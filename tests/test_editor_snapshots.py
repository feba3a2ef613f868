"""deckcli edit's screens, as pictures: each screen of both games at 80x24 and 120x40, with
animations off, compared with the SVG committed under tests/__snapshots__/ (pytest-textual-
snapshot; after a change meant to alter a screen, look at the new picture and run
``pytest tests/test_editor_snapshots.py --snapshot-update``)."""

from __future__ import annotations

import shutil

import pytest
from conftest import EXAMPLES
from test_editor import editor, until

SIZES = [(80, 24), (120, 40)]
DECKS = {"animal-battle": EXAMPLES / "good" / "championship-deep-divers.txt",
         "alpha-walrus": EXAMPLES / "good" / "alpha-walrus-4p.txt"}


async def _illegal(pilot, app):
    """A fifth Walrus: the deck pane, the status and the Problems pane all change."""
    await pilot.press("slash", *"walrus", "enter", "plus")
    await until(pilot, lambda: not app.session.report.legal, "the problem")


async def _stats(pilot, app):
    await pilot.press("4")


async def _matchups(pilot, app):
    await pilot.press("m")
    await until(pilot, lambda: not app.jobs and app.message == "simulation done",
                "the simulation's end")


async def _help(pilot, app):
    await pilot.press("question_mark")
    await until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen", "help")


async def _quit(pilot, app):
    await _illegal(pilot, app)
    await pilot.press("q")
    await until(pilot, lambda: app.screen.__class__.__name__ == "QuitScreen", "the question")


async def _version(pilot, app):
    await pilot.press("2")
    app.query_one("#deck").move_cursor(row=[r.text for r in app.rows].index("4 Walrus (ABS) 12"))
    await pilot.press("p")
    await until(pilot, lambda: app.screen.__class__.__name__ == "VersionScreen", "printings")


async def _aw_deck(pilot, app):
    await pilot.press("2")


SCREENS = {
    "animal-battle": {"problems": _illegal, "stats": _stats, "matchups": _matchups,
                      "help": _help, "quit": _quit, "printing": _version},
    "alpha-walrus": {"deck": _aw_deck, "stats": _stats, "matchups": _matchups},
}
CASES = [(game, screen, size) for game, screens in SCREENS.items() for screen in screens
         for size in SIZES]


@pytest.mark.parametrize("game,screen,size", CASES,
                         ids=[f"{g}-{s}-{w}x{h}" for g, s, (w, h) in CASES])
def test_screen(game, screen, size, snap_compare, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the status line names the deck as given: 'deck.txt'
    shutil.copyfile(DECKS[game], tmp_path / f"deck{DECKS[game].suffix}")
    app = editor(f"deck{DECKS[game].suffix}", games=20 if game == "animal-battle" else 4,
                 seed=7, players=4 if game == "alpha-walrus" else None)

    async def before(pilot):
        await pilot.pause()
        await SCREENS[game][screen](pilot, app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
