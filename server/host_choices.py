"""What only a table's host decides during its life: how soon a stand-in bot plays for
an absent person (SetStandIns), and giving an absent person's seat to a bot for good
(AddBot with `replace`).  A mixin of `Table` (server/tables.py), whose seats, store
and bots it changes the way the table's own methods do.
"""

from __future__ import annotations

import logging

from cursedbottle.bots import make_bot

from .errors import invalid, precondition, storage_failed
from .seats import SeatKind, State
from .stand_ins import bot_seed

log = logging.getLogger("cursedbottle.server")


class HostChoices:
    """The host's choices about absent people (see the module's docstring)."""

    def replace(self, number: int, name: str) -> int:
        """The host gives an absent person's seat to a bot for good: the person's
        token stops working (they may join another empty seat, or watch)."""
        if self.state is State.FINISHED:
            raise precondition("GAME_OVER", f"the game at table {self.table_id} is over")
        seat = self._seat(number, want_empty=False)
        if seat.kind is not SeatKind.HUMAN:
            raise precondition(
                "NOT_A_PERSON", f"seat {number} is not a person's: only a person's is replaced"
            )
        if seat.streams > 0:
            raise precondition(
                "PLAYER_PRESENT", f"{seat.name} is at the table: only an absent person's seat "
                "can be given to a bot"
            )
        try:
            bot = make_bot(name, seed=bot_seed(self.seed, "bot", seat.number))
        except ValueError as exc:
            raise invalid("UNKNOWN_BOT", f"bot: {exc}") from None
        self._save_seat(seat.number, SeatKind.BOT, f"{name} bot", bot=name)
        log.info("table %s: %s bot takes seat %d from %s", self.table_id, name, seat.number,
                 seat.name)
        if seat.token:
            self._on_token(seat.token, None)
        self.stand_ins.unwatch(seat)
        seat.kind, seat.bot, seat.bot_name = SeatKind.BOT, bot, name
        seat.name, seat.token, seat.token_hash, seat.from_hand = f"{name} bot", None, None, 0
        seat.stand_in = None
        self.bots.cancel(seat.number)
        self._changed()
        if self.game is not None:
            self.bots.drive()
        return seat.number

    def set_stand_ins(self, after: float, bot: str) -> None:
        """The host's stand-ins from now on: a bot (`bot`) plays for a person away for
        `after` seconds (0: never), until they are back."""
        if self.state is State.FINISHED:
            raise precondition("GAME_OVER", f"the game at table {self.table_id} is over")
        if self.store is not None:
            try:
                self.store.set_stand_ins(self.table_id, after, bot)
            except Exception as exc:
                raise storage_failed(exc) from None
        self.stand_in_after, self.stand_in_bot = after, bot
        absent = [s for s in self.seats
                  if s.kind is SeatKind.HUMAN and s.streams == 0 and s.stand_in is None]
        self.stand_ins.configure(after, bot, absent)
        log.info("table %s: stand-ins after %.0f s (%s)", self.table_id, after, bot)
        self._changed()
