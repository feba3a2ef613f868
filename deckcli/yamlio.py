"""Reading YAML and JSON from untrusted files: safely, within limits, with line numbers.

* YAML is composed by ruamel.yaml's safe loader (its C parser when ruamel.yaml.clib is
  installed) and built here: only the core schema's tags are accepted (``!!python/object``,
  ``!foo`` are refused), duplicate keys and merge keys are errors, and every mapping and
  sequence remembers its lines.
* Aliases are allowed, but the document's size *with aliases expanded* is bounded, so an alias
  bomb ("billion laughs") is an error instead of a hang.
* Nesting depth and node counts are bounded for YAML and JSON alike (rule DL-1.3).
* Every failure is a :class:`StructuredInputError` with the line where it was found.

Mappings keep their positions: :func:`line_of` answers the line of a key or list item.
"""

from __future__ import annotations

import re
from typing import Any

MAX_DEPTH = 32
MAX_NODES = 200_000


class StructuredInputError(Exception):
    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line


class LineDict(dict):
    """A mapping that remembers its own line and the line of each key."""

    line: int | None = None

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.key_lines: dict = {}


class LineList(list):
    """A sequence that remembers its own line and the line of each item."""

    line: int | None = None

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.item_lines: list[int] = []


_STANDARD = ("str", "int", "float", "bool", "null", "timestamp", "seq", "map")
_STR = "tag:yaml.org,2002:str"


_RESOLVER = None


def _loader():
    from ruamel.yaml import YAML

    # typ="safe" uses the C parser from ruamel.yaml.clib when it is installed (about 4x faster
    # than the pure-Python one) and never constructs arbitrary Python objects.
    from ruamel.yaml.main import CParser

    y = YAML(typ="safe")
    if CParser is not None and y.Parser is CParser:
        y.Resolver = _c_resolver()
    return y


def _c_resolver():
    """ruamel.yaml's resolver, as the C parser has it resolve tags, without its cost per node.

    For every node it composes, the C parser asks the resolver for the YAML version it is
    reading, which the resolver looks for on a Python scanner the C parser does not have: two
    AttributeErrors raised and caught per node, a quarter of the time of a card file. Here the
    answer is the one that search ends in (the default version, 1.2: the C parser gives no
    ``%YAML`` directive to the resolver), found once; the tags resolved are the same.
    """
    global _RESOLVER
    if _RESOLVER is None:
        from ruamel.yaml.nodes import ScalarNode
        from ruamel.yaml.resolver import VersionedResolver

        class CResolver(VersionedResolver):
            @property
            def processing_version(self):
                found = self.__dict__.get("_version")
                if found is None:
                    found = self.__dict__["_version"] = VersionedResolver.processing_version.fget(
                        self)
                return found

            @property
            def versioned_resolver(self):
                found = self.__dict__.get("_resolvers")
                if found is None:
                    found = VersionedResolver.versioned_resolver.fget(self)
                    self.__dict__["_resolvers"] = found
                return found

            def resolve(self, kind, value, implicit):
                # A plain scalar's tag depends on its text alone (this resolver has no path
                # resolvers), and a card file repeats its texts: each is resolved once per
                # document. One Tag per tag name: a Tag works its text out once (ruamel makes
                # a new one per node, and spells its name out character by character).
                plain_scalar = kind is ScalarNode and implicit[0]
                if plain_scalar:
                    memo = self.__dict__.setdefault("_memo", {})
                    found = memo.get(value)
                    if found is not None:
                        return found
                tag = VersionedResolver.resolve(self, kind, value, implicit)
                if tag.handle is None:
                    tag = _TAGS.setdefault(tag.suffix, tag)
                if plain_scalar:
                    memo[value] = tag
                return tag

        _RESOLVER = CResolver
    return _RESOLVER


_TAGS: dict = {}


