"""Sheets and reports rendered by a real browser: headless Chromium prints them to PDF.

Checked from the PDF (poppler's pdfinfo, pdftotext, pdftoppm): every deck is exactly one page,
every card line and the fingerprint are on it, the page is not blank; and the screenshot is a
real, non-blank image. Skipped, with the reason, where Chromium or poppler-utils is missing
(``apt-get install chromium poppler-utils``; .ci/run installs them on CI).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest
from conftest import EXAMPLES, run

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome",
                                           "google-chrome-stable") if shutil.which(n)), None)
POPPLER = all(shutil.which(t) for t in ("pdfinfo", "pdftotext", "pdftoppm"))
TIMEOUT = 60

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on PATH (apt-get install chromium)"),
    pytest.mark.skipif(not POPPLER, reason="no pdfinfo/pdftotext/pdftoppm on PATH "
                                           "(apt-get install poppler-utils)"),
]

DEEP = EXAMPLES / "good" / "championship-deep-divers.txt"
EVENT = EXAMPLES / "event" / "event.yaml"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


# -- running Chromium --------------------------------------------------------------------------
def _start(html: Path, out_flags: list[str], profile: str) -> subprocess.Popen:
    return subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *out_flags, html.resolve().as_uri()],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _wait(proc: subprocess.Popen, what: str) -> None:
    try:
        _, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the browser and every helper process it started
        proc.communicate()
        pytest.fail(f"chromium did not finish {what} within {TIMEOUT} s")
    assert proc.returncode == 0, f"chromium failed on {what}:\n{err.decode(errors='replace')}"


def render(html: Path, *, pdf: bool = True, png: bool = False) -> tuple[Path | None, Path | None]:
    """Print ``html`` to PDF and/or take a 1280x1800 screenshot, in parallel, each in a new
    empty profile; return the files' paths."""
    pdf_path = html.with_suffix(".pdf") if pdf else None
    png_path = html.with_suffix(".png") if png else None
    with tempfile.TemporaryDirectory() as p1, tempfile.TemporaryDirectory() as p2:
        jobs = []
        if pdf_path:
            jobs.append((_start(html, [f"--print-to-pdf={pdf_path}", "--no-pdf-header-footer"],
                                p1), "--print-to-pdf"))
        if png_path:
            jobs.append((_start(html, [f"--screenshot={png_path}", "--window-size=1280,1800"],
                                p2), "--screenshot"))
        for proc, what in jobs:
            _wait(proc, f"{what} of {html.name}")
    for path in (pdf_path, png_path):
        if path is not None:
            assert path.exists() and path.stat().st_size > 0, path
    return pdf_path, png_path


# -- reading the results -----------------------------------------------------------------------
def pdf_info(pdf: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True,
                         timeout=TIMEOUT).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def pages(pdf: Path) -> int:
    return int(pdf_info(pdf)["Pages"])


def page_text(pdf: Path, page: int | None = None) -> str:
    cmd = ["pdftotext", "-enc", "UTF-8"]
    if page is not None:
        cmd += ["-f", str(page), "-l", str(page)]
    text = subprocess.run([*cmd, str(pdf), "-"], capture_output=True, check=True,
                          timeout=TIMEOUT).stdout.decode("utf-8")
    return re.sub(r"-\s+", "-", text)  # a name broken after a hyphen reads as one word


def ink(pdf: Path, page: int) -> float:
    """Share of dark pixels on a page rasterised in grey (PGM: no compression to undo)."""
    data = subprocess.run(["pdftoppm", "-gray", "-r", "40", "-f", str(page), "-l", str(page),
                           str(pdf)], capture_output=True, check=True, timeout=TIMEOUT).stdout
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    width, height = int(m.group(1)), int(m.group(2))
    pixels = data[m.end():m.end() + width * height]
    return sum(1 for b in pixels if b < 160) / len(pixels)


def assert_png_not_blank(png: Path, width: int = 1280, height: int = 1800) -> None:
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, depth, color = header[:4]
    assert (w, h, depth) == (width, height, 8)
    raw = zlib.decompress(idat)
    channels = {2: 3, 6: 4}[color]
    assert len(raw) == h * (1 + w * channels)
    # a blank page is a handful of byte values and compresses to almost nothing
    assert len(set(raw)) >= 64, "the screenshot looks blank"
    assert len(idat) > len(raw) / 400, "the screenshot looks blank"


