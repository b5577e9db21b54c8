"""The table's tutor: `t` turns it on; then a card is weighed by the server's hint
before it is sent, and one that loses more than the threshold asks "are you sure?".
Mixed into the table screen, which owns the state (`tutor`, `_tutoring`, the hint)."""

from __future__ import annotations

import grpc
from cursedbottle.v1 import game_pb2
from textual import work

from .popups import TutorScreen
from .tutor import tutor_loss, warning


class Tutoring:
    """The tutor's keys and its worker, for the table screen."""

    def action_tutor(self) -> None:
        """t: the tutor on or off (it asks before a card that loses more than the threshold)."""
        if self.model.me is None or self.session is None:
            return
        self.tutor = not self.tutor
        self.message = ""
        self.note = (self.tr("tutor_on", points=f"{self.tutor_threshold:g}") if self.tutor
                     else self.tr("tutor_off"))

    @work(group="tutor")
    async def _tutored_play(self, action: game_pb2.Action) -> None:
        """Ask the server for a hint first; play at once if the card is good enough,
        otherwise ask "are you sure?" (the card is not sent unless the answer is yes)."""
        self._tutoring = action
        self.message, self.note = "", self.tr("tutor_thinking")
        try:
            hint = self.hint  # a hint asked for this very turn (h) is as good as a new one
            if hint is None or tutor_loss(hint, action) is None:
                try:
                    hint = await self.session.hint(self.seat, self.hint_budget_ms)
                except grpc.aio.AioRpcError as exc:
                    self.note = ""
                    self.message = self.tr("tutor_failed", msg=self._refusal(exc))
                    return
            self.note = ""
            if not self.model.my_turn() or self.model.find_action(
                "play", action.play.card.code
            ) is None:
                return  # the turn moved on meanwhile (it cannot, but never send stale moves)
            self.hint = hint
            loss = warning(hint, action, self.tutor_threshold)
            if loss is None:
                await self._send([action])
                return
            sure = await self.app.push_screen_wait(TutorScreen(self.model, hint, action, loss))
            if sure and self.model.my_turn():
                await self._send([action])
        finally:
            self._tutoring = None

    def _drop_tutoring(self) -> None:
        """q while the tutor weighs a card: the card is not sent, and no "are you sure?"
        comes up over the question of quitting; staying, the player chooses again."""
        action = self._tutoring
        if action is None:
            return
        self.workers.cancel_group(self, "tutor")
        self._tutoring = None
        self.note = ""
        self.message = self.tr("tutor_dropped", card=self.tr.card(action.play.card))
