"""deckcli edit: the interactive deck builder, driven key by key through Textual's pilot.

Every test waits on what the app shows (``until``: the pilot lets the app run until a
condition holds, with a bound), never on a fixed sleep.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys

import pytest
from conftest import EXAMPLES, run

DD = EXAMPLES / "good" / "championship-deep-divers.txt"
AW = EXAMPLES / "good" / "alpha-walrus-4p.txt"
BINDER = EXAMPLES / "collections" / "binder.txt"
LIMIT = 240  # seconds any wait may take on a loaded machine before the test fails


def editor(path, *, game=None, fmt=None, players=None, event=None, collection=None, **kw):
    """The app on ``path``, as ``deckcli edit`` makes it (simulate's own defaults), with
    animations off."""
    from deckcli.cards import open_index
    from deckcli.cli.editor_cmd import simulate_defaults
    from deckcli.editor.app import DeckEditor
    from deckcli.editor.session import Session

    index = open_index()
    ev = None
    if event:
        from deckcli.events.model import load_event

        ev = load_event(str(event))
        ev.resolve(index)
    session = Session(str(path), index, game=game, fmt=fmt, players=players, event=ev,
                      collection=str(collection) if collection else None)
    options = {**simulate_defaults(session.game), **kw}
    app = DeckEditor(session, players=players, event_path=str(event) if event else None,
                     **options)
    app.animation_level = "none"
    return app


def drive(app, script, size=(80, 24)):
    """Run ``script(pilot, app)`` against the app in a headless terminal of ``size``."""
    async def main():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app)
    asyncio.run(main())


async def until(pilot, check, what: str, limit: float = LIMIT):
    """Let the app run until ``check()`` holds; fail saying ``what`` was awaited."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not check():
        if loop.time() > end:
            raise AssertionError(f"waited {limit} s for {what}")
        await pilot.pause(0.05)


def copy(tmp_path, source=DD, name=None):
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def deck_rows(app) -> list[str]:
    return [r.text for r in app.rows]


def card_rows(app) -> list[str]:
    return [str(c.ref) for c in app.found]


def problems(app) -> list[tuple[str, str]]:
    return [(p.rule, p.message) for p in app.problems]


# -- the cards pane ------------------------------------------------------------------------------
def test_search_gives_what_cards_search_gives_as_you_type(tmp_path):
    deck = copy(tmp_path)
    query = "speed>100 or weight>50000"
    want = [f"{c['name']}" for c in run("cards", "search", query, "-O", "json").json()]

    async def script(pilot, app):
        await pilot.press("slash", *"walrus")
        await until(pilot, lambda: card_rows(app) == ["Walrus (ABS) 12"], "Walrus alone")
        app.query_one("#filter").value = ""
        await pilot.press(*query)
        await until(pilot, lambda: [c.name for c in app.found] == want, "the search's cards")
        await pilot.press("backspace")  # 'weight>5000': more cards
        await until(pilot, lambda: len(app.found) > len(want), "more cards")
        app.query_one("#filter").value = ""
        await pilot.press(*"speed>")
        await until(pilot, lambda: "query column 7" in str(app.query_one("#cards-info").render()),
                    "the query's error and its column")

    drive(app := editor(deck), script)
    assert app.session.text == deck.read_text()  # searching changes nothing


def test_the_cards_pane_sorts_by_a_column_by_key_and_by_clicking_its_header(tmp_path):
    async def script(pilot, app):
        await pilot.press("s")  # the next column: weight
        await until(pilot, lambda: app.card_cols[app.sort_col] == "weight", "sorted by weight")
        table = app.query_one("#cards")
        weights = [app.session.index.card(int(table.coordinate_to_cell_key((i, 0)).row_key.value))
                   .stats.get("weight", float("-inf")) for i in range(table.row_count)]
        assert weights == sorted(weights)
        await pilot.press("S")
        await until(pilot, lambda: app.sort_reverse, "reversed")
        await pilot.click("#cards", offset=(2, 0))  # the 'card' column's header
        await until(pilot, lambda: app.card_cols[app.sort_col] == "card", "sorted by name")

    drive(editor(copy(tmp_path)), script, size=(120, 40))


def test_with_a_collection_the_cards_pane_shows_copies_owned_and_in_the_deck(tmp_path):
    async def script(pilot, app):
        await pilot.press("slash", *"emperor penguin", "enter")
        await until(pilot, lambda: card_rows(app) == ["Emperor Penguin (ABS) 31"], "the card")
        table = app.query_one("#cards")
        row = table.get_row_at(0)
        cols = app.card_cols
        assert str(row[cols.index("own")]) == "2"  # the binder's '2 Emperor Penguin (ABS) 31'
        assert str(row[cols.index("deck")]) == "4"

    drive(editor(copy(tmp_path), collection=BINDER), script, size=(120, 40))


# -- adding and removing, problems appearing and disappearing --------------------------------
def test_plus_and_minus_in_the_cards_pane_add_and_remove_and_problems_follow(tmp_path):
    async def script(pilot, app):
        await pilot.press("slash", *"walrus", "enter", "plus")
        await until(pilot, lambda: "5 Walrus (ABS) 12" in deck_rows(app), "a fifth Walrus")
        assert app.session.report.card_count == 61 and not app.session.report.legal
        assert ("AB-1.5", "Walrus (ABS) 12: 5 copies, limit 4 (line 22: 5 Walrus (ABS) 12)") \
            in problems(app)
        status = str(app.query_one("#status").render())
        assert "61 cards" in status and "ILLEGAL" in status and "*" in status
        await pilot.press("minus")
        await until(pilot, lambda: "4 Walrus (ABS) 12" in deck_rows(app), "four again")
        assert problems(app) == [] and "LEGAL" in str(app.query_one("#status").render())
        assert app.message == "removed 1 Walrus (ABS) 12"

    drive(editor(copy(tmp_path)), script)


def test_the_deck_pane_adds_and_removes_copies_of_its_entry(tmp_path):
    async def script(pilot, app):
        await pilot.press("2")
        assert app.focused.id == "deck"
        orca = deck_rows(app).index("4 Orca (ABS) 10")
        app.query_one("#deck").move_cursor(row=orca)
        await pilot.press("minus", "minus")
        await until(pilot, lambda: "2 Orca (ABS) 10" in deck_rows(app), "two Orcas")
        assert ("AB-1.4", "championship decks hold exactly 60 cards; this deck has 58") \
            in problems(app)
        await pilot.press("plus")
        await until(pilot, lambda: "3 Orca (ABS) 10" in deck_rows(app), "three Orcas")

    drive(editor(copy(tmp_path)), script)


def test_choosing_a_printing_and_variant_changes_every_copy_of_the_entry(tmp_path):
    async def script(pilot, app):
        await pilot.press("2")
        app.query_one("#deck").move_cursor(row=deck_rows(app).index("4 Walrus (ABS) 12"))
        await pilot.press("p")
        await until(pilot, lambda: app.screen.__class__.__name__ == "VersionScreen",
                    "the printings")
        options = app.screen.query_one("#versions")
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert "Walrus (ABS) 12  (now)" in labels and "Walrus (PRM) P3 [promotional]" in labels
        options.highlighted = labels.index("Walrus (ABS) 12 [foil]")
        await pilot.press("enter")
        await until(pilot, lambda: "4 Walrus (ABS) 12 [foil]" in deck_rows(app), "foils")
        assert app.session.report.legal  # the same card: the verdict holds

    drive(editor(copy(tmp_path)), script)


def test_undo_and_redo(tmp_path):
    deck = copy(tmp_path)

    async def script(pilot, app):
        await pilot.press("slash", *"orca", "enter", "plus", "plus")
        await until(pilot, lambda: "6 Orca (ABS) 10" in deck_rows(app), "six Orcas")
        await pilot.press("ctrl+z")
        await until(pilot, lambda: "5 Orca (ABS) 10" in deck_rows(app), "undone once")
        await pilot.press("ctrl+z")
        await until(pilot, lambda: not app.session.modified, "back as read")
        assert app.session.text == deck.read_text()
        await pilot.press("ctrl+y")
        await until(pilot, lambda: "5 Orca (ABS) 10" in deck_rows(app), "redone")
        await pilot.press("ctrl+y", "ctrl+y")
        await until(pilot, lambda: app.message == "nothing to redo", "the end of the history")

    drive(editor(deck), script)


# -- problems --------------------------------------------------------------------------------
def test_a_problem_jumps_to_its_entry(tmp_path):
    async def script(pilot, app):
        await pilot.press("slash", *"narwhal", "enter", "plus")
        await until(pilot, lambda: any(r == "AB-1.5" for r, _ in problems(app)), "the problem")
        await pilot.press("3")
        assert app.focused.id == "problems"
        i = [r for r, _ in problems(app)].index("AB-1.5")
        app.query_one("#problems").move_cursor(row=i)
        await pilot.press("enter")
        await until(pilot, lambda: app.focused.id == "deck", "the deck pane")
        assert app.rows[app.query_one("#deck").cursor_row].text == "5 Narwhal (ABS) 13"

    drive(editor(copy(tmp_path)), script)


def test_the_event_in_force_gives_its_problems(tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text('name: Test Open\ngame: animal-battle\nformat: championship\n'
                     'banned: ["Walrus (ABS) 12"]\n', encoding="utf-8")
    deck = copy(tmp_path)
    want = run("validate", deck, "--event", event, "-O", "json").json()["decks"][0]["problems"]

    async def script(pilot, app):
        assert [(p["rule"], p["message"]) for p in want] == problems(app)
        assert any(r.startswith("EV-") for r, _ in problems(app))
        assert "ILLEGAL" in str(app.query_one("#status").render())

    drive(editor(deck, event=event), script)


# -- saving and quitting -----------------------------------------------------------------------
def test_save_writes_what_fmt_writes_keeping_comments_and_line_ends(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"# my deck\r\ngame: animal-battle\r\n4 Walrus  # the main attacker\r\n"
                     b"4 Orca\r\n")

    async def script(pilot, app):
        await pilot.press("slash", *"narwhal", "enter", "plus")
        await until(pilot, lambda: app.session.modified, "an edit")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not app.session.modified, "saved")
        assert app.message.startswith("saved deck.txt: 9 cards, ILLEGAL")

    os.chdir(tmp_path)
    try:
        drive(editor("deck.txt"), script)
    finally:
        os.chdir(EXAMPLES.parent)
    data = deck.read_bytes()
    assert b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    text = data.decode()
    assert "# my deck" in text and "4 Walrus (ABS) 12  # the main attacker" in text
    assert "1 Narwhal (ABS) 13" in text
    assert run("fmt", "--check", deck).code == 0
    assert run("validate", deck).code == 1  # 9 cards: too few for casual, as the app said


def test_a_read_only_file_is_said_in_the_app_and_nothing_is_lost(tmp_path):
    deck = copy(tmp_path)
    before = deck.read_bytes()
    deck.chmod(0o444)

    async def script(pilot, app):
        await pilot.press("slash", *"orca", "enter", "plus", "ctrl+s")
        await until(pilot, lambda: "read-only" in app.message, "the message")
        assert "the deck is kept here" in app.message
        assert app.session.modified and "5 Orca (ABS) 10" in deck_rows(app)

    drive(editor(deck), script)
    assert deck.read_bytes() == before


def test_a_file_removed_while_editing_is_said_and_written_again_on_a_second_save(tmp_path):
    deck = copy(tmp_path)

    async def script(pilot, app):
        await pilot.press("slash", *"orca", "enter", "plus")
        await until(pilot, lambda: app.session.modified, "an edit")
        deck.unlink()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "is gone" in app.message, "the message")
        assert not deck.exists() and app.session.modified
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not app.session.modified, "saved")

    drive(editor(deck), script)
    assert "5 Orca (ABS) 10" in deck.read_text()


