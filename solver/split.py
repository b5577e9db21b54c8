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
helps with another's answers.  And a thread with nothing else to do, once
the last cards are taken, probes a card at a bound of its own beside the
one its plan asks for (`Split._speculation`): any probe's answer is a true
bound on the card's value, so the plan takes it wherever it lies
(`ProbePlan.learn`), and a probe whose answer the bounds already tell is
given up.  The values are those of one solve; the nodes are the threads'
sum over the probes that finished (a cancelled one's are not counted).
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
    speculate: bool = True,
) -> Solution:
    """The paranoid `Solution` of `hand` on `threads` threads sharing
    `tables` (`SearchTables(shared=True)`), each card's probes split into the
    answers to it; with `speculate`, a thread with nothing else to do probes
    a card at a bound of its own (`Split`).  Past `deadline`
    (time.monotonic()) TimeoutError; once `outer` is cancelled,
    `Cancelled`."""
    problem, factor = problem_of(hand, Model.PARANOID)
    opts = _search.ALL_OPTIONS if opts is None else opts
    cards = _search.root_cards(problem, opts=opts)
    cards_left = sum(bin(m).count("1") for m in hand.holdings)
    split = Split(problem, cards, threads, opts, tables, table_bits(cards_left), speculate)
    values = _search.all_values(problem, split.run(deadline, outer), opts=opts)
    deck = hand.deck.cards
    return Solution(
        problem.root,
        {deck[c]: factor * v for c, v in sorted(values.items())},
        split.nodes,
        Model.PARANOID,
    )


@dataclass
class _Card:
    """A card being valued: its answers, its plan, and its probes running,
    by bound."""

    card: int
    paths: list[tuple[int, ...]]
    plan: _search.ProbePlan
    probes: dict[int, _Probe] = field(default_factory=dict)


