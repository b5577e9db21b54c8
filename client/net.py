"""The client's side of the wire: one channel, the calls it makes, the stream it follows.

Only the generated contract (`cursedbottle.v1`) is used here; the keepalive
settings are copied from docs/protocol.md rather than imported from the
server package, so the client never loads server code.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
from cursedbottle.v1 import game_pb2, table_pb2, table_pb2_grpc

#: A ping every 20 s: above the server's 10 s floor, so no GOAWAY "too_many_pings".
CLIENT_OPTIONS = (
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
)
DEFAULT_PORT = 50051
#: Errors after which following the stream again may work (the server is back, the
#: network too); anything else (a left seat, an unknown table) is final.
RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.CANCELLED,
}


def parse_target(text: str) -> str:
    """`HOST`, `HOST:PORT`, `[v6]:PORT` → a gRPC target with a port; ValueError, in
    the user's words, for a missing host or a port that is not 1…65535."""
    host, port = split_target(text)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def split_target(text: str) -> tuple[str, int]:
    """`HOST[:PORT]` (`[v6]:PORT`, a bare v6 address) → (host, port)."""
    text = text.strip()
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(f"{text!r}: an IPv6 address is written [ADDRESS]:PORT")
        port = rest[1:] if rest else str(DEFAULT_PORT)
    elif text.count(":") > 1:  # a bare IPv6 address
        host, port = text, str(DEFAULT_PORT)
    else:
        host, _, port = text.partition(":")
        port = port if _ else str(DEFAULT_PORT)
    if not host:
        raise ValueError(f"{text!r}: the host is missing (HOST or HOST:PORT, e.g. "
                         f"192.168.1.20:{DEFAULT_PORT})")
    if not port:
        raise ValueError(f"{text!r}: the port after ':' is missing (leave out ':' for the "
                         f"default, {DEFAULT_PORT})")
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise ValueError(f"{text!r}: {port!r} is not a port number (1…65535; the default "
                         f"is {DEFAULT_PORT})")
    return host, int(port)


def error_text(exc: grpc.aio.AioRpcError) -> str:
    return exc.details() or exc.code().name


@dataclass
class Seat:
    """Where the client sits: a table and a seat token (None: a spectator)."""

    table_id: str
    seat: int | None = None
    token: str = ""
    host_token: str = ""
    password: str = ""
    resumed: bool = False  # a saved token, not a new Join


