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
from cursedbottle.engine.rules import Rules
from cursedbottle.solver.sampling import random_hand, random_position
from switch_support import with_and_without


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


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_the_pruning_keeps_every_value_and_cuts(rules: Rules) -> None:
    """Five tricks left (four with five and six hands, three for six in
    teams, whose max-n is dearest), any point of a trick: the same values with it and
    without; the search changed where each seat scores alone, and fewer
    nodes summed with three seats (a position left is not stored, so it
    may be searched again: with six seats and beside Lopaka with the hot
    bottle it can cost a few nodes more); the very same nodes in team mode
    (a side's score mixes two seats': no sum bound).  (The second bottle:
    tests/test_solver_diff.py's techniques test.)"""
    rng = random.Random(f"shallow-nodes:{config_id(rules)}")
    left = 3 if rules.teams and rules.holders == 6 else 4 if rules.holders >= 5 else 5
    pairs = with_and_without(
        "shallow", [random_position(rules, rng, left) for _ in range(8)], "maxn"
    )
    on, off = sum(a.nodes for a, _ in pairs), sum(b.nodes for _, b in pairs)
    if rules.teams:
        assert all(a.nodes == b.nodes for a, b in pairs)
        return
    assert any(a.nodes != b.nodes for a, b in pairs), "the pruning never changed the search"
    if rules.players == 3:
        assert on < off
