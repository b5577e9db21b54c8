# The max-n search ("each for itself", RULES.md), included by _search.pyx.
#
# Every position has one vector of final scores, one per seat, each as it
# counts.  Where seat s moves, the legal cards' vectors with the highest entry
# for s are kept, among them those with the lowest entry for the root seat r,
# and among them the card lowest in the deck's order decides.  There is no
# single number to bound, so no alpha-beta and no `avoid`: the search visits
# every move, and what keeps it affordable is the table of score vectors at
# the start of each trick (its key the pattern of the cards in play, as in the
# paranoid search) and one cut-off the tie rule allows: the moves are tried
# lowest card first, so once a move gives the mover the most it can still
# score and the root seat the least it can still score, no later (higher)
# card can be preferred to it.


cdef inline void maxn_final(Ctx* c, State* s, int* out) noexcept nogil:
    """The hand's scores as they count, every seat (`Hand.scores()`)."""
    cdef int raw[MAXH]
    cdef int q, t, n, v
    for q in range(c.nseats):
        if c.two:
            n = (s.owner == q) + (s.sowner == q)
            raw[q] = -c.pile * n if n else s.tk[q]
        elif s.owner == q:
            raw[q] = -c.pile - (s.tk[q] if c.hot else 0)
        else:
            raw[q] = s.tk[q]
    if not c.sides:
        for q in range(c.nseats):
            out[q] = raw[q]
        return
    for q in range(c.nseats):
        v = 0
        for t in range(c.nseats):
            v += c.w[q][t] * raw[t]
        out[q] = v


cdef inline uint64_t seat_cards(Ctx* c, State* s, int q) noexcept nogil:
    """Seat q's cards in play: in its hands and already in the trick."""
    cdef uint64_t mine = 0
    cdef int i
    for i in range(c.nholders):
        if c.holder_seat[i] == q:
            mine |= s.hand[i]
    for i in range(s.n):
        if c.holder_seat[s.tholder[i]] == q:
            mine |= bit(s.tcard[i])
    return mine


cdef inline void maxn_bounds(Ctx* c, State* s, uint64_t inplay, int q,
                             int* lo, int* hi) noexcept nogil:
    """Bounds on seat q's final score (one bottle, no sides; see score_bounds)."""
    one_seat_bounds(c, s, inplay, seat_cards(c, s, q), s.owner == q, s.tk[q], lo, hi)


cdef inline void maxn_key(Ctx* c, State* s, uint64_t inplay, uint64_t* k,
                          int* shift) noexcept nogil:
    """What the rest of the hand depends on, at the start of a trick, for
    every seat at once; `shift[q]` is what seat q's score exceeds the stored
    value by.

    Words 0-3: the cards in play as the paranoid key's pattern (or exactly,
    past its capacity and with the second bottle).  Word 4: the price's place
    among them (7 bits), the leader (3), the owner + 1 (3), the price card's
    points (4: they go back to the owner when the bottle is bought), the
    cards in play (7), whether words 0-3 are exact (1), the second bottle's
    place (7), owner + 1 (3) and price card's points (4), the solve's number.
    Word 5: each seat's points taken (10 bits a seat), where the rest of the
    hand cannot make them matter as a marker instead (as in the paranoid key:
    a seat that can no longer end as the owner scores taken + what it still
    wins, so the table stores score - taken; an owner that can no longer get
    rid of the bottle scores -pile, hot: -(pile + taken + what it wins)).
    """
    cdef uint64_t p0 = 0, p1 = 0, p2 = 0, w4, w5 = 0
    cdef uint64_t below = inplay & (bit(s.price) - 1)
    cdef uint64_t scratch[5]
    cdef uint64_t sm[MAXH]
    cdef int i, q, t, count = cb_popcount(inplay)
    cdef bint kexact = not (c.opts & OPT_CANON) or count > c.kcap or c.two
    for q in range(MAXH):
        sm[q] = 0
    for i in range(c.nholders):
        if i & 1:
            p0 |= s.hand[i]
        if i & 2:
            p1 |= s.hand[i]
        if i & 4:
            p2 |= s.hand[i]
        sm[c.holder_seat[i]] |= s.hand[i]
    if kexact:
        exact_words(inplay, p0, p1, p2, k)
    elif c.narrow:
        canonical(c, inplay, p0, p1, k, scratch)
    else:
        canonical_wide(c, inplay, p0, p1, p2, k, scratch)
    w4 = (<uint64_t>cb_popcount(below) | (<uint64_t>s.leader << 7)
          | (<uint64_t>(s.owner + 1) << 10) | (<uint64_t>count << 17) | (<uint64_t>kexact << 24))
    if s.owner >= 0 and s.price_card >= 0:
        w4 |= <uint64_t>c.points[s.price_card] << 13
    if c.two:
        w4 |= ((<uint64_t>cb_popcount(inplay & (bit(s.sprice) - 1)) << 25)
               | (<uint64_t>(s.sowner + 1) << 32))
        if s.sowner >= 0 and s.scard >= 0:
            w4 |= <uint64_t>c.points[s.scard] << 35
    k[4] = w4 | (c.gen << GEN_SHIFT)
    for q in range(c.nseats):
        t = s.tk[q]
        shift[q] = 0
        if not c.sides and not c.two:
            if s.owner != q and not (below & sm[q]):
                t = TAKEN_NONOWNER
                shift[q] = s.tk[q]
            elif s.owner == q and not (below & ~sm[q]):
                t = TAKEN_STUCK
                shift[q] = -s.tk[q] if c.hot else 0
        w5 |= <uint64_t>t << (10 * q)
    k[5] = w5


