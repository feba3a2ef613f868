"""deckcli fmt: golden files, safety (atomic writes, equivalence), exit codes, properties."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from conftest import EXAMPLES, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GOLDEN = Path(__file__).parent / "golden" / "fmt"
UPDATE = os.environ.get("DECKCLI_UPDATE_GOLDEN") == "1"
CASES = sorted(p.name.replace(".input", "") for p in GOLDEN.glob("*.input.*"))

MESSY = ("name: Deep Divers\ngame: animal-battle\n"
         "4x walrus abs 012  # main\n2 Orca\n1 Walrus (ABS) 12\n2 Herd Instinct (DWV) 90\n")


def _expected_path(case: str) -> Path:
    stem, ext = case.rsplit(".", 1)
    return GOLDEN / f"{stem}.expected.{ext}"


# -- golden files ------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_golden(tmp_path, case):
    stem, ext = case.rsplit(".", 1)
    source = (GOLDEN / f"{stem}.input.{ext}").read_bytes()
    deck = tmp_path / f"deck.{ext}"
    deck.write_bytes(source)
    r = run("fmt", deck)
    assert r.code == 0, r
    expected = _expected_path(case)
    if UPDATE:
        expected.write_bytes(deck.read_bytes())
    assert deck.read_bytes() == expected.read_bytes(), r
    again = run("fmt", "--check", deck)  # idempotent: the expected output is already canonical
    assert again.code == 0 and "0 files would be reformatted, 1 unchanged" in again.err, again


def test_golden_cases_cover_every_format():
    exts = {c.rsplit(".", 1)[1] for c in CASES}
    assert {"txt", "yaml", "json"} <= exts
    crlf_bom = (GOLDEN / "crlf_bom.input.txt").read_bytes()
    assert crlf_bom.startswith(b"\xef\xbb\xbf") and b"\r\n" in crlf_bom


def test_golden_text_output_shape():
    out = _expected_path("comments.txt").read_text(encoding="utf-8").splitlines()
    assert out[:2] == ["# Deep Divers: my league deck", "# (last changed in March)"]
    header = [line.split(":")[0] for line in out[3:7]]
    assert header == ["game", "format", "name", "player"]
    assert "Animals: 23" in out and "Actions: 3" in out
    assert out.index("Animals: 23") < out.index("Actions: 3")
    assert "5 Walrus (ABS) 12  # main attacker; one more" in out  # merged, spelled as the db
    assert "1 Wlarus" in out  # an unknown card stays as written
    # docs/decklists.md: entries are written QTY NAME (SET) NUMBER; a card named alone gets its own
    # printing (the card's set and collector number)
    assert "3 Orca (ABS) 10" in out
    assert "6 Bison (DWV) 2" in out  # '02' and '2' are one printing
    assert not any(line.startswith(("4x", "x3")) for line in out)


# -- exit codes and modes ----------------------------------------------------------------------
def test_check_lists_files_and_exits_1_without_writing(deck_file):
    path = deck_file(MESSY)
    r = run("fmt", "--check", path)
    assert r.code == 1, r
    assert f"would reformat {path}" in r.err and "1 file would be reformatted" in r.err
    assert path.read_text() == MESSY


def test_check_on_a_formatted_file_exits_0(deck_file):
    path = deck_file(MESSY)
    assert run("fmt", path).code == 0
    r = run("fmt", "--check", path)
    assert r.code == 0, r


def test_a_header_line_with_no_value_is_left_out_and_the_deck_kept(deck_file):
    """``game:`` and ``name:`` alone say nothing (DL-2.3): fmt leaves them out, keeps the
    header that has a value and every card, and the result reads without the warning."""
    path = deck_file("game:\nname:\nplayer: Ann\n4 Walrus\n16 Orca\n")
    before = run("validate", path, "--output", "json")
    assert run("fmt", path).code == 0
    text = path.read_text()
    assert "game:" not in text and "name:" not in text and "player: Ann" in text
    after = run("validate", path, "--output", "json")
    assert "empty-header" in before.out and "empty-header" not in after.out
    assert after.out.count('"card_count": 20') == 1 and '"player": "Ann"' in after.out


@pytest.mark.parametrize("text", ["name: # to be named\n4 Walrus\n16 Orca\n",
                                  "# top\n\nname: # to be named\ngame: animal-battle\n\n"
                                  "4 Walrus\n16 Orca\n",
                                  "About\nName # to be named\n\nDeck\n4 Walrus\n16 Orca\n"])
def test_the_comment_on_a_header_line_with_no_value_is_kept(deck_file, text):
    """fmt leaves the empty header line out, but not what its comment says."""
    path = deck_file(text)
    assert run("fmt", path).code == 0
    out = path.read_text()
    assert "# to be named" in out and "name:" not in out, out
    assert run("fmt", "--check", path).code == 0


@pytest.mark.parametrize("text,top", [
    ("# My ocean deck, v3\n4 Walrus\n16 Orca\n", ["# My ocean deck, v3"]),
    ("// Deep Divers\n4 Walrus\n16 Orca\n", ["# Deep Divers"]),  # Moxfield's title line
    ("# one\n\n# two\n// three\nAnimals\n16 Orca\n4 Walrus\n", ["# one", "# two", "# three"]),
    ("# v3\nDeck\n4 Walrus\n16 Orca\n", ["# v3"]),
    ("# v3\n# by Ada\nname: Deep\n4 Walrus\n16 Orca\n", ["# v3", "# by Ada"])])
def test_comments_before_the_first_entry_or_header_stay_at_the_top(deck_file, text, top):
    """A title comment on line 1, right above the first entry, went with that entry into
    the middle of the list ('4 Orca' sorts first); every comment line before the first
    header, section header or entry is the file's top, and stays there, in order."""
    path = deck_file(text)
    assert run("fmt", path).code == 0
    out = path.read_text().splitlines()
    assert out[:len(top)] == top, out
    assert sum(line.startswith("#") for line in out) == len(top), out
    converted = run("convert", path, "--to", "yaml")
    assert converted.out.splitlines()[:len(top)] == top, converted


