"""The LAN game server: gRPC tables, each owning one engine game.

`start_server()` for tests and embedding, `serve()` for `cursed-bottle serve`;
the wire contract is `cursedbottle.v1` (proto/cursedbottle/v1/*.proto,
explained in docs/protocol.md).
"""

from .app import CLIENT_OPTIONS, SERVER_OPTIONS, Running, serve, start_server

__all__ = ["CLIENT_OPTIONS", "SERVER_OPTIONS", "Running", "serve", "start_server"]
