"""The fitted play model (bots.inference) as a policy: its most likely card.

The model was fitted to how the pimc bots play; played greedily it is a far
better player than Lopaka's policy (bench/README.md, "Issue 14"), at a
fraction of a search's cost, so the strong bot's rollouts use it for every
seat instead of Lopaka's policy.
"""

from __future__ import annotations

from cursedbottle.engine.hand import Hand
from cursedbottle.solver.cancel import check_cancelled

from .inference import WEIGHTS, card_features


def model_card(hand: Hand, players: int) -> int:
    """The model's most likely card for the holder to play (lowest on ties)."""
    legal = hand.legal_play_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    holder = hand.holder_to_play()
    holding = hand.holdings[holder]
    if hand.rules.devils_eye:
        holding |= hand.holdings[holder + 1]
    trick, price, deck = hand.trick, hand.price, hand.deck
    best, best_score = -1, 0.0
    mask = legal
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        mask ^= low
        f = card_features(card, legal, trick, price, holding, deck, players)
        score = sum(w * x for w, x in zip(WEIGHTS, f, strict=True))
        if best < 0 or score > best_score:
            best, best_score = card, score
    return best


def model_rollout(hand: Hand) -> tuple[int, ...]:
    """Play the hand to its end with the model's card for every seat; the
    scores.  (Raises `Cancelled` once the thread's work is cancelled.)"""
    check_cancelled()
    players = len(hand.trick_order(hand.leader))
    while not hand.is_over:
        hand.push_unchecked(model_card(hand, players))
    return hand.scores()
