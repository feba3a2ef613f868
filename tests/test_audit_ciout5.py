"""Audit of the CI-facing outputs: validate's reports, event files and export."""

from __future__ import annotations

import json
import os

import pytest
from conftest import EXAMPLES, run


def sarif_uris(result) -> list[str]:
    return [loc["physicalLocation"]["artifactLocation"]["uri"]
            for res in json.loads(result.out)["runs"][0]["results"]
            for loc in res["locations"]]


def test_sarif_uri_of_a_file_named_with_a_colon_is_a_relative_reference(tmp_path,
                                                                          monkeypatch):
    # 'a:b.txt' as a URI is scheme 'a', path 'b.txt' (RFC 3986 4.2: a relative reference's
    # first segment has no ':'), so a SARIF reader would not find the file
    from urllib.parse import unquote, urlsplit

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a:b.txt").write_text((EXAMPLES / "bad" / "casual-19.txt").read_text())
    r = run("validate", "a:b.txt", "-O", "sarif")
    assert r.code == 1, r
    for uri in sarif_uris(r):
        assert urlsplit(uri).scheme == "", uri
        assert unquote(uri) == "a:b.txt"


@pytest.mark.skipif(os.sep != "/", reason="a '\\' is a separator there")
def test_sarif_uri_keeps_a_backslash_that_is_part_of_a_posix_file_name(tmp_path, monkeypatch):
    # on Linux 'back\slash.txt' is one file in this folder, not slash.txt in a folder 'back'
    from urllib.parse import unquote

    monkeypatch.chdir(tmp_path)
    (tmp_path / "back\\slash.txt").write_text((EXAMPLES / "bad" / "casual-19.txt").read_text())
    r = run("validate", "back\\slash.txt", "-O", "sarif")
    assert r.code == 1, r
    assert [unquote(uri) for uri in sarif_uris(r)] == ["back\\slash.txt"]


def test_output_file_of_a_text_report_keeps_the_text_summary_on_stdout(tmp_path):
    # docs/commands.md: "-o FILE: write the report there; a text summary still goes to stdout"
    # (the CI log shows what failed), whatever --output says; text is the default
    out = tmp_path / "report.txt"
    r = run("validate", EXAMPLES / "bad" / "casual-19.txt", "--output-file", out)
    assert r.code == 1, r
    assert "1 deck(s): 0 legal, 1 illegal" in out.read_text(encoding="utf-8")
    assert "1 deck(s): 0 legal, 1 illegal" in r.out, r


def test_an_event_name_with_a_line_break_cannot_forge_a_problem_line(tmp_path, monkeypatch):
    # the event's name is quoted in a ban's message: a name is one line in every report
    # (docs/safety.md), so a line break in it must not start a line of its own in the text
    # report, where it would read as another file's problem
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("4 Walrus\n4 Orca\n4 Vaquita\n4 Narwhal\n4 Coelacanth\n",
                                    encoding="utf-8")
    (tmp_path / "event.yaml").write_text(
        'name: "Spring\\nother.txt:1: error: forged"\nbanned: ["Walrus"]\n'
        "players: {ann: a.txt}\n", encoding="utf-8")
    r = run("validate", "--event", "event.yaml")
    assert r.code == 1, r
    assert not [line for line in r.out.splitlines() if line.startswith("other.txt")], r
    assert "banned at Spring\\x0aother.txt:1: error: forged" in r.out, r


def test_a_roster_path_with_a_line_break_cannot_forge_a_problem_line(tmp_path, monkeypatch):
    # a missing deck's message quotes the roster's path: a file name is one line too
    monkeypatch.chdir(tmp_path)
    (tmp_path / "event.yaml").write_text(
        'name: E\nplayers:\n  bob: "gone\\nother.txt:1: error: forged.txt"\n', encoding="utf-8")
    r = run("validate", "--event", "event.yaml")
    assert r.code == 1, r
    assert not [line for line in r.out.splitlines() if line.startswith("other.txt")], r
    assert "their deck gone\\x0aother.txt:1: error: forged.txt cannot be read" in r.out, r


