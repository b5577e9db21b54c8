"""The lobby: the server's tables, who sits where; join a seat, watch, or make a new one.

The cursor starts on a table where this client holds a seat (a saved token), so
that Enter after leaving or a restart sits you down again.
"""

from __future__ import annotations

import time
from typing import ClassVar

import grpc
from cursedbottle.v1 import game_pb2, table_pb2
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from .i18n import Tr
from .literal import plain, plain_cells
from .log_lines import shown_name
from .net import Session
from .new_table import CreateScreen, NewTable
from .refusals import refusal
from .review import HistoryScreen
from .store import SeatStore
from .teardown import taken_down

#: How long a refusal stays above the lobby's keys.
NOTICE_SECONDS = 10.0


def rules_text(tr: Tr, rules: game_pb2.Rules) -> str:
    """One line for the lobby: "3p, hot bottle, →100", "Bottle Imp, 5p, teams, 10×": the
    rules as chosen, and Lopaka, Devil's Eye and the end as the server fills them in."""
    imp = rules.game == game_pb2.GAME_BOTTLE_IMP
    parts = [tr("g_imp"), f"{rules.players}p"] if imp else [f"{rules.players}p"]
    if rules.teams:
        parts.append(tr("teams_short") + (" 2-2-1-1" if rules.singles else ""))
    if rules.second_bottle:
        parts.append(tr("two_bottles"))
    if rules.bright_house:
        parts.append(tr("v_bright").split(" (")[0])
    elif rules.devils_eye:
        parts.append(tr("g_devils_eye"))
    elif rules.lopaka:
        parts.append("Lopaka")
    if rules.hot_bottle:
        parts.append(tr("v_hot"))
    if rules.WhichOneof("end") == "hands":
        parts.append(f"{rules.hands}×")
    else:
        parts.append(f"→{rules.target}")
    return ", ".join(parts)


