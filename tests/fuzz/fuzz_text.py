"""Coverage-guided fuzzing of the text decklist reader: decode() + parse_text().

Not part of the pytest run (the file is not named test_*.py, and importing it only defines
functions). Run it directly; see tests/fuzz/README.md::

    DECKCLI_CACHE_DIR=/tmp/dc-fuzz python tests/fuzz/fuzz_text.py /tmp/fuzz-work/text \
        tests/fuzz/corpus/text -max_total_time=600 -rss_limit_mb=2048 -timeout=10

Contract checked: for any bytes, decode() returns (text, None) or (None, failed_deck), and
parse_text() returns a Deck carrying entries or problems. Any exception escaping either is a
finding. When deckcli.decks.text keeps a cross-deck cache of entry lines (``_READ``), each
input is also parsed once more with an empty cache and the two results must be identical
(an AssertionError "cache changed the result" is then a finding too).
"""

from __future__ import annotations

import sys

# Set codes a real card index knows (examples/ and card_db/ use these); is_set is called on a
# bare "Name SET NUMBER" word, the way validate.py passes index.is_set_code.
KNOWN_SETS = frozenset({"ABS", "DWV", "RFS", "CLS", "PRM", "AWC", "AWP"})


def is_set(code: str) -> bool:
    return code.upper() in KNOWN_SETS


def _imports():
    """Import (and instrument) the code under test; returns (decode, text module)."""
    import atheris

    with atheris.instrument_imports(include=["deckcli"]):
        import deckcli.cards.names  # noqa: F401
        import deckcli.decks.model  # noqa: F401
        import deckcli.decks.text as text_module
        import deckcli.diagnostics  # noqa: F401
        import deckcli.games  # noqa: F401  (section words, imported lazily by parse_text)
        from deckcli.decks.reader import decode
    return decode, text_module


def _slots(obj) -> tuple:
    names = [n for cls in type(obj).__mro__ for n in getattr(cls, "__slots__", ())]
    return tuple((n, getattr(obj, n, None)) for n in names)


def summary(deck) -> tuple:
    """Everything parse_text decides, as plain comparable values."""
    return (dict(deck.header), dict(deck.header_lines),
            [_slots(e) for e in deck.entries], [_slots(p) for p in deck.problems],
            [(s.word, s.key, s.count, s.line, len(s.entries)) for s in deck.sections],
            list(deck.preamble), list(deck.trailer))


def make_target(decode, text_module):
    parse_text = text_module.parse_text

    def TestOneInput(data: bytes) -> None:
        text, failed = decode(data, "fuzz.txt")
        if failed is not None:
            assert text is None and failed.problems, "decode failed without a problem"
            return
        deck = parse_text(text, "fuzz.txt", is_set=is_set)
        # Returned, not raised: the deck must carry entries or problems (never neither).
        assert deck.entries or deck.problems, "parse_text returned an empty deck and no problem"
        cache = getattr(text_module, "_READ", None)
        if isinstance(cache, dict):
            text_module._READ = {}
            try:
                cold = parse_text(text, "fuzz.txt", is_set=is_set)
            finally:
                text_module._READ = cache
            assert summary(cold) == summary(deck), "cache changed the result of parse_text"

    return TestOneInput


def main(argv: list[str]) -> None:
    import atheris

    atheris.Setup(argv, make_target(*_imports()))
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
