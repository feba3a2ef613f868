"""Every count a text report prints has thousands separators, as the counts beside it had
('A won 4697' beside '216,740 actions'); JSON keeps them numbers. Seeds are names, not
counts, and line numbers are places: they stay as written."""

from __future__ import annotations

import re

from conftest import EXAMPLES, run

SAVANNA = EXAMPLES / "good" / "casual-savanna.yaml"
BARE = re.compile(r"(?<![\w,.\-/:])\d{4,}(?![\w,\-])")  # 1200, but not 1,200, a1200, 4cc0-1507


def bare_counts(text: str) -> list[str]:
    """The runs of 4 digits or more in ``text`` written without separators, seeds left out."""
    text = re.sub(r"seed \d+", "seed", text)
    return BARE.findall(text)


def test_a_simulation_report_counts_with_separators(deck_file, monkeypatch):
    nine = deck_file("4 Blue Whale\n4 Sperm Whale\n1 Fin Whale\n", "nine.txt")
    monkeypatch.chdir(nine.parent)
    args = ["simulate", "nine.txt", SAVANNA, "--games", "1200", "--seed", "1",
            "--policy", "greedy"]  # greedy never outlasts a nine-card deck: A wins them all
    r = run(*args)
    assert r.code == 0, r
    assert not bare_counts(r.out), (bare_counts(r.out), r.out)
    data = run(*args, "-O", "json").json()
    assert data["results"]["a"] == 1200  # JSON stays numbers
    assert f"A won {data['results']['a']:,}, B won {data['results']['b']:,}" in r.out
    assert f"of {1200:,} decided games" in r.out and "1,200 games in seat-swapped pairs" in r.out


def test_a_validate_report_counts_with_separators(deck_file, monkeypatch):
    big = deck_file("999 Walrus\n999 Orca\n", "big.txt")
    monkeypatch.chdir(big.parent)
    for n in range(1000):
        deck_file("4 Walrus\n4 Orca\n4 Narwhal\n4 Coelacanth\n4 Vaquita\n", f"d/n{n}.txt")
    r = run("validate", "big.txt", "d", "--format", "championship")
    assert r.code == 1, r
    assert not bare_counts(r.out), bare_counts(r.out)
    assert "1,001 deck(s): 0 legal, 1,001 illegal" in r.out
    assert "championship decks hold exactly 60 cards; this deck has 1,998" in r.out
    row = next(line for line in r.out.splitlines() if line.startswith("big.txt "))
    assert " 1,998 " in row, row
    r = run("validate", "d", "-O", "github")
    assert r.out.endswith("deckcli: 1,000 deck(s): 1,000 legal, 0 illegal\n"), r.out[-200:]
    data = run("validate", "big.txt", "-O", "json").json()
    assert data["decks"][0]["card_count"] == 1998


def test_diff_and_fmt_count_with_separators(deck_file, monkeypatch):
    a = deck_file("999 Walrus\n999 Orca\n", "a.txt")
    deck_file("999 Walrus\n998 Orca\n", "b.txt")
    monkeypatch.chdir(a.parent)
    r = run("diff", "a.txt", "b.txt")
    assert r.code == 1 and "a.txt: 1,998 cards" in r.out and "b.txt: 1,997 cards" in r.out, r
    for n in range(1000):
        deck_file("4 walrus\n", f"d/n{n}.txt")
    r = run("fmt", "--check", "d")
    assert r.code == 1 and r.err.endswith("1,000 files would be reformatted\n"), r.err[-200:]
