"""The double-dummy solver: `solve(position)` and `analyse(record)`.

The compiled search (`_search`, built from _search.pyx by setup.py) does the
work; `reference` is a plain minimax over the engine, kept to check it.
"""

from .api import Solution, Step, analyse, solve, solve_hand

__all__ = ["Solution", "Step", "analyse", "solve", "solve_hand"]
