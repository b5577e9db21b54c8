"""Many deals solved at once: a batch of positions on a few threads.

The compiled search runs without the GIL, so positions solved in different
threads are solved in parallel.  The strong bot, the hints and the review
solve many positions per decision (the guessed deals of one information set,
every card of a hand); `solve_many` hands them out to `threads` worker
threads, each solving one position after the other with its own table
(`_search.SearchTables`, kept between batches until `release_tables`), and
returns the `Solution`s in input order, the values exactly those of solving
one by one (the node counts may differ: they depend on the table a solve
meets); `solve_within` answers what it solved by a deadline (a bot's time
budget) and gives up the rest.  `solve_split` spreads one position's cards
over the threads instead, for a single position whose answer is awaited (the
`solve` command); they share one table, and in the paranoid model a thread
without a card left takes the answers to another's (solver/split.py).

Cancelling (the caller's `CancelToken`, explicit or the thread's current one)
stops every thread within 4,096 nodes; so does the first error of any
position (it is raised in the caller) and the batch's time limit, which is
wall-clock time for the whole batch.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import Card
from ..engine.hand import Hand
from ..engine.position import Position
from ..engine.records import HandRecord
from . import _search
from .api import Solution, Step, plays_of, root_cards, solve_hand
from .cancel import POLL_SECONDS, Cancelled, CancelToken, cancellable, current_token
from .model import Model
from .split import solve_within_cards

#: Worker threads' tables kept between batches (a table is costly to allocate and
#: to fault in; after a review's first tricks one is hundreds of MB): at most this
#: many, the rest are given back as their threads end.
KEEP_TABLES = 4
_spare: list[_search.SearchTables] = []
_spare_lock = threading.Lock()
#: The table `solve_split`'s threads share, kept between its calls as the
#: workers' are (one call at a time uses it; another meanwhile makes its own).
_shared = _search.SearchTables(shared=True)
_shared_lock = threading.Lock()


def _take_tables() -> _search.SearchTables:
    """A worker's own tables: a kept one, or new."""
    with _spare_lock:
        if _spare:
            return _spare.pop()
    return _search.SearchTables()


def _give_back(tables: _search.SearchTables) -> None:
    with _spare_lock:
        if len(_spare) < KEEP_TABLES:
            _spare.append(tables)
            return
    tables.release()


def release_tables() -> None:
    """Give back the memory of the tables the worker threads keep between batches."""
    with _spare_lock:
        for tables in _spare:
            tables.release()
        _spare.clear()
    with _shared_lock:
        _shared.release()


def default_threads() -> int:
    """The cores of the machine (the batch's default)."""
    return os.cpu_count() or 1


def solve_many(
    positions: Sequence[Hand | Position],
    *,
    model: Model | str = Model.PARANOID,
    threads: int | None = None,
    time_limit: float | None = None,
    cancel: CancelToken | None = None,
    opts: int | None = None,
) -> list[Solution]:
    """The `Solution` of every position (engine Hands in their play phase or
    FORMATS.md positions), in input order, solved on at most `threads`
    threads (None: `default_threads()`; never more than there are positions).

    `model` is every solve's (`api.solve_hand`).  Past `time_limit` seconds
    of wall-clock time for the whole batch it raises TimeoutError; once
    `cancel` (by default this thread's current token) is cancelled it raises
    `Cancelled`.  Either way every thread has stopped when it returns.  With
    one thread the positions are solved in the calling thread.
    """
    hands, model, count, outer = _batch_of(positions, model, threads, cancel)
    if not hands:
        return []
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if count == 1:
        return [_solve_inline(hand, model, deadline, time_limit, outer, opts) for hand in hands]
    units = [_Unit(hand) for hand in hands]
    return _Batch(units, model, count, opts).run(deadline, time_limit, outer)


def solve_within(
    positions: Sequence[Hand | Position],
    time_limit: float | None,
    *,
    each: float | None = None,
    model: Model | str = Model.PARANOID,
    threads: int | None = None,
    cancel: CancelToken | None = None,
    opts: int | None = None,
) -> list[Solution | None]:
    """`solve_many` for a caller with a deadline rather than a need for every
    answer (a bot's time budget): past `time_limit` seconds of wall-clock time
    (None: no limit) the positions not yet solved are given up and answer
    None, the others their `Solution`, in input order (the values exactly
    `solve_many`'s).  `each` bounds one position's solve the same way: a
    position that takes longer answers None and its thread goes on to the
    next.

    So a solve that would take longer than the whole budget no longer makes
    the caller overrun it, nor spend all of it on one position.  Cancelling
    and errors as in `solve_many`."""
    if each is not None and not each > 0:
        raise ValueError(f"each: {each} is not a positive number of seconds")
    hands, model, count, outer = _batch_of(positions, model, threads, cancel)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if count <= 1:
        out: list[Solution | None] = []
        for hand in hands:
            try:
                out.append(_solve_inline(hand, model, deadline, time_limit, outer, opts, each))
            except _GaveUp:
                out.append(None)
            except TimeoutError:
                break
        return out + [None] * (len(hands) - len(out))
    batch = _Batch([_Unit(hand) for hand in hands], model, count, opts, each=each)
    return batch.run(deadline, time_limit, outer, partial=True)


