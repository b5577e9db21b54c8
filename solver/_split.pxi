# One position's probes below a path of cards, included by _search.pyx: what
# solver/split.py shares among threads within one card of a solve.
#
# A zero-window probe of the position after the root seat's card asks
# whether every answer of the seats against it leaves the root seat at least
# b: at a node of theirs in the middle of a trick `search` tries their cards
# one after the other and stops at the first below b.  Each such answer is a
# probe of its own (the path of cards played from the position), so the
# answers can be probed on several threads at once, sharing one table: what
# `search` would do, split where it does nothing but loop (no table entry,
# no bound, no bottle question in the middle of a trick).


cdef int follow_path(Ctx* c, State* s, path) except -1:
    """Play `path` (cards of the deck, in turn) from position s, each checked
    to be legal there (Lopaka's: his policy's one card), and none after the
    trick in progress has ended: its dead cards and losers, which
    `read_problem` worked out, hold until then."""
    cdef int h, card, k = 0
    for card in path:
        if k and s.n == 0:
            raise ValueError("path: the trick has ended before its last card")
        k += 1
        if not 0 <= card < MAXC:
            raise ValueError(f"path: {card} is not a card")
        h = c.order[s.leader][s.n]
        if h == c.lopaka:
            if card != lopaka_card(c, s, h):
                raise ValueError(f"path: Lopaka plays {lopaka_card(c, s, h)}, not {card}")
        elif not (mover_legal(c, s, h) >> card) & 1:
            raise ValueError(f"path: card {card} is not legal for holder {h}")
        play(c, s, card_holder(c, s, h, card), card)
    return 0


def split_node(problem, path=(), *, int64_t opts=OPT_DEFAULT):
    """What a probe finds at the end of `path` (cards played from `problem`,
    within its trick): (lo, hi, taken, opts, moves, minimise).

    [lo, hi]: the root side's bounds that need no search (`score_bounds`);
    taken: its points taken; opts: the techniques as `read_problem` leaves
    them (OPT_AVOID, OPT_MORE, OPT_GALLOP: what `exact` does); moves: the
    cards the search tries there, in its order (Lopaka's one card), or () at
    a trick's start, where the search uses its table and is not split;
    minimise: whether the mover plays against the root side."""
    cdef Ctx c
    cdef State s
    cdef int lo = 0, hi = 0, h, depth, n, k
    cdef bint maximise
    cdef uint64_t inplay, reps
    cdef int moves[MAXC]
    read_problem(problem, &c, &s, opts, MAXC)
    follow_path(&c, &s, path)
    inplay = in_play(&c, &s)
    score_bounds(&c, &s, inplay, -INF, INF, &lo, &hi)
    if s.n == 0 or inplay == 0 or last_trick(&c, &s):
        return lo, hi, s.taken, c.opts, (), False
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        return lo, hi, s.taken, c.opts, (lopaka_card(&c, &s, h),), False
    maximise = c.holder_seat[h] == c.root or c.holder_seat[h] == c.partner
    depth = cb_popcount(inplay)
    reps = mover_legal(&c, &s, h)
    if c.opts & OPT_EQUIV:
        reps = representatives(&c, &s, h, reps, inplay, True, c.opts & OPT_RUNS,
                               0 if maximise else c.dead_at[depth], c.losers_at[depth])
    n = ordered_moves(&c, &s, h, reps, maximise, -1, False, depth, moves)
    return lo, hi, s.taken, c.opts, tuple([moves[k] for k in range(n)]), not maximise


def probe_state(problem, path, int b, *, SearchTables tables, int tt_bits=20,
                int64_t opts=OPT_DEFAULT, double time_limit=0, cancel=None):
    """One zero-window probe of the position at the end of `path` (as
    `split_node`): (g, nodes), g fail-soft, at least b if and only if the
    root side takes at least b there.

    `tables`: the table the probes of one solve share, made ready by
    `start_solve` (every probe keeps its number).  `time_limit`, `cancel`
    as in `solve_state`."""
    cdef Ctx c
    cdef State s
    cdef int g = 0
    cdef unsigned char[::1] cancel_flag = None
    if not 1 <= tt_bits <= MAX_TT_BITS:
        raise ValueError(f"probe_state: tt_bits (a table of 2^bits entries) is 1-{MAX_TT_BITS}")
    read_problem(problem, &c, &s, opts, MAXC)
    follow_path(&c, &s, path)
    if cancel is not None:
        cancel_flag = cancel.flag
        c.cancel_flag = &cancel_flag[0]
    c.deadline = wall_seconds() + time_limit if time_limit > 0 else 0
    c.watch_signals = threading.current_thread() is threading.main_thread()
    c.shared = tables.shared
    table_for(&c, &tables.t, tt_bits, tt_bits if tables.shared else START_BITS, True,
              context_signature(&c, False), True)
    with nogil:
        g = search(&c, &s, b - 1, b)
    raise_if_stopped(&c, time_limit)
    return g, c.nodes


