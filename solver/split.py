"""One position's paranoid solve shared among threads, down to the answers
to one card.

Sharing a position's cards among threads (a card a thread) leaves a thread
idle once the cards run out, and in the positions that take longest one card
holds most of the search (issue 17: 3p-11 #8, 14.8 M of 20.3 M nodes in one
card of eleven).  So each card's value is found here as `exact` finds it
(zero-window probes, MTD(f)), and each probe is split into the answers of
the seats against the root side in the trick (`_search.split_node`): the
root side takes at least b after its card if and only if it does after every
answer, so the answers are probed on whichever threads are free, sharing one
table, and the first answer below b settles the probe (the others still
running are cancelled).  A thread takes a card not yet started before it
helps with another's answers.  The values are those of one solve; the nodes
are the threads' sum over the probes that finished (a cancelled one's are
not counted).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

from ..engine.hand import Hand
from . import _search
from .api import Solution, problem_of, table_bits
from .cancel import POLL_SECONDS, Cancelled, CancelToken
from .model import Model
from .problem import Problem


def solve_within_cards(
    hand: Hand,
    *,
    threads: int,
    tables: _search.SearchTables,
    deadline: float | None = None,
    outer: CancelToken | None = None,
    opts: int | None = None,
) -> Solution:
    """The paranoid `Solution` of `hand` on `threads` threads sharing
    `tables` (`SearchTables(shared=True)`), each card's probes split into the
    answers to it.  Past `deadline` (time.monotonic()) TimeoutError; once
    `outer` is cancelled, `Cancelled`."""
    problem, factor = problem_of(hand, Model.PARANOID)
    opts = _search.ALL_OPTIONS if opts is None else opts
    cards = _search.root_cards(problem, opts=opts)
    cards_left = sum(bin(m).count("1") for m in hand.holdings)
    split = Split(problem, cards, threads, opts, tables, table_bits(cards_left))
    values = _search.all_values(problem, split.run(deadline, outer), opts=opts)
    deck = hand.deck.cards
    return Solution(
        problem.root,
        {deck[c]: factor * v for c, v in sorted(values.items())},
        split.nodes,
        Model.PARANOID,
    )


@dataclass
class _Probe:
    """One zero-window probe of one card, its answers (paths from the
    position) taken by the threads one by one."""

    b: int
    paths: list[tuple[int, ...]]
    taken: int = 0
    running: int = 0
    #: The least answer so far (a lower bound while every answer is at least b).
    low: int | None = None
    #: Set by the first answer below b: the probe's result.
    cut: int | None = None
    tokens: set[CancelToken] = field(default_factory=set)

    def next_path(self) -> int | None:
        """The next answer to search, counted as running from now (under the
        lock): a probe is never done between an answer's taking and its search."""
        if self.cut is not None or self.taken == len(self.paths):
            return None
        self.taken += 1
        self.running += 1
        return self.taken - 1

    @property
    def done(self) -> bool:
        return self.cut is not None or (self.taken == len(self.paths) and not self.running)


