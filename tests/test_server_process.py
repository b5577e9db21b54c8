"""The server with clients in other processes, the `serve` command, and shutdown."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time

import grpc
import pytest
from cursedbottle.v1 import table_pb2, table_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from test_server_support import (
    add_bots,
    create,
    rules,
    run,
    seat_humans,
    serving,
    table_of,
)


def test_a_client_in_another_process_plays_a_hand():
    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1), seed="process")
            (human,) = await seat_humans(stub, table_id, 1)
            await add_bots(stub, table_id, host, 2)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "cursedbottle.server.remote",
                "--target",
                f"127.0.0.1:{running.port}",
                "--table",
                table_id,
                "--token",
                human.token,
                "--seat",
                str(human.seat),
                "--hands",
                "1",
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            try:
                out, err = await asyncio.wait_for(process.communicate(), 60)
            except TimeoutError:
                # (Say where it stood: a hang shows its stream, not just a timeout.)
                process.kill()
                out, err = await process.communicate()
                pytest.fail(f"the client hung; stdout {out!r}, stderr {err.decode()}")
            assert process.returncode == 0, err.decode()
            summary = json.loads(out)
            assert summary["hands_ended"] == 1, summary
            assert summary["actions"] == 14, summary  # a pile card, two passes, 11 cards
            game = table_of(running, table_id).game
            assert len(game.hands) >= 2 or game.is_over, "the hand was played to its end"

    run(main())


def test_graceful_shutdown_closes_streams_and_lets_calls_finish(monkeypatch):
    import cursedbottle.bots as bots
    from cursedbottle.bots.hints import Reason

    def slow_hint(view, seed, budget):
        time.sleep(0.5)
        first = view.legal_actions[0]
        return bots.Hint(
            view.seat, (bots.HintLine(first, None, 1.0, 0, False, Reason("only")),)
        )

    monkeypatch.setattr(bots, "hint", slow_hint, raising=False)

    async def main():
        async with serving() as (running, stub):
            table_id, host = await create(stub, rules(3, hands=1))
            seats = await seat_humans(stub, table_id, 3)
            await stub.Start(table_pb2.StartRequest(table_id=table_id, token=host))
            health = health_pb2_grpc.HealthStub(stub.channel)
            statuses = []

            async def follow_health():
                request = health_pb2.HealthCheckRequest(service="cursedbottle.v1.CursedBottle")
                try:
                    async for reply in health.Watch(request):
                        statuses.append(reply.status)
                except grpc.aio.AioRpcError:
                    pass

            async def follow_seat():
                updates = []
                request = table_pb2.SubscribeRequest(table_id=table_id, token=seats[0].token)
                async for update in stub.Subscribe(request):
                    updates.append(update)
                return updates

            watcher = asyncio.create_task(follow_health())
            follower = asyncio.create_task(follow_seat())
            hint = asyncio.ensure_future(
                stub.Hint(table_pb2.HintRequest(table_id=table_id, token=seats[0].token))
            )
            await asyncio.sleep(0.2)
            await running.stop(grace=3)
            reply = await hint  # in flight when the stop began: it finishes
            assert reply.reason == "the only legal choice"
            updates = await asyncio.wait_for(follower, 3)
            assert updates[-1].closed.reason == "the server is shutting down"
            await asyncio.wait_for(watcher, 3)
            serving_ = health_pb2.HealthCheckResponse.SERVING
            assert statuses[0] == serving_
            assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses

    run(main())


def test_the_serve_command_logs_reflects_and_stops_on_sigterm():
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cursedbottle.cli.main",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--bot-delay",
            "0",
        ],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = process.stderr.readline()
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert match, line
        port = int(match.group(1))
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=5).status
            assert status == health_pb2.HealthCheckResponse.SERVING
            reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
            replies = reflect.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5
            )
            names = {s.name for r in replies for s in r.list_services_response.service}
            assert "cursedbottle.v1.CursedBottle" in names
            assert "grpc.health.v1.Health" in names
            stub = table_pb2_grpc.CursedBottleStub(channel)
            created = stub.CreateTable(table_pb2.CreateTableRequest(name="lan"), timeout=5)
            stub.Join(table_pb2.JoinRequest(table_id=created.table.table_id, name="Ann"), timeout=5)
            stream = stub.Watch(table_pb2.WatchRequest(table_id=created.table.table_id))
            assert next(stream).WhichOneof("kind") == "snapshot"
            process.send_signal(signal.SIGTERM)
            rest = list(stream)
            assert rest[-1].closed.reason == "the server is shutting down"
        assert process.wait(timeout=10) == 0
        log = process.stderr.read()
        assert "created" in log and "Ann joins seat 0" in log
        assert "shutting down" in log and "server stopped" in log
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_serve_command_refuses_a_bad_port():
    result = subprocess.run(
        [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "--port" in result.stderr


@pytest.mark.parametrize(
    "limit, says",
    [
        ("nonsense=3", "NAME one of max_tables"),
        ("max_tables=0", "must be positive"),
        ("idle_table_seconds=soon", "'soon' is not a number"),
    ],
)
def test_the_serve_command_refuses_a_bad_limit_in_one_line(limit, says):
    result = subprocess.run(
        [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--no-db", "--port", "0",
         "--limit", limit],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and says in result.stderr, result.stderr


def test_the_serve_command_refuses_a_foreign_or_corrupt_database_and_leaves_it_alone(tmp_path):
    import sqlite3

    foreign = tmp_path / "notes.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (x)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is no database at all\n" * 100)
    for path in (foreign, garbage):
        before = path.read_bytes()
        result = subprocess.run(
            [sys.executable, "-m", "cursedbottle.cli.main", "serve", "--port", "0",
             "--db", str(path)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.returncode == 2, result.stderr
        assert str(path) in result.stderr and "not a cursed-bottle database" in result.stderr
        assert path.read_bytes() == before, "the file was changed"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage.db", "notes.db"]


@pytest.mark.slow
def test_an_idle_stream_survives_pings_just_above_the_servers_floor(monkeypatch):
    """A seat waiting for a slow friend: the stream carries nothing for a while and
    the client's keepalive pings it.  Pings at the server's floor of 10 s (ours come
    every 20 s) must be welcome: a server that counts them as abuse sends GOAWAY on
    the third and every idle client sees a spurious reconnect (seen in a terminal
    before this test: the floor's option had a name gRPC does not know).  What
    matters is that gRPC reads the server's option: the server here runs with
    every option of SERVER_OPTIONS, its floor a tenth of the real one, and the
    client pings just above it (a floor under a name gRPC does not know is five
    minutes: the third such ping closes the stream, checked by misspelling it)."""
    from cursedbottle.server import CLIENT_OPTIONS, SERVER_OPTIONS, app

    scale = 10

    server = dict(SERVER_OPTIONS)
    key = "grpc.http2.min_ping_interval_without_data_ms"
    assert dict(CLIENT_OPTIONS)["grpc.keepalive_time_ms"] > server[key]
    assert server["grpc.keepalive_time_ms"] + server["grpc.keepalive_timeout_ms"] <= 60_000
    floor = server[key] // scale
    monkeypatch.setattr(app, "SERVER_OPTIONS", tuple({**server, key: floor}.items()))
    eager = {**dict(CLIENT_OPTIONS), "grpc.keepalive_time_ms": floor + 1_000 // scale}

    async def main():
        async with serving() as (running, _):
            channel = grpc.aio.insecure_channel(
                f"127.0.0.1:{running.port}", options=tuple(eager.items())
            )
            stub = table_pb2_grpc.CursedBottleStub(channel)
            table_id, _host = await create(stub, rules(3, hands=1), seed="idle")
            (seat,) = await seat_humans(stub, table_id, 1)
            call = stub.Subscribe(
                table_pb2.SubscribeRequest(table_id=table_id, token=seat.token)
            )
            await call.read()  # the snapshot; then nothing happens at the table
            # Three pings and more: the third strike would close the connection.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(
                    asyncio.shield(call.read()), 3.5 * (floor + 1_000 // scale) / 1000
                )
            call.cancel()
            await channel.close()

    run(main(), timeout=90)
