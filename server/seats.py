"""Who is at a table: its seats (a person, a bot or nobody) and its open streams."""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field

from cursedbottle.bots import Bot


class SeatKind(enum.Enum):
    """Who holds a seat (the values are what the database keeps)."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class State(enum.Enum):
    """Where a table's game is (the values are what the database keeps)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class Seat:
    number: int
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    token: str | None = None
    #: sha256 of the token: what the database keeps (a restored seat knows only this).
    token_hash: str | None = None
    bot_name: str = ""
    bot: Bot | None = None
    #: Open Subscribe streams of the seat's token.
    streams: int = 0
    #: A bot playing for an absent human (or for an empty seat once the game runs).
    stand_in: Bot | None = None
    #: The hand from which the holder plays and sees the seat (0: from the start).  A
    #: seat taken during a hand is the holder's from the next one: its hidden cards of
    #: the hand under way were someone else's (a bot's, or a person's who left).
    from_hand: int = 0

    def waits(self, hand_number: int) -> bool:
        """Whether the seat's holder is still waiting for the hand that makes it theirs."""
        return hand_number < self.from_hand

    def player(self) -> Bot | None:
        """The bot that moves for this seat now, if any."""
        return self.bot if self.kind is SeatKind.BOT else self.stand_in


@dataclass(eq=False)
class Subscriber:
    """One open stream: a seat's (player) or a spectator's (None)."""

    player: int | None
    token: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: str | None = None

    def close(self, reason: str) -> None:
        if self.closed is None:
            self.closed = reason
        self.wake.set()
