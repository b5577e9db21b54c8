"""The Textual app: connect, lobby, create a table, then the table screen.

`cursed-bottle play` starts it on a quick game (a table is made, bots fill the
other seats, the game starts); `cursed-bottle join HOST` starts it in the
lobby of a LAN server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import grpc
from cursedbottle.v1 import game_pb2, table_pb2
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from .i18n import Tr
from .literal import plain, plain_cells
from .model import TableModel
from .net import RETRYABLE, Seat, Session, error_text
from .review import HistoryScreen
from .store import SavedSeat, SeatStore
from .table import RulesScreen, TableScreen

BOTS = ("strong", "heuristic", "rule", "random")


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
    BINDINGS: ClassVar[list] = [Binding("question_mark", "rules", "Rules", show=False)]

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
        self.title = self.tr("title")

    def on_mount(self) -> None:
        if self.offline_model is not None:
            self.push_screen(TableScreen(self.offline_model, None, None, self.hint_budget_ms))
            return
        self.push_screen(Connecting(self.tr("connecting", target=self.target),
                                    self.tr("quit_hint")))
        self.connect()

    @work(exclusive=True, group="connect")
    async def connect(self) -> None:
        self.session = Session(self.target)
        try:
            await self.session.ready(timeout=20)
        except TimeoutError:
            self.screen.query_one("#connecting", Static).update(
                Text(self.tr("cannot_connect", target=self.target, msg="timeout"), style="red")
            )
            return
        try:
            if self.quick is not None:
                await self.start_quick(self.quick)
            elif self.table_id:
                await self.sit_down(self.table_id, watch=self.watch_only)
            else:
                self.switch_screen(LobbyScreen(self.session, self.tr, seats=self.seats))
        except grpc.aio.AioRpcError as exc:
            self.screen.query_one("#connecting", Static).update(
                Text(self.tr("cannot_connect", target=self.target, msg=error_text(exc)),
                     style="red")
            )

    async def start_quick(self, quick: QuickGame, table_name: str | None = None,
                          replace: bool = True) -> None:
        """Make the table, sit down (or only watch), fill the seats with bots, start."""
        kw = {} if quick.seed is None else {"seed": quick.seed}
        name = table_name or f"{quick.name}'s table"
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

    def open_table(self, seat: Seat, replace: bool = False) -> None:
        self.remember(seat)
        model = TableModel(seat.seat, self.tr)
        screen = TableScreen(model, self.session, seat, self.hint_budget_ms, speed=self.speed,
                             tutor=self.tutor, tutor_threshold=self.tutor_threshold)
        if seat.resumed:
            screen.note = self.tr("resumed", seat=seat.seat)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(self.tr))

    @work
    async def action_quit(self) -> None:
        """Quitting a LAN game mid-way asks what becomes of the seat: kept (the token is
        saved, `join` sits you down again, a stand-in bot may play meanwhile) or given
        up (it waits empty for someone to join or a bot). Esc stays."""
        playing = [
            s for s in self.screen_stack if isinstance(s, TableScreen) and s.in_progress()
        ]
        if self.session is not None and self.leave_on_quit and playing:
            if isinstance(self.screen, QuitScreen):
                return
            choice = await self.push_screen_wait(QuitScreen(self.tr))
            if choice is None:
                return
            if choice == "leave":
                for screen in playing:
                    if await screen.leave():
                        self.forget(screen.seat)
        self.exit()

    async def on_unmount(self) -> None:
        if self.session is not None:
            await self.session.close()


class QuitScreen(ModalScreen[str | None]):
    """Quit a game in progress: keep the seat for later, or give it up."""

    BINDINGS: ClassVar[list] = [
        Binding("k,b", "dismiss('keep')", "Keep the seat"),
        Binding("l,a", "dismiss('leave')", "Give it up"),
        Binding("escape,q", "dismiss(None)", "Stay"),
    ]
    CSS_PATH = "app.tcss"

    def __init__(self, tr: Tr) -> None:
        super().__init__()
        self.tr = tr

    def compose(self) -> ComposeResult:
        tr = self.tr
        yield Static(Text.assemble((tr("quit_title") + "\n", "bold yellow"), tr("quit_keys")),
                     id="quitbox")


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

    @work(exclusive=True, group="lobby")
    async def action_refresh(self) -> None:
        try:
            self.tables = await self.session.list_tables()
        except grpc.aio.AioRpcError as exc:
            self.query_one("#lobbymsg", Static).update(plain(error_text(exc)))
            return
        tr = self.tr
        table = self.query_one(DataTable)
        row = table.cursor_row
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
                tr("seat_empty") if s.kind == table_pb2.SEAT_KIND_EMPTY else s.name
                for s in info.seats if s.kind != table_pb2.SEAT_KIND_LOPAKA
            )
            name = info.name or info.table_id
            if info.table_id in self.held:
                name = f"★ {name}"
            table.add_row(*plain_cells(name, rules_text(tr, info.rules),
                                       states.get(info.state, "?"), seats), key=info.table_id)
        if self.tables and row:
            table.move_cursor(row=min(row, len(self.tables) - 1))
        msg = tr("lobby_keys") if self.tables else tr("no_tables")
        if any(info.table_id in self.held for info in self.tables):
            msg += "\n" + tr("lobby_held")
        self.query_one("#lobbymsg", Static).update(plain(msg))

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

    @work(group="enter")
    async def _enter(self, table_id: str, watch: bool) -> None:
        try:
            await self.app.sit_down(table_id, watch=watch, replace=False)
        except grpc.aio.AioRpcError as exc:
            self.query_one("#lobbymsg", Static).update(
                Text(self.tr("refused", msg=error_text(exc)), style="red")
            )

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

    def _created(self, choice: dict | None) -> None:
        if choice is not None:
            self._create(choice)

    @work(group="create")
    async def _create(self, choice: dict) -> None:
        app = self.app
        try:
            if choice["bots"]:
                quick = QuickGame(choice["rules"], choice["bots"], app.player_name,
                                  watch=choice["watch"])
                await app.start_quick(quick, table_name=choice["name"], replace=False)
                return
            made = await self.session.create(choice["name"], choice["rules"])
            seat = await self.session.join(made.table.table_id, app.player_name)
            seat.host_token = made.host_token
            app.open_table(seat)
        except grpc.aio.AioRpcError as exc:
            self.query_one("#lobbymsg", Static).update(
                Text(self.tr("refused", msg=error_text(exc)), style="red")
            )


#: Players per game, and the default count.
PLAYERS = {"cursed": ((2, 3, 4), 3), "imp": ((2, 3, 4, 5, 6), 4)}


def player_options(tr: Tr, game: str) -> list[tuple[str, int]]:
    """The player counts of a game for the form; two Bottle Imp players play Devil's
    Eye, which the label says (it is a game of its own, with two hands each)."""
    counts, _default = PLAYERS[game]
    return [(tr("p_devils_eye") if game == "imp" and n == 2 else str(n), n) for n in counts]


class CreateScreen(ModalScreen[dict | None]):
    """A new table: the game, player count, variant or teams, how the game ends, bots,
    play or watch.  The Cursed Bottle's variants are not offered for the Bottle Imp;
    a combination the server refuses (teams for three) is refused with its message."""

    BINDINGS: ClassVar[list] = [Binding("escape", "dismiss(None)", "Cancel")]
    CSS_PATH = "app.tcss"

    def __init__(self, tr: Tr, name: str) -> None:
        super().__init__()
        self.tr = tr
        self.player_name = name

    def compose(self) -> ComposeResult:
        tr = self.tr

        def row(label: str, widget, row_id: str | None = None) -> Horizontal:
            return Horizontal(Label(label), widget, id=row_id)

        with VerticalScroll(id="form"):
            yield row(tr("f_name"), Input(f"{self.player_name}'s table", id="name", compact=True))
            yield row(tr("f_game"), Select(
                [(tr("g_cursed"), "cursed"), (tr("g_imp"), "imp")],
                value="cursed", allow_blank=False, compact=True, id="game"))
            yield row(tr("f_players"), Select([(str(n), n) for n in (2, 3, 4)], value=3,
                                              allow_blank=False, compact=True, id="players"))
            yield row(tr("f_variant"), Select(
                [(tr("v_plain"), "plain"), (tr("v_hot"), "hot"), (tr("v_bright"), "bright")],
                value="plain", allow_blank=False, compact=True, id="variant"), "variantrow")
            teams = row(tr("f_teams"), Select(
                [(tr("t_off"), "off"), (tr("t_on"), "on"), (tr("t_singles"), "singles")],
                value="off", allow_blank=False, compact=True, id="teams"), "teamsrow")
            teams.add_class("hidden")
            yield teams
            bottles = row(tr("f_bottles"), Select(
                [(tr("bo_one"), "one"), (tr("bo_two"), "two")],
                value="one", allow_blank=False, compact=True, id="bottles"), "bottlesrow")
            bottles.add_class("hidden")
            yield bottles
            yield row(tr("f_end"), Select(
                [(tr("e_target"), "target"), (tr("e_hands"), "hands")],
                value="target", allow_blank=False, compact=True, id="end"))
            yield row(tr("f_value"), Input("100", id="value", type="integer", compact=True),
                      "valuerow")
            yield row(tr("f_bots"), Select(
                [(tr("b_none"), "")] + [(b, b) for b in BOTS],
                value="heuristic", allow_blank=False, compact=True, id="bots"))
            yield row(tr("f_who"), Select(
                [(tr("w_play"), "play"), (tr("w_watch"), "watch")],
                value="play", allow_blank=False, compact=True, id="who"))
            yield Static(id="formmsg", markup=False)
            yield Horizontal(Button(tr("b_create"), variant="primary", id="ok", compact=True),
                             Button(tr("b_cancel"), id="cancel", compact=True), id="buttons")

    def on_mount(self) -> None:
        self.query_one("#form").border_title = self.tr("create")
        self.query_one("#name", Input).focus()  # Tab then walks the choices in order

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        """The Bottle Imp seats 2–6 (two: Devil's Eye) and has teams; the Cursed Bottle 2–4
        and its variants."""
        tr = self.tr
        imp = event.value == "imp"
        players = self.query_one("#players", Select)
        game = "imp" if imp else "cursed"
        counts, default = PLAYERS[game]
        keep = players.value if players.value in counts else default
        players.set_options(player_options(tr, game))
        players.value = keep
        self.query_one("#variantrow").set_class(imp, "hidden")
        self.query_one("#teamsrow").set_class(not imp, "hidden")
        self.query_one("#bottlesrow").set_class(not imp, "hidden")
        end = self.query_one("#end", Select)
        if imp:
            end.set_options([(tr("e_default"), "default"), (tr("e_hands"), "hands"),
                             (tr("e_target"), "target")])
            end.value = "default"
        else:
            end.set_options([(tr("e_target"), "target"), (tr("e_hands"), "hands")])
            end.value = "target"
        self.query_one("#formmsg", Static).update("")

    @on(Select.Changed, "#end")
    def _end_changed(self, event: Select.Changed) -> None:
        """"Each player deals twice" needs no number."""
        self.query_one("#valuerow").set_class(event.value == "default", "hidden")
        value = self.query_one("#value", Input)
        if event.value == "hands" and value.value == "100":
            value.value = str(2 * int(self.query_one("#players", Select).value or 3))
        elif event.value == "target" and not value.value:
            value.value = "100"

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def _ok(self) -> None:
        imp = self.query_one("#game", Select).value == "imp"
        players = self.query_one("#players", Select).value
        variant = "plain" if imp else self.query_one("#variant", Select).value
        team_mode = self.query_one("#teams", Select).value if imp else "off"
        teams, singles = team_mode in ("on", "singles"), team_mode == "singles"
        second = imp and self.query_one("#bottles", Select).value == "two"
        end = self.query_one("#end", Select).value
        value = 1
        if end != "default":
            try:
                value = int(self.query_one("#value", Input).value)
            except ValueError:
                value = 0
        if value <= 0:
            self.query_one("#formmsg", Static).update(self.tr("f_value") + ": > 0")
            return
        rules = game_pb2.Rules(players=2 if variant == "bright" else players,
                               hot_bottle=variant == "hot", bright_house=variant == "bright",
                               teams=teams, second_bottle=second, singles=singles)
        if imp:
            rules.game = game_pb2.GAME_BOTTLE_IMP
        if end == "hands":
            rules.hands = value
        elif end == "target":
            rules.target = value
        bots = self.query_one("#bots", Select).value
        watch = self.query_one("#who", Select).value == "watch"
        self.dismiss({
            "name": self.query_one("#name", Input).value[:40] or "table",
            "rules": rules,
            "bots": bots or ("random" if watch else ""),
            "watch": watch,
        })
