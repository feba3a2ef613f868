"""A tiny base for the value objects on the hot path of a deck check.

``dataclasses`` generates each class's methods with ``exec`` at import time, which costs more
than the rest of a deck check's own code (measured: about 3 million instructions a class;
benchmarks/cold_start.py times start-up). The dozen classes a ``validate`` run touches are therefore
plain classes with ``__slots__`` and a hand-written ``__init__``; this base gives them equality,
hashing (for the frozen ones) and a readable repr from their slots.
"""

from __future__ import annotations


class Record:
    __slots__ = ()

    def _values(self) -> tuple:
        return tuple(getattr(self, s) for s in self.__slots__)

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{s}={getattr(self, s)!r}" for s in self.__slots__)
        return f"{type(self).__name__}({inner})"


class MutableRecord(Record):
    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]
