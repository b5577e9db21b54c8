"""One position as the compiled search takes it: every fact by its name.

The search (`_search.solve_state`) reads a `Problem` once into its C state,
as the bridge solver DDS takes a `struct deal`.  Every field is named and
keyword-only, so two facts cannot trade places unnoticed.  Cards are the
deck's indices (its total order), holders the engine's holder indices
(Devil's Eye: seat p plays hands 2p and 2p + 1), seats the engine's seats.
`solver/api.py` fills it from an engine Hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Bottle:
    """A bottle in play: a card below `price` buys it."""

    price: int
    #: The card its owner bought it with (None: bought by nobody yet); its
    #: points go back to that owner when the bottle is bought from it.
    card: int | None = None
    #: The seat that holds it (None: nobody yet).
    owner: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """A position in the play phase and the seat whose score is valued.

    Bounds (the table key's fields): at most 6 holders, 64 cards, 3 suits,
    0-15 points a card and 1018 in the deck.
    """

    #: Each holder's cards, a bit mask of card indices.
    hands: tuple[int, ...]
    #: The seat each holder plays for.
    holder_seat: tuple[int, ...]
    #: order[seat]: the holders in the order they play to a trick that seat leads.
    order: tuple[tuple[int, ...], ...]
    #: The seat that leads the trick in progress (or the next one).
    leader: int
    #: The cards played to the trick in progress, and the holder of each.
    trick: tuple[int, ...] = ()
    trick_holders: tuple[int, ...] = ()
    #: Lopaka's holder (None: not in the game); he plays his policy.
    lopaka: int | None = None
    #: The seat valued (the seat to move, or Lopaka's seat).
    root: int
    #: Every seat's points in its tricks so far.
    taken: tuple[int, ...]
    #: The bottle for sale.
    bottle: Bottle
    #: The Bottle Imp's second bottle, the one not for sale (None: one bottle).
    shelf: Bottle | None = None
    #: What owning a bottle costs at the end (the pile's points).
    pile: int
    #: The hot bottle: its owner loses its tricks' points too.
    hot: bool = False
    #: Devil's Eye: the mover plays from either of its two hands.
    free: bool = False
    #: The root seat's partner in the Bottle Imp's team mode (None: none), for
    #: the paranoid model: it maximises too, and the value is the side's score
    #: (before the caller doubles that of a seat alone).
    partner: int | None = None
    #: For the max-n model in team mode, sides[s][t]: what seat t's own score
    #: adds to seat s's as it counts (None: each seat scores alone).
    sides: tuple[tuple[int, ...], ...] | None = None
    #: The deck: each card's points and suit (0-2).
    points: tuple[int, ...]
    suits: tuple[int, ...]
