"""Names other people chose are shown as they are, never read as markup.

Rich and Textual read `[...]` in a plain string as markup: a table or player
named `[/x]` used to stop every client that drew it (MarkupError), and
`[reverse]ADMIN[/]` restyled other people's screens.  Here another client makes
such tables and plays under such a name over gRPC, and the real app (Pilot,
against a real server on 127.0.0.1) opens the lobby, plays the hand to its end,
opens the hand-end and game-over pop-ups, the review and the history, in both
languages, and every one of them shows the names with their brackets.
"""

from __future__ import annotations

import asyncio

import pytest
from client_support import SIZE, play_by_keys, run, screen_text, table_screen, until
from cursedbottle.client import CursedBottleApp
from cursedbottle.client.app import LobbyScreen
from cursedbottle.client.review import HistoryScreen, ReviewScreen
from cursedbottle.client.table import GameOverScreen, HandEndScreen
from cursedbottle.server.remote import RemoteSeat, random_policy
from cursedbottle.v1 import game_pb2, table_pb2
from test_server_support import serving

TABLE = "[/x]"  # an unopened closing tag: MarkupError
OTHER_TABLE = "[reverse]ADMIN[/]"  # markup that restyles
ME = "[/x]"
THEM = "[bold red]X[/]"

#: Words of each language on the pop-ups, to be sure the screen read is the one meant.
WORDS = {
    "en": {"hand_end": "Hand 1 is over", "game_over": "Game over", "history": "Finished hands"},
    "de": {"hand_end": "Runde 1 ist vorbei", "game_over": "Spielende",
           "history": "Beendete Runden"},
}


async def _tables(stub) -> tuple[str, str, RemoteSeat]:
    """Another person's tables: `[reverse]ADMIN[/]` waiting with THEM seated, and `[/x]`
    (three seats, one hand) with THEM and a bot seated and one seat free; THEM plays."""
    other = await stub.CreateTable(table_pb2.CreateTableRequest(
        name=OTHER_TABLE, rules=game_pb2.Rules(players=2, hands=1)))
    await stub.Join(table_pb2.JoinRequest(table_id=other.table.table_id, name=THEM))
    made = await stub.CreateTable(table_pb2.CreateTableRequest(
        name=TABLE, rules=game_pb2.Rules(players=3, hands=1), seed="names"))
    table_id = made.table.table_id
    joined = await stub.Join(table_pb2.JoinRequest(table_id=table_id, name=THEM))
    await stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=made.host_token,
                                              bot="rule"))
    them = RemoteSeat(stub, table_id, joined.token, joined.seat, random_policy(5))
    return table_id, made.host_token, them


def _literal(text: str, *names: str) -> None:
    for name in names:
        assert name in text, f"{name!r} not shown literally:\n{text}"


async def _open_review(pilot, app) -> str:
    await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
    review = app.screen
    await until(pilot, lambda: review.review is not None or review.error is not None, 60)
    assert review.error is None, review.error
    await pilot.pause()
    return screen_text(app)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_names_with_brackets_are_shown_literally_everywhere(lang):
    words = WORDS[lang]

    async def main():
        async with serving(bot_delay=0, bot_workers=2) as (running, stub):
            target = f"127.0.0.1:{running.port}"
            table_id, host_token, them = await _tables(stub)
            app = CursedBottleApp(target, lang=lang, name=ME, remember_seats=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                lobby = app.screen
                await until(pilot, lambda: len(lobby.tables) == 2)
                await pilot.pause()
                _literal(screen_text(app), TABLE, OTHER_TABLE, THEM)

                row = [t.table_id for t in lobby.tables].index(table_id)
                for _ in range(row):
                    await pilot.press("down")
                await pilot.press("enter")
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: screen.model.info is not None
                            and screen.model.me is not None)
                await pilot.pause()
                _literal(screen_text(app), TABLE, THEM)  # the status line, the seats

                playing = asyncio.create_task(them.play(from_sequence=0))
                await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host_token))
                await play_by_keys(pilot, app, lambda s: s.model.game_ended is not None
                                   and isinstance(app.screen, HandEndScreen))
                text = screen_text(app)
                _literal(text, words["hand_end"], ME, THEM)

                await pilot.press("r")
                _literal(await _open_review(pilot, app), TABLE, ME, THEM)
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, HandEndScreen))
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
                await pilot.pause()
                _literal(screen_text(app), words["game_over"], ME, THEM)
                await pilot.press("enter")
                await until(pilot, lambda: app.screen is screen)
                await pilot.pause()
                _literal(screen_text(app), THEM)  # the seats and the log, the hand over
                await asyncio.wait_for(playing, 30)

            # Someone else's client, later: the history lists the hand, and its review.
            app = CursedBottleApp(target, lang=lang, name="Zed", remember_seats=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
                history = app.screen
                await until(pilot, lambda: bool(history.hands))
                await pilot.pause()
                _literal(screen_text(app), words["history"], TABLE, ME, THEM)
                await pilot.press("enter")
                _literal(await _open_review(pilot, app), TABLE, ME, THEM)

    run(main(), timeout=90)

