"""Coverage-guided fuzzing of the YAML/JSON decklist readers.

Each input goes through decode(), then parse_structured(..., "yaml"),
parse_structured(..., "json"), load_yaml() and load_json(). Not part of the pytest run; see
tests/fuzz/README.md::

    DECKCLI_CACHE_DIR=/tmp/dc-fuzz python tests/fuzz/fuzz_structured.py \
        tests/fuzz/corpus/structured -max_total_time=300 -rss_limit_mb=2048 -timeout=10

Contract checked: parse_structured() returns a Deck (problems go on the deck); load_yaml() and
load_json() return data or raise StructuredInputError. Any other exception is a finding.
"""

from __future__ import annotations

import sys


def _imports():
    import atheris

    # ruamel.yaml's constructor (timestamps, ints, floats) is pure Python even when the C
    # parser is used, so it is instrumented too: its branches guide the fuzzer.
    with atheris.instrument_imports(include=["deckcli", "ruamel"]):
        import ruamel.yaml  # noqa: F401
        import ruamel.yaml.constructor  # noqa: F401
        import ruamel.yaml.nodes  # noqa: F401

        import deckcli.cards.names  # noqa: F401
        import deckcli.decks.model  # noqa: F401
        import deckcli.diagnostics  # noqa: F401
        from deckcli.decks.reader import decode
        from deckcli.decks.structured import parse_structured
        from deckcli.yamlio import StructuredInputError, load_json, load_yaml
    return decode, parse_structured, load_yaml, load_json, StructuredInputError


def make_target(decode, parse_structured, load_yaml, load_json, StructuredInputError):
    def TestOneInput(data: bytes) -> None:
        text, failed = decode(data, "fuzz.yaml")
        if failed is not None:
            assert text is None and failed.problems, "decode failed without a problem"
            return
        for fmt in ("yaml", "json"):
            deck = parse_structured(text, f"fuzz.{fmt}", fmt)
            assert deck.entries or deck.problems, f"{fmt}: no entries and no problem"
        for load in (load_yaml, load_json):
            try:
                load(text)
            except StructuredInputError:
                pass

    return TestOneInput


def main(argv: list[str]) -> None:
    import atheris

    atheris.Setup(argv, make_target(*_imports()))
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