def test_diff_writes_nothing_and_exits_0(deck_file):
    path = deck_file(MESSY)
    r = run("fmt", "--diff", path)
    assert r.code == 0, r
    assert r.out.startswith(f"--- {path} (original)\n+++ {path} (formatted)\n")
    assert "+5 Walrus (ABS) 12  # main" in r.out and "-4x walrus abs 012  # main" in r.out
    assert path.read_text() == MESSY


def test_diff_with_check_exits_1(deck_file):
    path = deck_file(MESSY)
    r = run("fmt", "--diff", "--check", path)
    assert r.code == 1, r
    assert "+Animals: 7" in r.out
    assert path.read_text() == MESSY


def test_summary_line_counts_files(tmp_path):
    (tmp_path / "a.txt").write_text(MESSY)
    (tmp_path / "b.txt").write_text(MESSY)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.yaml").write_text("cards:\n  - {count: 4, name: Walrus}\n")
    (tmp_path / "notes.md").write_text("not a deck\n")
    run("fmt", tmp_path / "b.txt")
    r = run("fmt", tmp_path)
    assert r.code == 0, r
    # c.yaml names only the card, so it gains the card's printing and is reformatted too
    assert r.err.strip().splitlines()[-1] == "2 files reformatted, 1 unchanged"
    assert (tmp_path / "notes.md").read_text() == "not a deck\n"


def test_folder_without_decks_exits_2(tmp_path):
    r = run("fmt", tmp_path)
    assert r.code == 2 and "no deck files" in r.err, r


def test_missing_path_exits_2(tmp_path):
    r = run("fmt", tmp_path / "nope.txt")
    assert r.code == 2 and "Traceback" not in r.err, r


def test_stdin_to_stdout():
    r = run("fmt", "-", input=MESSY)
    assert r.code == 0, r
    assert r.out == ("game: animal-battle\nname: Deep Divers\n\nAnimals: 7\n2 Orca (ABS) 10\n"
                     "5 Walrus (ABS) 12  # main\n\nActions: 2\n2 Herd Instinct (DWV) 90\n")
    assert "1 file reformatted" in r.err


def test_stdin_check_prints_nothing_and_exits_1():
    r = run("fmt", "--check", "-", input=MESSY)
    assert r.code == 1 and r.out == "", r


def test_stdin_yaml_with_stdin_filename():
    r = run("fmt", "--stdin-filename", "d.yaml", "-",
            input="name: X\ncards:\n  - {count: 2, name: orca}\n")
    assert r.code == 0, r
    assert r.out == 'name: X\ncards:\n  - {count: 2, name: Orca, set: ABS, number: "10"}\n'