def start_solve(problem, *, SearchTables tables, int tt_bits=20, int64_t opts=OPT_DEFAULT):
    """Make `tables` ready for the probes of one solve of `problem`
    (`probe_state`): at its full size, under a number of its own unless the
    last solve's context was the same (`table_for`)."""
    cdef Ctx c
    cdef State s
    if not 1 <= tt_bits <= MAX_TT_BITS:
        raise ValueError(f"start_solve: tt_bits (a table of 2^bits entries) is 1-{MAX_TT_BITS}")
    read_problem(problem, &c, &s, opts, MAXC)
    c.shared = tables.shared
    table_for(&c, &tables.t, tt_bits, tt_bits if tables.shared else START_BITS, True,
              context_signature(&c, False))


def all_values(problem, dict values, *, int64_t opts=OPT_DEFAULT):
    """`values` (of the cards `root_cards` gives) with every legal card of
    the mover that one of them stands for: what `solve_state` answers."""
    cdef Ctx c
    cdef State s
    cdef int v[MAXC]
    cdef int h, card
    cdef uint64_t legal, allreps, valued = 0, out
    read_problem(problem, &c, &s, opts, MAXC)
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        return dict(values)
    memset(v, 0, sizeof(v))
    for card, value in values.items():
        if not 0 <= card < MAXC:
            raise ValueError(f"all_values: {card} is not a card")
        v[card] = value
        valued |= bit(card)
    legal = mover_legal(&c, &s, h)
    allreps = (representatives(&c, &s, h, legal, in_play(&c, &s), True)
               if c.opts & OPT_EQUIV else legal)
    out = with_equivalents(legal, allreps, in_play(&c, &s), valued, v)
    return {card: v[card] for card in range(MAXC) if (out >> card) & 1}


cdef class ProbePlan:
    """`exact`'s plan of probes for one card (`Plan`), answer by answer, for
    a driver that makes the probes itself (solver/split.py): `bound` is
    where the next probe goes (None once the value is known), `answer(g)`
    takes its fail-soft answer, `value` is the card's once done."""

    cdef Plan p

    def __init__(self, int lo, int hi, int taken, int guess, int64_t opts):
        if lo > hi:
            raise ValueError(f"ProbePlan: the bounds {lo} > {hi}")
        plan_start(&self.p, lo, hi, taken, guess, opts)

    @property
    def bound(self):
        return None if self.p.done else self.p.b

    def answer(self, int g):
        if self.p.done:
            raise ValueError("ProbePlan: the value is already known")
        plan_answer(&self.p, g)

    def learn(self, int b, int g):
        """The fail-soft answer g of a probe at b, the plan's own or one
        beside it (`plan_learn`); the bounds it leaves are `lo` and `hi`."""
        if self.p.done:
            raise ValueError("ProbePlan: the value is already known")
        if b != self.p.b and self.p.phase != PLAN_MAIN:
            raise ValueError("ProbePlan: a probe beside the plan's own only once"
                             " the bottle question is answered")
        plan_learn(&self.p, b, g)

    @property
    def lo(self):
        return self.p.lo

    @property
    def hi(self):
        return self.p.hi

    @property
    def taken(self):
        return self.p.taken

    @property
    def asked(self):
        """Whether the plan began with the bottle question."""
        return bool(self.p.asked)

    @property
    def climbing(self):
        """+1 while the answers climb (fail-high), -1 while they fall, 0
        before the first answer of the main phase; None in the bottle
        question or "anything more?"."""
        if self.p.phase != PLAN_MAIN:
            return None
        return (self.p.run > 0) - (self.p.run < 0)

    @property
    def value(self):
        if not self.p.done:
            raise ValueError("ProbePlan: the value is not known yet")
        return self.p.lo

    @property
    def estimate(self):
        """The value as far as the answers tell: where the next probe goes,
        or while the bottle question is asked, the guess (the question says
        only whether the value is at least the points taken); the value once
        known.  Where the next card's probes start, in a split solve."""
        if self.p.done:
            return self.p.lo
        return self.p.guess if self.p.phase == PLAN_AVOID else self.p.b