@dataclass
class _Probe:
    """One zero-window probe of one card, its answers (paths from the
    position) taken by the threads one by one."""

    b: int
    paths: list[tuple[int, ...]]
    #: The card it values (None: a probe made alone, as in a test).
    target: _Card | None = None
    taken: int = 0
    running: int = 0
    #: The least answer so far (a lower bound while every answer is at least b).
    low: int | None = None
    #: Set by the first answer below b: the probe's result.
    cut: int | None = None
    #: Whether the first answer is in (and was not below b).
    first_in: bool = False
    #: Set once another probe of the card has settled what this one would say.
    void: bool = False
    #: Whether it is the probe the card's plan asked for, not one beside it.
    mine: bool = True
    tokens: set[CancelToken] = field(default_factory=set)

    def next_path(self, young: bool = True) -> int | None:
        """The next answer to search, counted as running from now (under the
        lock): a probe is never done between an answer's taking and its
        search.  Without `young`, none but the first until the first is in."""
        if self.void or self.cut is not None or self.taken == len(self.paths):
            return None
        if not young and self.taken and not self.first_in:
            return None
        self.taken += 1
        self.running += 1
        return self.taken - 1

    @property
    def done(self) -> bool:
        return (self.void or self.cut is not None
                or (self.taken == len(self.paths) and not self.running))

    @property
    def result(self) -> int:
        return self.cut if self.cut is not None else self.low  # type: ignore[return-value]


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
        speculate: bool = True,
    ) -> None:
        self.problem = problem
        self.speculate = speculate
        #: The probes run beside a plan's (`_speculation`), and those of
        #: them whose answer the plan took.
        self.speculated = self.speculation_used = 0
        self.opts = opts
        self.tables = tables
        self.tt_bits = tt_bits
        self.threads = threads
        self.cards = deque(cards)
        #: Each card after the one before it in that order (where one solve
        #: takes its guess from).
        self.before = dict(zip(cards[1:], cards[:-1], strict=True))
        self.values: dict[int, int] = {}
        #: The cards being valued, in the order they were started.
        self.active: dict[int, _Card] = {}
        self.nodes = 0
        #: Probes with answers not yet taken, oldest first.
        self.open: list[_Probe] = []
        #: Cards taken whose plan is not made yet.
        self.starting = 0
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
                    while job is None and self.error is None and (
                            self.cards or self.active or self.starting):
                        self.cond.wait()
                        job = self._next_job()
                    if job is None:
                        return
                    if isinstance(job, int):
                        self.starting += 1
                if isinstance(job, int):
                    try:
                        self._start(job)
                    finally:
                        with self.cond:
                            self.starting -= 1
                            self.cond.notify_all()
                elif isinstance(job, _Probe):
                    self._drive(job)
                else:
                    self._answer(*job)
        except BaseException as error:
            self._stop(error)

    def _next_job(self) -> int | _Probe | tuple[_Probe, int] | None:
        """What a free thread does next (under the lock): the probe a card's
        plan asks for, if nobody runs it; a card not yet started; an answer
        of an open probe (its later ones once its first is in); a probe of a
        card beside its plan's (`_speculation`); any answer left."""
        if self.error is not None:
            return None
        for state in self.active.values():
            b = state.plan.bound
            if b is not None and b not in state.probes:
                return self._register(state, b)
        if self.cards:
            return self.cards.popleft()
        for probe in self.open:
            index = probe.next_path(young=not self.speculate)
            if index is not None:
                return probe, index
        if self.speculate:
            for state in self.active.values():
                b = self._speculation(state)
                if b is not None:
                    self.speculated += 1
                    return self._register(state, b, mine=False)
        for probe in self.open:
            index = probe.next_path()
            if index is not None:
                return probe, index
        return None

    def _register(self, state: _Card, b: int, mine: bool = True) -> _Probe:
        """A probe of the card at b, counted as running from now (under the
        lock); `mine`: the bound its plan asks for."""
        probe = _Probe(b, state.paths, state, mine=mine)
        state.probes[b] = probe
        return probe

    @staticmethod
    def _speculation(state: _Card) -> int | None:
        """A bound for a probe of the card beside the one its plan runs
        (under the lock): below the plan's first probe (at a guess, the
        value of the card before), halfway down to what the card is known
        to reach.  Where the guess is too high, that probe's refutation is
        often dearer than one nearer the value (3p-11 #19: its 5H, worth 4,
        proved below 9 in 551 k nodes, below 6 in 237 k), and either answer
        serves the plan.  Not below the points taken (between an ending as
        owner, -pile at most, and the points taken no value lies: a bound
        there asks the bottle question again); not while the answers climb
        or fall (a probe a point ahead there searched the same subtrees as
        the plan's own at the same time, and the plan's probe, without the
        free thread racing its later answers, took up to twice as long).
        None where no such bound is left."""
        plan = state.plan
        b = plan.bound
        if plan.climbing != 0 or b is None or not plan.asked:
            return None
        mid = max((plan.lo + 1 + b) // 2, plan.lo + 1, plan.taken)
        return mid if mid < b and mid not in state.probes else None

    def _start(self, card: int) -> None:
        """Make the card's plan (`exact`'s probes, each split into answers;
        probes even where OPT_MTD is off: one full window has no answers to
        share)."""
        lo, hi, taken, opts, _, _ = _search.split_node(self.problem, (card,), opts=self.opts)
        paths = self._answers((card,))
        with self.cond:
            plan = _search.ProbePlan(lo, hi, taken, self._guess(card, taken), opts)
            self.active[card] = _Card(card, paths, plan)
            self._settle(self.active[card])
            self.cond.notify_all()

    def _settle(self, state: _Card) -> None:
        """After an answer (under the lock): the value once known; the probes
        whose answer the bounds now tell, given up."""
        plan = state.plan
        for b in list(state.probes):
            if plan.bound is None or not plan.lo < b <= plan.hi:
                self._give_up(state, b)
        if plan.bound is None:
            self.values[state.card] = plan.value
            del self.active[state.card]

    @staticmethod
    def _give_up(state: _Card, b: int) -> None:
        """Stop the card's probe at b, its answer no longer wanted (under the lock)."""
        probe = state.probes.pop(b)
        probe.void = True
        for token in probe.tokens:
            token.cancel()

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
        state = self.active.get(before)
        # (Taken by a thread that has not made its plan yet: where that
        # card's own probes will start.)
        return self._guess(before, taken) if state is None else state.plan.estimate

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

    def _drive(self, probe: _Probe) -> None:
        """Run `probe` (registered under the lock): its answers shared with
        the threads that are free, its fail-soft answer (whether the root
        side takes at least b after the card) given to the card's plan."""
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
        with self.cond:
            state = probe.target
            assert state is not None
            if state.probes.get(probe.b) is probe:
                del state.probes[probe.b]
            if not probe.void and state.plan.bound is not None:
                state.plan.learn(probe.b, probe.result)
                self.speculation_used += not probe.mine
                self._settle(state)
            self.cond.notify_all()

    def _answer(self, probe: _Probe, index: int) -> None:
        """Search one answer of `probe`, taken by `next_path`."""
        token = CancelToken()
        with self.cond:
            if probe.cut is not None or probe.void:
                probe.running -= 1
                self.cond.notify_all()
                return
            probe.tokens.add(token)
        g = None
        try:
            g = self._probe_path(probe.paths[index], probe.b, token)
        except Cancelled:
            if probe.cut is None and not probe.void:
                raise
        finally:
            # (The answer is in before the probe can be seen done.)
            with self.cond:
                probe.running -= 1
                probe.tokens.discard(token)
                if g is not None and probe.cut is None and not probe.void:
                    probe.low = g if probe.low is None else min(probe.low, g)
                    if g < probe.b:
                        probe.cut = g
                        for other in probe.tokens:
                            other.cancel()
                    elif index == 0:
                        probe.first_in = True
                        self._main_line(probe)
                self.cond.notify_all()

    def _main_line(self, probe: _Probe) -> None:
        """The first answer of `probe` is in and not below b (under the
        lock): if it is the probe the card's plan asks for and answers are
        left, the rest are likely all needed, and a thread busy beside it
        is better off taking them: the card's other probes are given up."""
        state = probe.target
        if state is None or state.plan.bound != probe.b or probe.taken == len(probe.paths):
            return
        for b, other in list(state.probes.items()):
            if other is not probe:
                self._give_up(state, b)

    def _probe_path(self, path: tuple[int, ...], b: int, token: CancelToken) -> int:
        """One probe of the position at the end of `path`, cancellable by
        `token` and by the whole solve's stop, within its deadline."""
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
