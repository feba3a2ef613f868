"""``--output json``: the docs/commands.md shape, streamed one deck at a time."""

from __future__ import annotations

from deckcli.diagnostics import Diagnostic, visible_name
from deckcli.reporters import Reporter
from deckcli.validate import DeckReport

try:  # the C encoder behind json.dumps, taken without importing the json package (its
    # decoder compiles a handful of regular expressions: 5M instructions of every start-up)
    from _json import encode_basestring
    from _json import make_encoder as c_make_encoder
except ImportError:  # an interpreter without the C accelerator
    from json.encoder import c_make_encoder, encode_basestring


def _refuse(obj):
    """What ``JSONEncoder.default`` does: refuse a value JSON cannot hold."""
    raise TypeError(f"Object of type {obj.__class__.__name__} is not JSON serializable")


def _one_deck_encoder():
    """``obj -> JSON text`` as ``json.dumps(obj, ensure_ascii=False)`` writes it.

    ``json.dumps`` builds a new encoder, and the C encoder inside it, on every call: a third
    of the time of writing one deck in a batch. This one is built once. It uses the C encoder
    behind ``json.dumps`` where the interpreter has it, without the circular-reference check
    (a report is a tree); tests/test_events_and_reports.py checks it writes what
    ``json.dumps`` does.
    """
    if c_make_encoder is None:  # an interpreter without the C accelerator
        from json import JSONEncoder

        return JSONEncoder(ensure_ascii=False).encode
    encode = c_make_encoder(None, _refuse, encode_basestring, None, ": ", ", ", False, False,
                            True)
    return lambda obj: "".join(encode(obj, 0))


to_json_text = _one_deck_encoder()

_STRING = encode_basestring  # str -> its JSON text, quoted (the encoder's own, C where there)
_BASE_KEYS = frozenset(("path", "game", "format", "legal", "card_count", "problems", "name",
                        "player", "fingerprint"))


def _text(value) -> str | None:
    """A report field that is a string or None as JSON text; None for any other value (the
    caller then writes the deck the general way)."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return _STRING(value)
    return None


def _problem_text(problem) -> str | None:
    """One problem's object (:meth:`~deckcli.diagnostics.Diagnostic.to_json`) as
    :data:`to_json_text` writes it, or None when a field is not of the usual type."""
    if type(problem) is not Diagnostic:
        return None
    line = problem.line
    if line is None:
        line = "null"
    elif type(line) is int:  # an int's f-string is its repr: what the encoder writes
        pass
    else:
        return None
    parts = (_text(problem.code), _text(problem.severity.value), _text(problem.rule),
             _text(problem.message), _text(problem.card))
    if None in parts:
        return None
    code, severity, rule, message, card = parts
    return (f'{{"code": {code}, "severity": {severity}, "rule": {rule}, "message": {message}, '
            f'"line": {line}, "card": {card}}}')


def deck_text(report) -> str:
    """``to_json_text(report.to_json())``, written from the report's fields directly: the
    object :meth:`~deckcli.validate.DeckReport.to_json` makes, key for key and byte for byte,
    without building it (a third of the time of writing a deck of a batch went to making and
    walking that dict). A field of an unusual type (not a string, None, an int or a bool where
    a report has one), or an extra fact under a name the deck object already has, is written
    the general way. tests/test_events_and_reports.py checks both give the same text."""
    if type(report) is not DeckReport:
        return to_json_text(report.to_json())
    string = _STRING
    path, name, player = report.path, report.name, report.player
    # a printable str as it stands (visible_name's own test), else as visible_name shows it
    path = string(path) if type(path) is str and path.isprintable() else \
        _text(visible_name(path))
    name = string(name) if type(name) is str and name.isprintable() else \
        _text(visible_name(name))
    player = string(player) if type(player) is str and player.isprintable() else \
        _text(visible_name(player))
    game, fmt, fingerprint = report.game, report.format, report.fingerprint
    game = string(game) if type(game) is str else _text(game)
    fmt = string(fmt) if type(fmt) is str else _text(fmt)
    fingerprint = string(fingerprint) if type(fingerprint) is str else _text(fingerprint)
    count = report.card_count
    extra = report.extra
    if (type(count) is not int or None in (path, name, player, game, fmt, fingerprint)
            or type(extra) is not dict or not _BASE_KEYS.isdisjoint(extra)):
        return to_json_text(report.to_json())
    problems = report.problems
    if problems:
        shown = list(map(_problem_text, problems))
        if None in shown:
            return to_json_text(report.to_json())
        problems = "[" + ", ".join(shown) + "]"
    else:
        problems = "[]"
    legal = "true" if report.legal else "false"
    text = (f'{{"path": {path}, "game": {game}, "format": {fmt}, "legal": {legal}, '
            f'"card_count": {count}, "problems": {problems}, "name": {name}, '
            f'"player": {player}, "fingerprint": {fingerprint}')
    if extra:
        more = _extra_text(extra)  # '{"formats": {...}}': its members follow the deck's
        return text + ", " + more[1:]
    return text + "}"


def _extra_text(extra: dict) -> str:
    """``to_json_text(extra)``, remembered for the run when the extra facts are flags (each a
    name and a mapping of names to true or false, as animal-battle's ``{"formats": {"casual":
    true, ...}}``): a batch has a handful of those, written once for every deck."""
    key = []
    for name, value in extra.items():
        if type(name) is not str or type(value) is not dict:
            return to_json_text(extra)
        for k, v in value.items():
            if type(k) is not str or type(v) is not bool:  # bool: True is 1 as a key
                return to_json_text(extra)
        key.append(name)
        key.append(tuple(value.items()))
    key = tuple(key)
    text = _EXTRA_TEXT.get(key)
    if text is None:
        if len(_EXTRA_TEXT) >= 256:
            _EXTRA_TEXT.clear()
        text = _EXTRA_TEXT[key] = to_json_text(extra)
    return text


_EXTRA_TEXT: dict[tuple, str] = {}


class JsonReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.stream.write('{"version": 1,\n "decks": [')

    @staticmethod
    def render(report) -> str:
        return "\n  " + deck_text(report)

    def add(self, report, rendered: str | None = None) -> None:
        text = rendered if rendered is not None else self.render(report)
        self.stream.write("," + text if self.decks else text)
        super().add(report)

    def close(self) -> None:
        # the summary's counts: what json.dumps writes for them
        self.stream.write("],\n \"summary\": " + to_json_text(self.summary()) + "}\n")
