"""A simulated game written as a game log (YAML) that ``deckcli referee check`` replays.

The log is the game's own (``Engine.game_log``: the deal's seed and decks or table, the house
rules in force spelled out, the actions); this module only writes it as YAML a person can read,
with animal-battle's actions as one block of lines.
"""

from __future__ import annotations

import io


def log_text(log: dict) -> str:
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import LiteralScalarString

    data = dict(log)
    actions = data.get("actions") or []
    if actions and all(isinstance(a, str) for a in actions):
        data["actions"] = [LiteralScalarString(a + "\n") if "\n" in a else a for a in actions]
    yaml = YAML()
    yaml.default_flow_style = None
    yaml.width = 100
    out = io.StringIO()
    out.write("# a game played by deckcli simulate; deckcli referee check replays it\n")
    yaml.dump(data, out)
    return out.getvalue()