def test_crlf_and_bom_are_kept(deck_file):
    path = deck_file(b"\xef\xbb\xbfgame: animal-battle\r\n4x Walrus\r\n2 orca # big\r\n")
    r = run("fmt", path)
    assert r.code == 0, r
    assert path.read_bytes() == (b"\xef\xbb\xbfgame: animal-battle\r\n\r\nAnimals: 6\r\n"
                                 b"2 Orca (ABS) 10  # big\r\n4 Walrus (ABS) 12\r\n")


def test_crlf_yaml_and_json_are_kept(deck_file):
    y = deck_file(b"cards:\r\n  - {count: 2, name: orca}\r\n", "d.yaml")
    j = deck_file(b'\xef\xbb\xbf{"cards": [{"count": 2, "name": "orca"}]}\r\n', "d.json")
    assert run("fmt", y, j).code == 0
    assert y.read_bytes() == b'cards:\r\n  - {count: 2, name: Orca, set: ABS, number: "10"}\r\n'
    assert j.read_bytes() == (b'\xef\xbb\xbf{\r\n  "cards": [\r\n'
                              b'    {"count": 2, "name": "Orca", "set": "ABS", "number": "10"}\r\n'
                              b'  ]\r\n}\r\n')


def test_file_with_parse_errors_is_not_rewritten(deck_file):
    text = "game: animal-battle\nfour Walrus\n2 orca\n"
    path = deck_file(text)
    before = path.read_bytes()
    r = run("fmt", path)
    assert r.code == 1, r
    assert f"{path}:2: error:" in r.err and "no-quantity" in r.err
    assert "could not be formatted" in r.err
    assert path.read_bytes() == before


def test_unreadable_file_is_not_rewritten(deck_file):
    path = deck_file(b"4 Walrus\n\xff\xfe\n")
    r = run("fmt", path)
    assert r.code == 1 and "not UTF-8" in r.err, r
    assert path.read_bytes() == b"4 Walrus\n\xff\xfe\n"


def test_unknown_game_is_not_rewritten(deck_file):
    path = deck_file("game: chess\n4 Walrus\n")
    r = run("fmt", path)
    assert r.code == 1 and "unknown game" in r.err, r
    assert path.read_text() == "game: chess\n4 Walrus\n"


def test_mode_is_kept(deck_file):
    path = deck_file(MESSY)
    os.chmod(path, 0o640)
    assert run("fmt", path).code == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert path.read_text() != MESSY


# -- safety ------------------------------------------------------------------------------------
@pytest.mark.parametrize("victim", ["replace", "fsync"])
def test_a_write_killed_half_way_leaves_the_original(deck_file, monkeypatch, victim):
    path = deck_file(MESSY)

    def boom(*args, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, victim, boom)
    r = run("fmt", path)
    monkeypatch.undo()
    assert r.code == 2, r
    assert "No space left on device" in r.err and "Traceback" not in r.err
    assert path.read_text() == MESSY
    assert sorted(p.name for p in path.parent.iterdir()) == ["deck.txt"]


def test_unsafe_output_is_refused_as_an_internal_error(deck_file, monkeypatch):
    import deckcli.decks.format as fmt_module

    real = fmt_module.format_deck
    path = deck_file(MESSY)
    monkeypatch.setattr(fmt_module, "format_deck",
                        lambda *a, **k: real(*a, **k).replace("5 Walrus", "4 Walrus"))
    r = run("fmt", path)
    assert r.code == 2, r
    assert "internal error, please report" in r.err and "not the same deck" in r.err
    assert path.read_text() == MESSY


def test_unstable_output_is_refused(deck_file, monkeypatch):
    import deckcli.decks.format as fmt_module

    real = fmt_module.format_deck
    calls = []

    def flaky(*a, **k):
        calls.append(1)
        return real(*a, **k) + ("# again\n" if len(calls) > 1 else "")

    path = deck_file(MESSY)
    monkeypatch.setattr(fmt_module, "format_deck", flaky)
    r = run("fmt", path)
    assert r.code == 2 and "not stable" in r.err, r
    assert path.read_text() == MESSY


def test_symlink_outside_the_folder_is_refused(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text(MESSY)
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "link.txt").symlink_to(outside)
    r = run("fmt", decks / "link.txt")
    assert r.code == 2 and "outside its folder" in r.err, r
    assert outside.read_text() == MESSY


