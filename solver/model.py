"""The two models of the double-dummy question (RULES.md).

`paranoid`: the seat maximises its score, every other seat minimises it (the
worst case, a bound).  `maxn`: each seat maximises its own score, ties
broken as RULES.md says (lowest for the seat asking, then the lowest card).
"""

from __future__ import annotations

from enum import StrEnum


class Model(StrEnum):
    PARANOID = "paranoid"
    MAXN = "maxn"

    def __str__(self) -> str:
        return self.value