class Split:
    """The threads of one split solve and what they found."""

    def __init__(
        self,
        problem: Problem,
        cards: list[int],
        threads: int,
        opts: int,
        tables: _search.SearchTables,
        tt_bits: int,
    ) -> None:
        self.problem = problem
        self.opts = opts
        self.tables = tables
        self.tt_bits = tt_bits
        self.threads = threads
        self.cards = deque(cards)
        #: Each card after the one before it in that order (where one solve
        #: takes its guess from).
        self.before = dict(zip(cards[1:], cards[:-1], strict=True))
        self.values: dict[int, int] = {}
        #: The plans of the cards being searched.
        self.plans: dict[int, _search.ProbePlan] = {}
        self.nodes = 0
        #: Probes with answers not yet taken, oldest first.
        self.open: list[_Probe] = []
        self.owners = 0
        self.cond = threading.Condition()
        self.tokens: set[CancelToken] = set()
        self.error: BaseException | None = None
        self.deadline: float | None = None

    # -- the caller --------------------------------------------------------

    def run(self, deadline: float | None, outer: CancelToken | None) -> dict[int, int]:
        """Every card's value (the cards given, not their equivalents)."""
        self.deadline = deadline
        _search.start_solve(self.problem, tables=self.tables, tt_bits=self.tt_bits, opts=self.opts)
        workers = [
            threading.Thread(target=self._work, name=f"cb-split-{i}", daemon=True)
            for i in range(self.threads)
        ]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(POLL_SECONDS)
                    if outer is not None and outer.cancelled:
                        self._stop(Cancelled("the work was cancelled"))
        except BaseException as error:  # Ctrl-C in the caller: stop the workers first
            self._stop(error)
            for worker in workers:
                worker.join()
            raise
        if self.error is not None:
            raise self.error
        return self.values

    def _stop(self, error: BaseException) -> None:
        with self.cond:
            if self.error is None:
                self.error = error
            for token in self.tokens:
                token.cancel()
            self.cond.notify_all()

    # -- the workers ---------------------------------------------------------

    def _work(self) -> None:
        try:
            while True:
                with self.cond:
                    job = self._next_job()
                    while job is None and self.error is None and (self.cards or self.owners):
                        self.cond.wait()
                        job = self._next_job()
                    if job is None:
                        return
                    if isinstance(job, int):
                        self.owners += 1
                if isinstance(job, int):
                    try:
                        self._card_value(job)
                    finally:
                        with self.cond:
                            self.owners -= 1
                            self.cond.notify_all()
                else:
                    self._answer(*job)
        except BaseException as error:
            self._stop(error)

    def _next_job(self) -> int | tuple[_Probe, int] | None:
        """A card not yet started, else an answer of an open probe (under the lock)."""
        if self.error is not None:
            return None
        if self.cards:
            return self.cards.popleft()
        for probe in self.open:
            index = probe.next_path()
            if index is not None:
                return probe, index
        return None

    def _card_value(self, card: int) -> int:
        """The card's exact value: `exact`'s plan of probes (`ProbePlan`), each
        probe split into answers (probes even where OPT_MTD is off: one full
        window has no answers to share)."""
        lo, hi, taken, opts, _, _ = _search.split_node(self.problem, (card,), opts=self.opts)
        paths = self._answers((card,))
        with self.cond:
            plan = _search.ProbePlan(lo, hi, taken, self._guess(card, taken), opts)
            self.plans[card] = plan
        while True:
            with self.cond:
                bound = plan.bound
            if bound is None:
                break
            g = self._probe(paths, bound)
            with self.cond:
                plan.answer(g)
        with self.cond:
            self.values[card] = plan.value
            del self.plans[card]
        return plan.value

    def _guess(self, card: int, taken: int) -> int:
        """Where a card's probes start (under the lock): as in one solve, at
        the value of the card before it in the order, and while that card is
        still being searched, its value as far as its answers tell
        (`ProbePlan.estimate`).
        (The value found last was the guess before: imp-3p-11 #13's card
        worth 19 then started from 8, not from its neighbour's 25, and the
        split searched 27.7 M nodes against one thread's 23.2 M.)"""
        before = self.before.get(card)
        if before is None:
            return taken
        if before in self.values:
            return self.values[before]
        plan = self.plans.get(before)
        # (Taken by a thread that has not made its plan yet: where that
        # card's own probes will start.)
        return self._guess(before, taken) if plan is None else plan.estimate

    def _answers(self, path: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The paths a probe after `path` is split into: the answers of the
        first seat against the root side with a choice, through forced cards
        (Lopaka's, a single card); the path itself where the trick ends first
        or a seat of the root side chooses."""
        while True:
            *_, moves, minimise = _search.split_node(self.problem, path, opts=self.opts)
            if len(moves) == 1:
                path += moves
                continue
            if not moves or not minimise:
                return [path]
            return [(*path, move) for move in moves]

    def _probe(self, paths: list[tuple[int, ...]], b: int) -> int:
        """Whether the root side takes at least b after the card (fail-soft),
        the answers shared with the threads that are free."""
        if len(paths) == 1:
            return self._probe_path(paths[0], b, None)
        probe = _Probe(b, paths)
        with self.cond:
            self.open.append(probe)
            self.cond.notify_all()
        try:
            while True:
                with self.cond:
                    index = probe.next_path()
                    if index is None:
                        while not probe.done and self.error is None:
                            self.cond.wait()
                        break
                self._answer(probe, index)
        finally:
            with self.cond:
                self.open.remove(probe)
        if self.error is not None:
            raise self.error
        return probe.cut if probe.cut is not None else probe.low  # type: ignore[return-value]

    def _answer(self, probe: _Probe, index: int) -> None:
        """Search one answer of `probe`, taken by `next_path`."""
        token = CancelToken()
        with self.cond:
            if probe.cut is not None:
                probe.running -= 1
                self.cond.notify_all()
                return
            probe.tokens.add(token)
        g = None
        try:
            g = self._probe_path(probe.paths[index], probe.b, token)
        except Cancelled:
            if probe.cut is None:
                raise
        finally:
            # (The answer is in before the probe can be seen done.)
            with self.cond:
                probe.running -= 1
                probe.tokens.discard(token)
                if g is not None and probe.cut is None:
                    probe.low = g if probe.low is None else min(probe.low, g)
                    if g < probe.b:
                        probe.cut = g
                        for other in probe.tokens:
                            other.cancel()
                self.cond.notify_all()

    def _probe_path(self, path: tuple[int, ...], b: int, token: CancelToken | None) -> int:
        """One probe of the position at the end of `path`, cancellable by
        `token` and by the whole solve's stop, within its deadline."""
        token = token if token is not None else CancelToken()
        left = 0.0
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer within the time limit")
        with self.cond:
            if self.error is not None:
                token.cancel()
            self.tokens.add(token)
        try:
            g, nodes = _search.probe_state(
                self.problem, path, b, tables=self.tables, tt_bits=self.tt_bits,
                opts=self.opts, time_limit=left, cancel=token,
            )
        finally:
            with self.cond:
                self.tokens.discard(token)
        with self.cond:
            self.nodes += nodes
        return g
