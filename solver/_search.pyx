# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""The compiled double-dummy search.

The state is a small C struct copied on every move (copy-make is cheaper than
undoing a trick's scoring).  The rules are replicated here, not called: the
trick winner and Lopaka's policy must agree with engine/tricks.py, and the
differential tests against solver/reference.py are what prove they do.

The value searched is the root seat's final score (paranoid: the root seat
maximises, every other seat minimises, Lopaka plays his policy).  Everything
below runs without the GIL.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    """
    static inline int cb_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int cb_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int cb_hibit(unsigned long long x) { return 63 - __builtin_clzll(x); }
    """
    int cb_popcount(uint64_t x) nogil
    int cb_ctz(uint64_t x) nogil
    int cb_hibit(uint64_t x) nogil

cdef enum:
    INF = 1000
    MAXC = 64

cdef int64_t INT64_MAX_SCORE = 1 << 62

# Technique switches, so the benchmark can show what each one buys.
cdef enum:
    OPT_TT = 1
    OPT_EQUIV = 2
    OPT_BOUNDS = 4
    OPT_ORDER = 8
    OPT_MTD = 16
    OPT_CANON = 32
    OPT_ALL = 63

OPTIONS = {"tt": OPT_TT, "equiv": OPT_EQUIV, "bounds": OPT_BOUNDS, "order": OPT_ORDER,
           "mtd": OPT_MTD, "canon": OPT_CANON}
ALL_OPTIONS = OPT_ALL
#: Counters of the last solve (for the benchmark and for tuning).
LAST_STATS = {}
cdef int BISECT = 0
cdef int EVAL_MODE = 4
cdef int HIST_MODE = 0


def set_hist_mode(int m):
    global HIST_MODE
    HIST_MODE = m


def set_eval_mode(int m):
    global EVAL_MODE
    EVAL_MODE = m


def set_bisect(int on):
    global BISECT
    BISECT = on


cdef struct Entry:
    uint64_t k[5]
    int8_t lower
    int8_t upper
    int8_t best
    uint8_t depth


cdef struct Ctx:
    int nholders
    int holder_seat[4]
    int order[4][4]
    int lopaka
    int root
    int hot
    int pile
    int opts
    int points[MAXC]
    int suit[MAXC]
    int code[MAXC]
    uint64_t suit_mask[3]
    uint64_t pts_mask[4]
    int root_holder[4]
    Entry* tt
    uint64_t tt_mask
    int64_t nodes
    int64_t hist[MAXC]
    int64_t probes
    int64_t by_depth[MAXC]
    int64_t cut_first
    int64_t cut_later
    int bisect


cdef struct State:
    uint64_t hand[4]
    uint64_t tmask
    int price
    int price_card
    int owner
    int taken
    int leader
    int n
    int tcard[4]
    int tholder[4]


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline int mask_points(Ctx* c, uint64_t m) noexcept nogil:
    return (cb_popcount(m & c.pts_mask[1]) + 2 * cb_popcount(m & c.pts_mask[2])
            + 3 * cb_popcount(m & c.pts_mask[3]))


cdef inline void finish_trick(Ctx* c, State* s) noexcept nogil:
    """The winner rule of RULES.md: highest card below the price buys, else highest wins."""
    cdef int i, card, won = 0, best = -1, pos = 0, best_below = -1, below_pos = -1, winner
    for i in range(s.n):
        card = s.tcard[i]
        won += c.points[card]
        if card < s.price:
            if card > best_below:
                best_below = card
                below_pos = i
        elif card > best:
            best = card
            pos = i
    if below_pos >= 0:
        winner = c.holder_seat[s.tholder[below_pos]]
        won -= c.points[best_below]
        if s.price_card >= 0 and s.owner == c.root:
            s.taken += c.points[s.price_card]
        s.price_card = best_below
        s.price = best_below
        s.owner = winner
    else:
        winner = c.holder_seat[s.tholder[pos]]
    if winner == c.root:
        s.taken += won
    s.leader = winner
    s.n = 0
    s.tmask = 0