class LobbyScreen(Screen):
    """The server's tables: join a seat, watch, or make a new one."""

    BINDINGS: ClassVar[list] = [
        Binding("n", "new", "New table"),
        Binding("enter", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("h", "history", "History"),
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "app.rules", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]
    CSS_PATH = "app.tcss"

    def __init__(self, session: Session, tr: Tr, refresh_every: float = 3.0,
                 seats: SeatStore | None = None) -> None:
        super().__init__()
        self.session = session
        self.tr = tr
        self.refresh_every = refresh_every
        self.seats = seats
        self.tables: list[table_pb2.TableInfo] = []
        self.held: set[str] = set()
        #: The table the cursor is to go to at the next refresh (None: where it is).
        self.aim: str | None = None
        self._placed = False
        #: A refusal to show above the keys, and until when (time.monotonic).
        self.notice: tuple[Text, float] | None = None

    def compose(self) -> ComposeResult:
        yield Static(plain(self.tr("lobby", target=self.session.target)), id="lobbytitle",
                     markup=False)
        yield DataTable(id="tables", cursor_type="row")
        yield Static(self.tr("lobby_keys"), id="lobbymsg", markup=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        tr = self.tr
        table.add_columns(tr("col_name"), tr("col_rules"), tr("col_state"), tr("col_seats"))
        self.action_refresh()
        if self.refresh_every:
            self.set_interval(self.refresh_every, self.action_refresh)

    def on_screen_resume(self) -> None:
        """Back from a table: the list as it is now, the cursor on that table."""
        self.action_refresh()

    @work(exclusive=True, group="lobby")
    async def action_refresh(self) -> None:
        try:
            tables = await self.session.list_tables()
        except grpc.aio.AioRpcError as exc:
            if taken_down(self, "#lobbymsg"):
                return
            self.query_one("#lobbymsg", Static).update(plain(refusal(self.tr, exc)))
            return
        if taken_down(self, "#lobbymsg"):
            return
        self.tables = tables
        tr = self.tr
        table = self.query_one(DataTable)
        at = self._selected()
        table.clear()
        me = getattr(self.app, "player_name", "")
        self.held = self.seats.tables(self.session.target, me) if self.seats else set()
        states = {
            table_pb2.TABLE_STATE_WAITING: tr("state_waiting"),
            table_pb2.TABLE_STATE_PLAYING: tr("state_playing"),
            table_pb2.TABLE_STATE_FINISHED: tr("state_finished"),
        }
        for info in self.tables:
            seats = " ".join(
                tr("seat_empty") if s.kind == table_pb2.SEAT_KIND_EMPTY else shown_name(tr, s.name)
                for s in info.seats if s.kind != table_pb2.SEAT_KIND_LOPAKA
            )
            name = info.name or info.table_id
            if info.table_id in self.held:
                name = f"★ {name}"
            table.add_row(*plain_cells(name, rules_text(tr, info.rules),
                                       states.get(info.state, "?"), seats), key=info.table_id)
        ids = [info.table_id for info in self.tables]
        aim = self.aim or (at.table_id if at is not None and self._placed else None)
        if aim is None or aim not in ids:
            aim = next((i for i in ids if i in self.held), None)
        if aim in ids:
            table.move_cursor(row=ids.index(aim))
            self.aim = None
        self._placed = True
        self._message()

    def _message(self) -> None:
        """The keys (and what the star means), under a refusal of the last few seconds."""
        if taken_down(self, "#lobbymsg"):  # a refusal that came as the app quit
            return
        tr = self.tr
        msg = tr("lobby_keys") if self.tables else tr("no_tables")
        if any(info.table_id in self.held for info in self.tables):
            msg += "\n" + tr("lobby_held")
        shown = plain(msg)
        if self.notice is not None and time.monotonic() < self.notice[1]:
            shown = Text.assemble(self.notice[0], "\n", shown)
        self.query_one("#lobbymsg", Static).update(shown)

    def _selected(self) -> table_pb2.TableInfo | None:
        table = self.query_one(DataTable)
        if not self.tables or table.cursor_row is None:
            return None
        row = table.cursor_row
        return self.tables[row] if 0 <= row < len(self.tables) else None

    def action_join(self) -> None:
        info = self._selected()
        if info is not None:
            self._enter(info.table_id, watch=False)

    def action_watch(self) -> None:
        info = self._selected()
        if info is not None:
            self._enter(info.table_id, watch=True)

    @on(DataTable.RowSelected)
    def _row(self, _event: DataTable.RowSelected) -> None:
        self.action_join()

    def refused(self, exc: grpc.aio.AioRpcError) -> None:
        self.notice = (Text(self.tr("refused", msg=refusal(self.tr, exc)), style="red"),
                       time.monotonic() + NOTICE_SECONDS)
        self._message()

    @work(group="enter")
    async def _enter(self, table_id: str, watch: bool) -> None:
        try:
            await self.app.sit_down(table_id, watch=watch, replace=False)
        except grpc.aio.AioRpcError as exc:
            self.refused(exc)

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.session, self.tr, self._credentials))

    def _credentials(self, table_id: str) -> tuple[str, str]:
        """(password, token) for a table's hands: a saved seat's token opens it."""
        me = getattr(self.app, "player_name", "")
        saved = self.seats.get(self.session.target, table_id, me) if self.seats else None
        password = getattr(self.app, "password", "")
        if saved is None:
            return password, ""
        return saved.password or password, saved.token

    def action_new(self) -> None:
        self.app.push_screen(CreateScreen(self.tr, self.app.player_name), self._created)

    def _created(self, choice: NewTable | None) -> None:
        if choice is not None:
            self._create(choice)

    @work(group="create")
    async def _create(self, choice: NewTable) -> None:
        try:
            await self.app.make_table(choice)
        except grpc.aio.AioRpcError as exc:
            self.refused(exc)
