"""One position's cards shared among threads answers as one solve
(solver/batch.py's `solve_split`, the `cards` and `guess` of `solve_hand`),
and so does each card's probes split into the answers to it
(solver/split.py; `split_node`, `probe_state`)."""

from __future__ import annotations

import random
import threading
import time

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.engine.events import Phase
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import _search
from cursedbottle.solver import split as split_module
from cursedbottle.solver.api import problem_of, root_cards, solve_hand
from cursedbottle.solver.batch import solve_split
from cursedbottle.solver.cancel import Cancelled, CancelToken
from cursedbottle.solver.model import Model
from cursedbottle.solver.sampling import random_hand, random_position
from stopping_support import big_hands, stop_midway


def _hands(rules: Rules, count: int, seed: str, most: int = 4) -> list[Hand]:
    """Engine hands by random legal play (the second bottle's cases need
    them), 1 to `most` tricks left (3 with many holders), every place in a trick."""
    rng = random.Random(f"split:{seed}")
    most = min(most, 3) if rules.holders >= 5 or rules.devils_eye else most
    out = []
    while len(out) < count:
        left = rng.randint(1, most)
        dealer = rng.randrange(rules.seats)
        hand = Hand(rules, dealer, *random_deal(rules, rng, dealer))
        while hand.phase is not Phase.OVER and (
            hand.phase is not Phase.PLAY or len(hand.tricks) < rules.tricks - left
            or len(hand.trick) < len(out) % rules.holders
        ):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase is Phase.PLAY:  # (Lopaka's card can end the hand first)
            out.append(hand)
    return out


@pytest.mark.parametrize("model", list(Model), ids=str)
@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_the_split_equals_one_solve(rules: Rules, model: Model) -> None:
    for hand in _hands(rules, 6, config_id(rules)):
        whole = solve_hand(hand, model=model)
        split = solve_split(hand, model=model, threads=2)
        assert (split.seat, split.values, split.model) == (whole.seat, whole.values, model)
        # The values come in the deck's order, as one solve's.
        assert list(split.values) == list(whole.values)


@pytest.mark.parametrize("rules", [r for r in CONFIGS if not r.second_bottle], ids=config_id)
def test_the_split_of_bigger_positions_equals_one_solve(rules: Rules) -> None:
    """Six tricks left (four where many cards make a trick), where the shared
    table's entries carry the search (at four and fewer its keys hardly
    meet): the copy of an entry must be read as written.  (A copy made word
    by word and read as the entry's 16-bit bounds, without may_alias, gave
    15 of 100 3p positions of six tricks wrong values.)"""
    rng = random.Random(f"split-bigger:{config_id(rules)}")
    wide = rules.holders >= 4 and (rules.holders >= 5 or rules.devils_eye or rules.teams)
    for _ in range(12 if wide else 30):
        pos = random_position(rules, rng, 4 if wide else 6, in_trick=0)
        assert solve_split(pos, threads=2).values == solve_hand(pos.to_hand()).values