def test_symlink_inside_the_folder_is_written_through(tmp_path):
    (tmp_path / "real.txt").write_text(MESSY)
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    r = run("fmt", tmp_path / "link.txt")
    assert r.code == 0, r
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "real.txt").read_text().startswith("game: animal-battle\n")


def test_atomic_write_refuses_a_directory(tmp_path):
    from deckcli.files.write import WriteError, atomic_write

    with pytest.raises(WriteError, match="directory"):
        atomic_write(tmp_path, b"x")


def test_atomic_write_without_overwrite_never_clobbers(tmp_path):
    from deckcli.files.write import WriteError, atomic_write

    path = tmp_path / "d.txt"
    atomic_write(path, b"first\n", overwrite=False)
    with pytest.raises(WriteError, match="already exists"):
        atomic_write(path, b"second\n", overwrite=False)
    assert path.read_bytes() == b"first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["d.txt"]


# -- properties --------------------------------------------------------------------------------
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
WORDS = st.text(st.characters(whitelist_categories=("L", "N"), whitelist_characters=" -'!"),
                min_size=1, max_size=12).map(str.strip).filter(bool)


@st.composite
def deck_texts(draw, index, game):
    """A messy but valid text decklist of real cards (plus the odd unknown name)."""
    cards = index.all_cards(game)
    from deckcli.games import get as get_game

    plurals = list(get_game(game).kinds.values())
    lines = [f"# {draw(WORDS)}"] if draw(st.booleans()) else []
    header = draw(st.lists(st.sampled_from(["game", "format", "players", "name", "player"]),
                           unique=True))
    for key in header:
        value = {"game": game, "format": draw(st.sampled_from(["casual", "championship"]))
                 if game == "animal-battle" else "casual",
                 "players": str(draw(st.integers(2, 12)))}.get(key) or draw(WORDS)
        lines.append(f"{key.capitalize() if draw(st.booleans()) else key}: {value}")
    if game == "alpha-walrus" and "format" in header:
        lines.remove(next(x for x in lines if x.lower().startswith("format")))
    for _ in range(draw(st.integers(1, 14))):
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(plurals)) + draw(st.sampled_from(["", ":", ": 3"])))
        if draw(st.integers(0, 5)) == 0:
            lines.append(f"# {draw(WORDS)}")
        qty = draw(st.sampled_from(["{n}", "{n}x", "x{n}", "{n} x"])).format(
            n=draw(st.integers(1, 5)))
        if draw(st.integers(0, 12)) == 0:
            body = "Zzyzx " + draw(WORDS)  # no such card: kept as written
        else:
            card = draw(st.sampled_from(cards))
            name = draw(st.sampled_from([card.name, card.name.lower(), card.name.upper()]))
            printing = draw(st.sampled_from([None, *index.printings_of(card.id)]))
            body = name
            if printing is not None:
                numbers = [printing.number]
                if printing.number[0].isdigit():
                    numbers.append("0" + printing.number)  # leading zeros are ignored
                set_code = printing.set_code
                if draw(st.booleans()):
                    set_code = set_code.lower()
                body += f" ({set_code}) {draw(st.sampled_from(numbers))}"
                if printing.variants and draw(st.booleans()):
                    tags = draw(st.lists(st.sampled_from(printing.variants), unique=True,
                                         min_size=1))
                    body += " [" + ", ".join(tags) + "]"
        comment = f"  # {draw(WORDS)}" if draw(st.integers(0, 4)) == 0 else ""
        lines.append(f"{qty} {body}{comment}")
    if draw(st.booleans()):
        lines.append(f"# {draw(WORDS)}")
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline


def _format(index, text, game=None):
    from deckcli.decks.format import format_deck
    from deckcli.decks.text import parse_text

    def is_set(code):
        return index.is_set_code(None, code)

    deck = parse_text(text, "d.txt", is_set=is_set)
    out = format_deck(deck, text, index, game)
    return deck, parse_text(out, "d.txt", is_set=is_set), out


