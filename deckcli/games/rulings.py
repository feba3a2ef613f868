"""A game's single rulings (``deckcli referee battle|attack|discard|showdown ...``) as data.

Each game declares its rulings (``Game.rulings()``: a list of :class:`Ruling`); the command line
(``deckcli/cli/referee_cmd.py``) makes each one a ``deckcli referee NAME`` subcommand with the
options every ruling shares (``--house-rule``, ``--event``, ``--output``, ``--game``, ``--db``,
and for a ruling that rolls dice ``--roll`` and ``--seed``), so the game's package holds what
a ruling asks and answers and the command line holds only how options are parsed.

A ruling's ``run(given, **values)`` gets the parsed values of its own parameters and a
:class:`Given` (the card index, the house rules in force, the seed and rolls), and answers the
ruling as a JSON-able dict; ``render(result)`` writes it as text. A ruling whose result lists
``violations`` exits 1 when ``exits_on_violations``.
"""

from __future__ import annotations

from collections.abc import Callable


class Param:
    """One argument (``option`` None) or option of a ruling.

    ``kind``: ``text``, ``card`` (a card of the game: completed from the database), ``int``
    (within ``low``..``high``), ``choice`` (one of ``choices``) or ``flag``."""

    __slots__ = ("name", "option", "kind", "choices", "multiple", "required", "metavar",
                 "help", "low", "high")

    def __init__(self, name: str, option: str | None = None, *, kind: str = "text",
                 choices: tuple[str, ...] = (), multiple: bool = False, required: bool = False,
                 metavar: str | None = None, help: str = "", low: int | None = None,
                 high: int | None = None):
        self.name, self.option, self.kind, self.choices = name, option, kind, choices
        self.multiple, self.required, self.metavar, self.help = multiple, required, metavar, help
        self.low, self.high = low, high


class Given:
    """What every ruling may need besides its own parameters: the card index (opened on first
    use, so a ruling that refuses its input first opens nothing), the house rules in force,
    and for dice the values given (``rolls``) and the seed (one is picked and reported when
    none is given and no rolls are)."""

    def __init__(self, open_index: Callable, house, seed: int | None, rolls: tuple[int, ...]):
        self._open, self._index = open_index, None
        self.house, self.seed, self.rolls = house, seed, rolls

    @property
    def index(self):
        if self._index is None:
            self._index = self._open()
        return self._index


class Ruling:
    """One ruling subcommand of a game (see the module's docstring)."""

    __slots__ = ("name", "help", "params", "run", "render", "dice", "house_example",
                 "hide_game", "exits_on_violations")

    def __init__(self, name: str, help: str, params: list[Param], run: Callable,
                 render: Callable, *, dice: bool = False, house_example: str = "",
                 hide_game: bool = False, exits_on_violations: bool = True):
        self.name, self.help, self.params, self.run, self.render = name, help, params, run, render
        self.dice, self.house_example, self.hide_game = dice, house_example, hide_game
        self.exits_on_violations = exits_on_violations
