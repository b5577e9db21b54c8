"""The host's say over stand-ins: `SetStandIns` and `AddBot(replace=true)`.

Only the host token may change them; a seat token, an unknown token, a bad value
or a wrong seat is refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import math

import grpc
from cursedbottle.v1 import table_pb2
from test_server_support import (
    create,
    fingerprint,
    refused,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
    until,
)

Code = grpc.StatusCode


def _set(table_id: str, token: str, after: float, bot: str = "") -> table_pb2.SetStandInsRequest:
    return table_pb2.SetStandInsRequest(
        table_id=table_id, token=token, stand_in_after_seconds=after, stand_in_bot=bot
    )


def test_the_host_turns_stand_ins_on_during_the_game_and_a_dropped_seat_gets_one():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=2), seed="host stand-in")
            seats = await seat_humans(stub, table_id, 3)
            table = table_of(running, table_id)
            others = [asyncio.create_task(s.play()) for s in seats[1:]]
            await asyncio.sleep(0.05)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            # Seat 0 never connects and stand-ins are off: nobody plays for it.
            await asyncio.sleep(0.3)
            assert table.seats[0].stand_in is None
            reply = await stub.SetStandIns(_set(table_id, host, 0.2, "heuristic"))
            assert reply.table.stand_in_after_seconds == 0.2
            assert (table.stand_in_after, table.stand_in_bot) == (0.2, "heuristic")
            await until(lambda: table.seats[0].stand_in is not None)
            game = table.game
            await until(lambda: sum(1 for a in game.actions if a.seat == game.seat_of(0)) >= 2)
            # Back: the seat is theirs again, and the game ends.
            task = asyncio.create_task(seats[0].play())
            await until(lambda: table.seats[0].stand_in is None)
            await asyncio.wait_for(asyncio.gather(task, *others), 30)
            assert game.is_over and seats[0].actions > 0

    run(main())


def test_set_stand_ins_is_the_hosts_and_bounded():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3), stand_in_after_seconds=30)
            seats = await seat_humans(stub, table_id, 1)
            table = table_of(running, table_id)
            before = fingerprint(table)
            calls = [
                (_set(table_id, seats[0].token, 5), Code.PERMISSION_DENIED, "HOST_ONLY"),
                (_set(table_id, "nonsense", 5), Code.UNAUTHENTICATED, "UNKNOWN_TOKEN"),
                (_set(table_id, "", 5), Code.INVALID_ARGUMENT, "MALFORMED"),
                (_set(table_id, host, -1), Code.INVALID_ARGUMENT, "MALFORMED"),
                (_set(table_id, host, 3601), Code.INVALID_ARGUMENT, "MALFORMED"),
                (_set(table_id, host, math.nan), Code.INVALID_ARGUMENT, "MALFORMED"),
                (_set(table_id, host, 5, "no such bot"), Code.INVALID_ARGUMENT, "UNKNOWN_BOT"),
                (_set(table_id, host, 5, "strong:1e9"), Code.INVALID_ARGUMENT, "BOT_EFFORT"),
                (_set("nope", host, 5), Code.NOT_FOUND, "NO_SUCH_TABLE"),
            ]
            for request, code, rule in calls:
                await refused(stub.SetStandIns(request), code, rule)
                assert fingerprint(table) == before, request
            assert (table.stand_in_after, table.stand_in_bot) == (30, "random")
            # Another table's host token opens nothing here.
            _other, other_host = await create(stub, rules(3))
            await refused(stub.SetStandIns(_set(table_id, other_host, 5)),
                          Code.UNAUTHENTICATED, "UNKNOWN_TOKEN")
            reply = await stub.SetStandIns(_set(table_id, host, 0))
            assert reply.table.stand_in_after_seconds == 0
            assert table.stand_in_bot == "random"  # "" keeps the table's bot

    run(main())


def test_the_host_gives_an_absent_persons_seat_to_a_bot_for_good():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="replace")
            seats = await seat_humans(stub, table_id, 3)
            table = table_of(running, table_id)
            playing = [asyncio.create_task(s.play()) for s in seats[:2]]
            await until(lambda: table.seats[0].streams == 1 and table.seats[1].streams == 1)

            def replace(token: str, seat: int, bot: str = "rule") -> table_pb2.AddBotRequest:
                return table_pb2.AddBotRequest(table_id=table_id, token=token, seat=seat,
                                               bot=bot, replace=True)

            before = fingerprint(table)
            calls = [
                (replace(seats[0].token, 2), Code.PERMISSION_DENIED, "HOST_ONLY"),
                (replace("nonsense", 2), Code.UNAUTHENTICATED, "UNKNOWN_TOKEN"),
                (replace(host, 0), Code.FAILED_PRECONDITION, "PLAYER_PRESENT"),
                (replace(host, 7), Code.INVALID_ARGUMENT, "NO_SUCH_SEAT"),
                (replace(host, 2, "no such bot"), Code.INVALID_ARGUMENT, "UNKNOWN_BOT"),
                (table_pb2.AddBotRequest(table_id=table_id, token=host, bot="rule",
                                         replace=True), Code.INVALID_ARGUMENT, "MALFORMED"),
            ]
            for request, code, rule in calls:
                await refused(stub.AddBot(request), code, rule)
                assert fingerprint(table) == before, request
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            await asyncio.sleep(0.2)
            # Seat 2 never came: the host gives it to a bot, and the game goes on.
            reply = await stub.AddBot(replace(host, 2))
            assert reply.table.seats[2].kind == table_pb2.SEAT_KIND_BOT
            assert reply.table.seats[2].bot == "rule"
            await refused(stub.Subscribe(table_pb2.SubscribeRequest(
                table_id=table_id, token=seats[2].token)).read(),
                Code.UNAUTHENTICATED, "UNKNOWN_TOKEN")
            await refused(stub.AddBot(replace(host, 2)), Code.FAILED_PRECONDITION,
                          "NOT_A_PERSON")
            await asyncio.wait_for(asyncio.gather(*playing), 30)
            assert table.game.is_over

    run(main())


def test_the_hosts_stand_ins_survive_a_restart(tmp_path):
    from cursedbottle.server.store import Store

    db = tmp_path / "tables.db"

    async def main():
        async with serving(store=Store(db)) as (_running, stub):
            table_id, host = await create(stub, rules(3), stand_in_after_seconds=30)
            await stub.SetStandIns(_set(table_id, host, 15, "rule"))
        async with serving(store=Store(db)) as (running, stub):
            table = table_of(running, table_id)
            assert (table.stand_in_after, table.stand_in_bot) == (15, "rule")
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert (info.stand_in_after_seconds, info.stand_in_bot) == (15, "rule")
            # the host token, known by its hash after the restart, still decides
            await stub.SetStandIns(_set(table_id, host, 0))
            assert table.stand_in_after == 0

    run(main())