def line_pattern(count: int, name: str) -> re.Pattern:
    """'4 Great White Shark', allowing a wrapped name with the printing between its words."""
    words = [re.escape(w) for w in name.split()]
    return re.compile(rf"(?<![\w.]){count}\s+" + r"\s+(?:\S+\s+){0,6}?".join(words) + r"(?!\w)")


def assert_deck_on_page(text: str, deck_path, fingerprint: str) -> None:
    from deckcli.decks.reader import read_deck

    assert fingerprint in text, fingerprint
    flat = " ".join(text.split())
    for e in read_deck(str(deck_path)).entries:
        assert line_pattern(e.count, e.name).search(text), f"line {e.line}: {e.count} {e.name}"
        if e.printing_text:
            assert e.printing_text in flat, f"line {e.line}: {e.printing_text}"
        if e.variants:
            assert "[" + ", ".join(e.variants) + "]" in flat, f"line {e.line}: {e.variants}"


def fingerprints(*args) -> list[dict]:
    return run("validate", *args, "--output", "json").json()["decks"]


def write_sheet(tmp_path, name: str, *args) -> Path:
    out = tmp_path / f"{name}.html"
    r = run("sheet", *args, "-o", out)
    assert r.code == 0, r
    return out


# -- decks for the tests -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def sixty(tmp_path_factory, index) -> Path:
    """Sixty one-ofs: the most distinct lines a championship deck can have, built from the
    database's longest names, each naming a printing and a variant tag where one exists."""
    cards = sorted(index.all_cards("animal-battle"), key=lambda c: (-len(c.ref), c.ref))[:60]
    lines = ["game: animal-battle", "format: championship",
             "name: Sixty Singles, the Longest List a Championship Allows",
             "player: Maximilian Alexander Featherstonehaugh-Smythe"]
    for card in cards:
        p = max(index.printings_of(card.id), key=lambda p: (len(p.variants), p.set_code))
        tag = f" [{p.variants[0]}]" if p.variants else ""
        lines.append(f"1 {card.name} ({p.set_code}) {p.number}{tag}")
    path = tmp_path_factory.mktemp("sixty") / "sixty.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert fingerprints(path)[0]["legal"], "the sixty one-ofs must be a legal deck"
    return path


@pytest.fixture(scope="module")
def worst(sixty) -> Path:
    """The sixty one-ofs plus seven bad lines: 67 lines and eight problems on one sheet."""
    path = sixty.with_name("worst.txt")
    path.write_text(sixty.read_text(encoding="utf-8") + "7 Walrus\n5 Orca\n1 Unknown Beast\n"
                    "1 Mystery Fish\n2 Blue Whale (ZZZ) 1\n1 Vaquita (ABS) 18 [promo]\n3 Zebar\n",
                    encoding="utf-8")
    return path


# -- the tests ---------------------------------------------------------------------------------
def test_championship_sheet_is_one_full_page(tmp_path):
    pdf, png = render(write_sheet(tmp_path, "deep", DEEP), png=True)
    assert pages(pdf) == 1
    assert_deck_on_page(page_text(pdf, 1), DEEP, fingerprints(DEEP)[0]["fingerprint"])
    assert 0.005 < ink(pdf, 1) < 0.5
    assert_png_not_blank(png)


def test_sixty_one_ofs_fit_one_page(tmp_path, sixty):
    pdf, png = render(write_sheet(tmp_path, "sixty", sixty), png=True)
    assert pages(pdf) == 1
    text = page_text(pdf, 1)
    assert_deck_on_page(text, sixty, fingerprints(sixty)[0]["fingerprint"])
    assert "Total: 60 cards" in text and "LEGAL" in text
    assert_png_not_blank(png)


def test_worst_case_illegal_list_fits_one_page(tmp_path, worst):
    pdf, _ = render(write_sheet(tmp_path, "worst", worst))
    assert pages(pdf) == 1
    text = page_text(pdf, 1)
    assert_deck_on_page(text, worst, fingerprints(worst)[0]["fingerprint"])
    assert "ILLEGAL" in text and "and 2 more" in " ".join(text.split())


