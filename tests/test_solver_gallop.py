"""The root cards' probes gallop (`exact`, OPT_GALLOP) where a card's value can
lie far from its neighbour's: in team mode, where no bottle question of one
seat makes the long jump.  The values are
the same (test_solver_diff.py and test_solver_sides.py switch it both ways);
here: it saves probes where it is on, and changes nothing where it is off.
"""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import solve_hand
from cursedbottle.solver.sampling import random_position

DEFAULT = _search.ALL_OPTIONS
WITHOUT = DEFAULT & ~_search.OPTIONS["gallop"]
ON = [r for r in CONFIGS if r.teams and not r.second_bottle]
OFF = [r for r in CONFIGS if config_id(r) in ("3p", "2p-lopaka", "imp-3p", "imp-devils-eye")]


def _probes(rules: Rules, opts: int, count: int, left: int) -> tuple[int, list]:
    """Root probes and values over `count` random positions at a trick's start."""
    rng = random.Random(f"gallop:{config_id(rules)}")
    probes, values = 0, []
    for _ in range(count):
        hand = random_position(rules, rng, left, in_trick=0).to_hand()
        solved = solve_hand(hand, opts, tables=_search.SearchTables())
        probes += _search.LAST_STATS["probes"]
        values.append(solved.values)
    return probes, values


@pytest.mark.parametrize("rules", ON, ids=config_id)
def test_galloping_probes_save_a_tenth_of_them(rules: Rules) -> None:
    left = 6 if rules.seats > 4 else 7
    with_gallop, values = _probes(rules, DEFAULT, 12, left)
    without, plain_values = _probes(rules, WITHOUT, 12, left)
    assert values == plain_values
    assert with_gallop < 0.9 * without, (with_gallop, without)


@pytest.mark.parametrize("rules", OFF, ids=config_id)
def test_a_seat_alone_does_not_gallop(rules: Rules) -> None:
    """A seat alone has the bottle question's probe for the long jump
    (galloping measured no gain there): the probes are the plain step's."""
    assert _probes(rules, DEFAULT, 6, 5) == _probes(rules, WITHOUT, 6, 5)
