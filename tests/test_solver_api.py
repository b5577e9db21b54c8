"""The solver's Python API: solve on engine hands and analyse on hand records."""

from __future__ import annotations

import json
import random
import statistics

import pytest
from conftest import CONFIGS as EVERY_RULE_SET
from conftest import config_id
from cursedbottle.engine.hand import Hand, random_deal
from cursedbottle.engine.position import Position
from cursedbottle.engine.records import HandRecord, RecordError, record_of, replay_hand
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import analyse, solve
from cursedbottle.solver.reference import reference_solve

#: Two cards of one holder with nothing in play between them are NOT
#: interchangeable when both lie below the price: here seat 2's A♠ and 2♠
#: (2♦ and 2♥ are gone, the price is 3♦).  Whichever of them buys becomes the
#: price, and the other then lies below it or above it.  A solver that merged
#: them answered 0 for the 10♠; the reference says -10.
BELOW_PRICE_CASE = {
    "rules": {"players": 4, "hot_bottle": False},
    "lopaka": None,
    "hands": [["AD", "4D", "10S"], ["3S", "4S", "7S"], ["AS", "2S", "9S"], ["9D", "QS"]],
    "pile": ["6S", "8S", "JS", "QD"],
    "price": "3D",
    "owner": 3,
    "taken": [
        [],
        ["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"],
        ["AH", "2D", "2H", "3H", "5D", "7D", "8D", "QH"],
        ["6D", "10D", "JD"],
    ],
    "leader": 3,
    "trick": ["5S"],
}


def test_cards_below_the_price_are_not_merged() -> None:
    pos = Position.from_json(BELOW_PRICE_CASE)
    _, want, _ = reference_solve(pos.to_hand())
    assert {c.ascii: v for c, v in want.items()} == {"10S": -10}
    assert solve(pos).to_json()["values"] == {"10S": -10}


def test_solve_accepts_a_hand_and_rejects_other_phases() -> None:
    rules = Rules(3)
    hand = Hand(rules, 0, *random_deal(rules, random.Random(1)))
    with pytest.raises(ValueError, match="phase"):
        solve(hand)