cdef inline void play(Ctx* c, State* s, int h, int card) noexcept nogil:
    s.hand[h] &= ~bit(card)
    s.tmask |= bit(card)
    s.tcard[s.n] = card
    s.tholder[s.n] = h
    s.n += 1
    if s.n == c.nholders:
        finish_trick(c, s)


cdef inline uint64_t legal_mask(Ctx* c, State* s, int h) noexcept nogil:
    cdef uint64_t hand = s.hand[h], follow
    if s.n == 0:
        return hand
    follow = hand & c.suit_mask[c.suit[s.tcard[0]]]
    return follow if follow else hand


cdef inline int lopaka_card(Ctx* c, State* s, int h) noexcept nogil:
    """Lopaka's policy: lead the highest; else the highest legal card that would win; else the lowest."""
    cdef uint64_t legal, m
    cdef int i, card, best = -1, best_below = -1
    if s.n == 0:
        return cb_hibit(s.hand[h])
    legal = legal_mask(c, s, h)
    for i in range(s.n):
        card = s.tcard[i]
        if card < s.price:
            if card > best_below:
                best_below = card
        elif card > best:
            best = card
    m = legal
    while m:
        card = cb_hibit(m)
        if card < s.price:
            if card > best_below:
                return card
        elif best_below < 0 and card > best:
            return card
        m &= ~bit(card)
    return cb_ctz(legal)


cdef inline int final_score(Ctx* c, State* s) noexcept nogil:
    if s.owner == c.root:
        return -c.pile - (s.taken if c.hot else 0)
    return s.taken


cdef inline void score_bounds(Ctx* c, State* s, uint64_t inplay, int* lo, int* hi) noexcept nogil:
    """Bounds on the final score that need no search.

    The root seat ends either as the owner or not.  It can end as the owner
    only if it owns now or holds a card below the price; it can end as a
    non-owner only if it does not own now or another seat has a card below the
    price (once no card in play is below the price, the owner is stuck).
    A non-owner ends with its points taken plus at most everything still in
    play (and the price card, which comes back to it if it owns and is bought
    from); an owner scores -(pile), or in the hot bottle -(pile + its tricks).
    """
    cdef uint64_t below = inplay & (bit(s.price) - 1), mine = 0
    cdef int i, rest, l = INF, u = -INF
    cdef bint owns = s.owner == c.root
    for i in range(c.nholders):
        if c.root_holder[i]:
            mine |= s.hand[i]
    for i in range(s.n):
        if c.root_holder[s.tholder[i]]:
            mine |= bit(s.tcard[i])
    rest = mask_points(c, inplay)
    if owns and s.price_card >= 0:
        rest += c.points[s.price_card]
    if not owns or (below & ~mine):
        l = s.taken
        u = s.taken + rest
    if owns or (below & mine):
        if c.hot:
            if -c.pile - s.taken - rest < l:
                l = -c.pile - s.taken - rest
            if -c.pile - s.taken > u:
                u = -c.pile - s.taken
        else:
            if -c.pile < l:
                l = -c.pile
            if -c.pile > u:
                u = -c.pile
    lo[0] = l
    hi[0] = u


cdef inline uint64_t representatives(Ctx* c, State* s, uint64_t legal, uint64_t inplay) noexcept nogil:
    """One card per group of equivalent cards (the highest of each group).

    Two cards of one holder are interchangeable when they are of one suit and
    of equal points, no card still in play lies between them in the order,
    and both are at or above the price: such cards can never buy the bottle
    (the price only falls), so no rule and no policy can tell them apart.
    Cards below the price are not merged: the one that buys becomes the price,
    and the other then lies below it (a card that will rebuy) or above it (one
    that cannot), which plays differently.
    """
    cdef uint64_t m = legal, out = 0, above
    cdef int card, nxt
    while m:
        card = cb_hibit(m)
        m &= ~bit(card)
        if card >= s.price:
            above = inplay & ~((bit(card) << 1) - 1)
            if above:
                nxt = cb_ctz(above)
                if ((legal >> nxt) & 1) and c.suit[nxt] == c.suit[card] \
                        and c.points[nxt] == c.points[card]:
                    continue
        out |= bit(card)
    return out


