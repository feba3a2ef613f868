"""``deckcli sheet`` and ``deckcli report``: self-contained HTML, every line, subtotals, exits."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser

import pytest
from conftest import EXAMPLES, run

DEEP = EXAMPLES / "good" / "championship-deep-divers.txt"
EVENT = EXAMPLES / "event" / "event.yaml"


class Blocks(HTMLParser):
    """Text of the elements a sheet is made of, per page: rows, kind headings, subtotals."""

    WANTED = ("row", "gh", "gs", "fp", "badge", "totals")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pages: list[dict[str, list[str]]] = []
        self.stack: list[tuple[str, str | None]] = []  # (tag, class being collected)
        self.buf: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "section" and "sheet" in classes:
            self.pages.append({k: [] for k in self.WANTED})
        want = next((c for c in self.WANTED if c in classes), None)
        if want and tag not in ("br",):
            self.buf[want] = []
        self.stack.append((tag, want))

    def handle_endtag(self, tag):
        while self.stack:
            t, want = self.stack.pop()
            if want:
                text = " ".join(" ".join(self.buf.pop(want)).split())
                self.pages[-1][want].append(text)
            if t == tag:
                break

    def handle_data(self, data):
        for k in self.buf:
            self.buf[k].append(data)


def parse(html: str) -> list[dict[str, list[str]]]:
    p = Blocks()
    p.feed(html)
    return p.pages


def expected_lines(path) -> list[str]:
    """'4 Walrus (ABS) 12 [foil]' for every entry of a deck file, in file order."""
    from deckcli.decks.reader import read_deck

    out = []
    for e in read_deck(str(path)).entries:
        text = f"{e.count} {e.name}"
        if e.printing_text:
            text += f" {e.printing_text}"
        if e.variants:
            text += " [" + ", ".join(e.variants) + "]"
        out.append(text)
    return out


def assert_self_contained(html: str) -> None:
    low = html.lower()
    for bad in ("http://", "https://", "<script", "<link", "<img", "<iframe", "@import",
                "url(", "//cdn", "javascript:"):
        assert bad not in low, bad
    assert not re.search(r"\b(src|srcset|xlink:href)\s*=", low)
    for href in re.findall(r'href="([^"]*)"', html):
        assert href.startswith("#"), href


def sheet_html(tmp_path, *args) -> tuple[object, str]:
    out = tmp_path / "sheet.html"
    r = run("sheet", *args, "-o", out)
    return r, out.read_text(encoding="utf-8") if out.exists() else ""


def fingerprint_of(path, *extra) -> str:
    r = run("validate", path, *extra, "--output", "json")
    return r.json()["decks"][0]["fingerprint"]


def test_championship_sheet_has_every_line_and_the_fingerprint(tmp_path):
    r, html = sheet_html(tmp_path, DEEP)
    assert r.code == 0, r
    assert_self_contained(html)
    (page,) = parse(html)
    assert page["row"] == expected_lines(DEEP)
    assert page["fp"] == [fingerprint_of(DEEP)]
    assert page["badge"] == ["LEGAL"]
    assert "Alice Example" in html and "Deep Divers" in html and "championship" in html


def test_subtotals_add_up(tmp_path):
    r, html = sheet_html(tmp_path, DEEP)
    assert r.code == 0, r
    (page,) = parse(html)
    assert page["gh"] == ["Animals 52", "Actions 8"]
    assert page["gs"] == ["Animals subtotal 52", "Actions subtotal 8"]
    # the subtotals are the sums of the lines under them
    counts = [int(x.split()[0]) for x in page["row"]]
    animals = sum(counts[:15])  # the Deep Divers list has 15 Animal lines, then 2 Action lines
    assert (animals, sum(counts[15:])) == (52, 8)
    assert page["totals"] == ["Animals: 52 Actions: 8 Total: 60 cards"]


def test_print_css_for_a4_and_letter(tmp_path):
    _, html = sheet_html(tmp_path, DEEP, DEEP)
    assert "@page { size: auto; margin: 12mm; }" in html
    assert "page-break-after: always" in html
    assert html.count('<section class="sheet') == 2
    _, a4 = sheet_html(tmp_path, DEEP, "--paper", "a4")
    assert "@page { size: A4;" in a4
    _, letter = sheet_html(tmp_path, DEEP, "--paper", "letter")
    assert "@page { size: letter;" in letter


def test_illegal_deck_sheet_shows_the_verdict_and_exits_0(tmp_path):
    path = EXAMPLES / "bad" / "too-many-copies.txt"
    r, html = sheet_html(tmp_path, path)
    assert r.code == 0, r
    (page,) = parse(html)
    assert page["badge"] == ["ILLEGAL"]
    assert "Verdict: illegal" in html and "copy-limit" in html and "AB-1.5" in html
    assert page["row"] == expected_lines(path)


def test_unknown_cards_are_listed_as_not_recognised(tmp_path, deck_file):
    path = deck_file("4 Walrus\n2 Wallrus\n")
    r, html = sheet_html(tmp_path, path)
    assert r.code == 0, r
    (page,) = parse(html)
    assert page["row"] == ["4 Walrus", "2 Wallrus"]
    assert page["gh"] == ["Animals 4", "Not recognised 2"]
    assert "did you mean" in html


def test_values_are_escaped(tmp_path, deck_file):
    path = deck_file("name: <script>alert(1)</script>\nplayer: Bob & \"Co\"\n4 Walrus\n")
    r, html = sheet_html(tmp_path, path)
    assert r.code == 0, r
    assert_self_contained(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Bob &amp; &quot;Co&quot;" in html


def test_control_characters_in_names_are_shown_as_escapes(tmp_path, deck_file):
    """As in every report (docs/safety.md): a deck or player name's terminal
    escapes, bells and right-to-left overrides reach the page as visible escapes."""
    path = deck_file("name: Evil\x1b[31mName\u202e\nplayer: P\x07q\n4 Walrus\n2 Wal\x1b[1mrus\n")
    out = tmp_path / "s.html"
    assert run("sheet", path, "-o", out).code == 0
    page = out.read_text(encoding="utf-8")
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in page
    assert "Evil\\x1b[31mName\\u202e" in page and "P\\x07q" in page
    r = run("stats", path)
    assert "Evil\\x1b[31mName\\u202e" in r.out and "\x1b" not in r.out + r.err


def test_player_option_names_the_player(tmp_path):
    r, html = sheet_html(tmp_path, DEEP, "--player", "Zoë Judge")
    assert r.code == 0, r
    assert "Zoë Judge" in html and "Alice Example" not in html


def test_a_folder_gives_a_page_per_deck_file(tmp_path):
    folder = EXAMPLES / "bad"
    r, html = sheet_html(tmp_path, folder)
    assert r.code == 0, r  # illegal decks still get their sheet
    pages = parse(html)
    files = sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".yaml", ".json"))
    assert len(pages) == len(files)
    assert all(page["badge"] == ["ILLEGAL"] for page in pages)


def test_an_unreadable_file_in_a_folder_gets_a_page_and_the_others_are_written(tmp_path):
    """As validate: a FIFO found by the walk is reported (DL-1.4), not the end of the run."""
    import os
    import shutil

    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(DEEP, folder / "b.txt")
    os.mkfifo(folder / "a.txt")
    r, html = sheet_html(tmp_path, folder)
    assert r.code == 0, r
    pages = parse(html)
    assert len(pages) == 2 and "a.txt cannot be read: not a regular file." in html


def test_stdout(tmp_path):
    r = run("sheet", DEEP, "-o", "-")
    assert r.code == 0, r
    assert r.out.startswith("<!DOCTYPE html>") and r.out.rstrip().endswith("</html>")
    assert fingerprint_of(DEEP) in r.out


def test_event_roster_one_page_per_player(tmp_path):
    r, html = sheet_html(tmp_path, "--event", EVENT)
    assert r.code == 0, r
    assert_self_contained(html)
    pages = parse(html)
    reports = run("validate", "--event", EVENT, "--output", "json").json()["decks"]
    assert len(pages) == len(reports) == 5
    for page, deck in zip(pages, reports):
        if deck["path"] is None:  # dana: listed, no deck
            assert page["badge"] == ["NO DECK"] and page["row"] == []
            continue
        assert page["fp"] == [deck["fingerprint"]]
        assert page["row"] == expected_lines(deck["path"])
    assert "Spring Championship" in html and "2026-05-02" in html
    assert "No deck submitted" in html and "dana" in html
    chen = pages[2]
    assert chen["badge"] == ["ILLEGAL"]


def test_event_and_player_picks_one_roster_entry(tmp_path):
    r, html = sheet_html(tmp_path, "--event", EVENT, "--player", "bruno")
    assert r.code == 0, r
    (page,) = parse(html)
    assert page["row"] == expected_lines(EXAMPLES / "event" / "decks" / "bruno.yaml")
    r, _ = sheet_html(tmp_path, "--event", EVENT, "--player", "zed")
    assert r.code == 2 and "no player 'zed'" in r.err, r


def test_event_applies_to_given_decks(tmp_path):
    chen = EXAMPLES / "event" / "decks" / "chen.txt"
    r, html = sheet_html(tmp_path, chen, "--event", EVENT)
    assert r.code == 0, r
    assert "banned" in html and parse(html)[0]["badge"] == ["ILLEGAL"]


@pytest.mark.parametrize("args", [
    ("missing.txt",),
    ("--event", "missing.yaml"),
    (),
], ids=["missing-deck", "missing-event", "nothing"])
def test_sheet_cannot_run_exits_2(tmp_path, args):
    args = [tmp_path / a if str(a).endswith((".txt", ".yaml")) else a for a in args]
    out = tmp_path / "out.html"
    r = run("sheet", *args, "-o", out)
    assert r.code == 2, r
    assert not out.exists()
    assert "Traceback" not in r.err


def test_bad_event_file_exits_2(tmp_path):
    bad = tmp_path / "event.yaml"
    bad.write_text("name: x\nformat: nonsense\n", encoding="utf-8")
    r = run("sheet", DEEP, "--event", bad, "-o", tmp_path / "o.html")
    assert r.code == 2 and "format" in r.err, r


def test_event_without_roster_and_no_decks_exits_2(tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text("name: x\n", encoding="utf-8")
    r = run("sheet", "--event", event, "-o", tmp_path / "o.html")
    assert r.code == 2 and "lists no players" in r.err, r


# -- report -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    r = run("report", EVENT, "-o", out)
    assert r.code == 0, r
    return out.read_text(encoding="utf-8")


def test_report_is_self_contained_with_svg_charts(report_html):
    assert_self_contained(report_html)
    assert report_html.count("<svg") >= 7  # verdicts, most played, five statistic profiles
    assert "xmlns" not in report_html  # inline SVG in HTML needs no namespace URL


def test_report_lists_every_deck_verdict_and_fingerprint(report_html):
    decks = run("validate", "--event", EVENT, "--output", "json").json()["decks"]
    for deck in decks:
        if deck["fingerprint"]:
            assert deck["fingerprint"] in report_html
        for p in deck["problems"]:
            assert f'<a href="#rule-{p["rule"]}">{p["rule"]}</a>' in report_html


def test_report_rule_links_resolve_to_the_rule_text(report_html):
    from deckcli.rulebook import find_rule

    targets = set(re.findall(r'href="#([^"]+)"', report_html))
    assert targets >= {"rule-EV-1.1", "rule-EV-2.1", "rule-EV-3.1"}
    for target in targets:
        assert f'id="{target}"' in report_html, target
        rule = find_rule(target.removeprefix("rule-"))
        assert rule is not None
        from html import escape

        assert escape(rule.text) in report_html


def test_report_cited_rules_end_with_their_related_rules(report_html):
    """'deckcli rules EV-1.1' ends with 'see also: AB-1.6'; the appendix shows each rule as
    that command does (README)."""
    from deckcli.rulebook import find_rule

    cited = re.findall(r'<div class="rule" id="rule-([^"]+)">(.*?)</div>', report_html)
    assert cited
    for rule_id, body in cited:
        refs = find_rule(rule_id).refs
        if refs:
            assert "see also: " in body and all(r in body for r in refs), (rule_id, body)
        else:
            assert "see also" not in body


def test_card_usage_counts():
    from deckcli.cards import open_index
    from deckcli.events.model import load_event
    from deckcli.sheets import load_event_decks
    from deckcli.sheets.report import card_usage
    from deckcli.validate import Options

    index = open_index()
    event = load_event(str(EVENT))
    event.resolve(index)
    sheets = load_event_decks(event, index, Options(event=event))
    usage = {u["card"]: u for u in card_usage(sheets)}
    # Cheetah: 4 each in bruno, chen and erin; alice plays none; dana has no deck
    assert usage["Cheetah (DWV) 4"] == {"card": "Cheetah (DWV) 4", "name": "Cheetah",
                                             "kind": "animal", "copies": 12, "decks": 3,
                                             "share": 0.75}
    # Herd Instinct: 6 in alice only
    (herd,) = index.cards_named("animal-battle", "Herd Instinct")
    assert (usage[herd.ref]["copies"], usage[herd.ref]["decks"], usage[herd.ref]["share"]) == (
        6, 1, 0.25)


def test_report_stat_profiles_and_most_played(report_html):
    for stat in ("Weight", "Speed", "Lifespan", "Population", "Length"):
        assert f"<h3>{stat} " in report_html
    assert "lower wins" in report_html and "Most played cards" in report_html
    assert "Share of each card across decks" in report_html and "75%" in report_html


def test_report_bad_event_exits_2(tmp_path):
    r = run("report", tmp_path / "nope.yaml", "-o", tmp_path / "r.html")
    assert r.code == 2 and not (tmp_path / "r.html").exists(), r


def test_report_needs_a_roster(tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text("name: No Roster\n", encoding="utf-8")
    r = run("report", event, "-o", tmp_path / "r.html")
    assert r.code == 2 and "lists no players" in r.err, r


def test_report_to_stdout():
    r = run("report", EVENT, "-o", "-")
    assert r.code == 0 and r.out.startswith("<!DOCTYPE html>"), r


def test_an_output_that_is_a_folder_is_refused_as_a_folder(tmp_path):
    """The message said 'not a deck file' about a sheet's output."""
    r = run("sheet", EXAMPLES / "good" / "casual-risky.txt", "-o", tmp_path)
    assert r.code == 2 and "is a directory, not a file" in r.err, r


