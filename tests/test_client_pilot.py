"""The Textual client driven by keys against a real server on 127.0.0.1 with bots."""

from __future__ import annotations

import asyncio

from client_support import (
    SIZE,
    local_server,
    play_by_keys,
    quick_app,
    screen_text,
    table_screen,
    until,
)
from cursedbottle.client.table import GameOverScreen, HandEndScreen, HintScreen
from cursedbottle.v1 import game_pb2


def run(coro, timeout: float = 120):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def test_a_whole_hand_through_the_keyboard():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1))
            async with app.run_test(size=SIZE) as pilot:
                seen_end = []

                def done(screen):
                    if isinstance(app.screen, HandEndScreen):
                        seen_end.append(True)
                    return screen.model.game_ended is not None and isinstance(
                        app.screen, HandEndScreen | GameOverScreen
                    )

                steps = await play_by_keys(pilot, app, done)
                model = table_screen(app).model
                assert steps.count("pile") == 1
                assert steps.count("pass") == 2
                assert steps.count("confirm") == 1
                assert steps.count("play") == 11
                assert len(model.hand_results) == 1
                assert model.my_hands()[0][1] == []
                assert seen_end
                text = screen_text(app)
                assert "Hand 1 is over" in text or "Game over" in text, text

    run(main())


def test_the_table_at_80x24_while_playing():
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1))
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(
                    pilot, app, lambda s: s.model.tricks_played >= 2 and s._step() == "play"
                )
                print(screen_text(app))
                app.save_screenshot("/tmp/cb_table.svg")

    run(main())
