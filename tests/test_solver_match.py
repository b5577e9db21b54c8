"""The matching bound of the quick tricks (`match`): a seat loses at least as
many tricks as it has cards beyond the most pairs of its card above another
hand's.  Used by the max-n search and, in the paranoid model, only with
Lopaka: elsewhere it cut almost no node the quick tricks' count did not
(0.08 % of 3p-11-tips') and cost 5 % of the instructions (issue 17,
nineteenth part), so there switching it off changes nothing at all.

The values are the reference's with it on (tests/test_solver_diff.py, every
rule set, both models); here: where it is used, and that it still cuts."""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import release_table, solve
from cursedbottle.solver.sampling import random_position

DEFAULT = _search.ALL_OPTIONS
WITHOUT = DEFAULT & ~_search.OPTIONS["match"]


def _fresh(pos, opts, model="paranoid"):
    """A solve on an empty table (so that node counts compare)."""
    release_table()
    return solve(pos, opts, model=model)


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_the_paranoid_search_matches_only_with_lopaka(rules: Rules) -> None:
    """Six tricks left (five with many hands), any point of a trick: the
    values with it and without it are one; without Lopaka not even the
    nodes differ, with him they do."""
    rng = random.Random(f"match:{config_id(rules)}")
    used = rules.lopaka
    differ = 0
    for _ in range(6):
        pos = random_position(rules, rng, 5 if rules.holders >= 5 else 6)
        on, off = _fresh(pos, DEFAULT), _fresh(pos, WITHOUT)
        assert on.values == off.values
        if not used:
            assert on.nodes == off.nodes
        differ += on.nodes != off.nodes
    if used:
        assert differ, "the bound never cut a node with Lopaka"


def test_the_max_n_search_still_matches() -> None:
    """Cursed Bottle at three, five tricks left: the same values, and the
    bound still cuts in the max-n search (fewer nodes with it)."""
    rng = random.Random("match:maxn")
    on = off = 0
    for _ in range(8):
        pos = random_position(Rules(3), rng, 5, in_trick=0)
        a, b = _fresh(pos, DEFAULT, "maxn"), _fresh(pos, WITHOUT, "maxn")
        assert a.values == b.values
        on, off = on + a.nodes, off + b.nodes
    assert on < off
