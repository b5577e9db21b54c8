"""Can the server listen on HOST:PORT?  Asked before gRPC binds, answered in words.

gRPC reports a failed bind as one RuntimeError for every cause, after logging a
raw line of its own to stderr; a host needs to know which cause it was: the
port is taken (another server is running), the machine has no such address,
the name is unknown, or the port needs administrator rights.  Binding a plain
socket the way gRPC will (SO_REUSEADDR, every address the name resolves to)
tells them apart, and gRPC then binds a port known to be free.
"""

from __future__ import annotations

import errno
import socket


class ListenError(OSError):
    """The server cannot listen where it was asked to; the message says why."""


def check_listen(host: str, port: int) -> None:
    """Raise ListenError unless a socket can be bound at `host:port` (like gRPC:
    one of the addresses the name resolves to is enough)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise ListenError(
            f"--host {host}: no such name ({_choices()})"
        ) from None
    first: OSError | None = None
    for family, kind, proto, _, address in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(address)
            return
        except OSError as exc:
            first = first or exc
    raise ListenError(_reason(host, port, first)) from None


def bind_failed(address: str) -> ListenError:
    """gRPC refused a bind the check found possible (someone took the port just now)."""
    return ListenError(f"cannot listen on {address}: the port was taken just now "
                       f"(another program?); try again, or choose another --port")


def _reason(host: str, port: int, exc: OSError | None) -> str:
    code = exc.errno if exc is not None else None
    if code == errno.EADDRINUSE:
        return (f"port {port} on {host} is already in use: another program listens there "
                f"(a cursed-bottle serve already running?); stop it, or choose another "
                f"--port (--port 0: any free one)")
    if code == errno.EADDRNOTAVAIL:
        return f"--host {host}: not an address of this machine ({_choices()})"
    if code in (errno.EACCES, errno.EPERM):
        return (f"port {port} needs administrator rights (ports below 1024 do): choose one "
                f"from 1024 up, e.g. the default 50051")
    detail = exc.strerror if exc is not None and exc.strerror else str(exc)
    return f"cannot listen on {host}:{port}: {detail}"


def _choices() -> str:
    """The addresses --host may take, for the message."""
    mine = ", ".join(local_addresses())
    listed = f"{mine}, and " if mine else ""
    return (f"this machine has {listed}127.0.0.1 for itself only; 0.0.0.0 listens on all "
            f"of them")


def local_addresses() -> list[str]:
    """This machine's own IPv4 addresses on its networks (not loopback), best first:
    the one its default route leaves by, then those its name resolves to."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))  # UDP: no packet is sent
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found += [info[4][0] for info in infos]
    except OSError:
        pass
    seen = dict.fromkeys(a for a in found if not a.startswith("127.") and a != "0.0.0.0")
    return list(seen)
