"""Helpers for the client tests: a real server on 127.0.0.1 and a pilot that plays by keys.

The pilot looks at what the table screen asks (its prompt step) only to choose
which key to press; every move goes through the keyboard, as a person's would.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

from cursedbottle.client import CursedBottleApp, QuickGame
from cursedbottle.client.table import HandEndScreen, TableScreen
from cursedbottle.server import start_server
from cursedbottle.v1 import game_pb2

SIZE = (80, 24)


def run(coro, timeout: float = 120):
    """Run a test's coroutine, failing it (not hanging CI) after `timeout` seconds."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def first_hand_over(app: CursedBottleApp) -> Callable[[TableScreen], bool]:
    """The end of the first hand, its pop-up on screen (a tie at the top plays on)."""

    def done(screen: TableScreen) -> bool:
        return bool(screen.model.hand_results) and isinstance(app.screen, HandEndScreen)

    return done


@contextlib.asynccontextmanager
async def local_server(bot_delay: float = 0.0) -> AsyncIterator[str]:
    running = await start_server("127.0.0.1", 0, bot_delay=bot_delay, bot_workers=2)
    try:
        yield f"127.0.0.1:{running.port}"
    finally:
        await running.stop(grace=0.5)


def quick_app(target: str, rules: game_pb2.Rules, lang: str = "en", bots: str = "rule",
              seed: str = "pilot", hint_budget_ms: int = 200) -> CursedBottleApp:
    quick = QuickGame(rules, bots=bots, name="Ann", seed=seed)
    return CursedBottleApp(target, lang=lang, name="Ann", quick=quick,
                           hint_budget_ms=hint_budget_ms)


async def until(pilot, cond: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            app = pilot.app
            stack = " > ".join(type(s).__name__ for s in app.screen_stack)
            raise AssertionError(f"timed out waiting for the client; screens {stack}:\n"
                                 f"{screen_text(app)}")
        await pilot.pause(0.02)


async def refresh_when_bare(screen) -> None:
    """The screen's refresh run after its widgets are gone (as when the app quits
    while an answer is on its way): it must end without an error."""
    await screen.remove_children()
    worker = screen.action_refresh()
    await worker.wait()  # WorkerFailed, were it to look for its widgets
    assert worker.is_finished and worker.error is None


async def click(pilot, selector: str, timeout: float = 10.0) -> None:
    """Click a widget once the layout has settled, and fail if the click missed it.

    A change to a form (rows shown or hidden, a scroll bar coming and going) moves its
    buttons on the next refresh; a click aimed at the old place lands on something else,
    and the test then waited 30 s for a table that was never asked for."""
    widget = pilot.app.screen.query_one(selector)
    deadline = time.monotonic() + timeout
    last = None
    while widget.region != last or not widget.region:
        if time.monotonic() > deadline:
            raise AssertionError(f"{selector} never settled on screen: {widget.region}")
        last = widget.region
        await pilot.pause(0.05)
    assert await pilot.click(selector), f"the click missed {selector}: {screen_text(pilot.app)}"


async def new_table_form(pilot, app: CursedBottleApp, game: str | None = None):
    """From the lobby, `n`: (the lobby, the new-table form), `game` chosen in it."""
    from cursedbottle.client.app import CreateScreen, LobbyScreen

    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    lobby = app.screen
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, CreateScreen))
    form = app.screen
    if game is not None:
        form.query_one("#game").value = game
        await pilot.pause()
    return lobby, form


async def create_and_list(pilot, app: CursedBottleApp, lobby, form, game: int):
    """OK on the form: (the new table's screen once its rules arrived, the lobby's
    entry of the first table of `game`)."""
    await click(pilot, "#ok")
    await until(pilot, lambda: table_screen(app) is not None)
    screen = table_screen(app)
    await until(pilot, lambda: screen.model.rules is not None)
    lobby.action_refresh()
    await until(pilot, lambda: any(t.rules.game == game for t in lobby.tables))
    return screen, next(t for t in lobby.tables if t.rules.game == game)


def table_screen(app: CursedBottleApp) -> TableScreen | None:
    for screen in app.screen_stack:
        if isinstance(screen, TableScreen):
            return screen
    return None


