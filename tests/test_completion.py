"""Shell completion through click's real machinery: a deckcli process asked the way bash, zsh
and fish ask it (_DECKCLI_COMPLETE=..._complete, COMP_WORDS, COMP_CWORD), answering with card
names, set codes, rule ids and paths."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest
from conftest import REPO


def complete(words: str, shell: str = "bash") -> list[tuple[str, str]]:
    """(type, value) for each completion of the last word of ``words`` (a command line)."""
    env = {**os.environ, "_DECKCLI_COMPLETE": f"{shell}_complete", "COMP_WORDS": words}
    typed = shlex.split(words + ("''" if words.endswith(" ") else ""))
    env["COMP_CWORD"] = typed[-1] if shell == "fish" else str(len(typed) - 1)
    r = subprocess.run([sys.executable, "-m", "deckcli"], env=env, cwd=REPO,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Error" not in r.stderr, (words, r.stdout, r.stderr)
    if shell == "zsh":  # type, value, help: three lines each
        lines = r.stdout.splitlines()
        return [(lines[i], lines[i + 1]) for i in range(0, len(lines), 3)]
    return [tuple(line.split(",", 1)) for line in r.stdout.splitlines()]


def values(words: str, shell: str = "bash") -> list[str]:
    return [v for _t, v in complete(words, shell)]


def test_the_shells_get_their_scripts():
    for shell in ("bash", "zsh", "fish"):
        r = subprocess.run([sys.executable, "-m", "deckcli"], cwd=REPO, capture_output=True,
                           text=True, timeout=60,
                           env={**os.environ, "_DECKCLI_COMPLETE": f"{shell}_source"})
        assert r.returncode == 0 and "_DECKCLI_COMPLETE" in r.stdout, (shell, r.stderr)


def test_commands_and_options():
    assert "validate" in values("deckcli va")
    assert values("deckcli validate --out") == ["--output", "--output-file"]


def test_card_names_for_cards_show_add_and_the_referee():
    for words in ("deckcli cards show Walr", "deckcli add deck.txt Walr",
                  "deckcli referee battle Walr", "deckcli referee attack --challenger Walr"):
        assert values(words) == ["Walrus"], words


def test_a_name_with_spaces_is_escaped_for_bash_and_left_to_zsh_and_fish():
    assert values("deckcli cards show Blue") == ["Blue\\ Whale", "Blue\\ Wildebeest"]
    assert values("deckcli cards show Blue", "zsh") == ["Blue Whale", "Blue Wildebeest"]
    assert values("deckcli cards show Blue", "fish") == ["Blue Whale", "Blue Wildebeest"]


def test_case_is_folded_and_a_typed_escape_is_read():
    assert values("deckcli cards show blue\\ wh") == ["Blue\\ Whale"]


def test_a_name_several_cards_share_completes_to_each_card():
    """'Bison' is two cards: each is offered as the reference that names it alone, which the
    command then takes (tests/test_suggestions.py runs such references)."""
    assert values("deckcli cards show Bis") == ["Bison\\ \\(DWV\\)\\ 2", "Bison\\ \\(DWV\\)\\ 39"]
    assert values("deckcli cards show Bis", "zsh") == ["Bison (DWV) 2", "Bison (DWV) 39"]


@pytest.mark.parametrize("words", ["deckcli --game alpha-walrus cards show Kri",
                                   "deckcli cards show --game alpha-walrus Kri",
                                   "deckcli referee discard Kri",
                                   "deckcli --game alpha-walrus referee battle Kri",
                                   "deckcli referee showdown --gear Alpha\\ Walrus\\ T"])
def test_alpha_walrus_cards_where_alpha_walrus_applies(words):
    assert values(words)[0] in ("Krill", "Alpha\\ Walrus\\ Tusks"), words


def test_set_codes():
    assert values("deckcli cards list --set ") == ["ABS", "PRM", "DWV", "RFS", "CLS"]
    assert values("deckcli cards list --set c") == ["CLS"]
    assert values("deckcli --game alpha-walrus cards list --set ") == ["AWC", "AWP"]


def test_rule_ids_with_their_titles():
    assert values("deckcli rules AB-1.") == [f"AB-1.{n}" for n in range(1, 7)]
    zsh = subprocess.run([sys.executable, "-m", "deckcli"], cwd=REPO, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "_DECKCLI_COMPLETE":
                                                     "zsh_complete", "COMP_WORDS":
                                                     "deckcli rules AB-1.5", "COMP_CWORD": "2"})
    assert zsh.stdout.splitlines()[:3] == ["plain", "AB-1.5", "Copy limit"]


@pytest.mark.parametrize("words,kind", [("deckcli validate exa", "file"),
                                        ("deckcli fmt --check exa", "file"),
                                        ("deckcli validate --event exa", "file"),
                                        ("deckcli validate deck.txt -o rep", "file"),
                                        ("deckcli referee check exa", "file"),
                                        ("deckcli stats exa", "file"),
                                        ("deckcli diff exa", "file"),
                                        ("deckcli simulate exa", "file"),
                                        ("deckcli simulate a.txt b.txt --save-games g", "dir"),
                                        ("deckcli --db my", "dir"),
                                        ("deckcli validate --db my", "dir")])
def test_paths_are_left_to_the_shell_to_list(words, kind):
    assert complete(words) == [(kind, words.split(" ")[-1])]
