"""deckcli edit: how soon it shows a deck, and how soon the cards pane answers a keystroke.

* First frame: `deckcli edit` of a 60-card deck started in a real pseudo-terminal (80x24),
  timed from the start of the process to the first frame that shows the deck (its verdict and
  its first entry), alternating with two baselines in the same run: a cold `deckcli validate`
  of the same deck (a process that reads the deck and exits), and a one-widget Textual app to
  its first frame (what any Textual program pays to start). Goal: <= 1 s.
* Keystroke: the app run headless in a process of its own, a query typed one character at a
  time into the filter bar; for each, the time from the key reaching the app to the first
  frame drawn with the cards pane showing that query's results (the search, the table filled,
  the screen composed; only sending the frame to a terminal is left out). On a database of
  100,000 printings (made as card_db_scale.py makes it) against the bundled database.
  Goal: <= 50 ms a keystroke on the 100,000 printings.

    python benchmarks/editor.py [--runs 7] [--printings 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, deckcli_cmd, ms, run_once, timed_env

DECK = REPO / "examples" / "good" / "championship-deep-divers.txt"
MINIMAL = """
from textual.app import App
from textual.widgets import Static
class One(App):
    def compose(self):
        yield Static("Blue Whale LEGAL")
    def on_mount(self):
        self.set_timer(0.05, self.exit)