@pytest.mark.parametrize("game", ["animal-battle", "alpha-walrus"])
@given(data=st.data())
@SETTINGS
def test_fmt_is_idempotent_and_keeps_the_deck(index, game, data):
    from deckcli.decks.same import deck_cards
    from deckcli.rewrite import same_deck, verdict

    text = data.draw(deck_texts(index, game))
    deck, again, out = _format(index, text, game)
    assert not [p for p in again.problems if p.is_error], out
    assert deck_cards(deck, index, game) == deck_cards(again, index, game)
    assert verdict(deck, index, game) == verdict(again, index, game)
    assert same_deck(deck, again, index, game)
    assert _format(index, out, game)[2] == out
    assert ("\r\n" in out) == ("\r\n" in text)


@given(data=st.data())
@SETTINGS
def test_fmt_never_changes_the_verdict_of_a_headerless_deck(index, data):
    from deckcli.rewrite import verdict

    text = data.draw(deck_texts(index, "animal-battle"))
    text = "\n".join(x for x in text.splitlines() if not x.lower().startswith(
        ("game:", "format:"))) + "\n"
    deck, again, out = _format(index, text)
    for fmt in ("casual", "championship"):
        from deckcli.validate import Options, validate_deck

        before = validate_deck(deck, index, Options(format=fmt))
        after = validate_deck(again, index, Options(format=fmt))
        assert before.legal == after.legal
        assert sorted({p.code for p in before.problems if p.is_error}) == \
            sorted({p.code for p in after.problems if p.is_error})
    assert verdict(deck, index, None) == verdict(again, index, None)


@pytest.mark.parametrize("game", ["animal-battle", "alpha-walrus"])
@given(data=st.data())
@SETTINGS
def test_fmt_event_keeps_the_verdict_at_the_event(index, game, data):
    """Whatever legal sets an event has, a deck formatted for it (``fmt --event``) gets the
    same verdict there as the deck as written, and the same cards are out of its sets."""
    from deckcli.decks.format import pin_printings
    from deckcli.events.model import Event
    from deckcli.rewrite import verdict

    codes = [s["code"] for s in index.sets(game)]
    event = Event("event.yaml", game=game,
                  sets=data.draw(st.lists(st.sampled_from(codes), min_size=1, unique=True)))
    event.resolve(index)
    text = data.draw(deck_texts(index, game))
    from deckcli.decks.format import format_deck
    from deckcli.decks.text import parse_text
    from deckcli.validate import Options, validate_deck

    def out_of_sets(deck) -> set:
        report = validate_deck(deck, index, Options(game=game, event=event))
        return {p.card for p in report.problems if p.code == "set-not-legal"}

    deck = _format(index, text, game)[0]
    before = verdict(deck, index, game, event), out_of_sets(deck)
    pin_printings(deck, index, game, event.sets)
    out = format_deck(deck, text, index, game)
    again = parse_text(out, "d.txt", is_set=lambda code: index.is_set_code(None, code))
    after = verdict(again, index, game, event), out_of_sets(again)
    assert after == before, (event.sets, text, out)


LINES = st.one_of(
    st.sampled_from(["4 Walrus", "Animals:", "Actions: 3", "# c", "", "game: animal-battle",
                     "2x Orca (ABS) 10 [foil]", "1 Walrus ABS 12", "Creatures", "name: x # y",
                     "3 Herd Instinct [promo] # z", "1 Walrus (ABS)", "1 Bison", "1 Krill",
                     "game: alpha-walrus", "Alpha Walrus: 2", "1 Alpha Walrus (AWC) 41",
                     "  # indented", "##", "#", "1 Walrus (abs) a12", "format: championship"]),
    st.text(max_size=30).filter(lambda s: "\n" not in s and "\r" not in s),
    st.builds(lambda n, w: f"{n} {w}", st.integers(1, 5), st.text(min_size=1, max_size=20)))


@given(lines=st.lists(LINES, max_size=15), newline=st.sampled_from(["\n", "\r\n"]))
@SETTINGS
def test_no_text_input_crashes_fmt_or_trips_its_safety_check(lines, newline):
    text = newline.join(lines) + newline
    r = run("fmt", "-", input=text)
    assert r.code in (0, 1), r  # 2 would be an internal error
    if r.code == 0:
        assert run("fmt", "--check", "-", input=r.out).code == 0


