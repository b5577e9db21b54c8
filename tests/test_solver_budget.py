"""The others' leads of the bottle question in rounds of node budgets
(`budget`, issue 17, twentieth part): each lead gets a budget of nodes that
grows fourfold a round, so that a cheap way to saddle the root seat found late
in the order does not wait for a wrong first lead that costs millions.  A try
cut short stores nothing and says nothing; the answer is the one alpha-beta
gives.

By default it starts at 40 cards in play (five and six players' first
tricks, out of a test's reach); here `budget_cards` and `budget_start` bring
it down to the small positions of every rule set."""

from __future__ import annotations

import random

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import problem_of
from cursedbottle.solver.model import Model
from cursedbottle.solver.reference import reference_solve
from cursedbottle.solver.sampling import random_position
from test_solver_diff import diff_positions, second_bottle_hands

DEFAULT = _search.ALL_OPTIONS
WITHOUT = DEFAULT & ~_search.OPTIONS["budget"]


def _solve(hand, opts: int = DEFAULT, **budget) -> tuple[dict, int, int]:
    """(values by card index, nodes, tries cut short) on a table of its own."""
    problem, factor = problem_of(hand, Model.PARANOID)
    values, nodes = _search.solve_state(
        problem, opts=opts, tables=_search.SearchTables(), **budget
    )
    return {c: factor * v for c, v in values.items()}, nodes, _search.LAST_STATS["budget_stops"]


def test_on_by_default_from_forty_cards() -> None:
    assert DEFAULT & _search.OPTIONS["budget"]
    rng = random.Random("budget:default")
    hands = [random_position(Rules(4), rng, 7, in_trick=0).to_hand() for _ in range(6)]
    # (28 cards: below the default's 40, no try is cut short even from one node.)
    assert not any(_solve(hand, budget_start=1)[2] for hand in hands)
    assert any(_solve(hand, budget_cards=1, budget_start=1)[2] for hand in hands)


def _hands(rules: Rules, count: int, tricks: int | None = None) -> list:
    """Small positions of the differential tests' sizes (their tricks left
    drawn by `_weights`) or, with `tricks`, that many tricks left at a
    trick's start (the second bottle's always by the weights)."""
    seed = f"budget:{config_id(rules)}:{tricks}"
    if rules.second_bottle:
        return list(second_bottle_hands(rules, count, seed))
    if tricks is None:
        return [p.to_hand() for p in diff_positions(rules, count, seed)]
    rng = random.Random(seed)
    return [random_position(rules, rng, tricks, in_trick=0).to_hand() for _ in range(count)]


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
@pytest.mark.parametrize("start", [1, 40])
def test_rounds_give_the_reference_values(rules: Rules, start: int) -> None:
    """With the rounds from the first card in play, every try's budget
    starting at `start` nodes, the values are the reference's."""
    for hand in _hands(rules, 4):
        values = _solve(hand, budget_cards=1, budget_start=start)[0]
        want = reference_solve(hand)[1]
        assert {hand.deck.cards[c]: v for c, v in values.items()} == want


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_tries_cut_short_change_no_value(rules: Rules) -> None:
    """Deeper positions, every try's budget starting at one node: the values
    are those without; tries are cut short where the bottle question is
    asked, and it is asked wherever a seat alone owns its ending (not in team
    mode, not with the second bottle)."""
    asked = stops = 0
    for hand in _hands(rules, 16, 5 if rules.holders >= 5 or rules.devils_eye else 6):
        values, _, cut = _solve(hand, budget_cards=1, budget_start=1)
        asked += _search.LAST_STATS["avoid_nodes"] > 0
        assert values == _solve(hand, WITHOUT)[0]
        stops += cut
        if asked == 3:
            break
    assert (stops > 0) == (asked > 0)
    if not rules.teams and not rules.second_bottle:
        assert asked


def test_a_cheap_lead_late_in_the_order_is_found_early() -> None:
    """A five-player position (eight tricks left) whose flat bottle question
    spends most of its nodes in wrong first leads of the others: the rounds
    find the cheap leads and search far fewer nodes.  (Without
    `one-outnumbers`, which refutes those leads at once here: 2,314 nodes
    with the rounds or without.)"""
    rules = Rules(5, edition=Edition.BOTTLE_IMP)
    hand = random_position(rules, random.Random("budget:five:20"), 8, in_trick=0).to_hand()
    alone = ~_search.OPTIONS["one-outnumbers"]
    with_rounds, nodes_with, cut = _solve(hand, DEFAULT & alone, budget_cards=35)
    without, nodes_without, _ = _solve(hand, WITHOUT & alone)
    assert with_rounds == _solve(hand)[0]
    assert with_rounds == without
    assert cut > 0
    assert nodes_with < nodes_without / 2


def test_a_budget_of_no_nodes_is_refused() -> None:
    hand = random_position(Rules(3), random.Random("budget:zero"), 3).to_hand()
    with pytest.raises(ValueError, match="budget_start is at least 1 node"):
        _solve(hand, budget_start=0)
