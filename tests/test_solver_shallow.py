"""Shallow pruning in the max-n search (`shallow`, issue 17).

A position stops being searched once its mover is sure of so much that the
parent's mover cannot get there what it has elsewhere.  Sound because two
seats' own scores sum to at most their points taken and every point still to
be taken: a seat free scores its tricks, the owner at most 0, and no point
reaches two seats' tricks.  Here: that premise over random hands played out
through the engine in every rule set where each seat scores alone, and that
the pruning changes no value and cuts nodes (the values are the reference's
in tests/test_solver_diff.py, every rule set)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.events import Phase
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search
from cursedbottle.solver.api import release_table, solve
from cursedbottle.solver.sampling import random_hand, random_position

DEFAULT = _search.ALL_OPTIONS
WITHOUT = DEFAULT & ~_search.OPTIONS["shallow"]


def _still_taken(hand) -> int:
    """Points some seat may still add to its tricks: the cards in hands and
    in the trick, and the price cards that go back to their owners."""
    deck = hand.deck
    backs = [hand.price_card, *hand.trick] + [card for _, card, _ in hand.shelf]
    return (sum(deck.points_of(mask) for mask in hand.holdings)
            + sum(deck.points[c] for c in backs if c is not None))


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.teams], ids=config_id)
def test_two_seats_never_score_more_than_is_left(rules: Rules) -> None:
    """Any pair of seats, any position, any way the hand is played to its end."""
    rng = random.Random(f"shallow:{config_id(rules)}")
    for _ in range(40):
        hand = random_hand(rules, rng, rng.randint(1, rules.tricks))
        taken, still = hand.points_taken(), _still_taken(hand)
        while hand.phase is not Phase.OVER:
            hand.apply(rng.choice(hand.legal_actions()))
        scores = hand.own_scores()
        for p, m in combinations(range(rules.seats), 2):
            assert scores[p] + scores[m] <= taken[p] + taken[m] + still


def _fresh(pos, opts):
    """A max-n solve on an empty table (so that node counts compare)."""
    release_table()
    return solve(pos, opts, model="maxn")


@pytest.mark.parametrize(
    ("rules", "used"),
    [(Rules(3), True), (Rules(3, hot_bottle=True), True), (Rules(2), True),
     (Rules(4, edition=Edition.BOTTLE_IMP), True),
     (Rules(4, edition=Edition.BOTTLE_IMP, teams=True), False)],
    ids=["3p", "3p-hot", "2p-lopaka", "imp-4p", "imp-4p-teams"],
)
def test_the_pruning_keeps_every_value_and_cuts(rules: Rules, used: bool) -> None:
    """Five tricks left, any point of a trick: the same values with it and
    without; fewer nodes summed where each seat scores alone, the very same
    nodes in team mode (a side's score mixes two seats', no sum bound)."""
    rng = random.Random(f"shallow-nodes:{config_id(rules)}")
    on = off = 0
    for _ in range(8):
        pos = random_position(rules, rng, 5)
        a, b = _fresh(pos, DEFAULT), _fresh(pos, WITHOUT)
        assert a.values == b.values
        if not used:
            assert a.nodes == b.nodes
        on, off = on + a.nodes, off + b.nodes
    assert (on < off) if used else (on == off)
