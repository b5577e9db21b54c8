"""The trick rules as pure functions over card indices (index = place in the order).

A price is a threshold: a card is below the price exactly when its index is
smaller.  The price joker's threshold is the deck's `joker_position`; a price
card's threshold is its own index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card


def trick_winner(cards: Sequence[int], price: int) -> tuple[int, bool]:
    """(position in the trick of the winning card, whether it buys the bottle).

    The highest card below the price wins and buys; with none below, the
    highest card of any suit wins.
    """
    best_below = -1
    best_pos = 0
    best = -1
    for pos, c in enumerate(cards):
        if c < price:
            if c > best_below:
                best_below = c
                below_pos = pos
        elif c > best:
            best = c
            best_pos = pos
    if best_below >= 0:
        return below_pos, True
    return best_pos, False


def legal_cards(
    holding: int, led: int | None, suit_masks: Sequence[int], suit_of: Sequence[int]
) -> int:
    """The mask of cards a holder may play: follow the led suit when possible."""
    if led is None:
        return holding
    follow = holding & suit_masks[suit_of[led]]
    return follow or holding


def lopaka_card(
    holding: int,
    trick: Sequence[int],
    price: int,
    suit_masks: Sequence[int],
    suit_of: Sequence[int],
) -> int:
    """Lopaka's policy (RULES.md) for a holding: see `policy_card`."""
    legal = legal_cards(holding, trick[0], suit_masks, suit_of) if trick else holding
    return policy_card(legal, trick, price)


def policy_card(legal: int, trick: Sequence[int], price: int) -> int:
    """Lopaka's policy over a mask of legal cards: lead the highest; else the
    highest legal card that would win the trick as it stands; else the lowest.
    (The rule bot and the rollouts play it for everyone, also where a seat's
    legal cards come from two hands.)"""
    if not trick:
        return legal.bit_length() - 1
    cards = list(trick)
    cards.append(0)
    last = len(trick)
    mask = legal
    while mask:
        c = mask.bit_length() - 1
        cards[last] = c
        if trick_winner(cards, price)[0] == last:
            return c
        mask ^= 1 << c
    return (legal & -legal).bit_length() - 1


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick, as everybody saw it."""

    number: int
    leader: int
    #: (seat, card) in play order.
    plays: tuple[tuple[int, Card], ...]
    #: The holder each card came from (the seat, or one of its two hands: bright
    #: house, Devil's Eye).
    holders: tuple[int, ...]
    winner: int
    bought: bool
    price_before: Card | None
    price_after: Card | None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)
