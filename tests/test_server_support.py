"""Helpers for the server tests: a real gRPC server on 127.0.0.1, stubs, tables.

Every server test runs its own event loop (`run`) with a server bound to a
free port of the loopback interface; nothing is mocked between the client and
the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator

import grpc
import pytest
from cursedbottle.server import CLIENT_OPTIONS, Running, start_server
from cursedbottle.server.remote import RemoteSeat, random_policy
from cursedbottle.server.service import ERROR_KEY
from cursedbottle.server.table_msgs import table_info
from cursedbottle.server.tables import Table
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc

TIMEOUT = 60


def run(coro, timeout: float = TIMEOUT):
    """Run one test's coroutine on a fresh loop, bounded in time."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


@contextlib.asynccontextmanager
async def serving(**options) -> AsyncIterator[tuple[Running, table_pb2_grpc.CursedBottleStub]]:
    running = await start_server("127.0.0.1", 0, **options)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}", options=CLIENT_OPTIONS)
    try:
        stub = table_pb2_grpc.CursedBottleStub(channel)
        stub.channel = channel  # for the health and reflection stubs
        yield running, stub
    finally:
        await channel.close()
        await running.stop(grace=1)


async def until(condition, timeout: float = 10.0) -> None:
    """Wait until `condition()` holds (checked every 10 ms), failing after `timeout`."""
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out waiting")


def rules(players: int = 3, hands: int = 1, **kw) -> game_pb2.Rules:
    return game_pb2.Rules(players=players, hands=hands, **kw)


async def create(stub, rules_msg: game_pb2.Rules, seed: str = "test", **kw):
    reply = await stub.CreateTable(
        table_pb2.CreateTableRequest(name="test table", rules=rules_msg, seed=seed, **kw)
    )
    return reply.table.table_id, reply.host_token


async def seat_humans(stub, table_id: str, count: int, password: str = "") -> list[RemoteSeat]:
    seats = []
    info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
    taken = {s.name for s in info.seats}
    numbers = (i for i in itertools.count() if f"human {i}" not in taken)
    for _ in range(count):
        name = f"human {next(numbers)}"  # names are unique at a table
        joined = await stub.Join(
            table_pb2.JoinRequest(table_id=table_id, name=name, password=password)
        )
        seats.append(
            RemoteSeat(stub, table_id, joined.token, joined.seat, random_policy(100 + joined.seat))
        )
    return seats


async def add_bots(stub, table_id: str, token: str, count: int, bot: str = "random") -> None:
    for _ in range(count):
        await stub.AddBot(table_pb2.AddBotRequest(table_id=table_id, token=token, bot=bot))


async def play_out(seats: list[RemoteSeat], start=None, timeout: float = 30) -> None:
    """Let the seats play until their streams close (the game is over)."""
    tasks = [asyncio.create_task(s.play(from_sequence=0)) for s in seats]
    await asyncio.sleep(0.05)  # (they replay the log from 0 whenever they get there)
    if start is not None:
        await start()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout)


def table_of(running: Running, table_id: str) -> Table:
    return running.lobby.tables[table_id]


def fingerprint(table: Table) -> tuple:
    """Everything a refused request must leave as it was."""
    game = table.game
    info = table_info(table)
    for seat in info.seats:
        seat.connected = False  # streams come and go; that is not game state
    info.spectators = 0
    state = (info.SerializeToString(deterministic=True), tuple(s.token for s in table.seats))
    if game is None:
        return state
    hand = game.hand
    return (
        *state,
        len(game.events),
        len(game.actions),
        tuple(hand.holdings),
        tuple(hand.pile),
        tuple(hand.pending_passes()),
        tuple(hand.trick),
        tuple(hand.taken),
        hand.price,
        hand.owner,
        hand.phase,
        hand.to_act(),
        tuple(game.totals),
    )


async def refused(call, code: grpc.StatusCode, rule: str | None = None) -> str:
    """Await a call that must be refused with `code` (and `rule`); the message."""
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await call
    err = info.value
    assert err.code() == code, f"{err.code()} {err.details()}"
    assert err.details(), "a refusal says why"
    if rule is not None:
        trailing = dict(err.trailing_metadata() or ())
        got = table_pb2.ErrorInfo.FromString(trailing[ERROR_KEY]).rule
        assert got == rule, f"rule {got}, expected {rule}: {err.details()}"
    return err.details()


def stream_events(updates: list[table_pb2.TableUpdate]) -> list[game_pb2.GameEvent]:
    """The game events of a stream's messages, in order."""
    return [e for u in updates if u.WhichOneof("kind") == "batch" for e in u.batch.events]


def sequences(seat: RemoteSeat) -> list[int]:
    return [e.sequence for e in seat.events]
