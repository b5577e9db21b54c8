"""Assembling and running the server: service, health, reflection, keepalive, shutdown.

Keepalive: the server pings an idle connection every 30 s and drops it when
no answer comes within 10 s, so a LAN peer that vanished (laptop closed, cable
pulled) loses its streams within a minute and its seat shows as disconnected.
Clients may ping too, but not more often than every 10 s: gRPC answers faster
pings with GOAWAY "too_many_pings", so `CLIENT_OPTIONS` stays above that.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from .address import bind_failed, check_listen, local_addresses
from .limits import Limits
from .lobby import Lobby
from .restore import bring_back, restore
from .runner import BotRunner
from .service import SERVICE, CursedBottleService, add_to_server
from .store import Store
from .tables import Table

log = logging.getLogger("cursedbottle.server")

SERVER_OPTIONS = (
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
    # Clients may ping every 10 s on an idle stream (the name gRPC core reads:
    # GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS).
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ("grpc.http2.max_ping_strikes", 2),
    ("grpc.max_receive_message_length", 1 << 20),
    # A second server on the same port must fail, not silently share the clients.
    ("grpc.so_reuseport", 0),
)
#: For clients of this server: ping every 20 s (above the server's 10 s floor).
CLIENT_OPTIONS = (
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
)
DEFAULT_GRACE = 5.0


@dataclass
class Running:
    """A started server and what it is made of."""

    server: grpc.aio.Server
    port: int
    lobby: Lobby
    health: health.aio.HealthServicer
    #: The database the tables are kept in (None: in memory only); closed on stop.
    store: Store | None = None
    #: The unfinished tables found in the store at start, now going on.
    restored: list[Table] = field(default_factory=list)
    #: The gRPC service itself (its reviews, for what they computed).
    service: CursedBottleService | None = None

    async def stop(self, grace: float = DEFAULT_GRACE) -> None:
        """Graceful stop: NOT_SERVING, streams told and closed, in-flight calls finish."""
        await self.health.enter_graceful_shutdown()
        self.lobby.close_all("the server is shutting down")
        await asyncio.sleep(0)
        await self.server.stop(grace)
        self.lobby.runner.shutdown()
        if self.store is not None:
            self.store.close()
        log.info("server stopped")


async def start_server(
    host: str = "127.0.0.1",
    port: int = 0,
    bot_delay: float = 0.0,
    bot_workers: int | None = None,
    lobby: Lobby | None = None,
    store: Store | None = None,
    limits: Limits | None = None,
) -> Running:
    """Bind, register everything and start serving (port 0: any free port).

    With a `store`, every unfinished table in it is rebuilt first and goes on, a
    finished one comes back when a player of it asks (`bring_back`), and every
    change is written to it before it is acknowledged.
    """
    check_listen(host, port)  # the cause in words, before anything starts; no raw gRPC log
    workers = bot_workers or max(8, 2 * (os.cpu_count() or 2))
    runner = BotRunner(workers=workers, delay=bot_delay)
    lobby = lobby or Lobby(runner, store=store, limits=limits)
    restored = []
    if store is not None:
        lobby.store = store
        restored = restore(lobby, store)
        lobby.bring_back = functools.partial(bring_back, lobby, store)
    server = grpc.aio.server(options=SERVER_OPTIONS)
    service = CursedBottleService(lobby)
    add_to_server(service, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (SERVICE.full_name, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name)
    reflection.enable_server_reflection((*names, reflection.SERVICE_NAME), server)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as exc:  # grpc reports a failed bind this way
        raise bind_failed(address) from exc
    await server.start()
    serving = health_pb2.HealthCheckResponse.SERVING
    await health_servicer.set("", serving)
    await health_servicer.set(SERVICE.full_name, serving)
    return Running(server, bound, lobby, health_servicer, store, restored, service)


async def serve(
    host: str,
    port: int,
    bot_delay: float = 0.0,
    grace: float = DEFAULT_GRACE,
    db: str | os.PathLike[str] | None = None,
    limits: Limits | None = None,
) -> None:
    """Run until SIGTERM or SIGINT, then stop gracefully (`db`: keep tables there)."""
    store = Store(db) if db is not None else None
    try:
        running = await start_server(host, port, bot_delay=bot_delay, store=store, limits=limits)
    except BaseException:
        if store is not None:
            store.close()
        raise
    log.info("cursed-bottle server listening on %s:%d", host, running.port)
    if host in ("0.0.0.0", "::", ""):
        for address in local_addresses():
            log.info("players on the network join with: cursed-bottle join %s:%d",
                     address, running.port)
    if store is not None:
        log.info(
            "tables are kept in %s; %d unfinished table(s) resumed",
            store.path,
            len(running.restored),
        )
        for table in running.restored:
            played = len(table.game.actions) if table.game else 0
            log.info("table %s resumed: %r, %d actions", table.table_id, table.name, played)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down (in-flight calls get %.0f s)", grace)
    await running.stop(grace)
