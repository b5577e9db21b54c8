# The max-n search ("each for itself", RULES.md), included by _search.pyx.
#
# Every position has one vector of final scores, one per seat, each as it
# counts.  Where seat s moves, the legal cards' vectors with the highest entry
# for s are kept, among them those with the lowest entry for the root seat r,
# and among them the card lowest in the deck's order decides.  There is no
# single number to bound, so no alpha-beta and no `avoid`: the search visits
# nearly every move.  What keeps it affordable:
#
# - A search returns what the rest of the hand brings (MResult: the points
#   each seat still takes and who ends with the bottle), not the scores.
#   While the pile is worth something and every seat scores alone, no choice
#   in the tree depends on the points taken so far: any ending without the
#   bottle (its points, >= 0) beats any ending with it (-pile < 0), and two
#   endings alike differ by what is still taken, or not at all.  So the
#   table's key holds no points taken (in team mode, where a side's sum
#   mixes a member's points with the other's bottle, it holds every seat's).
# - The table at the start of each trick, its key the pattern of the cards in
#   play as in the paranoid search.
# - Cut-offs the tie rule allows: the moves are tried lowest card first, so
#   a later (higher) card is preferred only when strictly better.  Once a
#   move gives the mover the most it can still score and the root seat the
#   least it can, the rest are skipped; and a move whose bounds (those of
#   the paranoid search, for any seat) show it cannot be strictly better is
#   not searched.
# - Shallow pruning (`shallow`): two seats' scores sum to at most their
#   points taken and all still to be taken, so once the mover here is sure
#   of so much that the parent's mover cannot get here what it already has
#   elsewhere, the position is left (its result unused, not stored).
# - At a trick's last card every child starts a trick: their keys are made
#   and their buckets asked for at once, and a child found in the table is
#   taken from there before its bounds are worked out.


cdef inline int raw_score(Ctx* c, State* s, MResult* r, int q) noexcept nogil:
    """Seat q's own final score: its points, or the bottle's loss."""
    cdef int t = s.tk[q] + r.f[q], n
    if c.two:
        n = (r.owner == q) + (r.sowner == q)
        return -c.pile * n if n else t
    if r.owner == q:
        return -c.pile - (t if c.hot else 0)
    return t


cdef inline int score_of(Ctx* c, State* s, MResult* r, int q) noexcept nogil:
    """Seat q's final score as it counts (`Hand.scores()`), from position s."""
    cdef int t, v = 0
    if not c.sides:
        return raw_score(c, s, r, q)
    for t in range(c.nseats):
        if c.w[q][t]:
            v += c.w[q][t] * raw_score(c, s, r, t)
    return v


cdef inline void settle(Ctx* c, State* s, State* later, MResult* r) noexcept nogil:
    """Make `r`, relative to position `later`, relative to its ancestor `s`."""
    cdef int q
    for q in range(c.nseats):
        r.f[q] += later.tk[q] - s.tk[q]


cdef inline void ended(Ctx* c, State* s, State* end, MResult* r) noexcept nogil:
    """The result, relative to `s`, of the hand ending as `end`."""
    cdef int q
    for q in range(c.nseats):
        r.f[q] = end.tk[q] - s.tk[q]
    r.owner = end.owner
    r.sowner = end.sowner if c.two else -1


cdef inline void maxn_bounds(Ctx* c, State* s, uint64_t inplay, int q,
                             int* lo, int* hi) noexcept nogil:
    """Bounds on seat q's final score (one bottle, no sides; see score_bounds)."""
    one_seat_bounds(c, s, inplay, seat_cards(c, s, q), s.owner == q, s.tk[q], -INF, INF, lo, hi)


