"""The app while it reaches the server: a server that never answers is said on
the "connecting" screen, whatever lies over it meanwhile (the rules, `?`)."""

from __future__ import annotations

import socket

import pytest
from client_support import SIZE, run, screen_text, until
from cursedbottle.client import CursedBottleApp
from cursedbottle.client import app as client_app
from cursedbottle.client.app import Connecting
from cursedbottle.client.table import RulesScreen


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_server_that_never_answers_is_said_under_the_rules(lang, monkeypatch):
    """The rules opened while the app waits: its "cannot reach" used to look for its
    line on the rules screen, fail its worker and end the program."""
    monkeypatch.setattr(client_app, "CONNECT_SECONDS", 1.0)

    async def main():
        with socket.socket() as sock:  # accepts connections (the kernel does), never answers
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            target = f"127.0.0.1:{sock.getsockname()[1]}"
            app = CursedBottleApp(target, lang=lang, name="Ann", remember_seats=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, Connecting))
                await pilot.press("question_mark")
                await until(pilot, lambda: isinstance(app.screen, RulesScreen))
                waiting = [w for w in app.workers if w.group == "connect"]
                assert waiting
                for worker in waiting:
                    await worker.wait()
                    assert worker.error is None
                assert app.is_running
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, Connecting))
                said = app.tr("cannot_connect", target=target, msg="timeout")
                await until(pilot, lambda: said in screen_text(app))

    run(main())
