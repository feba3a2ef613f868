"""The card database's source schema (pydantic v2): what one set file under ``card_db/`` holds.

Only ``db build`` and ``db check`` import this module; commands that read cards use the compiled
index (:mod:`deckcli.cards.index`) and never parse YAML or import pydantic.

A set file::

    game: animal-battle
    set: {code: ABS, name: "Abyss, Bays & Shores", released: 2025-03-14}
    cards:
      - {number: "12", name: Walrus, kind: animal, species: Odobenus rosmarus,
         stats: {weight: 1200, speed: 35, lifespan: 40, population: 250000,
                 length: 3.2, max_depth: 500}, variants: [foil, first-edition]}
      - {number: "A12", name: Walrus, version_of: "12", variants: [alternate-art]}

An entry without ``version_of`` defines a card identity (common name + collector number) or
reprints it under the same number; an entry with ``version_of`` is another printing of the card
with that name and number (an alternate-art or promotional printing with its own number).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from deckcli.cards.names import VARIANTS

Variant = Literal["alternate-art", "foil", "promotional", "first-edition"]

ANIMAL_STATS = ("weight", "speed", "lifespan", "population", "length", "max_depth")
#: Bounds past which a figure is absurd for a real animal (db check, rule DB-2.2).
STAT_BOUNDS = {
    "weight": (0, 200_000),  # kg; a blue whale is ~150,000
    "speed": (0, 400),  # km/h; a stooping peregrine falcon is ~390
    "lifespan": (0, 600),  # years; Greenland sharks reach ~400
    "population": (1, 10**16),  # individuals in the wild
    "length": (0, 40),  # m; a blue whale is ~30
    "max_depth": (0, 11_000),  # m; the deepest ocean is ~10,935
}
LEVEL_BOUNDS = (1, 20)


def _a_number(value):
    """A figure, if it is a finite number (DB-2.1). pydantic alone took true as 1, and text
    that reads as a number ("12") as that number; NaN and infinity compare with no bound."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PydanticCustomError(NOT_A_NUMBER, "a statistic is a number, not {what}",
                                  {"what": _what(value)})
    if not math.isfinite(value):
        raise PydanticCustomError(NOT_A_NUMBER, "a statistic is a number, not {what}",
                                  {"what": "NaN" if math.isnan(value) else "infinity"})
    return value


def _what(value) -> str:
    from deckcli.yamlio import a_kind_of

    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, str):
        return f"text ({value if len(value) <= 40 else value[:39] + '…'!r})"
    return a_kind_of(value)


#: the type of the schema error a statistic that is not a finite number gives
NOT_A_NUMBER = "not_a_number"
#: a battle statistic or a level: a finite number, never true/false or text
Figure = Annotated[float | int, BeforeValidator(_a_number)]
#: schema errors that break a rule of their own, by (field, pydantic's error type): (code,
#: rule id); any other is ("db-schema", "DB-1.2")
SCHEMA_RULES = {("variants", "literal_error"): ("db-variant", "DB-3.4"),
                ("stats", NOT_A_NUMBER): ("db-not-a-number", "DB-2.1")}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SetInfo(_Strict):
    code: str = Field(pattern=r"^[A-Z0-9]{2,6}$")
    name: str = Field(min_length=1, max_length=200)
    released: dt.date | None = None


class Override(_Strict):
    """Card text that displaces a general rule (AB-6.4): which rule, and what it does instead."""

    rule: str = Field(pattern=r"^[A-Z]{2}-[\w.]+$")
    effect: str = Field(pattern=r"^[a-z_]+$")
    value: Any = None


class Effect(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    effect: str = Field(pattern=r"^[a-z_]+$")


class CardEntry(_Strict):
    number: str = Field(min_length=1, max_length=16)
    name: str = Field(min_length=1, max_length=120)
    kind: str | None = None
    version_of: str | None = Field(default=None, min_length=1, max_length=16)
    species: str | None = None
    stats: dict[str, Figure] | None = None
    text: str | None = Field(default=None, max_length=2000)
    refers_to: list[str] = Field(default_factory=list)
    overrides: list[Override] = Field(default_factory=list)
    traits: list[str] = Field(default_factory=list)
    armor: bool | None = None
    effects: list[Effect] = Field(default_factory=list)
    variants: list[Variant] = Field(default_factory=list)

    @field_validator("number", "version_of", mode="before")
    @classmethod
    def _number_text(cls, v):
        # Collector numbers are text ("012" and "12a" matter); accept a bare YAML integer.
        if isinstance(v, bool):
            raise ValueError("a collector number is text, not true/false")
        return str(v) if isinstance(v, int) else v

    @field_validator("variants")
    @classmethod
    def _unique_variants(cls, v):
        if len(set(v)) != len(v):
            raise ValueError("a variant tag is listed twice")
        return v

    @model_validator(mode="after")
    def _version_or_card(self):
        if self.version_of is not None:
            extra = [f for f in ("kind", "stats", "text", "species", "armor") if getattr(self, f)]
            if extra or self.overrides or self.effects:
                raise ValueError(
                    "a printing with version_of inherits its card; remove "
                    + ", ".join(extra or ["overrides/effects"]))
        elif self.kind is None:
            raise ValueError("kind is required on a card that is not a version_of another")
        return self


class SetFile(_Strict):
    game: str
    set: SetInfo
    cards: list[Any] = Field(default_factory=list)  # validated one entry at a time


__all__ = ["ANIMAL_STATS", "CardEntry", "SetFile", "SetInfo", "STAT_BOUNDS", "VARIANTS"]