@pytest.mark.parametrize("name, text", [
    ("deck.yaml", 'cards:\n  - {count: 4, name: Walrus, "x\\nother.txt:1: error: forged": 1}\n'),
    ("deck.yaml", '"x\\nother.txt:1: error: forged": 1\ncards:\n  - {count: 4, name: Walrus}\n'),
    ("deck.json", '{"cards": [{"count": 4, "name": "Walrus", "set": "ABS",'
                  ' "number": "1\\nother.txt:1: error: forged"}]}'),
    ("deck.csv", 'count,name,set\n4,Walrus,"A\nother.txt:1: error: forged"\n'),
])
def test_a_line_break_quoted_in_a_message_cannot_forge_a_problem_line(tmp_path, name, text):
    # the text report is one problem a line, 'file:line: severity: message': a message
    # quotes what a deck says (a key, a set code, a number), and a line break in it must not
    # start a line that reads as another file's problem
    deck = tmp_path / name
    deck.write_text(text, encoding="utf-8")
    r = run("validate", deck)
    assert r.code == 1, r
    assert not [line for line in r.out.splitlines()
                if line.lower().startswith("other.txt")], r
    assert "\\x0aother.txt:1: error: forged" in r.out.lower(), r


@pytest.mark.parametrize("output", ["junit", "json", "sarif", "github", "text"])
def test_a_report_is_utf8_whatever_the_stdout_encoding(tmp_path, output):
    # Python writes a pipe in the locale's encoding (cp1252 on a Windows runner): a report
    # quoting a card named 'Café ☃' ended in "internal error: UnicodeEncodeError" there,
    # and JUnit's <?xml encoding="UTF-8"?> would have been a lie for 'é'
    import subprocess
    import sys

    deck = tmp_path / "deck.txt"
    deck.write_text("4 Café ☃\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(deck), "-O", output],
                          capture_output=True, env=env, timeout=60)
    assert proc.returncode == 1, proc
    assert "Café ☃" in proc.stdout.decode("utf-8"), proc


@pytest.mark.parametrize("output", ["json", "sarif"])
def test_a_report_kept_beside_the_decks_is_not_read_as_a_deck(tmp_path, monkeypatch, output):
    # 'validate --event event.yaml -O json -o report.json' beside the roster's decks: the next
    # run read report.json as an unlisted (illegal) deck, exit 1, and refused to replace it
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "event" / "decks" / "alice.txt", tmp_path / "alice.txt")
    (tmp_path / "ev.yaml").write_text("name: E\nplayers: {alice: alice.txt}\n",
                                      encoding="utf-8")
    for _ in range(2):
        r = run("validate", "--event", "ev.yaml", "-O", output, "-o", "report.json")
        assert r.code == 0, r
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    r = run("validate", "--event", "ev.yaml", "-O", "json")
    assert r.code == 0, r
    assert [d["path"] for d in r.json()["decks"]] == ["alice.txt"]
    r = run("validate", ".")
    assert r.code == 0 and "report.json is a deckcli report" in r.err, r


def test_an_export_kept_beside_the_decks_is_not_read_as_a_deck(tmp_path, monkeypatch):
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "event" / "decks" / "alice.txt", tmp_path / "alice.txt")
    (tmp_path / "ev.yaml").write_text("name: E\nplayers: {alice: alice.txt}\n",
                                      encoding="utf-8")
    for _ in range(2):
        r = run("export", "--event", "ev.yaml", "--to", "json", "-o", "decklists.json")
        assert r.code == 0, r
    r = run("validate", "--event", "ev.yaml")
    assert r.code == 0, r


def test_fmt_shows_a_file_name_with_a_line_break_on_one_line(tmp_path):
    # fmt --check (the pre-commit hook) names the file of each problem: a name is one line
    (tmp_path / "n\nfake.txt").write_text("four Walrus\n4 Orca\n", encoding="utf-8")
    r = run("fmt", "--check", tmp_path)
    assert r.code == 1, r
    lines = (r.out + r.err).splitlines()
    assert not [line for line in lines if line.startswith("fake.txt")], r
    assert any("n\\x0afake.txt:1: error: 'four Walrus' is not a card entry" in line
               for line in lines), r


def test_validates_notes_show_a_file_name_with_a_line_break_on_one_line(tmp_path,
                                                                          monkeypatch):
    # the note on a skipped event file, and the error on an event without a roster
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n\nfake.json").write_text("players: {a: b.txt}\n", encoding="utf-8")
    (tmp_path / "ok.txt").write_text((EXAMPLES / "good" / "casual-risky.txt").read_text())
    r = run("validate", ".")
    assert r.code == 0, r
    assert "./n\\x0afake.json is an event file, not a decklist: skipped" in r.err, r
    (tmp_path / "e\nv.yaml").write_text("name: E\n", encoding="utf-8")
    r = run("validate", "--event", "e\nv.yaml")
    assert r.code == 2, r
    assert "e\\x0av.yaml lists no players" in r.err, r