cdef inline int tt_key(Ctx* c, State* s, uint64_t inplay, uint64_t* k) noexcept nogil:
    """What the rest of the hand depends on, at the start of a trick; returns
    the shift between the score and the value stored (score = stored + shift).

    Of the owner only whether it is the root seat matters: any other owner, or
    none, leaves the root seat scoring its tricks, and a price card bought
    from another seat goes to that seat.  The price is its threshold (a price
    card's index is its threshold; the joker's is no price card's), and once
    no card in play is below it, it no longer matters at all.

    Of the points taken only the root seat's own count matters, and often only
    relative to the score: a seat that can no longer end as the owner scores
    taken + what it still wins, so the table stores score - taken and every
    count of points taken meets there; an owner that can no longer get rid of
    the bottle scores -(pile + taken + what it still wins) in the hot bottle
    (score + taken stored).  Only while both endings are open is the count
    part of the key.
    """
    cdef uint64_t p0 = 0, p1 = 0, mine = 0, below = inplay & (bit(s.price) - 1)
    cdef int i, shift = 0, taken = s.taken, price = s.price
    cdef bint owns = s.owner == c.root
    for i in range(c.nholders):
        if i & 1:
            p0 |= s.hand[i]
        if i & 2:
            p1 |= s.hand[i]
        if c.root_holder[i]:
            mine |= s.hand[i]
    if not owns and not (below & mine):
        shift = taken
        taken = 127
    elif owns and not (below & ~mine):
        shift = -taken
        taken = 126
    if not below:
        price = 0
    if c.opts & OPT_CANON:
        canonical(c, inplay, p0, p1, k)
        k[4] = (<uint64_t>cb_popcount(below) | (<uint64_t>s.leader << 6)
                | (<uint64_t>owns << 8) | (<uint64_t>taken << 9)
                | (<uint64_t>(c.points[s.price_card] if owns and s.price_card >= 0 else 0) << 16)
                | (<uint64_t>cb_popcount(inplay) << 20) | (<uint64_t>1 << 63))
        return shift
    k[0] = (inplay | (<uint64_t>s.leader << 36) | (<uint64_t>price << 38)
            | (<uint64_t>owns << 44) | (<uint64_t>taken << 45)
            | (<uint64_t>1 << 63))
    k[1] = p0
    k[2] = p1
    k[3] = 0
    k[4] = 0
    return shift


cdef inline void canonical(Ctx* c, uint64_t inplay, uint64_t p0, uint64_t p1,
                           uint64_t* k) noexcept nogil:
    """The cards in play as a pattern: in the total order, each card's holder,
    suit and points, and nothing of which card it is.

    The rules only ever compare cards by their place in the order, their suit
    and their points, so two positions whose cards in play show one pattern
    (and whose price lies at the same place in it: the key's count of cards
    below the price) play identically, whichever cards have gone.
    """
    cdef uint64_t m = inplay
    cdef int card, pos = 0
    k[0] = 0
    k[1] = 0
    k[2] = 0
    k[3] = 0
    while m:
        card = cb_ctz(m)
        m &= m - 1
        k[pos // 10] |= (((p0 >> card) & 1) | (((p1 >> card) & 1) << 1)
                         | (<uint64_t>c.code[card] << 2)) << (6 * (pos % 10))
        pos += 1


cdef inline int nth_card(uint64_t m, int n) noexcept nogil:
    """The n-th card (from 0, lowest first) of a mask: hash moves are kept as
    places among the cards in play, so that they survive the pattern key."""
    while n > 0:
        m &= m - 1
        n -= 1
    return cb_ctz(m) if m else -1


