# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""The compiled double-dummy search.

`solve_state` reads its input, a `Problem` (solver/problem.py), once into a
small C state that is copied on every move (copy-make is cheaper than
undoing a trick's scoring).  The rules are replicated here, not called: the
trick winner and Lopaka's policy must agree with engine/tricks.py, and the
differential tests against solver/reference.py are what prove they do.

The value searched is the root seat's final score under one of RULES.md's
two models: paranoid here (the root seat maximises, every other seat
minimises, Lopaka plays his policy), each for itself in _maxn.pxi (every
seat maximises its own).  Everything below runs without the GIL.
"""

import threading

from cpython.exc cimport PyErr_Clear
from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from *:
    """
    /* One instruction where the build allows it (setup.py's -mpopcnt on a
       CPU that has it); else portable SWAR, as __builtin_popcountll is then
       a library call, measurably slower. */
    static inline int cb_popcount(unsigned long long x) {
    #ifdef __POPCNT__
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    #include <stdlib.h>
    #ifdef __linux__
    #include <sys/mman.h>
    #endif
    /* The table is hundreds of MB probed at random: on Linux ask for huge
       pages, which turns most TLB misses of a probe into hits.  (Not under
       AddressSanitizer, which checks the bounds of calloc's blocks only.) */
    #if defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
    #define CB_TABLE_MMAP 1
    #else
    #define CB_TABLE_MMAP 0
    #endif
    static void* cb_table_alloc(size_t bytes) {
    #if CB_TABLE_MMAP
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        return p;
    #else
        return calloc(1, bytes);
    #endif
    }
    static void cb_table_free(void* p, size_t bytes) {
    #if CB_TABLE_MMAP
        if (p) munmap(p, bytes);
    #else
        free(p);
    #endif
    }
    /* A cancel flag written by another thread: read through volatile, so the
       compiler never keeps it in a register across the search. */
    static inline int cb_flag_set(const unsigned char* p) {
        return p != NULL && *(volatile const unsigned char*)p != 0;
    }
    /* An entry of a table other threads write (`Ctx.shared`): copied word by
       word through volatile reads, so that what is checked is what is used.
       The words may alias the entry's fields of other types: without
       may_alias the compiler may read the copy's 16-bit bounds before (or
       instead of) these stores, which it did once the copy was made in a
       function of its own (`kept_answer`: wrong values on two threads). */
    typedef unsigned long long __attribute__((__may_alias__)) cb_word;
    static inline void cb_snapshot(void* dst, const void* src, size_t words) {
        const volatile cb_word* s = (const volatile cb_word*)src;
        cb_word* d = (cb_word*)dst;
        size_t i;
        for (i = 0; i < words; i++) d[i] = s[i];
    }
    static inline int cb_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    /* Gathering the bits of x where m is set to the low end, in order
       (`pattern`, several words through one m): one instruction each with
       BMI2 (setup.py's -mbmi2 where it is fast); else Hacker's Delight's
       compress in six shifts, its masks worked out once for m. */
    #include <stdint.h>
    #ifdef __BMI2__
    #include <immintrin.h>
    static inline void cb_gather_init(uint64_t* g, uint64_t m) {
        g[0] = m;
    }
    static inline uint64_t cb_gather(const uint64_t* g, uint64_t x) {
        return _pext_u64(x, g[0]);
    }
    #else
    static inline void cb_gather_init(uint64_t* g, uint64_t m) {
        /* g[1 + i]: the bits of m that move right by 2^i in round i (those
           with an odd count of 0s of m below them, in the round's bit). */
        uint64_t mk = ~m << 1, mp, mv;
        int i;
        g[0] = m;
        for (i = 0; i < 6; i++) {
            mp = mk ^ (mk << 1);
            mp ^= mp << 2;
            mp ^= mp << 4;
            mp ^= mp << 8;
            mp ^= mp << 16;
            mp ^= mp << 32;
            mv = mp & m;
            g[1 + i] = mv;
            m = (m ^ mv) | (mv >> (1 << i));
            mk &= ~mp;
        }
    }
    static inline uint64_t cb_gather(const uint64_t* g, uint64_t x) {
        uint64_t t;
        int i;
        x &= g[0];
        for (i = 0; i < 6; i++) {
            t = x & g[1 + i];
            x = (x ^ t) | (t >> (1 << i));
        }
        return x;
    }
    #endif
    static inline int cb_hibit(unsigned long long x) { return 63 - __builtin_clzll(x); }
    /* A bucket of the table (96 bytes: two cache lines at most), asked for
       before it is read. */
    static inline void cb_prefetch_bucket(const void* p) {
        __builtin_prefetch(p);
        __builtin_prefetch((const char*)p + 64);
    }
    /* How this module was built (`BUILD`): setup.py defines
       CB_PROFILE_GUIDED for its profile-guided build, CB_SANITIZE for a
       sanitizer's (CB_SANITIZE=... in its environment). */
    #ifndef CB_PROFILE_GUIDED
    #define CB_PROFILE_GUIDED 0
    #endif
    #ifndef CB_SANITIZE
    #define CB_SANITIZE 0
    #endif
    #ifdef __POPCNT__
    #define CB_POPCNT 1
    #else
    #define CB_POPCNT 0
    #endif
    #ifdef __BMI2__
    #define CB_PEXT 1
    #else
    #define CB_PEXT 0
    #endif
    """
    int CB_PROFILE_GUIDED
    int CB_SANITIZE
    int CB_POPCNT
    int CB_PEXT
    int cb_popcount(uint64_t x) nogil
    int cb_ctz(uint64_t x) nogil
    int cb_hibit(uint64_t x) nogil
    void cb_gather_init(uint64_t* g, uint64_t m) nogil
    uint64_t cb_gather(const uint64_t* g, uint64_t x) nogil
    void* cb_table_alloc(size_t bytes) nogil
    void cb_table_free(void* p, size_t bytes) nogil
    int cb_flag_set(const unsigned char* p) nogil
    void cb_snapshot(void* dst, const void* src, size_t words) nogil
    void cb_prefetch_bucket(const void* p) nogil

cdef enum:
    INF = 30000
    MAXC = 64
    #: Holders of cards in the play (the Bottle Imp seats six).
    MAXH = 6
    #: A card's points fit 4 bits (the price card's in the key); a deck's total
    #: fits the key's 10 bits of points taken, below the markers.
    MAX_CARD_POINTS = 15
    MAX_TOTAL_POINTS = 1018
    #: Markers in the key's points-taken field: the root seat can no longer end
    #: as owner, can no longer get rid of the bottle (both: values relative to
    #: the points taken), and the key of the bottle question alone.
    TAKEN_NONOWNER = 1023
    TAKEN_STUCK = 1022
    TAKEN_AVOID = 1021
    #: Values relative to the points taken, whatever the bottle's state (OPT_RELATIVE).
    TAKEN_RELATIVE = 1020
    #: The key of "one point more?" alone (`gain`).
    TAKEN_GAIN = 1019
    #: How a seat's hand ends, as far as settled without search (`ending`).
    ENDS_OPEN = -1
    ENDS_FREE = 0
    ENDS_OWNER = 1
    #: The endings a side of two can still reach, bits of `side_endings`
    #: (settled: one bit, which the key's partner points field then holds,
    #: under TAKEN_NONOWNER).
    SIDE_FREE = 1
    SIDE_ROOT = 2
    SIDE_PARTNER = 4

cdef int64_t INT64_MAX_SCORE = 1 << 62
#: Entries carry the number of the solve that wrote them (in the key), so a
#: table can serve solve after solve without being cleared.
cdef uint64_t GEN_MASK = 0xFFFFF
cdef enum:
    GEN_SHIFT = 44
#: The low bits of that number are the root seat's (`table_for`).
cdef enum:
    ROOT_BITS = 3

# Technique switches, so the benchmark can show what each one buys.
cdef enum:
    OPT_TT = 1
    OPT_EQUIV = 2
    OPT_BOUNDS = 4
    OPT_ORDER = 8
    OPT_MTD = 16
    OPT_CANON = 32
    OPT_OWNER = 64
    OPT_AVOID = 128
    #: Issue 17: the history heuristic (ties of the look-ahead broken by how
    #: often a card cut off before), killer moves (per count of cards in
    #: play, tried right after the hash move), enhanced transposition
    #: cut-offs in the bottle question (a move that ends the trick into a
    #: settled position is taken without search).
    OPT_HISTORY = 256
    OPT_KILLER = 512
    OPT_ETC = 1024
    #: Quick-trick bounds for a seat that can no longer buy, owner or not (`quick_bounds`).
    OPT_QUICK = 2048
    #: The ending settled while only one side holds cards below the price
    #: (`ending`; without it only while the root seat or nobody else does).
    OPT_SETTLED = 4096
    #: The main table's values relative to the points taken, whatever the
    #: bottle's state (`relative_lower`); without it only once the ending is
    #: settled, and the points taken are part of the key while it is open.
    OPT_RELATIVE = 8192
    #: The quick-trick bound's tricks lost counted by pairs (`beaten_pairs`).
    OPT_MATCH = 16384
    #: The seat outnumbered below its lowest card below the price ends free (`outnumbered`).
    OPT_OUTNUMBER = 32768
    #: A kept table's entries serve the next solve of the same context
    #: (`context_signature`): the guessed deals of one decision, the
    #: positions of one hand.
    OPT_SHARE = 65536
    #: Two cards of one holder play alike when only that holder's own cards
    #: lie between them (`same_as_next`; the paranoid search alone).
    OPT_RUNS = 131072
    #: While the root seat's ending is open, every seat tries its lowest card
    #: first in the points search, without the look-ahead; once it is
    #: settled, the root side's ties go lowest card first (`ordered_moves`).
    OPT_LOW = 262144
    #: A root card's probes step twice as far each time they fail the same
    #: way twice running (`exact`): in team mode only, where a card's value
    #: can lie tens of points from the guess.
    OPT_GALLOP = 524288
    #: Killer moves (OPT_KILLER) in team mode at four, where they save nodes.
    OPT_TEAM_KILLER = 1048576
    #: OPT_LOW in team mode asks whether the side's ending is open
    #: (`side_endings`), not the root seat's alone.
    OPT_SIDE_LOW = 2097152
    #: The bottle question's ties (`owner_eval` equal) go by the price: the
    #: cards below it lowest first, then those above it highest first
    #: (`price_tie`); the others' cards go by the price alone (`owner_eval`).
    OPT_PRICE_TIES = 4194304
    #: Cards whose points can never reach the root seat (`dead_cards`) are
    #: keyed without their points, and such cards of one hand are equivalent
    #: whatever their points.
    OPT_DEAD = 8388608
    #: The others' cards that can never win a trick (`loser_cards`) are
    #: keyed in an order of their own, and such cards of one hand, suit and
    #: points are equivalent wherever they lie.
    OPT_LOSERS = 16777216
    #: Once the root seat's ending is settled, the seats against it try
    #: their lowest card first in the points search, without the look-ahead
    #: (`ordered_moves`): with a deck of at most three point values (Cursed
    #: Bottle's), where it saves nodes; the Bottle Imp's 1-6 points need
    #: the look-ahead (measured: solver/README.md, eighteenth part).
    OPT_OPP_LOW = 33554432
    #: Where the bottle question's answer shows the root seat free with
    #: nothing above its points taken, `exact` asks next whether it takes
    #: anything more, before it goes to the guess (issue 17, nineteenth part).
    OPT_MORE = 67108864
    #: The others' leads of the bottle question, where many cards are in play
    #: (BUDGET_CARDS), tried in rounds of node budgets (`budgeted`).
    OPT_BUDGET = 134217728
    #: Max-n: a position stops being searched once its mover is sure of so
    #: much that the parent's mover cannot get what it has elsewhere
    #: (shallow pruning, `maxn`).
    OPT_SHALLOW = 268435456
    #: A seat holding more cards below all the others' cards below the
    #: price than the others hold below it ends the owner (`stuck`).
    OPT_STUCK = 536870912
    #: The zero-window probes from one point above the points taken up to as
    #: many as there are holders ask a game without points: can the root
    #: seat end free having taken any card more (`gain`)?
    OPT_GAIN = 1073741824

#: (Past a C int, so not in the enum: the switches are 64-bit from here on.)
#: The cut-off move of a node in the middle of the root's trick or the next
#: (those the table holds nothing for) kept by the state and tried first when
#: a later probe comes back to it (`hints`).
cdef int64_t OPT_HINTS = <int64_t>1 << 31
#: The move that cut off at a node of the seats against the root side in the
#: middle of a trick, kept by the mover's hand and the trick so far (not the
#: other hands), tried first where they meet again (`answers`).
cdef int64_t OPT_ANSWERS = <int64_t>1 << 32
#: A card's probes, once they have risen twice running, rise two points at
#: a time (`gallop_step`; OPT_GALLOP, where it is on, doubles them instead):
#: fewer probes one after another in a climb, each a point further from
#: the last (issue 17, thirty-second part).
cdef int64_t OPT_STRIDE = <int64_t>1 << 33
#: A seat ends free when one other hand holds more cards below the price
#: than the seat's cards below it and the others' at or above its lowest
#: such card could all buy over (`one_outnumbers`: OPT_OUTNUMBER's count
#: hand by hand, which it implies).
cdef int64_t OPT_ONE_OUTNUMBERS = <int64_t>1 << 34
#: An owner settled free is keyed as a seat that does not own, its price
#: card's points counted as taken: the next buy brings that card back to
#: it, whoever buys (`tt_key`).
cdef int64_t OPT_PRICE_BACK = <int64_t>1 << 35
cdef int64_t OPT_ALL = (<int64_t>1 << 36) - 1
#: What solve_state uses by default: all but the history heuristic and
#: the killer moves, which cost nodes (killer moves save them in team
#: mode at four: OPT_TEAM_KILLER), and the enhanced transposition cut-offs, which
#: save fewer nodes than their probes cost (solver/README.md).
cdef int64_t OPT_DEFAULT = OPT_ALL & ~(<int64_t>(OPT_HISTORY | OPT_KILLER | OPT_ETC))

OPTIONS = {"tt": OPT_TT, "equiv": OPT_EQUIV, "bounds": OPT_BOUNDS, "order": OPT_ORDER,
           "mtd": OPT_MTD, "canon": OPT_CANON, "owner": OPT_OWNER, "avoid": OPT_AVOID,
           "history": OPT_HISTORY, "killer": OPT_KILLER, "etc": OPT_ETC,
           "quick": OPT_QUICK, "settled": OPT_SETTLED, "relative": OPT_RELATIVE,
           "match": OPT_MATCH, "outnumber": OPT_OUTNUMBER, "share": OPT_SHARE,
           "runs": OPT_RUNS, "low": OPT_LOW, "gallop": OPT_GALLOP,
           "team-killer": OPT_TEAM_KILLER, "side-low": OPT_SIDE_LOW,
           "price-ties": OPT_PRICE_TIES, "dead": OPT_DEAD,
           "losers": OPT_LOSERS, "opp-low": OPT_OPP_LOW, "more": OPT_MORE,
           "budget": OPT_BUDGET, "shallow": OPT_SHALLOW, "stuck": OPT_STUCK,
           "gain": OPT_GAIN, "hints": OPT_HINTS, "answers": OPT_ANSWERS,
           "stride": OPT_STRIDE, "one-outnumbers": OPT_ONE_OUTNUMBERS, "price-back": OPT_PRICE_BACK}
#: The techniques used by default (the benchmark's and the tests' "all");
#: EVERY_OPTION adds those that do not pay.
ALL_OPTIONS = OPT_DEFAULT
EVERY_OPTION = OPT_ALL
#: How this module was built, for the benchmark's figures: profile-guided
#: (setup.py), and whether popcnt and BMI2's pext are single instructions;
#: "sanitize": built for a sanitizer's check (setup.py's CB_SANITIZE).
BUILD = {"profile_guided": bool(CB_PROFILE_GUIDED), "popcnt": bool(CB_POPCNT),
         "pext": bool(CB_PEXT), "sanitize": bool(CB_SANITIZE)}
#: Cards a table key can describe (solve_state's default `key_cap`).
MAX_KEY_CARDS = MAXC
#: Counters of the last solve (for the benchmark and for tuning).
LAST_STATS = {}
#: `avoid` keeps no table entries for the last TT_MIN tricks: re-searching
#: them costs less than the cache misses of the probes (measured).
cdef enum:
    TT_MIN = 1
#: A transposition table's first size (2^START_BITS entries, 3 MB): it
#: grows as the solve fills it (`claimed`).
cdef enum:
    START_BITS = 16
#: The largest table a solve may ask for (2^30 entries, 48 GB: more than any machine here).
cdef enum:
    MAX_TT_BITS = 30
#: `budgeted`: the fewest cards in play at which the others' leads of the
#: bottle question go by rounds (five players from the second trick's lead
#: to the third's, six the second's; three and four players, Devil's Eye
#: and every first lead of fewer than 40 cards never: there the rounds cost
#: more than they find), a try's first budget in nodes, and the most it
#: grows to (measured: solver/README.md, issue 17, twentieth part).
cdef enum:
    BUDGET_CARDS = 40
    BUDGET_START = 3000
cdef int64_t BUDGET_MAX = 1 << 50
#: How often (in nodes) a search looks at its cancel flag and the clock:
#: well under a millisecond apart, so that a split solve's probe given up
#: frees its thread (and ends the solve) at once, and still too rare to
#: cost anything; for signals, which take the GIL, sixteen times as rarely.
cdef enum:
    CHECK_MASK = 0xFFF
    SIGNAL_MASK = 0xFFFF
#: Ordering weights of `avoid` (measured: the count of the root seat's cards
#: below the price is the feature that matters, 4x fewer nodes than without;
#: the owner only breaks its ties, and not with OPT_PRICE_TIES).
cdef enum:
    OWN_W = 1
cdef enum:
    BELOW_W = 4
#: History counts stay below this (they break ties of the look-ahead only).
cdef int64_t HIST_CAP = 1 << 30


cdef inline void good_move(Ctx* c, int h, int card, int depth, int place,
                           bint bottle_only) noexcept nogil:
    """Learn from a cut-off by `card` of holder h at `depth` cards in play, the
    `place`-th move tried: the killer of that depth and its history count."""
    c.cut_at[place if place < 4 else 4] += 1
    if c.opts & OPT_KILLER:
        c.killer[bottle_only][depth] = card + 1
    if c.opts & OPT_HISTORY:
        c.hist[h][card] += depth * depth
        if c.hist[h][card] >= HIST_CAP:
            age_history(c)


cdef void age_history(Ctx* c) noexcept nogil:
    cdef int i, j
    for i in range(MAXH):
        for j in range(MAXC):
            c.hist[i][j] >>= 1



cdef struct Entry:
    #: The key; in a table several threads share (`Ctx.shared`) k[0] is
    #: stored sealed: XORed with a hash of the rest of the entry (`seal`).
    uint64_t k[5]
    int16_t lower
    int16_t upper
    int8_t best
    uint8_t depth


cdef struct MResult:
    #: What the rest of the hand brings under max-n, relative to the position:
    #: the points each seat still takes (price cards coming back included)
    #: and who ends owning the bottle (and the second bottle; -1: nobody).
    int f[MAXH]
    int owner
    int sowner


cdef struct MEntry:
    #: The max-n table's entry: a key of six words and an MResult.
    uint64_t k[6]
    int16_t f[MAXH]
    int8_t owner
    int8_t sowner


cdef struct Table:
    #: A transposition table kept between solves: its memory, its size in
    #: entries, the number of the last solve that used it, an entry's bytes,
    #: and the context of that solve (`context_signature`; 0: none); the
    #: words of an entry's key (5 paranoid, 6 max-n), the most entries the
    #: solve using it may grow it to, and the entries claimed under its
    #: number (`claimed`).
    void* p
    uint64_t entries
    uint64_t gen
    size_t entry_size
    uint64_t sig
    int words
    uint64_t cap
    uint64_t used
    #: The paranoid search's hints (`hints`) and answers (`answers`):
    #: HINT_SLOTS words each, a hash with its cut-off move + 1 in the low
    #: byte (NULL: none).
    uint64_t* hints


cdef struct Probe:
    int card
    #: The probe asked "is the value at least b?" (the window b - 1, b) ...
    int b
    #: ... and the fail-soft answer was g (>= b: yes).
    int g
    int64_t nodes


#: The probes `LAST_STATS["probes_by_card"]` keeps (the rest are counted only).
cdef enum:
    PROBE_LOG = 512
    #: The hints a table keeps (`hints`), and as many answers after them
    #: (`answers`): 1 MB, a slot by a hash's top bits.
    HINT_SLOTS = 1 << 16
    HINT_SHIFT = 48


cdef struct Ctx:
    int nholders
    int holder_seat[MAXH]
    #: The one hand each seat holds (-1: two, Devil's Eye; or none).
    int seat_hand[MAXH]
    int order[MAXH][MAXH]
    int lopaka
    int root
    #: The root seat's partner in the Bottle Imp's team mode (-1: none): it
    #: maximises too, and the value is the side's score.
    int partner
    #: The Bottle Imp's second bottle is played (State.s*: the bottle not for sale).
    bint two
    #: Devil's Eye: the mover plays from either of its hands h and h + 1 (`order`
    #: names the first), each following suit on its own.
    bint free
    int hot
    int pile
    int64_t opts
    int points[MAXC]
    int suit[MAXC]
    int code[MAXC]
    uint64_t suit_mask[3]
    #: Bit slices of the points: bit b of a card's points is set in pbit[b].
    uint64_t pbit[4]
    #: The cards worth each number of points, and those numbers that occur,
    #: lowest first (`lowest_points`).
    uint64_t pmask[MAX_CARD_POINTS + 1]
    int pvals[MAX_CARD_POINTS + 1]
    int npvals
    bint pbit_hi
    #: OPT_OPP_LOW, where it pays: decks of at most three point values.
    bint opp_low
    #: OPT_MATCH, where it pays: the max-n search, and the paranoid search
    #: with Lopaka (issue 17, nineteenth part: elsewhere its bound cut
    #: almost no node the quick tricks' count did not, 0.08 % of
    #: 3p-11-tips' at most, and cost 5 % of the instructions).
    bint match
    #: The pattern keys (`pattern`): bit planes of the holder (hbits), suit
    #: (2) and points (pbits) of the cards in play, each as wide as their
    #: count; kcap / ocap cards fit the four words of the main / the bottle
    #: question's pattern (kbits / obits planes), more cards in play use the
    #: exact key.
    int hbits
    int pbits
    int kbits
    int obits
    int kcap
    int ocap
    Entry* tt
    uint64_t tt_mask
    #: The table behind tt (or mtt): it grows during the solve (`claimed`).
    Table* table
    uint64_t gen
    #: Other threads search the same table at once (`SearchTables(shared=True)`,
    #: `solve_split`): its entries are read whole and checked (`seal`), written
    #: whole, and it never grows.
    bint shared
    int64_t nodes
    int64_t probes
    int64_t avoid_nodes
    int64_t gain_nodes
    #: Stop early: once set every search returns at once and the values are
    #: void, and nothing more is stored in the table (`tt_store`, `mark_owner`).
    bint stop
    #: Stop at this wall-clock time (`wall_seconds()`; 0: never: a caller's
    #: budget is wall-clock time, and a process's CPU time counts every
    #: thread's and lags on a loaded machine), or when a signal handler raises (Ctrl-C; only in the main thread, where Python
    #: runs them); checked every CHECK_MASK + 1 nodes (signals every SIGNAL_MASK + 1).
    double deadline
    bint watch_signals
    bint timed_out
    bint interrupted
    #: A `CancelToken`'s flag (solver/cancel.py; NULL: none), set by another
    #: thread to give up; checked with the clock.
    const unsigned char* cancel_flag
    bint cancelled
    #: The max-n search (_maxn.pxi): seats valued, whether the scores count
    #: by sides (then w[s][t] is what seat t's own score adds to seat s's),
    #: and its table of score vectors.
    int nseats
    bint sides
    int w[MAXH][MAXH]
    MEntry* mtt
    uint64_t mtt_mask
    #: Move ordering learnt during the solve: history counts per holder and
    #: card, killer moves (card + 1, 0: none) per count of cards in play, of
    #: the main search [0] and of the bottle question [1].
    int64_t hist[MAXH][MAXC]
    int8_t killer[2][MAXC + 1]
    #: Counters for profiling (LAST_STATS): table probes and hits (main,
    #: bottle question), the place of the move that cut off (0-3, 4+), nodes
    #: without a cut-off (and of those, the root side's), nodes by tricks
    #: left, nodes and probes by root card, the main search's trick starts
    #: by the root seat's ending (open, free, owner), and each probe of MTD(f).
    int64_t looks
    int64_t hits
    int64_t alooks
    int64_t ahits
    int64_t cut_at[5]
    int64_t no_cut
    int64_t no_cut_root
    int64_t ends_nodes[3]
    int card_now
    int nprobes_logged
    Probe probe_log[PROBE_LOG]
    int64_t etc_cuts
    int64_t dnodes[17]
    #: Tricks left by the count of cards in play (for dnodes, no division a node).
    uint8_t tricks_left[MAXC + 1]
    #: The dead cards and the losers of the trick in progress (`mark_trick`),
    #: by the count of cards in play, which stays as it is through a trick
    #: (not in the State, which every move copies).
    uint64_t dead_at[MAXC + 1]
    uint64_t losers_at[MAXC + 1]
    int64_t card_nodes[MAXC]
    int64_t card_probes[MAXC]
    uint64_t valued
    #: The bottle question's node budget (`budgeted`): past node_limit nodes
    #: `avoid` gives up (`over`), its answers void and nothing stored, until
    #: the node that set the limit takes over again.  budget_cards: the
    #: fewest cards in play at which the others' leads go by rounds,
    #: budget_start a try's first budget (BUDGET_*; the tests lower them).
    int64_t node_limit
    bint over
    #: The table's hints and answers (`hints`, `answers`; NULL: none), the
    #: fewest cards in play at which a node in the middle of a trick uses
    #: hints (the root's trick and the next), and how often each gave the
    #: first move (LAST_STATS).
    uint64_t* hints
    int hint_from
    int64_t hint_hits
    int64_t answer_hits
    int budget_cards
    int64_t budget_start
    int64_t budget_stops


cdef struct State:
    uint64_t hand[MAXH]
    uint64_t tmask
    #: The cards in play (hands and trick): `in_play`.
    uint64_t inplay
    int price
    int price_card
    int owner
    int taken
    int taken2
    int leader
    int n
    int8_t tcard[MAXH]
    int8_t tholder[MAXH]
    #: The second bottle, the one not for sale: price, price card (-1: none), owner (-1: none).
    int8_t sprice
    int8_t scard
    int8_t sowner
    #: Every seat's points taken (the max-n search values every seat).
    int16_t tk[MAXH]


cdef extern from "Python.h":
    # Declared here without Cython's `except -1`: the raised exception is handled
    # by hand below, not propagated out of a function that cannot raise.
    int PyErr_CheckSignals()


cdef bint signal_pending() noexcept with gil:
    """Whether a signal handler raised (Ctrl-C); the exception is dropped here and
    raised again once the search has unwound."""
    if PyErr_CheckSignals() == 0:
        return False
    PyErr_Clear()
    return True


cdef inline double wall_seconds() noexcept nogil:
    """The monotonic clock, in seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9


cdef inline bint should_stop(Ctx* c) noexcept nogil:
    """Whether the search must give up now (see Ctx.stop)."""
    if c.stop:
        return True
    if (c.nodes & CHECK_MASK) == 0:
        if cb_flag_set(c.cancel_flag):
            c.stop = c.cancelled = True
        elif c.deadline > 0 and wall_seconds() > c.deadline:
            c.stop = c.timed_out = True
        elif c.watch_signals and (c.nodes & SIGNAL_MASK) == 0 and signal_pending():
            c.stop = c.interrupted = True
    return c.stop


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline uint64_t in_play(Ctx* c, State* s) noexcept nogil:
    """The cards still in play: in the hands and in the trick (kept in the
    state: a card played stays in play until its trick ends)."""
    return s.inplay


cdef inline uint64_t seat_cards(Ctx* c, State* s, int q) noexcept nogil:
    """Seat q's cards in play: in its hands and already in the trick."""
    cdef uint64_t mine = 0
    cdef int i
    if q >= 0 and c.seat_hand[q] >= 0:
        mine = s.hand[c.seat_hand[q]]
    else:
        for i in range(c.nholders):
            if c.holder_seat[i] == q:
                mine |= s.hand[i]
    for i in range(s.n):
        if c.holder_seat[s.tholder[i]] == q:
            mine |= bit(s.tcard[i])
    return mine


cdef inline void holder_planes(Ctx* c, State* s, int offset, uint64_t* p) noexcept nogil:
    """Each card's holder + `offset` in three bit planes: bit b of that number
    is set in p[b] (cards not in a hand: 0 in every plane)."""
    cdef int i, h
    p[0] = p[1] = p[2] = 0
    for i in range(c.nholders):
        h = i + offset
        if h & 1:
            p[0] |= s.hand[i]
        if h & 2:
            p[1] |= s.hand[i]
        if h & 4:
            p[2] |= s.hand[i]


cdef inline int mask_points(Ctx* c, uint64_t m) noexcept nogil:
    """The points of a set of cards, bit slice by bit slice (Cursed Bottle's
    1-3 points need two popcounts)."""
    cdef int r = cb_popcount(m & c.pbit[0]) + 2 * cb_popcount(m & c.pbit[1])
    if c.pbit_hi:
        r += 4 * cb_popcount(m & c.pbit[2]) + 8 * cb_popcount(m & c.pbit[3])
    return r


cdef inline int taking_card(uint64_t trick, int price) noexcept nogil:
    """The winner rule of RULES.md: the card that takes a trick of these cards
    is the highest below the price (which buys), else the highest."""
    cdef uint64_t low = trick & (bit(price) - 1)
    return cb_hibit(low if low else trick)


cdef inline int trick_holder(State* s, int card) noexcept nogil:
    """The holder who played `card` into the trick in progress."""
    cdef int i
    for i in range(s.n):
        if s.tcard[i] == card:
            return s.tholder[i]
    return -1


cdef inline void finish_trick(Ctx* c, State* s) noexcept nogil:
    """The trick goes to its `taking_card`'s seat: the cards' points, and on
    a buy the bottle (the old price card to the old owner)."""
    cdef int best = taking_card(s.tmask, s.price), won = mask_points(c, s.tmask)
    cdef int winner = c.holder_seat[trick_holder(s, best)]
    if best < s.price:
        won -= c.points[best]
        if s.price_card >= 0:
            if s.owner == c.root:
                s.taken += c.points[s.price_card]
            elif s.owner == c.partner:
                s.taken2 += c.points[s.price_card]
            if s.owner >= 0:
                s.tk[s.owner] += c.points[s.price_card]
        s.price_card = best
        s.price = best
        s.owner = winner
        if c.two and s.sprice > s.price:
            # Only the bottle with the higher price is for sale.
            s.price, s.sprice = s.sprice, s.price
            s.price_card, s.scard = s.scard, s.price_card
            s.owner, s.sowner = s.sowner, s.owner
    if winner == c.root:
        s.taken += won
    elif winner == c.partner:
        s.taken2 += won
    s.tk[winner] += won
    s.leader = winner
    s.n = 0
    s.inplay &= ~s.tmask
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


cdef inline uint64_t mover_legal(Ctx* c, State* s, int h) noexcept nogil:
    """The legal cards of the mover whose (first) holder is `h`."""
    if c.free:
        return legal_mask(c, s, h) | legal_mask(c, s, h + 1)
    return legal_mask(c, s, h)


cdef inline int card_holder(Ctx* c, State* s, int h, int card) noexcept nogil:
    """The holder `card` is played from (Devil's Eye: the hand that holds it)."""
    if c.free and not (s.hand[h] & bit(card)):
        return h + 1
    return h


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
    """The root side's score (the root seat's own, when it has no partner;
    the team score before Python doubles that of a seat alone)."""
    cdef int mine, theirs, v
    if c.two:
        # Each bottle costs its owner the pile; an owner's tricks count nothing.
        mine = (s.owner == c.root) + (s.sowner == c.root)
        theirs = (s.owner == c.partner) + (s.sowner == c.partner)
        v = -c.pile * mine if mine else s.taken
        return v + (-c.pile * theirs if theirs else s.taken2)
    return ending_score(c, s.owner, s.taken, s.taken2)


cdef inline int ending(Ctx* c, State* s, uint64_t below, uint64_t mine, bint owns,
                       bint one=True) noexcept nogil:
    """Whether a seat ends the hand owning the bottle (ENDS_OWNER), not owning
    it (ENDS_FREE), or either may still happen (ENDS_OPEN); `below`: the
    cards in play below the price (hands and trick), `mine`: the seat's.

    Every card in play is played before the hand ends, and the first trick
    to hold a card below the price sells the bottle to one who played such a
    card.  So while only one side holds such cards the ending is settled:
    the others' alone, and one of them buys (the price then only falls, and
    the seat, holding none, can never buy again): the seat ends free; the
    seat's alone, and it owns or will buy, with nobody left to buy from it:
    it ends the owner; none at all, and the owner stays the owner.  While
    both sides hold such cards, counting settles some: the seat outnumbered
    below its lowest ends free (`outnumbered`), the seat with more below all
    the others' than they hold ends the owner (`stuck`); one other hand
    holding more below the price than could all be bought over before the
    seat's last purchase leaves it free (`one_outnumbers`; `one` false: not
    asked, for the points search's move order).  (Without OPT_SETTLED only
    the last case and the seat's holding none, not owning.)
    """
    cdef uint64_t own_below = below & mine, other_below = below & ~mine
    if not (c.opts & OPT_SETTLED):
        if not owns and not own_below:
            return ENDS_FREE
        return ENDS_OWNER if owns and not other_below else ENDS_OPEN
    if own_below and other_below:
        if one and (c.opts & OPT_ONE_OUTNUMBERS) and c.nholders == c.nseats \
                and one_outnumbers(c, s, own_below, other_below):
            return ENDS_FREE
        if (c.opts & OPT_OUTNUMBER) and c.nholders == c.nseats and outnumbered(c, own_below, other_below):
            return ENDS_FREE
        if (c.opts & OPT_STUCK) and c.nholders == c.nseats and stuck(own_below, other_below):
            return ENDS_OWNER
        return ENDS_OPEN
    return ENDS_OWNER if (owns or own_below) and not other_below else ENDS_FREE


cdef inline bint outnumbered(Ctx* c, uint64_t own_below, uint64_t other_below) noexcept nogil:
    """Whether the others hold too many cards below the seat's lowest card
    below the price for all of them to be gone when the seat last buys (one
    hand a seat, k = the others' cards in a trick).

    Say the seat buys for the last time with y.  Then every buy before was
    dearer than y, so none of the others' cards L below the seat's lowest
    ever bought, and each of them was played in a trick someone else's
    card bought: one of the seat's (at most one trick per card of its
    below the price, k of L each) or one of the others' other cards below
    the price (each buys once, with at most k - 1 of L beside it).  If one
    of L is still in play after that last buy, someone else buys after it
    and the seat, never buying again, ends free; if the seat never buys
    again, the first trick to hold a card below the price does the same.
    """
    cdef uint64_t low = other_below & (bit(cb_ctz(own_below)) - 1)
    cdef int k = c.nholders - 1, nlow = cb_popcount(low)
    return nlow > k * cb_popcount(own_below) + (k - 1) * (cb_popcount(other_below) - nlow)


cdef inline bint one_outnumbers(Ctx* c, State* s, uint64_t own_below,
                                uint64_t other_below) noexcept nogil:
    """Whether one other hand holds more cards below the price than the
    seat's cards below it and the others' cards below it at or above the
    seat's lowest such card (NL) together (one hand a seat).

    Say the seat buys for the last time with y (at or above its lowest card
    below the price, so every card L of the others' below that one lies
    below y and below the price until then).  A card of L that buys puts
    the price below every card of the seat's: it never buys again.  So each
    card of L is played before the seat's last buy (one played after it is
    below the price then, and someone other than the seat buys in its
    trick) and in a trick some other card buys.  A hand h plays one card a
    trick, so its cards below the price (those of L among them) lie in
    tricks of their own, each bought by the seat's card or by another
    hand's card of NL: at most |R| + |NL| - |NL of h| tricks, each card
    buying once.  A hand with more cards of L than that, that is, with
    more cards below the price than |R| + |NL|, leaves the seat free.  (If
    the seat never buys again, the first trick holding a card of L sells
    the bottle to someone else.)  Summed over the hands this is
    `outnumbered`'s count, which it implies."""
    cdef uint64_t nl = other_below & ~(bit(cb_ctz(own_below)) - 1), cards
    cdef int cap = cb_popcount(own_below) + cb_popcount(nl), i, j
    if cb_popcount(other_below) <= cap:
        return False
    for i in range(c.nholders):
        cards = s.hand[i]
        for j in range(s.n):
            if s.tholder[j] == i:
                cards |= bit(s.tcard[j])
        if cb_popcount(cards & other_below) > cap:
            return True
    return False


cdef inline bint stuck(uint64_t own_below, uint64_t other_below) noexcept nogil:
    """Whether the seat holds more cards below all the others' cards below
    the price (its set R) than the others hold below the price (L): then it
    ends the owner (one hand a seat, so that it plays one card a trick: not
    the bright house or Devil's Eye).

    Once the seat buys with a card of R, no other card is ever below the
    price again (the others' all lie above R), and it ends the owner.  A
    card of R that does not buy was either above the price by then, which
    only the seat's own buy with a lower card of R does, or bought over in
    its trick by a card of L, one trick and one card of L each.  So ending
    free takes a card of L for every card of R."""
    return cb_popcount(own_below & (bit(cb_ctz(other_below)) - 1)) > cb_popcount(other_below)


cdef inline void score_bounds(Ctx* c, State* s, uint64_t inplay, int alpha, int beta,
                              int* lo, int* hi) noexcept nogil:
    """Bounds on the final score that need no search.

    The root seat ends either as the owner or not, and often that is
    already settled (`ending`).
    A non-owner ends with its points taken plus at most everything still in
    play (and the price card, which comes back to it if it owns and is bought
    from); an owner scores -(pile), or in the hot bottle -(pile + its tricks).
    """
    cdef int rest
    cdef bint owns = s.owner == c.root
    if c.partner >= 0 and not c.two:
        side_bounds(c, s, inplay, lo, hi)
        return
    if c.two:
        # Two bottles: only crude bounds (the search's own use of these
        # bounds is switched off; MTD(f) only needs them valid).
        rest = mask_points(c, inplay) + s.taken + s.taken2
        if s.price_card >= 0:
            rest += c.points[s.price_card]
        if c.two and s.scard >= 0:
            rest += c.points[s.scard]
        lo[0] = -(2 if c.two else 1) * c.pile - rest
        hi[0] = rest
        return
    one_seat_bounds(c, s, inplay, seat_cards(c, s, c.root), owns, s.taken, alpha, beta, lo, hi)


cdef inline int side_endings(Ctx* c, State* s, uint64_t below) noexcept nogil:
    """The endings a side of two can still reach (bits SIDE_FREE, SIDE_ROOT,
    SIDE_PARTNER; `below`: the cards in play below the price).

    While such cards are in play the last of them to buy makes the owner, so
    only a seat holding one (in a hand or in the trick) can end owning; with
    none left the owner stays."""
    cdef uint64_t rb = below & seat_cards(c, s, c.root), pb = below & seat_cards(c, s, c.partner)
    cdef int owner = s.owner
    if not below:
        return SIDE_ROOT if owner == c.root else (SIDE_PARTNER if owner == c.partner else SIDE_FREE)
    return ((SIDE_FREE if below & ~(rb | pb) else 0) | (SIDE_ROOT if rb else 0)
            | (SIDE_PARTNER if pb else 0))


cdef inline void side_bounds(Ctx* c, State* s, uint64_t inplay, int* lo, int* hi) noexcept nogil:
    """`score_bounds` for a side of two (team mode, one bottle, never hot).

    Each ending has its own range: the side free scores both members'
    points, more with every trick; a member as owner scores -pile and its
    partner's points.  The bounds are those of the endings still possible
    (`side_endings`), each with at most everything in play (and the price
    card, which comes back to a member owning it) still to win.
    """
    cdef int endings = side_endings(c, s, inplay & (bit(s.price) - 1))
    cdef int rest = mask_points(c, inplay), l = INF, u = -INF
    if (s.owner == c.root or s.owner == c.partner) and s.price_card >= 0:
        rest += c.points[s.price_card]
    if endings & SIDE_FREE:
        l = s.taken + s.taken2
        u = l + rest
    if endings & SIDE_ROOT:
        l = min(l, -c.pile + s.taken2)
        u = max(u, -c.pile + s.taken2 + rest)
    if endings & SIDE_PARTNER:
        l = min(l, -c.pile + s.taken)
        u = max(u, -c.pile + s.taken + rest)
    lo[0] = l
    hi[0] = u


cdef inline void one_seat_bounds(Ctx* c, State* s, uint64_t inplay, uint64_t mine, bint owns,
                                 int taken, int alpha, int beta, int* lo, int* hi) noexcept nogil:
    """`score_bounds` for one seat with cards `mine` in play and `taken` points."""
    cdef uint64_t below = inplay & (bit(s.price) - 1)
    cdef int rest, back = 0, l = INF, u = -INF
    cdef int ends = ending(c, s, below, mine, owns)
    rest = mask_points(c, inplay)
    if owns and s.price_card >= 0:
        # An owner that ends free was bought from: its price card came back.
        back = c.points[s.price_card]
        rest += back
    if ends != ENDS_OWNER:
        l = taken + back
        u = taken + rest
        if not (below & mine) and s.n == 0 and (c.opts & OPT_QUICK):
            quick_bounds(c, s, mine, cb_popcount(below), taken + back, rest - back, alpha, beta,
                         &l, &u)
    if ends != ENDS_FREE:
        if c.hot:
            if -c.pile - taken - rest < l:
                l = -c.pile - taken - rest
            if -c.pile - taken > u:
                u = -c.pile - taken
        else:
            if -c.pile < l:
                l = -c.pile
            if -c.pile > u:
                u = -c.pile
    lo[0] = l
    hi[0] = u


cdef inline int lowest_points(Ctx* c, uint64_t m, int k) noexcept nogil:
    """The sum of the k smallest card points among the cards of m (a count
    per number of points the deck has, lowest first)."""
    cdef int i, v, n, r = 0
    for i in range(c.npvals):
        if k <= 0:
            break
        v = c.pvals[i]
        n = cb_popcount(m & c.pmask[v])
        if n > k:
            n = k
        r += v * n
        k -= n
    return r


cdef inline int beaten_pairs(uint64_t mine, uint64_t theirs) noexcept nogil:
    """The most pairs of a card of `mine` above a card of `theirs`, each card
    in one pair at most.  (Matching low to high, each of mine with any lower
    one left, leaves unmatched the most by which the i lowest of mine ever
    outnumber the cards of `theirs` below the i-th.)"""
    cdef int i = 0, worst = 0, d, card
    while mine:
        card = cb_ctz(mine)
        mine &= mine - 1
        i += 1
        d = i - cb_popcount(theirs & (bit(card) - 1))
        if d > worst:
            worst = d
    return i - worst


cdef inline void quick_bounds(Ctx* c, State* s, uint64_t mine, int buyers, int taken,
                              int rest, int alpha, int beta, int* lo, int* hi) noexcept nogil:
    """Quick tricks for a seat that can no longer buy (it holds no card below
    the price), at the start of a trick (its cards are `mine`, all in one
    hand; `taken` the points it has for sure if it ends free, an owner's
    price card included; `rest` the other points in play).

    Every trick holds one card of each hand, and the seat wins one only with
    a card above the others in it (the highest card wins, or someone buys).
    So it loses at least as many tricks as one hand has cards above its
    highest, and with OPT_MATCH (`Ctx.match`) as many as it has cards
    beyond the most pairs of its card above that hand's (`beaten_pairs`),
    for every hand.
    Those tricks hold every hand's cards above its highest and at least the
    lowest-point cards of each hand besides: an upper bound.
    Each of the seat's cards above every other card wins its trick unless
    someone buys in it, which the `buyers` cards below the price (all the
    others') can do in as many tricks at most: the rest of those cards win,
    with at least the lowest-point cards of the others.  (Not for Devil's Eye, a side of two or two bottles.)
    A bound is worked out only while it can still cut the window (alpha,
    beta): the caller cuts as soon as one side does (the full window for
    the tightest bounds).
    """
    cdef int i, hq = -1, j, a, most = 0, won
    cdef uint64_t above, others = 0, winners
    if c.free or c.two or c.partner >= 0 or not mine or lo[0] >= beta or hi[0] <= alpha:
        return
    for i in range(c.nholders):
        if s.hand[i] & mine:
            if hq >= 0:
                return
            hq = i
    if s.hand[hq] != mine:
        return
    above = ~((bit(cb_hibit(mine)) << 1) - 1)
    for j in range(c.nholders):
        if j != hq:
            others |= s.hand[j]
            a = cb_popcount(s.hand[j] & above)
            if c.match:
                a = cb_popcount(mine) - beaten_pairs(mine, s.hand[j])
            if a > most:
                most = a
    if most > 0:
        won = rest - lowest_points(c, mine, most)
        for j in range(c.nholders):
            if j != hq:
                a = cb_popcount(s.hand[j] & above)
                won -= mask_points(c, s.hand[j] & above) + lowest_points(c, s.hand[j] & ~above, most - a)
        if taken + won < hi[0]:
            hi[0] = taken + won
            if hi[0] <= alpha:
                return
    if others:
        winners = mine & ~((bit(cb_hibit(others)) << 1) - 1)
        a = cb_popcount(winners) - buyers
        if a > 0:
            won = lowest_points(c, winners, a)
            for j in range(c.nholders):
                if j != hq:
                    won += lowest_points(c, s.hand[j], a)
            if taken + won > lo[0]:
                lo[0] = taken + won


cdef inline bint same_as_next(Ctx* c, State* s, int h, uint64_t legal, uint64_t inplay,
                              int card, bint same_points, bint runs, uint64_t dead) noexcept nogil:
    """Whether `card` plays like the next higher card in play: also legal, same
    suit (and points, where points count), both at or above the price, and
    both in one hand (Devil's Eye: a hand's later duty to follow suit tells
    its cards from the other hand's).  With `runs`, the next higher card of
    its suit in its hand, when only cards of that hand lie between them.
    Two `dead` cards (`dead_cards`) need no equal points."""
    cdef uint64_t above, own
    cdef int nxt
    if card < s.price:
        return False
    if c.free:
        legal = legal_mask(c, s, card_holder(c, s, h, card))
    above = inplay & ~((bit(card) << 1) - 1)
    if not above:
        return False
    nxt = cb_ctz(above)
    if runs and not c.free:
        own = s.hand[h]
        while c.suit[nxt] != c.suit[card] and (own >> nxt) & 1:
            above &= above - 1
            if not above:
                return False
            nxt = cb_ctz(above)
    return ((legal >> nxt) & 1) and c.suit[nxt] == c.suit[card] and (
        not same_points or c.points[nxt] == c.points[card]
        or ((dead >> card) & 1 and (dead >> nxt) & 1))


cdef inline uint64_t representatives(Ctx* c, State* s, int h, uint64_t legal,
                                     uint64_t inplay, bint same_points,
                                     bint runs=False, uint64_t dead=0,
                                     uint64_t losers=0) noexcept nogil:
    """One card per group of equivalent cards (the highest of each group).

    Two cards of one holder are interchangeable when they are of one suit and
    of equal points (where points count: the bottle question alone ignores
    them), no card still in play lies between them in the order, and both are
    at or above the price: such cards can never buy the bottle (the price
    only falls), so no rule and no policy can tell them apart.  Cards below
    the price are not merged: the one that buys becomes the price, and the
    other then lies below it (a card that will rebuy) or above it (one that
    cannot), which plays differently.

    With `runs` (OPT_RUNS) cards of the holder's own may lie between the two:
    a holder plays one card a trick, so the rules never compare its cards
    with each other, and swapping the two names changes nothing any rule or
    Lopaka's policy looks at.  Only a scalar value is that blind: max-n's
    tie-break (the lowest card in the deck's order) compares a holder's own
    cards, and there the swap can change which vector a tie picks.
    """
    cdef uint64_t m = legal, out = 0
    cdef int card
    while m:
        card = cb_hibit(m)
        m &= ~bit(card)
        if (losers >> card) & 1:
            # (Any higher one of its hand, suit and points: `loser_cards`.)
            if not (losers & legal & c.suit_mask[c.suit[card]] & ~low_bits(card + 1)
                    & s.hand[card_holder(c, s, h, card)]
                    & (c.pmask[c.points[card]] if same_points else ~(<uint64_t>0))):
                out |= bit(card)
        elif not same_as_next(c, s, h, legal, inplay, card, same_points, runs, dead):
            out |= bit(card)
    return out


cdef inline uint64_t dead_cards(Ctx* c, State* s, uint64_t inplay, uint64_t mine) noexcept nogil:
    """The cards in play whose points can never reach the tricks of the side
    whose cards in play are `mine` (OPT_DEAD; one bottle; the root seat and
    its partner, in team mode): while it holds no card
    below the price it never buys (the price only falls), so it takes a trick
    only with the highest card in it and none below the price; every card
    above its highest (the one in the trick included) and the lowest card
    below the price (which stays below it until played) are then in tricks
    it never takes.  Positions that differ only in those cards' points have
    one value, and such cards of one hand play alike."""
    cdef uint64_t below, dead
    if not (c.opts & OPT_DEAD) or c.two:
        return 0
    below = inplay & (bit(s.price) - 1)
    if not mine or (below & mine):
        return 0
    dead = inplay & ~low_bits(cb_hibit(mine) + 1)
    return dead | (below & (~below + 1))


cdef inline uint64_t held(State* s, int h) noexcept nogil:
    """Holder `h`'s cards in play: its hand and its card in the trick."""
    cdef uint64_t cards = s.hand[h]
    cdef int i
    for i in range(s.n):
        if s.tholder[i] == h:
            cards |= bit(s.tcard[i])
    return cards


cdef inline uint64_t loser_cards(Ctx* c, State* s, uint64_t inplay) noexcept nogil:
    """The cards in play that can never win a trick (OPT_LOSERS; one bottle).

    A card at or above the price never buys (the price only falls).  Every
    holder plays a card to every trick (Devil's Eye: every seat two, from
    either hand, so there G is a seat's two hands); when each card of
    holder G either lies above such a card or is the lowest card below the
    price (which stays below it until played, and buys the trick it is
    played to), that card never takes a trick.  (Another card below the
    price may rise above it, once a trick is bought below that card.)  So, for the holder G whose lowest card (but
    that one) is highest, every card from the price up to G's lowest is a
    loser, whoever holds it.  Of a loser only its holder, suit and points
    count: where it lies among the others changes nothing.

    Lopaka's policy compares his cards with the one winning the trick so
    far, which may be a loser: the losers end below his lowest card at or
    above the price, so that each of his cards beats every one of them,
    wherever it lies."""
    cdef uint64_t below, above, cards, lop
    cdef int h, top = -1
    if not (c.opts & OPT_LOSERS) or c.two:
        return 0
    below = inplay & (bit(s.price) - 1)
    above = inplay & ~below
    # (The lowest card below the price apart.)
    below &= below - 1
    for h in range(c.nholders):
        # (Devil's Eye: a seat plays its two cards a trick from either hand.)
        if c.free:
            cards = seat_cards(c, s, c.holder_seat[h])
        else:
            cards = held(s, h) if s.n else s.hand[h]
        if not (cards & below) and (cards & above) and cb_ctz(cards & above) > top:
            top = cb_ctz(cards & above)
    if top < 0:
        return 0
    if c.lopaka >= 0:
        lop = (held(s, c.lopaka) if s.n else s.hand[c.lopaka]) & above
        if lop and cb_ctz(lop) < top:
            top = cb_ctz(lop)
    return above & (bit(top) - 1)


cdef inline void mark_trick(Ctx* c, State* s) noexcept nogil:
    """Work out the trick's dead cards and losers, at its start: the cards in
    play, the price and every hand's cards (those in the trick included)
    stay as they are until it ends, and so do they.  Kept by the count of
    cards in play, which the trick does not change either."""
    cdef uint64_t mine
    cdef int count = cb_popcount(s.inplay)
    if not (c.opts & (OPT_DEAD | OPT_LOSERS)):
        c.dead_at[count] = c.losers_at[count] = 0
        return
    mine = seat_cards(c, s, c.root)
    if c.partner >= 0:
        mine |= seat_cards(c, s, c.partner)
    c.dead_at[count] = dead_cards(c, s, s.inplay, mine)
    c.losers_at[count] = loser_cards(c, s, s.inplay)


cdef inline uint64_t misc_word(Ctx* c, int below, int leader, int owns, int taken, int taken2,
                               int ppts, int count, bint exact) noexcept nogil:
    """The fifth key word: cards below the price (7 bits), leader (3), whether
    the root seat (1) or its partner (2) owns (2 bits), the root seat's points
    taken or a marker (10), the partner's (10), the price card's points (4),
    cards in play (7), whether the four other words are the exact cards rather
    than the pattern (1), and the solve's number (20)."""
    return (<uint64_t>below | (<uint64_t>leader << 7) | (<uint64_t>owns << 10)
            | (<uint64_t>taken << 12) | (<uint64_t>taken2 << 22) | (<uint64_t>ppts << 32)
            | (<uint64_t>count << 36) | (<uint64_t>exact << 43) | (c.gen << GEN_SHIFT))


cdef inline bint tt_key(Ctx* c, State* s, uint64_t inplay, uint64_t* k,
                        uint64_t* ok, int* ends, int* rtaken, int* rmax) noexcept nogil:
    """What the rest of the hand depends on, at the start of a trick; returns
    whether the values stored are relative (`relative_lower`, with `rtaken`
    and `rmax` for its `taken` and `owner_max`), else they are the scores;
    `ends`: the root seat's `ending` (ENDS_OPEN for a side of two or two
    bottles).

    Of the owner only whether it is the root seat (or in team mode its
    partner) matters: any other owner, or none, leaves the side scoring its
    tricks, and a price card bought from another seat goes to that seat.  The price is its place among the
    cards in play (the count of cards in play below it): the rules compare it
    with nothing else, and once no card in play is below it, it no longer
    matters at all.

    Of the points taken only the root seat's own count matters, and not even
    that: every ending without the bottle scores taken + what the seat still
    wins, and beats every ending with it, which scores -pile (in the hot
    bottle -(pile + taken + what it still wins)).  So the order of the
    endings, and with it the play, does not depend on the points taken, and
    the table stores values relative to them (`relative_lower`): every count
    of points taken meets there.  (A side of two keeps both members' counts,
    and the second bottle its own word of the exact key: this reasons about
    one seat and one bottle.  Without OPT_RELATIVE the count is in the key
    while both endings are open.)  A side of two whose ending is settled
    (`side_endings`) scores a fixed part of the points taken and what it
    still wins: the values are then stored less that part.

    An owner whose ending is settled free (`price-back`) is keyed as a seat
    that does not own, its values relative to its points taken and its
    price card's points together.  Proof: the owner changes nothing in the
    play (who takes a trick, and who buys, depend on the cards and the
    price alone; so does Lopaka's policy) but where the price card goes at
    the next buy: to the owner, whoever buys.  Take any way the hand is
    played out from here, and the same way from the same cards and price
    with another owner or none.  The seat ends free in every such way
    (settled), so it does not own at the end: someone buys in that way, and
    at the first buy the seat, as owner, gets its price card's points and
    the other owner its own; from then on the two states are one.  So each
    way scores the owning seat exactly the price card's points more, and
    so does the paranoid value, which is the minimax over those ways: the
    value less the points taken and the price card's is that of a seat
    that does not own, with the same cards in play and price.  (Not in a
    side of two, nor with two bottles, whose keys keep the owner; an open
    ending keeps it too: there the seat may stay the owner.)

    `ok` is the key of the bottle question alone (as `owner_key` makes it),
    filled only where the search reads it: the ending open, OPT_OWNER.
    """
    cdef uint64_t p[3]
    cdef uint64_t mine = seat_cards(c, s, c.root), below = inplay & (bit(s.price) - 1)
    cdef int taken = s.taken, count = cb_popcount(inplay), nbelow
    cdef bint owns = s.owner == c.root, kexact, oexact, relative = False
    cdef int side_owns = 1 if owns else (2 if s.owner == c.partner and s.owner >= 0 else 0)
    cdef int taken2 = s.taken2, endings
    holder_planes(c, s, 0, p)
    ends[0] = ENDS_OPEN
    rtaken[0] = s.taken
    rmax[0] = -c.pile - (s.taken if c.hot else 0)
    if c.partner >= 0 and not c.two:
        # Values less a part of the points taken that every ending adds.
        endings = side_endings(c, s, below)
        if (c.opts & OPT_SETTLED) and not (endings & (endings - 1)):
            relative = True
            taken, taken2 = TAKEN_NONOWNER, endings
            rtaken[0] = (s.taken + s.taken2 if endings == SIDE_FREE
                         else -c.pile + (s.taken2 if endings == SIDE_ROOT else s.taken))
        elif (c.opts & OPT_RELATIVE) and not (endings & SIDE_ROOT):
            # The root seat cannot end owning: every ending counts its points.
            relative = True
            taken, taken2 = TAKEN_STUCK, s.taken2
            rtaken[0] = s.taken
        elif (c.opts & OPT_RELATIVE) and not (endings & SIDE_PARTNER):
            relative = True
            taken, taken2 = TAKEN_RELATIVE, s.taken
            rtaken[0] = s.taken2
        # (An offset: relative_lower with owner_max just below it.)
        rmax[0] = rtaken[0] - 1
    elif not (c.partner >= 0 or c.two):
        # (A side of two, two bottles: the values stay the scores.)
        ends[0] = ending(c, s, below, mine, owns)
        if (c.opts & OPT_PRICE_BACK) and ends[0] == ENDS_FREE and owns and s.price_card >= 0:
            # An owner settled free: the next buy, whoever makes it, brings
            # its price card back, and from there on its play and score are
            # those of a seat that does not own (`price-back`).
            side_owns = 0
            rtaken[0] = s.taken + c.points[s.price_card]
        if c.opts & OPT_RELATIVE:
            relative = True
            taken = TAKEN_RELATIVE
        elif ends[0] != ENDS_OPEN:
            relative = True
            taken = TAKEN_NONOWNER if ends[0] == ENDS_FREE else TAKEN_STUCK
    nbelow = cb_popcount(below)
    kexact = not (c.opts & OPT_CANON) or count > c.kcap or c.two
    # oexact implies kexact: the bottle question's pattern holds more cards.
    oexact = not (c.opts & OPT_CANON) or count > c.ocap
    k[4] = misc_word(c, nbelow, s.leader, side_owns, taken, taken2,
                     c.points[s.price_card] if side_owns and s.price_card >= 0 else 0,
                     count, kexact)
    if c.two:
        second_bottle_words(c, s, inplay, k)
    elif kexact:
        exact_words(inplay, p, k)
    if ends[0] == ENDS_OPEN and (c.opts & OPT_OWNER):
        # (The search reads `ok` only then: the root seat's ending open.)
        # Whether the bottle can be avoided depends on no points at all.
        ok[4] = misc_word(c, nbelow, s.leader, owns, TAKEN_AVOID, 0, 0, count, oexact)
        if oexact:
            exact_words(inplay, p, ok)
        else:
            pattern(c, s, inplay, p, run_floor(c, s), False, ok, 0, c.losers_at[count])
    if not kexact:
        pattern(c, s, inplay, p, run_floor(c, s), True, k, c.dead_at[count],
                c.losers_at[count])
    return relative


cdef inline int relative_lower(int v, int taken, int owner_max) noexcept nogil:
    """A lower bound v on the score as a bound on the value relative to the
    points taken: an ending without the bottle is worth what the seat still
    wins (0 and up), one with it -1 less what it still wins (hot) or -1.
    The scores between owner_max and taken belong to no ending, so a bound
    there says which of the two the value lies in."""
    if v > taken:
        return v - taken
    if v > owner_max:
        return 0
    return v - owner_max - 1


cdef inline int relative_upper(int v, int taken, int owner_max) noexcept nogil:
    """An upper bound v on the score, relative (see relative_lower)."""
    if v >= taken:
        return v - taken
    if v >= owner_max:
        return -1
    return v - owner_max - 1


cdef inline int relative_score(int r, int taken, int owner_max) noexcept nogil:
    """The score of a relative value (the inverse of relative_lower)."""
    return taken + r if r >= 0 else owner_max + 1 + r


cdef inline void second_bottle_words(Ctx* c, State* s, uint64_t inplay, uint64_t* k) noexcept nogil:
    """The exact key with the second bottle: each card's holder + 1 in three
    bit planes (so the cards in play need no word of their own), and in the
    word that frees, the bottle not for sale: its price's place among the
    cards in play (7 bits), whether the root seat (1) or its partner (2)
    owns it (2), and then its price card's points (4), which come back to
    that owner when it is bought."""
    cdef int sown = 0
    holder_planes(c, s, 1, &k[1])
    if s.sowner == c.root:
        sown = 1
    elif s.sowner == c.partner:
        sown = 2
    k[0] = (<uint64_t>cb_popcount(inplay & (bit(s.sprice) - 1)) | (<uint64_t>sown << 7)
            | (<uint64_t>(c.points[s.scard] if sown and s.scard >= 0 else 0) << 9))


cdef inline void exact_words(uint64_t inplay, uint64_t* p, uint64_t* k) noexcept nogil:
    """The cards in play themselves and each one's holder (3 bit planes)."""
    k[0] = inplay
    k[1] = p[0]
    k[2] = p[1]
    k[3] = p[2]


cdef inline int run_floor(Ctx* c, State* s) noexcept nogil:
    """Where the paranoid keys' runs begin (`pattern`): the price with OPT_RUNS
    (not in Devil's Eye, whose seats play from two hands), else nowhere."""
    return s.price if (c.opts & OPT_RUNS) and not c.free else MAXC


cdef inline uint64_t low_bits(int n) noexcept nogil:
    """The n lowest bits (0 <= n <= 64)."""
    return ~(<uint64_t>0) if n >= 64 else bit(n) - 1


cdef inline void sort_runs(uint64_t* planes, int n, uint64_t pairs) noexcept nogil:
    """Sort the fields of bit planes within runs, all runs at once: bit i of
    `pairs` says fields i and i + 1 are in one run; a field is the bits of
    planes[1], planes[0], planes[n - 1], ..., planes[2], most significant
    first (suit, then points).  Every pair is compared side by side; the
    pairs out of order that start at an even field (else those at an odd
    one: they never share a field) are swapped; until none is (a run is
    mostly sorted already: one comparison)."""
    cdef uint64_t gt, eq, x, y, d
    cdef int q
    while True:
        gt = 0
        eq = pairs
        for q in range(n):
            x = planes[1 - q] if q < 2 else planes[n + 1 - q]
            y = x >> 1
            gt |= eq & x & ~y
            eq &= ~(x ^ y)
        if not gt:
            return
        if gt & <uint64_t>0x5555555555555555:
            gt &= <uint64_t>0x5555555555555555
        else:
            gt &= <uint64_t>0xAAAAAAAAAAAAAAAA
        for q in range(n):
            d = (planes[q] ^ (planes[q] >> 1)) & gt
            planes[q] ^= d | (d << 1)


cdef inline void write_band(Ctx* c, State* s, uint64_t* planes, int hb, int pb, uint64_t band,
                            uint64_t dead, int at) noexcept nogil:
    """The losers `band` (cards next to each other in play, from field `at`
    on) written in one order of their own, by holder, suit and points (a
    dead card's: 0), counted class by class from the masks rather than
    sorted field by field: a band is as long as a dozen cards at five or six
    players, and holders lie in it in no order.  Each plane's bits are
    written a span at a time: a holder's for all its cards, a suit's for
    the holder's cards of that suit, a points bit's for one class."""
    cdef int h, su, i, q, v
    cdef uint64_t others = 0, hm, m, mm, span
    for q in range(hb + 2 + pb):
        planes[q] &= ~(low_bits(cb_popcount(band)) << at)
    for h in range(1, c.nholders):
        others |= s.hand[h]
    for h in range(c.nholders):
        # (A card in no hand counts as holder 0, as in holder_planes.)
        hm = band & (s.hand[h] if h else ~others)
        if not hm:
            continue
        span = low_bits(cb_popcount(hm)) << at
        for q in range(hb):
            if (h >> q) & 1:
                planes[q] |= span
        for su in range(3):
            m = hm & c.suit_mask[su]
            if not m:
                continue
            span = low_bits(cb_popcount(m)) << at
            if su:
                planes[hb + su - 1] |= span
            if pb == 0:
                at += cb_popcount(m)
                continue
            # (The dead cards first: their points count 0.)
            mm = m & dead
            at += cb_popcount(mm)
            m &= ~mm
            i = 0
            while m:
                if not (m & (m - 1)):
                    # (One card left: the last class.)
                    mm = m
                    v = c.points[cb_ctz(m)]
                else:
                    while not (m & c.pmask[c.pvals[i]]):
                        i += 1
                    mm = m & c.pmask[c.pvals[i]]
                    v = c.pvals[i]
                span = low_bits(cb_popcount(mm)) << at
                q = hb + 2
                while v:
                    if v & 1:
                        planes[q] |= span
                    v >>= 1
                    q += 1
                at += cb_popcount(mm)
                m &= ~mm


cdef inline void pattern(Ctx* c, State* s, uint64_t inplay, uint64_t* p, int floor,
                         bint points, uint64_t* k, uint64_t dead=0,
                         uint64_t losers=0) noexcept nogil:
    """The cards in play as a pattern: in the total order, each card's holder,
    suit and (`points`) points, and nothing of which card it is.

    The rules only ever compare cards by their place in the order, their suit
    and their points, so two positions whose cards in play show one pattern
    (and whose price lies at the same place in it: the key's count of cards
    below the price) play identically, whichever cards have gone.  The
    bottle question's key leaves the points out, and every key those of the
    `dead` cards (`dead_cards`).  The `losers` (`loser_cards`), which lie
    next to each other (from the price up), are written sorted by holder,
    suit and points (`write_band`).

    Written as bit planes: plane by plane (holder bits, suit bits, points
    bits), the bits of the cards in play gathered to the low end (the i-th
    card in play at bit i: `cb_gather`), the planes laid end to end `count`
    bits apart in k[0..3].  The caller makes sure they fit (c.kcap, c.ocap
    cards).

    A run, the cards next to each other in the order that one holder holds,
    all at or above `floor` (the price, or MAXC: none), is written in one
    order of its own (by suit, then points): as with `representatives`'
    runs, the rules never compare a holder's cards with each other, so which
    of them lies where within the run changes no scalar value.  (Cards below
    the price do compare with each other, through the price a buy sets, and
    so do Lopaka's, through his policy: his are never a run.)
    """
    cdef uint64_t planes[3 + 2 + 4]
    cdef uint64_t g[7]
    cdef uint64_t run, h2
    cdef int hb = c.hbits, pb = c.pbits if points else 0
    cdef int n = cb_popcount(inplay)
    cdef int i, at, off
    cb_gather_init(g, inplay)
    planes[0] = cb_gather(g, p[0])
    planes[1] = cb_gather(g, p[1])
    # (With two holder bits planes[2] becomes the first suit plane just
    # below: h2 keeps the third holder bit, or none, for the runs.)
    h2 = cb_gather(g, p[2]) if hb > 2 else 0
    planes[2] = h2
    planes[hb] = cb_gather(g, c.suit_mask[1])
    planes[hb + 1] = cb_gather(g, c.suit_mask[2])
    for i in range(pb):
        planes[hb + 2 + i] = cb_gather(g, c.pbit[i] & ~dead)
    if floor < MAXC:
        # Bit i: card i continues a run that card i - 1 is in (both at or
        # above the floor, one holder, not Lopaka).
        run = ~low_bits(cb_popcount(inplay & (bit(floor) - 1))) & low_bits(n)
        run &= (run << 1) & ~((planes[0] ^ (planes[0] << 1)) | (planes[1] ^ (planes[1] << 1))
                              | (h2 ^ (h2 << 1)))
        if c.lopaka >= 0:
            run &= ~cb_gather(g, s.hand[c.lopaka])
        sort_runs(planes + hb, 2 + pb, run >> 1)
    if losers & (losers - 1):
        write_band(c, s, planes, hb, pb, losers, dead, cb_popcount(inplay & (losers - 1) & ~losers))
    k[0] = k[1] = k[2] = k[3] = 0
    at = 0
    for i in range(hb + 2 + pb):
        off = at & 63
        k[at >> 6] |= planes[i] << off
        if off + n > 64:
            k[(at >> 6) + 1] |= planes[i] >> (64 - off)
        at += n


cdef inline void mark_owner(Ctx* c, uint64_t* okey, int verdict) noexcept nogil:
    """Record whether the root seat can avoid ending as the owner (+1) or not
    (-1); nothing once the search is stopping (`Ctx.stop`)."""
    cdef Entry* b = tt_bucket(c, okey)
    cdef Entry* e
    cdef Entry local
    cdef int slot = 1
    cdef bint new
    if c.stop or c.over:
        return
    if c.shared:
        if shared_find(b, okey, &local, &slot) == NULL:
            claim(&local, okey)
            local.depth = 0
            local.best = -1
        local.lower = 1 if verdict > 0 else 0
        local.upper = -1 if verdict < 0 else 0
        shared_put(b, slot, &local)
        return
    e = bucket_entry(b, okey)
    new = e == NULL
    if new:
        e = &b[1]
        claim(e, okey)
        e.depth = 0
        e.best = -1
    e.lower = 1 if verdict > 0 else 0
    e.upper = -1 if verdict < 0 else 0
    if new:
        claimed(c)  # (last: the table may move)


cdef inline int nth_card(uint64_t m, int n) noexcept nogil:
    """The n-th card (from 0, lowest first) of a mask: hash moves are kept as
    places among the cards in play, so that they survive the pattern key."""
    while n > 0:
        m &= m - 1
        n -= 1
    return cb_ctz(m) if m else -1


cdef inline uint64_t key_hash(uint64_t* k, int words) noexcept nogil:
    """The hash of a table key of 5 words (the paranoid table) or 6 (max-n's)."""
    cdef uint64_t x = k[0] * <uint64_t>0x9E3779B97F4A7C15
    x ^= k[1] * <uint64_t>0xC2B2AE3D27D4EB4F
    x ^= k[2] * <uint64_t>0x165667B19E3779F9
    x ^= k[3] * <uint64_t>0x27D4EB2F165667C5
    x ^= k[4] * <uint64_t>0x94D049BB133111EB
    if words > 5:
        x ^= k[5] * <uint64_t>0xBF58476D1CE4E5B9
    x ^= x >> 31
    x *= <uint64_t>0xD6E8FEB86659FD93
    x ^= x >> 32
    return x


cdef inline bint same_words(uint64_t* a, uint64_t* b, int words) noexcept nogil:
    cdef int i
    for i in range(words):
        if a[i] != b[i]:
            return False
    return True


cdef inline uint64_t seal(Entry* e) noexcept nogil:
    """What a shared table's entry stores its k[0] XORed with: a hash of the
    key's other words and of the bounds.  Threads write an entry without a
    lock, so a reader may see words of two writers; it takes an entry only if
    k[0] unsealed is its key's (`shared_find`), which ties the bounds it reads
    to the whole key they were stored under (a torn entry passes with odds of
    2^-64, as in chess programs' lockless tables)."""
    cdef uint64_t w[5]
    w[0] = (<uint64_t><uint16_t>e.lower | (<uint64_t><uint16_t>e.upper << 16)
            | (<uint64_t><uint8_t>e.best << 32) | (<uint64_t>e.depth << 40))
    w[1], w[2], w[3], w[4] = e.k[1], e.k[2], e.k[3], e.k[4]
    return key_hash(w, 5)


cdef inline Entry* shared_find(Entry* b, uint64_t* k, Entry* copy, int* slot) noexcept nogil:
    """The entry of key `k` in bucket `b` of a shared table, copied whole
    into `copy` and checked (`seal`), and its place in the bucket; or NULL."""
    cdef int i
    for i in range(2):
        cb_snapshot(copy, &b[i], sizeof(Entry) // 8)
        if same_words(&copy.k[1], &k[1], 4) and copy.k[0] ^ seal(copy) == k[0]:
            copy.k[0] = k[0]
            slot[0] = i
            return copy
    return NULL


cdef inline Entry* tt_find(Ctx* c, uint64_t* k, Entry* copy) noexcept nogil:
    """The entry of key `k`, or NULL: in the table itself, or in a shared
    table a checked copy of it (in `copy`), to read only."""
    cdef int slot
    if c.shared:
        return shared_find(tt_bucket(c, k), k, copy, &slot)
    return bucket_entry(tt_bucket(c, k), k)


cdef inline void shared_put(Entry* b, int slot, Entry* e) noexcept nogil:
    """Write entry `e` (its key plain) sealed into place `slot` of bucket `b`."""
    e.k[0] ^= seal(e)
    b[slot] = e[0]


cdef inline Entry* tt_bucket(Ctx* c, uint64_t* k) noexcept nogil:
    """Two entries per bucket: [0] keeps the deeper position, [1] the latest."""
    return &c.tt[(key_hash(k, 5) & c.tt_mask) & ~(<uint64_t>1)]


cdef inline Entry* bucket_entry(Entry* b, uint64_t* k) noexcept nogil:
    """The entry of the bucket that holds key `k`, or NULL."""
    if same_words(b[0].k, k, 5):
        return &b[0]
    if same_words(b[1].k, k, 5):
        return &b[1]
    return NULL


cdef inline void claim(Entry* e, uint64_t* k) noexcept nogil:
    """Give entry `e` to key `k` (the caller sets its bounds)."""
    cdef int i
    for i in range(5):
        e.k[i] = k[i]


cdef inline void tt_store(Ctx* c, uint64_t* key, int depth, int lower, int upper,
                          int best_card) noexcept nogil:
    """Narrow the entry of `key` to [lower, upper] (-INF, INF: no bound);
    nothing once the search is stopping: every search then returns 0 at
    once, so the bounds its callers find are void, and the table outlives
    the solve (a later solve of the same context would take them)."""
    cdef Entry* b
    cdef Entry local
    cdef int slot = 0
    cdef Entry* e
    cdef bint new
    if c.stop:
        return
    b = tt_bucket(c, key)
    e = shared_find(b, key, &local, &slot) if c.shared else bucket_entry(b, key)
    new = e == NULL
    if new:
        if depth >= b[0].depth or ((b[0].k[4] >> GEN_SHIFT) & GEN_MASK) != c.gen:
            b[1] = b[0]
            e = &b[0]
            slot = 0
        else:
            e = &b[1]
            slot = 1
        if c.shared:
            # (b[0] and its key may be another thread's, half written: they
            # choose the place, and nothing of them is kept.)
            e = &local
        claim(e, key)
        e.lower = -32768
        e.upper = 32767
        e.depth = depth
    # The clamps to int16 only ever widen a bound (no real score comes near them).
    if lower > -INF and lower > e.lower:
        e.lower = lower if lower < 32767 else 32767
    if upper < INF and upper < e.upper:
        e.upper = upper if upper > -32768 else -32768
    e.best = best_card
    if c.shared:
        shared_put(b, slot, e)
    elif new:
        claimed(c)  # (last: the table may move)


cdef inline bint last_trick(Ctx* c, State* s) noexcept nogil:
    """Whether only the trick in progress is left: every holder's play is forced
    (Devil's Eye: every seat's, whose two hands hold at most one card)."""
    cdef int i
    cdef uint64_t m
    for i in range(c.nholders):
        m = s.hand[i]
        if c.free:
            if i & 1:
                continue
            m |= s.hand[i + 1]
        if m & (m - 1):
            return False
    return True


cdef inline void play_out(Ctx* c, State* s) noexcept nogil:
    """Play the last trick to its end (`last_trick`: every card is forced)."""
    cdef int h
    while True:
        h = c.order[s.leader][s.n]
        if c.free and not s.hand[h]:
            h += 1
        play(c, s, h, cb_ctz(s.hand[h]))
        if s.n == 0:
            break


cdef inline void end_trick_with(Ctx* c, State* t, int h, int card) noexcept nogil:
    """Holder h plays `card` and the trick ends there (the move orderings' look-ahead)."""
    t.hand[h] &= ~bit(card)
    t.tmask |= bit(card)
    t.tcard[t.n] = card
    t.tholder[t.n] = h
    t.n += 1
    finish_trick(c, t)


cdef struct TrickSoFar:
    #: The trick in progress as `static_eval` needs it for every card a mover
    #: might add: its points, and its best card below the price and overall
    #: (-1: none), with the seats that played them.
    int points
    int low
    int low_seat
    int high
    int high_seat


cdef inline void trick_low(Ctx* c, State* s, TrickSoFar* t) noexcept nogil:
    """`t`'s best card below the price and its seat (all `owner_eval` needs)."""
    cdef uint64_t low = s.tmask & (bit(s.price) - 1)
    t.low = cb_hibit(low) if low else -1
    t.low_seat = c.holder_seat[trick_holder(s, t.low)] if low else -1


cdef inline void trick_so_far(Ctx* c, State* s, TrickSoFar* t) noexcept nogil:
    """`t` for the trick in progress."""
    trick_low(c, s, t)
    t.points = mask_points(c, s.tmask)
    t.high = cb_hibit(s.tmask) if s.tmask else -1
    t.high_seat = c.holder_seat[trick_holder(s, t.high)] if s.tmask else -1


cdef inline int static_eval(Ctx* c, State* s, TrickSoFar* t, int h, int card,
                            int left) noexcept nogil:
    """Move ordering: the root side's score if the trick ended with this card
    and the hand ended with the trick, then the points left in play (`left`:
    those in the hands, before this card).  (finish_trick's scoring, on
    three numbers rather than a copy of the state, from the trick so far
    worked out once for all the mover's cards; two bottles: on a copy.)"""
    cdef State u
    cdef int best, won = t.points + c.points[card], winner, owner = s.owner
    cdef int taken = s.taken, taken2 = s.taken2
    if c.two:
        u = s[0]
        end_trick_with(c, &u, h, card)
        return 4 * final_score(c, &u) + mask_points(c, in_play(c, &u))
    if card < s.price and card > t.low:
        best = card
    elif t.low >= 0:
        best = t.low
    else:
        best = card if card > t.high else t.high
    winner = c.holder_seat[h] if best == card else (
        t.low_seat if best == t.low else t.high_seat)
    if best < s.price:
        won -= c.points[best]
        if s.price_card >= 0:
            if s.owner == c.root:
                taken += c.points[s.price_card]
            elif s.owner == c.partner:
                taken2 += c.points[s.price_card]
        owner = winner
    if winner == c.root:
        taken += won
    elif winner == c.partner:
        taken2 += won
    return 4 * ending_score(c, owner, taken, taken2) + left - c.points[card]


cdef inline int ending_score(Ctx* c, int owner, int taken, int taken2) noexcept nogil:
    """`final_score` of one bottle, from its owner and the side's points taken."""
    if owner == c.root:
        return -c.pile - (taken if c.hot else 0) + taken2
    if owner == c.partner:
        return taken - c.pile - (taken2 if c.hot else 0)
    return taken + taken2


cdef inline int owner_eval(Ctx* c, State* s, TrickSoFar* t, int h, int card,
                           uint64_t root_hands, bint maximise) noexcept nogil:
    """Move ordering for `avoid`, from the root seat's side: by how few cards
    below the price the root seat would still hold were the trick to end now
    (`root_hands`: its cards in the hands, before this one is played; `t`:
    the trick so far), then (without OPT_PRICE_TIES, whose order of the ties
    does better) the cards whose trick leaves it rid of the bottle.

    With OPT_PRICE_TIES the others' cards (`maximise` false) all score 0 and
    go by the price alone: keeping the price high over the root seat's cards
    sent them first into tricks that let it out, proved so only by answering
    every card of theirs for the rest of the hand (measured: solver/README.md,
    issue 17, twenty-eighth part)."""
    cdef int owner = s.owner, price = s.price
    if not maximise and (c.opts & OPT_PRICE_TIES):
        return 0
    if card < s.price and card > t.low:
        owner = c.holder_seat[h]
        price = card
    elif t.low >= 0:
        owner = t.low_seat
        price = t.low
    return (OWN_W * (owner != c.root and not (c.opts & OPT_PRICE_TIES))
            - BELOW_W * cb_popcount(root_hands & ~bit(card) & (bit(price) - 1)))


cdef inline int64_t price_tie(int64_t v, int card, int price) noexcept nogil:
    """A bottle question's move score `v` with its ties broken by the price
    (OPT_PRICE_TIES; without it the higher card comes first): the cards below
    the price lowest first, then those above it highest first.  Measured
    (issue 17, thirteenth part): the seats against the root seat most often
    saddle it by ducking under its card below the price or by winning above
    it, and the root seat too does best trying its low cards first."""
    return v * (2 * MAXC + 1) + (2 * MAXC - card if card < price else card)


cdef inline uint64_t root_hand_cards(Ctx* c, State* s) noexcept nogil:
    """The root seat's cards in its hands (not those in the trick)."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(c.nholders):
        if c.holder_seat[i] == c.root:
            m |= s.hand[i]
    return m


cdef inline int insert_move(int64_t* score, int* moves, int n, int64_t v,
                            int card) noexcept nogil:
    """`card` with score `v` into the first `n` moves, highest score first
    (stable: the cards come highest first, and ties stay so); the new count."""
    cdef int j = n
    while j > 0 and score[j - 1] < v:
        score[j] = score[j - 1]
        moves[j] = moves[j - 1]
        j -= 1
    score[j] = v
    moves[j] = card
    return n + 1


cdef inline int ordered_moves(Ctx* c, State* s, int h, uint64_t cards, bint maximise,
                              int hash_move, bint bottle_only, int depth,
                              int* moves) noexcept nogil:
    """`cards` into `moves` in the order to try them, returning how many: the
    hash move first, then the killer move of this depth (OPT_KILLER), then by
    the look-ahead (`static_eval`, or for the bottle question alone
    `owner_eval`, its ties by the price: OPT_PRICE_TIES) as the mover wants
    it, ties by the history counts (OPT_HISTORY), then high card first.

    OPT_LOW: in the points search, while the root seat's ending is open
    (OPT_SIDE_LOW: in team mode, the side's), no look-ahead and the lowest
    card first for every seat; once it is settled, the root side's ties
    lowest card first.  (Measured, issue 17, ninth part: the look-ahead,
    which scores the trick as if the hand ended with it, misleads while the
    bottle is still to be placed.)  OPT_OPP_LOW (`Ctx.opp_low`): once it is
    settled, the seats against the root side too go lowest card first,
    without the look-ahead, where the deck's points take at most three
    values (issue 17, eighteenth part: where they must answer every card
    of the root side's the order is work for nothing, and with points of
    1-3 ducking first does as well as the look-ahead elsewhere)."""
    cdef int64_t score[MAXC]
    cdef int64_t v
    cdef int n = 0, card
    cdef int killer = c.killer[bottle_only][depth] - 1 if c.opts & OPT_KILLER else -1
    cdef uint64_t root_hands = 0
    cdef bint have_root_hands = False, lowest = False, look = True
    cdef int left = -1, ends
    cdef TrickSoFar sofar
    if cards and not (cards & (cards - 1)):
        # One card: nothing to order (a follower with one card of the suit).
        moves[0] = cb_ctz(cards)
        return 1
    if (c.opts & OPT_LOW) and not bottle_only:
        # (The ending stays within a trick as it was at its start.)
        if c.partner >= 0 and not c.two and (c.opts & OPT_SIDE_LOW):
            # A side of two: its ending, which one member's settles only in part.
            ends = side_endings(c, s, in_play(c, s) & (bit(s.price) - 1))
            look = not (ends & (ends - 1))
        else:
            # (Without `one_outnumbers`: the seat settled free earlier by it
            # gets the look-ahead, which cost imp-3p-11 4 % more nodes.)
            look = ending(c, s, in_play(c, s) & (bit(s.price) - 1), seat_cards(c, s, c.root),
                          s.owner == c.root, False) != ENDS_OPEN
        lowest = maximise or not look
        if (not look or (not maximise and c.opp_low)) and (c.opts & OPT_ORDER) \
                and not (c.opts & OPT_HISTORY):
            # Nothing but the hash move, the killer move and then the lowest
            # card first: the order without the scores.
            if hash_move >= 0 and (cards >> hash_move) & 1:
                moves[0] = hash_move
                cards &= ~bit(hash_move)
                n = 1
            if killer >= 0 and (cards >> killer) & 1:
                moves[n] = killer
                cards &= ~bit(killer)
                n += 1
            while cards:
                moves[n] = cb_ctz(cards)
                cards &= cards - 1
                n += 1
            return n
    while cards:
        card = cb_hibit(cards)
        cards &= ~bit(card)
        if card == hash_move:
            v = INT64_MAX_SCORE
        elif card == killer:
            v = INT64_MAX_SCORE - 1
        elif c.opts & OPT_ORDER:
            if bottle_only:
                if not have_root_hands:
                    root_hands = root_hand_cards(c, s)
                    trick_low(c, s, &sofar)
                    have_root_hands = True
                v = owner_eval(c, s, &sofar, card_holder(c, s, h, card), card, root_hands,
                               maximise)
            elif look:
                if left < 0:
                    left = mask_points(c, in_play(c, s) & ~s.tmask)
                    trick_so_far(c, s, &sofar)
                v = static_eval(c, s, &sofar, card_holder(c, s, h, card), card, left)
            else:
                v = 0
            if not maximise:
                v = -v
            if bottle_only and (c.opts & OPT_PRICE_TIES):
                v = price_tie(v, card, s.price)
            if lowest:
                # (The cards come highest first: a tie goes to the lower.)
                v = v * MAXC + MAXC - 1 - card
            if c.opts & OPT_HISTORY:
                v = v * HIST_CAP + c.hist[card_holder(c, s, h, card)][card]
        elif c.opts & OPT_HISTORY:
            v = c.hist[card_holder(c, s, h, card)][card]
        else:
            v = 0
        n = insert_move(score, moves, n, v, card)
    return n


cdef inline int avoid_moves(Ctx* c, State* s, int h, uint64_t cards, bint maximise,
                            int* moves) noexcept nogil:
    """`ordered_moves` for the bottle question under its default options (no
    killer or history move): the same order, without the checks for them a
    card."""
    cdef int64_t score[MAXC]
    cdef uint64_t root_hands
    cdef int n = 0, card, v
    cdef TrickSoFar sofar
    if not (cards & (cards - 1)):
        if cards:
            moves[0] = cb_ctz(cards)
            return 1
        return 0
    root_hands = root_hand_cards(c, s)
    trick_low(c, s, &sofar)
    while cards:
        card = cb_hibit(cards)
        cards &= ~bit(card)
        v = owner_eval(c, s, &sofar, card_holder(c, s, h, card), card, root_hands, maximise)
        if not maximise:
            v = -v
        n = insert_move(score, moves, n,
                        price_tie(v, card, s.price) if c.opts & OPT_PRICE_TIES else v, card)
    return n


cdef inline int kept_answer(Ctx* c, uint64_t* k) noexcept nogil:
    """A yes/no question's answer kept in the table under `k` (`mark_owner`):
    1, 0, or -1 where there is none."""
    cdef Entry ecopy
    cdef Entry* e = tt_find(c, k, &ecopy)
    if e == NULL:
        return -1
    return 1 if e.lower > 0 else (0 if e.upper < 0 else -1)


cdef inline uint64_t pointless_moves(Ctx* c, State* s, int h, uint64_t inplay,
                                     int depth) noexcept nogil:
    """The mover's cards in a question without points (`avoid`, `gain`):
    one of each group of equivalent cards, whatever their points."""
    return representatives(c, s, h, mover_legal(c, s, h), inplay, False, c.opts & OPT_RUNS, 0,
                           c.losers_at[depth])


cdef inline void owner_key(Ctx* c, State* s, uint64_t inplay, uint64_t* ok,
                           int marker=TAKEN_AVOID) noexcept nogil:
    """The key of the bottle question alone (see avoid): the holder and suit of
    every card in play in order, where the price lies among them, the leader
    and whether the root seat owns.  Equal to the `ok` of `tt_key`."""
    cdef uint64_t p[3]
    cdef int count = cb_popcount(inplay)
    cdef bint oexact = not (c.opts & OPT_CANON) or count > c.ocap
    holder_planes(c, s, 0, p)
    if oexact:
        exact_words(inplay, p, ok)
    else:
        pattern(c, s, inplay, p, run_floor(c, s), False, ok, 0, c.losers_at[count])
    ok[4] = misc_word(c, cb_popcount(inplay & (bit(s.price) - 1)), s.leader, s.owner == c.root,
                      marker, 0, 0, count, oexact)


cdef int avoid(Ctx* c, State* s) noexcept nogil:
    """Whether the root seat can end the hand without the bottle (1) or not (0).

    With the points taken set aside this is a game of its own, and every
    zero-window probe between the worst ending as owner and the points already
    taken asks exactly this question.  Points play no part, so neither the key
    nor the grouping of equivalent cards looks at them.  (One seat and one
    bottle: switched off for a side of two and with the second bottle.)
    """
    cdef uint64_t inplay, below, mine, reps, m
    cdef uint64_t ok[5]
    cdef int i, n, h, result, depth, card
    cdef int moves[MAXC]
    cdef bint owns = s.owner == c.root, maximise, use_tt
    cdef Entry* e
    cdef Entry ecopy
    cdef State child
    c.nodes += 1
    c.avoid_nodes += 1
    if should_stop(c):
        return 0
    if c.nodes > c.node_limit:
        c.over = True
        return 0
    inplay = in_play(c, s)
    if inplay == 0:
        return not owns
    if s.n == 0:
        # (Within a trick the cards in play, the price and the owner stay
        # as they were at its start, and so does the ending: open.)
        below = inplay & (bit(s.price) - 1)
        mine = seat_cards(c, s, c.root)
        result = ending(c, s, below, mine, owns)
        if result != ENDS_OPEN:
            return result == ENDS_FREE
        mark_trick(c, s)
    depth = cb_popcount(inplay)
    c.dnodes[c.tricks_left[depth]] += 1
    use_tt = s.n == 0 and (c.opts & OPT_TT) and depth > TT_MIN * c.nholders
    if use_tt:
        owner_key(c, s, inplay, ok)
        c.alooks += 1
        result = kept_answer(c, ok)
        if result >= 0:
            c.ahits += 1
            return result
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        child = s[0]
        play(c, &child, h, lopaka_card(c, s, h))
        return avoid(c, &child)
    maximise = c.holder_seat[h] == c.root or c.holder_seat[h] == c.partner
    reps = pointless_moves(c, s, h, inplay, depth)
    if (c.opts & OPT_ETC) and (c.opts & OPT_TT) and s.n == c.nholders - 1 and depth - 1 > (TT_MIN + 1) * c.nholders:
        # The trick ends with this move: a child already settled in the
        # table the mover's way answers at once.
        m = reps
        while m:
            card = cb_hibit(m)
            m &= ~bit(card)
            child = s[0]
            play(c, &child, card_holder(c, s, h, card), card)
            mark_trick(c, &child)
            owner_key(c, &child, in_play(c, &child), ok)
            e = tt_find(c, ok, &ecopy)
            if e != NULL and ((e.lower > 0) if maximise else (e.upper < 0)):
                c.etc_cuts += 1
                result = maximise
                if use_tt:
                    owner_key(c, s, inplay, ok)
                    mark_owner(c, ok, 1 if result else -1)
                return result
        if use_tt:
            owner_key(c, s, inplay, ok)
    if (c.opts & OPT_ORDER) and not (c.opts & (OPT_KILLER | OPT_HISTORY)):
        n = avoid_moves(c, s, h, reps, maximise, moves)
    else:
        n = ordered_moves(c, s, h, reps, maximise, -1, True, depth, moves)
    if (c.opts & OPT_BUDGET) and not maximise and s.n == 0 and n > 1 and depth >= c.budget_cards:
        result = budgeted(c, s, h, moves, n)
        if c.over or c.stop:
            return 0
    else:
        result = 0 if maximise else 1
        for i in range(n):
            child = s[0]
            play(c, &child, card_holder(c, s, h, moves[i]), moves[i])
            if avoid(c, &child) == maximise:
                result = maximise
                good_move(c, card_holder(c, s, h, moves[i]), moves[i], depth, i, True)
                break
        else:
            c.no_cut += 1
            c.no_cut_root += maximise
    if use_tt:  # (mark_owner stores nothing while a budget is over)
        mark_owner(c, ok, 1 if result else -1)
    return result


cdef inline int gain_least(Ctx* c, State* s) noexcept nogil:
    """The fewest points the root seat can take from here on if it ends
    free having taken any (every card a point or more, one hand a holder
    and a card each a trick): a trick it wins without buying brings every
    holder's card; one it buys, all but its own, and then it must be bought
    from, which brings its price card back; an owner now must be bought
    from, and its price card comes back, or it buys from itself first."""
    if s.owner == c.root:
        return min(c.points[s.price_card], c.nholders)
    return c.nholders


cdef int gain(Ctx* c, State* s, int base) noexcept nogil:
    """Whether the root seat can end the hand free having taken anything
    more than `base`, its points taken where the question was asked (1) or
    not (0): a zero-window probe of the points search just above them
    (`search`).

    Every card of the deck is worth a point or more (`read_problem` switches
    this off otherwise), so any card the seat takes, and its price card
    coming back, is a point more, and the points themselves play no part:
    the key and the grouping of equivalent cards are the bottle question's
    (so no score found here is a bound of the points search: two cards
    grouped may be worth different points).  Once the seat has taken
    anything, what is left is the bottle question itself."""
    cdef uint64_t inplay, reps
    cdef uint64_t gk[5]
    cdef int i, n, h, result, depth, lo = 0, hi = 0
    cdef int moves[MAXC]
    cdef bint maximise, use_tt
    cdef State child
    if s.taken > base:
        return avoid(c, s)
    c.nodes += 1
    c.gain_nodes += 1
    if should_stop(c):
        return 0
    inplay = in_play(c, s)
    if inplay == 0:
        return 0
    if s.n == 0:
        if last_trick(c, s):
            child = s[0]
            play_out(c, &child)
            return child.owner != c.root and child.taken > base
        one_seat_bounds(c, s, inplay, seat_cards(c, s, c.root), s.owner == c.root, s.taken,
                        base, base + 1, &lo, &hi)
        if hi <= base or lo > base:
            return lo > base
        mark_trick(c, s)
    depth = cb_popcount(inplay)
    use_tt = s.n == 0 and (c.opts & OPT_TT) and depth > TT_MIN * c.nholders
    if use_tt:
        owner_key(c, s, inplay, gk, TAKEN_GAIN)
        result = kept_answer(c, gk)
        if result >= 0:
            return result
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        child = s[0]
        play(c, &child, h, lopaka_card(c, s, h))
        return gain(c, &child, base)
    maximise = c.holder_seat[h] == c.root
    reps = pointless_moves(c, s, h, inplay, depth)
    n = ordered_moves(c, s, h, reps, maximise, -1, False, depth, moves)
    result = not maximise
    for i in range(n):
        child = s[0]
        play(c, &child, card_holder(c, s, h, moves[i]), moves[i])
        if gain(c, &child, base) == maximise:
            result = maximise
            good_move(c, card_holder(c, s, h, moves[i]), moves[i], depth, i, False)
            break
    else:
        c.no_cut += 1
        c.no_cut_root += maximise
    if use_tt:
        mark_owner(c, gk, 1 if result else -1)
    return result


cdef int budgeted(Ctx* c, State* s, int h, int* moves, int n) noexcept nogil:
    """A lead of the seats against the root seat in the bottle question, its
    cards tried in rounds: each gets a budget of nodes (BUDGET_START, four
    times as many each round) and is set aside when it runs out, so that a
    lead that saddles the root seat cheaply, late in the order, does not wait
    for a first try that lets it out only after millions of nodes (at five
    and six players, where a wrong lead of the second trick can cost 10 M).
    A lead shown to let it out is not tried again; what a try settles
    within its budget is in the table, and a try cut short stores nothing
    (`Ctx.over`), so the rounds cost little more than the first.  Exact:
    the answer is 0 only from a lead searched to the end.  (The root seat's
    nodes cut off at the first card 99 % of the time: rounds there cost
    more than they find.)"""
    cdef int64_t outer = c.node_limit, budget = c.budget_start, lim
    cdef uint64_t open = low_bits(n)
    cdef int i, r
    cdef State child
    while True:
        for i in range(n):
            if not ((open >> i) & 1):
                continue
            child = s[0]
            play(c, &child, card_holder(c, s, h, moves[i]), moves[i])
            lim = c.nodes + budget
            c.node_limit = lim if lim < outer else outer
            r = avoid(c, &child)
            c.node_limit = outer
            if c.stop:
                return 0
            if c.over:
                if c.nodes > outer:
                    return 0  # (an enclosing budget's end: over stays set)
                c.over = False
                c.budget_stops += 1
                continue
            if r == 0:
                return 0
            open &= ~bit(i)
        if not open:
            return 1
        if budget < BUDGET_MAX:
            budget *= 4


cdef inline void store_result(Ctx* c, uint64_t* key, int depth, int v, int alpha, int beta,
                              bint relative, int rtaken, int rmax, int best) noexcept nogil:
    """Keep the fail-soft result v of the window (alpha, beta) under `key`: a
    fail-low one is an upper bound, a fail-high one a lower bound (relative
    to the points taken where `tt_key` said so); `best`: the best move's
    place among the cards in play, or -1."""
    cdef int lower = v if v > alpha else -INF
    cdef int upper = v if v < beta else INF
    if relative:
        lower = relative_lower(lower, rtaken, rmax) if lower > -INF else -INF
        upper = relative_upper(upper, rtaken, rmax) if upper < INF else INF
    tt_store(c, key, depth, lower, upper, best)


#: Odd multipliers for the hands in `state_hash` and `answer_hash`.
cdef uint64_t HASH_MUL[MAXH]
HASH_MUL[:] = [0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0xD6E8FEB86659FD93,
               0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9]


cdef inline uint64_t state_hash(Ctx* c, State* s) noexcept nogil:
    """A hash of everything a node in the middle of a trick is (the hands,
    the trick so far, the bottle, the points taken) and of the table's
    number, which holds the root seat, for its hint (`hints`): the hints
    serve the solves that keep the table's entries (`share`), and no other.
    A collision costs only a worse first move."""
    cdef uint64_t h = c.gen * <uint64_t>0x9E3779B97F4A7C15
    cdef int i
    for i in range(c.nholders):
        h += (s.hand[i] ^ <uint64_t>i) * HASH_MUL[i]
    h ^= s.tmask * <uint64_t>0x94D049BB133111EB
    h ^= (<uint64_t>s.price | (<uint64_t>(s.owner + 8) << 8) | (<uint64_t>s.leader << 16)
          | (<uint64_t>s.n << 24) | (<uint64_t>(s.taken + 1024) << 32)
          | (<uint64_t>(s.taken2 + 1024) << 48)) * <uint64_t>0xD6E8FEB86659FD93
    h ^= h >> 32
    h *= <uint64_t>0xBF58476D1CE4E5B9
    return h ^ (h >> 29)


cdef inline uint64_t answer_hash(Ctx* c, State* s, int h) noexcept nogil:
    """A hash of what a seat's answer in the middle of a trick sees (its
    hand, or in Devil's Eye both, the trick so far, the bottle, the leader)
    and the table's number (`answers`)."""
    cdef uint64_t x = c.gen * <uint64_t>0xD6E8FEB86659FD93
    x += (s.hand[h] ^ <uint64_t>h) * HASH_MUL[0]
    if c.free:
        x += s.hand[h + 1] * HASH_MUL[1]
    x ^= s.tmask * <uint64_t>0x94D049BB133111EB
    x ^= (<uint64_t>s.price | (<uint64_t>(s.owner + 8) << 8)
          | (<uint64_t>s.leader << 16)) * <uint64_t>0x9E3779B97F4A7C15
    x ^= x >> 32
    x *= <uint64_t>0xBF58476D1CE4E5B9
    return x ^ (x >> 29)


cdef inline int recalled(uint64_t* slots, uint64_t key, uint64_t reps) noexcept nogil:
    """The move kept under `key` (its low byte 0xFF) in `slots` if it is one
    of `reps` (a collision or another node's move is not), else -1."""
    cdef uint64_t word = slots[key >> HINT_SHIFT]
    if (word | 0xFF) != key or not (word & 0xFF) or not ((reps >> ((word & 0xFF) - 1)) & 1):
        return -1
    return <int>(word & 0xFF) - 1


cdef inline void remember(uint64_t* slots, uint64_t key, int card) noexcept nogil:
    """Keep `card` under `key` in `slots`: one aligned word, so that threads
    sharing the table never read half of one."""
    slots[key >> HINT_SHIFT] = (key & ~(<uint64_t>0xFF)) | <uint64_t>(card + 1)


cdef int search(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    """The paranoid value of position s (fail-soft alpha-beta): the root side
    maximises, every other seat minimises, Lopaka plays his policy."""
    cdef int h, card, v, best, lo = 0, hi = 0, best_card = -1, hash_move = -1, least
    cdef int alpha0 = alpha, beta0 = beta, k, nmoves, depth = 0, ends = ENDS_OPEN
    cdef uint64_t inplay, reps
    cdef uint64_t key[5]
    cdef uint64_t okey[5]
    cdef Entry* oe
    cdef Entry ocopy
    cdef Entry ecopy
    cdef bint both_open = False
    cdef int owner_max = 0, rtaken = 0, rmax = 0
    cdef Entry* e
    cdef State child
    cdef bint maximise, stored = False, relative = False
    cdef int moves[MAXC]
    cdef uint64_t hint_key = 0, answer_key = 0
    cdef int kept
    c.nodes += 1
    if should_stop(c):
        return 0
    inplay = in_play(c, s)
    if inplay == 0:
        return final_score(c, s)
    if last_trick(c, s):
        child = s[0]
        play_out(c, &child)
        return final_score(c, &child)
    if (c.opts & OPT_BOUNDS) and s.n == 0:
        # (At a trick's start only: in its middle they cut no node of any
        # suite measured, solver/README.md, and cost 5 % of the instructions.)
        score_bounds(c, s, inplay, alpha, beta, &lo, &hi)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    if c.opts & OPT_AVOID:
        # Every ending as the owner scores at most owner_max, every other at
        # least the points taken: a window between the two asks only whether
        # the bottle can be avoided.
        owner_max = -c.pile - (s.taken if c.hot else 0)
        if owner_max <= alpha and beta <= s.taken and s.n == 0:
            return s.taken if avoid(c, s) else owner_max
    if s.n == 0:
        mark_trick(c, s)
    depth = cb_popcount(inplay)
    c.dnodes[c.tricks_left[depth]] += 1
    if s.n == 0 and (c.opts & OPT_TT):
        stored = True
        c.looks += 1
        relative = tt_key(c, s, inplay, key, okey, &ends, &rtaken, &rmax)
        owner_max = -c.pile - (s.taken if c.hot else 0)
        both_open = ends == ENDS_OPEN
        # (Both buckets at once: the bottle question's entry is read first.)
        cb_prefetch_bucket(tt_bucket(c, key))
        if both_open and (c.opts & OPT_OWNER):
            cb_prefetch_bucket(tt_bucket(c, okey))
        c.ends_nodes[ends - ENDS_OPEN] += 1
        if both_open and (c.opts & OPT_OWNER):
            # Whether the root seat can avoid the bottle does not depend on its points.
            oe = tt_find(c, okey, &ocopy)
            if oe != NULL:
                if oe.upper < 0:
                    if owner_max <= alpha or not c.hot:
                        return owner_max
                    if owner_max < beta:
                        beta = owner_max
                elif oe.lower > 0:
                    if s.taken >= beta:
                        return s.taken
                    if s.taken > alpha:
                        alpha = s.taken
        e = tt_find(c, key, &ecopy)
        if e != NULL:
            c.hits += 1
            lo = e.lower
            hi = e.upper
            if relative:
                lo = relative_score(lo, rtaken, rmax)
                hi = relative_score(hi, rtaken, rmax)
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
        least = gain_least(c, s) if (c.opts & OPT_GAIN) and beta == alpha + 1 else 0
        if s.taken <= alpha < s.taken + least:
            # Whether the root seat ends free with anything more decides
            # this probe: the question without points (`gain`), its answer
            # kept under this key too.  (An ending as owner scores no more
            # than the points taken.)
            v = s.taken + least if gain(c, s, s.taken) else s.taken
            store_result(c, key, depth, v, alpha, beta, relative, rtaken, rmax,
                         cb_popcount(inplay & (bit(hash_move) - 1)) if hash_move >= 0 else -1)
            if v > alpha and both_open and (c.opts & OPT_OWNER):
                mark_owner(c, okey, 1)
            return v
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        child = s[0]
        play(c, &child, h, lopaka_card(c, s, h))
        return search(c, &child, alpha, beta)
    maximise = c.holder_seat[h] == c.root or c.holder_seat[h] == c.partner
    reps = mover_legal(c, s, h)
    if c.opts & OPT_EQUIV:
        # (The root side's own cards are never dead.)
        reps = representatives(c, s, h, reps, inplay, True, c.opts & OPT_RUNS,
                               0 if maximise else c.dead_at[depth], c.losers_at[depth])
    if s.n > 0 and (reps & (reps - 1)) and depth >= c.hint_from and c.hints != NULL \
            and (c.opts & OPT_HINTS):
        # The table holds nothing in the middle of a trick, and MTD(f) comes
        # back to these nodes probe after probe: the move that cut off last
        # time goes first (the low byte: the move + 1; 0, none).
        hint_key = state_hash(c, s) | 0xFF
        kept = recalled(c.hints, hint_key, reps)
        if kept >= 0:
            hash_move = kept
            c.hint_hits += 1
    if s.n > 0 and not maximise and (reps & (reps - 1)) and c.hints != NULL \
            and (c.opts & OPT_ANSWERS):
        # The same hand facing the same trick, whatever the others hold: the
        # answer that cut off there before.  (The root side's own, tried so,
        # cost 3p-11 #8 a fifth more nodes: solver/README.md.)
        answer_key = answer_hash(c, s, h) | 0xFF
        if hash_move < 0:
            kept = recalled(c.hints + HINT_SLOTS, answer_key, reps)
            if kept >= 0:
                hash_move = kept
                c.answer_hits += 1
    nmoves = ordered_moves(c, s, h, reps, maximise, hash_move, False, depth, moves)
    best = -INF if maximise else INF
    for k in range(nmoves):
        card = moves[k]
        child = s[0]
        play(c, &child, card_holder(c, s, h, card), card)
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
            good_move(c, card_holder(c, s, h, card), card, depth, k, False)
            if hint_key:
                remember(c.hints, hint_key, card)
            if answer_key:
                remember(c.hints + HINT_SLOTS, answer_key, card)
            break
    else:
        c.no_cut += 1
        c.no_cut_root += maximise
    if stored:
        store_result(c, key, depth, best, alpha0, beta0, relative, rtaken, rmax,
                     cb_popcount(inplay & (bit(best_card) - 1)) if best_card >= 0 else -1)
        if both_open and (c.opts & OPT_OWNER):
            # Every ending as the owner scores at most owner_max, every other
            # ending at least the points taken, which is more: a bound on one
            # side of owner_max settles whether the bottle can be avoided.
            if best < beta0 and best <= owner_max:
                mark_owner(c, okey, -1)
            elif best > alpha0 and best > owner_max:
                mark_owner(c, okey, 1)
    return best


cdef int exact(Ctx* c, State* s, int guess) noexcept nogil:
    """The exact value by zero-window probes that narrow [lo, hi] (MTD(f)), or
    one full window when that technique is switched off.

    [lo, hi] starts at the bounds that need no search and the first probe at
    the guess (the value of the previous root card); each fail-soft answer
    moves one bound to where the next probe goes.  (Bisecting the open range
    instead was measured: no fewer nodes.)  A guess above the points taken
    while the bottle is open waits for a probe at the points taken, which is
    the bottle question: a card that cannot avoid the bottle then costs one
    probe, not one per point down from the guess.  (With OPT_MORE, where
    that probe answers the points taken exactly, the next asks whether the
    card takes anything more: many a card avoids the bottle only by taking
    nothing, and from a guess above that the probes would come down a point
    at a time.)  Where there is no such
    question (a side of two) a card's value can lie tens of points from its
    neighbour's, and the answers often move the bound by one point a probe:
    with OPT_GALLOP the step doubles from the second answer the same way.
    Elsewhere, with OPT_STRIDE, a climb steps two points from its second
    rise on.
    """
    cdef int lo = 0, hi = 0
    cdef Plan plan
    if not (c.opts & OPT_MTD):
        return search(c, s, -INF, INF)
    score_bounds(c, s, in_play(c, s), -INF, INF, &lo, &hi)
    plan_start(&plan, lo, hi, s.taken, guess, c.opts)
    while not plan.done and not c.stop:
        plan_answer(&plan, probe(c, s, plan.b))
    return plan.lo


#: The phases of a `Plan`: the bottle question, "anything more?", the rest.
cdef enum:
    PLAN_AVOID = 0
    PLAN_MORE = 1
    PLAN_MAIN = 2


#: Where `exact`'s probes go for one card, answer by answer: [lo, hi]
#: narrowed by each fail-soft answer, the next probe at b (until done, lo
#: the value).  One plan for the search's own probes and for those the
#: threads of a split solve share (`ProbePlan`, solver/split.py).
cdef struct Plan:
    int lo
    int hi
    int guess
    int taken
    int64_t opts
    int phase
    int run
    int b
    bint done
    #: Whether the bottle question was asked (the ending was open).
    bint asked


cdef void plan_start(Plan* p, int lo, int hi, int taken, int guess, int64_t opts) noexcept nogil:
    """A card's plan within its static bounds [lo, hi], its points taken and
    the guess where its probes start (the previous card's value)."""
    p.lo, p.hi, p.taken, p.opts, p.run, p.done = lo, hi, taken, opts, 0, False
    p.guess = min(max(guess, lo), hi)
    p.asked = (opts & OPT_AVOID) and p.guess > taken and lo < taken <= hi
    if p.asked:
        p.phase = PLAN_AVOID
        p.b = taken
    else:
        plan_main(p)


cdef void plan_main(Plan* p) noexcept nogil:
    """From the guess on: the first probe of the main phase, or done."""
    p.phase = PLAN_MAIN
    p.guess = min(max(p.guess, p.lo), p.hi)
    p.b = p.guess if p.guess > p.lo else p.lo + 1
    p.done = p.lo >= p.hi


cdef void plan_answer(Plan* p, int g) noexcept nogil:
    """The answer g (fail-soft) to the probe at p.b: the bounds move, and the
    next probe is chosen."""
    if p.phase == PLAN_AVOID:
        if g < p.taken:
            p.hi = g
        else:
            p.lo = g
            if ((p.opts & OPT_MORE) and g == p.taken and p.guess > p.taken + 1
                    and p.hi > p.taken):
                p.phase = PLAN_MORE
                p.b = p.taken + 1
                return
        plan_main(p)
        return
    if p.phase == PLAN_MORE:
        if g <= p.taken:
            p.hi = g
        else:
            p.lo = g
        plan_main(p)
        return
    if g < p.b:
        p.hi = g
    else:
        p.lo = g
    plan_step(p, g < p.b)
    p.done = p.lo >= p.hi


cdef void plan_step(Plan* p, bint fell) noexcept nogil:
    """The next probe once the plan's own has fallen (below p.b) or not:
    a point past the bound just moved, or further while galloping."""
    if fell:
        p.run = p.run - 1 if p.run < 0 else -1
        p.b = p.hi + 1 - gallop_step(p.opts, p.run)
    else:
        p.run = p.run + 1 if p.run > 0 else 1
        p.b = p.lo + gallop_step(p.opts, p.run)
    if p.b > p.hi:
        p.b = p.hi
    if p.b <= p.lo:
        p.b = p.lo + 1


cdef void plan_learn(Plan* p, int b, int g) noexcept nogil:
    """The answer g (fail-soft) to a probe at b, the plan's own (p.b) or
    another a thread of a split solve ran beside it (the main phase only):
    each bound moves only inwards, and where the answer settles what the
    plan's own probe would say, the next probe is chosen as `plan_answer`
    chooses it (`plan_step`)."""
    if p.phase != PLAN_MAIN:
        if b == p.b:
            plan_answer(p, g)
        return
    if g < b:
        p.hi = min(p.hi, g)
    else:
        p.lo = max(p.lo, g)
    p.done = p.lo >= p.hi
    if not p.done and (b == p.b or not p.lo < p.b <= p.hi):
        plan_step(p, p.b > p.hi)


cdef int probe(Ctx* c, State* s, int b) noexcept nogil:
    """One zero-window probe of `exact`: whether the value is at least b
    (fail-soft), counted and logged for LAST_STATS."""
    cdef int64_t nodes = c.nodes
    cdef int g = search(c, s, b - 1, b)
    cdef Probe* p
    c.probes += 1
    if c.nprobes_logged < PROBE_LOG:
        p = &c.probe_log[c.nprobes_logged]
        p.card, p.b, p.g, p.nodes = c.card_now, b, g, c.nodes - nodes
        c.nprobes_logged += 1
    return g


cdef inline int gallop_step(int64_t opts, int run) noexcept nogil:
    """How far the next probe goes past the bound just moved, after `run`
    answers the same way (negative: fail-low): with OPT_GALLOP 1, then 2,
    4, 8, ...; with OPT_STRIDE 1, then 2 a time upwards only (a fall's
    probes after the first are cheap: the refutations nearer the value);
    else 1."""
    if opts & OPT_GALLOP:
        if run < 0:
            run = -run
        return 1 if run < 2 else 1 << min(run - 1, 20)
    return 2 if (opts & OPT_STRIDE) and run >= 2 else 1


#: The paranoid search's table and max-n's (_maxn.pxi), each under _TABLE_LOCK.
cdef Table g_table = Table(NULL, 0, 0, sizeof(Entry), 0, 5, 0, 0, NULL)
cdef Table g_mtable = Table(NULL, 0, 0, sizeof(MEntry), 0, 6, 0, 0, NULL)
_TABLE_LOCK = threading.Lock()


cdef inline uint64_t mix(uint64_t h, int64_t v) noexcept nogil:
    return (h ^ <uint64_t>v) * <uint64_t>0x100000001B3


cdef uint64_t context_signature(Ctx* c, bint maxn) noexcept nogil:
    """What, besides the position, the values of a solve depend on: the
    seats and holders, the deck's points and suits, the variant, the
    partner, the techniques (and the root seat, which `table_for` puts into
    the solve's number instead, so that the solves of every seat in turn
    keep their entries); and the pile's points, unless every
    entry is relative to the points taken (the paranoid search of one seat
    and one bottle: an ending as owner is then stored as -1, or in the hot
    bottle -1 less what the seat still wins, whatever the pile).  Solves of
    one context meet in the table: two positions with one key have one
    value there, whichever deal they came from.  0: share nothing."""
    cdef uint64_t h = <uint64_t>0xCBF29CE484222325
    cdef int i, j
    if not (c.opts & OPT_SHARE) or c.pile <= 0:
        # (A pile worth nothing lets an ending as owner tie one without the
        # bottle: the reasoning above needs every ending as owner below.)
        return 0
    cdef int64_t fields[12]
    fields[:] = [c.nholders, c.nseats, c.lopaka, c.partner, c.free, c.two, c.hot,
                 c.opts, c.kcap, c.ocap, c.sides, maxn]
    for i in range(12):
        h = mix(h, fields[i])
    if maxn or c.partner >= 0 or c.two or not (c.opts & OPT_RELATIVE):
        h = mix(h, 1000 + c.pile)
    for i in range(c.nholders):
        h = mix(h, c.holder_seat[i])
        for j in range(c.nholders):
            h = mix(h, c.order[i][j])
    for i in range(c.nseats):
        for j in range(c.nseats):
            h = mix(h, c.w[i][j])
    for i in range(MAXC):
        h = mix(h, c.code[i])
    return h | 1


cdef int table_for(Ctx* c, Table* t, int bits, int start_bits, bint kept,
                   uint64_t sig, bint same_solve=False) except -1:
    """Make `t` the transposition table of this solve (of `t`'s kind), for
    up to 2^bits entries.

    One table is kept and reused between solves (`kept`; a solve running
    while another holds it gets a table of its own, `t` fresh, which the
    caller frees).  A table starts at 2^start_bits entries and grows while
    the solve fills it (`claimed`): the pages of a table are zeroed the first
    time they are touched, and a table of hundreds of MB, probed at random,
    touches them all, which cost a small solve far more than its search
    (solver/README.md).  A solve of the same context as the last (`sig`,
    not 0) keeps its number, and so its entries (OPT_SHARE); the number's
    low ROOT_BITS are the root seat's.  `same_solve`: this call is one more
    part of the solve that last took the table (the probes of one position
    shared among threads, _split.pxi): the table as that solve left it, its
    number kept.
    """
    cdef uint64_t entries = <uint64_t>1 << bits
    if same_solve:
        if t.p == NULL or t.gen == 0:
            raise ValueError("a probe's table is not ready (`start_solve` makes it so)")
        c.table = t
        c.gen = (t.gen << ROOT_BITS) | c.root
        point_at(c)
        return 0
    if (not kept or t.p == NULL or t.gen >= (GEN_MASK >> ROOT_BITS)
            or (c.shared and t.entries < entries)):
        # (A shared table never grows in a solve: it is made at its full size,
        # before the threads that share it search.)
        free_table(t)
        t.entries = min(entries, <uint64_t>1 << start_bits)
        t.p = cb_table_alloc(t.entries * t.entry_size)
        if t.p == NULL:
            t.entries = 0
            raise MemoryError()
        t.gen = 0
        t.sig = 0
        if t.words == 5:
            # (None where no memory is left: the search goes without.)
            t.hints = <uint64_t*>calloc(2 * HINT_SLOTS, sizeof(uint64_t))
    if t.gen == 0 or sig == 0 or sig != t.sig:
        t.gen += 1
        t.used = 0
    t.sig = sig
    t.cap = max(t.entries, entries)
    c.table = t
    c.gen = (t.gen << ROOT_BITS) | c.root
    point_at(c)
    return 0


cdef inline void point_at(Ctx* c) noexcept nogil:
    """The search's own copy of where its table lies and how big it is."""
    if c.table.words == 5:
        c.tt = <Entry*>c.table.p
        c.tt_mask = c.table.entries - 1
        c.hints = c.table.hints
    else:
        c.mtt = <MEntry*>c.table.p
        c.mtt_mask = c.table.entries - 1


cdef inline void claimed(Ctx* c) noexcept nogil:
    """One more entry taken in the solve's table: once an eighth of it is,
    it grows (x4, up to the solve's cap: `grow_table`), before its buckets
    of two fill and push out entries the search will want again."""
    cdef Table* t = c.table
    t.used += 1
    if t.used * 8 > t.entries and t.entries < t.cap:
        grow_table(c)


cdef void grow_table(Ctx* c) noexcept nogil:
    """Move the table's entries of this solve's number (every root seat's)
    into one four times the size.  An entry that finds its new bucket full
    is dropped (a table entry only ever saves search).  Where no memory is
    left the table stays as it is."""
    cdef Table* t = c.table
    cdef uint64_t n = min(t.entries * 4, t.cap), i, j, kept = 0
    cdef uint64_t* k
    cdef uint64_t* d
    cdef char* src
    cdef char* dst
    cdef void* p = cb_table_alloc(n * t.entry_size)
    if p == NULL:
        t.cap = t.entries
        return
    for i in range(t.entries):
        src = <char*>t.p + i * t.entry_size
        k = <uint64_t*>src
        if ((k[4] >> GEN_SHIFT) & GEN_MASK) >> ROOT_BITS != t.gen:
            continue
        j = (key_hash(k, t.words) & (n - 1)) & ~(<uint64_t>1)
        dst = <char*>p + j * t.entry_size
        d = <uint64_t*>dst
        if d[4] != 0:
            dst += t.entry_size
            d = <uint64_t*>dst
            if d[4] != 0:
                continue
        memcpy(dst, src, t.entry_size)
        kept += 1
    cb_table_free(t.p, t.entries * t.entry_size)
    t.p = p
    t.entries = n
    t.used = kept
    point_at(c)


cdef void free_table(Table* t) noexcept nogil:
    if t.p != NULL:
        cb_table_free(t.p, t.entries * t.entry_size)
    t.p = NULL
    t.entries = 0
    free(t.hints)
    t.hints = NULL


def table_entries(bint maxn=False):
    """The size in entries of the table kept between solves (0: none), of the
    paranoid search or max-n's: what a solve left behind (for the tests)."""
    with _TABLE_LOCK:
        return (g_mtable if maxn else g_table).entries


def release_table():
    """Give the kept transposition tables' memory back (the next solve makes a new one)."""
    with _TABLE_LOCK:
        free_table(&g_table)
        free_table(&g_mtable)


cdef class SearchTables:
    """A caller's own transposition tables (paranoid and max-n), kept between its
    solves like the module's shared ones: a thread that solves many positions
    (solver/batch.py) passes its own to `solve_state(tables=...)`, so that
    threads never wait for, nor allocate anew, a table.  One thread at a time.

    `shared=True`: the paranoid table of one position's solve whose cards
    several threads search at once (`solve_split`), each storing what the
    others may use.  Its entries are checked and written whole (`seal`), it
    is made at its full size (it cannot grow while others read it), and the
    max-n search, whose entries are not sealed, refuses it."""

    cdef Table t
    cdef Table m
    cdef readonly bint shared

    def __cinit__(self, bint shared=False):
        self.t = Table(NULL, 0, 0, sizeof(Entry), 0, 5, 0, 0, NULL)
        self.m = Table(NULL, 0, 0, sizeof(MEntry), 0, 6, 0, 0, NULL)
        self.shared = shared

    def __dealloc__(self):
        free_table(&self.t)
        free_table(&self.m)

    def release(self):
        """Give the tables' memory back (the next solve makes new ones)."""
        free_table(&self.t)
        free_table(&self.m)


cdef int read_problem(problem, Ctx* c, State* s, int64_t opts, int key_cap,
                      bint maxn=False) except -1:
    """Fill the search's C state from a `Problem` (solver/problem.py), after
    checking that it fits the arrays and the table key's fields; `maxn`: for
    the max-n search (`Ctx.match`)."""
    cdef int i, j, nh, top
    hands, holder_seat, order = problem.hands, problem.holder_seat, problem.order
    trick, trick_holders = problem.trick, problem.trick_holders
    points, suits, taken = problem.points, problem.suits, problem.taken
    bottle, shelf, partner, sides = problem.bottle, problem.shelf, problem.partner, problem.sides
    nh = len(hands)
    if (not 1 <= nh <= MAXH or len(points) > MAXC or len(suits) != len(points)
            or len(trick) >= nh or len(trick_holders) != len(trick) or len(holder_seat) != nh
            or not 1 <= len(order) <= MAXH or not 0 <= problem.leader < len(order)
            or not 0 <= bottle.price < MAXC):
        raise ValueError("solve_state: bad sizes")
    for row in order:
        if len(row) != nh:
            raise ValueError("solve_state: bad sizes")
    for x in suits:
        if not 0 <= x <= 2:
            raise ValueError("solve_state: a deck has three suits (0-2)")
    top = max(points, default=0)
    if min(points, default=0) < 0 or top > MAX_CARD_POINTS or sum(points) > MAX_TOTAL_POINTS:
        raise ValueError(
            f"solve_state: the key holds 0-{MAX_CARD_POINTS} points a card"
            f" and at most {MAX_TOTAL_POINTS} in the deck"
        )
    if not max(holder_seat) < len(taken) <= MAXH:
        raise ValueError("solve_state: bad number of seats")
    memset(c, 0, sizeof(Ctx))
    memset(s, 0, sizeof(State))
    c.nholders = nh
    c.nseats = len(taken)
    for i in range(MAXC + 1):
        c.tricks_left[i] = min(16, (i + nh - 1) // nh)
    c.lopaka = -1 if problem.lopaka is None else problem.lopaka
    c.root = problem.root
    # -2, not -1: "no owner" (-1) must never count as the partner owning.
    c.partner = -2 if partner is None else partner
    if partner is not None:
        if problem.hot or partner == problem.root:
            raise ValueError("solve_state: a partner, but the hot bottle or the root seat")
        # These reason about the root seat alone (its bottle question); the
        # bounds have a side of their own (`side_bounds`).
        opts &= ~(OPT_AVOID | OPT_OWNER)
        if (opts & OPT_TEAM_KILLER) and nh == 4:
            # (Measured at five and six players, six tricks left: 12-29 %
            # more nodes with them.)
            opts |= OPT_KILLER
    else:
        # (Measured for a seat alone: 3 % more nodes in the Bottle Imp at
        # three, 5 % fewer with Lopaka, the medians unchanged.)
        opts &= ~OPT_GALLOP
        if problem.lopaka is not None and not maxn:
            # (Measured, issue 17, twenty-fourth part: beside Lopaka a seat
            # seen free early by `outnumbered` costs the points search 4-6 %
            # more nodes, its median 8 %; max-n searches the same nodes.)
            opts &= ~OPT_OUTNUMBER
    c.free = problem.free
    if c.free and (nh % 2 or any([holder_seat[i] != i // 2 for i in range(nh)])):
        raise ValueError("solve_state: free play needs two hands per seat, 2p and 2p + 1")
    c.two = shelf is not None
    if c.two:
        if problem.hot or not 0 <= shelf.price < MAXC:
            raise ValueError("solve_state: a second bottle, but the hot bottle or a bad price")
        # Their reasoning assumes one bottle whose price only falls.
        opts &= ~(OPT_AVOID | OPT_BOUNDS | OPT_OWNER | OPT_EQUIV)
    if (not (opts & OPT_AVOID) or min(points, default=0) < 1 or problem.lopaka is not None
            or problem.free):
        # `gain` reads any card taken as a point more.  (Beside Lopaka and
        # in Devil's Eye it costs nodes: solver/README.md, twenty-seventh part.)
        opts &= ~OPT_GAIN
    c.hot = problem.hot
    c.pile = problem.pile
    c.opts = opts
    c.budget_cards = BUDGET_CARDS
    c.budget_start = BUDGET_START
    c.node_limit = INT64_MAX_SCORE
    c.sides = sides is not None
    if c.sides:
        if len(sides) != c.nseats or any([len(row) != c.nseats for row in sides]):
            raise ValueError("solve_state: `sides` is not one row and column a seat")
        for i in range(c.nseats):
            for j in range(c.nseats):
                c.w[i][j] = sides[i][j]
    for i in range(len(points)):
        c.points[i] = points[i]
        c.suit[i] = suits[i]
        c.code[i] = suits[i] | (points[i] << 2)
        c.suit_mask[suits[i]] |= bit(i)
        for j in range(4):
            if (points[i] >> j) & 1:
                c.pbit[j] |= bit(i)
    c.pbit_hi = top > 3
    for i in range(len(points)):
        c.pmask[points[i]] |= bit(i)
    for i in range(MAX_CARD_POINTS + 1):
        if c.pmask[i]:
            c.pvals[c.npvals] = i
            c.npvals += 1
    c.opp_low = (opts & OPT_OPP_LOW) != 0 and c.npvals <= 3
    c.match = (opts & OPT_MATCH) != 0 and (maxn or c.lopaka >= 0)
    c.hbits = 2 if nh <= 4 else 3
    c.pbits = max(1, (<object>top).bit_length())
    c.kbits = c.hbits + 2 + c.pbits
    c.obits = c.hbits + 2
    c.kcap = min(256 // c.kbits, key_cap)
    c.ocap = min(256 // c.obits, key_cap)
    for i in range(MAXH):
        c.seat_hand[i] = -1
    for i in range(nh):
        c.holder_seat[i] = holder_seat[i]
        s.hand[i] = hands[i]
        # (A second hand of one seat leaves it -1, the first leaves i.)
        c.seat_hand[holder_seat[i]] = -2 if c.seat_hand[holder_seat[i]] != -1 else i
    for i in range(MAXH):
        if c.seat_hand[i] == -2:
            c.seat_hand[i] = -1
    for i in range(len(order)):
        for j in range(nh):
            c.order[i][j] = order[i][j]
    for i in range(c.nseats):
        s.tk[i] = taken[i]
    s.price = bottle.price
    s.price_card = -1 if bottle.card is None else bottle.card
    s.owner = -1 if bottle.owner is None else bottle.owner
    s.taken = taken[c.root]
    s.taken2 = 0 if partner is None else taken[partner]
    if c.two:
        s.sprice = shelf.price
        s.scard = -1 if shelf.card is None else shelf.card
        s.sowner = -1 if shelf.owner is None else shelf.owner
    else:
        s.scard = s.sowner = -1
    s.leader = problem.leader
    for i in range(len(trick)):
        s.tcard[i] = trick[i]
        s.tholder[i] = trick_holders[i]
        s.tmask |= bit(trick[i])
    s.inplay = s.tmask
    for i in range(nh):
        s.inplay |= s.hand[i]
    s.n = len(trick)
    mark_trick(c, s)
    # The root's trick and the next (`hints`).
    c.hint_from = max(c.tricks_left[cb_popcount(s.inplay)] - 2, 0) * nh + 1
    return 0


#: `root_values`' guess when the caller has none.
cdef int NO_GUESS = -(1 << 30)


cdef uint64_t root_values(Ctx* c, State* s, bint maxn, int* values, uint64_t only,
                          int guess) noexcept nogil:
    """The value of each legal card of the holder to move into `values` (with
    Lopaka to move, of his policy's one card); returns the cards valued.

    `only`: the cards among the representatives (`root_cards`) to value, the
    others' groups left out (a solve shared among threads: `solve_split`);
    `guess`: the first card's MTD(f) start."""
    cdef State child
    cdef uint64_t legal, allreps, reps, valued, inplay
    cdef int card, h = c.order[s.leader][s.n]
    cdef int64_t nodes, probes
    if h == c.lopaka:
        card = lopaka_card(c, s, h)
        c.card_now = card
        child = s[0]
        play(c, &child, h, card)
        values[card] = maxn_value(c, &child) if maxn else exact(
            c, &child, child.taken if guess == NO_GUESS else guess)
        return bit(card)
    legal = mover_legal(c, s, h)
    inplay = in_play(c, s)
    allreps = representatives(c, s, h, legal, inplay, True) if c.opts & OPT_EQUIV else legal
    reps = allreps & only
    if guess == NO_GUESS:
        guess = s.taken
    valued = reps
    c.valued = valued
    while reps and not c.stop:
        card = cb_hibit(reps)
        reps &= ~bit(card)
        child = s[0]
        play(c, &child, card_holder(c, s, h, card), card)
        nodes, probes = c.nodes, c.probes
        c.card_now = card
        values[card] = maxn_value(c, &child) if maxn else exact(c, &child, guess)
        c.card_nodes[card] = c.nodes - nodes
        c.card_probes[card] = c.probes - probes
        guess = values[card]
    return with_equivalents(legal, allreps, inplay, valued, values)


cdef uint64_t with_equivalents(uint64_t legal, uint64_t allreps, uint64_t inplay,
                               uint64_t valued, int* values) noexcept nogil:
    """The cards `valued` and the legal cards left out of `allreps` (the
    representatives) whose group's card is valued: each takes the value of
    the next higher card in play, its group's."""
    cdef int card, above
    cdef uint64_t out = valued
    for card in range(MAXC - 1, -1, -1):
        if (legal >> card) & 1 and not (allreps >> card) & 1:
            above = cb_ctz(inplay & ~((bit(card) << 1) - 1))
            if (out >> above) & 1:
                values[card] = values[above]
                out |= bit(card)
    return out


cdef int raise_if_stopped(Ctx* c, double time_limit) except -1:
    """Raise what stopped the search early, if anything did: Ctrl-C, the
    caller's token, or its time limit."""
    if c.interrupted:
        raise KeyboardInterrupt
    if c.cancelled:
        from cursedbottle.solver.cancel import Cancelled

        raise Cancelled(f"the search was cancelled ({c.nodes:,} nodes searched)")
    if c.timed_out:
        raise TimeoutError(
            f"no answer within {time_limit:g} s of search ({c.nodes:,} nodes searched)"
        )
    return 0


def root_cards(problem, *, int64_t opts=OPT_DEFAULT):
    """The cards of the holder to move that a solve values, one for each group
    of equivalent cards (the others share its value); Lopaka's one card."""
    cdef Ctx c
    cdef State s
    cdef int h
    read_problem(problem, &c, &s, opts, MAXC)
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        return [lopaka_card(&c, &s, h)]
    legal = mover_legal(&c, &s, h)
    reps = (representatives(&c, &s, h, legal, in_play(&c, &s), True)
            if c.opts & OPT_EQUIV else legal)
    return [card for card in range(MAXC - 1, -1, -1) if (reps >> card) & 1]


def shared_entry_reads(list words_a, list words_b, int lower_a, int lower_b):
    """For the tests of `seal`: entries of keys a and b (five words each) with
    the bounds [lower, lower] written into a shared table's bucket, then
    every mix of their six words a reader might see while a and b are
    written at once: for each, whether its words are all a's as written,
    and what a lookup of key a returns, None (refused) or (lower, upper)."""
    cdef Entry b[2]
    cdef Entry written[2]
    cdef Entry copy
    cdef uint64_t ka[5]
    cdef uint64_t kb[5]
    cdef Entry* e
    cdef int i, slot, mask
    cdef uint64_t* src
    cdef uint64_t* dst
    for i in range(5):
        ka[i], kb[i] = words_a[i], words_b[i]
    memset(b, 0, sizeof(b))
    memset(written, 0, sizeof(written))
    claim(&written[0], ka)
    claim(&written[1], kb)
    written[0].lower = written[0].upper = lower_a
    written[1].lower = written[1].upper = lower_b
    shared_put(written, 0, &written[0])
    shared_put(written, 1, &written[1])
    out = []
    for mask in range(64):
        # Word i of the entry from b where bit i of mask is set, else from a.
        memset(b, 0, sizeof(b))
        src = <uint64_t*>written
        dst = <uint64_t*>b
        for i in range(6):
            dst[i] = src[6 + i] if (mask >> i) & 1 else src[i]
        whole = all(dst[i] == src[i] for i in range(6))
        e = shared_find(b, ka, &copy, &slot)
        out.append((whole, None if e == NULL else (e.lower, e.upper)))
    return out


def static_bounds(problem, *, int64_t opts=OPT_DEFAULT):
    """(lo, hi): the bounds on the root side's score that need no search
    (`score_bounds`; its quick tricks only at a trick's start), for the tests."""
    cdef Ctx c
    cdef State s
    cdef int lo = 0, hi = 0
    read_problem(problem, &c, &s, opts, MAXC)
    score_bounds(&c, &s, in_play(&c, &s), -INF, INF, &lo, &hi)
    return lo, hi


def solve_state(problem, *, bint maxn=False, int tt_bits=20, int64_t opts=OPT_DEFAULT,
                int key_cap=MAXC, double time_limit=0, cancel=None,
                SearchTables tables=None, int tt_start_bits=START_BITS, cards=None,
                guess=None, int budget_cards=BUDGET_CARDS, int budget_start=BUDGET_START):
    """Values of the legal cards of the holder to move: ({card: value}, nodes).

    `problem` is a `Problem` (solver/problem.py): the position, the seat
    whose score is valued (`root`), and in the Bottle Imp's team mode its
    partner (which maximises too; the value is then the side's score: the
    owner's -pile plus the other member's points, or both members' points;
    doubling that of a seat alone is left to the caller).  With Lopaka to
    move the one card of his policy is valued.  With a second bottle the
    search uses exact table keys and neither `avoid`, static bounds nor
    equivalent cards (their reasoning assumes one bottle whose price only
    falls).

    `maxn` asks RULES.md's "each for itself" question (_maxn.pxi) instead of
    the paranoid one.  `tt_bits`: the most the table may grow to (2^bits
    entries; a new one starts at 2^tt_start_bits and grows as the solve
    fills it, `claimed`); `opts`: the techniques used (OPTIONS); `key_cap`
    lowers the number of cards in play up to which the table keys are
    patterns (for the tests of the exact keys beyond).  `time_limit`
    (wall-clock seconds, 0: none) raises TimeoutError when passed; in the main thread a Ctrl-C stops the search too
    (KeyboardInterrupt), though it runs without the GIL.  `cancel` is a
    `CancelToken` (solver/cancel.py): once another thread cancels it the
    search stops and raises `Cancelled`.  `tables`: the caller's own
    (`SearchTables`) instead of the module's shared ones.  `budget_cards`,
    `budget_start`: where `budgeted` starts and a try's first budget (the
    tests lower them to reach it in small positions).
    """
    cdef Ctx c
    cdef State s
    cdef uint64_t legal = 0
    cdef int values[MAXC]
    cdef bint own, locked
    cdef Table* pt = &g_table
    cdef Table* mt = &g_mtable
    cdef Table private
    cdef unsigned char[::1] cancel_flag = None
    cdef int card, start
    cdef uint64_t only = ~<uint64_t>0
    if cards is not None:
        only = 0
        for card in cards:
            only |= bit(card)
    if not (1 <= tt_bits <= MAX_TT_BITS and 1 <= tt_start_bits <= MAX_TT_BITS):
        raise ValueError(
            f"solve_state: tt_bits and tt_start_bits (a table of 2^bits entries) are"
            f" 1-{MAX_TT_BITS}, got {tt_bits} and {tt_start_bits}"
        )
    read_problem(problem, &c, &s, opts, key_cap, maxn)
    if budget_start < 1:
        raise ValueError(f"solve_state: budget_start is at least 1 node, got {budget_start}")
    c.budget_cards, c.budget_start = budget_cards, budget_start
    start = NO_GUESS if guess is None else guess
    if cancel is not None:
        cancel_flag = cancel.flag
        c.cancel_flag = &cancel_flag[0]
    c.deadline = wall_seconds() + time_limit if time_limit > 0 else 0
    c.watch_signals = threading.current_thread() is threading.main_thread()
    memset(values, 0, sizeof(values))
    if tables is not None:
        pt, mt = &tables.t, &tables.m
        own, locked = True, False
        if tables.shared:
            if maxn:
                raise ValueError("solve_state: a shared table is the paranoid search's only")
            c.shared = True
            tt_start_bits = tt_bits
    else:
        own = locked = _TABLE_LOCK.acquire(blocking=False)
    if not own:
        # The shared table is in use: one of this solve's own, freed after it.
        private = Table(NULL, 0, 0, sizeof(MEntry) if maxn else sizeof(Entry), 0,
                        6 if maxn else 5, 0, 0, NULL)
        pt = mt = &private
    try:
        table_for(&c, mt if maxn else pt, tt_bits, tt_start_bits, own,
                  context_signature(&c, maxn))
    except BaseException:
        if locked:
            _TABLE_LOCK.release()
        raise
    try:
        with nogil:
            legal = root_values(&c, &s, maxn, values, only, start)
    finally:
        if locked:
            _TABLE_LOCK.release()
        if not own:
            free_table(&private)
    raise_if_stopped(&c, time_limit)
    out = {}
    for card in range(MAXC):
        if (legal >> card) & 1:
            out[card] = values[card]
    LAST_STATS["probes"] = c.probes
    LAST_STATS["avoid_nodes"] = c.avoid_nodes
    LAST_STATS["gain_nodes"] = c.gain_nodes
    LAST_STATS["tt_looks"] = c.looks
    LAST_STATS["tt_hits"] = c.hits
    LAST_STATS["avoid_tt_looks"] = c.alooks
    LAST_STATS["avoid_tt_hits"] = c.ahits
    LAST_STATS["cut_at"] = [c.cut_at[i] for i in range(5)]
    LAST_STATS["hints_used"] = c.hint_hits
    LAST_STATS["answers_used"] = c.answer_hits
    LAST_STATS["no_cut"] = c.no_cut
    LAST_STATS["no_cut_root_side"] = c.no_cut_root
    LAST_STATS["trick_starts_by_ending"] = {
        "open": c.ends_nodes[0], "free": c.ends_nodes[1], "owner": c.ends_nodes[2]}
    probes_by_card = {}
    for i in range(c.nprobes_logged):
        probes_by_card.setdefault(c.probe_log[i].card, []).append(
            (c.probe_log[i].b, c.probe_log[i].g, c.probe_log[i].nodes))
    LAST_STATS["probes_by_card"] = probes_by_card
    LAST_STATS["etc_cuts"] = c.etc_cuts
    LAST_STATS["budget_stops"] = c.budget_stops
    LAST_STATS["nodes_by_tricks_left"] = [c.dnodes[i] for i in range(17)]
    LAST_STATS["by_card"] = {card: (values[card], c.card_nodes[card], c.card_probes[card])
                             for card in range(MAXC) if (c.valued >> card) & 1}
    return out, c.nodes


include "_maxn.pxi"
include "_split.pxi"


def avoid_order(problem, path=(), *, int64_t opts=OPT_DEFAULT):
    """The cards the bottle question (`avoid`) tries after `path` (cards
    played from `problem` within its trick, as `split_node` takes them), in
    its order, and whether the mover plays against the root seat: what the
    tests hold its move ordering to."""
    cdef Ctx c
    cdef State s
    cdef int h, n, k, depth
    cdef bint maximise
    cdef int moves[MAXC]
    read_problem(problem, &c, &s, opts, MAXC)
    follow_path(&c, &s, path)
    if path and s.n == 0:
        raise ValueError("path: the trick has ended (its losers are worked out at its start)")
    h = c.order[s.leader][s.n]
    if h == c.lopaka:
        return (lopaka_card(&c, &s, h),), False
    maximise = c.holder_seat[h] == c.root or c.holder_seat[h] == c.partner
    depth = cb_popcount(in_play(&c, &s))
    n = avoid_moves(&c, &s, h, pointless_moves(&c, &s, h, in_play(&c, &s), depth), maximise,
                    moves)
    return tuple([moves[k] for k in range(n)]), not maximise
