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
from cursedbottle.solver.sampling import random_position
from switch_support import with_and_without


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_the_paranoid_search_matches_only_with_lopaka(rules: Rules) -> None:
    """Six tricks left (five with many hands), any point of a trick: the
    values with it and without it are one; without Lopaka not even the
    nodes differ, with him they do."""
    rng = random.Random(f"match:{config_id(rules)}")
    left = 5 if rules.holders >= 5 else 6
    pairs = with_and_without("match", [random_position(rules, rng, left) for _ in range(6)])
    differ = [on.nodes != off.nodes for on, off in pairs]
    if rules.lopaka:
        assert any(differ), "the bound never cut a node with Lopaka"
    else:
        assert not any(differ)


def test_the_max_n_search_still_matches() -> None:
    """Cursed Bottle at three, five tricks left: the same values, and the
    bound still cuts in the max-n search (fewer nodes with it)."""
    rng = random.Random("match:maxn")
    positions = [random_position(Rules(3), rng, 5, in_trick=0) for _ in range(8)]
    pairs = with_and_without("match", positions, "maxn")
    assert sum(on.nodes for on, _ in pairs) < sum(off.nodes for _, off in pairs)
