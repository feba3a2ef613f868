"""Recorded game logs (YAML) and house rules: loading shared by both games' referees.

A log is a mapping with ``game``, the setup it starts from and ``actions``, one per entry; the
exact keys of setup and actions belong to each game (see its ``referee`` module and the
README). A log that cannot be read is an error the command cannot work around (exit 2).
"""

from __future__ import annotations

from deckcli.errors import DeckcliError, UsageError


def load_log(path: str) -> dict:
    from deckcli.decks.reader import decode, read_bytes
    from deckcli.yamlio import StructuredInputError, load_json, load_yaml

    data = read_bytes(path, "a game log")  # at most the 1 MiB input limit (DL-1.3)
    text, failed = decode(data, path)
    if failed is not None:
        p = failed.problems[0]
        raise DeckcliError(p.message, path=path, line=p.line)
    try:
        log = load_json(text) if path.endswith(".json") else load_yaml(text)
    except StructuredInputError as exc:
        raise DeckcliError(exc.message, path=path, line=exc.line) from None
    if not isinstance(log, dict):
        raise DeckcliError("a game log is a mapping with game, setup and actions", path=path,
                           line=1)
    actions = log.get("actions")
    if actions is not None and not isinstance(actions, list):
        from deckcli.yamlio import line_of

        raise DeckcliError("'actions' must be a list", path=path, line=line_of(log, "actions"))
    return log


def parse_house_rules(pairs) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"--house-rule takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def house_rules_from(pairs, event_path: str | None) -> dict[str, str]:
    """House rules from an event file, then --house-rule on top."""
    rules: dict[str, str] = {}
    if event_path:
        from deckcli.events.model import load_event

        rules.update(load_event(event_path).house_rules)
    rules.update(parse_house_rules(pairs))
    return rules
