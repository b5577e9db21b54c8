"""Cancelling a search from another thread: a token the search looks at.

The search runs without the GIL for seconds; a server that must stop, or
whose caller has gone, needs a way to say "give up" that the search sees
without taking the GIL.  A `CancelToken` is a one-byte flag: the compiled
search reads it where it already looks at the clock (every 4,096 nodes) and
raises `Cancelled`.  A thread that runs work on behalf of someone sets the
token as its *current* one (`cancellable`), so that every solve it makes, however
deep in the bots' code, is cancellable without passing the token through every
call; `check_cancelled` lets Python loops between solves look too.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: How often (seconds) a caller waiting for its worker threads looks at its
#: token and the clock (solver/batch.py, solver/split.py).
POLL_SECONDS = 0.002


class Cancelled(Exception):
    """The work was cancelled: nobody waits for its answer any more."""


class CancelToken:
    """A flag set once, from any thread; `flag` is what the compiled search reads."""

    __slots__ = ("flag",)

    def __init__(self) -> None:
        #: One byte, 1 once cancelled (a buffer the search holds without the GIL).
        self.flag = bytearray(1)

    def cancel(self) -> None:
        self.flag[0] = 1

    @property
    def cancelled(self) -> bool:
        return self.flag[0] != 0

    def check(self) -> None:
        if self.flag[0]:
            raise Cancelled("the work was cancelled")


_local = threading.local()


def current_token() -> CancelToken | None:
    """The token of the work this thread does now (None: not cancellable)."""
    return getattr(_local, "token", None)


@contextmanager
def cancellable(token: CancelToken | None) -> Iterator[None]:
    """Make `token` this thread's current one while the block runs."""
    before = current_token()
    _local.token = token
    try:
        yield
    finally:
        _local.token = before


def check_cancelled() -> None:
    """Raise `Cancelled` if this thread's current work was cancelled."""
    token = getattr(_local, "token", None)
    if token is not None and token.flag[0]:
        raise Cancelled("the work was cancelled")
