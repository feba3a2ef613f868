"""The process entry point (console script and ``python -m deckcli``): start-up without the
cyclic garbage collector.

Loading click and deckcli creates tens of thousands of objects that live until exit (modules,
functions, classes, the card index's tables). The collector walked them again and again while
they loaded, and once more at exit, and never freed any of them: 20 million of the 206 million
instructions of a one-deck check (valgrind). So:

* :func:`main` switches the collector off before anything is imported;
* :func:`loaded` is called once the subcommand's own module is imported: everything alive is
  frozen (:func:`gc.freeze`, never scanned again) and the collector is switched back on, so a
  long run (20,000 decks, a 10,000-action game log) collects its own garbage as usual;
* at exit, what is alive is frozen as well, so the interpreter's last collection skips it;
* and when nothing is left for the interpreter's teardown to do (the output flushed, no exit
  handler registered, no other thread that is not a daemon), the process ends there
  (:func:`_leave`), as mypy's does, without taking every module and object apart first.

A program that imports deckcli as a library is left alone: only :func:`main` changes the
collector's state.
"""

from __future__ import annotations

import gc
import sys

_held = False  # True while main() keeps the collector off for start-up


def main(argv: list[str] | None = None) -> None:
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True
    from deckcli import cli

    cli.LOADED.append(loaded)
    code = cli.run(argv)
    gc.freeze()  # nothing left to collect: the process ends
    _leave(code)


def _leave(code: int) -> None:
    """End the process with ``code``. Its output is flushed first; then, when no exit handler
    is registered (``atexit``: logging, a Dask client, a temporary folder's clean-up) and no
    thread but daemons is left, the interpreter's teardown would only free memory the process
    is about to give back, so the process ends at once (``os._exit``). Otherwise, or when a
    flush fails, the interpreter ends as usual; a reader of stdout that has gone (``| head``)
    only loses the rest of the output, and the exit code is the command's."""
    import atexit
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader of stdout left after the command was done (| head)
        from deckcli.cli import drop_stdout

        drop_stdout()  # what is left goes nowhere, without Python's "Exception ignored"
        sys.exit(code)  # and the command's own answer stands
    except (OSError, ValueError, AttributeError):
        sys.exit(code)
    threading = sys.modules.get("threading")
    alone = threading is None or all(t.daemon or t is threading.main_thread()
                                     for t in threading.enumerate())
    handlers = getattr(atexit, "_ncallbacks", None)  # CPython's count of exit handlers
    if handlers is not None and handlers() == 0 and alone:
        os._exit(code)
    sys.exit(code)


def loaded() -> None:
    """Start-up is over: freeze what is loaded and let the collector run again."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