One().run()
"""
#: typed into the filter bar, one character at a time
QUERIES = {"name": "synthetic beast 01234", "statistic": "speed>290"}
BUNDLED_QUERIES = {"name": "blue whale", "statistic": "speed>90"}


def first_frame(argv: list[str], marks: list[bytes], env: dict, limit: float = 60) -> float:
    """Seconds from starting ``argv`` in an 80x24 pseudo-terminal to the first output that
    holds every one of ``marks`` (escape sequences left out); the program is then ended."""
    import fcntl
    import re
    import signal
    import termios

    escapes = re.compile(rb"\x1b(?:\[[0-9;?<=>!]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|"
                         rb"[()][0-9A-Za-z]|[=>78cDEHM])")
    start = time.perf_counter()
    pid, fd = os.forkpty()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.execvpe(argv[0], argv, {**timed_env(env), "TERM": "xterm-256color"})
        finally:
            os._exit(127)
    seen = b""
    try:
        while time.perf_counter() - start < limit:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                seen += escapes.sub(b"", data)
                if all(m in seen for m in marks):
                    return time.perf_counter() - start
        raise RuntimeError(f"no first frame from {argv}: {seen[-500:]!r}")
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
        os.close(fd)


KEY_NAMES = {" ": "space", ">": "greater_than_sign", "<": "less_than_sign", ":": "colon",
             "-": "minus"}


def keystrokes(db_dirs: list[str], query: str, env_cache: str) -> dict[str, list[float]]:
    """Seconds from each key of ``query`` reaching the app (typed into the filter bar) to the
    first frame drawn with the cards pane showing the results of the query so far: wall-clock
    time, and the CPU time the process spent in it (what the wait would be on an idle
    machine)."""
    os.environ["DECKCLI_CACHE_DIR"] = env_cache
    from textual import events

    from deckcli.cards import open_index
    from deckcli.editor.app import DeckEditor
    from deckcli.editor.session import Session

    index = open_index(db_dirs)
    out: list[float] = []
    used: list[float] = []

    async def main():
        with tempfile.TemporaryDirectory(prefix="deckcli-bench-edit-") as tmp:
            deck = Path(tmp) / "deck.txt"
            deck.write_bytes(DECK.read_bytes())
            app = DeckEditor(Session(str(deck), index))
            app.animation_level = "none"
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.press("slash")
                frames: list[float] = []
                drawn = app._display

                def display(screen, update):  # the app's frame, drawn (headless: not sent)
                    drawn(screen, update)
                    frames.append(time.perf_counter())
                app._display = display
                for i, key in enumerate(query):
                    await pilot.pause()
                    want = query[:i + 1]
                    start, cpu = time.perf_counter(), time.process_time()
                    app.post_message(events.Key(KEY_NAMES.get(key, key), key))
                    while app.query_shown != want:
                        await asyncio.sleep(0.0002)
                    ready = time.perf_counter()
                    while not frames or frames[-1] < ready:
                        await asyncio.sleep(0.0002)
                    out.append(frames[-1] - start)
                    used.append(time.process_time() - cpu)
    asyncio.run(main())
    return {"wall": out, "cpu": used}


def _keystrokes_in_a_child(db_dirs, query, cache) -> dict[str, list[float]]:
    """keystrokes() in a fresh process (each database's index opened cold, as a user's)."""
    import subprocess

    here = str(Path(__file__).parent)
    code = (f"import json, sys; sys.path.insert(0, {here!r}); import editor; "
            f"print(json.dumps(editor.keystrokes({db_dirs!r}, {query!r}, {cache!r})))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=timed_env())
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--printings", type=int, default=100_000)
    args = ap.parse_args()
    cmd = deckcli_cmd()
    with tempfile.TemporaryDirectory(prefix="deckcli-bench-editor-") as tmp:
        tmp = Path(tmp)
        cache = str(tmp / "cache")
        env = {"DECKCLI_CACHE_DIR": cache}
        run_once([*cmd, "db", "build"], env)
        deck = tmp / "deck.txt"
        deck.write_bytes(DECK.read_bytes())
        minimal = tmp / "one.py"
        minimal.write_text(MINIMAL, encoding="utf-8")
        edit_t, validate_t, textual_t = [], [], []
        first_frame([*cmd, "edit", str(deck)], [b"LEGAL", b"Blue Whale"], env)  # warm up
        for _ in range(args.runs):
            edit_t.append(first_frame([*cmd, "edit", str(deck)], [b"LEGAL", b"Blue Whale"],
                                      env))
            validate_t.append(run_once([*cmd, "validate", str(deck)], env)[0])
            textual_t.append(first_frame([sys.executable, str(minimal)],
                                         [b"Blue Whale LEGAL"], env))
        edit, validate, one = (statistics.median(x) for x in (edit_t, validate_t, textual_t))
        print(f"first frame of deckcli edit (80x24): {ms(edit)} (median of {args.runs}; "
              f"goal <= 1 s)")
        print(f"  / cold deckcli validate of the same deck ({ms(validate)}): "
              f"{edit / validate:.2f}")
        print(f"  / a one-widget Textual app to its first frame ({ms(one)}): {edit / one:.2f}")

        sys.path.insert(0, str(REPO / "benchmarks"))
        from card_db_scale import generate

        db = tmp / "db"
        db.mkdir()
        generate(db, args.printings)
        built, code, _ = run_once([*cmd, "--db", str(db), "db", "build"], env)
        assert code == 0, "db build failed"
        print(f"{args.printings:,}-printing database built in {built:.1f} s")
        result = {"first_frame_s": round(edit, 3), "first_frame_over_validate":
                  round(edit / validate, 2), "first_frame_over_textual": round(edit / one, 2)}
        for kind, query in QUERIES.items():
            big = _keystrokes_in_a_child([str(db)], query, cache)
            small = _keystrokes_in_a_child([], BUNDLED_QUERIES[kind], cache)
            for how in ("wall", "cpu"):
                b_med, s_med = statistics.median(big[how]), statistics.median(small[how])
                print(f"keystroke to results ({how} time), {kind} query '{query}' on "
                      f"{args.printings:,} printings: median {ms(b_med)}, worst "
                      f"{ms(max(big[how]))} (goal <= 50 ms)")
                print(f"  / the bundled database, '{BUNDLED_QUERIES[kind]}' (median "
                      f"{ms(s_med)}): {b_med / s_med:.2f}")
                result[f"keystroke_{kind}_{how}_ms"] = round(b_med * 1000, 1)
                result[f"keystroke_{kind}_{how}_worst_ms"] = round(max(big[how]) * 1000, 1)
                result[f"keystroke_{kind}_{how}_over_bundled"] = round(b_med / s_med, 2)
        load = os.getloadavg()[0]
        cpus = os.cpu_count() or 1
        print(f"load average at the end: {load:.1f} on {cpus} CPUs: wall times are about "
              f"{max(1.0, load / cpus):.1f}x what an idle machine would take; CPU times are not")
        result["load"] = round(load, 1)
        print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