class _YieldingCondition(threading.Condition):
    """A condition whose every release gives the other threads a moment:
    the schedule an unlucky switch of threads makes, made every time."""

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        time.sleep(0.0005)


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_the_split_answers_as_one_solve_whenever_the_threads_switch(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The threads of a split solve hand each other answers under one lock;
    with the lock letting the other thread in at every release, a probe
    must still wait for every answer taken.  (An answer was counted as
    running only once its thread had taken the lock a second time: the
    card's owner, woken in between, saw the probe done without it, and 4 of
    400 positions of 3p, 4p, imp-3p and 2p with Lopaka got wrong values.)"""
    monkeypatch.setattr(threading, "Condition", _YieldingCondition)
    rng = random.Random(f"split-switch:{config_id(rules)}")
    few = rules.holders >= 5 or rules.devils_eye or rules.second_bottle
    for _ in range(10 if few else 24):
        hand = random_hand(rules, rng, rng.randint(2, 3 if few else 5))
        assert solve_split(hand, threads=2).values == solve_hand(hand).values


def test_a_probe_is_not_done_while_an_answer_taken_is_out() -> None:
    """The bookkeeping the test above holds under every schedule, without
    one: answers taken but not yet searched keep their probe open."""
    probe = split_module._Probe(5, [(1,), (2,)])
    assert (probe.next_path(), probe.next_path(), probe.next_path()) == (0, 1, None)
    assert not probe.done


def test_young_answers_wait_for_the_first() -> None:
    """With speculation a free thread takes a probe's later answers only
    once its first is in (below b, it settles the probe and the rest were
    wasted); without, at once."""
    probe = split_module._Probe(5, [(1,), (2,), (3,)])
    assert probe.next_path(young=False) == 0
    assert probe.next_path(young=False) is None
    probe.first_in = True
    assert probe.next_path(young=False) == 1
    other = split_module._Probe(5, [(1,), (2,)])
    assert (other.next_path(), other.next_path()) == (0, 1)


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_probes_beside_the_plan_change_no_value(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A thread with nothing else to do probes a card at a bound of its
    own (`Split._speculation`) and the card's plan takes its answer.  That
    happens where a thread waits on the last card (a few hands in a
    hundred), so here a free thread speculates before anything else: on one
    thread (each such probe then answers before the plan's own, whose bound
    it moves) and on two, the values are one solve's; without speculation
    none is run, nor where the plan has no bottle question to ask."""
    made: list[split_module.Split] = []

    class Eager(split_module.Split):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

        def _next_job(self):  # type: ignore[no-untyped-def]
            if self.speculate and self.error is None:
                for state in self.active.values():
                    b = self._speculation(state)
                    if b is not None:
                        self.speculated += 1
                        return self._register(state, b, mine=False)
            return super()._next_job()

    monkeypatch.setattr(split_module, "Split", Eager)
    rng = random.Random(f"split-speculate:{config_id(rules)}")
    few = rules.holders >= 5 or rules.devils_eye or rules.second_bottle
    tables = _search.SearchTables(shared=True)
    used = 0
    # (A side of two, and the second bottle, have no bottle question; a seat
    # alone in the team game has.)
    asks = not rules.second_bottle and (not rules.teams or rules.players == 5 or rules.singles)
    # (Five in teams, three or four tricks from the end: the seat alone's
    # ending is mostly settled there since `one-outnumbers`, no bottle
    # question asked in 1,000 hands; from up to six tricks it is.)
    most = 6 if rules.teams and rules.players == 5 else (4 if few else 6)
    for k in range(400 if asks else 8):
        if used and k >= 8:
            break
        hand = random_hand(rules, rng, rng.randint(3, most))
        whole = solve_hand(hand).values
        made.clear()
        alone = split_module.solve_within_cards(hand, threads=1, tables=tables)
        assert alone.values == whole
        used += made[0].speculation_used
        assert made[0].speculation_used == made[0].speculated
        assert solve_split(hand, threads=2).values == whole
        made.clear()
        assert solve_split(hand, threads=2, speculate=False).values == whole
        assert not made[0].speculated
    tables.release()
    assert bool(used) == asks


def _racing(hands: list[Hand], tables: _search.SearchTables, rounds: int) -> list[dict]:
    """Two threads solving every root card of `hands` at once into `tables`,
    both the same card at the same moment (a barrier before each), so that
    they read and write the same entries; each thread's values, merged."""
    jobs = [(i, card) for i, hand in enumerate(hands) for card in root_cards(hand)] * rounds
    barrier = threading.Barrier(2)
    found: list[list[dict]] = [[{} for _ in hands] for _ in range(2)]
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i, card in jobs:
                barrier.wait()
                part = solve_hand(hands[i], cards=[card], tables=tables)
                found[t][i].update(part.values)
        except BaseException as error:  # raised in the test below
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=work, args=(t,)) for t in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert found[0] == found[1]
    return found[0]


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_a_shared_table_raced_by_two_threads_keeps_every_value(rules: Rules) -> None:
    """The table `solve_split`'s threads share is read and written without a
    lock: two threads searching the same card into it at once, again and
    again (the second round meets the first's entries), give one solve's
    values; so do several deals of one rule set meeting in it."""
    hands = _hands(rules, 3, f"race:{config_id(rules)}", most=5)
    tables = _search.SearchTables(shared=True)
    try:
        got = _racing(hands, tables, rounds=2)
    finally:
        tables.release()
    assert got == [solve_hand(hand).values for hand in hands]


@pytest.mark.parametrize("differ", [0, 1, 4])
def test_a_torn_shared_entry_is_refused(differ: int) -> None:
    """A reader of the shared table may see an entry's words from two
    writers; only a whole one is taken, whichever key word the two differ in
    (the words of keys often agree)."""
    a = [0x1234_5678_9ABC_DEF0, 0x0F0F_0F0F, 0xFFFF_0000_1111, 7, (5 << 40) | 3]
    b = list(a)
    b[differ] ^= 1 << 17
    reads = _search.shared_entry_reads(a, b, -3, 12)
    assert reads[0] == (True, (-3, -3))  # every word a's
    assert sum(whole for whole, _ in reads) < len(reads) // 2  # most are torn
    assert all(read == ((-3, -3) if whole else None) for whole, read in reads), reads


