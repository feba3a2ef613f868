"""A repository's configuration (docs/configuration.md): ``[tool.deckcli]`` in a pyproject.toml
or a deckcli.toml, found upwards from the files a command is given, as ruff finds its own; the
command line wins over it; ``--config FILE`` and ``--isolated``; a bad file is exit 2 on its
line. And deckcli's own options on either side of the command's name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, animals_db, run

DECK = EXAMPLES / "event" / "decks" / "alice.txt"  # championship, legal; 4 Sperm Whale on line 18
BANNED_LINE = 18
TORTOISES = ("Testudo", "Gopherus", "Chelonoidis", "Aldabrachelys", "Kinixys")
EVENT = "name: Spring\ngame: animal-battle\nformat: championship\nbanned: [\"Sperm Whale\"]\n"


def organiser(root: Path, config: str | None = 'event = "event.yaml"\n',
              name: str = "deckcli.toml") -> Path:
    """An organiser's repository: an event banning Sperm Whale, Alice's deck (which plays
    it) in decks/, and a configuration file naming the event."""
    (root / "decks").mkdir(parents=True)
    shutil.copy(DECK, root / "decks" / "alice.txt")
    (root / "event.yaml").write_text(EVENT, encoding="utf-8")
    if config is not None:
        (root / name).write_text(config, encoding="utf-8")
    return root


def banned(r) -> bool:
    return f"alice.txt:{BANNED_LINE}: error: Sperm Whale (ABS) 8 is banned at Spring" in r.out


# -- where the configuration is found --------------------------------------------------------

def test_a_deckcli_toml_is_found_upwards_from_the_file_checked(tmp_path, monkeypatch):
    repo = organiser(tmp_path / "repo")
    (repo / "decks" / "2026" / "spring").mkdir(parents=True)
    shutil.move(repo / "decks" / "alice.txt", repo / "decks" / "2026" / "spring" / "alice.txt")
    monkeypatch.chdir(tmp_path)  # not in the repository: found from the file, not from here
    r = run("validate", "repo/decks/2026/spring/alice.txt")
    assert r.code == 1 and banned(r), r
    r = run("--isolated", "validate", "repo/decks/2026/spring/alice.txt")
    assert r.code == 0, r


def test_pyproject_tool_deckcli_is_found_and_one_without_the_table_is_passed_over(tmp_path):
    repo = organiser(tmp_path / "repo", '[project]\nname = "decks"\n\n[tool.deckcli]\n'
                     'event = "event.yaml"\n', name="pyproject.toml")
    (repo / "decks" / "pyproject.toml").write_text('[tool.ruff]\nline-length = 100\n',
                                                   encoding="utf-8")
    r = run("validate", repo / "decks" / "alice.txt")
    assert r.code == 1 and banned(r), r


def test_deckcli_toml_wins_over_pyproject_in_the_same_folder(tmp_path):
    repo = organiser(tmp_path / "repo", 'format = "casual"\n')
    (repo / "pyproject.toml").write_text('[tool.deckcli]\nevent = "event.yaml"\n',
                                         encoding="utf-8")
    r = run("validate", repo / "decks" / "alice.txt", "-O", "json")
    assert r.code == 0, r
    assert r.json()["decks"][0]["format"] == "casual"  # deckcli.toml's, and no event


def test_the_nearest_file_is_used_and_files_are_not_merged(tmp_path):
    repo = organiser(tmp_path / "repo")
    (repo / "decks" / "deckcli.toml").write_text('format = "casual"\n', encoding="utf-8")
    r = run("validate", repo / "decks" / "alice.txt", "-O", "json")
    assert r.code == 0 and r.json()["decks"][0]["format"] == "casual", r


def test_without_paths_the_configuration_is_found_from_the_current_folder(tmp_path,
                                                                         monkeypatch):
    repo = organiser(tmp_path / "repo", 'event = "event.yaml"\n')
    (repo / "event.yaml").write_text(EVENT + "players:\n  alice: decks/alice.txt\n",
                                     encoding="utf-8")
    monkeypatch.chdir(repo / "decks")
    r = run("validate")  # the roster of the configuration's event
    assert r.code == 1 and banned(r) and "1 deck(s): 0 legal, 1 illegal" in r.out, r


def test_relative_paths_are_relative_to_the_configuration_files_folder(tmp_path, monkeypatch):
    repo = organiser(tmp_path / "repo", 'event = "rules/event.yaml"\ndb = ["cards"]\n')
    (repo / "rules").mkdir()
    shutil.move(repo / "event.yaml", repo / "rules" / "event.yaml")
    animals_db(repo / "cards", list(TORTOISES))
    deck = repo / "decks" / "tortoises.txt"
    deck.write_text("".join(f"4 {n}\n" for n in TORTOISES), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = run("validate", repo / "decks" / "alice.txt", deck)
    assert r.code == 1 and banned(r), r  # the event under rules/
    assert "tortoises.txt" in r.out and "unknown-card" not in r.out, r  # the cards under cards/
    r = run("--isolated", "validate", deck)
    assert r.code == 1 and "unknown-card" in r.out, r


def test_config_names_one_file_and_its_paths_start_from_its_folder(tmp_path, monkeypatch):
    repo = organiser(tmp_path / "repo", 'format = "casual"\n')
    shared = tmp_path / "shared"
    shared.mkdir()
    shutil.copy(repo / "event.yaml", shared / "spring.yaml")
    (shared / "strict.toml").write_text('event = "spring.yaml"\n', encoding="utf-8")
    monkeypatch.chdir(repo)
    r = run("--config", shared / "strict.toml", "validate", "decks/alice.txt")
    assert r.code == 1 and banned(r), r  # that file, not the deckcli.toml above the deck
    (shared / "pyproject.toml").write_text('[tool.deckcli]\nevent = "spring.yaml"\n',
                                           encoding="utf-8")
    r = run("validate", "--config", shared / "pyproject.toml", "decks/alice.txt")
    assert r.code == 1 and banned(r), r
    (shared / "pyproject.toml").write_text('[tool.ruff]\nline-length = 100\n', encoding="utf-8")
    r = run("--config", shared / "pyproject.toml", "validate", "decks/alice.txt")
    assert r.code == 2 and "has no [tool.deckcli] table" in r.err, r
    r = run("--config", shared / "missing.toml", "validate", "decks/alice.txt")
    assert r.code == 2 and "missing.toml: cannot read the configuration file: no such file" \
        in r.err, r
    r = run("--config", shared / "strict.toml", "--isolated", "validate", "decks/alice.txt")
    assert r.code == 2 and "--isolated" in r.err and "Traceback" not in r.err, r


# -- the command line wins -----------------------------------------------------------------

def test_command_line_options_win_over_the_configuration(tmp_path):
    repo = organiser(tmp_path / "repo", 'event = "event.yaml"\nformat = "casual"\n'
                     'output = "json"\n')
    (repo / "other.yaml").write_text("name: Other\ngame: animal-battle\n", encoding="utf-8")
    deck = repo / "decks" / "alice.txt"
    r = run("validate", deck)
    assert r.code == 1 and r.json()["decks"][0]["format"] == "casual", r  # all three apply
    r = run("validate", deck, "--event", repo / "other.yaml", "--format", "championship",
            "--output", "text")
    assert r.code == 0 and "championship" in r.out and "1 legal" in r.out, r
    r = run("validate", deck, "--output", "text")
    assert r.code == 1 and banned(r), r


def test_the_configurations_game_and_output_apply_where_the_command_has_them(tmp_path,
                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deckcli.toml").write_text('game = "alpha-walrus"\noutput = "sarif"\n',
                                           encoding="utf-8")
    r = run("rules")
    assert r.code == 0 and r.out.startswith("AW-1.1  "), r  # text: rules has no sarif
    r = run("cards", "show", "Walrus (AWC) 30")
    assert r.code == 0, r
    r = run("referee", "discard", "Walrus (AWC) 30")  # an alpha-walrus ruling, no --game
    assert r.code == 0 and "discard Walrus (AWC) 30" in r.out, r
    r = run("--game", "animal-battle", "rules")
    assert r.code == 0 and r.out.startswith("AB-"), r  # the command line's game wins
    r = run("rules", "--game", "animal-battle")
    assert r.code == 0 and r.out.startswith("AB-"), r
    shutil.copy(EXAMPLES / "good" / "alpha-walrus-2p.yaml", tmp_path / "shared.yaml")
    r = run("validate", "shared.yaml")
    assert r.code == 0 and '"$schema"' in r.out, r  # validate has sarif
    r = run("validate", EXAMPLES / "good" / "alpha-walrus-2p.yaml")  # found from the deck:
    assert r.code == 0 and r.out.startswith("deck "), r  # none above it, whatever the folder


# -- every command reads it ------------------------------------------------------------------


@pytest.fixture
def own_cards(tmp_path, monkeypatch):
    """A repository whose configuration adds a card database folder of tortoises, an event
    (with a roster), and a casual deck of them: every command needs the configuration's db to
    know the cards."""
    repo = tmp_path / "repo"
    repo.mkdir()
    animals_db(repo / "cards", list(TORTOISES))
    (repo / "decks").mkdir()
    deck = "game: animal-battle\nformat: casual\n" + "".join(f"4 {n}\n" for n in TORTOISES)
    (repo / "decks" / "a.txt").write_text(deck, encoding="utf-8")
    (repo / "decks" / "b.txt").write_text(deck, encoding="utf-8")
    (repo / "collection.txt").write_text("".join(f"8 {n}\n" for n in TORTOISES),
                                         encoding="utf-8")
    (repo / "event.yaml").write_text("name: Shell Cup\ngame: animal-battle\nformat: casual\n"
                                     "players: {ann: decks/a.txt, bea: decks/b.txt}\n",
                                     encoding="utf-8")
    (repo / "deckcli.toml").write_text('db = ["cards"]\nevent = "event.yaml"\n',
                                       encoding="utf-8")
    monkeypatch.chdir(repo)
    return repo


@pytest.mark.parametrize("args,isolated", [
    (["validate", "decks/a.txt"], "no animal-battle card is named 'Testudo'"),
    (["validate"], "give at least one deck file or folder, or --event"),  # the event's roster
    (["fmt", "--diff", "decks/a.txt"], " 4 Testudo\n"),  # printings only from the db
    (["convert", "decks/a.txt", "--to", "arena"], "4 Testudo\n"),
    (["stats", "decks/a.txt"], "20 card(s) name no known card"),
    (["setup", "decks/a.txt", "--seed", "1"], "(decks/a.txt, 0 cards)"),
    (["diff", "--played", "decks"], "--event FILE and --played DIR go together"),
    (["simulate", "decks/a.txt", "decks/b.txt", "--games", "2", "--seed", "1"],
     "no animal-battle card is named 'Testudo'"),
    (["build", "--collection", "collection.txt", "--against", "decks/a.txt", "--games", "20",
      "--measure", "2", "--seed", "1"], "no animal-battle card is named 'Testudo'"),
    (["suggest", "decks/a.txt", "--collection", "collection.txt", "--against", "decks/b.txt",
      "--games", "20", "--seed", "1"], "no animal-battle card is named 'Testudo'"),
    (["sheet", "-o", "sheets.html"], "give at least one deck file, or --event"),
    (["report", "-o", "report.html"], "give the event file"),
    (["export", "--to", "csv"], "Missing option '--event'"),
    (["cards", "show", "Testudo"], "no animal-battle card is named 'Testudo'"),
    (["cards", "search", "name:gopherus"], "no cards match"),
    (["db", "check"], "7 file(s)"),  # the built-in database's; the configuration's is an 8th
    (["add", "decks/a.txt", "Kinixys"], "no animal-battle card is named 'Kinixys'"),
], ids=lambda v: " ".join(v[:2]) if isinstance(v, list) else None)
def test_every_command_reads_the_configuration(own_cards, args, isolated):
    r = run("--isolated", *args)
    assert isolated in r.out + r.err, r
    r = run(*args)
    assert r.code in (0, 1) and isolated not in r.out + r.err, r
    assert "Traceback" not in r.err, r


def test_db_check_checks_the_configurations_folder(own_cards):
    with open(own_cards / "cards" / "TST.yaml", "a", encoding="utf-8") as f:
        f.write("  - {number: '9', name: Broken, kind: animal}\n")  # no stats
    assert run("db", "check").code == 1
    assert run("--isolated", "db", "check").code == 0


# -- errors, with the file and the line -------------------------------------------------------

@pytest.mark.parametrize("name,text,line,message", [
    ("deckcli.toml", '# ours\nevent = "event.yaml"\nevnt = "x.yaml"\n', 3,
     "unknown key 'evnt' in the configuration; did you mean 'event'?"),
    ("pyproject.toml", '[project]\nname = "x"\n\n[tool.deckcli]\nformat = "casual"\n'
     'colour = "never"\n', 6, "unknown key 'colour' in [tool.deckcli]"),
    ("deckcli.toml", 'event = "event.yaml"\n\n[exclude]\nx = 1\n', 3,
     "exclude: should be a list of globs"),
    ("deckcli.toml", 'game = "animal-battle"\nformat = "champ"\n', 2,
     "format: should be one of casual, championship, not 'champ'"),
    ("pyproject.toml", '[tool.deckcli]\n# the table\nplayers = 1\n', 3,
     "players: should be a number from 2 to 12, not 1"),
    ("deckcli.toml", '\n\nplayers = true\n', 3, "players: should be a number from 2 to 12"),
    ("deckcli.toml", 'db = "cards"\n', 1, 'db: should be a list of folders, as in db = ["cards"]'),
    ("deckcli.toml", 'output = "xml"\n', 1, "output: should be one of text, json, github"),
    ("deckcli.toml", 'game = "chess"\n', 1, "game: should be one of"),
    ("deckcli.toml", 'game = "alpha-walrus"\nformat = "casual"\n', 2,
     "format: alpha-walrus has no format 'casual'"),
    ("deckcli.toml", 'exclude = ["drafts", 3]\n', 1, "exclude: should be a list of globs"),
    ("deckcli.toml", 'event = "event.yaml"\nformat = casual\n', 2, "not valid TOML"),
    ("pyproject.toml", '[tool.deckcli]\nevent = "event.yaml"\nevent = "x.yaml"\n', 3,
     "not valid TOML"),
    ("pyproject.toml", '[tool]\nother = 1\ndeckcli = "event.yaml"\n', 3,
     "tool.deckcli should be a table ([tool.deckcli]), not a value"),
    ("deckcli.toml", 'event = "nowhere.yaml"\n', 1,
     "event: 'nowhere.yaml': no such file"),
    ("deckcli.toml", '\ndb = ["cards", "nowhere"]\n', 2, "db: 'nowhere': no such folder"),
])
def test_a_bad_configuration_is_an_error_on_its_line(tmp_path, name, text, line, message):
    repo = organiser(tmp_path / "repo", text, name=name)
    (repo / "cards").mkdir()
    r = run("validate", repo / "decks" / "alice.txt")
    assert r.code == 2, r
    assert f"{name}:{line}: " in r.err and message in r.err, r
    assert "Traceback" not in r.err and r.out == "", r
    assert run("--isolated", "validate", repo / "decks" / "alice.txt").code == 0


# -- exclude --------------------------------------------------------------------------------

def test_exclude_leaves_files_out_of_walks_and_of_the_files_named(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "deckcli.toml").write_text('exclude = ["drafts", "*.old.txt", "decks/2025/*"]\n',
                                       encoding="utf-8")
    illegal = EXAMPLES / "bad" / "too-many-copies.txt"
    for where in ("drafts/x.txt", "decks/drafts/y.txt", "decks/alice.old.txt",
                  "decks/2025/z.txt"):
        (repo / where).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(illegal, repo / where)
    shutil.copy(EXAMPLES / "good" / "casual-savanna.yaml", repo / "decks" / "2026.yaml")
    monkeypatch.chdir(repo)
    r = run("validate", ".", "-O", "json")
    assert r.code == 0, r
    assert [d["path"] for d in r.json()["decks"]] == ["./decks/2026.yaml"], r
    r = run("validate", "decks/alice.old.txt", "drafts/x.txt", "decks/2025/z.txt",
            "decks/2026.yaml")  # as pre-commit names them
    assert r.code == 0 and "1 deck(s): 1 legal" in r.out, r
    assert "deckcli: note: decks/alice.old.txt is excluded by deckcli.toml: skipped" in r.err
    r = run("fmt", "--check", ".")
    assert r.code == 0, r
    r = run("--isolated", "validate", ".")
    assert r.code == 1 and "4 illegal" in r.out, r


# -- deckcli's own options on either side of the command -----------------------------------

BAD = EXAMPLES / "bad" / "too-many-copies.txt"


@pytest.mark.parametrize("option", [["--color", "never"], ["--color", "always"], ["--debug"],
                                    ["--game", "animal-battle"], ["--isolated"]])
def test_deckcli_options_work_after_the_commands_name(option):
    before = run(*option, "validate", BAD)
    after = run("validate", *option, BAD)
    assert before.code == after.code == 1, after
    assert (before.out, before.err) == (after.out, after.err)


def test_colour_after_the_command_name_colours(tmp_path):
    r = run("validate", "--color", "always", BAD)
    assert "\x1b[1;31mILLEGAL\x1b[0m" in r.out, r
    r = run("cards", "show", "--color", "always", "Wallrus")
    assert r.err.startswith("deckcli: \x1b[1;31merror\x1b[0m: no animal-battle card"), r
    r = run("cards", "--color", "always", "show", "Wallrus")
    assert r.err.startswith("deckcli: \x1b[1;31merror\x1b[0m"), r


def test_version_config_db_and_allow_read_after_the_commands_name(tmp_path):
    import deckcli

    r = run("validate", "--version")
    assert r.code == 0 and r.out == f"deckcli {deckcli.__version__}\n", r
    repo = organiser(tmp_path / "repo", config=None)
    (tmp_path / "strict.toml").write_text(f'event = "{repo / "event.yaml"}"\n',
                                          encoding="utf-8")
    r = run("validate", repo / "decks" / "alice.txt", "--config", tmp_path / "strict.toml")
    assert r.code == 1 and banned(r), r
    animals_db(tmp_path / "cards", ["Testudo"])
    r = run("cards", "show", "Testudo", "--db", tmp_path / "cards")
    assert r.code == 0, r
    r = run("report", "--db", tmp_path / "cards", "--help")
    assert r.code == 0, r
    # a roster deck outside the event's folder: refused, unless --allow-read (after 'validate')
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(EXAMPLES / "good" / "casual-savanna.yaml", outside / "bea.yaml")
    (repo / "event.yaml").write_text(f"name: Spring\nplayers: {{bea: {outside / 'bea.yaml'}}}\n",
                                     encoding="utf-8")
    assert run("validate", "--event", repo / "event.yaml").code == 2
    r = run("validate", "--event", repo / "event.yaml", "--allow-read", outside)
    assert r.code == 0, r
    r = run("report", repo / "event.yaml", "-o", "-", "--allow-read", outside)
    assert r.code == 0, r


def test_an_unknown_option_after_the_command_is_still_a_usage_error():
    r = run("validate", "--colour", "never", BAD)
    assert r.code == 2 and "No such option" in r.err, r


# -- the event file and the configuration file among the files named ------------------------

def test_the_event_file_in_force_stands_for_every_deck(tmp_path, monkeypatch):
    """A pre-commit hook passes the files that changed: when only the event file changed (a
    new ban), every deck is checked again, and the event file is never read as a deck."""
    repo = organiser(tmp_path / "repo")
    shutil.copy(EXAMPLES / "good" / "casual-savanna.yaml", repo / "decks" / "bo.yaml")
    monkeypatch.chdir(repo)
    for named in (["event.yaml"], ["deckcli.toml"], ["event.yaml", "decks/alice.txt"]):
        r = run("validate", *named, "-O", "json")
        assert r.code == 1, r
        assert [d["path"] for d in r.json()["decks"]] == ["decks/alice.txt", "decks/bo.yaml"]
        assert "event.yaml" not in r.err, r
    r = run("--isolated", "validate", "event.yaml")  # no event in force: an event file, skipped
    assert r.code == 0 and "event.yaml is an event file, not a decklist: skipped" in r.err, r
    r = run("validate", "--event", "event.yaml", "decks/bo.yaml", "event.yaml", "--isolated")
    assert r.code == 1 and "2 deck(s)" in r.out, r  # --event's file stands for its folder


def test_a_configuration_file_not_in_force_is_no_deck(tmp_path, monkeypatch):
    repo = organiser(tmp_path / "repo")
    (repo / "pyproject.toml").write_text('[project]\nname = "decks"\n', encoding="utf-8")
    (repo / "decks" / "deckcli.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(repo)
    for args in (["pyproject.toml", "decks/deckcli.toml"], ["--isolated", "deckcli.toml"]):
        r = run("validate", *args)  # deckcli.toml is in force: the other two are not
        assert r.code == 0 and "0 deck(s)" in r.out, r
        assert f"{args[-1]} is a configuration file, not a decklist: skipped" in r.err, r


def test_the_roster_note_is_for_an_event_given_on_the_command_line(tmp_path, monkeypatch):
    repo = organiser(tmp_path / "repo")
    (repo / "event.yaml").write_text(EVENT + "players: {alice: decks/alice.txt}\n",
                                     encoding="utf-8")
    monkeypatch.chdir(repo)
    r = run("validate", "decks/alice.txt")
    assert r.code == 1 and banned(r) and "roster" not in r.err, r
    r = run("validate", "--event", "event.yaml", "decks/alice.txt")
    assert r.code == 1 and "has a roster of 1 player(s), not checked" in r.err, r


def test_exclude_applies_to_the_decks_beside_the_roster(tmp_path, monkeypatch):
    repo = organiser(tmp_path / "repo", 'event = "event.yaml"\nexclude = ["*.draft.txt"]\n')
    (repo / "event.yaml").write_text(EVENT + "players: {alice: decks/alice.txt}\n",
                                     encoding="utf-8")
    shutil.copy(EXAMPLES / "good" / "casual-savanna.yaml", repo / "decks" / "bo.yaml")
    shutil.copy(DECK, repo / "decks" / "carl.draft.txt")
    monkeypatch.chdir(repo)
    r = run("validate", "-O", "json")
    assert [d["path"] for d in r.json()["decks"]] == ["decks/alice.txt", "decks/bo.yaml"], r


def test_isolated_after_a_referee_ruling_reads_no_configuration(tmp_path, monkeypatch):
    """The referee picks the game's subcommand before it reads the subcommand's options: the
    configuration's game is looked up then, and --isolated after the name still wins."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deckcli.toml").write_text('game = "alpha-walrus"\n', encoding="utf-8")
    r = run("referee", "discard", "Walrus (AWC) 30")
    assert r.code == 0, r
    r = run("referee", "discard", "Walrus (AWC) 30", "--isolated")
    assert r.code == 2 and "alpha-walrus ruling" in r.err, r