def load_yaml(text: str) -> Any:
    """Parse YAML into LineDict / LineList / scalars, or raise StructuredInputError.

    The document is composed into nodes (which carry positions) and built here, so every
    mapping and sequence knows its lines; aliases become shared objects (never copies) and
    only the core schema's tags are accepted.
    """
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    y = _loader()
    ln = _line_numbers(text)
    try:
        _check_depth(y, text, ln)
        node = y.compose(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = ln[mark.line] if mark is not None else None
        raise StructuredInputError(f"not valid YAML: {exc.problem or exc.context or exc}",
                                   line) from None
    except ReaderError as exc:  # a character YAML does not allow: a control character, say
        raise StructuredInputError(f"not valid YAML: {str(exc).splitlines()[0]}",
                                   _line_of_position(text, exc.position)) from None
    except RecursionError:
        raise StructuredInputError(f"nested deeper than {MAX_DEPTH} levels") from None
    except (YAMLError, ValueError, TypeError) as exc:
        raise StructuredInputError(f"not valid YAML: {exc}") from None
    if node is None:
        return None
    data = _build(node, y.constructor, ln)
    check_shape(data)
    return data


#: what ruamel.yaml counts as a line break besides LF and a CR alone (YAML 1.1's breaks)
ODD_BREAKS = "\x85\u2028\u2029"
_ODD_BREAK = re.compile(f"[{ODD_BREAKS}]")


def _line_numbers(text: str):
    """ruamel.yaml's line (0-based) -> the line an editor shows (1-based; LF, CRLF, CR alone).

    ruamel.yaml also counts NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as line breaks, so in
    a text holding one its marks run ahead of the lines a user sees; such a text gets a table.
    Any other text is a range: its line n is ruamel's n - 1 (and a lookup costs no call). A
    parser error at the very end is marked one line past the text, and keeps that line.
    """
    if _ODD_BREAK.search(text) is None:
        return range(1, text.count("\n") + text.count("\r") + 3)  # + a mark past the end
    shown = [1]
    line = 1
    for m in re.finditer(f"\r\n|[\n\r{ODD_BREAKS}]", text):
        if m.group() in ("\r\n", "\n", "\r"):
            line += 1
        shown.append(line)
    shown.extend((line + 1, line + 2))  # an error at the end is marked on a line past it
    return shown


def line_at(data: str | bytes, offset: int) -> int:
    """The line (1-based) an editor shows for the character or byte at ``offset`` of ``data``,
    lines ended by LF, CRLF or CR alone, as :func:`deckcli.decks.lines.split_lines` counts
    them: for ruamel.yaml's reader, which gives a position rather than a line, and for a
    file's bytes that are not text (:func:`deckcli.files.text.decode_text`)."""
    before = data[:offset]
    lf, cr = ("\n", "\r") if isinstance(data, str) else (b"\n", b"\r")
    return before.count(lf) + before.count(cr) - before.count(cr + lf) + 1


def _line_of_position(text: str, position) -> int | None:
    """:func:`line_at` of a ruamel.yaml reader error's position, None when it gives none."""
    if not isinstance(position, int) or not 0 <= position <= len(text):
        return None
    return line_at(text, position)


_OPENING = frozenset({"SequenceStartEvent", "MappingStartEvent"})
_CLOSING = frozenset({"SequenceEndEvent", "MappingEndEvent"})


def _check_depth(y, text: str, ln) -> None:
    """Refuse documents nested deeper than MAX_DEPTH before the composer sees them.

    The C composer recurses once per level and would overflow the C stack (a crash, not an
    exception) on ``[[[[...`` or ``- - - - ...``; the parser is a loop, so counting the
    collections its events open first is safe. Events rather than scanner tokens: there are
    half as many (a card file's check took a fifth of reading it), and they open a collection
    exactly where the composer will nest one (a block sequence under a key at the key's own
    indentation has no token of its own).
    """
    if len(text) <= MAX_DEPTH:  # too short to nest that deep, whatever it holds
        return
    depth = 0
    for event in y.parse(text):
        name = type(event).__name__
        if name in _OPENING:
            depth += 1
            if depth > MAX_DEPTH:
                mark = getattr(event, "start_mark", None)
                raise StructuredInputError(f"nested deeper than {MAX_DEPTH} levels",
                                           ln[mark.line] if mark is not None else None)
        elif name in _CLOSING:
            depth -= 1


#: Integers past this size are refused (Python will not even print a 4,300-digit number).
MAX_INT_BITS = 128


def _build(root, constructor, ln) -> Any:
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    built: dict[int, Any] = {}
    # (tag, text) -> value for scalars that are not strings: a number, a date or a boolean
    # repeats across a card file, and the constructor's value depends on these two alone
    values: dict[tuple[str, str], Any] = {}

    def scalar(node):
        tag = node.tag
        if not isinstance(tag, str):
            tag = getattr(tag, "value", None)
        if tag == _STR:  # what the safe constructor gives a string: its text
            return node.value
        if tag == "tag:yaml.org,2002:merge":
            raise StructuredInputError("YAML merge keys (<<) are not supported",
                                       ln[node.start_mark.line])
        if tag is None or not tag.startswith("tag:yaml.org,2002:") or \
                tag.rsplit(":", 1)[1] not in _STANDARD:
            raise StructuredInputError(f"YAML tag {tag} is not allowed",
                                       ln[node.start_mark.line])
        key = (tag, node.value)
        if key in values:
            return values[key]
        try:
            value = constructor.construct_object(node, deep=True)
        except Exception:  # a bad timestamp, say: the value cannot be read
            raise StructuredInputError(f"cannot read the value {_clip(node.value)}",
                                       ln[node.start_mark.line]) from None
        if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
            raise StructuredInputError(f"the number {_clip(node.value)} is too large",
                                       ln[node.start_mark.line])
        values[key] = value
        return value

    def build(node, depth):
        if id(node) in built:  # an alias: the same object again, never a copy
            return built[id(node)]
        if depth > MAX_DEPTH:
            raise StructuredInputError(f"nested deeper than {MAX_DEPTH} levels",
                                       ln[node.start_mark.line])
        line = ln[node.start_mark.line]
        if isinstance(node, ScalarNode):
            return scalar(node)
        tag = node.tag if isinstance(node.tag, str) else getattr(node.tag, "value", "")
        if tag and tag not in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
            raise StructuredInputError(f"YAML tag {tag} is not allowed", line)
        if isinstance(node, SequenceNode):
            out = LineList()
            out.line = line
            built[id(node)] = out
            for item in node.value:
                out.append(build(item, depth + 1))
                out.item_lines.append(ln[item.start_mark.line])
            return out
        if isinstance(node, MappingNode):
            out = LineDict()
            out.line = line
            built[id(node)] = out
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode):
                    raise StructuredInputError("a mapping key must be a plain value",
                                               ln[key_node.start_mark.line])
                key = scalar(key_node)  # a merge key (<<) carries the merge tag: refused
                if key in out:
                    raise StructuredInputError(
                        f"duplicate key {key!r} (first on line {out.key_lines[key]})",
                        ln[key_node.start_mark.line])
                out[key] = build(value_node, depth + 1)
                out.key_lines[key] = ln[key_node.start_mark.line]
            return out
        raise StructuredInputError("unexpected YAML node", line)  # pragma: no cover

    return build(root, 1)


