"""Random positions for the differential tests and the benchmark.

A position is reached the way a table reaches it: a random deal, random legal
piles and passes, random legal cards (Lopaka by his policy) through the
engine's Hand, up to the wanted number of tricks left.  The trick in progress
is then filled to the wanted length on the position itself (Lopaka again by
his policy), which also gives positions with Lopaka to move: the engine never
stops there on its own, it moves him at once.
"""

from __future__ import annotations

import random

from ..engine.cards import iter_bits
from ..engine.events import Phase
from ..engine.hand import Hand, random_deal
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.tricks import lopaka_card


def random_position(
    rules: Rules, rng: random.Random, tricks_left: int, in_trick: int | None = None
) -> Position:
    """A position with `tricks_left` tricks to finish (the one in progress
    included) and `in_trick` cards already in the trick (random if None)."""
    pos = Position.from_hand(random_hand(rules, rng, tricks_left))
    if in_trick is None:
        in_trick = rng.randrange(rules.holders)
    return _fill_trick(pos, rng, in_trick)


def random_hand(rules: Rules, rng: random.Random, tricks_left: int, in_trick: int = 0) -> Hand:
    """An engine Hand played at random to `tricks_left` tricks from the end
    and `in_trick` cards into that trick (for the second bottle, which a
    position cannot hold)."""
    if not 1 <= tricks_left <= rules.tricks:
        raise ValueError(f"tricks_left: {tricks_left} is not 1..{rules.tricks}")
    dealer = rng.randrange(rules.seats)
    deal, undealt = random_deal(rules, rng, dealer)
    hand = Hand(rules, dealer, deal, undealt)
    target = rules.tricks - tricks_left
    while (hand.phase is not Phase.PLAY or len(hand.tricks) < target
           or len(hand.trick) < in_trick):
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def _fill_trick(pos: Position, rng: random.Random, length: int) -> Position:
    deck = pos.rules.deck
    hands = [list(h) for h in pos.hands]
    trick = list(pos.trick)
    order = pos.trick_order()
    # The engine moves Lopaka at once; take his card back if the trick should be shorter.
    while len(trick) > length and order[len(trick) - 1] == pos.lopaka:
        hands[pos.lopaka].append(trick.pop())
    hand = Position.build(
        pos.rules, hands, pos.pile, pos.price, pos.owner, pos.taken, pos.leader, trick,
        pos.lopaka, pos.open,
    ).to_hand()
    while len(hand.trick) < length:
        holder = hand.holder_to_play()
        if holder == pos.lopaka:
            card = lopaka_card(
                hand.holdings[holder], hand.trick, hand.price, deck.suit_masks, deck.suit_of
            )
        else:
            card = rng.choice(list(iter_bits(hand.legal_play_mask())))
        hand.push_unchecked(card, autoplay=False)
    return Position.from_hand(hand)