def test_a_shared_table_is_the_paranoid_search_s_only() -> None:
    hand = _hands(Rules(3), 1, "maxn")[0]
    with pytest.raises(ValueError, match="shared table"):
        solve_hand(hand, model="maxn", tables=_search.SearchTables(shared=True))


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_each_card_alone_gives_its_groups_values(rules: Rules) -> None:
    """Every legal card is valued by exactly one of the root cards' solves,
    whatever guess it starts from: a card's group never spills into a
    neighbour's."""
    rng = random.Random(f"alone:{config_id(rules)}")
    for hand in _hands(rules, 4, f"alone:{config_id(rules)}"):
        whole = solve_hand(hand)
        cards = root_cards(hand)
        assert len(set(cards)) == len(cards) and set(cards) <= set(whole.values)
        seen = {}
        for card in cards:
            part = solve_hand(hand, cards=[card], guess=rng.randint(-60, 60))
            assert card in part.values
            assert not set(part.values) & set(seen)
            seen.update(part.values)
        assert seen == whole.values


def test_lopaka_to_move_has_one_card() -> None:
    rng = random.Random(4)
    for _ in range(200):
        pos = random_position(Rules(2), rng, rng.randint(2, 5), in_trick=rng.randrange(3))
        hand = pos.to_hand()
        if hand.holder_to_play() == hand.lopaka:
            break
    else:
        pytest.fail("no position with Lopaka to move drawn")
    assert len(root_cards(hand)) == 1
    whole = solve_hand(hand)
    assert solve_split(hand, threads=2).values == whole.values


def _slow() -> Hand:
    """A first lead of three players under max-n: many seconds a card."""
    return random_position(Rules(3), random.Random(11), 11, in_trick=0).to_hand()


def _slow_paranoid() -> Hand:
    """A first lead of five players in the Bottle Imp: seconds on one thread."""
    rules = Rules(5, edition=Edition.BOTTLE_IMP)
    return random_position(rules, random.Random(1), 10, in_trick=0).to_hand()


def _threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(("cb-batch", "cb-split"))]


def test_the_time_limit_is_wall_clock_and_stops_every_thread() -> None:
    t0 = time.monotonic()
    with pytest.raises(TimeoutError):
        solve_split(_slow(), model="maxn", threads=2, time_limit=0.3)
    assert time.monotonic() - t0 < 5
    assert _threads() == []


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_a_split_cancelled_midway_leaves_its_kept_table_true(rules: Rules) -> None:
    """The table the threads share is kept between calls: a split cancelled
    midway, then the same position split again, gets one solve's values."""
    def solver():
        return lambda hand, token: solve_split(hand, threads=2, cancel=token).values

    # (Two threads share the work: bigger positions, so that the cancel lands midway.)
    stop_midway(big_hands(rules, Model.PARANOID, 3, "split", nodes=400_000), solver)


def test_cancelling_stops_every_thread() -> None:
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    with pytest.raises(Cancelled):
        solve_split(_slow(), model="maxn", threads=2, cancel=token)
    assert _threads() == []


def test_a_split_within_cards_stops_every_thread_at_its_time_or_token() -> None:
    t0 = time.monotonic()
    with pytest.raises(TimeoutError, match=r"0\.3 s"):
        solve_split(_slow_paranoid(), threads=2, time_limit=0.3)
    assert time.monotonic() - t0 < 5
    assert _threads() == []
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    with pytest.raises(Cancelled):
        solve_split(_slow_paranoid(), threads=2, cancel=token)
    assert _threads() == []


def test_threads_are_checked_and_a_setup_hand_refused() -> None:
    rules = Rules(3, edition=Edition.BOTTLE_IMP)
    hand = _hands(rules, 1, "bad")[0]
    with pytest.raises(ValueError, match="threads"):
        solve_split(hand, threads=0)
    # a card the solve does not search (another seat's) is named, not answered empty
    other = next(c for c in hand.deck.cards if c not in root_cards(hand)
                 and c not in solve_hand(hand).values)
    with pytest.raises(ValueError, match=f"cards: {other.ascii} not among"):
        solve_hand(hand, cards=[other])
    setup = Hand(rules, 0, *random_deal(rules, random.Random(1), 0))
    with pytest.raises(ValueError, match="phase"):
        solve_split(setup, threads=2)


