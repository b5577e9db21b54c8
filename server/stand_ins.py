"""Stand-ins: bots that play a seat for a person who is away or not yet in.

A human seat whose streams have all closed gets a stand-in after the table's
`stand_in_after` seconds (0: never), and a seat taken during a hand gets one
at once for the rest of that hand (its cards were someone else's).  A
stand-in is made from the table's seed and the seat, so it plays the same
way in every process.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from cursedbottle.bots import Bot, make_bot
from cursedbottle.bots.seeds import stable_seed

from .seats import Seat, SeatKind

log = logging.getLogger("cursedbottle.server")


def bot_seed(table_seed: str, role: str, seat: int) -> int:
    """The seed of a seat's bot (`role`: "bot" or "stand-in") from the table's seed,
    as the server has always made it (so a stored table's bots play on the same)."""
    return stable_seed(table_seed, role, seat, width=4, byteorder="big")


class StandIns:
    """A table's stand-in bots and the timers that call them in."""

    def __init__(
        self,
        table_id: str,
        seed: str,
        bot: str,
        after: float,
        playing: Callable[[], bool],
        arrive: Callable[[Seat], None],
    ) -> None:
        self.table_id = table_id
        self.seed = seed
        #: The bot that stands in (a name `make_bot` knows).
        self.bot = bot
        #: Seconds a person may be away before a bot stands in (0: never).
        self.after = after
        self._playing = playing
        self._arrive = arrive
        self._timers: dict[int, asyncio.Task] = {}

    def make(self, seat: Seat) -> Bot:
        """The seat's stand-in (the same bot every time, from the seed)."""
        return make_bot(self.bot, seed=bot_seed(self.seed, "stand-in", seat.number))

    def watch(self, seat: Seat) -> None:
        """A human seat without a stream gets a stand-in after a while (if enabled)."""
        if self.after <= 0 or seat.streams > 0 or not self._playing():
            return
        if seat.number in self._timers:
            return
        self._timers[seat.number] = asyncio.create_task(self._later(seat))

    async def _later(self, seat: Seat) -> None:
        try:
            await asyncio.sleep(self.after)
        finally:
            self._timers.pop(seat.number, None)
        if seat.kind is SeatKind.HUMAN and seat.streams == 0 and self._playing():
            log.info("table %s: %s is away; a bot stands in", self.table_id, seat.name)
            self._arrive(seat)

    def configure(self, after: float, bot: str, absent: list[Seat]) -> None:
        """New settings from the host: the absent seats' waits start again under them
        (a stand-in already playing stays until its person is back)."""
        self.after, self.bot = after, bot
        for seat in absent:
            self.unwatch(seat)
            self.watch(seat)

    def unwatch(self, seat: Seat) -> None:
        """The seat's person is back: no stand-in is due."""
        task = self._timers.pop(seat.number, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        for task in list(self._timers.values()):
            task.cancel()