def _batch_of(
    positions: Sequence[Hand | Position],
    model: Model | str,
    threads: int | None,
    cancel: CancelToken | None,
) -> tuple[list[Hand], Model, int, CancelToken | None]:
    """A batch's hands, model, worker count and token, its arguments checked."""
    if threads is not None and threads < 1:
        raise ValueError(f"threads: {threads} is not at least 1")
    hands = [p.to_hand() if isinstance(p, Position) else p for p in positions]
    count = min(default_threads() if threads is None else threads, len(hands))
    outer = cancel if cancel is not None else current_token()
    if outer is not None:
        outer.check()
    return hands, Model(model), count, outer


def solve_split(
    position: Hand | Position,
    *,
    model: Model | str = Model.PARANOID,
    threads: int | None = None,
    time_limit: float | None = None,
    cancel: CancelToken | None = None,
    opts: int | None = None,
    shared_table: bool = True,
    within_cards: bool = True,
    speculate: bool = True,
) -> Solution:
    """One position's `Solution` with its cards shared among `threads` threads
    (None: `default_threads()`): each thread takes the next card not yet
    searched (`api.root_cards`), so a long card does not hold up the others.

    For one position at a time (the `solve` command, a hint on a known deal).
    The paranoid search's threads share one table (`SearchTables(shared=True)`,
    at the size the position's solve may grow to, kept between calls), so
    that what one card's search stores serves the others'; max-n's threads
    keep their own, and so do the paranoid search's with `shared_table=False`
    (to measure what sharing buys).  With the shared table and
    `within_cards`, a paranoid solve splits each card's probes too, into
    the answers to it, which threads that have no card left take
    (solver/split.py), and a thread with nothing else to do probes a card
    at a bound beside its plan's (`speculate`).  A batch of positions is better spread a position a
    thread (`solve_many`).  The values are those of one solve; the
    nodes are the threads' sum (bench/README.md).  `time_limit` is wall-clock
    time; cancelling as in `solve_many`."""
    hand = position.to_hand() if isinstance(position, Position) else position
    model = Model(model)
    if threads is not None and threads < 1:
        raise ValueError(f"threads: {threads} is not at least 1")
    cards = root_cards(hand, model, opts)
    wanted = default_threads() if threads is None else threads
    # (A card's answers can keep more threads busy than there are cards.)
    within_cards = within_cards and shared_table and model is Model.PARANOID
    count = wanted if within_cards else min(wanted, len(cards))
    outer = cancel if cancel is not None else current_token()
    if outer is not None:
        outer.check()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        if count <= 1:
            return _solve_inline(hand, model, deadline, time_limit, outer, opts)
        # The kept shared table if no other call holds it, else one of this
        # call's own; None: a table per thread.
        kept = shared = None
        if shared_table and model is Model.PARANOID:
            kept = _shared_lock.acquire(blocking=False)
            shared = _shared if kept else _search.SearchTables(shared=True)
        try:
            if shared is not None and within_cards:
                return solve_within_cards(
                    hand, threads=count, tables=shared, deadline=deadline, outer=outer,
                    opts=opts, speculate=speculate,
                )
            parts = _Batch(
                [_Unit(hand, card) for card in cards], model, count, opts, shared
            ).run(deadline, time_limit, outer)
        finally:
            if kept:
                _shared_lock.release()
            elif shared is not None:
                shared.release()
    except TimeoutError:
        raise TimeoutError(
            f"no answer within {time_limit:g} s of search on {count} thread(s)"
        ) from None
    values = {card: v for part in parts for card, v in part.values.items()}
    return Solution(
        parts[0].seat,
        dict(sorted(values.items(), key=lambda cv: cv[0].index)),
        sum(part.nodes for part in parts),
        model,
    )


def analyse_many(
    record: HandRecord | dict,
    first: int = 0,
    model: Model | str = Model.PARANOID,
    *,
    threads: int | None = None,
) -> list[Step]:
    """`api.analyse` with the positions of the hand solved at once on `threads`
    threads (`solve_many`): the same steps."""
    plays = plays_of(record, first)
    solutions = solve_many([hand for _, _, hand in plays], model=model, threads=threads)
    return [
        Step(index, solution.seat, card, solution)
        for (index, card, _), solution in zip(plays, solutions, strict=True)
    ]


