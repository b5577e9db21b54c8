"""Where bots, hints and reviews think: worker threads, off the event loop, shared fairly.

The search releases the GIL, so threads think in parallel.  Bots, hints and
reviews have pools of their own (people asking for advice never hold the bots
up, nor a hand review the hints), and inside each pool nobody can starve the
others (`FairPool`):
- work is queued by a key (a table for bots and hints, a client for reviews)
  and the keys take turns (round robin); a key has at most one job thinking
  at a time, so one table's bots, or one client's reviews, hold one thread;
  keys belong to groups (a bot's table to the client that made it), and the
  groups take turns first: twenty tables of one client's strong bots wait in
  turn with one table of someone else's, not twenty turns before it;
- slow work (a searching bot, a long hint) may hold all threads but the
  reserved ones, which stay for quick work: a table of random bots goes on
  while every other table's strong bots think;
- every job carries a `CancelToken` (solver/cancel.py) that the search looks
  at every 65,536 nodes: a job whose callers have gone is cancelled, and
  `shutdown` cancels everything, so the server stops promptly even while
  bots, hints and reviews are deep in a search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from cursedbottle.bots.hints import HINT_THREADS
from cursedbottle.solver.cancel import Cancelled, CancelToken, cancellable

log = logging.getLogger("cursedbottle.server")

#: The longest a bot may think per decision (`strong:10`), and the most deals it
#: may guess (`strong:n256`): the server refuses bigger efforts.
MAX_BOT_SECONDS = 10.0
MAX_BOT_DEALS = 256
#: Bots that search (slow work) thinking at once: half the cores.  Much of their
#: thinking is Python (rollouts), which holds the GIL: more such threads add
#: little throughput and make the event loop and quick bots wait for the GIL
#: (bench/README.md, "Floods").
SLOW_BOT_THREADS = max(1, (os.cpu_count() or 2) // 2)
#: The threads one hint or one review solves its positions on at once (the
#: guessed deals, the hand's cards: solver/batch.py), each with its own table:
#: a hint's (`bots.hints.HINT_THREADS`, at most two) for a review too, so the
#: hint and review pools never run more than twice their threads' searches
#: (docs/protocol.md, "Limits: bots, hints and reviews").  Bots solve on their
#: own thread: the bot pool already runs them in parallel.
SOLVER_THREADS = HINT_THREADS
#: The interpreter's GIL switch interval while a runner exists (Python's default
#: is 5 ms): a thread in pure Python (rollouts) holds the GIL until asked to
#: drop it, and the event loop, woken several times per call, waited up to that
#: long each time (what it buys: bench/README.md, "Floods").
SWITCH_INTERVAL = 0.001
#: A job that took longer than this makes its key slow: its next jobs queue as slow work.
FAST_SECONDS = 0.25
#: Seconds `shutdown` waits for the worker threads to end (they are daemon
#: threads: one still in a long stretch of pure Python never holds the process).
SHUTDOWN_WAIT = 1.0


@dataclass(eq=False)
class Job:
    """One piece of work in a pool: its key, whether it is slow, its answer and its token."""

    key: Hashable
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    slow: bool
    loop: asyncio.AbstractEventLoop
    #: The answer, on `loop`; cancelling it (nobody waits) cancels the job.
    future: asyncio.Future
    #: Who asked (a seat, say), counted by `pending` until the job has ended.
    owner: Hashable | None = None
    #: Whose turn it is among keys: the groups take turns (the key itself by default).
    group: Hashable | None = None
    token: CancelToken = field(default_factory=CancelToken)
    ended: bool = False

    def cancel(self) -> None:
        """Give the job up: taken off the queue, or its search told to stop."""
        self.token.cancel()
        if not self.future.done():
            self.future.cancel()


class FairPool:
    """Worker threads that serve keys in turn, one job of a key at a time, with
    at most `slow_limit` of them thinking slow work (see the module's docstring)."""

    def __init__(
        self,
        name: str,
        workers: int,
        slow_limit: int | None = None,
        on_idle: Callable[[], None] | None = None,
        measure: bool = False,
    ) -> None:
        self.name = name
        self.workers = max(1, workers)
        #: Threads slow work may hold at once (the others stay for quick work).
        self.slow_limit = max(1, min(self.workers - 1, slow_limit or self.workers))
        self.on_idle = on_idle
        #: Whether a key whose last job took long is slow (bots: a bot may be slow
        #: without saying so); else only what a job declares counts (a hint's budget).
        self.measure = measure
        self._cond = threading.Condition()
        #: Keys with work waiting, in the order they get their turn.
        self._waiting: OrderedDict[Hashable, deque[Job]] = OrderedDict()
        self._running: dict[Hashable, int] = {}
        self._active: set[Job] = set()
        self._slow_running = 0
        #: Keys whose last job took longer than FAST_SECONDS.
        self._slow_keys: set[Hashable] = set()
        #: Group → when it last had a job started (a count of jobs started).
        self._served: dict[Hashable, int] = {}
        self._starts = 0
        #: Owner → its jobs not yet ended (waiting or thinking).
        self._owners: dict[Hashable, int] = {}
        self._threads: list[threading.Thread] = []
        self._idle_threads = 0
        self._closed = False
        #: Whether a job ran since the pool was last idle (`on_idle` is due once idle).
        self._worked = False
        #: Jobs whose work stopped because they were cancelled (for tests and the log).
        self.cancelled_jobs = 0

    # ------------------------------------------------------------ the loop side

    def submit(
        self,
        key: Hashable,
        fn: Callable[..., Any],
        *args: Any,
        slow: bool = False,
        owner: Hashable | None = None,
        group: Hashable | None = None,
    ) -> Job:
        """Queue `fn(*args)` under `key` (in `group`: the groups take turns first);
        the job's future is of the running loop."""
        loop = asyncio.get_running_loop()
        job = Job(key, fn, args, slow, loop, loop.create_future(), owner, group)
        job.future.add_done_callback(lambda f, job=job: f.cancelled() and self._forget(job))
        with self._cond:
            if self._closed:
                raise RuntimeError(f"the {self.name} pool is shut down")
            if owner is not None:
                self._owners[owner] = self._owners.get(owner, 0) + 1
            self._waiting.setdefault(key, deque()).append(job)
            queued = sum(len(queue) for queue in self._waiting.values())
            if self._idle_threads < queued and len(self._threads) < self.workers:
                thread = threading.Thread(
                    target=self._work, name=f"cb-{self.name}-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            self._cond.notify()
        return job

    async def run(self, key: Hashable, fn: Callable[..., Any], *args: Any, **options: Any):
        """`fn(*args)` in a worker thread (`options` as for `submit`); cancelling the
        caller cancels the job."""
        return await self.submit(key, fn, *args, **options).future

    def pending(self, owner: Hashable) -> int:
        """The jobs of `owner` not ended yet: waiting, or thinking (even if given up:
        a search stops at its next check, pure Python at its end)."""
        with self._cond:
            return self._owners.get(owner, 0)

    def _end(self, job: Job) -> None:
        """The job is over for good (under the lock)."""
        if job.ended:
            return
        job.ended = True
        if job.owner is not None:
            left = self._owners.get(job.owner, 0) - 1
            if left > 0:
                self._owners[job.owner] = left
            else:
                self._owners.pop(job.owner, None)

    def _forget(self, job: Job) -> None:
        """A job whose future was cancelled: its search stops, or it never starts."""
        job.token.cancel()
        with self._cond:
            queue = self._waiting.get(job.key)
            if queue is not None and job in queue:
                queue.remove(job)
                if not queue:
                    del self._waiting[job.key]
                self._end(job)
                self._cond.notify()  # (a thread may find the pool idle now)

    @property
    def busy(self) -> int:
        """Jobs thinking now (for tests and the benchmark)."""
        with self._cond:
            return len(self._active)

    def shutdown(self, wait: float = SHUTDOWN_WAIT) -> None:
        """Cancel every job, waiting or thinking, and let the threads end."""
        self.close()
        self.join(time.monotonic() + wait)

    def close(self) -> None:
        """Cancel every job, waiting or thinking; no new work is taken."""
        with self._cond:
            self._closed = True
            jobs = [job for queue in self._waiting.values() for job in queue]
            jobs.extend(self._active)
            self._waiting.clear()
            for job in jobs:
                job.token.cancel()
            for job in jobs[: len(jobs) - len(self._active)]:
                self._end(job)
            self._cond.notify_all()
        for job in jobs:
            _settle(job, None, Cancelled("the server is shutting down"))

    def join(self, deadline: float) -> None:
        """Wait for the threads to end, until `deadline` (time.monotonic())."""
        with self._cond:
            threads = list(self._threads)
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
        left = [t.name for t in threads if t.is_alive()]
        if left:
            log.warning("%s threads still busy at shutdown (daemon threads): %s", self.name, left)

    # ---------------------------------------------------------- the thread side

    def _next(self) -> Job | None:
        """The next job, or None once the pool is closed; runs `on_idle` (outside
        the lock) when the pool has become idle since the last time."""
        while True:
            with self._cond:
                while True:
                    if self._closed:
                        return None
                    job = self._pick()
                    if job is not None:
                        self._worked = True
                        return job
                    if self._worked and not self._active and not self._waiting:
                        self._worked = False
                        break
                    self._idle_threads += 1
                    try:
                        self._cond.wait()
                    finally:
                        self._idle_threads -= 1
            if self.on_idle is not None:
                try:
                    self.on_idle()
                except Exception:
                    log.exception("%s pool: idle hook failed", self.name)

    def _pick(self) -> Job | None:
        """The next job in turn whose key thinks nothing now (under the lock): of the
        group served longest ago, the first of its keys in turn."""
        chosen, chosen_at = None, None
        for key, queue in self._waiting.items():
            if self._running.get(key, 0):
                continue
            slow = queue[0].slow or key in self._slow_keys
            if slow and self._slow_running >= self.slow_limit:
                continue
            served = self._served.get(_group(queue[0]), -1)
            if chosen_at is None or served < chosen_at:
                chosen, chosen_at = key, served
        if chosen is None:
            return None
        key, queue = chosen, self._waiting[chosen]
        slow = queue[0].slow or key in self._slow_keys
        job = queue.popleft()
        self._starts += 1
        if len(self._served) > 10_000:  # (groups long gone)
            self._served.clear()
        self._served[_group(job)] = self._starts
        if queue:
            self._waiting.move_to_end(key)
        else:
            del self._waiting[key]
        self._running[key] = 1
        self._active.add(job)
        job.slow = slow
        self._slow_running += slow
        return job

    def _measured(self, key: Hashable, took: float) -> None:
        """A key is slow while its last job took longer than FAST_SECONDS (under the lock)."""
        if took <= FAST_SECONDS:
            self._slow_keys.discard(key)
            return
        if len(self._slow_keys) > 10_000:  # (keys of tables long gone)
            self._slow_keys.clear()
        self._slow_keys.add(key)

    def _work(self) -> None:
        while (job := self._next()) is not None:
            started = time.monotonic()
            value, error = None, None
            try:
                with cancellable(job.token):
                    job.token.check()
                    value = job.fn(*job.args)
            except BaseException as exc:  # the caller gets it, whatever it is
                error = exc
            took = time.monotonic() - started
            with self._cond:
                if isinstance(error, Cancelled):
                    self.cancelled_jobs += 1
                self._active.discard(job)
                self._end(job)
                del self._running[job.key]
                self._slow_running -= job.slow
                if self.measure:
                    self._measured(job.key, took)
                self._cond.notify_all()
            _settle(job, value, error)


def _group(job: Job) -> Hashable:
    return job.key if job.group is None else job.group


def _settle(job: Job, value: Any, error: BaseException | None) -> None:
    """Hand the answer to the job's loop (a cancelled job's future is cancelled)."""

    def resolve() -> None:
        future = job.future
        if future.done():
            return
        if job.token.cancelled or isinstance(error, Cancelled):
            future.cancel()
        elif error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
        job.loop.call_soon_threadsafe(resolve)


def check_bot_effort(name: str) -> None:
    """Refuse a bot name whose effort passes the server's limits (`strong:inf`,
    `strong:1e9`, `strong:n100000`, any threshold of exact solves such as
    `strong:0.3:x33`); the name's other faults are make_bot's to say."""
    from .errors import invalid

    base, _, effort = name.partition(":")
    if not effort:
        return
    effort, _, threshold = effort.partition(":")
    if threshold:
        # An exact solve from the first lead can take minutes: the bots' own thresholds only.
        raise invalid(
            "BOT_EFFORT",
            f"bot: {name!r} sets its own threshold of exact solves, beyond the server's"
            f" limit (the bot's own threshold: {base}:{effort})",
        )
    deals = None
    if effort[:1] in ("n", "N"):
        # (`nan` is not deals but seconds, or rather not a number of them.)
        with contextlib.suppress(ValueError):
            deals = int(effort[1:])
    if deals is not None:
        if deals > MAX_BOT_DEALS:
            raise invalid(
                "BOT_EFFORT",
                f"bot: {name!r} guesses too many deals per decision"
                f" (the server's limit is {MAX_BOT_DEALS}: strong:n{MAX_BOT_DEALS})",
            )
        return
    try:
        seconds = float(effort)
    except ValueError:
        return
    if not seconds <= MAX_BOT_SECONDS:  # (nan and inf fail this too)
        raise invalid(
            "BOT_EFFORT",
            f"bot: {name!r} thinks too long per decision (the server's limit is"
            f" {MAX_BOT_SECONDS:g} seconds: strong:{MAX_BOT_SECONDS:g})",
        )


def searches(bot: object) -> bool:
    """Whether a bot searches (it has a time budget or a number of deals): slow work."""
    return getattr(bot, "budget", None) is not None or getattr(bot, "samples", None) is not None


def _release_solver_memory() -> None:
    """The solver keeps its biggest table for the next solve; a review's is hundreds
    of MB, so once no review is left it is given back (bots make a small one again),
    the batch threads' tables too (solver/batch.py)."""
    from cursedbottle.solver.api import release_table
    from cursedbottle.solver.batch import release_tables

    release_table()
    release_tables()


class BotRunner:
    """The server's three pools: bots, hints and reviews (see the module's docstring)."""

    def __init__(
        self,
        workers: int = 8,
        delay: float = 0.0,
        hint_workers: int = 2,
        review_workers: int = 2,
    ) -> None:
        self.bots = FairPool("bot", workers, slow_limit=SLOW_BOT_THREADS, measure=True)
        # Two hint threads: one stays for hints of at most the default budget.
        self.hints = FairPool("hint", hint_workers, slow_limit=hint_workers - 1)
        self.reviews = FairPool(
            "review", review_workers, on_idle=_release_solver_memory
        )
        #: Seconds a bot waits before it acts, so people can follow (0 in tests).
        self.delay = delay
        # The event loop shares the GIL with these threads (see SWITCH_INTERVAL).
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)

    async def think(self, table_id: str, bot, view, client: str = ""):
        """The bot's action for `view`: at most one bot of a table thinks at a time, the
        clients who made the tables take turns and then their tables; cancelling the
        caller (the bot was removed) stops the search."""
        return await self.bots.run(
            table_id, bot.act, view, slow=searches(bot), group=("client", client)
        )

    def shutdown(self) -> None:
        """Cancel every bot, hint and review and end the threads (about a second at most)."""
        pools = (self.bots, self.hints, self.reviews)
        for pool in pools:
            pool.close()
        deadline = time.monotonic() + SHUTDOWN_WAIT
        for pool in pools:
            pool.join(deadline)
