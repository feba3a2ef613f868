"""Reading YAML and JSON from untrusted files: safely, within limits, with line numbers.

* YAML goes through ruamel.yaml's round-trip loader, which never constructs Python objects
  from tags; any explicit tag (``!!python/object``, ``!foo``) is refused outright.
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


def _yaml():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    return y


def load_yaml(text: str) -> Any:
    """Parse YAML text (round-trip types, positions kept) or raise StructuredInputError."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        data = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "not valid YAML"
        if "duplicate key" in str(exc):
            problem = f"duplicate key: {problem}"
        raise StructuredInputError(f"not valid YAML: {problem}", line) from None
    except RecursionError:
        raise StructuredInputError(f"nested deeper than {MAX_DEPTH} levels") from None
    except (YAMLError, ValueError, TypeError) as exc:
        raise StructuredInputError(f"not valid YAML: {exc}") from None
    check_shape(data)
    return data


def load_json(text: str) -> Any:
    import json

    try:
        data = json.loads(text)
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
            stack.append((obj, depth, True))
            stack.extend((c, depth + 1, False) for c in children
                         if isinstance(c, (dict, list)) and id(c) not in expanded)
            continue
        size = 1 + sum(expanded.get(id(c), 1) for c in children)
        if size > MAX_NODES:
            raise StructuredInputError(
                f"document too large: more than {MAX_NODES:,} values once aliases are expanded")
        expanded[id(obj)] = size


# The YAML core schema's own tags (!!str, !!int, ...) are harmless; anything else is refused.
_STANDARD_TAG = re.compile(r"^tag:yaml\.org,2002:(str|int|float|bool|null|seq|map|timestamp)$")


def _refuse_tag(obj: Any, parent: Any = None) -> None:
    tag = getattr(obj, "tag", None)
    tag = getattr(tag, "value", tag)
    if tag and isinstance(tag, str) and not _STANDARD_TAG.match(tag):
        raise StructuredInputError(f"YAML tag {tag} is not allowed",
                                   line_of(obj) or line_of(parent))


def line_of(obj: Any, key: Any = None) -> int | None:
    """1-based line of a ruamel mapping/sequence, or of one key / index inside it."""
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