@st.composite
def yaml_items(draw):
    name = draw(st.sampled_from(["Walrus", "orca", "Herd Instinct", "Wlarus", "Bison", "Krill"]))
    extra = draw(st.sampled_from(["", ', set: ABS, number: "012"', ", comment: hi",
                                  ", set: PRM, number: P3, variants: [promo]"]))
    count = draw(st.integers(1, 4))
    if draw(st.booleans()):
        item = f"  - {{count: {count}, name: {name}{extra}}}"
    else:
        item = f"  - count: {count}\n    name: {name}"
        if extra:
            item += "\n    " + extra.strip(", ").replace(", ", "\n    ")
    if draw(st.booleans()):
        item += "  # eol " + draw(st.sampled_from(["a", "b: c", "#x"]))
    return draw(st.sampled_from(["", "  # above\n", "# col0\n", "\n"])) + item


@given(items=st.lists(yaml_items(), min_size=1, max_size=8),
       top=st.sampled_from(["", "# top\n", "---\n"]),
       head=st.sampled_from(["", "name: N  # nm\n", "game: animal-battle\n"]),
       tail=st.sampled_from(["", "# end\n", "player: p\n", "# e\nformat: casual\n"]))
@SETTINGS
def test_yaml_fmt_keeps_every_comment_and_is_stable(items, top, head, tail):
    text = top + head + "cards:\n" + "\n".join(items) + "\n" + tail
    r = run("fmt", "--stdin-filename", "d.yaml", "-", input=text)
    assert r.code in (0, 1), r
    if r.code == 0:
        again = run("fmt", "--stdin-filename", "d.yaml", "--check", "-", input=r.out)
        assert again.code == 0, again
        for note in ["above", "col0", "eol", "# top", "nm", "# end", "# e"]:
            assert (note in text) == (note in r.out), (note, r.out)


# -- fmt --event: printings from the event's legal sets -------------------------------------------
# Each card has a printing in CLS (the Classics reprints); their own printings are ABS, DWV, RFS.
BARE = "4 Walrus\n4 Orca\n4 Adelie Penguin\n4 Addax\n4 Alpine Ibex\n"
LEGAL_SETS = {"CLS", "PRM"}


def _event(tmp_path, body="name: Classics Cup\nsets: [CLS, PRM]\n"):
    path = tmp_path / "event.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def _named_sets(text: str) -> set[str]:
    return set(re.findall(r"^\d+ [^(#\n]+\((\w+)\)", text, re.M))


def test_fmt_event_names_printings_from_the_legal_sets(tmp_path, deck_file):
    """EV-2.1 reads '4 Walrus' as Walrus in any legal set; fmt writes a printing on every line,
    and with --event it takes one from the legal sets, so the deck stays legal there."""
    event = _event(tmp_path)
    plain, with_event = deck_file(BARE, "plain.txt"), deck_file(BARE, "event.txt")
    assert run("validate", "--event", event, plain).code == 0
    assert run("fmt", plain).code == 0  # the cards' own printings: ABS, DWV, RFS
    assert not _named_sets(plain.read_text()) & LEGAL_SETS
    assert run("validate", "--event", event, plain).code == 1
    r = run("fmt", "--event", event, with_event)
    assert r.code == 0, r
    text = with_event.read_text()
    assert _named_sets(text) and _named_sets(text) <= LEGAL_SETS, text
    assert "4 Walrus (PRM) P3\n" in text  # the README's example: first by release, legal
    assert run("validate", "--event", event, with_event).code == 0
    assert run("fmt", "--check", "--event", event, with_event).code == 0  # stable


def test_fmt_event_on_a_yaml_deck(tmp_path, deck_file):
    event = _event(tmp_path)
    body = "cards:\n" + "".join(f"  - {{count: 4, name: {line[2:]}}}\n"
                                for line in BARE.splitlines())
    path = deck_file(body, "deck.yaml")
    r = run("fmt", "--event", event, path)
    assert r.code == 0, r
    assert set(re.findall(r"set: (\w+)", path.read_text())) <= LEGAL_SETS
    assert run("validate", "--event", event, path).code == 0


def test_fmt_event_leaves_what_no_legal_printing_fits(tmp_path, deck_file):
    """A set the line names stays; tags no legal printing has get the card's own printing (the
    event refuses the line before and after: the verdict is the same)."""
    event = _event(tmp_path)
    path = deck_file("2 Orca (ABS)\n1 Walrus [alt-art]\n" + BARE)
    r = run("fmt", "--event", event, path)
    assert r.code == 0, r
    text = path.read_text()
    assert "2 Orca (ABS) 10\n" in text and "1 Walrus (ABS) A12 [alternate-art]\n" in text