def test_a_page_never_replaces_a_deck_or_the_event_file_it_reads(tmp_path):
    """`sheet -o` naming its deck (or a roster deck, even one --player leaves out) and
    `report -o` naming the event file or a roster deck used to replace it with the HTML
    page, exit 0; each is refused, exit 2, naming the file, and nothing changes."""
    import shutil

    event_dir = tmp_path / "event"
    shutil.copytree(EXAMPLES / "event", event_dir)
    deck = tmp_path / DEEP.name
    deck.write_bytes(DEEP.read_bytes())
    event = event_dir / "event.yaml"
    before = {p: p.read_bytes() for p in [deck, *event_dir.rglob("*")] if p.is_file()}
    cases = [("sheet", deck, "-o", deck),
             ("sheet", tmp_path, "-o", deck),
             ("sheet", "--event", event, "-o", event),
             ("sheet", "--event", event, "--player", "alice", "-o",
              event_dir / "decks" / "bruno.yaml"),
             ("report", event, "-o", event),
             ("report", event, "-o", event_dir / "decks" / "alice.txt"),
             # erin.txt: a deck beside the roster's that no player is listed for, read too
             ("report", event, "-o", event_dir / "decks" / "erin.txt"),
             ("sheet", "--event", event, "--player", "alice", "-o",
              event_dir / "decks" / "erin.txt"),
             ("export", "--event", event, "--to", "csv", "-o", event_dir / "decks" / "erin.txt")]
    for args in cases:
        r = run(*args)
        assert r.code == 2 and "not replacing it" in r.err and str(args[-1]) in r.err, (args, r)
    assert {p: p.read_bytes() for p in before} == before


