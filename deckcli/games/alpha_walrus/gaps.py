"""House rules for the gaps of the alpha-walrus rules (``AW-G.n``, keys in ``rules.HOUSE_RULES``).

A gap is reported every time it matters, whether or not a house rule settles it. Without a
house rule the referee continues with the gap's provisional reading and says so; a provisional
reading never makes an action illegal (only a declared house rule can).
"""

from __future__ import annotations

from deckcli.errors import UsageError
from deckcli.games.alpha_walrus.rules import HOUSE_RULES


class HouseRules:
    def __init__(self, given: dict | None = None):
        self.given: dict[str, str] = {}
        for key, value in (given or {}).items():
            key, value = str(key).strip(), str(value).strip()
            if key not in HOUSE_RULES:
                raise UsageError(f"unknown alpha-walrus house rule {key!r}; known: "
                                 f"{', '.join(sorted(HOUSE_RULES))}")
            values = HOUSE_RULES[key][1]
            if value not in values:
                raise UsageError(f"house rule {key} takes {' or '.join(values)}, not {value!r}")
            self.given[key] = value

    def value(self, key: str) -> str:
        return self.given.get(key, HOUSE_RULES[key][2])

    def settled(self, key: str) -> bool:
        return key in self.given

    def gap(self, key: str, situation: str, applied: str) -> dict:
        """A gap record: the situation, and what was done (by house rule or provisionally)."""
        rule, values, provisional = HOUSE_RULES[key]
        if self.settled(key):
            ruling = f"house rule {key}={self.given[key]}: {applied}"
        else:
            others = ", ".join(v for v in values if v != provisional)
            ruling = (f"no house rule {key}; provisional reading {provisional}: {applied} "
                      f"(declare --house-rule {key}={'|'.join(values)}; other: {others})")
        return {"rule": rule, "key": key, "situation": situation, "ruling": ruling,
                "settled": self.settled(key), "value": self.value(key)}

    def to_json(self) -> dict:
        return dict(self.given)


def check_house_rules(house_rules: dict) -> dict[str, str]:
    """Known keys with known values only (the same check every referee command makes)."""
    return HouseRules(house_rules).given
