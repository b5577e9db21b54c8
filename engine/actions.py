"""What a seat can do: the moves of the game as values.

Every action names its seat, so a list of accepted actions describes a game
completely (the pile and passing phases are simultaneous: several seats may
be asked at once).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class PileCard:
    """Put a card face down into the bottle's pile."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} puts a card into the pile"


@dataclass(frozen=True, slots=True)
class PassCard:
    """Give a card face down to another seat (a neighbour, or the opponent)."""

    seat: int
    to: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} passes {self.card} to seat {self.to}"


@dataclass(frozen=True, slots=True)
class ChooseOpen:
    """Bright house: which of the seat's two hands (0 = first dealt, 1 = second) lies open."""

    seat: int
    hand: int

    def __str__(self) -> str:
        return f"seat {self.seat} lays hand {self.hand} open"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


Action = PileCard | PassCard | ChooseOpen | Play


class ActionTable:
    """Every action of a table size, made once: legal-move generation hands out
    these shared values instead of building new ones in the inner loop."""

    def __init__(self, cards: tuple[Card, ...], seats: int) -> None:
        self.play = [[Play(s, c) for c in cards] for s in range(seats)]
        self.pile = [[PileCard(s, c) for c in cards] for s in range(seats)]
        self.passes = [
            [[PassCard(s, to, c) for c in cards] for to in range(seats)] for s in range(seats)
        ]
        self.choose_open = [(ChooseOpen(s, 0), ChooseOpen(s, 1)) for s in range(seats)]


_TABLES: dict[tuple[str, int], ActionTable] = {}


def action_table(cards: tuple[Card, ...], seats: int) -> ActionTable:
    key = (cards[0].deck_name, seats)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = ActionTable(cards, seats)
    return table
