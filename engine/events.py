"""Everything that happens, as typed events, and what each seat may see of it.

Events are the one way the outside learns what happened: the server streams
them, a client draws them, a log replays them.  `seen_by(seat)` is the single
place where secrecy is decided (RULES.md, "What each seat may know"): it
returns the event, a copy with the secret part blanked out, or None.  A seat
of None is a spectator, who sees the public part only.

Seats in hand events are the seats of that hand (with Lopaka they are not the
players' numbers: see `HandStarted.seat_players`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from .cards import Card
from .rules import Rules


class Phase(enum.Enum):
    """The stages of a hand, in order (not every variant has every stage)."""

    PILE = "pile"
    PASS = "pass"
    OPEN = "open"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Event:
    def seen_by(self, seat: int | None) -> Event | None:
        """Public by default: everyone sees all of it."""
        return self


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    rules: Rules
    first_dealer: int


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    number: int
    dealer: int
    #: The player in each seat of this hand (None for Lopaka).
    seat_players: tuple[int | None, ...]
    lopaka: int | None


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """A holder's cards as dealt; only the seat sees them, except Lopaka's open hand."""

    seat: int
    hand: int
    cards: tuple[Card, ...] | None
    count: int
    public: bool = False

    def seen_by(self, seat: int | None) -> Event | None:
        if self.public or seat == self.seat:
            return self
        return replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    phase: Phase
    #: Two hands per seat: which of each seat's hands the pile/pass stage takes from.
    hand: int | None
    to_act: tuple[int, ...]
    #: Two hands per seat: the receiver's hand the stage's passes join.
    pass_to_hand: int | None = None


@dataclass(frozen=True, slots=True)
class PileCardPlaced(Event):
    seat: int
    card: Card | None

    def seen_by(self, seat: int | None) -> Event | None:
        return self if seat == self.seat else replace(self, card=None)


@dataclass(frozen=True, slots=True)
class PassChosen(Event):
    """A seat laid a card face down for another; only the giver sees which."""

    seat: int
    to: int
    card: Card | None
    #: Two hands per seat: the receiver's hand the card is for.
    hand: int | None = None

    def seen_by(self, seat: int | None) -> Event | None:
        return self if seat == self.seat else replace(self, card=None)


@dataclass(frozen=True, slots=True)
class CardPassed(Event):
    """The passes are picked up (all at once): giver and receiver see the card."""

    seat: int
    to: int
    card: Card | None
    #: Two hands per seat: the receiver's hand the card joins (0 first, 1 second).
    hand: int | None = None

    def seen_by(self, seat: int | None) -> Event | None:
        return self if seat in (self.seat, self.to) else replace(self, card=None)


@dataclass(frozen=True, slots=True)
class OpenHandChosen(Event):
    seat: int
    hand: int | None

    def seen_by(self, seat: int | None) -> Event | None:
        return self if seat == self.seat else replace(self, hand=None)


@dataclass(frozen=True, slots=True)
class OpenHandRevealed(Event):
    seat: int
    hand: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card
    #: Two hands per seat (bright house, Devil's Eye): which of the seat's hands it
    #: came from (else 0).
    hand: int = 0


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    number: int
    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    bought: bool
    #: The price after the trick (None = the joker).
    price: Card | None
    owner: int | None
    #: The old price card going back to the old owner's tricks, if any.
    returned: Card | None
    returned_to: int | None
    #: The second bottle: (price card, owner) of each bottle after the trick, the
    #: one on sale now first (`price` and `owner` above are the bottle just bought).
    bottles: tuple[tuple[Card | None, int | None], ...] = ()


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is scored; the pile is revealed to everyone."""

    number: int
    pile: tuple[Card, ...]
    owner: int | None
    price: Card | None
    points_taken: tuple[int, ...]
    pile_points: int
    scores: tuple[int, ...]
    #: Running totals per player (not per seat).
    totals: tuple[int, ...]
    #: The second bottle: (price card, owner) of each bottle (`owner`/`price`
    #: above are the one that was on sale last).
    bottles: tuple[tuple[Card | None, int | None], ...] = ()


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    totals: tuple[int, ...]
    winner: int
    hands_played: int
