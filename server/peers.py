"""Who is calling: the client (its address) and the connection of a request.

Limits per client are counted by the peer's address: without accounts that is
the best a LAN server can tell people apart by (two people on one machine
share their limits).  Limits per connection use the whole peer string, which
names the address and the port of one channel.
"""

from __future__ import annotations


def client_of(context) -> str:
    """The caller's address ("127.0.0.1", "::1"), from gRPC's `context.peer()`."""
    return address_of(context.peer() or "")


def connection_of(context) -> str:
    """One channel of the caller: its address and port."""
    return context.peer() or ""


def address_of(peer: str) -> str:
    """`ipv4:10.0.0.5:50123` → `10.0.0.5`, `ipv6:[::1]:50123` → `::1`, else as given."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rpartition(":")[0] or rest
    if kind == "ipv6":
        host = rest.rpartition(":")[0] or rest
        return host.strip("[]")
    return peer
