"""The bounds on what one client can hold: tables, streams, password guesses, and a
fan-out that stays linear in the number of watchers (docs/protocol.md, "Limits")."""

from __future__ import annotations

import asyncio
import contextlib

import grpc
from cursedbottle.server import CLIENT_OPTIONS, start_server
from cursedbottle.server.limits import Limits
from cursedbottle.server.store import Store
from cursedbottle.server.table_msgs import table_info
from cursedbottle.v1 import table_pb2, table_pb2_grpc
from test_server_support import add_bots, create, refused, rules, run, seat_humans, serving, until

EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


def watch_request(table_id: str, password: str = "") -> table_pb2.WatchRequest:
    return table_pb2.WatchRequest(table_id=table_id, password=password)


async def first_message(call) -> table_pb2.TableUpdate:
    async for update in call:
        return update
    raise AssertionError("the stream ended without a message")


def test_one_client_holds_a_bounded_number_of_unfinished_tables():
    async def go():
        async with serving(limits=Limits(max_tables_per_client=3)) as (running, stub):
            made = [await create(stub, rules(3, hands=1)) for _ in range(3)]
            message = await refused(
                stub.CreateTable(table_pb2.CreateTableRequest(rules=rules(3))),
                EXHAUSTED,
                "TOO_MANY_TABLES",
            )
            assert "(3)" in message
            assert len(running.lobby.tables) == 3
            # A table played to its end no longer counts.
            table_id, host = made[0]
            await add_bots(stub, table_id, host, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            table = running.lobby.tables[table_id]
            await until(lambda: table.game.is_over)
            await create(stub, rules(3, hands=1))

    run(go())


def test_an_unstarted_table_nobody_is_at_goes_away_also_after_a_restart(tmp_path):
    limits = Limits(idle_table_seconds=0.3)

    async def go():
        store = Store(tmp_path / "db.sqlite")
        running = await start_server("127.0.0.1", 0, store=store, limits=limits)
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
        stub = table_pb2_grpc.CursedBottleStub(channel)
        try:
            idle, _ = await create(stub, rules(3))
            kept, _ = await create(stub, rules(3))
            (seat,) = await seat_humans(stub, kept, 1)
            stream = stub.Subscribe(table_pb2.SubscribeRequest(table_id=kept, token=seat.token))
            await first_message(stream)
            await asyncio.sleep(0.5)
            tables = (await stub.ListTables(table_pb2.ListTablesRequest())).tables
            listed = {t.table_id for t in tables}
            assert listed == {kept}, "the idle table went, the one someone is at stayed"
            await refused(
                stub.GetTable(table_pb2.GetTableRequest(table_id=idle)),
                grpc.StatusCode.NOT_FOUND,
                "NO_SUCH_TABLE",
            )
            stream.cancel()
        finally:
            await channel.close()
            await running.stop(grace=1)
            store.close()
        # After a restart the idle table does not come back.
        store = Store(tmp_path / "db.sqlite")
        running = await start_server("127.0.0.1", 0, store=store)
        try:
            assert set(running.lobby.tables) == {kept}
        finally:
            await running.stop(grace=1)
            store.close()

    run(go())


def test_streams_are_bounded_per_connection_and_per_client():
    limits = Limits(max_streams_per_connection=3, max_streams_per_client=5)

    async def go():
        async with serving(limits=limits) as (running, stub):
            table_id, _ = await create(stub, rules(3))
            first = [stub.Watch(watch_request(table_id)) for _ in range(3)]
            for call in first:
                await first_message(call)
            message = await refused(
                first_message(stub.Watch(watch_request(table_id))), EXHAUSTED, "TOO_MANY_STREAMS"
            )
            assert "connection" in message and "(3)" in message
            # Another connection of the same client (a channel of its own: gRPC would
            # otherwise share the connection between channels): up to the client's limit.
            options = [*CLIENT_OPTIONS, ("grpc.use_local_subchannel_pool", 1)]
            other = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=options)
            try:
                stub2 = table_pb2_grpc.CursedBottleStub(other)
                second = [stub2.Watch(watch_request(table_id)) for _ in range(2)]
                for call in second:
                    await first_message(call)
                message = await refused(
                    first_message(stub2.Watch(watch_request(table_id))),
                    EXHAUSTED,
                    "TOO_MANY_STREAMS",
                )
                assert "address" in message and "(5)" in message
                # A stream that closes frees its place.
                first[0].cancel()
                await until(lambda: running.lobby.streams["*"] == 4)
                again = stub2.Watch(watch_request(table_id))
                await first_message(again)
                for call in [*first, *second, again]:
                    call.cancel()
            finally:
                await other.close()

    run(go())