def _solve_inline(
    hand: Hand,
    model: Model,
    deadline: float | None,
    time_limit: float | None,
    token: CancelToken | None,
    opts: int | None,
    each: float | None = None,
) -> Solution:
    """One position in the calling thread, within what is left of the batch's
    time (TimeoutError) and within `each` seconds of its own (`_GaveUp`)."""
    left = None
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no answer within {time_limit:g} s for the batch")
    own = each is not None and (left is None or each < left)
    try:
        return solve_hand(hand, opts, time_limit=each if own else left, cancel=token, model=model)
    except TimeoutError:
        if own:
            raise _GaveUp from None
        raise TimeoutError(f"no answer within {time_limit:g} s for the batch") from None


class _GaveUp(Exception):
    """A position's solve passed its own time (`solve_within`'s `each`)."""


@dataclass(frozen=True)
class _Unit:
    """What a worker solves at once: a position, or one card of it (and the
    cards equivalent to that card)."""

    hand: Hand
    card: Card | None = None


class _Batch:
    """The worker threads of one `solve_many` or `solve_split` call and what
    they found."""

    def __init__(
        self,
        units: list[_Unit],
        model: Model,
        threads: int,
        opts: int | None,
        shared: _search.SearchTables | None = None,
        each: float | None = None,
    ) -> None:
        self.units = units
        #: The most time one unit may take (None: no limit; `solve_within`).
        self.each = each
        self.model = model
        self.threads = threads
        self.opts = opts
        #: One table every worker searches (`solve_split`), else each its own.
        self.shared = shared
        self.results: list[Solution | None] = [None] * len(units)
        #: The next position to take (next() on a count is atomic under the GIL).
        self.next = itertools.count()
        #: The workers' own token: the caller's cancel, an error or the clock sets it.
        self.token = CancelToken()
        self.errors: list[tuple[int, BaseException]] = []
        self.lock = threading.Lock()

    def run(
        self,
        deadline: float | None,
        time_limit: float | None,
        outer: CancelToken | None,
        partial: bool = False,
    ) -> list[Solution]:
        """Every unit's answer; past the deadline TimeoutError, or with
        `partial` the answers found by then (None for the rest)."""
        workers = [
            threading.Thread(target=self._work, name=f"cb-batch-{i}", daemon=True)
            for i in range(self.threads)
        ]
        for worker in workers:
            worker.start()
        timed_out = False
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(POLL_SECONDS)
                    if self.token.cancelled:
                        continue
                    if outer is not None and outer.cancelled:
                        self.token.cancel()
                    elif deadline is not None and time.monotonic() > deadline:
                        timed_out = True
                        self.token.cancel()
        except BaseException:  # Ctrl-C in the caller: stop the workers first
            self.token.cancel()
            for worker in workers:
                worker.join()
            raise
        if outer is not None and outer.cancelled:
            outer.check()
        own = [(i, e) for i, e in self.errors if not isinstance(e, Cancelled)]
        if own:
            raise min(own, key=lambda ie: ie[0])[1]
        if timed_out:
            if partial:
                return self.results  # type: ignore[return-value]
            raise TimeoutError(f"no answer within {time_limit:g} s for the batch")
        if self.errors:  # cancelled without a cause here: cannot happen, but say so
            raise self.errors[0][1]
        return self.results  # type: ignore[return-value]

    def _work(self) -> None:
        tables = self.shared if self.shared is not None else _take_tables()
        try:
            with cancellable(self.token):
                self._solve_with(tables)
        finally:
            if self.shared is None:
                _give_back(tables)

    def _solve_with(self, tables: _search.SearchTables) -> None:
        #: The thread's last card's value, where its next card of the same
        #: position starts (as one solve starts each card at the one before).
        last: tuple[Hand, int] | None = None
        while not self.token.cancelled:
            index = next(self.next)
            if index >= len(self.units):
                return
            unit = self.units[index]
            guess = last[1] if last is not None and last[0] is unit.hand else None
            try:
                solution = solve_hand(
                    unit.hand, self.opts, cancel=self.token, model=self.model,
                    tables=tables, time_limit=self.each,
                    **({} if unit.card is None else {"cards": [unit.card], "guess": guess}),
                )
                self.results[index] = solution
                if unit.card is not None:
                    last = (unit.hand, solution.values[unit.card])
            except BaseException as error:
                if isinstance(error, TimeoutError) and self.each is not None:
                    continue  # past its own time: given up, on to the next
                # handed to the caller
                with self.lock:
                    self.errors.append((index, error))
                self.token.cancel()
                return
