"""Coverage-guided fuzzing of event files: the input is written to a file and load_event()
reads it (read_bytes, decode, load_yaml, the field checks of deckcli.events.fields, line
look-ups).

Not part of the pytest run; see tests/fuzz/README.md::

    DECKCLI_CACHE_DIR=/tmp/dc-fuzz python tests/fuzz/fuzz_event.py tests/fuzz/corpus/event \
        -max_total_time=120 -rss_limit_mb=2048 -timeout=10

Contract checked: load_event() returns an Event or raises DeckcliError (EventFileError for a
bad file). Any other exception is a finding.
"""

from __future__ import annotations

import os
import sys
import tempfile


def _imports():
    import atheris

    with atheris.instrument_imports(include=["deckcli", "ruamel"]):
        import ruamel.yaml  # noqa: F401
        import ruamel.yaml.constructor  # noqa: F401
        import ruamel.yaml.nodes  # noqa: F401

        import deckcli.decks.reader  # noqa: F401
        import deckcli.events.fields  # noqa: F401
        import deckcli.games  # noqa: F401
        import deckcli.yamlio  # noqa: F401
        from deckcli.errors import DeckcliError
        from deckcli.events.model import Event, load_event
    return load_event, Event, DeckcliError


def make_target(load_event, Event, DeckcliError, path: str):
    def TestOneInput(data: bytes) -> None:
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            event = load_event(path)
        except DeckcliError:
            return
        assert isinstance(event, Event)

    return TestOneInput


def main(argv: list[str]) -> None:
    import atheris

    workdir = tempfile.mkdtemp(prefix="deckcli-fuzz-event-")
    path = os.path.join(workdir, "event.yaml")
    atheris.Setup(argv, make_target(*_imports(), path))
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