def test_a_crowd_of_watchers_costs_each_of_them_one_snapshot_not_one_message_a_newcomer():
    """Spectators coming do not re-send the table to every other spectator: the
    messages grow with the crowd, not with its square."""

    async def crowd(stub, table_id: str, size: int) -> list[int]:
        received = [0] * size
        calls = []

        async def follow(i: int, call) -> None:
            async for _ in call:
                received[i] += 1

        tasks = []
        for i in range(size):
            call = stub.Watch(watch_request(table_id))
            calls.append(call)
            tasks.append(asyncio.create_task(follow(i, call)))
            await until(lambda i=i: received[i] >= 1)
        # A real change of the table (a person sits down) reaches everyone once.
        await stub.Join(table_pb2.JoinRequest(table_id=table_id, name="Ann"))
        await until(lambda: all(n >= 2 for n in received))
        await asyncio.sleep(0.2)  # anything more would arrive now
        for call in calls:
            call.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await task
        return received

    async def go():
        async with serving() as (_running, stub):
            table_id, _ = await create(stub, rules(3))
            received = await crowd(stub, table_id, 25)
            assert received == [2] * 25, received

    run(go())


def test_wrong_password_guesses_are_slowed_down_and_others_play_on():
    limits = Limits(wrong_passwords=4, password_checks_per_client=2)

    async def go():
        async with serving(limits=limits) as (running, stub):
            locked, _ = await create(stub, rules(3), password="open sesame")
            # A bystander's table plays a whole hand while the guesses fly.
            bystander, host = await create(stub, rules(3, hands=1))
            await add_bots(stub, bystander, host, 3)
            await stub.Start(table_pb2.StartRequest(table_id=bystander, token=host))
            guesses = [
                stub.Join(table_pb2.JoinRequest(table_id=locked, password=f"guess {i}"))
                for i in range(12)
            ]
            results = await asyncio.gather(*guesses, return_exceptions=True)
            assert all(isinstance(r, grpc.aio.AioRpcError) for r in results)
            codes = [r.code() for r in results]
            denied = codes.count(grpc.StatusCode.PERMISSION_DENIED)
            # Two checks at a time: a guess that finds two in progress is
            # refused at once.  How many are checked before the others arrive
            # depends on the machine's load (a loaded CI run checked three):
            # at least one, at most the wrong-password brake.
            busy = [r for r in results if r.code() == EXHAUSTED and "at once" in r.details()]
            assert busy, "two checks at a time"
            assert 1 <= denied <= limits.wrong_passwords
            assert codes.count(EXHAUSTED) == len(guesses) - denied
            # One at a time: wrong, until the limit, then even the right one must wait.
            for i in range(limits.wrong_passwords - denied):
                await refused(
                    stub.Join(table_pb2.JoinRequest(table_id=locked, password=f"again {i}")),
                    grpc.StatusCode.PERMISSION_DENIED,
                    "WRONG_PASSWORD",
                )
            message = await refused(
                stub.Join(table_pb2.JoinRequest(table_id=locked, password="open sesame")),
                EXHAUSTED,
                "TOO_MANY_GUESSES",
            )
            assert "try again in" in message
            await refused(
                first_message(stub.Watch(watch_request(locked, "open sesame"))),
                EXHAUSTED,
                "TOO_MANY_GUESSES",
            )
            seats = table_info(running.lobby.tables[locked]).seats
            assert all(s.kind == table_pb2.SEAT_KIND_EMPTY for s in seats)
            table = running.lobby.tables[bystander]
            await until(lambda: table.game.is_over, 30)

    run(go())


def test_limits_can_be_set_by_name_and_bad_ones_are_refused():
    limits = Limits().with_text("max_streams_per_client=1000").with_text("idle-table-seconds=5")
    assert limits.max_streams_per_client == 1000 and limits.idle_table_seconds == 5.0
    for bad in ["nonsense=3", "max_tables", "max_tables=lots", "max_tables=0"]:
        try:
            Limits().with_text(bad)
        except ValueError as exc:
            assert bad in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")