def test_a_file_changed_on_disk_is_not_written_over_without_a_second_save(tmp_path):
    deck = copy(tmp_path)

    async def script(pilot, app):
        await pilot.press("slash", *"orca", "enter", "plus")
        await until(pilot, lambda: app.session.modified, "an edit")
        deck.write_text(deck.read_text() + "# someone else's note\n")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "changed on disk" in app.message, "the message")
        assert "someone else's note" in deck.read_text()

    drive(editor(deck), script)


def test_quitting_with_unsaved_changes_asks_first(tmp_path):
    deck = copy(tmp_path)
    before = deck.read_bytes()

    async def script(pilot, app):
        await pilot.press("slash", *"orca", "enter", "plus", "q")
        await until(pilot, lambda: app.screen.__class__.__name__ == "QuitScreen", "the question")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen.__class__.__name__ != "QuitScreen", "stay")
        assert app.is_running and app.session.modified
        await pilot.press("q", "d")
        await until(pilot, lambda: not app.is_running, "quit")

    drive(editor(deck), script)
    assert deck.read_bytes() == before


def test_save_and_quit_from_the_question(tmp_path):
    deck = copy(tmp_path)

    async def script(pilot, app):
        await pilot.press("slash", *"orca", "enter", "plus", "q")
        await until(pilot, lambda: app.screen.__class__.__name__ == "QuitScreen", "the question")
        await pilot.press("s")
        await until(pilot, lambda: not app.is_running, "saved and quit")

    drive(editor(deck), script)
    assert "5 Orca (ABS) 10" in deck.read_text()


