"""Benchmark of the double-dummy solver on fixed-seed suites of positions.

Each suite is 20 positions reached by random legal play through the engine
(random deal, piles, passes and cards; Lopaka by his policy), stopped at the
start of a trick with the given number of tricks left (the suites named
...-tips: the first lead after a setup by the tips); 11 left with three
players is the first lead of a real hand (of either game: the Bottle Imp
suites are named imp-...; with 5 and 6 players the first lead is 10 and 8
tricks left, with four and in Devil's Eye 8).  Every position is solved in full
(a value for every legal card).  Per suite: median, p90 and max time, median
nodes and nodes/s; on the small suites the pure-Python reference solves the
same positions in the same run and the speed ratio is printed.

    .venv/bin/python bench/solver_bench.py            # everything (a few minutes)
    .venv/bin/python bench/solver_bench.py --quick    # 5 positions per suite
    .venv/bin/python bench/solver_bench.py --first-leads --time-limit 30   # beside the targets
    .venv/bin/python bench/solver_bench.py --without tt --suite 3p-8
    .venv/bin/python bench/solver_bench.py --with history --suite 3p-8   # one not on by default
    .venv/bin/python bench/solver_bench.py --game cursed-bottle   # only one game's suites
    .venv/bin/python bench/solver_bench.py --model both --suite 3p-8   # paranoid, then maxn
    .venv/bin/python bench/solver_bench.py --first-leads --threads 2   # each position on 2 threads
    .venv/bin/python bench/solver_bench.py --suite 3p-11 --threads 2 --own-tables   # a table each
    .venv/bin/python bench/solver_bench.py --suite 3p-11 --threads 2 --whole-cards  # card a thread
    .venv/bin/python bench/solver_bench.py --suite 3p-11 --threads 2 --no-speculation

Each row also counts the flat positions: those where every legal card gets
the same value (the model then ranks nothing).  `--model both` solves every
suite under both models on the same positions, one row each.  `--time-limit`
gives up on a position after that many seconds (counted, and timed at the
limit): a figure whose rank falls among such positions is a lower bound,
printed after '>', and meets no target; one below them all is exact.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import time

from cursedbottle.bots import make_bot
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.position import Position
from cursedbottle.engine.rules import Edition, Rules
from cursedbottle.solver import Model, _search, solve
from cursedbottle.solver.batch import solve_split
from cursedbottle.solver.reference import reference_solve
from cursedbottle.solver.sampling import random_position

#: name -> (rules, tricks left, whether the reference runs on it by default)
SUITES: dict[str, tuple[Rules, int, bool]] = {
    "3p-5": (Rules(3), 5, True),
    "3p-8": (Rules(3), 8, False),
    "3p-11": (Rules(3), 11, False),
    "4p-5": (Rules(4), 5, True),
    "4p-8": (Rules(4), 8, False),
    "2p-lopaka-5": (Rules(2), 5, False),
    "2p-lopaka-8": (Rules(2), 8, False),
    "2p-lopaka-11": (Rules(2), 11, False),
    # The original Bottle Imp (36 cards for 3-4 players, 54 for 5-6; coins 1-6).
    "imp-3p-8": (Rules(3, edition=Edition.BOTTLE_IMP), 8, False),
    "imp-3p-11": (Rules(3, edition=Edition.BOTTLE_IMP), 11, False),
    "imp-4p-8": (Rules(4, edition=Edition.BOTTLE_IMP), 8, False),
    "imp-5p-6": (Rules(5, edition=Edition.BOTTLE_IMP), 6, False),
    "imp-5p-7": (Rules(5, edition=Edition.BOTTLE_IMP), 7, False),
    "imp-6p-5": (Rules(6, edition=Edition.BOTTLE_IMP), 5, False),
    "imp-6p-6": (Rules(6, edition=Edition.BOTTLE_IMP), 6, False),
    # The first leads of five and six players (10 and 8 tricks).
    "imp-5p-10": (Rules(5, edition=Edition.BOTTLE_IMP), 10, False),
    "imp-6p-8": (Rules(6, edition=Edition.BOTTLE_IMP), 8, False),
    # Devil's Eye (two players, each card from either of two hands): 8 tricks
    # left is the first lead.
    "imp-2p-3": (Rules(2, edition=Edition.BOTTLE_IMP), 3, True),
    "imp-2p-4": (Rules(2, edition=Edition.BOTTLE_IMP), 4, False),
    "imp-2p-5": (Rules(2, edition=Edition.BOTTLE_IMP), 5, False),
    "imp-2p-6": (Rules(2, edition=Edition.BOTTLE_IMP), 6, False),
    "imp-2p-8": (Rules(2, edition=Edition.BOTTLE_IMP), 8, False),
    # Team mode: the partner maximises too (no `avoid`, no static bounds).
    "imp-4p-teams-6": (Rules(4, edition=Edition.BOTTLE_IMP, teams=True), 6, False),
    "imp-6p-teams-5": (Rules(6, edition=Edition.BOTTLE_IMP, teams=True), 5, False),
    "imp-4p-teams-8": (Rules(4, edition=Edition.BOTTLE_IMP, teams=True), 8, False),
}
#: First leads as the bots meet them: the pile and the passes by the tips
#: (the heuristic bot: low cards out, short suits first), not at random.
#: Random passes leave cards below the price spread anyhow, and the other
#: seats can then mostly force the bottle on the leader (a flat position,
#: nearly all bottle question); after the tips every seat keeps few low
#: cards, and the points game decides more often.
TIPS_SUITES: dict[str, Rules] = {
    "3p-11-tips": Rules(3, hands=1),
    "imp-3p-11-tips": Rules(3, edition=Edition.BOTTLE_IMP, hands=1),
    "4p-8-tips": Rules(4, hands=1),
    "2p-lopaka-11-tips": Rules(2, hands=1),
}
SUITES.update({name: (rules, rules.tricks, False) for name, rules in TIPS_SUITES.items()})
#: The first lead of each rule set: suite -> the solver issue's targets
#: (median, p90, max seconds; None: none set), printed beside the figures.
FIRST_LEADS = {
    "3p-11": (0.020, 0.100, 1.0),
    "imp-3p-11": (0.020, 0.100, 1.0),
    "4p-8": (0.010, None, None),
    "imp-4p-8": (0.010, None, None),
    "2p-lopaka-11": (0.010, None, None),
    "imp-4p-teams-8": (0.3, None, None),
    "imp-2p-8": (1.0, None, None),
    "imp-5p-10": (1.0, None, None),
    "imp-6p-8": (1.0, None, None),
    # The same rule sets' first leads after the tips' setup (not the suites).
    "3p-11-tips": (0.020, 0.100, 1.0),
    "imp-3p-11-tips": (0.020, 0.100, 1.0),
    "4p-8-tips": (0.010, None, None),
    "2p-lopaka-11-tips": (0.010, None, None),
}
#: The issue's bars: suite -> median seconds.
BARS = {"3p-8": 0.020, "3p-11": 1.0, "4p-8": 0.5}


def positions(name: str, count: int):
    if name in TIPS_SUITES:
        rules = TIPS_SUITES[name]
        return [tips_first_lead(rules, f"solver-bench:{name}:{i}") for i in range(count)]
    rules, left, _ = SUITES[name]
    rng = random.Random(f"solver-bench:{name}")
    return [random_position(rules, rng, left, in_trick=0) for _ in range(count)]


def tips_first_lead(rules: Rules, seed: str) -> Position:
    """The first lead of a one-hand game whose pile and passes follow the tips."""
    game = Game(rules, seed=seed)
    tips = make_bot("heuristic", 0)
    while game.hand.phase is not Phase.PLAY:
        game.apply(tips.act(game.view(game.player_at(game.to_act()[0]))))
    return Position.from_hand(game.hand)


#: The longest the uncounted solve before a suite takes (`run_suite`).
WARM_UP_S = 1.0


def rank(q: float, n: int) -> int:
    """The place in n sorted values that `pct` reads for the q-quantile."""
    return min(n - 1, round(q * (n - 1)))


def pct(values: list[float], q: float) -> float:
    return sorted(values)[rank(q, len(values))]


def exact_figures(count: int, timeouts: int) -> tuple[bool, bool, bool]:
    """Which of (median, p90, max) read no position that timed out.  Those
    are the slowest (each timed at the limit or past it, every other under
    it), so a figure whose ranks lie below theirs is exact whatever they
    would have taken, and the others are lower bounds."""
    finished = count - timeouts
    return count // 2 < finished, rank(0.9, count) < finished, timeouts == 0


def target_met(row: dict, target: tuple[float | None, ...]) -> bool:
    """Whether a row's wall times meet (median, p90, max): each figure with a
    target exact (`exact_figures`) and within it."""
    got = (row["median_s"], row["p90_s"], row["max_s"])
    exact = exact_figures(row["positions"], row["timeouts"])
    return all(t is None or (e and g <= t) for g, t, e in zip(got, target, exact, strict=True))


def run_suite(
    name: str, count: int, opts: int, reference: bool, model: Model = Model.PARANOID,
    time_limit: float | None = None, threads: int = 1, shared_table: bool = True,
    within_cards: bool = True, warm_up: bool = True, speculate: bool = True,
) -> dict:
    """One suite's figures.  `warm_up`: first solve one more position of the
    suite, not counted, so that the table exists: a process's first touch of
    a table's memory now and then waits on the kernel for a quarter of a
    second (huge pages), once, whichever position it is (bench/README.md)."""
    times, cpu, nodes, ref_times = [], [], [], []
    flat = timeouts = 0

    def solve_one(pos: Position, limit: float | None = time_limit):
        if threads > 1:
            return solve_split(
                pos, opts=opts, time_limit=limit, model=model, threads=threads,
                shared_table=shared_table, within_cards=within_cards, speculate=speculate,
            )
        return solve(pos, opts, time_limit=limit, model=model)

    *suite, extra = positions(name, count + 1)
    warm_s = None
    if warm_up:
        # (A second at most: the table only needs touching.)
        start = time.perf_counter()
        with contextlib.suppress(TimeoutError):
            solve_one(extra, min(time_limit or WARM_UP_S, WARM_UP_S))
        warm_s = time.perf_counter() - start
    for pos in suite:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            sol = solve_one(pos)
        except TimeoutError:
            timeouts += 1
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            continue
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        nodes.append(sol.nodes)
        flat += len(set(sol.values.values())) == 1
        if reference:
            start = time.perf_counter()
            # (The plain minimax: the ratios in bench/README.md are against it.)
            _, values, _ = reference_solve(pos.to_hand(), model, prune=False)
            ref_times.append(time.perf_counter() - start)
            if opts == _search.ALL_OPTIONS and values != sol.values:
                raise SystemExit(f"{name}: the reference disagrees on {json.dumps(pos.to_json())}")
    out = {
        "suite": name,
        "model": model.value,
        "threads": threads,
        "build": _search.BUILD,
        "shared_table": threads > 1 and shared_table,
        "speculate": threads > 1 and shared_table and within_cards and speculate
        and model is Model.PARANOID,
        "within_cards": threads > 1 and shared_table and within_cards
        and model is Model.PARANOID,
        "positions": count,
        "flat": flat,
        "timeouts": timeouts,
        "median_s": statistics.median(times),
        "p90_s": pct(times, 0.9),
        "max_s": max(times),
        "cpu_median_s": statistics.median(cpu),
        "median_nodes": int(statistics.median(nodes)) if nodes else 0,
        "sum_nodes": sum(nodes),
        "nodes_per_s": sum(nodes) / sum(times),
        "warm_up_s": warm_s,
    }
    if ref_times:
        out["reference_median_s"] = statistics.median(ref_times)
        out["speedup_total"] = sum(ref_times) / sum(times)
        ratios = [r / t for r, t in zip(ref_times, times, strict=True)]
        out["speedup_median"] = statistics.median(ratios)
    if name in BARS:
        out["bar_s"] = BARS[name]
        out["bar_met"] = out["median_s"] <= BARS[name]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 positions per suite")
    parser.add_argument("--positions", type=int, default=None, help="positions per suite")
    parser.add_argument("--suite", action="append", choices=sorted(SUITES), help="only these")
    parser.add_argument(
        "--without", action="append", default=[], choices=sorted(_search.OPTIONS),
        help="switch a search technique off (to measure what it buys)",
    )
    parser.add_argument(
        "--with", dest="with_", action="append", default=[], choices=sorted(_search.OPTIONS),
        help="switch on a technique the search leaves off by default (history, killer)",
    )
    parser.add_argument(
        "--game", choices=("cursed-bottle", "bottle-imp"), help="only this game's suites"
    )
    parser.add_argument("--no-reference", action="store_true", help="skip the Python reference")
    parser.add_argument(
        "--first-leads", action="store_true",
        help="only the first lead of every rule set, beside the solver issue's targets",
    )
    parser.add_argument(
        "--model", choices=("paranoid", "maxn", "both"), default="paranoid",
        help="the model solved (both: each suite under both, on the same positions)",
    )
    parser.add_argument(
        "--time-limit", type=float, default=None, metavar="SECONDS",
        help="give up on a position after this long (counted as a timeout)",
    )
    parser.add_argument(
        "--threads", type=int, default=1,
        help="share each position's cards among this many threads (solve_split; the"
        " time limit is then wall-clock time)",
    )
    parser.add_argument(
        "--own-tables", action="store_true",
        help="with --threads: each thread its own table, not one they share (the paranoid"
        " model; max-n's threads always keep their own)",
    )
    parser.add_argument(
        "--whole-cards", action="store_true",
        help="with --threads: a card a thread, each card's probes not split into the answers"
        " to it (solver/split.py; to measure what splitting buys)",
    )
    parser.add_argument(
        "--no-speculation", action="store_true",
        help="with --threads: a thread with nothing else to do waits, or takes a probe's"
        " later answers, rather than probing a card at a bound beside its plan's"
        " (solver/split.py; to measure what speculating buys)",
    )
    parser.add_argument(
        "--no-warm-up", action="store_true",
        help="time from a cold start: no position solved, uncounted, before each suite's",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per suite")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error(f"--threads: {args.threads} is not at least 1")
    if args.time_limit is not None and not args.time_limit > 0:
        parser.error(f"--time-limit: {args.time_limit:g} seconds is not more than 0")
    if args.own_tables and args.threads < 2:
        parser.error("--own-tables needs --threads 2 or more (it gives each thread its own table)")
    if args.whole_cards and args.threads < 2:
        parser.error("--whole-cards needs --threads 2 or more (it is how threads share a position)")
    if args.no_speculation and args.threads < 2:
        parser.error("--no-speculation needs --threads 2 or more (only threads speculate)")
    count = args.positions or (5 if args.quick else 20)
    opts = _search.ALL_OPTIONS
    for name in args.with_:
        opts |= _search.OPTIONS[name]
    for name in args.without:
        opts &= ~_search.OPTIONS[name]
    failed = False
    names = args.suite or (list(FIRST_LEADS) if args.first_leads else list(SUITES))
    if args.game:
        names = [n for n in names if n.startswith("imp-") == (args.game == "bottle-imp")]
    models = list(Model) if args.model == "both" else [Model(args.model)]
    rows = (
        (name, model) for name in names for model in models
    )
    if not args.json:
        # (The figures depend on the build: setup.py's profile-guided one is faster.)
        print("build: " + ", ".join(f"{k} {'yes' if v else 'no'}"
                                    for k, v in _search.BUILD.items()), flush=True)
    for name, model in rows:
        reference = SUITES[name][2] and not args.no_reference
        if args.quick and name == "4p-5":
            reference = False
        row = run_suite(
            name, count, opts, reference, model, args.time_limit, args.threads,
            not args.own_tables, not args.whole_cards, not args.no_warm_up,
            not args.no_speculation,
        )
        if model is Model.PARANOID:
            failed |= row.get("bar_met") is False
        if args.json:
            print(json.dumps(row))
        else:
            line = (
                f"{name:14} {model.value:8} n={count:<3} flat {row['flat']:>2}"
                + (f" threads {args.threads}" if args.threads > 1 else "")
                + (" own tables" if args.threads > 1 and args.own_tables else "")
                + (" whole cards" if args.threads > 1 and args.whole_cards else "")
                + (" no speculation" if args.threads > 1 and args.no_speculation else "")
                + (f" timeouts {row['timeouts']}" if row["timeouts"] else "")
                + "".join(
                    f"{sep}{label} {('' if e else '>') + f'{row[key] * 1000:.2f}':>9} ms"
                    for sep, label, key, e in zip(
                        (" ", "  ", "  "), ("median", "p90", "max"),
                        ("median_s", "p90_s", "max_s"),
                        exact_figures(row["positions"], row["timeouts"]), strict=True)
                )
                + f"  (cpu median {row['cpu_median_s'] * 1000:8.2f} ms)"
                f"  nodes {row['median_nodes']:>10}  {row['nodes_per_s'] / 1e6:6.2f} Mnodes/s"
                + (f"  warm-up {row['warm_up_s'] * 1000:.0f} ms" if row["warm_up_s"] else "")
            )
            if "speedup_total" in row:
                line += (
                    f"  reference {row['reference_median_s'] * 1000:.0f} ms,"
                    f" x{row['speedup_total']:.0f} (median x{row['speedup_median']:.0f})"
                )
            if name in FIRST_LEADS and model is Model.PARANOID:
                line += "  target " + "/".join(
                    "-" if t is None else f"{t * 1000:g}" for t in FIRST_LEADS[name]
                ) + " ms " + ("met" if target_met(row, FIRST_LEADS[name]) else "not met")
            if "bar_s" in row and model is Model.PARANOID:
                line += f"  bar {row['bar_s'] * 1000:.0f} ms {'ok' if row['bar_met'] else 'MISSED'}"
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
