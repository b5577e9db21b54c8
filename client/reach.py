"""Is a cursed-bottle server there?  Answered in a few seconds, the reason in words.

`cursed-bottle join` asks before it opens the app, so that a server that is
not running, a wrong host or port, another program on the port or a table id
that does not exist is one clear line on the command line, not a screen that
waits for half a minute and then says "Cannot reach".  Each step that can fail
is told apart: the name (DNS), the machine and port (TCP), the program on the
port (a gRPC call of our service), the table (its id, its password).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket

import grpc
from cursedbottle.v1 import table_pb2

from .net import Session, error_text, split_target

#: Seconds each step may take: a LAN answers in milliseconds, a host that is off in never.
STEP_TIMEOUT = 3.0

_SERVE = "`cursed-bottle serve`"


class NotReached(Exception):
    """Why the server (or the table) cannot be used, in the user's words."""


async def check_server(target: str, table_id: str | None = None, password: str = "",
                       timeout: float = STEP_TIMEOUT) -> None:
    """Raise NotReached unless a cursed-bottle server answers at `target` (and,
    with `table_id`, has that table and the password it needs is given)."""
    host, port = split_target(target)
    await _open_port(host, port, timeout)
    session = Session(target)
    try:
        tables = await _tables(session, host, port, timeout)
        if table_id is not None:
            _check_table(tables, table_id, password, target)
    finally:
        await session.close()


async def _open_port(host: str, port: int, timeout: float) -> None:
    """The name resolves and something accepts a connection on the port."""
    where = f"{host}:{port}"
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout)
    except (socket.gaierror, TimeoutError):
        raise NotReached(f"cannot find the machine {host!r}: check the name, or give its "
                         f"IP address (the host runs {_SERVE} and prints it)") from None
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except TimeoutError:
        raise NotReached(
            f"{where} does not answer within {timeout:g} s: is the machine on and on this "
            f"network, is {_SERVE} running there, and does its firewall let port {port} in?"
        ) from None
    except ConnectionRefusedError:
        raise NotReached(
            f"nothing listens on {where}: {_SERVE} is not running there (or on another "
            f"port: it prints its port when it starts)"
        ) from None
    except OSError as exc:
        if exc.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
            raise NotReached(f"cannot reach the machine {host!r}: no route to it from here "
                             f"(is it on this network?)") from None
        raise NotReached(f"cannot connect to {where}: {exc.strerror or exc}") from None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def _tables(session: Session, host: str, port: int,
                  timeout: float) -> list[table_pb2.TableInfo]:
    """The server's tables: the call only a cursed-bottle server answers."""
    where = f"{host}:{port}"
    try:
        reply = await session.stub.ListTables(table_pb2.ListTablesRequest(), timeout=timeout)
    except grpc.aio.AioRpcError as exc:
        code = exc.code()
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            raise NotReached(f"a program listens on {where} but does not answer within "
                             f"{timeout:g} s: is it {_SERVE}?") from None
        if code in (grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.UNAVAILABLE,
                    grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL):
            raise NotReached(f"a program listens on {where}, but it is not {_SERVE} "
                             f"(is the port right?)") from None
        raise NotReached(f"the server on {where} refused: {error_text(exc)}") from None
    return list(reply.tables)


def _check_table(tables: list[table_pb2.TableInfo], table_id: str, password: str,
                 target: str) -> None:
    """`--table ID`: the table is there, and a password it has is given."""
    found = next((t for t in tables if t.table_id == table_id), None)
    if found is None:
        ids = ", ".join(f"{t.table_id} ({t.name})" for t in tables[:8])
        there = f"its tables: {ids}" if ids else "it has no tables yet"
        raise NotReached(
            f"the server on {target} has no table {table_id!r} ({there}); leave out --table "
            f"to choose one in the lobby"
        )
    if found.has_password and not password:
        raise NotReached(f"table {table_id!r} ({found.name}) has a password: give it with "
                         f"--password")
