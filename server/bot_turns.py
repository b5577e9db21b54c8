"""A table's bots at work: one task per seat whose bot (or stand-in) must act now.

A bot thinks in the runner's threads on a copy of its seat's view and hands
its action back to the event loop, where the table applies it as any other.
A bot that is removed, or replaced by the person coming back, is cancelled
(its search stops); a bot whose action the engine refuses tries again, and
after MAX_BOT_RETRIES plays the seat's first legal action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from cursedbottle.bots import Bot
from cursedbottle.engine.actions import Action
from cursedbottle.engine.game import Game

from .errors import ServiceError
from .runner import BotRunner
from .seats import Seat

log = logging.getLogger("cursedbottle.server")

MAX_BOT_RETRIES = 3


class BotTurns:
    """The thinking bots of one table (its seats, its game and how it applies an action)."""

    def __init__(
        self,
        table_id: str,
        runner: BotRunner,
        seats: list[Seat],
        game: Callable[[], Game | None],
        apply: Callable[[Action], None],
        creator: Callable[[], str],
    ) -> None:
        self.table_id = table_id
        self.runner = runner
        self.seats = seats
        self._game = game
        self._apply = apply
        self._creator = creator
        self._thinking: dict[int, asyncio.Task] = {}

    def drive(self) -> None:
        """Set every bot that must act now thinking (one task per seat)."""
        game = self._game()
        if game is None or game.is_over:
            return
        for hand_seat in game.to_act():
            player = game.player_at(hand_seat)
            if player is None or player in self._thinking:
                continue
            bot = self.seats[player].player()
            if bot is not None:
                self._thinking[player] = asyncio.create_task(self._moves(player, bot))

    async def _moves(self, player: int, bot: Bot) -> None:
        seat = self.seats[player]
        failures = 0
        try:
            while True:
                game = self._game()
                if game.is_over or seat.player() is not bot:
                    return
                if game.seat_of(player) not in game.to_act():
                    return
                if self.runner.delay:
                    await asyncio.sleep(self.runner.delay)
                    if seat.player() is not bot or game.seat_of(player) not in game.to_act():
                        return
                view = game.view(player)
                action = await self.runner.think(self.table_id, bot, view, self._creator())
                if seat.player() is not bot:
                    return
                try:
                    # Others acting meanwhile (simultaneous phases) cannot make a
                    # move of this seat illegal; if anything did, the engine says so.
                    self._apply(action)
                except ServiceError as exc:
                    failures += 1
                    log.warning("table %s: bot in seat %d: %s", self.table_id, player, exc)
                    if failures >= MAX_BOT_RETRIES:
                        self._apply(game.legal_actions(game.seat_of(player))[0])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot in seat %d failed", self.table_id, player)
        finally:
            if self._thinking.get(player) is asyncio.current_task():
                del self._thinking[player]

    def cancel(self, player: int) -> None:
        """The seat's bot stops thinking (it was removed, or its person is back)."""
        task = self._thinking.pop(player, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        for task in list(self._thinking.values()):
            task.cancel()
