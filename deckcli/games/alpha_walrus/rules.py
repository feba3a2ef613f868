"""The alpha-walrus rules reference, in deckcli's own words (ids ``AW-``)."""

from deckcli.rulebook import Rule

RULES: list[Rule] = []