def test_quitting_without_changes_does_not_ask(tmp_path):
    async def script(pilot, app):
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "quit")

    drive(editor(copy(tmp_path)), script)


def test_a_new_deck_is_started_as_new_makes_one_and_written_at_the_first_save(tmp_path):
    deck, made = tmp_path / "mine.txt", tmp_path / "made.txt"
    assert run("new", made, "--format", "championship").code == 0

    async def script(pilot, app):
        assert not deck.exists() and app.session.text == made.read_text()
        await pilot.press("slash", *"walrus", "enter", "plus", "ctrl+s")
        await until(pilot, lambda: not app.session.modified, "saved")

    drive(editor(deck, fmt="championship"), script)
    assert deck.read_text() == ("game: animal-battle\nformat: championship\n\nAnimals: 1\n"
                                "1 Walrus (ABS) 12\n")


# -- help, panes, colour ----------------------------------------------------------------------
def test_the_help_screen_lists_every_key_the_app_binds(tmp_path):
    from deckcli.editor.app import DeckEditor
    from deckcli.editor.screens import KEYS

    said = " ".join(k for _pane, keys in KEYS for k, _what in keys).lower()
    names = {"slash": "/", "question_mark": "?", "plus": "+", "minus": "-",
             "equals_sign": "+", "escape": "escape"}
    for binding in DeckEditor.BINDINGS:
        for key in binding.key.split(","):
            shown = names.get(key, key).replace("ctrl+", "ctrl+")
            assert shown.lower() in said, key

    async def script(pilot, app):
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen", "help")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen.__class__.__name__ != "HelpScreen", "closed")

    drive(editor(copy(tmp_path)), script)