def test_the_report_keeps_no_deck_once_it_has_counted_it(tmp_path):
    """Issue 38, 13: ``report`` on an event of 20,000 players peaked at 508 MiB: every deck
    was read, resolved and kept until the page, built whole, was written. The report now
    counts each deck as it is read and keeps only its row (report and figures), so at most
    the deck being counted is alive, however many the roster lists (and the page is written
    in parts; benchmarks/report_memory.py measures both: 71 MiB)."""
    import gc

    from deckcli.cards import open_index
    from deckcli.decks.model import Deck
    from deckcli.decks.resolve import ResolvedDeck
    from deckcli.events.model import load_event
    from deckcli.roster import roster_decks
    from deckcli.sheets.report import Tally, card_usage, report_parts
    from deckcli.validate import Options

    decks = sorted((EVENT.parent / "decks").iterdir())
    lines = ["name: Big", "game: animal-battle", "format: championship", "players:"]
    # each deck three times: a deck kept after its count would show as 3 or more alive (every
    # count walks the whole heap, which is large in a worker that has run many tests)
    for i in range(12):
        shutil.copy(decks[i % len(decks)], tmp_path / f"d{i:02d}{decks[i % len(decks)].suffix}")
        lines.append(f"  p{i:02d}: d{i:02d}{decks[i % len(decks)].suffix}")
    (tmp_path / "event.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    index = open_index()
    event = load_event(str(tmp_path / "event.yaml"))
    event.resolve(index)
    alive = []

    def roster():
        for item in roster_decks(event, index, Options(event=event)):
            yield item
            gc.collect()
            alive.append(sum(1 for o in gc.get_objects() if type(o) in (Deck, ResolvedDeck)))

    tally = Tally.of(roster(), index)
    assert len(tally.rows) == 12 and len(alive) == 12
    assert max(alive) <= 2, alive  # the deck just counted (and its resolved deck), no more
    page = "".join(report_parts(event, tally))
    assert page.count('<td class="fp">') == 24  # every deck's file and fingerprint
    from deckcli.sheets import load_event_decks

    assert tally.usage() == card_usage(load_event_decks(event, index, Options(event=event)))
