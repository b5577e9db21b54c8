"""Why an action is refused: the rule broken and its facts, in words a player understands."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

#: How a message names a seat of the hand (a table names them its own way).
SeatName = Callable[[int], str]

#: The facts of a refusal that are seats of the hand (`recipients` is a tuple of them).
SEAT_FACTS = frozenset({"seat", "to", "turn", "other", "recipients"})


class Rule(enum.Enum):
    """The rules an action can break; the server maps these to status codes."""

    GAME_OVER = "the game is over"
    WRONG_PHASE = "wrong phase"
    NOT_YOUR_TURN = "not your turn"
    NO_SUCH_SEAT = "no such seat"
    LOPAKA_PLAYS_HIMSELF = "Lopaka plays by his own policy"
    CARD_NOT_HELD = "card not held"
    ALREADY_CHOSEN = "already chosen"
    PASS_TO_NON_NEIGHBOUR = "pass to a non-neighbour"
    SAME_CARD_TWICE = "same card twice"
    FOLLOW_SUIT = "follow suit"
    WRONG_HAND = "wrong hand"
    DEALER_KEEPS_CARDS = "the dealer lays no pile card"


def hand_seat(seat: int) -> str:
    """The engine's own name of a seat: its number in the hand."""
    return f"seat {seat}"


class IllegalAction(ValueError):
    """An action the rules refuse; the state it was offered to is unchanged.

    It carries the rule, the seat and card the action named (None where it
    named none) and the other facts its message uses (`facts`: the seat whose
    turn it is, the suit led, the hand...); `text` is the message with those
    facts left as `str.format` fields, so `message` can name the seats as the
    caller names them.
    """

    def __init__(
        self, rule: Rule, text: str, *, seat: object = None, card: object = None, **facts: object
    ) -> None:
        self.rule = rule
        self.text = text
        self.seat = seat
        self.card = card
        self.facts: Mapping[str, object] = facts
        super().__init__(self.message())

    def message(self, seat_name: SeatName = hand_seat) -> str:
        """The refusal in words, each seat named by `seat_name` (called with every
        int the action named as a seat, whether or not the hand has that seat);
        the default gives `str(self)`."""
        values = {"seat": self.seat, "card": self.card, **self.facts}
        shown = {
            name: _seats(value, seat_name) if name in SEAT_FACTS else value
            for name, value in values.items()
        }
        return self.text.format_map(shown)


def _seats(value: object, seat_name: SeatName) -> str:
    if isinstance(value, tuple):
        return " and ".join(_seats(v, seat_name) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return seat_name(value)
    return f"seat {value!r}"