def test_fmt_event_refuses_output_with_another_verdict(tmp_path, deck_file, monkeypatch):
    """The safety check runs at the event: had the printings not been taken from the legal
    sets, the legal deck would turn illegal there, and nothing is written. Both ways: no
    printing pinned (the new deck differs from the one read), and the wrong one pinned (the
    deck as pinned and the new one agree, but not with the deck as written)."""
    import deckcli.decks.format as fmt_module
    from deckcli.decks.resolve import default_printing, resolve_entry

    def own_printing(deck, index, game, sets):
        for entry in deck.entries:
            card = resolve_entry(index, game, entry, deck.path).card
            found = default_printing(index, card, entry.variants)
            entry.set_code, entry.number = found.set_code, found.number

    for pin, why in ((lambda *a: None, "not the same deck"), (own_printing, "another verdict")):
        monkeypatch.setattr(fmt_module, "pin_printings", pin)
        path = deck_file(BARE)
        r = run("fmt", "--event", _event(tmp_path), path)
        assert r.code == 2, r
        assert "internal error, please report" in r.err and why in r.err, r
        assert path.read_text() == BARE


@pytest.mark.parametrize("body,fragment", [
    ("sets: CLS\n", "sets: should be a list"),
    ("banned: [Nonesuch Beast]\n", "Nonesuch Beast"),
])
def test_fmt_with_a_bad_event_file_exits_2_and_writes_nothing(tmp_path, deck_file, body,
                                                              fragment):
    path = deck_file(BARE)
    r = run("fmt", "--event", _event(tmp_path, body), path)
    assert r.code == 2 and fragment in r.err and "Traceback" not in r.err, r
    assert path.read_text() == BARE


def test_fmt_event_game_applies(tmp_path, deck_file):
    """With no --game, the event's game decides (before the deck's header, DL-5.1)."""
    path = deck_file("game: animal-battle\n2 Goamph\n")
    r = run("fmt", "--check", "--event", _event(tmp_path, "game: alpha-walrus\n"), path)
    assert r.code == 1 and "would reformat" in r.err, r
    assert run("fmt", "--check", path).code == 1


def test_a_name_holding_a_set_code_and_number_is_formatted_whole(tmp_path, mark_db):
    """'4 Mark DWV 2' names the card 'Mark DWV 2' (TST 1), not a 'Mark' from DWV: fmt used
    to split it, fail its own same-deck check and stop with an internal error."""
    deck = tmp_path / "d.txt"
    deck.write_text("4 Mark DWV 2\n4 Walrus\n", encoding="utf-8")
    r = run("--db", mark_db, "fmt", deck)
    assert r.code == 0, r
    assert deck.read_text(encoding="utf-8") == (
        "Animals: 8\n4 Mark DWV 2 (TST) 1\n4 Walrus (ABS) 12\n")
    ev = tmp_path / "ev.yaml"
    ev.write_text("name: E\nsets: [TST, CLS]\n", encoding="utf-8")
    deck.write_text("4 Mark DWV 2\n4 Walrus\n", encoding="utf-8")
    r = run("--db", mark_db, "fmt", "--event", ev, deck)
    assert r.code == 0, r
    assert "4 Mark DWV 2 (TST) 1\n4 Walrus (CLS) C012\n" in deck.read_text(encoding="utf-8")


def test_an_entry_matching_no_card_keeps_its_words_in_the_one_entry_shape():
    """docs/decklists.md: fmt writes entries as 'QTY NAME (SET) NUMBER [tags]', a plain number with
    no 'x'. An unknown card keeps its name, set, number, tags and comment as written."""
    r = run("fmt", "-", input="4x Wlarus\nx2 Bison\n4 x Wlarus ABS 12 [promo] # hmm\n20 Orca\n")
    assert r.code == 0, r
    assert r.out.splitlines()[:3] == ["4 Wlarus", "2 Bison",
                                      "4 Wlarus (ABS) 12 [promotional]  # hmm"]
    again = run("fmt", "-", input=r.out)
    assert again.out == r.out


def test_the_bundled_examples_are_in_fmts_form():
    """A user who runs the fmt hook on copies of the good examples or the example event sees
    nothing rewritten: they are kept canonical."""
    r = run("fmt", "--check", EXAMPLES / "good", EXAMPLES / "event")
    assert r.code == 0, r


