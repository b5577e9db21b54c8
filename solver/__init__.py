"""The double-dummy solver: `solve(position)` and `analyse(record)`.

The compiled search (`_search`, built from _search.pyx by setup.py) does the
work on a `problem.Problem`; `api` fills one from the engine's state and
reads the answer back; `reference` is a plain minimax over the engine, kept
to check it.
"""

from .api import Solution, Step, analyse, solve, solve_hand
from .model import Model

__all__ = ["Model", "Solution", "Step", "analyse", "solve", "solve_hand"]