def _ready(hand: Hand) -> tuple[object, _search.SearchTables]:
    """The paranoid search's input for `hand` and a shared table made ready
    for its probes."""
    problem = problem_of(hand, Model.PARANOID)[0]
    tables = _search.SearchTables(shared=True)
    _search.start_solve(problem, tables=tables, tt_bits=16)
    return problem, tables


def _probe(problem, tables, path, b: int) -> int:
    return _search.probe_state(problem, path, b, tables=tables, tt_bits=16)[0]


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_a_probe_says_whether_the_value_reaches_b(rules: Rules) -> None:
    """`probe_state` below a card (and at the position itself) is a
    fail-soft zero-window search: at least b exactly when the value is, and
    its answer a bound on the value on the side it fails."""
    for hand in _hands(rules, 4, f"probe:{config_id(rules)}"):
        problem, tables = _ready(hand)
        values = _search.solve_state(problem)[0]
        best = max(values.values())
        cases = [((card,), values[card]) for card in _search.root_cards(problem)]
        for path, v in [*cases, ((), best)]:
            for b in (v - 1, v, v + 1):
                g = _probe(problem, tables, path, b)
                assert (g >= b) == (v >= b), (path, b, g, v)
                # fail-soft: an upper bound where it fails low, else a lower one
                assert (v <= g) if g < b else (v >= g), (path, b, g, v)
        tables.release()


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_the_answers_to_a_card_bound_its_value(rules: Rules) -> None:
    """Splitting a probe is sound: after each card, every answer of the
    first seat against the root side with a choice (Lopaka's and single
    cards played through) leaves the card's value or more, and one leaves no
    more.  And somewhere in every rule set there is such a choice to split."""
    split = 0
    for hand in _hands(rules, 6, f"answers:{config_id(rules)}"):
        problem, tables = _ready(hand)
        values = _search.solve_state(problem)[0]
        for card in _search.root_cards(problem):
            path: tuple[int, ...] = (card,)
            moves: tuple[int, ...] = ()
            while True:
                *_, moves, minimise = _search.split_node(problem, path)
                if len(moves) != 1:
                    break
                path += moves
            if len(moves) < 2 or not minimise:
                continue
            split += 1
            v = values[card]
            assert all(_probe(problem, tables, (*path, m), v) >= v for m in moves)
            assert any(_probe(problem, tables, (*path, m), v + 1) <= v for m in moves)
        tables.release()
    assert split


@pytest.mark.parametrize(
    "rules",
    [Rules(3), Rules(2), Rules(4, hot_bottle=True), Rules(2, edition=Edition.BOTTLE_IMP),
     Rules(4, edition=Edition.BOTTLE_IMP, teams=True)],
    ids=config_id,
)
def test_splitting_within_cards_is_one_solve_further_from_the_end(rules: Rules) -> None:
    """Positions big enough that the answers of one probe run on both
    threads at once and some are cut off by a sibling's answer below b."""
    rng = random.Random(f"deeper:{config_id(rules)}")
    for _ in range(3):
        pos = random_position(rules, rng, min(6, rules.tricks), in_trick=rng.randrange(2))
        hand = pos.to_hand()
        whole = solve_hand(hand)
        for within in (True, False):
            split = solve_split(hand, threads=2, within_cards=within)
            assert split.values == whole.values


def test_a_bad_path_or_an_unready_table_is_refused() -> None:
    hand = random_position(Rules(3), random.Random(3), 5, in_trick=0).to_hand()
    problem, tables = _ready(hand)
    mask = hand.legal_play_mask()
    legal = [i for i in range(36) if mask >> i & 1]
    illegal = next(i for i in range(36) if i not in legal)
    with pytest.raises(ValueError, match=f"card {illegal} is not legal"):
        _search.split_node(problem, (illegal,))
    with pytest.raises(ValueError, match="not a card"):
        _probe(problem, tables, (99,), 0)
    path = (legal[0],)
    for _ in range(2):  # the trick played to its end, then one card more
        path += _search.split_node(problem, path)[4][:1]
    with pytest.raises(ValueError, match="trick has ended"):
        _search.split_node(problem, (*path, path[0]))
    with pytest.raises(ValueError, match="not ready"):
        _probe(problem, _search.SearchTables(shared=True), (), 0)
    with pytest.raises(ValueError, match="99 is not a card"):
        _search.all_values(problem, {99: 0})
    tables.release()