class Session:
    """One connection to a server."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.channel = grpc.aio.insecure_channel(target, options=CLIENT_OPTIONS)
        self.stub = table_pb2_grpc.CursedBottleStub(self.channel)

    async def ready(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self.channel.channel_ready(), timeout)

    async def close(self) -> None:
        await self.channel.close(grace=None)

    async def list_tables(self) -> list[table_pb2.TableInfo]:
        reply = await self.stub.ListTables(table_pb2.ListTablesRequest(), timeout=10)
        return list(reply.tables)

    async def create(self, name: str, rules: game_pb2.Rules, **kw) -> table_pb2.CreateTableResponse:
        return await self.stub.CreateTable(
            table_pb2.CreateTableRequest(name=name, rules=rules, **kw), timeout=10
        )

    async def join(self, table_id: str, name: str, seat: int | None = None,
                   password: str = "") -> Seat:
        request = table_pb2.JoinRequest(table_id=table_id, name=name, password=password)
        if seat is not None:
            request.seat = seat
        reply = await self.stub.Join(request, timeout=10)
        return Seat(table_id, reply.seat, reply.token, password=password)

    async def add_bots(self, table_id: str, token: str, bot: str) -> None:
        """Fill every empty seat with a bot of that name."""
        info = (await self.stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
        for s in info.seats:
            if s.kind == table_pb2.SEAT_KIND_EMPTY:
                await self.stub.AddBot(
                    table_pb2.AddBotRequest(table_id=table_id, token=token, seat=s.seat, bot=bot),
                    timeout=10,
                )

    async def add_bot(self, table_id: str, token: str, seat: int, bot: str,
                      replace: bool = False) -> table_pb2.TableInfo:
        """A bot in one seat (`replace`: the host gives an absent person's seat to it)."""
        request = table_pb2.AddBotRequest(table_id=table_id, token=token, seat=seat, bot=bot,
                                          replace=replace)
        return (await self.stub.AddBot(request, timeout=10)).table

    async def remove_bot(self, table_id: str, token: str, seat: int) -> table_pb2.TableInfo:
        request = table_pb2.RemoveBotRequest(table_id=table_id, token=token, seat=seat)
        return (await self.stub.RemoveBot(request, timeout=10)).table

    async def set_stand_ins(self, table_id: str, host_token: str, after: float,
                            bot: str = "") -> table_pb2.TableInfo:
        """The host's stand-ins: a `bot` plays for a person away `after` seconds (0: never)."""
        request = table_pb2.SetStandInsRequest(table_id=table_id, token=host_token,
                                               stand_in_after_seconds=after, stand_in_bot=bot)
        return (await self.stub.SetStandIns(request, timeout=10)).table

    async def leave(self, seat: Seat) -> None:
        """Give the seat up, so that someone else (or a bot) can take it."""
        await self.stub.Leave(table_pb2.LeaveRequest(table_id=seat.table_id, token=seat.token),
                              timeout=2)

    async def start(self, seat: Seat) -> None:
        token = seat.host_token or seat.token
        await self.stub.Start(table_pb2.StartRequest(table_id=seat.table_id, token=token),
                              timeout=10)

    async def act(self, seat: Seat, action: game_pb2.Action, turn: int | None = None) -> int:
        """Send one action; `turn`: the sequence of the turn it answers (a stale one is
        refused by the server instead of landing on a later turn)."""
        request = table_pb2.ActRequest(table_id=seat.table_id, token=seat.token, action=action)
        if turn is not None:
            request.turn_sequence = turn
        reply = await self.stub.Act(request, timeout=15)
        return reply.sequence

    async def hint(self, seat: Seat, budget_ms: int,
                   staged: list[game_pb2.Action] | None = None) -> table_pb2.HintResponse:
        """The server's ranking of the seat's next choice (after `staged`: the setup
        choices made but not sent yet)."""
        request = table_pb2.HintRequest(
            table_id=seat.table_id, token=seat.token, budget_ms=budget_ms, seed=1,
            staged=staged or [],
        )
        return await self.stub.Hint(request, timeout=budget_ms / 1000 + 30)

    async def check_seat(self, seat: Seat, timeout: float = 10.0) -> None:
        """Does the server still take this seat token?  Opens the seat's stream and reads
        its first message (the snapshot); raises the server's refusal
        (UNAUTHENTICATED, NOT_FOUND, …) if not."""
        call = self.stub.Subscribe(
            table_pb2.SubscribeRequest(table_id=seat.table_id, token=seat.token)
        )
        try:
            await asyncio.wait_for(call.read(), timeout)
        finally:
            call.cancel()

    async def list_hands(self, table_id: str = "", password: str = "", token: str = "",
                         limit: int = 0) -> list[table_pb2.HandSummary]:
        """Finished hands, newest first (of every table the server lets us see)."""
        request = table_pb2.ListHandsRequest(table_id=table_id, password=password, token=token,
                                             limit=limit)
        reply = await self.stub.ListHands(request, timeout=15)
        return list(reply.hands)

    async def review_hand(self, table_id: str, hand: int, password: str = "", token: str = "",
                          from_trick: int = 0) -> table_pb2.HandReview:
        """One finished hand, trick by trick, against double-dummy play (takes seconds)."""
        request = table_pb2.ReviewHandRequest(table_id=table_id, hand=hand, password=password,
                                              token=token, from_trick=from_trick)
        return await self.stub.ReviewHand(request, timeout=180)

    def follow(self, seat: Seat, from_sequence: int) -> AsyncIterator[table_pb2.TableUpdate]:
        """The seat's stream (or a spectator's), replaying the log from `from_sequence`."""
        if seat.seat is None:
            return self.stub.Watch(
                table_pb2.WatchRequest(
                    table_id=seat.table_id, password=seat.password, from_sequence=from_sequence
                )
            )
        return self.stub.Subscribe(
            table_pb2.SubscribeRequest(
                table_id=seat.table_id, token=seat.token, from_sequence=from_sequence
            )
        )
