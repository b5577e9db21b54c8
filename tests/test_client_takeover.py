"""The real client taking a seat during a game: it follows the hand under way as a
spectator would (a bot plays the seat), then plays its own hand by keys."""

from __future__ import annotations

import asyncio

import grpc
from client_support import (
    SIZE,
    local_server,
    play_by_keys,
    run,
    screen_text,
    table_screen,
    until,
)
from cursedbottle.client import CursedBottleApp
from cursedbottle.server import CLIENT_OPTIONS
from cursedbottle.server.remote import RemoteSeat, random_policy
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc


def test_a_person_who_takes_a_seat_mid_hand_waits_for_the_next_hand_then_plays():
    async def go():
        async with local_server(bot_delay=0.2) as target:  # time to read the hand out
            channel = grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS)
            stub = table_pb2_grpc.CursedBottleStub(channel)
            made = await stub.CreateTable(
                table_pb2.CreateTableRequest(
                    name="Friday", rules=game_pb2.Rules(players=3, hands=2), seed="takeover"
                )
            )
            table_id, host = made.table.table_id, made.host_token
            seats = []
            for name in ("Bob", "Cleo", "Dan"):
                joined = await stub.Join(table_pb2.JoinRequest(table_id=table_id, name=name))
                seats.append(RemoteSeat(stub, table_id, joined.token, joined.seat,
                                        random_policy(joined.seat)))
            playing = [asyncio.create_task(s.play()) for s in seats[:2]]
            # Dan stops answering once the first card is played (hand 1 waits for him).
            dan = asyncio.create_task(seats[2].play(stop=lambda e: e.HasField("card_played")))
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await dan
            # Dan goes home mid-hand; Zed comes and takes the empty seat from the lobby.
            await stub.Leave(table_pb2.LeaveRequest(table_id=table_id, token=seats[2].token))
            app = CursedBottleApp(target, lang="en", name="Zed")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: bool(getattr(app.screen, "tables", None)))
                await pilot.press("enter")
                await until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                await until(pilot, lambda: screen.model.info is not None)
                assert screen.model.info.seats[2].from_hand == 2
                await until(pilot, lambda: "it is yours from hand 2" in screen_text(app))
                assert screen.model.legal == [], "nothing to choose while the bot plays"
                steps = await play_by_keys(
                    pilot, app, lambda s: s.model.game_ended is not None, timeout=90
                )
                assert "play" in steps, "Zed played hand 2 by keys"
            await asyncio.wait_for(asyncio.gather(*playing), 30)
            await channel.close()

    run(go(), timeout=150)