cdef inline Entry* tt_bucket(Ctx* c, uint64_t* k) noexcept nogil:
    """Two entries per bucket: [0] keeps the deeper position, [1] the latest."""
    cdef uint64_t x = k[0] * <uint64_t>0x9E3779B97F4A7C15
    x ^= k[1] * <uint64_t>0xC2B2AE3D27D4EB4F
    x ^= k[2] * <uint64_t>0x165667B19E3779F9
    x ^= k[3] * <uint64_t>0x27D4EB2F165667C5
    x ^= k[4] * <uint64_t>0x94D049BB133111EB
    x ^= x >> 31
    x *= <uint64_t>0xD6E8FEB86659FD93
    x ^= x >> 32
    return &c.tt[(x & c.tt_mask) & ~(<uint64_t>1)]


cdef inline bint same_key(Entry* e, uint64_t* k) noexcept nogil:
    return (e.k[0] == k[0] and e.k[1] == k[1] and e.k[2] == k[2] and e.k[3] == k[3]
            and e.k[4] == k[4])


cdef inline void tt_store(Ctx* c, uint64_t* key, int depth, int best, int alpha0, int beta0,
                          int best_card) noexcept nogil:
    cdef Entry* b = tt_bucket(c, key)
    cdef Entry* e
    if same_key(&b[0], key):
        e = &b[0]
    elif same_key(&b[1], key):
        e = &b[1]
    else:
        if depth >= b[0].depth:
            b[1] = b[0]
            e = &b[0]
        else:
            e = &b[1]
        e.k[0] = key[0]
        e.k[1] = key[1]
        e.k[2] = key[2]
        e.k[3] = key[3]
        e.k[4] = key[4]
        e.lower = -128
        e.upper = 127
        e.depth = depth
    # A fail-low result is an upper bound, a fail-high one a lower bound; the
    # clamps to int8 only ever widen a bound (no real score comes near them).
    if best > alpha0 and best > e.lower:
        e.lower = best if best < 127 else 127
    if best < beta0 and best < e.upper:
        e.upper = best if best > -128 else -128
    e.best = best_card


cdef inline bint last_trick(Ctx* c, State* s) noexcept nogil:
    """Whether only the trick in progress is left: every holder's play is forced."""
    cdef int i
    for i in range(c.nholders):
        if s.hand[i] & (s.hand[i] - 1):
            return False
    return True


cdef inline int static_eval(Ctx* c, State* s, int h, int card) noexcept nogil:
    """Move ordering: the root seat's score if the trick ended with this card
    and the hand ended with the trick."""
    cdef State t = s[0]
    t.hand[h] &= ~bit(card)
    t.tcard[t.n] = card
    t.tholder[t.n] = h
    t.n += 1
    finish_trick(c, &t)
    if EVAL_MODE == 0:
        return final_score(c, &t)
    cdef uint64_t rest = 0
    cdef int i
    for i in range(c.nholders):
        rest |= t.hand[i]
    return EVAL_MODE * final_score(c, &t) + mask_points(c, rest)