def _played_hand(rules: Rules, seed: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand(rules, rng.randrange(rules.seats), *random_deal(rules, rng))
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


CONFIGS = [
    Rules(3), Rules(4, hot_bottle=True), Rules(2), Rules(2, bright_house=True, hot_bottle=True),
]


@pytest.mark.parametrize("rules", CONFIGS, ids=["3p", "4p-hot", "2p-lopaka", "2p-bright-hot"])
def test_analyse_matches_reference_on_the_last_tricks(rules: Rules) -> None:
    """The last three tricks of a random hand, every card: the values equal the
    reference's on the hand rebuilt by the engine from the truncated record."""
    hand = _played_hand(rules, 7)
    record = record_of(hand)
    total = len(record.plays)
    first = total - 3 * rules.holders
    steps = analyse(record.to_json(), first=first)
    assert [s.index for s in steps] == list(range(first, total))
    assert [s.played for s in steps] == list(record.plays[first:])
    seen_lopaka = False
    for step in steps:
        partial = record.to_json()
        partial["plays"] = partial["plays"][: step.index]
        before = replay_hand(HandRecord.from_json(partial))
        if before.is_over or before.to_act()[0] != step.seat:
            # The engine already moved Lopaka: take his card back through a position.
            assert rules.lopaka and step.seat == record.lopaka
            assert list(step.solution.values) == [step.played]
            seen_lopaka = True
            continue
        seat, want, _ = reference_solve(before)
        assert (step.seat, step.solution.values) == (seat, want)
        assert step.loss >= 0
    assert seen_lopaka or not rules.lopaka


def test_analyse_rejects_an_illegal_record() -> None:
    hand = _played_hand(Rules(3), 3)
    data = record_of(hand).to_json()
    data["plays"][0], data["plays"][1] = data["plays"][1], data["plays"][0]
    with pytest.raises(RecordError):
        analyse(data, first=30)


def test_concurrent_solves_agree() -> None:
    """The search runs without the GIL; a solve that finds the kept table busy
    gets one of its own, so threads never share a table."""
    import threading

    from cursedbottle.solver.sampling import random_position

    pos = random_position(Rules(4), random.Random(5), 5, in_trick=1)
    want = solve(pos).values
    results: list[dict] = []

    def work() -> None:
        results.append(solve(pos).values)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


KEY_CONFIGS = [
    Rules(3), Rules(4, hot_bottle=True), Rules(2, bright_house=True),
    Rules(3, edition=Edition.BOTTLE_IMP), Rules(6, edition=Edition.BOTTLE_IMP),
    Rules(5, edition=Edition.BOTTLE_IMP, teams=True),
    Rules(6, edition=Edition.BOTTLE_IMP, teams=True),
]


@pytest.mark.parametrize(
    "rules", KEY_CONFIGS,
    ids=["3p", "4p-hot", "2p-bright", "imp-3p", "imp-6p", "imp-5p-teams", "imp-6p-teams"],
)
def test_exact_keys_beyond_the_pattern(rules: Rules) -> None:
    """Beyond the cards a pattern key can hold (33+ cards in play with five or
    six holders) the table keys name the cards themselves; lowering that limit
    runs the same positions through the exact keys, and through both kinds in
    one search, and with the pattern switched off altogether."""
    from cursedbottle.solver import _search
    from cursedbottle.solver.api import solve_hand
    from cursedbottle.solver.sampling import random_position

    rng = random.Random(f"keys:{rules}")
    no_canon = _search.ALL_OPTIONS & ~_search.OPTIONS["canon"]
    for i in range(6):
        hand = random_position(rules, rng, 3, in_trick=i % rules.holders).to_hand()
        seat, want, _ = reference_solve(hand)
        for key_cap, opts in ((0, None), (2 * rules.holders, None), (None, no_canon)):
            got = solve_hand(hand, opts, key_cap=key_cap)
            assert (got.seat, got.values) == (seat, want), (i, key_cap)


def test_the_solver_refuses_what_its_key_cannot_hold() -> None:
    from cursedbottle.solver import _search
    from cursedbottle.solver.problem import Bottle, Problem

    args = dict(
        hands=(1, 2, 4), holder_seat=(0, 1, 2), order=((0, 1, 2), (1, 2, 0), (2, 0, 1)),
        root=0, pile=0, bottle=Bottle(price=3), taken=(0, 0, 0), leader=0, suits=(0, 1, 2),
    )
    assert _search.solve_state(Problem(points=(1, 15, 2), **args))[0]
    with pytest.raises(ValueError, match="points"):
        _search.solve_state(Problem(points=(1, 16, 2), **args))
    with pytest.raises(ValueError, match="sizes"):
        _search.solve_state(Problem(points=(1, 1, 1), **{**args, "hands": (1,) * 7}))


@pytest.mark.parametrize("players", [5, 6])
def test_second_bottle_before_and_after_the_first_purchase(players: int) -> None:
    """The second bottle in endgames where a bottle still stands at 19 (random
    play rarely keeps one there that long): both unbought, and the first one
    bought (the untouched one then is for sale).  A purchase below the other
    bottle's price puts that one on sale."""
    from cursedbottle.solver import solve_hand
    from cursedbottle.solver.sampling import random_hand

    rules = Rules(players, edition=Edition.BOTTLE_IMP, second_bottle=True)
    rng = random.Random(f"second-bottle:{players}")
    for i in range(8):
        hand = random_hand(rules, rng, 3)
        deck = hand.deck
        price = None if hand.price_card is None else deck.cards[hand.price_card]
        for shelf in ([(None, None)], [(price, hand.owner)]):
            start = Hand.at_position(
                rules, [deck.cards_of(m) for m in hand.holdings],
                [deck.cards[c] for c in hand.pile],
                None, None, [deck.cards_of(m) for m in hand.taken], hand.leader, [],
                shelf=shelf,
            )
            seat, want, _ = reference_solve(start)
            got = solve_hand(start)
            assert (got.seat, got.values) == (seat, want), (i, shelf)


def _first_lead_of_three() -> Position:
    """A 3-player first lead: far beyond what max-n finishes in a test."""
    from cursedbottle.solver.sampling import random_position

    return random_position(Rules(3), random.Random("first lead"), 11, in_trick=0)


def test_maxn_gives_up_at_its_time_limit() -> None:
    with pytest.raises(TimeoutError, match="nodes searched"):
        solve(_first_lead_of_three(), time_limit=0.2, model="maxn")


def test_maxn_stops_when_cancelled_from_another_thread() -> None:
    import threading

    from cursedbottle.solver import solve_hand
    from cursedbottle.solver.cancel import Cancelled, CancelToken

    token = CancelToken()
    threading.Timer(0.2, token.cancel).start()
    with pytest.raises(Cancelled):
        solve_hand(_first_lead_of_three().to_hand(), cancel=token, model="maxn")


def test_the_profile_counts_each_root_cards_nodes_and_probes() -> None:
    """`_search.LAST_STATS["by_card"]`: for each root card valued (one of each
    group of equivalent cards), its value, nodes and probes; together no more
    than the solve's nodes."""
    from cursedbottle.solver import _search
    from cursedbottle.solver.sampling import random_position

    pos = random_position(Rules(3), random.Random("by-card"), 6, in_trick=0)
    sol = solve(pos)
    by_card = _search.LAST_STATS["by_card"]
    assert by_card and sum(n for _, n, _ in by_card.values()) <= sol.nodes
    values = {c.index: v for c, v in sol.values.items()}
    for card, (value, nodes, probes) in by_card.items():
        assert values[card] == value and nodes >= 0 and probes >= 0
    assert any(probes for _, _, probes in by_card.values())


@pytest.mark.parametrize("rules", EVERY_RULE_SET, ids=config_id)
def test_the_probe_log_agrees_with_the_values(rules: Rules) -> None:
    """`LAST_STATS["probes_by_card"]`: each MTD(f) probe "value >= b?" of each
    root card with its fail-soft answer g, which bounds the card's value (g >= b:
    at least g; else at most g); the probes' nodes are the card's.  And the
    other counters of bench/solver_profile.py stay within the solve's nodes."""
    from cursedbottle.solver import _search, solve_hand
    from test_solver_diff import diff_positions, second_bottle_hands

    seed = f"probe-log:{config_id(rules)}"
    if rules.second_bottle:  # (a position has one bottle: engine hands)
        hands = list(second_bottle_hands(rules, 8, seed))
    else:
        hands = [pos.to_hand() for pos in diff_positions(rules, 8, seed)]
    probed = 0
    for hand in hands:
        sol = solve_hand(hand)
        stats = _search.LAST_STATS
        for card, (value, nodes, probes) in stats["by_card"].items():
            log = stats["probes_by_card"].get(card, [])
            assert len(log) == probes and sum(n for _, _, n in log) <= nodes
            for b, g, _ in log:
                assert value >= g if g >= b else value <= g, (card, value, log)
            probed += len(log)
        assert sum(stats["trick_starts_by_ending"].values()) <= sol.nodes
        assert 0 <= stats["no_cut_root_side"] <= stats["no_cut"] <= sol.nodes
    assert probed, "no position needed a probe"


def test_the_profile_benchmark_runs() -> None:
    """bench/solver_profile.py, the tool behind solver/README.md's profiles."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "bench" / "solver_profile.py"
    out = subprocess.run(
        [sys.executable, str(script), "--suite", "3p-5", "--positions", "4", "--top", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.startswith("3p-5: 4 positions") and "#" in out and " value " in out, out


def _solver_bench(*args: str):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "bench" / "solver_bench.py"
    return subprocess.run(
        [sys.executable, str(script), "--suite", "3p-5", "--positions", "3", "--no-reference",
         "--json", *args],
        capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize(("args", "shared"), [(["--threads", "2"], "true"),
                                              (["--threads", "2", "--own-tables"], "false")])
def test_the_solver_benchmark_splits_with_one_table_or_a_table_each(args, shared) -> None:
    """bench/solver_bench.py --threads: the figures of solver/README.md's
    fifteenth part."""
    run = _solver_bench(*args)
    assert run.returncode == 0, run.stderr
    assert f'"shared_table": {shared}' in run.stdout and '"threads": 2' in run.stdout, run.stdout


def test_the_solver_benchmark_warms_its_table_on_a_position_it_does_not_count() -> None:
    """Before a suite the benchmark solves one more of its positions, untimed
    (a process's first touch of a table can wait on the kernel); the suite's
    own positions and their nodes are the same either way."""
    warm, cold = (json.loads(_solver_bench(*a).stdout) for a in ([], ["--no-warm-up"]))
    assert warm["warm_up_s"] is not None and cold["warm_up_s"] is None
    assert warm["sum_nodes"] == cold["sum_nodes"] and warm["positions"] == cold["positions"] == 3


@pytest.mark.parametrize(("args", "said"), [
    (["--threads", "0"], "--threads: 0 is not at least 1"),
    (["--own-tables"], "--own-tables needs --threads 2 or more"),
    (["--time-limit", "-1"], "--time-limit: -1 seconds is not more than 0"),
    (["--time-limit", "0"], "--time-limit: 0 seconds is not more than 0"),
])
def test_the_solver_benchmark_refuses_a_thread_count_it_cannot_use(args, said) -> None:
    run = _solver_bench(*args)
    assert run.returncode == 2 and said in run.stderr, run.stderr


def _solver_bench_module():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "solver_bench.py"
    spec = importlib.util.spec_from_file_location("solver_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("timeouts", "exact"), [
    (0, (True, True, True)),
    (1, (True, True, False)),
    (2, (True, True, False)),
    (3, (True, False, False)),
    (9, (True, False, False)),
    (10, (False, False, False)),
])
def test_a_benchmark_figure_past_the_time_limit_meets_no_target(timeouts, exact) -> None:
    """Positions that time out are the slowest of a suite: a figure whose rank
    lies below all of them (of 20: the median, the mean of the 10th and 11th,
    while at most 9 time out; the p90, the 18th, while at most 2 do) is exact
    and may meet its target; one that reads them is a lower bound and meets
    none, however low."""
    bench = _solver_bench_module()
    assert bench.exact_figures(20, timeouts) == exact
    times = sorted([0.001 * (i + 1) for i in range(20 - timeouts)] + [20.0] * timeouts)
    row = {"positions": 20, "timeouts": timeouts, "median_s": statistics.median(times),
           "p90_s": bench.pct(times, 0.9), "max_s": max(times)}
    for which, target in enumerate([(15.0, None, None), (None, 25.0, None), (None, None, 25.0)]):
        assert bench.target_met(row, target) == exact[which], (which, row)
