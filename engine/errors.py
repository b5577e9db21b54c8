"""Why an action is refused: the rule broken, in words a player understands."""

from __future__ import annotations

import enum


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


class IllegalAction(ValueError):
    """An action the rules refuse; the state it was offered to is unchanged."""

    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.rule = rule