async def play_by_keys(pilot, app: CursedBottleApp, done: Callable[[TableScreen], bool],
                       timeout: float = 60.0) -> list[str]:
    """Press keys like a person until `done`; returns the steps answered (for asserts)."""
    await until(pilot, lambda: table_screen(app) is not None, timeout)
    screen = table_screen(app)
    steps: list[str] = []
    deadline = time.monotonic() + timeout
    while not done(screen):
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not get there; steps so far {steps[-20:]}")
        if app.screen is not screen:  # a pop-up (end of hand): read it, go on
            await pilot.press("enter")
            await pilot.pause(0.02)
            continue
        step = screen._step()
        if step in ("pile", "pass", "play"):
            await pilot.press("right")
            await pilot.press("enter")
            steps.append(step)
        elif step == "confirm":
            await pilot.press("enter")
            steps.append(step)
        elif step == "open":
            await pilot.press("1")
            steps.append(step)
        await pilot.pause(0.03)
        await asyncio.sleep(0)
    return steps


def screen_text(app: CursedBottleApp) -> str:
    """The screen as plain text, as a person reads it (the top screen: a pop-up alone)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


# ------------------------------------------------------------- offline tables


def scripted_table(rules, seed: str = "snapshots", names=("Ann", "Bob", "Cleo", "Dan"),
                   until_event: Callable[[object], bool] | None = None,
                   choose: Callable[[int, list], object] | None = None):
    """A server table played by a fixed policy (first legal action of every seat), with no
    network and no clock: the same messages a seat would receive, for screenshots.

    Stops before the human seat 0 would act once `until_event(table)` holds."""
    from cursedbottle.server import wire
    from cursedbottle.server.runner import BotRunner
    from cursedbottle.server.table_msgs import turn_msg
    from cursedbottle.server.tables import Table

    runner = BotRunner(workers=1, hint_workers=1)
    table = Table("snap", "Ann's table", rules, runner, seed=seed, first_dealer=rules.players - 1)
    for i in range(rules.players):
        table.join(names[i], i)
    table.start()
    while not table.game.is_over:
        if until_event is not None and until_event(table):
            break
        for player in range(rules.players):
            turn = turn_msg(table, player)
            if player in turn.to_act and turn.legal_actions:
                legal = list(turn.legal_actions)
                chosen = (choose or (lambda p, acts: acts[0]))(player, legal)
                table.act(player, wire.action_from_msg(chosen, player, table.game))
                break
    runner.shutdown()
    return table


def model_of(table, lang: str = "en", me: int | None = 0):
    """The client's model fed exactly what seat `me` (None: a spectator) would receive."""
    from cursedbottle.client.i18n import Tr
    from cursedbottle.client.model import TableModel
    from cursedbottle.server.table_msgs import event_msgs, table_info, turn_msg
    from cursedbottle.v1 import table_pb2

    model = TableModel(me, Tr(lang))
    snap = table_pb2.Snapshot(sequence=0)
    snap.table.CopyFrom(table_info(table))
    for s in snap.table.seats:
        s.connected = True  # as if everyone's stream were open
    model.apply_update(table_pb2.TableUpdate(snapshot=snap))
    batch = table_pb2.EventBatch(events=list(event_msgs(table, me, 0, table.sequence)))
    batch.turn.CopyFrom(turn_msg(table, me))
    model.apply_update(table_pb2.TableUpdate(batch=batch))
    return model


class Proxy:
    """A TCP relay between the client and the server that can cut every connection and
    refuse new ones for a while: a dropped LAN link, as the client sees it."""

    def __init__(self, upstream: str) -> None:
        self.host, port = upstream.rsplit(":", 1)
        self.upstream_port = int(port)
        self.refusing = False
        self.links: list[asyncio.StreamWriter] = []
        self.server: asyncio.base_events.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        return f"127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _link(self, reader, writer) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_connection(self.host, self.upstream_port)
        self.links += [writer, up_writer]

        async def pipe(src, dst) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        self.refusing = True
        for writer in self.links:
            writer.transport.abort()
        self.links = []

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