def test_event_roster_prints_one_page_per_deck(tmp_path):
    pdf, png = render(write_sheet(tmp_path, "event", "--event", EVENT), png=True)
    decks = fingerprints("--event", EVENT)
    assert pages(pdf) == len(decks) == 5
    for number, deck in enumerate(decks, 1):
        text = page_text(pdf, number)
        assert f"Sheet {number} of 5" in text
        assert "Spring Championship" in text
        if deck["path"] is None:
            assert "No deck submitted" in text and deck["player"] in text
        else:
            assert_deck_on_page(text, deck["path"], deck["fingerprint"])
        assert ink(pdf, number) > 0.005
    assert_png_not_blank(png)


def test_every_bad_example_prints_on_its_own_page(tmp_path):
    folder = EXAMPLES / "bad"
    pdf, _ = render(write_sheet(tmp_path, "bad", folder))
    decks = fingerprints(folder)
    assert pages(pdf) == len(decks) == len(list(folder.iterdir()))
    for number, deck in enumerate(decks, 1):
        text = page_text(pdf, number)
        assert "ILLEGAL" in text and f"Sheet {number} of {len(decks)}" in text
        if deck["fingerprint"]:
            assert deck["fingerprint"] in text


@pytest.mark.parametrize("paper,label", [("a4", "A4"), ("letter", "letter")])
def test_each_paper_size_keeps_one_page_per_deck(tmp_path, sixty, worst, paper, label):
    pdf, _ = render(write_sheet(tmp_path, paper, sixty, worst, DEEP, "--paper", paper))
    assert f"({label})" in pdf_info(pdf)["Page size"]
    assert pages(pdf) == 3
    for number, path in enumerate((sixty, worst, DEEP), 1):
        assert_deck_on_page(page_text(pdf, number), path, fingerprints(path)[0]["fingerprint"])


def test_report_renders_with_charts_and_rules(tmp_path):
    out = tmp_path / "report.html"
    r = run("report", EVENT, "-o", out)
    assert r.code == 0, r
    pdf, png = render(out, png=True)
    text = " ".join(page_text(pdf).split())
    for deck in fingerprints("--event", EVENT):
        if deck["fingerprint"]:
            assert deck["fingerprint"] in text
    for heading in ("Summary", "Decks", "Most played cards", "Share of each card across decks",
                    "Statistic profiles", "Cited rules"):
        assert heading in text
    assert "database median" in text  # the SVG charts' text is drawn
    assert "EV-1.1 Banned cards" in text
    assert_png_not_blank(png)


def test_exported_decklists_page_renders_every_deck(tmp_path):
    """deckcli export --to html, printed by Chromium: every roster deck's player, verdict,
    fingerprint and each card line is on the page, and the page is not blank."""
    out = tmp_path / "decklists.html"
    r = run("export", "--event", EVENT, "--to", "html", "-o", out)
    assert r.code == 1, r  # written; chen's deck is illegal and dana's missing
    pdf, png = render(out, png=True)
    text = page_text(pdf)
    flat = " ".join(text.split())
    assert "Spring Championship" in flat and "no deck submitted" in flat
    for deck in fingerprints("--event", EVENT):
        if deck["player"] and deck["path"]:
            assert deck["player"] in flat
            assert_deck_on_page(text, deck["path"], deck["fingerprint"])
    assert all(ink(pdf, n) > 0.002 for n in range(1, pages(pdf) + 1))
    assert_png_not_blank(png)


def test_the_matchup_heatmap_renders_every_pairing(tmp_path):
    """deckcli simulate of three decks --html, printed by Chromium: every deck's name, every
    cell's win rate and interval (as the JSON gives them) are on the page, with colour."""
    out = tmp_path / "matrix.html"
    decks = [EXAMPLES / "good" / n for n in ("championship-deep-divers.txt",
                                             "casual-savanna.yaml", "casual-rainforest.json")]
    r = run("simulate", *decks, "--games", "20", "--seed", "2", "--html", out, "-O", "json")
    assert r.code == 0, r
    data = r.json()
    pdf, png = render(out, png=True)
    flat = " ".join(page_text(pdf).split())
    for d in decks:
        assert d.name in flat
    for i, row in enumerate(data["matrix"]):
        for j, rate in enumerate(row):
            if i != j and rate is not None:
                assert f"{100 * rate:.1f}%" in flat, (i, j, rate)
                lo, hi = data["ci95"][i][j]
                assert f"{100 * lo:.1f}%–{100 * hi:.1f}%" in flat
    assert ink(pdf, 1) > 0.01
    assert_png_not_blank(png)
