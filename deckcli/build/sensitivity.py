"""``build --sensitivity``: the built deck measured again under each other value of every gap
its fresh games met in more than a tenth of them (one house rule changed at a time, the same
seeds), so a player sees whether the verdict rests on a reading the rules leave open."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcli.build.search import Judging


def gaps_met(records: list[dict]) -> Counter:
    """How many of ``records`` (played games) met each gap."""
    return Counter(g for r in records for g in r["gaps"])


def sensitivity(judge: Judging, met: Counter, games: int, remeasure) -> list[dict]:
    """For each gap in ``met`` (games that met it, of ``games``) over the reporting share, each
    other value of its house rule: ``remeasure()`` run with the judge's house rules changed to
    that value, its result under ``measured``."""
    from deckcli.sim.report import RESTS_ON, gap_order

    house = judge.house
    out = []
    for rule in sorted(met, key=gap_order):
        if not games or met[rule] <= RESTS_ON * games:
            continue
        gap = house.by_rule[rule]
        for value in [v for v in gap.values if v != house.value(gap.key)]:
            judge.house = house.declaring(gap.key, value)
            try:
                measured = remeasure()
            finally:
                judge.house = house
            out.append({"gap": rule, "house_rule": gap.key, "value": value,
                        "measured": measured})
    return out