def test_tab_and_the_number_keys_move_between_panes(tmp_path):
    async def script(pilot, app):
        assert app.focused.id == "cards"
        await pilot.press("tab")
        assert app.focused.id == "deck"
        await pilot.press("4")
        assert app.query_one("#bottom").active == "stats-tab"
        await pilot.press("5")
        assert app.query_one("#bottom").active == "matchups-tab"
        await pilot.press("1")
        assert app.focused.id == "cards"
        await pilot.click("#deck")
        assert app.focused.id == "deck"

    drive(editor(copy(tmp_path)), script)


def test_the_stats_pane_shows_what_deckcli_stats_gives(tmp_path):
    deck = copy(tmp_path)
    doc = run("stats", deck, "-O", "json").json()

    async def script(pilot, app):
        await pilot.press("4")
        shown = str(app.query_one("#stats").render())
        import re

        assert re.search(rf"Animals +{doc['kinds']['animal']} ", shown), shown
        hand = doc["opening_hand"]["chance_at_least_one"]
        assert (">99.99%" if 0.9999 < hand < 1 else f"{100 * hand:.2f}%") in shown
        beats = doc["stats"]["weight"]["median_beats"]
        assert f"{100 * beats:.0f}%" in shown

    drive(editor(deck), script)


def test_no_color_gives_a_screen_without_colour(tmp_path, monkeypatch):
    import re

    monkeypatch.setenv("NO_COLOR", "1")
    app = editor(copy(tmp_path))

    async def script(pilot, app):
        svg = app.export_screenshot()
        frame = {"ff5f57", "febc2e", "28c840", "c5c8c6"}  # the picture's window buttons, title
        colours = set(re.findall(r"#([0-9a-f]{6})", svg)) - frame
        assert colours and all(c[0:2] == c[2:4] == c[4:6] for c in colours), colours

    drive(app, script)
    assert app.no_color


