"""Following a seat's stream across dropped connections.

`resume` yields the server's updates and says when the link is lost and back; on
a drop it follows again with the seat's token from the next sequence the model
expects, so nothing is missed or applied twice.  A refusal that retrying cannot
mend (a left seat, an unknown table) ends it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import grpc
from cursedbottle.v1 import table_pb2

from .net import RETRYABLE, Seat, Session, error_text

#: Seconds before the first retry, and the most between two.
FIRST_DELAY, MAX_DELAY = 0.5, 5.0


@dataclass(frozen=True)
class Lost:
    """The link dropped: retrying."""


@dataclass(frozen=True)
class Back:
    """The link is back (said before the first update after a drop)."""


@dataclass(frozen=True)
class Refused:
    """The server refused the stream for good: `text` says why (in English; `error` is
    the refusal itself, for words in the reader's language: client/refusals.py)."""

    text: str
    error: grpc.aio.AioRpcError | None = field(default=None, compare=False)


Followed = table_pb2.TableUpdate | Lost | Back | Refused


async def resume(session: Session, seat: Seat,
                 next_seq: Callable[[], int]) -> AsyncIterator[Followed]:
    """The seat's updates until the table closes (a server shutting down is a drop)."""
    delay = FIRST_DELAY
    lost = False
    while True:
        try:
            async for update in session.follow(seat, next_seq()):
                if lost:
                    lost = False
                    yield Back()
                delay = FIRST_DELAY
                yield update
                if update.WhichOneof("kind") == "closed":
                    if "shutting down" not in update.closed.reason:
                        return
                    break
        except grpc.aio.AioRpcError as exc:
            if exc.code() not in RETRYABLE:
                yield Refused(error_text(exc), exc)
                return
        lost = True
        yield Lost()
        await asyncio.sleep(delay)
        delay = min(delay * 2, MAX_DELAY)