def kind_of(value: Any) -> str:
    """What a loaded value is, in a word for a message: mapping, list, text, number,
    true/false, null (else its type's name)."""
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return _KINDS.get(type(value), type(value).__name__)


_KINDS = {str: "text", int: "number", float: "number", bool: "true/false", type(None): "null"}


def a_kind_of(value: Any) -> str:
    """:func:`kind_of` for "should be ..., not <this>": with "a" where English wants one (a
    mapping, a list, a number, a date; text, null, true/false)."""
    import datetime as dt

    if isinstance(value, dt.date):
        return "a date"
    kind = kind_of(value)
    return f"a {kind}" if kind in ("mapping", "list", "number") else kind


def _clip(text: str, n: int = 40) -> str:
    text = str(text)
    return repr(text) if len(text) <= n else repr(text[: n - 1] + "…")


def json_int(digits: str) -> int:
    """json's parse_int: refuse absurdly long integers instead of failing inside json."""
    if len(digits.lstrip("-")) > 38:
        raise StructuredInputError(f"the number {_clip(digits)} is too large")
    return int(digits)


def unique_keys(pairs: list) -> dict:
    """json's object_pairs_hook: a key given twice in one object is an error, as in YAML
    (json itself keeps the last, so '"cards": [...], "cards": []' was an empty deck)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise StructuredInputError(f"key {_clip(key)} is given twice in one object")
            seen.add(key)
    return out


def load_json(text: str) -> Any:
    import json

    try:
        data = json.loads(text, parse_int=json_int, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise StructuredInputError(f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise StructuredInputError(f"nested deeper than {MAX_DEPTH} levels") from None
    check_shape(data)
    return data


def check_shape(data: Any) -> None:
    """Refuse tags, deep nesting and documents whose alias-expanded size is too large.

    Walks the object graph once per distinct object (aliases are shared objects), computing
    each node's expanded size, so the check itself cannot be made to explode.
    """
    expanded: dict[int, int] = {}
    # iterative post-order walk; (obj, depth, children_done)
    stack: list[tuple[Any, int, bool]] = [(data, 1, False)]
    while stack:
        obj, depth, done = stack.pop()
        if depth > MAX_DEPTH:
            raise StructuredInputError(f"nested deeper than {MAX_DEPTH} levels", line_of(obj))
        _refuse_tag(obj)
        if isinstance(obj, dict):
            children = [*obj.keys(), *obj.values()]
        elif isinstance(obj, list):
            children = obj
        else:
            continue
        if id(obj) in expanded:
            continue
        if not done:
            for c in children:
                if not isinstance(c, (dict, list)):
                    _refuse_tag(c, obj)
                    if isinstance(c, str) and not c.isascii():
                        _refuse_surrogates(c, obj)
            stack.append((obj, depth, True))
            stack.extend((c, depth + 1, False) for c in children
                         if isinstance(c, (dict, list)) and id(c) not in expanded)
            continue
        size = 1 + sum(expanded.get(id(c), 1) for c in children)
        if size > MAX_NODES:
            raise StructuredInputError(
                f"document too large: more than {MAX_NODES:,} values once aliases are expanded",
                line_of(obj))  # the first list or mapping past the limit
        expanded[id(obj)] = size


# The YAML core schema's own tags (!!str, !!int, ...) are harmless; anything else is refused.
_STANDARD_TAG = re.compile(r"^tag:yaml\.org,2002:(str|int|float|bool|null|seq|map|timestamp)$")


def _refuse_tag(obj: Any, parent: Any = None) -> None:
    tag = getattr(obj, "tag", None)
    tag = getattr(tag, "value", tag)
    if tag and isinstance(tag, str) and not _STANDARD_TAG.match(tag):
        raise StructuredInputError(f"YAML tag {tag} is not allowed",
                                   line_of(obj) or line_of(parent))


def _refuse_surrogates(text: str, parent: Any) -> None:
    """A JSON ``\\ud800`` escape (or a YAML one) makes a lone surrogate: no character, and
    text that cannot be written as UTF-8 (into a report, the card index, a formatted file)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        raise StructuredInputError(
            f"text holds \\u{code:04x}, half of a surrogate pair: not a character",
            line_of(parent) or getattr(parent, "line", None)) from None


def line_of(obj: Any, key: Any = None) -> int | None:
    """1-based line of a mapping/sequence, or of one key / index inside it."""
    if isinstance(obj, LineDict):
        return obj.key_lines.get(key, obj.line) if key is not None else obj.line
    if isinstance(obj, LineList):
        if key is None:
            return obj.line
        return obj.item_lines[key] if isinstance(key, int) and 0 <= key < len(obj) else obj.line
    lc = getattr(obj, "lc", None)
    if lc is None:
        return None
    try:
        if key is None:
            return lc.line + 1
        if isinstance(key, int) and isinstance(obj, list):
            return lc.item(key)[0] + 1
        return lc.key(key)[0] + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return lc.line + 1 if lc.line is not None else None


def plain(obj: Any) -> Any:
    """Round-trip containers and scalars turned into plain dict/list/str/int/float/bool."""
    if isinstance(obj, dict):
        return {plain(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [plain(v) for v in obj]
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return float(obj)
    if isinstance(obj, str):
        return str(obj)
    if hasattr(obj, "value") and hasattr(obj, "tag"):  # a TaggedScalar with a core tag
        return str(obj.value)
    return obj
