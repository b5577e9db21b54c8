"""The root cards' probes gallop (`exact`, OPT_GALLOP) where a card's value can
lie far from its neighbour's: in team mode, where no bottle question of one
seat makes the long jump.  The values are
the same (test_solver_diff.py and test_solver_sides.py switch it both ways);
here: it saves probes where it is on, and changes nothing where it is off.
Elsewhere a climb strides (OPT_STRIDE): two points a probe from its second
rise on.
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
#: The plain step: a point a probe (neither galloping nor striding).
WITHOUT = DEFAULT & ~_search.OPTIONS["gallop"] & ~_search.OPTIONS["stride"]
ON = [r for r in CONFIGS if r.teams and not r.second_bottle]
OFF = [r for r in CONFIGS if config_id(r) in ("3p", "2p-lopaka", "imp-3p", "imp-devils-eye")]
#: Every rule set of a seat alone that positions can be drawn for (one bottle).
ALONE = [r for r in CONFIGS if not r.teams and not r.second_bottle]


def _probes(rules: Rules, opts: int, count: int, left: int,
            seed: str = "gallop") -> tuple[int, list]:
    """Root probes and values over `count` random positions at a trick's start."""
    rng = random.Random(f"{seed}:{config_id(rules)}")
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
    (galloping measured no gain there): the probes are those without it."""
    no_gallop = DEFAULT & ~_search.OPTIONS["gallop"]
    assert _probes(rules, DEFAULT, 6, 5) == _probes(rules, no_gallop, 6, 5)


def test_a_climb_strides_two_points_from_its_second_rise() -> None:
    """A card worth 15, its guess 5, the points taken 4 (a seat alone): the
    bottle question, then 5 and 6 a point apart, then two points a probe up
    to 16, which fails, and 15: nine probes where a point a probe takes
    thirteen.  A fall steps a point a probe either way."""
    alone = DEFAULT & ~_search.OPTIONS["gallop"]
    plain = alone & ~_search.OPTIONS["stride"]

    def run(opts: int, value: int, guess: int) -> list[int]:
        plan, probes = _search.ProbePlan(-10, 30, 4, guess, opts), []
        while plan.bound is not None:
            probes.append(plan.bound)
            plan.answer(plan.bound if value >= plan.bound else plan.bound - 1)
        assert plan.value == value
        return probes

    assert run(alone, 15, 5) == [4, 5, 6, 8, 10, 12, 14, 16, 15]
    assert run(plain, 15, 5) == [4, *range(5, 17)]
    assert run(alone, 7, 12) == run(plain, 7, 12) == [4, 5, *range(12, 6, -1)]


def test_striding_climbs_take_fewer_probes_for_the_same_values() -> None:
    """Over every rule set of a seat alone (eight positions each, five tricks
    left): the values are the same with and without the stride, and the
    probes fewer in all (one position may take one more where a stride
    passes the value)."""
    without = DEFAULT & ~_search.OPTIONS["stride"]
    striding = plain = 0
    for rules in ALONE:
        n, values = _probes(rules, DEFAULT, 8, 5, "stride")
        m, plain_values = _probes(rules, without, 8, 5, "stride")
        assert values == plain_values, config_id(rules)
        striding, plain = striding + n, plain + m
    assert striding < 0.97 * plain, (striding, plain)