cdef inline void maxn_key(Ctx* c, State* s, uint64_t inplay, uint64_t* k) noexcept nogil:
    """What the rest of the hand depends on, at the start of a trick.

    Words 0-3: the cards in play as the paranoid key's pattern (or exactly,
    past its capacity and with the second bottle).  Word 4: the price's place
    among them (7 bits), the leader (3), the owner + 1 (3), the price card's
    points (4: they go back to the owner when the bottle is bought), the
    cards in play (7), whether words 0-3 are exact (1), the second bottle's
    place (7), owner + 1 (3) and price card's points (4), the solve's number.
    Word 5: each seat's points taken (10 bits a seat) where they matter (see
    the top of this file), else 0.
    """
    cdef uint64_t p[3]
    cdef uint64_t w4, w5 = 0
    cdef uint64_t below = inplay & (bit(s.price) - 1)
    cdef int q, count = cb_popcount(inplay)
    cdef bint kexact = not (c.opts & OPT_CANON) or count > c.kcap or c.two
    holder_planes(c, s, 0, p)
    if kexact:
        exact_words(inplay, p, k)
    else:
        pattern(c, s, inplay, p, MAXC, True, k)
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
    if c.sides or c.pile <= 0:
        for q in range(c.nseats):
            w5 |= <uint64_t>s.tk[q] << (10 * q)
    k[5] = w5


cdef inline MEntry* maxn_bucket(Ctx* c, uint64_t* k) noexcept nogil:
    """Two entries per bucket: [0] keeps the position with more cards in play, [1] the latest."""
    return &c.mtt[(key_hash(k, 6) & c.mtt_mask) & ~(<uint64_t>1)]


cdef inline bint maxn_found(Ctx* c, uint64_t* k, MResult* out) noexcept nogil:
    """Whether the table holds position k's result (then in `out`)."""
    cdef MEntry* b = maxn_bucket(c, k)
    cdef int h, q
    for h in range(2):
        if same_words(b[h].k, k, 6):
            for q in range(c.nseats):
                out.f[q] = b[h].f[q]
            out.owner = b[h].owner
            out.sowner = b[h].sowner
            return True
    return False


cdef inline void maxn_store(Ctx* c, uint64_t* k, MResult* r) noexcept nogil:
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
        e.f[q] = <int16_t>r.f[q]
    e.owner = <int8_t>r.owner
    e.sowner = <int8_t>r.sowner
    claimed(c)  # (last: the table may move)


cdef inline int still_taken(Ctx* c, State* s, uint64_t inplay) noexcept nogil:
    """Points some seat may still add to its tricks: the cards in play and
    the price cards that go back to their owners when their bottles are bought."""
    cdef int v = mask_points(c, inplay)
    if s.owner >= 0 and s.price_card >= 0:
        v += c.points[s.price_card]
    if c.two and s.sowner >= 0 and s.scard >= 0:
        v += c.points[s.scard]
    return v


#: The most children of a trick's last card whose keys are made at once (`maxn`).
cdef enum:
    MAXN_AHEAD = 16


