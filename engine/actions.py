"""What a seat can do: the moves of the game as values, and their compact JSON form.

Every action names its seat, so a list of accepted actions describes a game
completely (the pile and passing phases are simultaneous: several seats may
be asked at once).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import Card, Deck


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


# ------------------------------------------------------------------ JSON form

#: Per kind of action in its JSON form, what follows the kind: seats (int) and cards.
SHAPES: dict[str, tuple[str, ...]] = {
    "play": ("seat", "card"),
    "pile": ("seat", "card"),
    "pass": ("seat", "seat", "card"),
    "open": ("seat", "hand"),
}


class ActionFormError(ValueError):
    """A JSON value that is not an action: the part that is wrong (`value`) and
    what it should have been (`expected`, words that follow the value)."""

    def __init__(self, value: object, expected: str) -> None:
        self.value = value
        self.expected = expected
        super().__init__(self.message())

    def message(self, show: Callable[[object], str] = repr) -> str:
        """The fault in words, the wrong value written by `show`."""
        return f"{show(self.value)} {self.expected}"


def action_to_json(action: Action) -> list[Any]:
    """An action as a JSON list: its kind, then hand seats, then an ASCII card
    (`["play", 0, "AS"]`, `["pass", 0, 1, "AS"]`, `["open", 0, 1]`)."""
    if isinstance(action, Play):
        return ["play", action.seat, action.card.ascii]
    if isinstance(action, PileCard):
        return ["pile", action.seat, action.card.ascii]
    if isinstance(action, PassCard):
        return ["pass", action.seat, action.to, action.card.ascii]
    if isinstance(action, ChooseOpen):
        return ["open", action.seat, action.hand]
    raise TypeError(f"not an action: {action!r}")


def action_from_json(obj: object, deck: Deck) -> Action:
    """The action a JSON list (as `action_to_json` writes it) names, its card of
    `deck`; ActionFormError saying what is wrong when it names none.  Seats are
    whole numbers here; whether the hand has them is the rules' business."""
    kind = obj[0] if isinstance(obj, list) and obj else None
    shape = SHAPES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        wrong = kind if isinstance(obj, list) and obj else obj
        raise ActionFormError(wrong, f"is not an action ({', '.join(SHAPES)})")
    assert isinstance(obj, list)
    args = obj[1:]
    numbers = [a for a, want in zip(args, shape, strict=False) if want != "card"]
    if len(args) != len(shape) or any(type(a) is not int for a in numbers):
        raise ActionFormError(obj, f"is not a {kind} action ([{', '.join((kind, *shape))}])")
    if shape[-1] == "card":
        try:
            card = deck.card(args[-1]) if isinstance(args[-1], str) else None
        except ValueError:
            card = None
        if card is None:
            raise ActionFormError(args[-1], f"is not a card of the {deck.name} deck")
    if kind == "play":
        return Play(args[0], card)
    if kind == "pile":
        return PileCard(args[0], card)
    if kind == "pass":
        return PassCard(args[0], args[1], card)
    return ChooseOpen(args[0], args[1])