cdef int search(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    cdef int h, seat, card, v, best, lo, hi, best_card = -1, hash_move = -1
    cdef int alpha0 = alpha, beta0 = beta, i, j, k, nmoves, depth = 0, shift = 0
    cdef uint64_t inplay, legal, reps
    cdef uint64_t key[5]
    cdef Entry* e = NULL
    cdef Entry* b
    cdef State child
    cdef bint maximise, stored = False
    cdef int moves[16]
    cdef int64_t score[16]
    cdef int64_t tmp
    c.nodes += 1
    inplay = s.tmask
    for i in range(c.nholders):
        inplay |= s.hand[i]
    if inplay == 0:
        return final_score(c, s)
    if last_trick(c, s):
        child = s[0]
        while child.n > 0 or child.hand[c.order[child.leader][0]]:
            h = c.order[child.leader][child.n]
            play(c, &child, h, cb_ctz(child.hand[h]))
        return final_score(c, &child)
    if c.opts & OPT_BOUNDS:
        score_bounds(c, s, inplay, &lo, &hi)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    depth = cb_popcount(inplay)
    c.by_depth[depth] += 1
    if s.n == 0 and (c.opts & OPT_TT):
        stored = True
        shift = tt_key(c, s, inplay, key)
        b = tt_bucket(c, key)
        if same_key(&b[0], key):
            e = &b[0]
        elif same_key(&b[1], key):
            e = &b[1]
        if e != NULL:
            lo = e.lower + shift
            hi = e.upper + shift
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            if e.best >= 0:
                hash_move = nth_card(inplay, e.best)
        alpha0 = alpha
        beta0 = beta
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        child = s[0]
        play(c, &child, h, lopaka_card(c, s, h))
        return search(c, &child, alpha, beta)
    seat = c.holder_seat[h]
    maximise = seat == c.root
    legal = legal_mask(c, s, h)
    reps = representatives(c, s, legal, inplay) if c.opts & OPT_EQUIV else legal
    nmoves = 0
    while reps:
        card = cb_hibit(reps)
        reps &= ~bit(card)
        moves[nmoves] = card
        if card == hash_move:
            score[nmoves] = INT64_MAX_SCORE
        elif c.opts & OPT_ORDER:
            score[nmoves] = static_eval(c, s, h, card)
            if not maximise:
                score[nmoves] = -score[nmoves]
            if HIST_MODE:
                score[nmoves] = score[nmoves] * (<int64_t>1 << 40) + c.hist[card]
        else:
            score[nmoves] = 0
        nmoves += 1
    # Insertion sort, highest score first (stable: ties stay high card first).
    for i in range(1, nmoves):
        j = i
        while j > 0 and score[j - 1] < score[j]:
            tmp = score[j - 1]
            score[j - 1] = score[j]
            score[j] = tmp
            card = moves[j - 1]
            moves[j - 1] = moves[j]
            moves[j] = card
            j -= 1
    best = -INF if maximise else INF
    for k in range(nmoves):
        card = moves[k]
        child = s[0]
        play(c, &child, h, card)
        v = search(c, &child, alpha, beta)
        if maximise:
            if v > best:
                best = v
                best_card = card
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_card = card
                if v < beta:
                    beta = v
        if alpha >= beta:
            if HIST_MODE:
                c.hist[card] += depth * depth if HIST_MODE == 1 else 1
            if k == 0:
                c.cut_first += 1
            else:
                c.cut_later += 1
            break
    if stored:
        tt_store(c, key, depth, best - shift, alpha0 - shift, beta0 - shift,
                 cb_popcount(inplay & (bit(best_card) - 1)) if best_card >= 0 else -1)
    return best


cdef int exact(Ctx* c, State* s, int guess) noexcept nogil:
    """The exact value by zero-window probes that narrow [lo, hi] (or one full window).

    The first probe is at the guess (MTD(f)); after that each probe tests the
    middle of what is still open, unless a fail-soft answer already moved the
    bound past it (bisection keeps a far guess from costing one probe per point).
    """
    cdef int lo, hi, g, b
    cdef uint64_t inplay = s.tmask
    cdef int i
    if not (c.opts & OPT_MTD):
        return search(c, s, -INF, INF)
    for i in range(c.nholders):
        inplay |= s.hand[i]
    score_bounds(c, s, inplay, &lo, &hi)
    if guess < lo:
        guess = lo
    if guess > hi:
        guess = hi
    b = guess if guess > lo else lo + 1
    while lo < hi:
        g = search(c, s, b - 1, b)
        c.probes += 1
        if g < b:
            hi = g
        else:
            lo = g
        if c.bisect:
            b = lo + (hi - lo + 1) // 2
        else:
            b = lo + 1 if g == lo else g
            if b > hi:
                b = hi
    return lo


def solve_state(
    list hands, list holder_seat, list order, int lopaka, int root, bint hot, int pile,
    int price, int price_card, int owner, int taken, int leader, list trick, list trick_holders,
    list points, list suits, int tt_bits=20, int opts=OPT_ALL,
):
    """Values of the legal cards of the holder to move: ({card: value}, nodes).

    `root` is the seat whose score is valued (the seat to move).  With Lopaka
    to move the one card of his policy is valued.  `taken` is the points in
    the root seat's tricks so far.
    """
    cdef Ctx c
    cdef State s, child
    cdef int i, j, h, card, nxt, g, guess
    cdef uint64_t legal, reps, inplay, above
    cdef int values[MAXC]
    cdef int is_rep[MAXC]
    cdef int nh = len(hands)
    if not 1 <= nh <= 4 or len(points) > MAXC or len(trick) >= nh:
        raise ValueError("solve_state: bad sizes")
    if any(not 1 <= p <= 3 for p in points) or any(not 0 <= x <= 2 for x in suits):
        raise ValueError("solve_state: the pattern key needs 3 suits and 1-3 points a card")
    c.nholders = nh
    c.lopaka = lopaka
    c.root = root
    c.hot = hot
    c.pile = pile
    c.opts = opts
    c.nodes = 0
    c.probes = 0
    c.cut_first = 0
    c.cut_later = 0
    c.bisect = BISECT
    for i in range(MAXC):
        c.points[i] = 0
        c.suit[i] = 0
        c.hist[i] = 0
        c.by_depth[i] = 0
    for i in range(3):
        c.suit_mask[i] = 0
    for i in range(4):
        c.pts_mask[i] = 0
        c.root_holder[i] = 0
        c.holder_seat[i] = 0
        s.hand[i] = 0
        for j in range(4):
            c.order[i][j] = 0
    for i in range(len(points)):
        c.points[i] = points[i]
        c.suit[i] = suits[i]
        c.code[i] = suits[i] | ((points[i] - 1) << 2)
        c.suit_mask[suits[i]] |= bit(i)
        c.pts_mask[points[i]] |= bit(i)
    for i in range(nh):
        c.holder_seat[i] = holder_seat[i]
        c.root_holder[i] = holder_seat[i] == root
        s.hand[i] = hands[i]
    for i in range(len(order)):
        for j in range(nh):
            c.order[i][j] = order[i][j]
    s.price = price
    s.price_card = price_card
    s.owner = owner
    s.taken = taken
    s.leader = leader
    s.n = 0
    s.tmask = 0
    for i in range(len(trick)):
        s.tcard[i] = trick[i]
        s.tholder[i] = trick_holders[i]
        s.tmask |= bit(trick[i])
        s.n += 1
    c.tt_mask = (<uint64_t>1 << tt_bits) - 1
    c.tt = <Entry*>calloc(c.tt_mask + 1, sizeof(Entry))
    if c.tt == NULL:
        raise MemoryError()
    for i in range(MAXC):
        values[i] = 0
        is_rep[i] = 0
    h = c.order[s.leader][s.n]
    try:
        with nogil:
            if h == c.lopaka:
                card = lopaka_card(&c, &s, h)
                legal = bit(card)
                child = s
                play(&c, &child, h, card)
                values[card] = exact(&c, &child, child.taken)
                is_rep[card] = 1
            else:
                legal = legal_mask(&c, &s, h)
                inplay = s.tmask
                for i in range(nh):
                    inplay |= s.hand[i]
                reps = representatives(&c, &s, legal, inplay) if opts & OPT_EQUIV else legal
                guess = s.taken
                while reps:
                    card = cb_hibit(reps)
                    reps &= ~bit(card)
                    child = s
                    play(&c, &child, h, card)
                    g = exact(&c, &child, guess)
                    values[card] = g
                    is_rep[card] = 1
                    guess = g
                # Cards left out share the value of the next higher card of their group.
                for card in range(MAXC - 1, -1, -1):
                    if (legal >> card) & 1 and not is_rep[card]:
                        above = inplay & ~((bit(card) << 1) - 1)
                        nxt = cb_ctz(above)
                        values[card] = values[nxt]
    finally:
        free(c.tt)
    out = {}
    for card in range(MAXC):
        if (legal >> card) & 1:
            out[card] = values[card]
    LAST_STATS["probes"] = c.probes
    LAST_STATS["by_depth"] = [c.by_depth[i] for i in range(MAXC)]
    LAST_STATS["cut_first"] = c.cut_first
    LAST_STATS["cut_later"] = c.cut_later
    return out, c.nodes
