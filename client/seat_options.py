"""The seats during a game (key o at a LAN table): who is away, who stands in, and the
host's choices — how soon a stand-in bot plays for an absent person, or giving an
absent person's seat to a bot for good.
"""

from __future__ import annotations

from typing import ClassVar

from cursedbottle.v1 import table_pb2
from textual.binding import Binding

from .waiting import HUMAN, WaitingScreen, people_seats


class SeatsScreen(WaitingScreen, inherit_bindings=False):
    """The waiting room's list and calls, with the keys that make sense in a game."""

    BINDINGS: ClassVar[list] = [
        Binding("l", "level", "Level"),
        Binding("a", "stand_ins", "Stand-ins"),
        Binding("r", "replace", "Replace"),
        Binding("escape,q,o", "close", "Close"),
    ]

    def _table_changed(self, _model=None) -> None:
        info = self.info
        if info is not None and info.state == table_pb2.TABLE_STATE_FINISHED:
            if self.app.screen is self:
                self.dismiss()
            return
        self._draw()

    def _cue(self, seats: list[table_pb2.SeatInfo]) -> str:
        away = [s for s in seats if s.kind == HUMAN and not s.connected]
        if not away:
            return self.tr("o_all_here")
        return self.tr("o_away", names=", ".join(s.name for s in away))

    def _keys(self) -> str:
        return self.tr("o_keys_host") if self._host() else self.tr("o_keys")

    def action_replace(self) -> None:
        seat = self._chosen()
        if not self._host():
            self._say(self.tr("r_host_only"))
            return
        if seat is None or seat.kind != HUMAN or seat.connected:
            self._say(self.tr("o_not_away"))
            return
        session, table_id = self.table.session, self.table.seat.table_id
        token = self.table.seat.host_token
        self._call(lambda: session.add_bot(table_id, token, seat.seat, self.level, replace=True))

    def action_start(self) -> None:
        """(The game has started.)"""

    def action_close(self) -> None:
        self.dismiss()


__all__ = ["SeatsScreen", "people_seats"]