cdef bint maxn(Ctx* c, State* s, MResult* out, int pseat, int pbest,
               const uint64_t* given) noexcept nogil:
    """What the rest of the hand brings from position s under max-n.

    The parent's mover `pseat` (-1: none) takes this position only if its
    entry here is at least `pbest`.  Returns True where the search stopped
    once it was sure it is not (shallow pruning: two seats' scores sum to
    at most their points taken and all still to be taken, so the more the
    mover here is sure of, the less is left for the parent's mover); `out`
    is then not the position's result.  `given`: the position's table key,
    where the parent made it (NULL: made here).
    """
    cdef uint64_t inplay, reps, cin, kin
    cdef uint64_t key[6]
    cdef MResult r
    cdef State child, chosen
    cdef State ahead[MAXN_AHEAD]
    cdef uint64_t akey[MAXN_AHEAD][6]
    cdef bint keyed[MAXN_AHEAD]
    cdef int i, nahead = 0
    cdef int h, q, seat, card, root = c.root, ubound = INF, lbound = -INF
    cdef int lo = 0, hi = 0, root_lo = 0, root_hi = 0
    cdef int vs, vr, best_s = 0, best_r = 0
    cdef bint stored = False, have = False, cut, shallow = False, found
    cdef int pair_most = 0  # (the most the two movers' scores can sum to)
    c.nodes += 1
    if should_stop(c):
        ended(c, s, s, out)
        return False
    inplay = in_play(c, s)
    if inplay == 0:
        ended(c, s, s, out)
        return False
    c.dnodes[c.tricks_left[cb_popcount(inplay)]] += 1
    if last_trick(c, s):
        child = s[0]
        play_out(c, &child)
        ended(c, s, &child, out)
        return False
    if s.n == 0 and (c.opts & OPT_TT):
        c.looks += 1
        if given != NULL:
            for q in range(6):
                key[q] = given[q]
        else:
            maxn_key(c, s, inplay, key)
        if maxn_found(c, key, out):
            c.hits += 1
            return False
        stored = True
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        child = s[0]
        play(c, &child, h, lopaka_card(c, s, h))
        if maxn(c, &child, out, pseat, pbest, NULL):
            return True
        settle(c, s, &child, out)
    else:
        seat = c.holder_seat[h]
        reps = mover_legal(c, s, h)
        if c.opts & OPT_EQUIV:
            reps = representatives(c, s, h, reps, inplay, True)
        cut = (c.opts & OPT_BOUNDS) and not c.sides and not c.two
        if (c.opts & OPT_SHALLOW) and not c.sides and pseat >= 0 and pseat != seat:
            shallow = True
            pair_most = s.tk[pseat] + s.tk[seat] + still_taken(c, s, inplay)
        if cut:
            maxn_bounds(c, s, inplay, seat, &lo, &ubound)
            if seat != root:
                maxn_bounds(c, s, inplay, root, &lbound, &root_hi)
        if (c.opts & OPT_TT) and s.n == c.nholders - 1:
            # Every child starts a trick, and most are in the table: their
            # keys are made and their buckets asked for before any is
            # searched, so that the table's cache misses overlap.
            cin = reps
            while cin and nahead < MAXN_AHEAD:
                card = cb_ctz(cin)
                cin &= cin - 1
                ahead[nahead] = s[0]
                play(c, &ahead[nahead], card_holder(c, s, h, card), card)
                kin = in_play(c, &ahead[nahead])
                keyed[nahead] = kin != 0 and not last_trick(c, &ahead[nahead])
                if keyed[nahead]:
                    maxn_key(c, &ahead[nahead], kin, akey[nahead])
                    cb_prefetch_bucket(maxn_bucket(c, akey[nahead]))
                nahead += 1
        # Lowest card first: a later card replaces the best only when strictly better.
        i = -1
        while reps:
            card = cb_ctz(reps)
            reps &= reps - 1
            i += 1
            found = False
            if i < nahead:
                child = ahead[i]
                if keyed[i] and maxn_found(c, akey[i], &r):
                    # (Counted as the child's own look would have been; its
                    # result costs less than its bounds.)
                    found = True
                    c.nodes += 1
                    c.dnodes[c.tricks_left[cb_popcount(in_play(c, &child))]] += 1
                    c.looks += 1
                    c.hits += 1
            else:
                child = s[0]
                play(c, &child, card_holder(c, s, h, card), card)
            if cut and have and not found and child.n == 0:
                # A card whose best for the mover is below the best so far (or
                # equal, while the root seat ends no lower) cannot be preferred.
                # (Only a card that ends the trick: within it the bounds
                # never cut, 3p-8's nodes are the very same without them.)
                cin = in_play(c, &child)
                maxn_bounds(c, &child, cin, seat, &lo, &hi)
                if hi < best_s:
                    continue
                if hi == best_s and seat != root:
                    maxn_bounds(c, &child, cin, root, &root_lo, &root_hi)
                    if root_lo >= best_r:
                        continue
                elif hi == best_s:
                    continue
            if not found and maxn(c, &child, &r, seat, best_s if have else -INF,
                                  akey[i] if i < nahead and keyed[i] else NULL):
                continue
            vs = score_of(c, &child, &r, seat)
            vr = score_of(c, &child, &r, root)
            if not have or vs > best_s or (vs == best_s and vr < best_r):
                have = True
                best_s = vs
                best_r = vr
                out[0] = r
                chosen = child
                if shallow and pair_most - vs < pbest:
                    return True
                if cut and vs >= ubound and (seat == root or vr <= lbound):
                    break
        settle(c, s, &chosen, out)
    if stored and not c.stop:
        maxn_store(c, key, out)
    return False


cdef int maxn_value(Ctx* c, State* s) noexcept nogil:
    """The root seat's final score at position s under max-n."""
    cdef MResult r
    maxn(c, s, &r, -1, -INF, NULL)
    return score_of(c, s, &r, c.root)