# -- matchups ------------------------------------------------------------------------------------
def test_a_simulation_reports_what_simulate_prints_for_the_same_seed(tmp_path):
    deck = copy(tmp_path)

    async def script(pilot, app):
        await pilot.press("m")
        await until(pilot, lambda: not app.jobs and app.message == "simulation done",
                    "the simulation's end")

    drive(app := editor(deck, games=40, seed=11), script)
    from deckcli.build.gauntlet import decks

    for o, path in zip(app.opponents, decks("animal-battle")):
        r = run("simulate", deck, path, "--games", "40", "--seed", "11", "-O", "json").json()
        assert (o["rate"], o["ci"], o["played"]) == (r["win_rate"]["a"], r["win_rate"]["ci95"],
                                                     40), o["label"]


def test_a_simulation_is_cancelled(tmp_path):
    async def script(pilot, app):
        await pilot.press("m")
        await until(pilot, lambda: app.opponents and app.opponents[0].get("played"),
                    "the first games")
        proc = app.jobs["simulate"]
        await pilot.press("x")
        await until(pilot, lambda: not app.jobs, "the process to end")
        assert proc.returncode not in (0, None)
        assert app.message == "simulation cancelled"
        assert not app.opponents[0].get("done")

    drive(editor(copy(tmp_path), games=100_000, seed=3), script)


def test_a_deck_that_cannot_play_says_why(tmp_path):
    deck = tmp_path / "actions.txt"
    deck.write_text("4 Herd Instinct\n", encoding="utf-8")

    async def script(pilot, app):
        await pilot.press("m")
        await until(pilot, lambda: not app.jobs and "cannot start a game" in app.message,
                    "the reason")

    drive(editor(deck), script)


def test_a_suggested_swap_is_applied_with_one_key(tmp_path):
    deck = copy(tmp_path, EXAMPLES / "good" / "casual-savanna.yaml")

    async def script(pilot, app):
        await pilot.press("g")
        await until(pilot, lambda: not app.jobs and app.swaps, "suggest's swaps", limit=600)
        swap = app.swaps[0]
        before = app.session.in_deck().copy()
        await pilot.press("5")
        assert app.focused.id == "swaps"
        await pilot.press("enter")
        await until(pilot, lambda: app.session.modified, "the swap")
        from deckcli.decks.edit import choose_card

        out = choose_card(app.session.index, "animal-battle", swap["out"][2:]).card.id
        into = choose_card(app.session.index, "animal-battle", swap["in"][2:]).card.id
        after = app.session.in_deck()
        assert after[out] == before[out] - 1 and after[into] == before[into] + 1
        assert sum(after.values()) == sum(before.values())

    # the key that applies a swap is the subject: suggest's smallest search, random play
    drive(editor(deck, collection=BINDER, seed=5, suggest_options=[
        "--measure", "20", "--seed", "5", "--games", "20", "--policy", "random"]),
        script, size=(120, 40))


