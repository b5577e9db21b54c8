"""The double-dummy solver: `solve(position)` and `analyse(record)`.

The compiled search (`_search`, built from _search.pyx by setup.py) does the
work; `reference` is a plain minimax over the engine, kept to check it.  The
names below are imported on first use, so that `cancel` (pure Python) imports
even where the compiled search is missing (a server without the solver).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["Model", "Solution", "Step", "analyse", "solve", "solve_hand"]

if TYPE_CHECKING:
    from .api import Solution, Step, analyse, solve, solve_hand
    from .model import Model


def __getattr__(name: str):
    if name == "Model":
        from .model import Model

        return Model
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
