"""Fast sensible play: the rule text's tips, and a few quick rollouts.

Pile and passes follow the tips: the lowest cards leave the hand ("pass and
discard low cards"), and among the low ones those of the shortest suit, so
that a void appears ("void a suit").  In play it does what the published
Bottle Imp programs do: each legal card is tried on a few deals consistent
with what the seat knows, and every seat then plays on by Lopaka's simple
policy to the end of the hand; the card with the best mean score is played.
Those rollouts are what "count the low cards" and "fear high cards" come to
in practice: a card that leaves the seat doomed shows it in the score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cursedbottle.engine.actions import Action, ChooseOpen, PassCard, PileCard, Play
from cursedbottle.engine.cards import Card
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.tricks import policy_card
from cursedbottle.engine.view import SeatView
from cursedbottle.solver.cancel import check_cancelled

from .sampling import position_of, sample_deal


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int = 0, deals: int = 8) -> None:
        self.rng = random.Random(seed)
        self.deals = deals

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        first = actions[0]
        if isinstance(first, Play):
            return actions[0] if len(actions) == 1 else self._play(view)
        if isinstance(first, PileCard | PassCard):
            if view.stage_hand is not None:
                cards = view.visible[2 * view.seat + view.stage_hand]
            else:
                cards = view.my_cards
            joker = view.rules.deck.joker_position
            return min(actions, key=lambda a: shedding_order(cards, a.card, joker))
        if isinstance(first, ChooseOpen):
            return first
        raise ValueError(f"no heuristic for {first!r}")

    def _play(self, view: SeatView) -> Action:
        actions = view.legal_actions
        totals = [0.0] * len(actions)
        for _ in range(self.deals):
            start = position_of(view, sample_deal(view, self.rng))
            for i, action in enumerate(actions):
                hand = start.copy()
                hand.push_unchecked(action.card.index)
                totals[i] += rollout(hand)[view.seat]
        best = max(range(len(actions)), key=lambda i: (totals[i], -actions[i].card.index))
        return actions[best]


def rollout(hand: Hand) -> tuple[int, ...]:
    """Play the hand to its end with Lopaka's policy for every seat; the scores.
    (Raises `Cancelled` once the thread's work is cancelled: a search made of
    rollouts stops as promptly as the solver does.)"""
    check_cancelled()
    while not hand.is_over:
        hand.push_unchecked(policy_card(hand.legal_play_mask(), hand.trick, hand.price))
    return hand.scores()


def shedding_order(cards: Sequence[Card], card: Card, joker_position: int) -> tuple[float, int]:
    """Low cards first; among cards below the joker, those of short suits first."""
    suit_length = sum(1 for c in cards if c.suit == card.suit)
    low = card.index < joker_position
    return (card.index + (suit_length * 1.5 if low else 0.0), card.index)