# -- alpha-walrus ------------------------------------------------------------------------------
def test_alpha_walrus_shared_deck_and_players(tmp_path):
    deck = copy(tmp_path, AW)

    async def script(pilot, app):
        assert "3 players" in str(app.query_one("#status").render())
        await pilot.press("4")
        assert "Creature levels" in str(app.query_one("#stats").render())
        await pilot.press("m")
        await until(pilot, lambda: not app.jobs and app.message == "simulation done",
                    "the simulation's end")
        assert [o["label"] for o in app.opponents] == ["p1", "p2", "p3"]
        r = run("simulate", deck, "--game", "alpha-walrus", "--players", "3", "--games", "6",
                "--seed", "2", "-O", "json").json()
        assert [o["rate"] for o in app.opponents] == \
            [r["win_rate"][s]["rate"] for s in ("p1", "p2", "p3")]

    drive(editor(deck, players=3, games=6, seed=2), script, size=(120, 40))


# -- the command ---------------------------------------------------------------------------------
def test_edit_needs_a_terminal():
    r = run("edit", DD)
    assert r.code == 2 and "interactive: run it in a terminal" in r.err, r


def test_edit_refuses_a_deck_it_cannot_read_before_any_screen(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("four Walrus\n", encoding="utf-8")
    r = run("edit", bad)
    assert r.code == 2 and "cannot edit it" in r.err and "Traceback" not in r.err, r
    r = run("edit", DD, "--against", tmp_path / "nowhere.txt")
    assert r.code == 2 and "nowhere.txt" in r.err, r


def test_no_other_command_imports_textual():
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "deckcli", "validate",
                        str(DD)], capture_output=True, text=True, cwd=EXAMPLES.parent)
    assert r.returncode == 0, r.stderr
    assert "deckcli.editor" not in r.stderr and "textual" not in r.stderr.lower()
    assert "encodings" in r.stderr  # importtime did report


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_in_a_real_terminal_search_add_save_and_quit(tmp_path):
    from pty_session import Terminal

    deck = copy(tmp_path)
    with Terminal([sys.executable, "-m", "deckcli", "edit", deck.name], cwd=tmp_path) as t:
        t.wait_for("LEGAL")
        t.wait_for("Blue Whale")
        t.type("/")  # the filter bar: the footer offers F1 for help, as '?' would be typed
        t.wait_for("f1 Help")
        t.type("narwhal")
        t.wait_for(" 1 card ")
        t.type("\r")  # to the results: '?' is a key again
        t.wait_for("? Help")
        t.type("+")
        t.wait_for("added 1 Narwhal (ABS) 13 (now 5)")
        t.type("\x13")  # Ctrl+S
        t.wait_for(f"saved {deck.name}: 61 cards, ILLEGAL")
        t.type("q")
        assert t.wait_exit() == 0
    assert "5 Narwhal (ABS) 13" in deck.read_text()
    r = run("validate", deck)
    assert r.code == 1 and "Narwhal (ABS) 13: 5 copies, limit 4" in r.out, r


# -- the docs ------------------------------------------------------------------------------------
def test_docs_list_every_key_the_help_screen_lists():
    from deckcli.editor.screens import KEYS

    page = (EXAMPLES.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    section = page[page.index("## `deckcli edit`"):page.index("## `deckcli cards`")]
    for _pane, keys in KEYS:
        for key, _what in keys:
            assert f"| {key} |" in section, key


def test_the_readmes_picture_is_the_one_the_snapshot_test_draws():
    snapshots = EXAMPLES.parent / "tests" / "__snapshots__" / "test_editor_snapshots"
    drawn = (snapshots / "test_screen[animal-battle-problems-120x40].svg").read_bytes()
    assert (EXAMPLES.parent / "docs" / "edit.svg").read_bytes() == drawn


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_a_key_typed_right_after_enter_goes_to_the_results_not_the_query(tmp_path):
    """Enter in the filter bar moved to the results only once its message was handled: a '+'
    typed in the same breath was added to the query ('narwhal+': no cards) instead."""
    from pty_session import Terminal

    deck = copy(tmp_path)
    with Terminal([sys.executable, "-m", "deckcli", "edit", deck.name], cwd=tmp_path) as t:
        t.wait_for("Blue Whale")
        t.type("/narwhal\r+")  # as fast as a person who knows the keys
        t.wait_for("added 1 Narwhal (ABS) 13 (now 5)")
