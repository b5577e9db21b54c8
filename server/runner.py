"""Where bots, hints and reviews think: worker threads, off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


class BotRunner:
    """Where bots and hints think: worker threads, off the event loop.

    The search releases the GIL, so threads think in parallel; there are more
    bot threads than cores so that a cheap bot is not queued behind slow ones
    of other tables.  Hints have threads of their own: people asking for
    advice never hold the bots up; so do hand reviews (a whole hand solved
    card by card takes seconds), which hold up neither bots nor hints.
    """

    def __init__(
        self,
        workers: int = 8,
        delay: float = 0.0,
        hint_workers: int = 2,
        review_workers: int = 2,
    ) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cb-bot")
        self.hint_pool = ThreadPoolExecutor(max_workers=hint_workers, thread_name_prefix="cb-hint")
        self.review_pool = ThreadPoolExecutor(
            max_workers=review_workers, thread_name_prefix="cb-review"
        )
        #: Seconds a bot waits before it acts, so people can follow (0 in tests).
        self.delay = delay

    async def run(self, fn: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def run_hint(self, fn: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self.hint_pool, fn, *args)

    def submit_review(self, fn: Callable, *args) -> asyncio.Future:
        """`fn(*args)` in a review thread, as a future of the running loop (several
        requests for the same review may await it)."""
        return asyncio.get_running_loop().run_in_executor(self.review_pool, fn, *args)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.hint_pool.shutdown(wait=False, cancel_futures=True)
        self.review_pool.shutdown(wait=False, cancel_futures=True)