cdef inline MEntry* maxn_bucket(Ctx* c, uint64_t* k) noexcept nogil:
    """Two entries per bucket: [0] keeps the position with more cards in play, [1] the latest."""
    cdef uint64_t x = k[0] * <uint64_t>0x9E3779B97F4A7C15
    x ^= k[1] * <uint64_t>0xC2B2AE3D27D4EB4F
    x ^= k[2] * <uint64_t>0x165667B19E3779F9
    x ^= k[3] * <uint64_t>0x27D4EB2F165667C5
    x ^= k[4] * <uint64_t>0x94D049BB133111EB
    x ^= k[5] * <uint64_t>0xBF58476D1CE4E5B9
    x ^= x >> 31
    x *= <uint64_t>0xD6E8FEB86659FD93
    x ^= x >> 32
    return &c.mtt[(x & c.mtt_mask) & ~(<uint64_t>1)]


cdef inline bint maxn_same(MEntry* e, uint64_t* k) noexcept nogil:
    return (e.k[0] == k[0] and e.k[1] == k[1] and e.k[2] == k[2] and e.k[3] == k[3]
            and e.k[4] == k[4] and e.k[5] == k[5])


cdef inline void maxn_store(Ctx* c, uint64_t* k, int* out, int* shift) noexcept nogil:
    cdef MEntry* b = maxn_bucket(c, k)
    cdef MEntry* e
    cdef int q
    cdef uint64_t old = b[0].k[4]
    if ((old >> GEN_SHIFT) & GEN_MASK) != c.gen or ((old >> 17) & 127) <= ((k[4] >> 17) & 127):
        b[1] = b[0]
        e = &b[0]
    else:
        e = &b[1]
    for q in range(6):
        e.k[q] = k[q]
    for q in range(c.nseats):
        e.v[q] = <int16_t>(out[q] - shift[q])


cdef void maxn(Ctx* c, State* s, int* out) noexcept nogil:
    """The position's vector of final scores under max-n, into out[0..nseats)."""
    cdef uint64_t inplay, legal, reps
    cdef uint64_t key[6]
    cdef int shift[MAXH]
    cdef int best[MAXH]
    cdef int v[MAXH]
    cdef int h, q, seat, card, root = c.root, ubound = INF, lbound = -INF, lo, hi
    cdef bint stored = False, have = False, cut
    cdef MEntry* b
    cdef State child
    c.nodes += 1
    if should_stop(c):
        for q in range(c.nseats):
            out[q] = 0
        return
    inplay = s.tmask
    for h in range(c.nholders):
        inplay |= s.hand[h]
    if inplay == 0:
        maxn_final(c, s, out)
        return
    if last_trick(c, s):
        child = s[0]
        while True:
            h = c.order[child.leader][child.n]
            if c.free and not child.hand[h]:
                h += 1
            play(c, &child, h, cb_ctz(child.hand[h]))
            if child.n == 0:
                break
        maxn_final(c, &child, out)
        return
    if s.n == 0 and (c.opts & OPT_TT):
        maxn_key(c, s, inplay, key, shift)
        b = maxn_bucket(c, key)
        for h in range(2):
            if maxn_same(&b[h], key):
                for q in range(c.nseats):
                    out[q] = b[h].v[q] + shift[q]
                return
        stored = True
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        child = s[0]
        play(c, &child, h, lopaka_card(c, s, h))
        maxn(c, &child, out)
    else:
        seat = c.holder_seat[h]
        legal = mover_legal(c, s, h)
        reps = representatives(c, s, h, legal, inplay) if c.opts & OPT_EQUIV else legal
        cut = (c.opts & OPT_BOUNDS) and not c.sides and not c.two
        if cut:
            maxn_bounds(c, s, inplay, seat, &lo, &ubound)
            if seat != root:
                maxn_bounds(c, s, inplay, root, &lbound, &hi)
        # Lowest card first: a later card replaces the best only when strictly better.
        while reps:
            card = cb_ctz(reps)
            reps &= reps - 1
            child = s[0]
            play(c, &child, card_holder(c, s, h, card), card)
            maxn(c, &child, v)
            if (not have or v[seat] > best[seat]
                    or (v[seat] == best[seat] and v[root] < best[root])):
                have = True
                for q in range(c.nseats):
                    best[q] = v[q]
                if cut and best[seat] >= ubound and (seat == root or best[root] <= lbound):
                    break
        for q in range(c.nseats):
            out[q] = best[q]
    if stored and not c.stop:
        maxn_store(c, key, out, shift)


cdef MEntry* g_mtable = NULL
cdef uint64_t g_mentries = 0
cdef uint64_t g_mgen = 0


cdef MEntry* maxn_table_for(int bits, bint shared, uint64_t* mask, uint64_t* gen) except NULL:
    """The max-n table of one solve, kept and reused as `table_for` keeps the other."""
    global g_mtable, g_mentries, g_mgen
    cdef uint64_t entries = <uint64_t>1 << bits
    cdef MEntry* t
    if shared:
        if g_mentries < entries or g_mgen >= GEN_MASK:
            free_maxn_table()
            g_mtable = <MEntry*>cb_table_alloc(entries * sizeof(MEntry))
            if g_mtable == NULL:
                raise MemoryError()
            g_mentries = entries
            g_mgen = 0
        g_mgen += 1
        mask[0] = g_mentries - 1
        gen[0] = g_mgen
        return g_mtable
    t = <MEntry*>cb_table_alloc(entries * sizeof(MEntry))
    if t == NULL:
        raise MemoryError()
    mask[0] = entries - 1
    gen[0] = 1
    return t


cdef void free_maxn_table():
    global g_mtable, g_mentries
    if g_mtable != NULL:
        cb_table_free(g_mtable, g_mentries * sizeof(MEntry))
    g_mtable = NULL
    g_mentries = 0
