"""The Textual app: connect, lobby, a table's waiting room, then the table screen.

`cursed-bottle play` starts it on a quick game (a table is made, bots fill the
other seats, the game starts; quitting asks first, then ends the program);
`cursed-bottle join HOST` starts it in the lobby of a LAN server, and leaving a
table there goes back to the lobby.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from typing import ClassVar

import grpc
from cursedbottle.v1 import game_pb2, table_pb2
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from .i18n import Tr
from .literal import plain
from .lobby import LobbyScreen, rules_text
from .log_lines import table_name_of
from .model import TableModel
from .net import RETRYABLE, Seat, Session, error_text
from .new_table import BOTS, PLAYERS, CreateScreen, NewTable, player_options
from .quitting import QuitScreen
from .refusals import refusal
from .seat_options import SeatsScreen
from .store import SavedSeat, SeatStore
from .table import RulesScreen, TableScreen
from .teardown import taken_down
from .waiting import WaitingScreen

#: How long the app waits for the server's channel before it says it cannot reach it.
CONNECT_SECONDS = 20.0

__all__ = ["BOTS", "PLAYERS", "Connecting", "CreateScreen", "CursedBottleApp", "LobbyScreen",
           "NewTable", "QuickGame", "QuitScreen", "player_options",
           "rules_text"]


@dataclass
class QuickGame:
    """What `cursed-bottle play` asks for: a table, you in seat 0, bots elsewhere."""

    rules: game_pb2.Rules
    bots: str = "strong"
    name: str = "You"
    seed: str | None = None
    watch: bool = False


class CursedBottleApp(App):
    """The client.  `model` (tests, screenshots) shows a table without any server."""

    TITLE = "Cursed Bottle"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list] = [
        Binding("question_mark", "rules", "Rules", show=False),
        Binding("o", "seats", "Seats", show=False),
    ]

    def __init__(self, target: str | None = None, lang: str = "en", name: str = "You",
                 quick: QuickGame | None = None, hint_budget_ms: int = 1000,
                 model: TableModel | None = None, table_id: str | None = None,
                 watch: bool = False, speed: float = 0.5, password: str = "",
                 leave_on_quit: bool = False, tutor: bool = False,
                 tutor_threshold: float = 2.0, seats: SeatStore | None = None,
                 remember_seats: bool = True) -> None:
        """`tutor`: ask before a card that loses more than `tutor_threshold` points by the
        server's hint.  `seats`: where seat tokens are kept to resume a seat later
        (default: the user's state directory); `remember_seats=False` keeps none (a local
        game whose server ends with the client)."""
        super().__init__()
        self.tr = Tr(lang)
        self.target = target
        self.player_name = name
        self.quick = quick
        self.hint_budget_ms = hint_budget_ms
        self.offline_model = model
        self.table_id = table_id
        self.watch_only = watch
        self.speed = speed
        self.password = password
        self.leave_on_quit = leave_on_quit
        self.tutor = tutor
        self.tutor_threshold = tutor_threshold
        self.seats = None if not remember_seats else seats if seats is not None else SeatStore()
        self.session: Session | None = None
        #: The last table this client made from the form (what "play again" makes anew).
        self.last_new: NewTable | None = None
        #: The table screens whose waiting room has been shown (once each).
        self._rooms: weakref.WeakSet[TableScreen] = weakref.WeakSet()
        self.title = self.tr("title")

    def on_mount(self) -> None:
        if self.offline_model is not None:
            self.push_screen(TableScreen(self.offline_model, None, None, self.hint_budget_ms))
            return
        connecting = Connecting(self.tr("connecting", target=self.target), self.tr("quit_hint"))
        self.push_screen(connecting)
        self.connect(connecting)

    @work(exclusive=True, group="connect")
    async def connect(self, connecting: Connecting) -> None:
        """Reach the server, then the lobby or the table; what fails is said on
        `connecting` (under the rules, if `?` opened them meanwhile)."""
        self.session = Session(self.target)
        try:
            await self.session.ready(timeout=CONNECT_SECONDS)
        except TimeoutError:
            connecting.say(self.tr("cannot_connect", target=self.target, msg="timeout"))
            return
        try:
            if self.quick is not None:
                await self.start_quick(self.quick)
            elif self.table_id:
                await self.sit_down(self.table_id, watch=self.watch_only)
            else:
                self.switch_screen(LobbyScreen(self.session, self.tr, seats=self.seats))
        except grpc.aio.AioRpcError as exc:  # a refusal (no such table) is not "Cannot reach"
            key = "cannot_connect" if exc.code() in RETRYABLE else "refused"
            # the server's refusal in the reader's words (the link's own in English)
            said = error_text(exc) if key != "refused" and self.tr.lang == "en" else refusal(
                self.tr, exc)
            connecting.say(self.tr(key, target=self.target, msg=said))

    async def start_quick(self, quick: QuickGame, table_name: str | None = None,
                          replace: bool = True) -> None:
        """Make the table, sit down (or only watch), fill the seats with bots, start."""
        kw = {} if quick.seed is None else {"seed": quick.seed}
        name = table_name or table_name_of(self.tr, quick.name)
        made = await self.session.create(name, quick.rules, **kw)
        table_id = made.table.table_id
        if quick.watch:
            seat = Seat(table_id, None, host_token=made.host_token)
        else:
            seat = await self.session.join(table_id, quick.name)
            seat.host_token = made.host_token
        await self.session.add_bots(table_id, made.host_token, quick.bots)
        await self.session.start(Seat(table_id, host_token=made.host_token))
        self.open_table(seat, replace=replace)

    async def sit_down(self, table_id: str, watch: bool = False, replace: bool = True) -> None:
        if watch:
            seat = Seat(table_id, None, password=self.password)
        else:
            seat = await self.saved_seat(table_id)
            if seat is None:
                seat = await self.session.join(table_id, self.player_name,
                                               password=self.password)
        self.open_table(seat, replace=replace)

    async def saved_seat(self, table_id: str) -> Seat | None:
        """The seat this client holds at the table (a token saved earlier), if the server
        still takes the token; a refused token is forgotten."""
        if self.seats is None:
            return None
        saved = self.seats.get(self.session.target, table_id, self.player_name)
        if saved is None:
            return None
        seat = Seat(table_id, saved.seat, saved.token, host_token=saved.host_token,
                    password=saved.password or self.password)
        try:
            await self.session.check_seat(seat)
        except TimeoutError:
            pass  # a slow server: the table screen's stream retries with the token
        except grpc.aio.AioRpcError as exc:
            if exc.code() in RETRYABLE:
                raise
            self.seats.drop(self.session.target, table_id, self.player_name)
            return None
        seat.resumed = True
        return seat

    def remember(self, seat: Seat) -> None:
        if self.seats is not None and seat.seat is not None and seat.token:
            self.seats.save(self.session.target, SavedSeat(
                seat.table_id, seat.seat, seat.token, seat.host_token, self.player_name,
                seat.password))

    def forget(self, seat: Seat) -> None:
        if self.seats is not None and self.session is not None:
            self.seats.drop(self.session.target, seat.table_id, self.player_name)

    async def make_table(self, new: NewTable) -> None:
        """A table from the form: made, you seated (seat 1) unless you watch, the chosen
        bots in their seats; it waits in the waiting room until someone starts it."""
        session = self.session
        made = await session.create(new.name, new.rules,
                                    stand_in_after_seconds=new.stand_in_after,
                                    stand_in_bot=new.stand_in_bot)
        table_id, host = made.table.table_id, made.host_token
        if new.watch:
            seat = Seat(table_id, None, host_token=host)
        else:
            seat = await session.join(table_id, self.player_name, seat=0)
            seat.host_token = host
        for number, bot in enumerate(new.seats):
            if bot and (new.watch or number > 0):
                await session.add_bot(table_id, host, number, bot)
        self.last_new = new
        self.open_table(seat)

    def open_table(self, seat: Seat, replace: bool = False) -> None:
        self.remember(seat)
        model = TableModel(seat.seat, self.tr)
        screen = TableScreen(model, self.session, seat, self.hint_budget_ms, speed=self.speed,
                             tutor=self.tutor, tutor_threshold=self.tutor_threshold)
        if seat.resumed:
            screen.note = self.tr("resumed", seat=seat.seat + 1)  # counted from 1
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        if self.quick is None:
            self.watch(screen, "model", lambda _m: self._room(screen), init=False)

    def _room(self, table: TableScreen) -> None:
        """A table that waits for its game shows the waiting room over it (once)."""
        info = table.model.info
        if (
            info is None or info.state != table_pb2.TABLE_STATE_WAITING or table.model.started
            or table not in self.screen_stack
            or table in self._rooms
        ):
            return
        self._rooms.add(table)
        self.push_screen(WaitingScreen(table))

    def _table(self) -> TableScreen | None:
        """The table screen on top of the stack (under its pop-ups), if any."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None

    def action_seats(self) -> None:
        """`o` at a LAN table: the seats, who is away, the host's stand-in choices."""
        table = self._table()
        if (table is not None and self.screen is table and table.session is not None
                and table.seat is not None and self.quick is None):
            self.push_screen(SeatsScreen(table))

    def back_to_lobby(self) -> None:
        """Leave the table's screens for the lobby, its cursor on that table (`play`,
        which has no lobby, ends)."""
        if self.quick is not None or self.session is None:
            self.exit()
            return
        table = self._table()
        aim = table.seat.table_id if table is not None and table.seat is not None else None
        while len(self.screen_stack) > 2 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()
        lobby = self.screen if isinstance(self.screen, LobbyScreen) else None
        if lobby is None:
            lobby = LobbyScreen(self.session, self.tr, seats=self.seats)
            self.switch_screen(lobby)
        lobby.aim = aim
        if lobby.is_mounted:
            lobby.action_refresh()

    def play_again(self) -> None:
        """A new game like the last: `play`'s quick game on a new deal, or at a LAN table
        made here the same table anew (it waits for its players); else the lobby."""
        if self.quick is not None:
            self._again(replace(self.quick, seed=None))
        elif self.last_new is not None:
            self.back_to_lobby()
            self._again(self.last_new)
        else:
            self.back_to_lobby()

    @work(group="again")
    async def _again(self, what: QuickGame | NewTable) -> None:
        try:
            if isinstance(what, QuickGame):
                await self.start_quick(what)
            else:
                await self.make_table(what)
        except grpc.aio.AioRpcError as exc:
            table = self._table()
            if table is not None:
                table.message = self.tr("refused", msg=refusal(self.tr, exc, table.model.name))
            elif isinstance(self.screen, LobbyScreen):
                self.screen.refused(exc)

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(self.tr))

    @work(group="quit")
    async def action_quit(self) -> None:
        """`q`: in the lobby (or before any table), and in `play`, the program ends (the
        table screen asked first if a game was under way); at a LAN table it is leaving
        the table for the lobby (`_leave`)."""
        if self.quick is None and self._table() is not None and self.session is not None:
            await self._leave()
            return
        self.exit()

    def leave_table(self) -> None:
        """Leave the LAN table for the lobby (the waiting room's q, the table's q)."""
        self.run_worker(self._leave(), group="quit", exclusive=True)

    async def _leave(self) -> None:
        """A seat in a game not over asks what becomes of it: kept (the token is saved,
        Enter on the starred table sits you down again, a stand-in bot may play
        meanwhile) or given up (it waits empty for someone to join or a bot). Esc
        stays; otherwise the lobby."""
        table = self._table()
        if table is None:
            return
        if table.in_progress() and self.leave_on_quit:
            if isinstance(self.screen, QuitScreen):
                return
            info = table.model.info
            after = None if info is None else info.stand_in_after_seconds
            choice = await self.push_screen_wait(QuitScreen(self.tr, after))
            if choice is None:
                return
            if choice == "leave" and await table.leave():
                self.forget(table.seat)
        self.back_to_lobby()

    async def on_unmount(self) -> None:
        if self.session is not None:
            await self.session.close()


class Connecting(Screen):
    """Shown while the channel comes up (and says so when it does not)."""

    BINDINGS: ClassVar[list] = [Binding("q", "app.quit", "Quit")]

    def __init__(self, text: str, keys: str = "q") -> None:
        super().__init__()
        self.text = text
        self.keys = keys

    def compose(self) -> ComposeResult:
        yield Static(plain(self.text), id="connecting", markup=False)
        yield Static(self.keys, id="connkeys", markup=False)

    def say(self, text: str) -> None:
        """Why the server cannot be reached, in red (nothing once the screen went)."""
        if not taken_down(self, "#connecting"):
            self.query_one("#connecting", Static).update(Text(text, style="red"))
