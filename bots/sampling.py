"""Deals consistent with what a seat knows (determinization).

The strong bot and the hints guess the hidden cards many times over, solve
each guess with every card known, and average.  A guess must respect all the
seat knows: its own and the face-up cards where they are, the cards it passed
in the receivers' hands, no card of a suit a holder has shown void in, every
hidden hand and the pile at its size.  Cards are assigned one at a time, the
most constrained first, each to a place drawn in proportion to the room left
there among the places that still leave the rest a way to fit; without voids
this draws uniformly among all consistent deals, and with voids it never
fails where a deal exists.
"""

from __future__ import annotations

import itertools
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


def sample_deal(view: SeatView, rng: random.Random) -> Deal:
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
    room[PILE] = view.pile_size - len(view.my_pile_cards)
    unseen = [c.index for c in view.unseen]
    if sum(room.values()) != len(unseen):
        raise InconsistentView(
            f"{len(unseen)} unseen cards for {sum(room.values())} hidden places"
        )
    # Which suits each place may still take, as the deck's own suit indices
    # (`deck.suits[i]` is the `Suit` of index i; the view names voids by
    # `Suit`): a void rules a suit out, the pile takes anything.
    allowed = {
        p: frozenset(
            i for i, suit in enumerate(deck.suits) if p == PILE or suit not in view.voids[p]
        )
        for p in room
    }
    need = [0] * len(deck.suit_masks)
    for c in unseen:
        need[deck.suit_of[c]] += 1
    if not _fits(need, room, allowed):
        raise InconsistentView("no deal fits the voids this view shows")
    order = sorted(unseen, key=lambda c: sum(deck.suit_of[c] in a for a in allowed.values()))
    got = dict.fromkeys(room, 0)
    for card in order:
        suit = deck.suit_of[card]
        need[suit] -= 1
        options = []
        for p in room:
            if room[p] and suit in allowed[p]:
                room[p] -= 1
                if _fits(need, room, allowed):
                    options.append(p)
                room[p] += 1
        place = rng.choices(options, [room[p] for p in options])[0]
        room[place] -= 1
        got[place] |= 1 << card
    holdings = tuple(fixed[h] | got.get(h, 0) for h in range(len(fixed)))
    return Deal(holdings, deck.mask_of(view.my_pile_cards) | got[PILE])


PILE = -1  # the pile's key among the places a card can go


def _fits(need: list[int], room: dict[int, int], allowed: dict[int, frozenset[int]]) -> bool:
    """Whether the cards still to place (counted by suit) fit the room left.

    A transportation problem with unlimited routes: it has a solution exactly
    when every set of suits needs no more cards than the places that accept
    any of those suits have room for (Gale's supply-demand theorem).
    """
    suits = [s for s, n in enumerate(need) if n]
    for size in range(1, len(suits) + 1):
        for group in itertools.combinations(suits, size):
            wanted = sum(need[s] for s in group)
            offered = sum(r for p, r in room.items() if not allowed[p].isdisjoint(group))
            if wanted > offered:
                return False
    return True


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
        shelf=view.bottles[1:] if view.bottles else None,
    )
