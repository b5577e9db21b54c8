"""Password checks off the event loop, with a brake on guessing.

A table's password is kept as a salted PBKDF2 hash, deliberately slow to
compute (tens of milliseconds).  Computed on the event loop, a flood of wrong
guesses would hold up every table; so checks run in a thread of their own, a
client may have only a few in progress, and after too many wrong guesses
within a window its further checks are refused until the window has moved on.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from .errors import exhausted
from .limits import Limits

#: Clients whose wrong guesses are remembered before the stale ones are swept out.
MAX_CLIENTS_REMEMBERED = 10_000


class PasswordGate:
    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cb-password")
        self._in_flight: dict[str, int] = {}
        self._wrong: dict[str, deque[float]] = {}

    async def check(self, client: str, matches: Callable[[], bool]) -> bool:
        """Whether `matches()` (the slow hash comparison) holds, computed in the gate's
        thread; RESOURCE_EXHAUSTED while `client` is over its limits."""
        limits = self.limits
        wrong = self._recent_wrong(client)
        if len(wrong) >= limits.wrong_passwords:
            wait = max(1, round(wrong[0] + limits.wrong_password_window_seconds - self.clock()))
            raise exhausted(
                "TOO_MANY_GUESSES",
                f"{limits.wrong_passwords} wrong passwords from your address within "
                f"{limits.wrong_password_window_seconds:.0f} s (the limit): try again in {wait} s"
            )
        busy = self._in_flight.get(client, 0)
        if busy >= limits.password_checks_per_client:
            raise exhausted(
                "TOO_MANY_GUESSES",
                f"{busy} password checks of yours are still being computed "
                f"(at most {limits.password_checks_per_client} at once): wait for them"
            )
        self._in_flight[client] = busy + 1
        try:
            ok = await asyncio.get_running_loop().run_in_executor(self.pool, matches)
        finally:
            left = self._in_flight[client] - 1
            if left:
                self._in_flight[client] = left
            else:
                del self._in_flight[client]
        if not ok:
            if len(self._wrong) > MAX_CLIENTS_REMEMBERED:
                for other in list(self._wrong):
                    self._recent_wrong(other)  # (drops those whose window has passed)
            self._wrong.setdefault(client, deque()).append(self.clock())
        return ok

    def _recent_wrong(self, client: str) -> deque[float]:
        wrong = self._wrong.get(client)
        if wrong is None:
            return deque()
        horizon = self.clock() - self.limits.wrong_password_window_seconds
        while wrong and wrong[0] < horizon:
            wrong.popleft()
        if not wrong:
            del self._wrong[client]
        return wrong

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
