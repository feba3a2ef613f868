"""validate for CI at scale: a Markdown job summary on GitHub Actions (GitHub shows only a few
annotations a step), --quiet (failures only) and --statistics (problems counted by rule).
The figures are checked against the JSON report of the same decks."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import EXAMPLES, run

DECKS = [EXAMPLES / "good", EXAMPLES / "bad"]


def json_report(*args) -> dict:
    return run("validate", *DECKS, *args, "-O", "json").json()


@pytest.fixture
def on_github(tmp_path, monkeypatch):
    """A GitHub Actions step: GITHUB_ACTIONS=true and a summary file an earlier step wrote."""
    summary = tmp_path / "step_summary.md"
    summary.write_text("# an earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    return summary


# -- the job summary ------------------------------------------------------------------------------
def test_github_output_appends_a_job_summary_of_decks_verdicts_and_rules(on_github):
    want = json_report()
    r = run("validate", *DECKS, "-O", "github")
    assert r.code == 1, r
    assert r.out.startswith("::"), r  # the annotations are still written
    text = on_github.read_text(encoding="utf-8")
    assert text.startswith("# an earlier step\n"), text  # appended, as GitHub expects
    summary = want["summary"]
    assert (f"{summary['decks']} decks: {summary['legal']} legal, {summary['illegal']} "
            "illegal") in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    for deck in want["decks"]:
        verdict = "legal" if deck["legal"] else "**ILLEGAL**"
        assert any(row.startswith(f"| `{deck['path']}` | {verdict} |") for row in rows), deck
    by_rule = Counter(p["rule"] for d in want["decks"] for p in d["problems"])
    for rule, n in by_rule.items():
        assert f"<summary>{rule} " in text and f"({n} problem{'s' if n > 1 else ''})" in text
    for deck in want["decks"]:
        for p in deck["problems"]:
            where = f"{deck['path']}:{p['line']}" if p["line"] else deck["path"]
            assert f"`{where}`" in text, (where, p)


def test_no_summary_off_github_or_for_another_report(on_github, monkeypatch):
    before = on_github.read_text(encoding="utf-8")
    for output in ("text", "json", "junit"):
        run("validate", *DECKS, "-O", output)
    monkeypatch.delenv("GITHUB_ACTIONS")
    run("validate", *DECKS, "-O", "github")
    assert on_github.read_text(encoding="utf-8") == before


def test_a_summary_that_cannot_be_written_is_a_warning_not_a_lost_verdict(on_github,
                                                                          monkeypatch,
                                                                          tmp_path):
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path))  # a folder: cannot be appended
    r = run("validate", *DECKS, "-O", "github")
    assert r.code == 1 and r.out.startswith("::"), r
    assert "deckcli: warning: could not write the job summary" in r.err, r


def test_the_summary_of_many_decks_stays_within_githubs_limit(on_github, tmp_path):
    """GitHub takes at most 1 MiB of summary a step: a run of 1,500 illegal decks lists the
    first decks and problems of each rule, and counts the rest."""
    folder = tmp_path / "decks"
    folder.mkdir()
    bad = (EXAMPLES / "bad" / "too-many-copies.txt").read_text(encoding="utf-8")
    for n in range(1500):
        (folder / f"deck-{n:04d}.txt").write_text(bad, encoding="utf-8")
    r = run("validate", folder, "-O", "github")
    assert r.code == 1, r
    text = on_github.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 1 << 20
    assert "1,500 decks: 0 legal, 1,500 illegal" in text
    assert "and 500 more decks" in text and "and 1,480 more" in text, text[-2000:]


# -- --quiet --------------------------------------------------------------------------------------
def test_quiet_prints_the_illegal_decks_and_their_problems_only():
    want = json_report()
    illegal = [d for d in want["decks"] if not d["legal"]]
    r = run("validate", *DECKS, "--quiet")
    assert r.code == 1, r
    table, _, rest = r.out.partition("\n\n")
    rows = table.splitlines()[2:]
    assert sorted(row.split()[0] for row in rows) == sorted(d["path"] for d in illegal)
    assert all(" ILLEGAL " in row for row in rows)
    problems = [line for line in rest.splitlines()[:-2] if line]
    assert len(problems) == sum(len(d["problems"]) for d in illegal)
    assert r.out.endswith(f"\n{want['summary']['decks']} deck(s): {want['summary']['legal']} "
                          f"legal, {want['summary']['illegal']} illegal\n"), r


def test_quiet_with_every_deck_legal_prints_the_total_only():
    r = run("validate", EXAMPLES / "good", "-q")
    assert r.code == 0 and r.out.count("\n") == 1 and r.out.endswith(" illegal\n"), r
    assert r.out.startswith(f"{len(list((EXAMPLES / 'good').iterdir()))} deck(s): ")


def test_quiet_changes_nothing_in_a_json_report_and_says_so():
    r = run("validate", *DECKS, "-q", "-O", "json")
    assert r.json() == json_report(), r
    assert "--quiet changes nothing" in r.err and "DL-5.3" in r.err, r


# -- --statistics ---------------------------------------------------------------------------------
def test_statistics_count_the_problems_by_rule():
    want = json_report()
    by_rule = Counter(p["rule"] for d in want["decks"] for p in d["problems"])
    r = run("validate", *DECKS, "--statistics")
    assert r.code == 1, r
    lines = r.out.splitlines()
    at = lines.index(f"problems by rule ({sum(by_rule.values())} in {len(by_rule)} rules):")
    got = {}
    for line in lines[at + 1:]:
        count, rule = line.split()[:2]
        got[rule] = int(count.replace(",", ""))
    assert got == dict(by_rule)
    counts = [got[line.split()[1]] for line in lines[at + 1:]]
    assert counts == sorted(counts, reverse=True)  # the most frequent first, as ruff does


def test_statistics_beside_a_json_report_go_to_stderr():
    r = run("validate", *DECKS, "--statistics", "-O", "json")
    assert r.json() == json_report()  # stdout stays one JSON document
    assert "problems by rule (" in r.err, r
