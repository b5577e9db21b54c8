"""The reference solver's alpha-beta against its plain minimax.

The differential tests check the compiled search against the reference's
paranoid values searched by alpha-beta (solver/reference.py), which is what
lets their full run reach six players in team mode; here that alpha-beta
answers exactly what the plain minimax answers, on random positions of every
rule set, Lopaka to move or not, at a trick's start and in its middle, and
the second bottle's hands.
"""

from __future__ import annotations

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Rules
from cursedbottle.solver.reference import reference_solve
from test_solver_diff import diff_positions, second_bottle_hands

#: Positions a rule set (up to five tricks left, as the differential tests').
COUNT = 10


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_alpha_beta_equals_plain_minimax(rules: Rules) -> None:
    seed = f"reference:{config_id(rules)}"
    if rules.second_bottle:
        hands = list(second_bottle_hands(rules, COUNT, seed))
    else:
        hands = [pos.to_hand() for pos in diff_positions(rules, COUNT, seed)]
    for hand in hands:
        assert reference_solve(hand, prune=True)[:2] == reference_solve(hand, prune=False)[:2]
