"""The waiting room: who sits where before the game, and the keys that change it.

It lies over the table screen while the table waits, reads the table as that
screen's stream tells it (TableInfo), and goes when the game starts.  Anyone
seated may put a bot in one chosen seat (of a chosen level), take it out, fill
every open seat, and start — the server lets every seat token of the table do
that; the stand-ins are the host's (the host token).  The game starts only when
someone says so (Enter or s), never by itself.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

import grpc
from cursedbottle.v1 import table_pb2
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from .literal import plain, plain_cells
from .lobby import rules_text
from .log_lines import shown_name
from .new_table import BOTS, STAND_IN_DELAYS, bot_label, delay_text
from .refusals import refusal
from .table import TableScreen
from .teardown import taken_down

#: How long a word on a key stands before the cue comes back.
MESSAGE_SECONDS = 6.0
EMPTY, HUMAN, BOT = (table_pb2.SEAT_KIND_EMPTY, table_pb2.SEAT_KIND_HUMAN,
                     table_pb2.SEAT_KIND_BOT)


def people_seats(info: table_pb2.TableInfo | None) -> list[table_pb2.SeatInfo]:
    """The seats people or bots take (Lopaka's is his own)."""
    if info is None:
        return []
    return [s for s in info.seats if s.kind != table_pb2.SEAT_KIND_LOPAKA]


def who_text(tr, seat: table_pb2.SeatInfo, me: int | None) -> str:
    """A seat in the room's list: the person (you, away, a stand-in for them), a bot, or
    open."""
    if seat.kind == EMPTY:
        return tr("seat_empty")
    if seat.kind == BOT:
        return shown_name(tr, seat.name)
    text = seat.name + (f" ({tr('you')})" if seat.seat == me else "")
    if seat.stand_in:
        return text + " · " + tr("r_stand_in")
    if not seat.connected:
        return text + " · " + tr("r_away")
    return text


class WaitingScreen(Screen):
    """The table before its game: seats, bots, stand-ins, start."""

    BINDINGS: ClassVar[list] = [
        Binding("b", "bot", "Bot here"),
        Binding("l", "level", "Level"),
        Binding("x,delete", "remove", "Remove the bot"),
        Binding("f", "fill", "Fill"),
        Binding("s", "start", "Start"),
        Binding("a", "stand_ins", "Stand-ins"),
        Binding("escape,q", "leave", "Leave"),
        Binding("question_mark", "app.rules", "Rules"),
    ]
    CSS_PATH = "app.tcss"

    def __init__(self, table: TableScreen) -> None:
        super().__init__()
        self.table = table
        self.tr = table.tr
        self.level = "heuristic"
        self.message: Text | str = ""
        self._message_until = 0.0
        #: The cue's style while the message stands ("yellow" after Enter with seats
        #: open: the cue itself, kept true as the seats change, is the answer).
        self._cue_style = ""
        #: The calls go one after the other, in the order of the keys.
        self._calls = asyncio.Lock()
        #: The table as the host's last SetStandIns answered (fresher than the stream).
        self._stand_ins: table_pb2.TableInfo | None = None

    @property
    def info(self) -> table_pb2.TableInfo | None:
        return self.table.model.info

    def compose(self) -> ComposeResult:
        yield Static(id="roomtitle", markup=False)
        yield DataTable(id="roomseats", cursor_type="row")
        yield Static(id="roomsettings", markup=False)
        yield Static(id="roommsg", markup=False)
        yield Static(id="roomkeys", markup=False)

    def on_mount(self) -> None:
        tr = self.tr
        self.query_one(DataTable).add_columns(tr("r_col_seat"), tr("r_col_who"))
        self.watch(self.table, "model", self._table_changed)

    def _table_changed(self, _model=None) -> None:
        info = self.info
        if info is not None and info.state != table_pb2.TABLE_STATE_WAITING:
            if self.app.screen is self:
                self.dismiss()
            return
        self._draw()

    # ---------------------------------------------------------------- drawing

    def _draw(self) -> None:
        if taken_down(self, "#roomtitle"):  # an answer to a key after the room went
            return
        tr, info = self.tr, self.info
        me = self.table.seat.seat if self.table.seat is not None else None
        title = tr("title") if info is None else tr(
            "r_title", name=info.name, rules=rules_text(tr, info.rules))
        self.query_one("#roomtitle", Static).update(plain(title))
        grid = self.query_one(DataTable)
        row = grid.cursor_row
        grid.clear()
        seats = people_seats(info)
        for seat in seats:
            grid.add_row(*plain_cells(tr("f_seat", n=seat.seat + 1), who_text(tr, seat, me)))
        if seats:
            grid.move_cursor(row=min(row or 0, len(seats) - 1))
        settings = [tr("r_level", bot=bot_label(tr, self.level))]
        if info is not None:
            stand_in = delay_text(tr, info.stand_in_after_seconds)
            if info.stand_in_after_seconds > 0 and info.stand_in_bot:
                stand_in += f" ({bot_label(tr, info.stand_in_bot)})"
            settings.append(tr("r_stand_ins", what=stand_in))
        self.query_one("#roomsettings", Static).update(plain("\n".join(settings)))
        fresh = time.monotonic() < self._message_until
        cue = plain(self._cue(seats), self._cue_style if fresh else "")
        self.query_one("#roommsg", Static).update(self.message if fresh and self.message
                                                  else cue)
        self.query_one("#roomkeys", Static).update(plain(self._keys()))

    def _keys(self) -> str:
        """The keys line (the seats screen, over a game, has its own)."""
        tr = self.tr
        keys = tr("r_keys") if self._token() else tr("r_keys_watch")
        return keys + "\n" + tr("r_keys_host") if self._host() else keys

    def _cue(self, seats: list[table_pb2.SeatInfo]) -> str:
        open_seats = [self.tr("r_seat", n=s.seat + 1) for s in seats if s.kind == EMPTY]
        if not seats:
            return self.tr("connecting", target=self.table.session.target)
        if open_seats:
            return self.tr("r_waiting", seats=", ".join(open_seats))
        return self.tr("r_full")

    def _say(self, message: Text | str, cue_style: str = "") -> None:
        """A word on what a key did (a refusal, a hint; or, with no word, the cue in
        `cue_style`): it stands a few seconds, then the cue comes back."""
        self.message, self._cue_style = message, cue_style
        self._message_until = time.monotonic() + MESSAGE_SECONDS
        self.set_timer(MESSAGE_SECONDS, self._draw)
        self._draw()

    # ------------------------------------------------------------------ acting

    def _token(self) -> str:
        seat = self.table.seat
        return "" if seat is None else seat.host_token or seat.token

    def _host(self) -> bool:
        return self.table.seat is not None and bool(self.table.seat.host_token)

    def _chosen(self) -> table_pb2.SeatInfo | None:
        seats = people_seats(self.info)
        row = self.query_one(DataTable).cursor_row
        return seats[row] if seats and row is not None and 0 <= row < len(seats) else None

    def _call(self, make) -> None:
        """A call to the server, after those of earlier keys; a refusal is said in red."""
        if not self._token():
            return
        self.message = ""
        self._run(make)

    @work(group="room")
    async def _run(self, make) -> None:
        async with self._calls:
            try:
                await make()
            except grpc.aio.AioRpcError as exc:
                self._say(Text(self.tr("refused", msg=refusal(self.tr, exc)), style="red"))

    def action_level(self) -> None:
        self.level = BOTS[(BOTS.index(self.level) + 1) % len(BOTS)]
        self._say("")

    def action_bot(self) -> None:
        seat = self._chosen()
        if seat is None or seat.kind == HUMAN:
            self._say(self.tr("r_not_open"))
            return
        session, table_id, token = self.table.session, self.table.seat.table_id, self._token()

        async def put() -> None:
            if seat.kind == BOT:  # another level: out, then in
                await session.remove_bot(table_id, token, seat.seat)
            await session.add_bot(table_id, token, seat.seat, self.level)

        self._call(put)

    def action_remove(self) -> None:
        seat = self._chosen()
        if seat is None or seat.kind != BOT:
            self._say(self.tr("r_not_bot"))
            return
        session, table_id, token = self.table.session, self.table.seat.table_id, self._token()
        self._call(lambda: session.remove_bot(table_id, token, seat.seat))

    def action_fill(self) -> None:
        session, table_id, token = self.table.session, self.table.seat.table_id, self._token()
        empty = [s.seat for s in people_seats(self.info) if s.kind == EMPTY]

        async def fill() -> None:
            for number in empty:
                await session.add_bot(table_id, token, number, self.level)

        self._call(fill)

    @on(DataTable.RowSelected)
    def _enter(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        open_seats = [s for s in people_seats(self.info) if s.kind == EMPTY]
        if open_seats or self.info is None:
            self._say("", cue_style="yellow")
            return
        self._call(lambda: self.table.session.start(self.table.seat))

    def action_stand_ins(self) -> None:
        """The host steps through the delays (the last: never)."""
        if not self._host() or self.info is None:
            self._say(self.tr("r_host_only"))
            return
        seat = self.table.seat

        async def step() -> None:
            now = (self._stand_ins or self.info).stand_in_after_seconds
            later = [d for d in STAND_IN_DELAYS if d > now]
            after = later[0] if later and now > 0 else (0 if now > 0 else STAND_IN_DELAYS[0])
            self._stand_ins = await self.table.session.set_stand_ins(
                seat.table_id, seat.host_token, after)

        self._call(step)

    def action_leave(self) -> None:
        self.app.leave_table()