# -- another tool's XML on stdin: left as it is, as on disk -----------------------------------
@pytest.mark.parametrize("name,tool", [("cockatrice.cod", "Cockatrice"), ("mtgo.dek", "MTGO")])
@pytest.mark.parametrize("named", [False, True])
def test_fmt_stdin_leaves_xml_decks_as_the_disk_case_does(name, tool, named):
    """On disk, fmt leaves a .cod or .dek file in its tool's layout; stdin holding the same
    XML (named or not) is written back unchanged, with the same note, and --check and --diff
    find nothing to change. It was an internal error (exit 2), its output not parsing."""
    data = (EXAMPLES / "other-tools" / name).read_text(encoding="utf-8")
    named = ["--stdin-filename", "a" + name[-4:]] if named else []
    r = run("fmt", *named, "-", input=data)
    assert r.code == 0 and r.out == data, r
    assert f"<stdin>: left as it is: a {tool} deck keeps {tool}'s layout" in r.err, r
    assert "0 files reformatted, 1 unchanged" in r.err, r
    for flags in (["--check"], ["--diff"], ["--check", "--diff"]):
        r = run("fmt", *flags, *named, "-", input=data)
        assert r.code == 0 and r.out == "", r
        assert "left as it is" in r.err and "would reformat" not in r.err, r


# -- the sideboard, in the one entry shape ------------------------------------------------------
def test_fmt_writes_sideboard_entries_as_it_writes_deck_entries(deck_file):
    """docs/decklists.md: fmt writes entries as 'QTY NAME (SET) NUMBER [tags]'. A sideboard entry
    is spelled as in the card database and gets the card's own printing, as a deck entry
    does; it stays in the sideboard, in its order, uncounted. An unknown one keeps its words."""
    path = deck_file("4 Walrus\nSideboard\nOrca x2\nx3 Narwhal\n4x beluga abs 011 *F*\n"
                     "SB: 2 Dugong\n# maybe\n1 wlarus abs 012\n")
    r = run("fmt", path)
    assert r.code == 0, r
    assert path.read_text(encoding="utf-8") == (
        "Animals: 4\n4 Walrus (ABS) 12\n\nSideboard\n2 Orca (ABS) 10\n3 Narwhal (ABS) 13\n"
        "4 Beluga (ABS) 11 [foil]\n2 Dugong (ABS) 19\n# maybe\n1 wlarus (ABS) 012\n")
    again = run("fmt", "--check", path)
    assert again.code == 0, again
    r = run("validate", path, "-O", "json")
    assert r.json()["decks"][0]["card_count"] == 4, r


def test_fmt_event_gives_sideboard_entries_the_printing_it_gives_deck_entries(tmp_path,
                                                                              deck_file):
    """With --event, an entry naming only the card gets a printing from the legal sets; a
    sideboard entry is written the same way as a deck entry (and still not counted)."""
    path = deck_file("4 Walrus\nSideboard\n2 Walrus\n1 Orca (ABS) 10\n")
    r = run("fmt", "--event", _event(tmp_path), path)
    assert r.code == 0, r
    assert path.read_text(encoding="utf-8") == (
        "Animals: 4\n4 Walrus (PRM) P3\n\nSideboard\n2 Walrus (PRM) P3\n1 Orca (ABS) 10\n")


@pytest.mark.parametrize("wrong", [("2 Orca (ABS) 10", "3 Orca (ABS) 10"),
                                   ("2 Orca (ABS) 10", "2 Orca (ABS) A10"),
                                   ("2 Orca (ABS) 10", "2 Orcas (ABS) 10"),
                                   ("\nSideboard\n2 Orca (ABS) 10", "")])
def test_a_changed_sideboard_is_refused_as_an_internal_error(deck_file, monkeypatch, wrong):
    """The sideboard is spelled anew by fmt, but must stand for the same cards (count,
    card, printing, tags) in the same order; else nothing is written."""
    import deckcli.decks.format as fmt_module

    real = fmt_module.format_deck
    text = "4 Walrus\nSideboard\n2 orca\n"
    path = deck_file(text)
    monkeypatch.setattr(fmt_module, "format_deck",
                        lambda *a, **k: real(*a, **k).replace(*wrong))
    r = run("fmt", path)
    assert r.code == 2 and "lost or changed its sideboard" in r.err, r
    assert path.read_text() == text
