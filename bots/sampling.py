"""Deals consistent with what a seat knows (determinization).

The strong bot and the hints guess the hidden cards many times over, solve
each guess with every card known, and average.  A guess must respect all the
seat knows: its own and the face-up cards where they are, the cards it passed
in the receivers' hands, no card of a suit a holder has shown void in, every
hidden hand and the pile at its size.  Cards are assigned one at a time, the
most constrained first, each to a place drawn in proportion to the room left
there; without voids this draws uniformly among all consistent deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cursedbottle.engine.hand import Hand
from cursedbottle.engine.view import SeatView


@dataclass(frozen=True, slots=True)
class Deal:
    """One guess: every holder's cards and the pile's, as bit masks."""

    holdings: tuple[int, ...]
    pile: int


class InconsistentView(ValueError):
    """No deal fits the view (it cannot happen with a view from a real game)."""


def sample_deal(view: SeatView, rng: random.Random, tries: int = 100) -> Deal:
    """A random deal of the hidden cards that fits everything `view` knows."""
    deck = view.rules.deck
    fixed = [0] * len(view.hand_sizes)
    room: dict[int, int] = {}
    for h, size in enumerate(view.hand_sizes):
        if h in view.visible:
            fixed[h] = deck.mask_of(view.visible[h])
            continue
        known = deck.mask_of(view.known.get(h, ()))
        fixed[h] = known
        room[h] = size - known.bit_count()
    pile_fixed = deck.mask_of(view.my_pile_cards)
    pile_room = view.pile_size - len(view.my_pile_cards)
    unseen = [c.index for c in view.unseen]
    if sum(room.values()) + pile_room != len(unseen):
        raise InconsistentView(
            f"{len(unseen)} unseen cards for {sum(room.values())} hidden places and "
            f"{pile_room} in the pile"
        )
    void_masks = [
        sum(deck.suit_masks[s] for s in view.voids[h]) if h < len(view.voids) else 0
        for h in range(len(view.hand_sizes))
    ]
    PILE = -1

    def places(card: int) -> list[int]:
        return [h for h in room if not void_masks[h] >> card & 1] + [PILE]

    order = sorted(unseen, key=lambda c: len(places(c)))
    for _ in range(tries):
        left = dict(room)
        left[PILE] = pile_room
        got = dict.fromkeys(left, 0)
        for card in order:
            options = [p for p in places(card) if left[p] > 0]
            if not options:
                break
            weights = [left[p] for p in options]
            place = rng.choices(options, weights)[0]
            left[place] -= 1
            got[place] |= 1 << card
        else:
            holdings = tuple(fixed[h] | got.get(h, 0) for h in range(len(fixed)))
            return Deal(holdings, pile_fixed | got[PILE])
        # A dead end: the voids left a card nowhere to go; draw again.
    raise InconsistentView("no deal fits the voids this view shows")


def position_of(view: SeatView, deal: Deal) -> Hand:
    """The play-phase state of `view` with the hidden cards as in `deal`."""
    deck = view.rules.deck
    return Hand.at_position(
        view.rules,
        [deck.cards_of(m) for m in deal.holdings],
        deck.cards_of(deal.pile),
        view.price,
        view.owner,
        view.taken,
        view.leader,
        [c for _, c in view.trick],
        open_hand=[h if h is not None else 0 for h in view.open_hand],
        lopaka=view.lopaka,
    )
